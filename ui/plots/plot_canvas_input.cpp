// PlotCanvas: mouse, wheel and keyboard (scrub, zoom, pan, rubber band, context menu trigger).
#include <QGraphicsLineItem>
#include <QMouseEvent>
#include <QRubberBand>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "plots/plot_canvas.hpp"
#include "plots/plot_legend.hpp"

namespace {
constexpr int kDragThreshold = 4;  // pixels before a right-press becomes a rubber band
constexpr double kZoomStep = 0.8;  // one wheel notch or one '+'
}  // namespace

void PlotCanvas::scrubTo(const QPoint& p) {
  double t = std::clamp(valueAt(chartPosition(p)).x(), m_axisX->min(), m_axisX->max());
  if (!std::isfinite(t)) return;
  setCursorTime(t);  // move first: the timeline may answer with setCursorTime(snapped t)
  emit cursorTimeRequested(t);
}

void PlotCanvas::mousePressEvent(QMouseEvent* event) {
  const QPoint p = event->position().toPoint();
  m_pressPos = m_lastPos = p;
  setFocus(Qt::MouseFocusReason);
  event->accept();
  if (event->button() == Qt::LeftButton) {
    const int entry = m_legend->entryAt(m_legend->mapFromScene(mapToScene(p)));
    if (entry >= 0) {
      if (m_content) m_content->legendEntryClicked(entry);
      return;
    }
  }
  const bool inside = inPlotArea(p);
  const Qt::KeyboardModifiers mods = event->modifiers();
  if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && (mods & Qt::ShiftModifier))) {
    m_drag = Drag::Pan;
  } else if (event->button() == Qt::LeftButton && (mods & Qt::ControlModifier)) {
    m_drag = inside ? Drag::Band : Drag::None;
  } else if (event->button() == Qt::LeftButton) {
    m_drag = inside ? Drag::Scrub : Drag::None;
    if (inside) scrubTo(p);
  } else if (event->button() == Qt::RightButton) {
    m_drag = Drag::MaybeMenu;
  }
}

void PlotCanvas::mouseMoveEvent(QMouseEvent* event) {
  const QPoint p = event->position().toPoint();
  if (m_drag == Drag::MaybeMenu && (p - m_pressPos).manhattanLength() > kDragThreshold) m_drag = Drag::Band;
  switch (m_drag) {
    case Drag::Scrub:
      scrubTo(p);
      updateHover(p);
      break;
    case Drag::Pan:
      panBy(p.x() - m_lastPos.x(), p.y() - m_lastPos.y());
      break;
    case Drag::Band: {
      const QRect area = mapFromScene(chart()->mapToScene(chart()->plotArea())).boundingRect();
      m_band->setGeometry(QRect(m_pressPos, p).normalized() & area);
      m_band->show();
      hideHover();
      break;
    }
    case Drag::MaybeMenu:
      break;
    case Drag::None: {
      updateHover(p);
      const bool overEntry = m_legend->entryAt(m_legend->mapFromScene(mapToScene(p))) >= 0;
      viewport()->setCursor(overEntry ? Qt::PointingHandCursor : Qt::CrossCursor);
      break;
    }
  }
  m_lastPos = p;
  event->accept();
}

void PlotCanvas::mouseReleaseEvent(QMouseEvent* event) {
  const QPoint p = event->position().toPoint();
  const Drag drag = m_drag;
  m_drag = Drag::None;
  if (drag == Drag::Band) finishBand(p);
  if (drag == Drag::MaybeMenu && event->button() == Qt::RightButton) showContextMenu(viewport()->mapToGlobal(p));
  event->accept();
}

void PlotCanvas::finishBand(const QPoint& p) {
  m_band->hide();
  const QRect r = QRect(m_pressPos, p).normalized();
  const QPointF a = valueAt(chartPosition(r.topLeft()));
  const QPointF b = valueAt(chartPosition(r.bottomRight()));
  const QRectF plot = chart()->plotArea();
  m_userView = true;
  // A thin band zooms one axis only: a wide flat band selects a time interval.
  if (r.width() > kDragThreshold)
    setXRange(std::max(std::min(a.x(), b.x()), m_axisX->min()), std::min(std::max(a.x(), b.x()), m_axisX->max()));
  if (r.height() > kDragThreshold && plot.height() > 0)
    setYRange(std::max(std::min(a.y(), b.y()), m_axisY->min()), std::min(std::max(a.y(), b.y()), m_axisY->max()));
}

void PlotCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton &&
      m_legend->entryAt(m_legend->mapFromScene(mapToScene(event->position().toPoint()))) < 0)
    autoRange();
  event->accept();
}

void PlotCanvas::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return event->ignore();
  const QPointF v = valueAt(chartPosition(event->position().toPoint()));
  const double factor = std::pow(kZoomStep, steps);
  if (event->modifiers() & Qt::ControlModifier)
    zoomY(factor, std::clamp(v.y(), m_axisY->min(), m_axisY->max()));
  else
    zoomX(factor, std::clamp(v.x(), m_axisX->min(), m_axisX->max()));
  updateHover(event->position().toPoint());
  event->accept();
}

void PlotCanvas::keyPressEvent(QKeyEvent* event) {
  const bool yAxis = event->modifiers() & Qt::ControlModifier;
  const QRectF a = chart()->plotArea();
  const QPointF centre = valueAt(a.center());
  switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      yAxis ? zoomY(kZoomStep, centre.y()) : zoomX(kZoomStep, centre.x());
      break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
      yAxis ? zoomY(1 / kZoomStep, centre.y()) : zoomX(1 / kZoomStep, centre.x());
      break;
    case Qt::Key_Left:  // look at earlier times: the curves move right
      panBy(0.1 * a.width(), 0);
      break;
    case Qt::Key_Right:
      panBy(-0.1 * a.width(), 0);
      break;
    case Qt::Key_Up:
      panBy(0, 0.1 * a.height());
      break;
    case Qt::Key_Down:
      panBy(0, -0.1 * a.height());
      break;
    case Qt::Key_Home:
      autoRange();
      break;
    case Qt::Key_Escape:
      m_drag = Drag::None;
      m_band->hide();
      hideHover();
      break;
    default:
      QChartView::keyPressEvent(event);
      return;
  }
  event->accept();
}

void PlotCanvas::contextMenuEvent(QContextMenuEvent* event) {
  // A mouse right-click opens the menu on release, so that right-drag can zoom instead.
  if (event->reason() != QContextMenuEvent::Mouse) showContextMenu(event->globalPos());
  event->accept();
}

void PlotCanvas::leaveEvent(QEvent* event) {
  hideHover();
  QChartView::leaveEvent(event);
}

void PlotCanvas::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  layoutLegend();
}
