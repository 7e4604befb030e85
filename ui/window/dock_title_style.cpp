#include "window/dock_title_style.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <QPainter>
#include <QStyleOptionDockWidget>

DockTitleStyle::DockTitleStyle() : QProxyStyle(static_cast<QStyle*>(nullptr)) { setObjectName("dockTitleStyle"); }

void DockTitleStyle::drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                                 const QWidget* widget) const {
  const auto* title = qstyleoption_cast<const QStyleOptionDockWidget*>(option);
  if (element != CE_DockWidgetTitle || !title || !widget)
    return QProxyStyle::drawControl(element, option, painter, widget);
  QStyleOptionDockWidget own(*title);
  own.fontMetrics = widget->fontMetrics();
  painter->save();
  painter->setFont(widget->font());
  QProxyStyle::drawControl(element, &own, painter, widget);
  painter->restore();
}

void DockTitleStyle::setFollowFont(QMainWindow* window, bool on) {
  auto* style = window->findChild<DockTitleStyle*>("dockTitleStyle", Qt::FindDirectChildrenOnly);
  if (on && !style) {
    style = new DockTitleStyle;
    style->setParent(window);  // deleted with the window, after its docks
  }
  for (QDockWidget* d : window->findChildren<QDockWidget*>()) {
    if (on && d->style() != style)
      d->setStyle(style);
    else if (!on && style && d->style() == style)
      d->setStyle(nullptr);  // the application style, as before
  }
}
