#include "plots/plot_widget.hpp"

#include <QLayout>
#include <QVBoxLayout>

PlotWidget::PlotWidget(QWidget* parent, PlotCanvas::Scale scale) : QWidget(parent) {
  m_canvas = new PlotCanvas(this, this, scale);
  m_canvas->setObjectName("plotCanvas");
  setMinimumSize(140, 110);  // hard minimum: smaller than readable, where the canvas says "too small"
  connect(m_canvas, &PlotCanvas::cursorTimeRequested, this, &PlotWidget::cursorTimeRequested);
}

// The canvas outlives this object's PlotContent part while QWidget deletes its children.
PlotWidget::~PlotWidget() { m_canvas->detachContent(); }

bool PlotWidget::exportPng(const QString& path, QSize size, QString* error) {
  return m_canvas->exportPng(path, size, 1.0, error);
}

bool PlotWidget::exportSvg(const QString& path, QString* error) {
  QSize size = m_canvas->chart()->size().toSize();
  if (size.width() < 200 || size.height() < 150) size = QSize(900, 560);  // never shown yet
  return m_canvas->exportSvg(path, size, error);
}

void PlotWidget::setCursorTime(double t) { m_canvas->setCursorTime(t); }

void PlotWidget::autoRange() { m_canvas->autoRange(); }

static QSize around(const QWidget* widget, const PlotCanvas* canvas, QSize canvasSize) {
  // The layout's minimum holds the canvas at its hard minimum: the difference is the rest.
  const QLayout* layout = widget->layout();
  if (!layout) return canvasSize;
  const QSize all = layout->minimumSize();
  const int extraHeight = std::max(0, all.height() - canvas->minimumSize().height());
  return QSize(std::max(all.width(), canvasSize.width()), canvasSize.height() + extraHeight);
}

QSize PlotWidget::minimumSizeHint() const { return around(this, m_canvas, m_canvas->minimumSizeHint()); }

QSize PlotWidget::sizeHint() const { return around(this, m_canvas, m_canvas->sizeHint()); }
