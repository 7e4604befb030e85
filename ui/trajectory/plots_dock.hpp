// The plots of a trajectory: one tab each for τ, q, q̇, q̈, joint power τ·q̇, energy, and the
// lecture decomposition of τ into M(q)q̈, c(q, q̇) and g(q). Effort limits are drawn on the τ
// plot and samples beyond them flagged. Every plot's cursor follows the trajectory time; a click
// on a plot asks for that time (timeRequested). Tabs are filled when first shown after a change,
// so a recomputation costs one plot, not seven.
#pragma once
#include <QDockWidget>
#include <vector>

class PlotWidget;
class QTabWidget;
class StackedDecompositionPlot;
class TimeSeriesPlot;
class TrajectoryDocument;

class PlotsDock : public QDockWidget {
  Q_OBJECT

 public:
  enum Tab { Torque, Position, Velocity, Acceleration, Power, Energy, Decomposition, TabCount };

  PlotsDock(TrajectoryDocument* doc, QWidget* parent = nullptr);

  QTabWidget* tabs() const { return m_tabs; }
  TimeSeriesPlot* plot(Tab tab) const;  // null for Decomposition
  StackedDecompositionPlot* decompositionPlot() const { return m_decomposition; }
  PlotWidget* currentPlot() const;
  void showTab(Tab tab);

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
};
