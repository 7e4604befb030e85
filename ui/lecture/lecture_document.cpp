#include "lecture/lecture_document.hpp"

#include "dynscope/formulations/registry.hpp"
#include "dynscope/io/model_check.hpp"

#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <stdexcept>

#include "document/robot_document.hpp"
#include "trajectory/trajectory_document.hpp"

namespace {

// The engine's default formulation for the problem (RNEA, CRBA, ABA) at the trace's input, to set
// beside another formulation's result; empty for the default itself. A refusal of the default is
// said in `why` (the traced formulation may compute where the default refuses, or the reverse).
Eigen::MatrixXd defaultResult(const dyn::Model& model, const dyn::TraceableAlgorithm& a, const dyn::TraceInput& in,
                              QString& name, QString& why) {
  const dyn::Formulation& plain = dyn::formulation(a.problem, dyn::formulationNames(a.problem).front());
  if (plain.name == a.formulation) return {};
  name = QString::fromStdString(plain.name).toUpper();
  try {
    const Eigen::VectorXd& x = a.problem == dyn::Problem::ForwardDynamics ? in.tau : in.qdd;
    return plain.bind(model).evaluate(in.q, in.qd, x);
  } catch (const std::exception& e) {
    why = QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

LectureDocument::LectureDocument(RobotDocument* robot, TrajectoryDocument* trajectory, QObject* parent)
    : QObject(parent),
      m_robot(robot),
      m_trajectory(trajectory),
      m_retrace(new QTimer(this)),
      m_player(new QTimer(this)) {
  m_model = std::make_shared<dyn::Model>(robot->model());
  m_retrace->setSingleShot(true);
  connect(m_retrace, &QTimer::timeout, this, [this] {
    if (!m_mustRetrace && m_trace) {  // the same input: nothing to do
      const dyn::TraceInput now = currentInput();
      const dyn::TraceInput& was = m_trace->input;
      if (now.q == was.q && now.qd == was.qd && now.qdd == was.qdd && now.tau == was.tau) return;
    }
    retraceNow();
  });
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
  connect(robot, &RobotDocument::poseChanged, this, [this] { scheduleRetrace(true); });
  connect(robot, &RobotDocument::constantTorquesChanged, this, [this] {
    if (m_source == InputSource::RobotAndTrajectory) scheduleRetrace(true);
  });
  if (trajectory) {
    connect(trajectory, &TrajectoryDocument::timeChanged, this, [this] { scheduleRetrace(true); });
    connect(trajectory, &TrajectoryDocument::dynamicsChanged, this, [this] { scheduleRetrace(); });
  }
  onModelChanged();
}

LectureDocument::~LectureDocument() = default;

const dyn::TraceableAlgorithm* LectureDocument::algorithmInfo() const {
  return dyn::findTraceableAlgorithm(m_algorithm.toStdString());
}

void LectureDocument::setActive(bool on) {
  if (on == m_active) return;
  m_active = on;
  if (!on) {
    setPlaying(false);
    m_retrace->stop();
  }
  if (on) retraceNow();
  emit activeChanged(on);
}

bool LectureDocument::fillsMassMatrix() const {
  return m_algorithm == "crba" || m_algorithm == "crba-ltl" || m_algorithm == "denoc-gim";
}

void LectureDocument::setAlgorithm(const QString& name) {
  if (name == m_algorithm || !dyn::findTraceableAlgorithm(name.toStdString())) return;
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

const dyn::TraceState& LectureDocument::state() const { return m_cursor ? m_cursor->state() : m_noState; }

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

void LectureDocument::scheduleRetrace(bool inputMayBeUnchanged) {
  if (!inputMayBeUnchanged) m_mustRetrace = true;
  if (!m_active) return;
  // Restarted by every change: a slow trace waits until the changes pause.
  m_retrace->start(int(std::min<qint64>(500, m_lastTraceMs)));
}

void LectureDocument::retraceNow() {
  m_retrace->stop();
  m_mustRetrace = false;
  QElapsedTimer clock;
  clock.start();
  // The dynamics model of the trajectory (payload, gravity) when it matches the robot.
  const dyn::Model& robot = m_robot->model();
  const dyn::Model& dynamics = m_trajectory ? m_trajectory->dynamicsModel() : robot;
  const dyn::Model& use = dynamics.nq == robot.nq && dynamics.N == robot.N ? dynamics : robot;
  m_model = std::make_shared<dyn::Model>(use);
  m_error.clear();
  m_cursor.reset();
  m_trace.reset();
  if (!m_robot->hasModel() || use.N == 0) {
    m_error = tr("No robot with moving joints");
  } else if (use.N > kMaxBodies) {
    m_error = tr("%1 bodies: lecture mode steps through models of up to %2 bodies (every step of the "
                 "walk-through is kept; docs/lecture-mode.md)")
                  .arg(use.N)
                  .arg(kMaxBodies);
  } else if (const auto* a = algorithmInfo(); a && a->needs == dyn::TraceNeeds::Forces && !use.immobileBodies.empty()) {
    m_error = QString::fromStdString(dyn::forwardDynamicsRefusal(use));
  } else {
    try {
      m_trace =
          std::make_unique<dyn::AlgorithmTrace>(dyn::traceAlgorithm(use, m_algorithm.toStdString(), currentInput()));
    } catch (const std::exception& e) {
      m_error = QString::fromStdString(e.what());  // e.g. a joint the formulation does not handle, named
    }
  }
  m_reference.resize(0, 0);
  m_referenceName.clear();
  m_referenceRefusal.clear();
  if (const dyn::TraceableAlgorithm* a = algorithmInfo(); m_trace && a)
    m_reference = defaultResult(use, *a, m_trace->input, m_referenceName, m_referenceRefusal);
  m_position = std::clamp(m_position, 0, stepCount());
  if (m_trace) {
    m_cursor = std::make_unique<dyn::TraceCursor>(*m_trace);
    m_cursor->seek(m_position);
  }
  if (!m_trace) setPlaying(false);
  m_lastTraceMs = clock.elapsed();
  emit traceChanged();
  emit positionChanged(m_position);
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
  m_cursor->seek(m_position);  // applies or undoes the steps in between: no rebuild from the start
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
