#include "plots/plot_widget.hpp"

#include <QVBoxLayout>

PlotWidget::PlotWidget(QWidget* parent, PlotCanvas::Scale scale) : QWidget(parent) {
  m_canvas = new PlotCanvas(this, this, scale);
  m_canvas->setObjectName("plotCanvas");
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
