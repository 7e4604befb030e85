#include "simulation/simulation_dock.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "document/robot_document.hpp"
#include "dynscope/model/names.hpp"
#include "dynscope/simulation/start_beyond_limits.hpp"
#include "plots/time_series_plot.hpp"
#include "simulation/ground_box.hpp"
#include "simulation/simulation_runner.hpp"
#include "trajectory/trajectory_document.hpp"
#include "widgets/vertical_scroll_area.hpp"

namespace {

QDoubleSpinBox* spin(double lo, double hi, int decimals, double value, const QString& suffix, QWidget* parent) {
  auto* s = new QDoubleSpinBox(parent);
  s->setRange(lo, hi);
  s->setDecimals(decimals);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setKeyboardTracking(false);
  return s;
}

std::vector<double> toStd(const std::vector<double>& v) { return v; }

}  // namespace

SimulationDock::SimulationDock(RobotDocument* robot, TrajectoryDocument* trajectory, QWidget* parent)
    : QDockWidget(tr("Simulation"), parent), m_robot(robot), m_traj(trajectory) {
  setObjectName("simulationDock");
  m_runner = new SimulationRunner(this);
  m_display = new QTimer(this);
  m_display->setInterval(16);  // the display rate; the worker steps at the physics rate
  connect(m_display, &QTimer::timeout, this, &SimulationDock::onTick);
  connect(m_runner, &SimulationRunner::stoppedByItself, this, &SimulationDock::onStoppedByItself);
  // The steady wrench (the Trajectory dock's) acts on a run too, from its next step.
  connect(m_traj, &TrajectoryDocument::dynamicsChanged, this,
          [this] { m_runner->setSteadyWrenches(m_traj->engineWrenches()); });

  auto* body = new QWidget;
  auto* col = new QVBoxLayout(body);

  // Run controls.
  m_playAction = new QAction(tr("&Run / pause simulation"), this);
  m_playAction->setObjectName("simulationRunAction");
  m_playAction->setShortcut(QKeySequence(Qt::Key_F6));
  connect(m_playAction, &QAction::triggered, this, &SimulationDock::togglePlay);
  m_stepAction = new QAction(tr("&Step simulation"), this);
  m_stepAction->setObjectName("simulationStepAction");
  m_stepAction->setShortcut(QKeySequence(Qt::Key_F7));
  connect(m_stepAction, &QAction::triggered, this, &SimulationDock::stepOnce);
  m_resetAction = new QAction(tr("R&eset simulation"), this);
  m_resetAction->setObjectName("simulationResetAction");
  m_resetAction->setShortcut(QKeySequence(Qt::Key_F8));
  connect(m_resetAction, &QAction::triggered, this, &SimulationDock::reset);
  auto* row = new QHBoxLayout;
  m_play = new QPushButton(tr("Run"), body);
  m_play->setObjectName("simulationRun");
  m_play->setToolTip(tr("Simulate from the robot's current pose, at rest (F6 runs and pauses)"));
  connect(m_play, &QPushButton::clicked, this, &SimulationDock::togglePlay);
  auto* step = new QPushButton(tr("Step"), body);
  step->setToolTip(tr("One time step (F7)"));
  connect(step, &QPushButton::clicked, this, &SimulationDock::stepOnce);
  auto* resetButton = new QPushButton(tr("Reset"), body);
  resetButton->setToolTip(tr("Back to the pose the run started from, at rest (F8)"));
  connect(resetButton, &QPushButton::clicked, this, &SimulationDock::reset);
  m_speed = new QComboBox(body);
  m_speed->setObjectName("simulationSpeed");
  for (double s : {0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0}) m_speed->addItem(QString("%1×").arg(s), s);
  m_speed->addItem(tr("fastest"), 1000.0);
  m_speed->setCurrentIndex(3);
  m_speed->setToolTip(tr("Simulated time per wall-clock time (1× = real time)"));
  connect(m_speed, &QComboBox::currentIndexChanged, this,
          [this] { m_runner->setSpeed(m_speed->currentData().toDouble()); });
  for (QPushButton* b : {m_play, step, resetButton}) row->addWidget(b);
  col->addLayout(row);
  auto* speedRow = new QFormLayout;
  speedRow->addRow(tr("Speed"), m_speed);
  col->addLayout(speedRow);
  m_status = new QLabel(tr("Not started: Run simulates from the current pose."), body);
  m_status->setObjectName("simulationStatus");
  m_status->setWordWrap(true);
  col->addWidget(m_status);

  // Integration.
  auto* integration = new QGroupBox(tr("Integration"), body);
  auto* iform = new QFormLayout(integration);
  m_integrator = new QComboBox(integration);
  m_integrator->setObjectName("simulationIntegrator");
  m_integrator->addItem(tr("Semi-implicit Euler (symplectic)"), int(dyn::Integrator::SemiImplicitEuler));
  m_integrator->addItem(tr("Runge–Kutta 4"), int(dyn::Integrator::Rk4));
  m_integrator->addItem(tr("Dormand–Prince RK45 (adaptive)"), int(dyn::Integrator::DormandPrince45));
  iform->addRow(tr("Integrator"), m_integrator);
  m_dt = spin(0.01, 100, 2, 1.0, tr(" ms"), integration);
  m_dt->setObjectName("simulationStep");
  m_dt->setToolTip(tr("Time step (Dormand–Prince: the display interval and the largest sub-step)"));
  iform->addRow(tr("Time step"), m_dt);
  m_tolerance = new QComboBox(integration);
  for (int e = 4; e <= 12; e += 2) m_tolerance->addItem(QString("1e-%1").arg(e), std::pow(10.0, -e));
  m_tolerance->setCurrentIndex(2);
  m_tolerance->setToolTip(tr("Dormand–Prince: error bound per sub-step"));
  iform->addRow(tr("Tolerance"), m_tolerance);
  m_algorithm = new QComboBox(integration);
  m_algorithm->setObjectName("simulationAlgorithm");
  m_algorithm->addItem(tr("ABA (articulated body)"), int(dyn::ForwardAlgorithm::Aba));
  m_algorithm->addItem(tr("CRBA + sparse Cholesky"), int(dyn::ForwardAlgorithm::Crba));
  iform->addRow(tr("Forward dynamics"), m_algorithm);
  m_compare = new QCheckBox(tr("Compare ABA and CRBA at every step"), integration);
  m_compare->setObjectName("simulationCompare");
  iform->addRow(m_compare);
  // The settings made at the desk (integration, the file's joint effects, the ground) as tabs after
  // the torque source, so that the charts keep their room; hidden while presenting.
  m_settings = new QTabWidget(body);
  m_settings->setObjectName("simulationSettings");
  integration->setTitle(QString());  // the tab says it
  integration->setFlat(true);
  m_settings->addTab(integration, tr("Integration"));

  // Torque source.
  auto* torque = new QGroupBox(tr("Joint torques"), body);
  auto* tform = new QFormLayout(torque);
  m_source = new QComboBox(torque);
  m_source->setObjectName("simulationSource");
  m_source->addItem(tr("None (passive: the robot falls)"), int(Source::Passive));
  m_source->addItem(tr("Gravity compensation g(q)"), int(Source::Gravity));
  m_source->addItem(tr("Constant per joint"), int(Source::Constant));
  m_source->addItem(tr("PD tracking of the trajectory"), int(Source::Pd));
  m_source->addItem(tr("Computed torque (PD + RNEA feed-forward)"), int(Source::ComputedTorque));
  m_source->addItem(tr("Replay a torque CSV"), int(Source::Replay));
  tform->addRow(tr("Source"), m_source);
  m_kp = spin(0, 1e6, 1, 100, QString(), torque);
  m_kd = spin(0, 1e5, 1, 20, QString(), torque);
  m_kp->setToolTip(tr("Position gain: N·m/rad for PD, 1/s² for computed torque"));
  m_kd->setToolTip(tr("Velocity gain: N·m·s/rad for PD, 1/s for computed torque"));
  tform->addRow(tr("Kp"), m_kp);
  tform->addRow(tr("Kd"), m_kd);
  // One place to type constant torques: the joints dock's τ column, next to each joint's slider.
  m_torqueHint = new QLabel(torque);
  m_torqueHint->setObjectName("simulationTorqueHint");
  m_torqueHint->setWordWrap(true);
  m_editTorques = new QPushButton(tr("Set torques in the Joints dock"), torque);
  m_editTorques->setObjectName("simulationEditTorques");
  m_editTorques->setToolTip(tr("Shows the Joints dock, whose τ column holds each joint's constant torque"));
  tform->addRow(m_torqueHint);
  tform->addRow(m_editTorques);
  connect(m_editTorques, &QPushButton::clicked, this, &SimulationDock::jointTorquesRequested);
  auto* replayRow = new QHBoxLayout;
  m_replayButton = new QPushButton(tr("Torque CSV…"), torque);
  m_replayLabel = new QLabel(tr("(none)"), torque);
  replayRow->addWidget(m_replayButton);
  replayRow->addWidget(m_replayLabel, 1);
  tform->addRow(replayRow);
  connect(m_replayButton, &QPushButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Torques to replay"), QString(), tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty()) setReplayFile(path);
  });
  col->addWidget(torque);

  // Passive joint effects.
  auto* passive = new QGroupBox(tr("Joint effects (from the robot file)"), body);
  auto* pform = new QFormLayout(passive);
  m_damping = new QCheckBox(tr("Viscous damping"), passive);
  m_friction = new QCheckBox(tr("Coulomb friction (smoothed)"), passive);
  m_limits = new QCheckBox(tr("Joint limits as stiff springs"), passive);
  for (QCheckBox* c : {m_damping, m_friction, m_limits}) {
    c->setChecked(true);
    pform->addRow(c);
  }
  m_limitStiffness = spin(1, 1e8, 0, 1e4, tr(" N·m/rad"), passive);
  m_limitStiffness->setToolTip(tr("Stiffness of the limit springs (damping: 1 % of it, in N·m·s/rad)"));
  pform->addRow(tr("Limit stiffness"), m_limitStiffness);
  passive->setTitle(tr("From the robot file"));
  passive->setFlat(true);
  m_settings->addTab(passive, tr("Joint effects"));
  m_ground = new GroundBox(m_settings);
  m_settings->addTab(m_ground, tr("Ground"));
  // The ground's tab says when it is on (a floating base stands on it by default).
  const auto labelGround = [this] {
    m_settings->setTabText(2, m_ground->isChecked() ? tr("Ground · on") : tr("Ground"));
  };
  connect(m_ground, &GroundBox::changed, this, labelGround);  // also after setDefaultsFor (which blocks toggled)
  labelGround();
  col->addWidget(m_settings);
  m_deskOnly = {m_settings};

  // Closed loops: method and stabilization (review §3.4).
  m_loopGroup = new QGroupBox(tr("Closed loops"), body);
  m_loopGroup->setObjectName("simulationLoops");
  auto* lform = new QFormLayout(m_loopGroup);
  m_loopMethod = new QComboBox(m_loopGroup);
  m_loopMethod->setObjectName("simulationLoopMethod");
  m_loopMethod->addItem(tr("1 · augmented system (eq. 20)"), int(dyn::LoopMethod::Augmented));
  m_loopMethod->addItem(tr("2 · constraint forces first (eq. 21)"), int(dyn::LoopMethod::Multipliers));
  m_loopMethod->addItem(tr("3 · null-space projection (eq. 22)"), int(dyn::LoopMethod::NullSpace));
  m_loopMethod->setCurrentIndex(1);
  m_loopMethod->setToolTip(
      tr("How the constrained forward dynamics is solved (Orin & Featherstone's review, §3.4):\n"
         "1: [M L^T; L 0] [q̈; −λ] = [τ − C; c], one dense solve, O((n + n_c)³)\n"
         "2: λ from L M⁻¹ L^T λ = c − L M⁻¹(τ − C) with the tree's factor, O(n n_c² + n_c³)\n"
         "3: q̈ = K y + q̈₀ in the null space K of L, O(n³)\nThey agree to rounding."));
  lform->addRow(tr("Method"), m_loopMethod);
  m_baumgarte = new QCheckBox(tr("Baumgarte stabilization"), m_loopGroup);
  m_baumgarte->setObjectName("simulationBaumgarte");
  m_baumgarte->setChecked(true);
  m_baumgarte->setToolTip(tr("φ̈ + 2α φ̇ + β² φ = 0 instead of φ̈ = 0, which alone lets φ drift"));
  lform->addRow(m_baumgarte);
  const dyn::SimulationSettings defaults;
  m_alpha = spin(0, 1e4, 1, defaults.baumgarteAlpha, tr(" 1/s"), m_loopGroup);
  m_alpha->setObjectName("simulationBaumgarteAlpha");
  m_beta = spin(0, 1e4, 1, defaults.baumgarteBeta, tr(" 1/s"), m_loopGroup);
  m_beta->setObjectName("simulationBaumgarteBeta");
  m_alpha->setToolTip(tr("α: damping of the constraint error (α = β: critically damped)"));
  m_beta->setToolTip(tr("β: stiffness of the constraint error"));
  lform->addRow(tr("α"), m_alpha);
  lform->addRow(tr("β"), m_beta);
  m_projection = new QCheckBox(tr("Project onto the constraints after each step"), m_loopGroup);
  m_projection->setObjectName("simulationProjection");
  m_projection->setChecked(defaults.projection);
  m_projection->setToolTip(tr("q back onto φ(q) = 0 (Newton), q̇ onto φ'q̇ = 0 (mass-weighted: never adds energy)"));
  lform->addRow(m_projection);
  col->insertWidget(col->indexOf(m_settings) + 1, m_loopGroup);  // next to the integration: what solves the step

  // Energy monitor.
  m_plots = new QTabWidget(body);
  m_plots->setObjectName("simulationPlots");
  m_energyPlot = new TimeSeriesPlot(m_plots);
  m_driftPlot = new TimeSeriesPlot(m_plots);
  m_diffPlot = new TimeSeriesPlot(m_plots);
  m_plots->addTab(m_energyPlot, tr("energy"));
  m_plots->addTab(m_driftPlot, tr("drift"));
  m_plots->addTab(m_diffPlot, tr("ABA − CRBA"));
  m_constraintPlot = new TimeSeriesPlot(m_plots);
  m_constraintPlot->setObjectName("simulationConstraintPlot");
  m_plots->addTab(m_constraintPlot, tr("constraints"));
  m_plots->setTabToolTip(3, tr("Closed loops: log₁₀ of the constraint violation |φ(q)| (m, rad) and of |φ'(q) q̇|"));
  m_contactPlot = new TimeSeriesPlot(m_plots);
  m_contactPlot->setObjectName("simulationContactPlot");
  m_plots->addTab(m_contactPlot, tr("contact"));
  m_plots->setTabToolTip(4, tr("The ground's push: normal and friction forces summed over the points that touch"));
  m_plots->setTabToolTip(0, tr("Total energy, kinetic + potential"));
  m_plots->setTabToolTip(1, tr("Relative energy drift (E − E₀)/|E₀|: bounded for the symplectic integrator"));
  m_plots->setTabToolTip(2, tr("Largest difference of the joint accelerations between ABA and CRBA (with Compare)"));
  m_plots->setMinimumHeight(240);
  col->addWidget(m_plots, 1);

  auto* scroll = new VerticalScrollArea(this);  // never clips a number sideways
  scroll->setWidget(body);
  setWidget(scroll);

  // Any change of the controls applies to the run (at once when paused, at the next pass when running).
  for (QComboBox* c : {m_integrator, m_tolerance, m_algorithm, m_source})
    connect(c, &QComboBox::currentIndexChanged, this, [this] {
      updateSourceControls();
      applySettings();
    });
  connect(m_source, &QComboBox::currentIndexChanged, this, [this] { emit torqueSourceChanged(torqueSource()); });
  for (QDoubleSpinBox* s : {m_dt, m_kp, m_kd, m_limitStiffness, m_alpha, m_beta})
    connect(s, &QDoubleSpinBox::valueChanged, this, &SimulationDock::applySettings);
  for (QCheckBox* c : {m_compare, m_damping, m_friction, m_limits, m_baumgarte, m_projection})
    connect(c, &QCheckBox::toggled, this, &SimulationDock::applySettings);
  connect(m_loopMethod, &QComboBox::currentIndexChanged, this, &SimulationDock::applySettings);
  connect(m_ground, &GroundBox::changed, this, [this] {
    applySettings();
    m_plots->setTabVisible(4, m_ground->isChecked());
    emit groundChanged(m_ground->isChecked(), m_ground->settings().height);
  });
  connect(m_baumgarte, &QCheckBox::toggled, this, [this](bool on) {
    m_alpha->setEnabled(on);
    m_beta->setEnabled(on);
  });
  connect(m_robot, &RobotDocument::constantTorquesChanged, this, [this] {
    updateTorqueHint();
    if (torqueSource() == Source::Constant) applySettings();
  });

  connect(m_robot, &RobotDocument::modelChanged, this, [this] {
    if (m_runner->isRunning()) pause();
    m_stale = true;
    // The last run's numbers belong to the previous robot.
    m_status->setText(tr("Not started: Run simulates %1 from the current pose.")
                          .arg(m_robot->hasModel() ? QString::fromStdString(m_robot->model().name) : tr("the robot")));
    updateLoopControls();
    updateGroundDefaults();
  });
  updateSourceControls();
  updateLoopControls();
  m_plots->setTabVisible(4, false);
  updateGroundDefaults();
}

// A robot from another file gets the ground that suits it (ground_box.hpp); an edit keeps the user's.
void SimulationDock::updateGroundDefaults() {
  if (!m_robot->hasModel()) return;
  const dyn::Model& m = m_robot->model();
  const std::string id = m.sourceFile + "\n" + m.name + (m.floatingBase ? " floating" : "");
  if (id == m_groundModel) return;
  m_groundModel = id;
  m_ground->setDefaultsFor(m);
}

void SimulationDock::updateLoopControls() {
  const bool loops = m_robot->hasModel() && m_robot->model().hasLoops();
  m_loopGroup->setVisible(loops);
  m_plots->setTabVisible(3, loops);
  // The tree algorithms (ABA, CRBA) are for trees; a mechanism uses its loop method, and Compare
  // checks method 2 against method 1 (the others against method 2).
  m_algorithm->setEnabled(!loops);
  m_algorithm->setToolTip(loops ? tr("A closed-loop mechanism is solved by the loop method below") : QString());
  m_compare->setText(loops ? tr("Compare with another loop method at every step")
                           : tr("Compare ABA and CRBA at every step"));
  m_plots->setTabText(2, loops ? tr("method difference") : tr("ABA − CRBA"));
  if (!loops) m_constraintPlot->clear();
}

SimulationDock::~SimulationDock() { m_runner->pause(); }

QList<QAction*> SimulationDock::actions() const { return {m_playAction, m_stepAction, m_resetAction}; }
bool SimulationDock::isRunning() const { return m_runner->isRunning(); }

dyn::SimulationSettings SimulationDock::settings() const {
  dyn::SimulationSettings s;
  s.integrator = dyn::Integrator(m_integrator->currentData().toInt());
  s.dt = m_dt->value() * 1e-3;
  s.tolerance = m_tolerance->currentData().toDouble();
  s.algorithm = dyn::ForwardAlgorithm(m_algorithm->currentData().toInt());
  s.compare = m_compare->isChecked();
  s.damping = m_damping->isChecked();
  s.friction = m_friction->isChecked();
  s.limits = m_limits->isChecked();
  s.limitStiffness = m_limitStiffness->value();
  s.limitDamping = 0.01 * s.limitStiffness;
  s.recordEvery = std::max(1, int(std::lround(0.005 / s.dt)));  // ~200 recorded samples per second
  // A run left going (or at full speed) must not fill the memory: at ~64 MB of samples the record
  // keeps every other one and records half as often (humanoid: first after ~200 s at 200 Hz).
  if (m_robot->hasModel()) {
    const dyn::Model& m = m_robot->model();
    const double bytesPerSample = 8.0 * (1 + m.nq + 3 * m.nv + 2);
    s.recordLimit = std::max(2000, int(kRecordBytes / bytesPerSample));
  }
  s.energy = true;
  s.loopMethod = dyn::LoopMethod(m_loopMethod->currentData().toInt());
  s.baumgarte = m_baumgarte->isChecked();
  s.baumgarteAlpha = m_alpha->value();
  s.baumgarteBeta = m_beta->value();
  s.projection = m_projection->isChecked();
  s.ground = m_ground->settings();
  return s;
}

std::optional<dyn::Controller> SimulationDock::controller(QString* error) const {
  const dyn::Model& m = m_traj->dynamicsModel();
  const auto fail = [&](const QString& message) -> std::optional<dyn::Controller> {
    if (error) *error = message;
    return std::nullopt;
  };
  switch (Source(m_source->currentData().toInt())) {
    case Source::Passive:
      return dyn::PassiveController{};
    case Source::Gravity:
      return dyn::GravityCompensation{};
    case Source::Constant: {
      const Eigen::VectorXd& tau = m_robot->constantTorques();
      if (tau.size() != m.nv)
        return fail(tr("The constant torques do not fit the robot (%1 of %2 dofs).").arg(tau.size()).arg(m.nv));
      return dyn::ConstantTorque{tau};
    }
    case Source::Pd:
    case Source::ComputedTorque: {
      if (!m_traj->hasTrajectory())
        return fail(tr("PD tracking needs a trajectory: add waypoints, import a CSV or load a demonstration."));
      if (m_traj->source() == TrajectoryDocument::Source::Simulation)
        return fail(
            tr("PD tracking needs a planned trajectory (waypoints, CSV or demonstration), not a recorded run."));
      dyn::PdTracking pd;
      pd.trajectory = m_traj->samples();
      pd.kp = Eigen::VectorXd::Constant(m.nv, m_kp->value());
      pd.kd = Eigen::VectorXd::Constant(m.nv, m_kd->value());
      pd.mode = Source(m_source->currentData().toInt()) == Source::Pd ? dyn::PdTracking::Mode::Pd
                                                                      : dyn::PdTracking::Mode::ComputedTorque;
      return pd;
    }
    case Source::Replay:
      if (m_replayFile.isEmpty()) return fail(tr("Choose a torque CSV to replay (columns t, tau_<joint>)."));
      try {
        return dyn::readTorqueCsv(m, m_replayFile.toStdString());
      } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
      }
  }
  return fail(tr("unknown torque source"));
}

void SimulationDock::setReplayFile(const QString& path) {
  m_replayFile = path;
  m_replayLabel->setText(QFileInfo(path).fileName());
  m_replayLabel->setToolTip(path);
  applySettings();
}

void SimulationDock::updateSourceControls() {
  const Source s = Source(m_source->currentData().toInt());
  const bool pd = s == Source::Pd || s == Source::ComputedTorque;
  m_kp->setEnabled(pd);
  m_kd->setEnabled(pd);
  m_torqueHint->setVisible(s == Source::Constant);
  m_editTorques->setVisible(s == Source::Constant);
  updateTorqueHint();
  m_replayButton->setVisible(s == Source::Replay);
  m_replayLabel->setVisible(s == Source::Replay);
  m_tolerance->setEnabled(dyn::Integrator(m_integrator->currentData().toInt()) == dyn::Integrator::DormandPrince45);
}

void SimulationDock::updateTorqueHint() {
  const Eigen::VectorXd& tau = m_robot->constantTorques();
  const int set = int((tau.array() != 0).count());
  m_torqueHint->setText(
      tr("Set each joint's torque in the τ column of the Joints dock (%1 of %2 non-zero).").arg(set).arg(tau.size()));
}

SimulationDock::Source SimulationDock::torqueSource() const { return Source(m_source->currentData().toInt()); }

bool SimulationDock::configureFromRobot(const Eigen::VectorXd& q0) {
  QString error;
  const std::optional<dyn::Controller> c = controller(&error);
  if (!c) {
    emit message(tr("Simulation: %1").arg(error), true);
    m_status->setText(error);
    return false;
  }
  const dyn::Model& m = m_traj->dynamicsModel();
  m_runner->setSteadyWrenches(m_traj->engineWrenches());  // the trajectory document's steady push
  if (!m_runner->configure(m, settings(), *c, q0, Eigen::VectorXd::Zero(m.nv), &error)) {
    emit message(tr("Simulation: %1").arg(error), true);
    m_status->setText(error);
    return false;
  }
  m_q0 = q0;
  m_stale = false;
  m_published = false;  // a fresh record
  if (settings().limits && settings().limitStiffness > 0)
    if (const auto beyond = dyn::startBeyondLimits(m, q0); !beyond.empty())
      emit message(tr("Simulation: the start is beyond the limits of %n joint(s) (first '%1'): their limit springs "
                      "push them back, and the energy counts what the springs hold",
                      nullptr, int(beyond.size()))
                       .arg(QString::fromStdString(m.jointNames[beyond.front().joint])),
                   false);
  m_runner->setSpeed(m_speed->currentData().toDouble());
  return true;
}

void SimulationDock::applySettings() {
  if (!m_runner->isConfigured() || m_stale) return;
  QString error;
  if (!m_runner->setSettings(settings(), &error)) {
    emit message(tr("Simulation: %1").arg(error), true);
    return;
  }
  if (const std::optional<dyn::Controller> c = controller(&error)) {
    if (!m_runner->setController(*c, &error)) emit message(tr("Simulation: %1").arg(error), true);
  } else {
    m_status->setText(error);
  }
}

void SimulationDock::start() {
  if (m_runner->isRunning() || !m_robot->hasModel()) return;
  // From the robot's pose: a new run unless the robot is still where the paused run left it.
  const SimulationRunner::Snapshot snap = m_runner->snapshot();
  const Eigen::VectorXd& q = m_robot->q();
  const bool continuing = m_runner->isConfigured() && !m_stale && snap.q.size() == q.size() &&
                          (snap.q - q).cwiseAbs().maxCoeff() < 1e-9 && snap.status == dyn::SimulationStatus::Ok;
  // A run whose record has not been published yet (a new one, or one reset) will replace the trajectory.
  if ((!continuing || !m_published) && m_newRunGuard && !m_newRunGuard()) return;
  if (!continuing && !configureFromRobot(q)) return;
  m_runner->start();
  m_display->start();
  m_play->setText(tr("Pause"));
  emit runningChanged(true);
}

void SimulationDock::pause() {
  const bool was = m_runner->isRunning();
  m_runner->pause();
  m_display->stop();
  m_play->setText(tr("Run"));
  onTick();
  publishRecord();
  if (was) emit runningChanged(false);
}

void SimulationDock::togglePlay() {
  if (m_runner->isRunning())
    pause();
  else
    start();
}

void SimulationDock::stepOnce() {
  if (m_runner->isRunning()) pause();
  if ((!m_runner->isConfigured() || m_stale) && !configureFromRobot(m_robot->q())) return;
  if (!m_runner->step()) onStoppedByItself(m_runner->snapshot().error);
  onTick();
}

void SimulationDock::reset() {
  if (m_runner->isRunning()) pause();
  const Eigen::VectorXd q0 = m_q0.size() == m_robot->model().nq && !m_stale ? m_q0 : m_robot->q();
  if (!configureFromRobot(q0)) return;
  m_robot->setQ(q0);
  onTick();
}

void SimulationDock::onTick() {
  if (!m_runner->isConfigured()) return;
  const SimulationRunner::Snapshot s = m_runner->snapshot();
  if (s.q.size() == m_robot->model().nq) m_robot->setQ(s.q);
  emit stateShown();
  const dyn::Model* model = m_runner->model();
  for (const dyn::LimitEvent& e : m_runner->takeLimitEvents())
    emit message(
        tr("Simulation: joint %1 hit its %2 limit (%3) at t = %4 s")
            .arg(model && e.joint > 0 && e.joint <= model->N ? QString::fromStdString(model->jointNames[e.joint])
                                                             : QString::number(e.dof),
                 e.upper ? tr("upper") : tr("lower"))
            .arg(e.limit, 0, 'g', 4)
            .arg(e.t, 0, 'f', 3),
        true);
  updateStatus();
  if (!m_runner->isRunning() || ++m_ticks % 8 == 0) updatePlots();  // plots at ~8 Hz while running
  // The run becomes the trajectory about once a second while it goes, not only at a pause: the
  // Plots dock (τ, its decomposition) follows the new run instead of showing the previous one.
  if (m_runner->isRunning() && m_ticks % 64 == 0) publishRecord();
}

void SimulationDock::onStoppedByItself(const QString& reason) {
  m_display->stop();
  m_play->setText(tr("Run"));
  onTick();
  publishRecord();
  emit message(tr("Simulation stopped: %1. The robot shows the last good state.").arg(reason), true);
  emit runningChanged(false);
}

void SimulationDock::publishRecord() {
  if (!m_runner->isConfigured()) return;
  const dyn::SimulationRecord record = m_runner->record();
  if (record.samples() < 2) return;
  const dyn::SimulationSettings s = settings();
  const QString label = tr("Simulation: %1, h = %2 ms, %3 s")
                            .arg(QString::fromLatin1(dyn::integratorName(s.integrator)))
                            .arg(s.dt * 1e3)
                            .arg(record.t.back(), 0, 'f', 3);
  QString error;
  if (m_traj->setRecorded(record.trajectory(), label, &error,
                          record.tauExternal.empty() ? Eigen::MatrixXd() : record.externalTorques()))
    m_published = true;
  else
    emit message(tr("Simulation: %1").arg(error), true);
  // The record keeps every few steps; the robot shows the exact state the run stopped in.
  const SimulationRunner::Snapshot now = m_runner->snapshot();
  if (now.q.size() == m_robot->model().nq) m_robot->setQ(now.q);
}

void SimulationDock::updateStatus() {
  const SimulationRunner::Snapshot s = m_runner->snapshot();
  QString text = tr("t = %1 s").arg(s.t, 0, 'f', 3);
  if (m_runner->isRunning()) text += tr(" · %1× real time").arg(s.ratio, 0, 'f', 2);
  text += tr(" · E = %1 J · drift %2").arg(s.energy, 0, 'g', 6).arg(s.drift, 0, 'e', 2);
  if (m_compare->isChecked()) text += tr(" · max |Δ acceleration| %1").arg(s.fdDifference, 0, 'e', 1);
  if (m_robot->hasModel() && m_robot->model().hasLoops())
    text += tr(" · |φ| %1 · |φ'q̇| %2").arg(s.constraintError, 0, 'e', 1).arg(s.constraintRateError, 0, 'e', 1);
  if (m_ground->isChecked() && !s.contacts.empty()) {
    double normal = 0;
    int points = 0;
    for (const auto& c : s.contacts) normal += c.force.z(), points += c.points;
    text += tr(" · ground %1 N on %n point(s), %2 mm deep", nullptr, points)
                .arg(normal, 0, 'f', 1)
                .arg(s.penetration * 1e3, 0, 'f', 1);
  }
  text += tr(" · %n step(s)", nullptr, int(s.steps));
  if (s.projectionFailures > 0)  // the projection stopped short: say so rather than hide it
    text += tr("\nProjection onto φ = 0 fell short in %n step(s) (|φ| left up to %1): try a smaller step", nullptr,
               int(s.projectionFailures))
                .arg(s.worstProjectionResidual, 0, 'e', 1);
  if (s.status == dyn::SimulationStatus::Diverged) text += tr("\nStopped: %1").arg(s.error);
  m_status->setText(text);
}

void SimulationDock::updatePlots() {
  const SimulationRunner::History h = m_runner->history();
  if (h.t.size() < 2) {
    for (TimeSeriesPlot* p : {m_energyPlot, m_driftPlot, m_diffPlot, m_constraintPlot, m_contactPlot}) p->clear();
    return;
  }
  const Eigen::Index n = Eigen::Index(h.t.size());
  const auto row = [n](const std::vector<double>& v) {
    Eigen::MatrixXd m(1, n);
    for (Eigen::Index k = 0; k < n; ++k) m(0, k) = std::isfinite(v[size_t(k)]) ? v[size_t(k)] : 0.0;
    return m;
  };
  m_energyPlot->setData(toStd(h.t), row(h.energy), {tr("total energy")}, tr("E [J]"));
  m_driftPlot->setData(toStd(h.t), row(h.drift), {tr("(E − E₀)/|E₀|")}, tr("relative drift"));
  if (m_compare->isChecked())
    m_diffPlot->setData(toStd(h.t), row(h.fdDifference), {tr("max |acceleration ABA − CRBA|")}, tr("[rad/s² | m/s²]"));
  if (!h.constraintError.empty() && h.constraintError.size() == h.t.size() &&
      h.constraintRateError.size() == h.t.size()) {
    // log10: the violation spans from rounding (1e-15) to a visible drift (1e-3); floor at 1e-17.
    Eigen::MatrixXd m(2, n);
    for (Eigen::Index k = 0; k < n; ++k) {
      m(0, k) = std::log10(std::max(h.constraintError[size_t(k)], 1e-17));
      m(1, k) = std::log10(std::max(h.constraintRateError[size_t(k)], 1e-17));
      if (!std::isfinite(m(0, k))) m(0, k) = 0;
      if (!std::isfinite(m(1, k))) m(1, k) = 0;
    }
    m_constraintPlot->setData(toStd(h.t), m, {tr("log₁₀ |φ(q)|"), tr("log₁₀ |φ'(q) q̇|")}, tr("log₁₀ violation"));
  }
  if (h.contactNormal.size() == h.t.size() && h.contactFriction.size() == h.t.size()) {
    Eigen::MatrixXd m(2, n);
    m.row(0) = row(h.contactNormal);
    m.row(1) = row(h.contactFriction);
    m_contactPlot->setData(toStd(h.t), m, {tr("normal Σ Fₙ"), tr("friction Σ |Fₜ|")}, tr("F [N]"));
  }
}

QSize SimulationDock::readableSize() const {
  // The widest of the plots at the height they have (the legend beside or below), plus the dock's
  // frame, the column's margins and the scroll bar around them.
  const auto* current = qobject_cast<const PlotWidget*>(m_plots->currentWidget());
  const int height = current && current->canvas()->height() > 0 ? current->canvas()->height() : 0;
  int plots = 0;
  for (int i = 0; i < m_plots->count(); ++i) {
    const auto* p = qobject_cast<const PlotWidget*>(m_plots->widget(i));
    if (!p || !m_plots->isTabVisible(i)) continue;
    const int atHeight = height > 0 ? p->canvas()->readableWidthAtHeight(height) : 1 << 20;
    const int around = p->minimumSizeHint().width() - p->canvas()->minimumSizeHint().width();
    plots = std::max(plots, (atHeight < (1 << 20) ? atHeight : p->canvas()->minimumSizeHint().width()) + around);
  }
  const int around = isVisible() && m_plots->width() > 0 ? width() - m_plots->width() : 40;
  return {plots + around, 0};
}

void SimulationDock::setPresentationMode(bool on) {
  if (on == m_presentation) return;
  m_presentation = on;
  for (QWidget* w : m_deskOnly) w->setVisible(!on);
}
