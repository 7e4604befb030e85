// The plots of a trajectory: one tab each for τ, q, q̇, q̈, joint power τ·q̇, energy, and the
// lecture decomposition of τ into M(q)q̈, c(q, q̇) and g(q). Effort limits are drawn on the τ
// plot and samples beyond them flagged. Every plot's cursor follows the trajectory time; a click
// on a plot asks for that time (timeRequested). Tabs are filled when first shown after a change,
// so a recomputation costs one plot, not seven. An empty plot (no trajectory, e.g. after
// switching robots) shows no time cursor. A script's plots (session/script_link.hpp) are tabs after
// these, one per title, with the same cursor.
#pragma once
#include <Eigen/Core>
#include <QDockWidget>
#include <QStringList>
#include <vector>

class PlotWidget;
class QTabWidget;
class StackedDecompositionPlot;
class TimeSeriesPlot;
class TrajectoryDocument;

class PlotsDock : public QDockWidget {
  Q_OBJECT
  // Read by the workspaces (by name, without knowing this class): the size its views are readable at.
  Q_PROPERTY(QSize readableSize READ readableSize)

 public:
  enum Tab { Torque, Position, Velocity, Acceleration, Power, Energy, Decomposition, TabCount };

  PlotsDock(TrajectoryDocument* doc, QWidget* parent = nullptr);

  QTabWidget* tabs() const { return m_tabs; }
  TimeSeriesPlot* plot(Tab tab) const;  // null for Decomposition
  StackedDecompositionPlot* decompositionPlot() const { return m_decomposition; }
  PlotWidget* currentPlot() const;
  void showTab(Tab tab);
  // The size at which every filled plot is readable (ticks, titles and legend names in full):
  // what the window should give the dock (docs/plots.md, "Sizes"). The dock's own minimum stays
  // small: squeezed below this, a plot shows a "too small" hint instead of a smear.
  QSize readableSize() const;

  // A script's plot: a tab titled `title` after the trajectory's, made or refilled and shown.
  // values is series x samples. False and the plot's message on bad data.
  bool showScriptPlot(const QString& title, const std::vector<double>& t, const Eigen::MatrixXd& values,
                      const QStringList& names, const QString& yLabel, QString* error = nullptr);
  QStringList scriptPlotTitles() const;

 signals:
  void timeRequested(double t);

 private:
  void invalidate();
  void fillCurrent();
  void fill(int tab);

  TrajectoryDocument* m_doc;
  QTabWidget* m_tabs;
  std::vector<TimeSeriesPlot*> m_series;  // Torque .. Energy
  StackedDecompositionPlot* m_decomposition;
  std::vector<bool> m_stale;
  std::vector<TimeSeriesPlot*> m_scriptPlots;  // tabs TabCount, TabCount + 1, ...
};
