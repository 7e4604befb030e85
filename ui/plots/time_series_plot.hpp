// Many series over time in one chart (e.g. the torques of all joints): one palette colour per
// series, legend entries that toggle series, a time cursor synced with a timeline, hover
// read-out, zoom/pan/auto-range, limit lines and flagged samples, PNG/SVG/CSV export.
// Knows nothing about robots: it plots the numbers it is given. See docs/plots.md.
#pragma once
#include <Eigen/Core>
#include <QStringList>
#include <span>
#include <vector>

#include "plots/plot_widget.hpp"

class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;

class TimeSeriesPlot : public PlotWidget {
  Q_OBJECT

 public:
  explicit TimeSeriesPlot(QWidget* parent = nullptr);

  // values is series x samples; t (non-decreasing, finite) has one entry per sample and names
  // one per series. On bad input returns false with a message, and the plot keeps its data.
  // Flagged samples are cleared; limits are kept while the number of series stays the same.
  // The view is auto-ranged unless the user has zoomed or panned since the last auto-range.
  bool setData(const std::vector<double>& t, const Eigen::MatrixXd& values, QStringList names, QString yLabel,
               QString xLabel = QStringLiteral("t [s]"), QString* error = nullptr);
  void clear();

  int seriesCount() const { return int(m_values.rows()); }
  int sampleCount() const { return int(m_t.size()); }
  QStringList seriesNames() const { return m_names; }
  QColor seriesColor(int i) const;
  std::span<const double> times() const { return m_t; }
  std::span<const double> seriesValues(int i) const;

  void setSeriesVisible(int i, bool visible);
  bool isSeriesVisible(int i) const;

  // Per-series limits (±inf or NaN: none), drawn as dashed lines in the series colour. The auto
  // range includes a limit only when it is near the data (see dataBounds); a limit outside the
  // view is named by a note at that edge of the plot ("limit 150 N·m ↑").
  bool setLimits(const std::vector<double>& lower, const std::vector<double>& upper, QString* error = nullptr);
  // Per-series unit for the limit notes (e.g. "N·m"; empty: none); kept while the count stays.
  void setLimitUnits(QStringList units);
  // Whether series i's upper (or lower) limit lies inside the current y range; false if none.
  bool limitInView(int series, bool upper) const;
  // The note that names the limits beyond Qt::TopEdge or Qt::BottomEdge; empty when none. Symmetric
  // limits beyond both edges share one note ("limits ±150 N·m ↕").
  QString limitNote(Qt::Edge edge) const;
  // Red markers on these samples of one series (e.g. those samplesOutsideLimits returns).
  bool setFlaggedSamples(int series, std::vector<int> sampleIndices, QString* error = nullptr);
  std::vector<int> flaggedSamples(int series) const;
  std::vector<int> samplesOutsideLimits(int series) const;  // strictly below lower or above upper

  bool exportCsv(const QString& path, QString* error = nullptr) const override;

  // What is drawn, for tests and for callers that style it further.
  QLineSeries* lineSeries(int i) const;
  QLineSeries* lowerLimitSeries(int i) const;  // null when that limit is none
  QLineSeries* upperLimitSeries(int i) const;
  QScatterSeries* flagSeries(int i) const;

 public slots:
  void showAllSeries() { setAllSeriesVisible(true); }
  void hideAllSeries() { setAllSeriesVisible(false); }

 signals:
  void seriesVisibilityChanged(int series, bool visible);

 protected:
  PlotBounds dataBounds() const override;
  bool hasData() const override { return !m_t.empty() && seriesCount() > 0; }
  bool readout(double t, double* sampleTime, QList<ReadoutRow>* rows) const override;
  void setAllSeriesVisible(bool visible) override;
  void legendEntryClicked(int entry) override;
  void viewChanged() override;
  void viewAboutToChange() override;

 private:
  struct Drawn {  // the chart series of one data series
    QLineSeries* line = nullptr;
    QLineSeries* lower = nullptr;
    QLineSeries* upper = nullptr;
    QScatterSeries* flags = nullptr;
    bool visible = true;
  };
  void resizeSeries(int n);
  void applyVisibility(int i);
  void rebuildPoints(int i);
  void rebuildLimits(int i);
  // A limit of series i that its own curve comes near (within a factor of two of the curve's extent):
  // the auto range shows it and draws its line; another joint's curve crossing it would read as a
  // violation, so the others are named in a note.
  bool nearOwnCurve(int i, double limit) const;
  // Whether series i's limit line is drawn: near its own curve, or anywhere in a view the user chose.
  bool limitDrawn(int i, double limit) const;
  void rebuildFlags(int i);
  void updateLegend();
  void updateLimitNotes();

  std::vector<double> m_t;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m_values;  // a row per series
  QStringList m_names;
  std::vector<double> m_lower, m_upper;
  std::vector<std::vector<int>> m_flags;
  std::vector<Drawn> m_drawn;
  QStringList m_limitUnits;
  struct Note {
    QGraphicsRectItem* box = nullptr;  // a pale backing, so that lines under it do not cross the text
    QGraphicsSimpleTextItem* text = nullptr;
  } m_noteTop, m_noteBottom;
  bool m_batch = false;  // inside setData: rebuild once at the end
};
