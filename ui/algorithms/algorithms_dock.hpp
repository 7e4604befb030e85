// The Algorithms dock (issue 14): which formulation of the engine's registry computes the live
// inverse dynamics (τ along the trajectory and at the current time) and forward dynamics
// (q̈ = FD(q, q̇, τ) at the current time): the choice is the TrajectoryDocument's, the dock only
// shows it. Below, every formulation on the loaded robot at the current state: its largest
// difference from RNEA / CRBA / ABA, its measured multiplications and additions and its time per
// call (or why it refuses the robot), and the classic figure: operation count against n, log-log,
// measured on general N-link chains next to the papers' polynomials and tabulated values.
// The table and the counts are computed on a worker thread (Uicker/Kahn's count is O(n⁴)).
//
// Wiring in the main window:
//   auto* algorithms = new AlgorithmsDock(m_traj, this);
//   addDockWidget(Qt::RightDockWidgetArea, algorithms);
#pragma once
#include <QDockWidget>
#include <QStringList>
#include <atomic>
#include <thread>
#include <vector>

#include "algorithms/formulation_survey.hpp"

class OperationCountPlot;
class QComboBox;
class QLabel;
class QScrollArea;
class QSplitter;
class QTabWidget;
class QTableWidget;
class QTimer;
class TrajectoryDocument;

class AlgorithmsDock : public QDockWidget {
  Q_OBJECT
  // Read by the workspaces (by name, without knowing this class): the size its views are readable at.
  Q_PROPERTY(QSize readableSize READ readableSize)

 public:
  enum Column { ProblemColumn, NameColumn, DiffColumn, RelColumn, MulsColumn, AddsColumn, JointColumn, TimeColumn };

  explicit AlgorithmsDock(TrajectoryDocument* traj, QWidget* parent = nullptr);
  ~AlgorithmsDock() override;

  QComboBox* inverseDynamicsCombo() const { return m_idCombo; }
  QComboBox* forwardDynamicsCombo() const { return m_fdCombo; }
  QTableWidget* table() const { return m_table; }
  // Non-null when the table and the figure are tabs (too narrow a dock for both side by side).
  QTabWidget* viewTabs() const { return m_tabbed ? m_views : nullptr; }
  OperationCountPlot* plot() const { return m_plot; }
  QString liveText() const;
  QString noteText() const;
  // The height that shows the whole dock without scrolling (its height and what it scrolls out of
  // view): what the main window gives it in presentation mode.
  int preferredHeight() const;
  // The size at which the table's column and the figure are readable (the figure's names, ticks
  // and titles in full): what the window should give the dock (docs/plots.md, "Sizes").
  QSize readableSize() const;

  // The rows shown (registry order) and the state they were computed at.
  const std::vector<survey::Row>& rows() const { return m_rows; }
  const Eigen::VectorXd& surveyQ() const { return m_state[0]; }
  const Eigen::VectorXd& surveyQd() const { return m_state[1]; }
  const Eigen::VectorXd& surveyQdd() const { return m_state[2]; }
  int surveysDone() const { return m_surveys; }
  int curvesDone() const { return m_curveRuns; }
  bool busy() const { return m_running; }

 public slots:
  void recompute();  // the table at the current state (and the figure if the robot's size changed)

 protected:
  void changeEvent(QEvent* event) override;  // FontChange (presentation mode): the table's width again
  void resizeEvent(QResizeEvent* event) override;

 private:
  void fitTableWidth();  // every column in view, the formulations' names in full
  void arrangeViews();   // table beside the figure, or the two as tabs when they do not both fit
  void fillCombos();
  void showLive();
  void startWork();
  void surveyFinished(std::vector<survey::Row> rows);
  void curvesFinished(std::vector<survey::Curve> curves, int nMax);
  void fillTable();
  void updateFigureNote();

  TrajectoryDocument* m_traj;
  QComboBox* m_idCombo;
  QComboBox* m_fdCombo;
  QComboBox* m_countCombo;
  QLabel* m_note;
  QLabel* m_live;
  QLabel* m_status;
  QLabel* m_figureNote;
  QTableWidget* m_table;
  QScrollArea* m_scroll;
  QSplitter* m_split;
  QTabWidget* m_views;  // the table's and the figure's panes as tabs (a narrow dock)
  QWidget* m_tablePane;
  QWidget* m_figurePane;
  bool m_tabbed = false;
  OperationCountPlot* m_plot;
  QTimer* m_debounce;

  std::vector<survey::Row> m_rows;
  Eigen::VectorXd m_state[3];
  int m_surveys = 0, m_curveRuns = 0;
  int m_curvesNMax = 0;  // nMax of the figure shown (or being computed)
  int m_robotN = 0;
  QStringList m_capped;  // the formulations the figure counts only up to a smaller n

  std::thread m_worker;
  std::atomic<bool> m_cancel{false};
  bool m_running = false, m_pending = false;
  bool m_stale = false;  // the state changed while the dock was hidden: measured when it is shown
};
