#include "lecture/lecture_document.hpp"

#include "dynscope/io/model_check.hpp"

#include <QTimer>
#include <algorithm>
#include <stdexcept>

#include "document/robot_document.hpp"
#include "trajectory/trajectory_document.hpp"

LectureDocument::LectureDocument(RobotDocument* robot, TrajectoryDocument* trajectory, QObject* parent)
    : QObject(parent), m_robot(robot), m_trajectory(trajectory), m_player(new QTimer(this)) {
  m_model = std::make_shared<dyn::Model>(robot->model());
  m_player->setInterval(m_paceMs);
  connect(m_player, &QTimer::timeout, this, [this] {
    if (m_position >= stepCount()) {
      setPlaying(false);
      return;
    }
    stepForward();
    if (m_position >= stepCount()) setPlaying(false);
  });
  connect(robot, &RobotDocument::modelChanged, this, &LectureDocument::onModelChanged);
  connect(robot, &RobotDocument::poseChanged, this, &LectureDocument::scheduleRetrace);
  connect(robot, &RobotDocument::constantTorquesChanged, this, [this] {
    if (m_source == InputSource::RobotAndTrajectory) scheduleRetrace();
  });
  if (trajectory) {
    connect(trajectory, &TrajectoryDocument::timeChanged, this, &LectureDocument::scheduleRetrace);
    connect(trajectory, &TrajectoryDocument::dynamicsChanged, this, &LectureDocument::scheduleRetrace);
  }
  onModelChanged();
}

LectureDocument::~LectureDocument() = default;

const dyn::TraceableAlgorithm* LectureDocument::algorithmInfo() const {
  // nullptr for a formulation that runs whole
  return dyn::findTraceableAlgorithm(m_algorithm.toStdString());
}

void LectureDocument::setActive(bool on) {
  if (on == m_active) return;
  m_active = on;
  if (!on) setPlaying(false);
  if (on) retraceNow();
  emit activeChanged(on);
}

QString LectureDocument::formulationKey(const dyn::Formulation& f) {
  return QString("%1:%2").arg(dyn::problemName(f.problem), QString::fromStdString(f.name));
}

const dyn::Formulation* LectureDocument::formulationOf(const QString& key) {
  const int colon = key.indexOf(':');
  if (colon < 0) return nullptr;
  const auto problem = dyn::problemByName(key.left(colon).toStdString());
  return problem ? dyn::findFormulation(*problem, key.mid(colon + 1).toStdString()) : nullptr;
}

std::vector<const dyn::Formulation*> LectureDocument::wholeRunFormulations() {
  std::vector<const dyn::Formulation*> list;
  for (const dyn::Formulation& f : dyn::formulations()) {
    const bool traced = (f.problem == dyn::Problem::InverseDynamics && f.name == "rnea") ||
                        (f.problem == dyn::Problem::MassMatrix && f.name == "crba") ||
                        (f.problem == dyn::Problem::ForwardDynamics && (f.name == "aba" || f.name == "crba"));
    if (!traced) list.push_back(&f);
  }
  return list;
}

void LectureDocument::setAlgorithm(const QString& name) {
  if (name == m_algorithm || (!dyn::findTraceableAlgorithm(name.toStdString()) && !formulationOf(name))) return;
  m_algorithm = name;
  m_position = 0;  // another algorithm starts from the beginning
  setPlaying(false);
  emit algorithmChanged(name);
  if (m_active) retraceNow();
}

void LectureDocument::setInputSource(InputSource source) {
  if (source == m_source) return;
  m_source = source;
  emit inputChanged();
  scheduleRetrace();
}

bool LectureDocument::setEntered(const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd, const Eigen::VectorXd& tau) {
  const int nv = m_robot->model().nv;
  if (qd.size() != nv || qdd.size() != nv || tau.size() != nv || !qd.allFinite() || !qdd.allFinite() ||
      !tau.allFinite())
    return false;
  m_qd = qd;
  m_qdd = qdd;
  m_tau = tau;
  emit inputChanged();
  if (m_source == InputSource::Entered) scheduleRetrace();
  return true;
}

void LectureDocument::onModelChanged() {
  const int nv = m_robot->model().nv;
  m_qd = Eigen::VectorXd::Zero(nv);
  m_qdd = Eigen::VectorXd::Zero(nv);
  m_tau = Eigen::VectorXd::Zero(nv);
  m_position = 0;
  emit inputChanged();
  scheduleRetrace();
}

dyn::TraceInput LectureDocument::currentInput() const {
  const dyn::Model& m = m_robot->model();
  dyn::TraceInput in;
  in.q = m_robot->q();
  if (m_source == InputSource::Entered) {
    in.qd = m_qd;
    in.qdd = m_qdd;
    in.tau = m_tau;
    return in;
  }
  const bool traj = m_trajectory && m_trajectory->hasTrajectory() && m_trajectory->qdAtTime().size() == m.nv &&
                    m_trajectory->qddAtTime().size() == m.nv && m_trajectory->tauAtTime().size() == m.nv;
  in.qd = traj ? m_trajectory->qdAtTime() : Eigen::VectorXd::Zero(m.nv);
  in.qdd = traj ? m_trajectory->qddAtTime() : Eigen::VectorXd::Zero(m.nv);
  in.tau = traj ? m_trajectory->tauAtTime() : m_robot->constantTorques();
  if (in.tau.size() != m.nv) in.tau = Eigen::VectorXd::Zero(m.nv);
  return in;
}

void LectureDocument::scheduleRetrace() {
  if (!m_active || m_scheduled) return;
  m_scheduled = true;
  QTimer::singleShot(0, this, [this] {
    if (m_scheduled) retraceNow();
  });
}

void LectureDocument::retraceNow() {
  m_scheduled = false;
  // The dynamics model of the trajectory (payload, gravity) when it matches the robot.
  const dyn::Model& robot = m_robot->model();
  const dyn::Model& dynamics = m_trajectory ? m_trajectory->dynamicsModel() : robot;
  const dyn::Model& use = dynamics.nq == robot.nq && dynamics.N == robot.N ? dynamics : robot;
  m_model = std::make_shared<dyn::Model>(use);
  m_error.clear();
  m_trace.reset();
  m_whole.reset();
  const dyn::Formulation* whole = formulationOf(m_algorithm);
  if (!m_robot->hasModel() || use.N == 0) {
    m_error = tr("No robot with moving joints");
  } else if (whole) {
    runWhole(use, *whole);
  } else if (const auto* a = algorithmInfo(); a && a->needs == dyn::TraceNeeds::Forces && !use.immobileBodies.empty()) {
    m_error = QString::fromStdString(dyn::forwardDynamicsRefusal(use));
  } else {
    try {
      m_trace =
          std::make_unique<dyn::AlgorithmTrace>(dyn::traceAlgorithm(use, m_algorithm.toStdString(), currentInput()));
    } catch (const std::exception& e) {
      m_error = QString::fromStdString(e.what());
    }
  }
  m_position = std::clamp(m_position, 0, stepCount());
  m_state = m_trace ? dyn::traceState(*m_trace, m_position) : dyn::TraceState{};
  if (!m_trace) setPlaying(false);
  emit traceChanged();
  emit positionChanged(m_position);
}

void LectureDocument::runWhole(const dyn::Model& model, const dyn::Formulation& f) {
  WholeRun run;
  run.formulation = &f;
  const dyn::TraceInput in = currentInput();
  try {
    if (f.problem == dyn::Problem::ForwardDynamics && !model.immobileBodies.empty())
      throw std::invalid_argument(dyn::forwardDynamicsRefusal(model));
    const dyn::BoundFormulation<double> bound = f.bind(model);
    const dyn::Formulation& plain = dyn::formulation(f.problem, dyn::formulationNames(f.problem).front());
    const dyn::BoundFormulation<double> reference = plain.bind(model);
    switch (f.problem) {
      case dyn::Problem::InverseDynamics:
        run.result = bound.inverseDynamics(in.q, in.qd, in.qdd);
        run.reference = reference.inverseDynamics(in.q, in.qd, in.qdd);
        run.count = dyn::countOperations(f, model, in.q, in.qd, in.qdd);
        break;
      case dyn::Problem::MassMatrix:
        run.result = bound.massMatrix(in.q);
        run.reference = reference.massMatrix(in.q);
        run.count = dyn::countOperations(f, model, in.q, in.qd, in.qdd);
        break;
      case dyn::Problem::ForwardDynamics:
        run.result = bound.forwardDynamics(in.q, in.qd, in.tau);
        run.reference = reference.forwardDynamics(in.q, in.qd, in.tau);
        run.count = dyn::countOperations(f, model, in.q, in.qd, in.tau);
        break;
    }
  } catch (const std::exception& e) {
    run.error = QString::fromStdString(e.what());
  }
  m_whole = std::move(run);
}

const dyn::TraceStepRecord* LectureDocument::currentStep() const {
  if (!m_trace || m_position <= 0 || m_position > stepCount()) return nullptr;
  return &m_trace->steps[m_position - 1];
}

const dyn::TracePass* LectureDocument::currentPass() const {
  if (!m_trace || m_trace->passes.empty()) return nullptr;
  const dyn::TraceStepRecord* s = currentStep();
  return &m_trace->passes[s ? s->pass : 0];
}

int LectureDocument::currentBody() const {
  const dyn::TraceStepRecord* s = currentStep();
  return s ? s->body : -1;
}

void LectureDocument::setPosition(int position) {
  if (!m_active || !m_trace) return;
  position = std::clamp(position, 0, stepCount());
  if (position == m_position) return;
  m_position = position;
  m_state = dyn::traceState(*m_trace, m_position);
  emit positionChanged(m_position);
}

void LectureDocument::toEndOfPass() {
  if (!m_trace || m_trace->passes.empty()) return;
  const auto& passes = m_trace->passes;
  const dyn::TraceStepRecord* s = currentStep();
  int pass = s ? s->pass : 0;
  if (s && m_position - 1 == passes[pass].last && pass + 1 < int(passes.size())) ++pass;  // already there
  setPosition(passes[pass].last + 1);
}

void LectureDocument::toStartOfPass() {
  if (!m_trace || m_trace->passes.empty()) return;
  const dyn::TraceStepRecord* s = currentStep();
  if (!s) return;
  const auto& passes = m_trace->passes;
  int pass = s->pass;
  if (m_position - 1 == passes[pass].first) {  // already there: the previous pass (or the very start)
    if (pass == 0) return setPosition(0);
    --pass;
  }
  setPosition(passes[pass].first + 1);
}

bool LectureDocument::isPlaying() const { return m_player->isActive(); }

void LectureDocument::setPlaying(bool on) {
  if (on && (!m_active || !m_trace)) on = false;
  if (on == isPlaying()) return;
  if (on) {
    if (m_position >= stepCount()) setPosition(0);  // from the start again
    m_player->start(m_paceMs);
  } else {
    m_player->stop();
  }
  emit playingChanged(on);
}

void LectureDocument::setPaceMs(int ms) {
  m_paceMs = std::clamp(ms, 50, 20000);
  m_player->setInterval(m_paceMs);
}

void LectureDocument::setArrowSettings(const ArrowSettings& settings) {
  m_arrows = settings;
  m_arrows.size = std::clamp(settings.size, 0.05, 20.0);
  emit arrowSettingsChanged();
}
