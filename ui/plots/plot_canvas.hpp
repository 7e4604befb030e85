// The chart view shared by TimeSeriesPlot, StackedDecompositionPlot and OperationCountPlot: axes,
// grid, legend, time cursor, hover read-out, mouse/keyboard zoom and pan, context menu, PNG/SVG
// export. What is plotted stays with the owning plot, which answers the canvas through PlotContent.
// Readable at every size it is given or honest about it: axis titles horizontal and never cut (the
// y title above the axis, the x title at the right end of the tick labels, as DIN 461 places
// them), at least four labelled ticks per axis, legend names in full beside or below the plot,
// and below its readable size (minimumSizeHint) a "too small, enlarge" hint instead of the chart.
#pragma once
#include <QChartView>
#include <QList>
#include <QPointer>
#include <array>
#include <cmath>
#include <vector>

class PlotLegend;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;
class QLabel;
class QMenu;
class QPainter;
class QRubberBand;
class QValueAxis;

// Data-space rectangle (y up); empty when there is nothing to show.
struct PlotBounds {
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  bool empty = true;
  void include(double x, double y);
};

// One line of the hover read-out.
struct ReadoutRow {
  QString name;
  QColor color;
  double value;
};

// What a plot provides to its canvas.
class PlotContent {
 public:
  virtual ~PlotContent() = default;

 protected:
  friend class PlotCanvas;
  // Extent of the visible data (all samples, not only the current view), for auto-range.
  virtual PlotBounds dataBounds() const = 0;
  // The visible series at the sample nearest to t; false if there is no data.
  virtual bool readout(double t, double* sampleTime, QList<ReadoutRow>* rows) const = 0;
  virtual bool exportCsv(const QString& path, QString* error = nullptr) const = 0;
  // False when there is nothing to plot: no time cursor is drawn on an empty plot.
  virtual bool hasData() const { return true; }
  virtual void setAllSeriesVisible(bool visible) = 0;
  virtual void legendEntryClicked(int entry) = 0;
  // The x range or the plot's width in pixels changed: rebuild the decimated point lists.
  virtual void viewChanged() = 0;
  // The x range is about to change. Qt Charts re-strokes every line when the range changes and
  // again when viewChanged replaces its points; emptying the lines first halves a zoom's cost.
  virtual void viewAboutToChange() {}
};

class PlotCanvas : public QChartView {
  Q_OBJECT

 public:
  // Log: both axes hold log10 of the values (the content plots log10 x, log10 y); ticks sit at
  // 1-2-5 of each decade and are labelled with the values themselves; the read-out shows values.
  enum class Scale { Linear, LogLog };
  PlotCanvas(PlotContent* content, QWidget* parent = nullptr, Scale scale = Scale::Linear);
  Scale scale() const { return m_scale; }
  void detachContent() { m_content = nullptr; }  // the owning plot is being destroyed

  QValueAxis* axisX() const { return m_axisX; }
  QValueAxis* axisY() const { return m_axisY; }
  PlotLegend* plotLegend() const { return m_legend; }
  void setAxisTitles(const QString& x, const QString& y);
  void addSeries(QAbstractSeries* series);     // added to the chart on both axes
  void legendChanged();                        // after changing the legend's entries: re-layout
  QString axisTitle(Qt::Orientation o) const;  // the full title, as set

  // Readability. The smallest size at which every tick label, axis title and legend name shows in
  // full with >= 4 ticks per axis (for the current fonts and legend entries); below it the view
  // shows a "too small" hint. The hard minimum is smaller, so that a squeezed layout never pushes
  // the window off the screen.
  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;
  // The smallest readable width when `height` pixels high (a tall view can put the legend in one
  // column beside the plot); huge when no width is enough.
  int readableWidthAtHeight(int height) const;
  bool isReadable() const { return m_readable; }  // false: the "too small" hint is shown
  QString unreadableReason() const { return m_unreadable; }
  enum class LegendPlace { None, Below, Right };
  LegendPlace legendPlace() const { return m_legendPlace; }
  QGraphicsSimpleTextItem* axisTitleItem(Qt::Orientation o) const { return o == Qt::Horizontal ? m_titleX : m_titleY; }
  bool axisTitleElided(Qt::Orientation o) const;

  // Pixel <-> data mapping inside the chart item (the same linear map QChart uses).
  QPointF valueAt(const QPointF& chartPos) const;
  QPointF positionOf(const QPointF& value) const;
  QPointF chartPosition(const QPoint& viewportPos) const;
  int plotWidthPixels() const;

  // Time cursor: a vertical line at t across the plot area; NaN hides it. Never emits.
  void setCursorTime(double t);
  double cursorTime() const { return m_cursorTime; }
  QLineF cursorLine() const;  // chart coordinates; null when not drawn

  QString hoverText() const { return m_hoverPlain; }  // plain text of the read-out, empty if none

  // View. setData calls autoRangeIfUntouched, which keeps a view the user zoomed or panned.
  void autoRange();
  void autoRangeIfUntouched();
  // The y range is the last auto range's (not zoomed, panned or set since).
  bool showsAutoRange() const;
  void zoomX(double factor, double aroundX);
  void zoomY(double factor, double aroundY);
  void panBy(double dxPixels, double dyPixels);
  void setXRange(double x0, double x1);
  void setYRange(double y0, double y1);

  // Render the chart laid out at `size` (logical pixels) times `scale`. False + error on failure.
  bool exportPng(const QString& path, QSize size, double scale = 1.0, QString* error = nullptr);
  bool exportSvg(const QString& path, QSize size, QString* error = nullptr);

  QMenu* createContextMenu();  // caller owns; exec()ed on right-click without drag

 signals:
  void cursorTimeRequested(double t);

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  enum class Drag { None, Scrub, Pan, MaybeMenu, Band };
  struct Metrics;  // font-derived sizes of the chart's parts (plot_canvas_layout.cpp)
  Metrics metrics() const;
  std::vector<QSizeF> readableSizes() const;
  void layoutLegend();     // picks the legend's place and the chart margins for the current size
  void placeAxisTitles();  // after Qt has laid out the plot area
  void updateReadable();
  void applyFonts();  // the widget's font (e.g. presentation mode's larger one) for axes and legend
  void updateCursorItem();
  void updateTicks();
  void applyRange(QValueAxis* axis, double lo, double hi);
  void applyLogTicks(QValueAxis* axis, double lo, double hi);
  void requestViewChanged();
  void updateHover(const QPoint& viewportPos);
  void hideHover();
  void scrubTo(const QPoint& viewportPos);
  void finishBand(const QPoint& viewportPos);
  void showContextMenu(const QPoint& globalPos);
  void renderChart(QPainter* painter, QSize size);
  bool inPlotArea(const QPoint& viewportPos) const;

  PlotContent* m_content;
  Scale m_scale = Scale::Linear;
  QValueAxis* m_axisX;  // QCategoryAxis (a QValueAxis with labels at chosen values) for LogLog
  QValueAxis* m_axisY;
  PlotLegend* m_legend;
  QGraphicsLineItem* m_cursorItem;
  QGraphicsSimpleTextItem* m_titleX;
  QGraphicsSimpleTextItem* m_titleY;
  QLabel* m_tooSmall;
  QLabel* m_hoverLabel;
  QRubberBand* m_band;
  QString m_hoverPlain;
  double m_cursorTime = NAN;
  int m_lastPlotWidth = -1;
  std::array<double, 2> m_tickBias{};  // x, y: the tick anchor above zero (applyRange)
  bool m_settingRange = false;         // inside applyRange
  bool m_viewPending = false;          // viewChanged due when applyRange returns
  bool m_userView = false;             // zoomed/panned since the last auto-range
  double m_autoY0 = 0, m_autoY1 = 0;   // the y range the last auto-range set
  bool m_readable = true;
  QString m_unreadable;  // why not readable (tests, debugging)
  bool m_layingOut = false;
  LegendPlace m_legendPlace = LegendPlace::None;
  Drag m_drag = Drag::None;
  QPoint m_pressPos, m_lastPos;
};
