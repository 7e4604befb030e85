#include "trajectory/trajectory_document.hpp"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "document/robot_command_ids.hpp"
#include "document/robot_document.hpp"
#include "document/save_file.hpp"
#include "dynscope/algorithms/external_wrench.hpp"
#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/loops/loop_inverse_dynamics.hpp"
#include "dynscope/loops/loop_trajectory.hpp"
#include "dynscope/model/names.hpp"
#include "dynscope/trajectory/mimic_trajectory.hpp"
#include "ik/ik_drag_command.hpp"

namespace {

// Same joints, in the same order, with the same types: waypoints stay meaningful across a reload.
bool sameJointLayout(const dyn::Model& a, const dyn::Model& b) {
  if (a.N != b.N || a.nq != b.nq) return false;
  for (int i = 1; i <= a.N; ++i)
    if (a.jointNames[i] != b.jointNames[i] || a.joints[i].type != b.joints[i].type) return false;
  return true;
}

const char* demoTitle(dyn::DemoTrajectory d) {
  return d == dyn::DemoTrajectory::SahaStanford ? "Saha: Stanford arm (cycloidal, eq. 39)"
                                                : "Saha: 3-link planar arm (cycloidal)";
}

// The formulation `name` of `problem` bound to `model`, or nothing and the refusal's message.
std::optional<dyn::BoundFormulation<double>> tryBind(dyn::Problem problem, const QString& name, const dyn::Model& model,
                                                     QString* error) {
  try {
    return dyn::formulation(problem, name.toStdString()).bind(model);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return std::nullopt;
  }
}

}  // namespace

TrajectoryDocument::TrajectoryDocument(RobotDocument* robot, QObject* parent) : QObject(parent), m_robot(robot) {
  connect(robot, &RobotDocument::modelChanged, this, &TrajectoryDocument::onModelChanged);
  connect(robot, &RobotDocument::poseChanged, this, [this] {
    if (hasTrajectory() || m_robot->q().size() != m_q.size()) return;  // the trajectory poses the robot
    m_q = m_robot->q();
    m_qd.setZero();
    m_qdd.setZero();
    computeLiveDynamics();
  });
  onModelChanged();
}

TrajectoryDocument::~TrajectoryDocument() = default;

const dyn::Model& TrajectoryDocument::dynamicsModel() const { return m_dynModel ? *m_dynModel : m_robot->model(); }

QString TrajectoryDocument::sourceDescription() const {
  switch (m_source) {
    case Source::None:
      return tr("no trajectory");
    case Source::Waypoints: {
      // Spelled out: without a translation, tr's %n keeps "(s)" (the dock and the save prompt show this).
      const QString count = m_waypoints.size() == 1 ? tr("1 waypoint") : tr("%1 waypoints").arg(m_waypoints.size());
      return tr("%1, %2, %3 Hz").arg(count).arg(dyn::interpolationName(m_interpolation)).arg(m_rate);
    }
    case Source::Csv:
      return QFileInfo(m_csvFile).fileName();
    case Source::Demo:
      return m_demo ? tr(demoTitle(*m_demo)) : QString();
    case Source::Simulation:
      return m_recordLabel;
  }
  return {};
}

std::vector<double> TrajectoryDocument::sampleTimes() const {
  return std::vector<double>(m_samples.t.data(), m_samples.t.data() + m_samples.t.size());
}

void TrajectoryDocument::setWaypoints(std::vector<dyn::Waypoint> waypoints) {
  m_waypoints = std::move(waypoints);
  m_source = Source::Waypoints;
  m_importedExternal.resize(0, 0);
  m_csvFile.clear();
  m_demo.reset();
  scheduleRecompute();
}

void TrajectoryDocument::addCurrentPose(std::optional<double> time) {
  std::vector<dyn::Waypoint> w = m_source == Source::Waypoints ? m_waypoints : std::vector<dyn::Waypoint>{};
  const double t = time ? *time : (w.empty() ? 0.0 : w.back().t + 1.0);
  w.push_back({t, m_robot->q()});
  std::stable_sort(w.begin(), w.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
  setWaypoints(std::move(w));
  recomputeNow();
  setTime(t);  // the robot shows this waypoint: so does the time
}

void TrajectoryDocument::setInterpolation(dyn::Interpolation kind) {
  if (kind == m_interpolation) return;
  m_interpolation = kind;
  if (m_source == Source::Waypoints) scheduleRecompute();
}

void TrajectoryDocument::setSampleRate(double hz) {
  if (!(hz > 0) || !std::isfinite(hz) || hz == m_rate) return;
  m_rate = hz;
  if (m_source == Source::Waypoints) markUnsaved(Unsaved::Trajectory);
  if (m_source == Source::Waypoints) scheduleRecompute();
}

bool TrajectoryDocument::importCsv(const QString& path, QString* error) {
  try {
    dyn::TrajectoryCsv csv = dyn::readTrajectoryCsv(m_robot->model(), path.toStdString());
    m_imported = std::move(csv.trajectory);
    m_importedExternal.resize(0, 0);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  m_source = Source::Csv;
  m_csvFile = QFileInfo(path).absoluteFilePath();
  m_demo.reset();
  markUnsaved(Unsaved::Trajectory);
  recomputeNow();
  setTime(m_samples.startTime());
  return true;
}

bool TrajectoryDocument::exportCsv(const QString& path, QString* error) const {
  if (!hasTrajectory()) {
    if (error) *error = tr("there is no trajectory to export");
    return false;
  }
  try {
    dyn::writeTrajectoryCsv(path.toStdString(), m_robot->model(), m_samples);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  return true;
}

bool TrajectoryDocument::exportDynamicsCsv(const QString& path, QString* error) {
  if (!hasTrajectory() || m_dynamics.tau.cols() != m_samples.samples()) {
    if (error) *error = tr("there are no joint torques to export");
    return false;
  }
  ensureDetails();
  const auto names = dyn::velocityNames(m_robot->model());
  std::vector<std::string> header{"t"};
  std::vector<const Eigen::MatrixXd*> blocks;
  const auto addBlock = [&](const char* prefix, const Eigen::MatrixXd& m) {
    if (m.cols() != m_samples.samples()) return;
    for (const auto& n : names) header.push_back(prefix + n);
    blocks.push_back(&m);
  };
  addBlock("tau_", m_dynamics.tau);
  addBlock("inertial_", m_dynamics.inertial);
  addBlock("coriolis_", m_dynamics.coriolis);
  addBlock("gravity_", m_dynamics.gravity);
  addBlock("external_", m_dynamics.external);  // −Jᵀf, a run with forces from outside only
  addBlock("power_", m_dynamics.power);
  const bool energy = m_dynamics.total.size() == m_samples.samples();
  if (energy) header.insert(header.end(), {"kinetic", "potential", "total_energy"});
  Eigen::MatrixXd values(Eigen::Index(header.size()), m_samples.samples());
  values.row(0) = m_samples.t.transpose();
  Eigen::Index r = 1;
  for (const auto* b : blocks) values.middleRows(r, b->rows()) = *b, r += b->rows();
  if (energy) {
    values.row(r++) = m_dynamics.kinetic.transpose();
    values.row(r++) = m_dynamics.potential.transpose();
    values.row(r++) = m_dynamics.total.transpose();
  }
  std::ostringstream out;
  dyn::writeCsv(out, header, values);
  return saveFileAtomically(path, QByteArray::fromStdString(out.str()), error);
}

bool TrajectoryDocument::loadDemo(dyn::DemoTrajectory demo, QString* error) {
  try {
    m_imported = dyn::demoTrajectory(m_robot->model(), demo, 100.0);
    m_importedExternal.resize(0, 0);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  m_source = Source::Demo;
  m_demo = demo;
  m_csvFile.clear();
  recomputeNow();
  setTime(m_samples.startTime());
  return true;
}

bool TrajectoryDocument::setRecorded(dyn::SampledTrajectory run, const QString& label, QString* error,
                                     Eigen::MatrixXd external) {
  try {
    run.validate(m_robot->model());
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  if (external.size() > 0 && (external.rows() != m_robot->model().nv || external.cols() != run.samples())) {
    if (error)
      *error = tr("the forces from outside are %1 x %2, expected %3 x %4 (dofs x samples)")
                   .arg(external.rows())
                   .arg(external.cols())
                   .arg(m_robot->model().nv)
                   .arg(run.samples());
    return false;
  }
  m_imported = std::move(run);
  m_importedExternal = std::move(external);
  m_source = Source::Simulation;
  m_recordLabel = label;
  m_csvFile.clear();
  m_demo.reset();
  markUnsaved(Unsaved::Trajectory);  // the run replaced the trajectory; it is not stored in a project (export it)
  recomputeNow();
  setTime(m_samples.endTime());
  return true;
}

void TrajectoryDocument::clear() {
  if (m_source != Source::None) markUnsaved(Unsaved::Trajectory);
  m_source = Source::None;
  m_waypoints.clear();
  m_imported = {};
  m_importedExternal.resize(0, 0);
  m_csvFile.clear();
  m_demo.reset();
  recomputeNow();
}

bool TrajectoryDocument::setPayload(std::optional<dyn::Payload> payload, QString* error) {
  if (payload) {
    try {
      (void)dyn::withPayload(m_robot->model(), *payload);  // validates link, mass and offset
    } catch (const std::exception& e) {
      if (error) *error = QString::fromUtf8(e.what());
      return false;
    }
  }
  const auto same = [](const std::optional<dyn::Payload>& a, const std::optional<dyn::Payload>& b) {
    return a.has_value() == b.has_value() && (!a || (a->link == b->link && a->mass == b->mass && a->com == b->com));
  };
  if (!same(payload, m_payload)) markUnsaved(Unsaved::Payload);
  m_payload = std::move(payload);
  scheduleRecompute();
  return true;
}

bool TrajectoryDocument::setWrench(std::optional<dyn::LinkWrench> wrench, QString* error) {
  const dyn::Model& m = m_robot->model();
  const auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (wrench) {
    if (m.frameIndex(wrench->link) < 0)
      return fail(tr("external wrench: %1 has no link '%2'")
                      .arg(QString::fromStdString(m.name), QString::fromStdString(wrench->link)));
    if (!(wrench->force.allFinite() && wrench->moment.allFinite() && wrench->point.allFinite()))
      return fail(
          tr("external wrench on %1: a value is not a finite number").arg(QString::fromStdString(wrench->link)));
    if (m.hasLoops())
      return fail(
          tr("external wrench: not for a closed-loop mechanism (its actuator torques do not take Jᵀf "
             "on every joint)"));
  }
  if (wrench != m_wrench) markUnsaved(Unsaved::Wrench);
  m_wrench = std::move(wrench);
  scheduleRecompute();
  return true;
}

std::vector<dyn::ExternalWrench> TrajectoryDocument::engineWrenches() const {
  const dyn::Model& m = m_robot->model();
  if (!m_wrench) return {};
  const int frame = m.frameIndex(m_wrench->link);
  if (frame < 0) return {};
  return {dyn::wrenchOnFrame(m, frame, m_wrench->point, m_wrench->force, m_wrench->moment)};
}

Eigen::Vector3d TrajectoryDocument::gravity() const {
  return m_gravity ? *m_gravity : Eigen::Vector3d(m_robot->model().gravity.v);
}

void TrajectoryDocument::setGravity(std::optional<Eigen::Vector3d> g) {
  if (g && !g->allFinite()) return;
  if (g.has_value() != m_gravity.has_value() || (g && *g != *m_gravity)) markUnsaved(Unsaved::Gravity);
  m_gravity = g;
  scheduleRecompute();
}

void TrajectoryDocument::onModelChanged() {
  const dyn::Model& m = m_robot->model();
  const bool keep = m_dynModel && sameJointLayout(*m_dynModel, m);
  if (!keep) {  // another robot: its joints do not fit the old trajectory
    m_source = Source::None;
    m_waypoints.clear();
    m_imported = {};
    m_importedExternal.resize(0, 0);
    m_csvFile.clear();
    m_demo.reset();
    markSaved();  // a fresh start (the window asked before dropping anything)
  }
  if (m_payload && m.frameIndex(m_payload->link) < 0) m_payload.reset();
  if (m_wrench && (m.frameIndex(m_wrench->link) < 0 || m.hasLoops())) m_wrench.reset();
  m_data = std::make_unique<dyn::Data>(m);
  m_q = m.neutral();
  m_qd.setZero(m.nv);
  m_qdd.setZero(m.nv);
  m_tau.setZero(m.nv);
  m_qddForward.setZero(m.nv);
  recomputeNow();
}

void TrajectoryDocument::scheduleRecompute() {
  if (m_scheduled) return;
  m_scheduled = true;  // several edits in one event-loop turn cost one recomputation
  QTimer::singleShot(0, this, [this] {
    if (m_scheduled) recomputeNow();
  });
}

void TrajectoryDocument::recomputeNow() {
  m_scheduled = false;
  // The dynamics model: the robot, plus the payload, with the gravity override.
  auto model =
      std::make_shared<dyn::Model>(m_payload ? dyn::withPayload(m_robot->model(), *m_payload) : m_robot->model());
  if (m_gravity) model->gravity.v = *m_gravity;
  m_assembler.reset();  // refer to the old model
  m_loopData.reset();
  m_dynModel = model;
  m_data = std::make_unique<dyn::Data>(*model);
  const bool fellBack = !bindAlgorithms(*model);
  if (model->hasLoops()) {
    m_assembler = std::make_unique<dyn::Assembler>(*model);
    m_loopData = std::make_unique<dyn::LoopData>(*model);
  }
  m_mimic.reset();
  m_mimicData.reset();
  if (!model->mimics.empty() && !model->hasLoops())
    if (auto c = std::make_shared<dyn::MimicCoupling>(dyn::mimicCoupling(*model)); c->active()) {
      m_mimic = c;
      m_mimicData = std::make_shared<dyn::MimicData>(*c);
    }
  resample();
  recomputeDynamics();
  // The values at the current time follow; the robot keeps its pose until the time moves (adding
  // the current pose as a waypoint must not make the robot jump).
  if (hasTrajectory()) {
    m_time = std::clamp(m_time, m_samples.startTime(), m_samples.endTime());
    m_samples.interpolate(*model, m_time, m_q, m_qd, m_qdd);
  } else if (m_robot->q().size() == model->nq) {
    m_q = m_robot->q();
    m_qd.setZero(model->nv);
    m_qdd.setZero(model->nv);
  }
  computeLiveDynamics();
  if (fellBack) emit algorithmsChanged();
  emit trajectoryChanged();
  emit dynamicsChanged();
}

void TrajectoryDocument::resample() {
  const QString before = m_problem;
  m_problem.clear();
  m_samples = {};
  m_external.resize(0, 0);
  try {
    if (m_source == Source::Waypoints) {
      if (m_waypoints.size() >= 2)
        m_samples = dyn::WaypointTrajectory(m_robot->model(), m_waypoints, m_interpolation).sample(m_rate);
      else
        m_problem = tr("add at least two waypoints to make a trajectory");
    } else if (m_source == Source::Csv || m_source == Source::Demo || m_source == Source::Simulation) {
      m_imported.validate(m_robot->model());
      m_samples = m_imported;
    }
    // A closed-loop mechanism follows its independent coordinates: the dependent ones of every
    // sample are solved for (assembly, phi' qd = 0, phi' qdd = c), so that playback, plots and the
    // actuator torques all belong to motions the mechanism can make.
    if (m_robot->model().hasLoops() && m_samples.samples() > 0) {
      const dyn::LoopTrajectoryReport r = dyn::closeTrajectory(m_robot->model(), m_samples);
      if (!r.ok()) {
        m_problem = tr("the loops cannot close along the trajectory, at %1").arg(QString::fromStdString(r.message));
        m_samples = {};
      }
    }
    // Mimic joints: every sample on the relations (a CSV's own follower values are replaced).
    if (m_mimic && m_samples.samples() > 0) dyn::enforceMimic(*m_mimic, m_samples);
    // A run's forces from outside go with its samples, which are kept one for one (no time
    // resampling of a recorded run). Not for closed loops: their τ is the actuators' of the
    // closed-loop inverse dynamics, which J^T f on all dofs does not split.
    if (m_source == Source::Simulation && m_samples.samples() > 0 && !m_robot->model().hasLoops() &&
        m_importedExternal.rows() == m_robot->model().nv && m_importedExternal.cols() == m_samples.samples())
      m_external = m_importedExternal;
    // The steady wrench: J^T f at each sample's pose (a recorded run already has the forces it had).
    else if (m_wrench && m_source != Source::Simulation && m_samples.samples() > 0 && !m_robot->model().hasLoops()) {
      const dyn::Model& model = m_robot->model();
      const std::vector<dyn::ExternalWrench> wrenches = engineWrenches();
      dyn::Data data(model);
      Eigen::VectorXd q(model.nq), tauE(model.nv);
      m_external.resize(model.nv, m_samples.samples());
      for (int k = 0; k < m_samples.samples(); ++k) {
        q = m_samples.q.col(k);
        dyn::forwardKinematics(model, data, q);
        dyn::wrenchJointForces(model, data, wrenches, tauE);
        m_external.col(k) = tauE;
      }
    }
  } catch (const std::exception& e) {
    m_problem = QString::fromUtf8(e.what());
    m_samples = {};
  }
  if (m_problem != before) emit problemChanged(m_problem);
}

void TrajectoryDocument::recomputeDynamics() {
  QElapsedTimer timer;
  timer.start();
  m_violations = {};
  m_detailsReady = false;
  if (!hasTrajectory()) {
    m_dynamics = {};
    return;
  }
  dyn::TrajectoryDynamicsOptions options;  // τ and power: what every edit must refresh at once
  options.decompose = false;
  options.energy = false;
  if (hasExternalForces()) options.tauExternal = &m_external;  // τ: the joints' share, ID − Jᵀf
  if (m_idName != QLatin1String("rnea")) {
    // τ by the chosen formulation, sample by sample on its one bound workspace; the power (and
    // later the decomposition) are computed for that τ.
    const int n = m_samples.samples(), nv = m_dynModel->nv;
    m_dynamics.tau.resize(nv, n);
    Eigen::VectorXd q(m_dynModel->nq), qd(nv), qdd(nv);
    for (int k = 0; k < n; ++k) {
      q = m_samples.q.col(k), qd = m_samples.qd.col(k), qdd = m_samples.qdd.col(k);
      m_dynamics.tau.col(k) = m_id.inverseDynamics(q, qd, qdd);
      if (hasExternalForces()) m_dynamics.tau.col(k) -= m_external.col(k);
    }
    options.tauGiven = true;
  }
  dyn::computeTrajectoryDynamics(*m_dynModel, m_samples, options, m_dynamics);
  if (m_mimic) {  // τ on the independent coordinates (Gᵀτ in the masters' rows), and its power
    dyn::forcesOnIndependentDofs(*m_mimic, m_dynamics.tau);
    m_dynamics.power = m_dynamics.tau.cwiseProduct(m_samples.qd);
  }
  m_violations = dyn::effortLimitViolations(*m_dynModel, m_dynamics.tau);
  m_lastComputeMs = timer.nsecsElapsed() / 1e6;
}

void TrajectoryDocument::ensureDetails() {
  if (m_detailsReady || !hasTrajectory()) return;
  dyn::TrajectoryDynamicsOptions options;  // the decomposition and energy for the τ we have
  options.decompose = true;
  options.energy = true;
  options.tauGiven = true;
  if (hasExternalForces()) options.tauExternal = &m_external;  // and the fourth term, −Jᵀf
  dyn::computeTrajectoryDynamics(*m_dynModel, m_samples, options, m_dynamics);
  if (m_mimic) {  // c, g (and −Jᵀf) on the independent coordinates too; M q̈ the rest of the (reduced) τ
    dyn::forcesOnIndependentDofs(*m_mimic, m_dynamics.coriolis);
    dyn::forcesOnIndependentDofs(*m_mimic, m_dynamics.gravity);
    m_dynamics.inertial = m_dynamics.tau - m_dynamics.coriolis - m_dynamics.gravity;
    if (hasExternalForces()) {
      dyn::forcesOnIndependentDofs(*m_mimic, m_dynamics.external);
      m_dynamics.inertial -= m_dynamics.external;
    }
  }
  m_detailsReady = true;
}

void TrajectoryDocument::setTime(double t) {
  if (!hasTrajectory() || !std::isfinite(t)) return;
  m_time = std::clamp(t, m_samples.startTime(), m_samples.endTime());
  updateAtTime();
  emit timeChanged(m_time);
}

void TrajectoryDocument::updateAtTime() {
  const dyn::Model& m = *m_dynModel;
  m_q.resize(m.nq);
  m_qd.resize(m.nv);
  m_qdd.resize(m.nv);
  m_samples.interpolate(m, m_time, m_q, m_qd, m_qdd);
  computeLiveDynamics();
  m_robot->setQ(m_q);
}

void TrajectoryDocument::computeLiveDynamics() {
  const dyn::Model& m = dynamicsModel();
  if (m_q.size() != m.nq || m_qd.size() != m.nv || m_qdd.size() != m.nv) return;
  m_fdRefusal.clear();
  // The steady wrench's J^T f at this pose: τ is the joints' share, ID − Jᵀf, and the forward
  // dynamics takes the wrench, FD(q, q̇, τ + Jᵀf).
  m_wrenchTau.setZero(m.nv);
  if (m_wrench && !m.hasLoops()) {
    dyn::forwardKinematics(m, *m_data, m_q);
    dyn::wrenchJointForces(m, *m_data, engineWrenches(), m_wrenchTau);
  }
  if (m.hasLoops() && m_assembler && m_loopData) {
    // Closed loops: between samples the interpolated state is closed again (the samples are), then
    // the closed-loop inverse dynamics gives the actuator torques (the registry's formulations are
    // for trees).
    Eigen::VectorXd q = m_q, qd = m_qd, qdd = m_qdd;
    if (dyn::closeState(m, *m_assembler, *m_data, *m_loopData, q, qd, qdd)) {
      m_q = q;
      m_qd = qd;
      m_qdd = qdd;
    }
    m_tau = dyn::loopInverseDynamics(m, *m_data, *m_loopData, m_q, m_qd, m_qdd);
    m_qddForward = m_qdd;  // consistent with the loops by construction
  } else if (m_mimic && m_mimicData) {
    // Mimic joints: τ = ID(q, q̇, q̈) by the chosen formulation, given to the independent
    // coordinates (Gᵀτ); the check is the reduced forward dynamics ÿ = H_y⁻¹ (Gᵀτ − GᵀC), q̈ = G ÿ.
    if (!m_id.inverseDynamics) return;
    Eigen::VectorXd total = m_id.inverseDynamics(m_q, m_qd, m_qdd);
    m_tau = total - m_wrenchTau;
    dyn::forcesOnIndependentDofs(*m_mimic, m_tau);
    dyn::forcesOnIndependentDofs(*m_mimic, total);
    const dyn::MimicCoupling& c = *m_mimic;
    Eigen::VectorXd y(c.nqy), yd(c.ny), tauY(c.ny);
    dyn::selectPositions(c, m_q, y);
    dyn::selectVelocities(c, m_qd, yd);
    dyn::selectVelocities(c, total, tauY);
    dyn::reducedForwardDynamics(m, *m_data, c, *m_mimicData, y, yd, tauY);
    m_qddForward = m_mimicData->qdd;
    if (!m_qddForward.allFinite()) {
      m_fdRefusal = tr("H_y = GᵀHG is not positive definite here (a master joint that moves no mass)");
      m_qddForward.resize(0);
    }
  } else {
    if (!m_id.inverseDynamics) return;
    m_tau = m_id.inverseDynamics(m_q, m_qd, m_qdd) - m_wrenchTau;  // τ = ID(q, q̇, q̈) − Jᵀf, the chosen formulation
    try {
      const Eigen::VectorXd total = m_tau + m_wrenchTau;
      m_qddForward = m_fd.forwardDynamics(m_q, m_qd, total);  // q̈ = FD(q, q̇, τ + Jᵀf), the chosen formulation
    } catch (const std::exception& e) {                       // H(q) singular or indefinite here: the joint is named
      m_fdRefusal = QString::fromUtf8(e.what());
      m_qddForward.resize(0);
    }
  }
  emit liveDynamicsChanged();
}

bool TrajectoryDocument::bindAlgorithms(const dyn::Model& model) {
  bool kept = true;
  const auto bindOrDefault = [&](dyn::Problem problem, QString& name, const char* fallback, const QString& what) {
    QString why;
    auto bound = tryBind(problem, name, model, &why);
    if (!bound) {
      m_algorithmNote = tr("%1 refuses this robot (%2); %3 computes %4 instead.")
                            .arg(name, why, QString::fromLatin1(fallback).toUpper(), what);
      name = QString::fromLatin1(fallback);
      bound = tryBind(problem, name, model, nullptr);
      kept = false;
    }
    return bound ? std::move(*bound) : dyn::BoundFormulation<double>{};
  };
  m_id = bindOrDefault(dyn::Problem::InverseDynamics, m_idName, "rnea", tr("τ"));
  m_fd = bindOrDefault(dyn::Problem::ForwardDynamics, m_fdName, "aba", tr("q̈"));
  return kept;
}

bool TrajectoryDocument::setInverseDynamicsAlgorithm(const QString& name, QString* error) {
  if (name == m_idName) return true;
  if (!tryBind(dyn::Problem::InverseDynamics, name, dynamicsModel(), error)) return false;
  m_idName = name;
  m_algorithmNote.clear();
  recomputeNow();  // τ along the trajectory and at the current time, by the new formulation
  emit algorithmsChanged();
  return true;
}

bool TrajectoryDocument::setForwardDynamicsAlgorithm(const QString& name, QString* error) {
  if (name == m_fdName) return true;
  auto bound = tryBind(dyn::Problem::ForwardDynamics, name, dynamicsModel(), error);
  if (!bound) return false;
  m_fdName = name;
  m_algorithmNote.clear();
  m_fd = std::move(*bound);
  computeLiveDynamics();
  emit algorithmsChanged();
  return true;
}

std::vector<int> TrajectoryDocument::overLimitDofsAtTime() const {
  std::vector<int> dofs;
  const int k = m_samples.nearestSample(m_time);
  if (k < 0 || m_violations.samples.empty()) return dofs;
  for (int i = 0; i < int(m_violations.samples.size()); ++i) {
    const auto& s = m_violations.samples[i];
    if (std::binary_search(s.begin(), s.end(), k)) dofs.push_back(i);
  }
  return dofs;
}

TrajectoryDocument::UnsavedParts TrajectoryDocument::unsavedParts() const {
  return m_unsaved | (undoHasUnsavedEdits() ? Unsaved::Trajectory : UnsavedParts());
}

bool TrajectoryDocument::undoHasUnsavedEdits() const {
  if (!m_undo || m_undo->isClean()) return false;
  const int clean = m_undo->cleanIndex(), now = m_undo->index();
  if (clean < 0) return true;  // the saved state can no longer be reached
  // command(i) leads from state i to i + 1: those between the two states are done or undone since.
  for (int i = std::min(clean, now); i < std::max(clean, now); ++i)
    if (const QUndoCommand* c = m_undo->command(i); !dynamic_cast<const IkDragCommand*>(c) && !changesTheRobot(c->id()))
      return true;  // a pose is not stored; the robot's own changes are the session's (robot edits)
  return false;
}

void TrajectoryDocument::setUndoStack(QUndoStack* undo) {
  m_undo = undo;
  connect(undo, &QUndoStack::indexChanged, this, &TrajectoryDocument::reportModified);
  connect(undo, &QUndoStack::cleanChanged, this, &TrajectoryDocument::reportModified);
}

void TrajectoryDocument::reportModified() {
  if (isModified() == m_reportedModified) return;
  m_reportedModified = isModified();
  emit modifiedChanged(m_reportedModified);
}

void TrajectoryDocument::markUnsaved(Unsaved part) {
  m_unsaved |= part;
  reportModified();
}

void TrajectoryDocument::setModified(bool modified) {
  if (!modified) return markSaved();
  markUnsaved(Unsaved::Restored);
}

void TrajectoryDocument::markSaved() {
  m_unsaved = {};
  if (m_undo) {
    const QSignalBlocker block(m_undo);  // one modifiedChanged, below
    m_undo->setClean();
  }
  reportModified();
}
