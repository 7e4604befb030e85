// The simulation dock: run / pause / step / reset a forward-dynamics simulation of the loaded
// robot from its current pose, with the integrator, step, tolerance, forward-dynamics algorithm
// (and the ABA-vs-CRBA comparison), torque source and passive joint effects chosen here; the
// sim-to-wall time ratio, and the energy monitor (total energy, relative drift, and the largest
// joint-acceleration difference when comparing) plotted live. The robot in the 3D view follows the simulation at
// the display rate; a paused or stopped run becomes the trajectory (scrub, plot, export).
// Constant per-joint torques are the RobotDocument's (typed in the joints dock's τ column).
// A closed-loop mechanism (docs/loops.md) gets the loop group: the solution method of the review's
// §3.4 (1 augmented, 2 multipliers, 3 null space), Baumgarte's stabilization with its gains and the
// projection onto the constraints; and a plot of the constraint violation |φ| and |φ'q̇|.
// The Ground box (ground_box.hpp) puts a ground plane under the robot, with the contact forces
// plotted (normal and friction, summed over the points that touch).
#pragma once
#include <QDockWidget>
#include <functional>
#include <optional>
#include <vector>

#include "dynscope/simulation/simulator.hpp"

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTimer;
class GroundBox;
class RobotDocument;
class SimulationRunner;
class TimeSeriesPlot;
class TrajectoryDocument;

class SimulationDock : public QDockWidget {
  Q_OBJECT
  // The width at which its plots are readable at their height, for the workspaces' layouts.
  Q_PROPERTY(QSize readableSize READ readableSize)

 public:
  enum class Source { Passive, Gravity, Constant, Pd, ComputedTorque, Replay };
  static constexpr double kRecordBytes = 64e6;  // a run's record is thinned beyond this size

  SimulationDock(RobotDocument* robot, TrajectoryDocument* trajectory, QWidget* parent = nullptr);
  ~SimulationDock() override;

  SimulationRunner* runner() const { return m_runner; }
  QList<QAction*> actions() const;  // run/pause (F6), step (F7), reset (F8), for the window's menu
  bool isRunning() const;

  // The settings and torque source as the controls say (for tests and the CLI-equivalence check).
  dyn::SimulationSettings settings() const;
  std::optional<dyn::Controller> controller(QString* error = nullptr) const;

  // Controls, for tests.
  QComboBox* integratorBox() const { return m_integrator; }
  QComboBox* sourceBox() const { return m_source; }
  Source torqueSource() const;
  QComboBox* algorithmBox() const { return m_algorithm; }
  QDoubleSpinBox* stepBox() const { return m_dt; }
  QCheckBox* compareBox() const { return m_compare; }
  QLabel* statusLabel() const { return m_status; }
  TimeSeriesPlot* energyPlot() const { return m_energyPlot; }
  TimeSeriesPlot* driftPlot() const { return m_driftPlot; }
  TimeSeriesPlot* differencePlot() const { return m_diffPlot; }
  // Closed loops (shown only for a mechanism with loop-closure joints).
  QGroupBox* loopGroup() const { return m_loopGroup; }
  // Presentation mode (F11): the settings made at the desk (integration, the file's joint effects)
  // are hidden, so the run controls, the torques and the energy chart fit without scrolling.
  void setPresentationMode(bool on);
  QSize readableSize() const;
  QComboBox* loopMethodBox() const { return m_loopMethod; }
  QCheckBox* baumgarteBox() const { return m_baumgarte; }
  QDoubleSpinBox* baumgarteAlphaBox() const { return m_alpha; }
  QDoubleSpinBox* baumgarteBetaBox() const { return m_beta; }
  QCheckBox* projectionBox() const { return m_projection; }
  TimeSeriesPlot* constraintPlot() const { return m_constraintPlot; }
  GroundBox* groundBox() const { return m_ground; }
  TimeSeriesPlot* contactPlot() const { return m_contactPlot; }
  QTabWidget* plotTabs() const { return m_plots; }
  void setReplayFile(const QString& path);

 public slots:
  void start();
  void pause();
  void stepOnce();
  void reset();  // back to the pose the run started from, at rest
  void togglePlay();
  // Asked before a new run (not a continued one) starts: the run replaces the trajectory when it
  // pauses, so the window checks for unsaved work. False cancels the run.
  void setNewRunGuard(std::function<bool()> guard) { m_newRunGuard = std::move(guard); }

 signals:
  void message(const QString& text, bool warning);
  void runningChanged(bool running);
  void torqueSourceChanged(SimulationDock::Source source);
  void jointTorquesRequested();                // "Set them in the Joints dock": show that dock
  void groundChanged(bool on, double height);  // the Ground box (the 3D view puts its grid there)
  void stateShown();                           // the robot was set to the run's state (display rate)

 private:
  bool configureFromRobot(const Eigen::VectorXd& q0);
  void applySettings();
  void onTick();
  void onStoppedByItself(const QString& reason);
  void publishRecord();
  void updateStatus();
  void updatePlots();
  void updateTorqueHint();
  void updateSourceControls();
  void updateLoopControls();  // the loop group and plot for the model shown
  void updateGroundDefaults();

  RobotDocument* m_robot;
  std::function<bool()> m_newRunGuard;
  bool m_published = false;  // the current run's record is the trajectory (a continued run replaces nothing new)
  TrajectoryDocument* m_traj;
  SimulationRunner* m_runner;
  QTimer* m_display;
  int m_ticks = 0;
  Eigen::VectorXd m_q0;  // where the current run started
  bool m_stale = true;   // the model changed: configure anew on start

  QAction* m_playAction;
  QAction* m_stepAction;
  QAction* m_resetAction;
  QPushButton* m_play;
  QComboBox* m_integrator;
  QDoubleSpinBox* m_dt;
  QComboBox* m_tolerance;
  QComboBox* m_algorithm;
  QCheckBox* m_compare;
  QComboBox* m_source;
  QDoubleSpinBox* m_kp;
  QDoubleSpinBox* m_kd;
  QLabel* m_torqueHint;  // where to type constant torques, and how many are set
  QPushButton* m_editTorques;
  QPushButton* m_replayButton;
  QLabel* m_replayLabel;
  QString m_replayFile;
  QCheckBox* m_damping;
  QCheckBox* m_friction;
  QCheckBox* m_limits;
  QDoubleSpinBox* m_limitStiffness;
  QComboBox* m_speed;
  QLabel* m_status;
  QTabWidget* m_plots;
  TimeSeriesPlot* m_energyPlot;
  TimeSeriesPlot* m_driftPlot;
  TimeSeriesPlot* m_diffPlot;
  QGroupBox* m_loopGroup;
  QTabWidget* m_settings;            // integration, joint effects, ground
  std::vector<QWidget*> m_deskOnly;  // hidden while presenting
  bool m_presentation = false;
  QComboBox* m_loopMethod;
  QCheckBox* m_baumgarte;
  QDoubleSpinBox* m_alpha;
  QDoubleSpinBox* m_beta;
  QCheckBox* m_projection;
  TimeSeriesPlot* m_constraintPlot;
  TimeSeriesPlot* m_contactPlot;
  GroundBox* m_ground;
  std::string m_groundModel;  // the robot the ground's defaults were set for (file and name)
};
