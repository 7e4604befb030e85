// Base of TimeSeriesPlot and StackedDecompositionPlot: owns the PlotCanvas and exposes the
// behaviour they share (time cursor, auto-range, PNG/SVG export) as public API.
#pragma once
#include <QWidget>

#include "plots/plot_canvas.hpp"

class PlotWidget : public QWidget, protected PlotContent {
  Q_OBJECT

 public:
  PlotCanvas* canvas() const { return m_canvas; }
  double cursorTime() const { return m_canvas->cursorTime(); }
  QString hoverText() const { return m_canvas->hoverText(); }

  // Export as drawn (legend, cursor, limits included; the hover read-out is not). False and a
  // message naming the file on failure (unwritable path, invalid size).
  bool exportPng(const QString& path, QSize size, QString* error = nullptr);
  bool exportSvg(const QString& path, QString* error = nullptr);  // at the widget's current size
  bool exportCsv(const QString& path, QString* error = nullptr) const override = 0;

  // The canvas's readable size plus what is laid out around it (the decomposition's joint bar).
  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 public slots:
  // Moves the cursor line; never emits cursorTimeRequested (no loop with the timeline).
  void setCursorTime(double t);
  void autoRange();  // fit all visible data (also Home, double-click, context menu)

 signals:
  // The user clicked or dragged on the plot area at time t (the cursor already moved there).
  void cursorTimeRequested(double t);

 protected:
  explicit PlotWidget(QWidget* parent = nullptr, PlotCanvas::Scale scale = PlotCanvas::Scale::Linear);
  ~PlotWidget() override;
  PlotCanvas* m_canvas;
};
