// A scroll area for a dock's column of controls: it scrolls up and down, never sideways, and is
// never narrower than its contents' minimum width (plus the vertical scroll bar), so that the
// window gives the dock that width instead of clipping a number at the dock's right edge (the
// Trajectory and Simulation docks on a 1366x768 laptop). The width follows the font, so
// presentation mode's larger one widens it.
#pragma once
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>

class VerticalScrollArea : public QScrollArea {
 public:
  explicit VerticalScrollArea(QWidget* parent = nullptr) : QScrollArea(parent) {
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  }
  QSize minimumSizeHint() const override {
    QSize s = QScrollArea::minimumSizeHint();
    if (const QWidget* w = widget())
      s.setWidth(w->minimumSizeHint().width() + style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) +
                 2 * frameWidth());
    return s;
  }
};
