#include "document/robot_document.hpp"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QSignalBlocker>
#include <QThread>
#include <algorithm>
#include <cmath>
#include <string>

#include "document/joint_coordinates.hpp"
#include "document/robot_loader.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/io/dh_table.hpp"
#include "dynscope/loops/assembly.hpp"
#include "dynscope/loops/loop_constraints.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "scene/mesh_loader.hpp"

namespace {

// A pose counts as assembled when every loop error is below this (m, rad); assembly itself goes to
// kAssemblyTolerance, far below what can be seen or what the dynamics notice.
constexpr double kClosedTolerance = 1e-9;
constexpr double kAssemblyTolerance = 1e-12;

// A valid Model with no moving bodies, so model()/data() are usable before the first load.
std::shared_ptr<const dyn::Model> emptyModel() {
  auto m = std::make_shared<dyn::Model>();
  m->parent = {-1};
  m->joints.resize(1);
  m->Xtree.resize(1);
  m->I.resize(1);
  m->bodyNames = {""};
  m->jointNames = {""};
  return m;
}

// The same tree: bodies, joints and their coordinates, frames, mimic relations and loops (not the
// numbers: inertias, origins, axes, limits).
bool sameTree(const dyn::Model& a, const dyn::Model& b) {
  if (a.N != b.N || a.nq != b.nq || a.nv != b.nv || a.parent != b.parent || a.bodyNames != b.bodyNames ||
      a.jointNames != b.jointNames || a.floatingBase != b.floatingBase || a.frames.size() != b.frames.size() ||
      a.mimics.size() != b.mimics.size() || a.hasLoops() || b.hasLoops())
    return false;
  for (int i = 1; i <= a.N; ++i) {
    const auto &ja = a.joints[i], &jb = b.joints[i];
    if (ja.type != jb.type || ja.continuous != jb.continuous || ja.idx_q != jb.idx_q || ja.idx_v != jb.idx_v)
      return false;
  }
  for (size_t k = 0; k < a.frames.size(); ++k)
    if (a.frames[k].name != b.frames[k].name || a.frames[k].body != b.frames[k].body) return false;
  for (size_t k = 0; k < a.mimics.size(); ++k) {
    const dyn::MimicInfo &ma = a.mimics[k], &mb = b.mimics[k];
    if (ma.joint != mb.joint || ma.mimicked != mb.mimicked || ma.multiplier != mb.multiplier || ma.offset != mb.offset)
      return false;
  }
  return true;
}

}  // namespace

RobotDocument::RobotDocument(QObject* parent) : QObject(parent), m_model(emptyModel()), m_data(*m_model) {}

RobotDocument::~RobotDocument() {
  if (m_worker) {  // the parse cannot be interrupted; it is short, so wait rather than leak a running thread
    m_worker->wait();
    delete m_worker;
  }
}

void RobotDocument::setFixups(const std::vector<dyn::Fixup>& fixups) {
  if (fixups == m_fixups) return;
  m_fixups = fixups;
  emit fixupsChanged();
}

QString RobotDocument::robotName() const {
  // A URDF's <robot name> may be empty: then the file's name, so messages never show "()".
  const QString name = QString::fromStdString(m_model->name);
  return name.isEmpty() && !m_sourceFile.isEmpty() ? QFileInfo(m_sourceFile).completeBaseName() : name;
}

bool RobotDocument::startLoad(const QString& path, bool keepJointValues) {
  if (m_worker) return false;
  const QString file = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
  const bool floating = m_floatingBase, meshes = m_readMeshes;
  const std::vector<dyn::Fixup> fixups = m_fixups;
  const std::vector<dyn::RobotEdit> edits = keepJointValues ? m_edits : m_nextEdits;        // a reload keeps them
  const std::optional<std::string> dhText = keepJointValues ? std::nullopt : m_nextDhText;  // a reload reads the file
  m_nextEdits.clear();
  m_nextDhText.reset();
  auto result = std::make_shared<RobotLoadResult>();
  // Progress is queued to this object; the destructor waits for the thread, so `this` outlives it.
  const auto progress = [this](int done, int total) {
    QMetaObject::invokeMethod(
        this, [this, done, total] { emit loadingProgress(done, total); }, Qt::QueuedConnection);
  };
  m_worker = QThread::create([result, file, floating, meshes, progress, fixups, edits, dhText] {
    *result = loadRobotFile(file, floating, meshes, progress, fixups, edits, dhText);
  });
  // finished is emitted in the worker; the context object queues the slot to this thread.
  connect(m_worker, &QThread::finished, this, [this, result, file, keepJointValues, fixups, floating] {
    m_worker->wait();
    delete m_worker;
    m_worker = nullptr;
    if (result->model) {
      m_loadedFixups = fixups;
      m_loadedFloatingBase = floating;
      m_floatingBaseAsked = false;
    }
    finishLoad(*result, file, keepJointValues);
  });
  emit loadingStarted(file);
  m_worker->start();
  return true;
}

void RobotDocument::finishLoad(const RobotLoadResult& r, const QString& path, bool keep) {
  if (!r.model) {
    emit loadingFinished(false, r.error, keep);
    return;
  }
  const std::shared_ptr<const dyn::Model> old = m_model;
  const Eigen::VectorXd oldQ = m_q, oldTorques = m_constantTorques;
  const std::string oldSelected =
      m_selectedBody >= 0 && m_selectedBody <= old->N ? old->bodyNames[m_selectedBody] : std::string();
  const int oldSelectedIndex = m_selectedBody;

  m_assembler.reset();  // refers to the old model
  m_model = r.model;
  const bool editListChanged = r.edits != m_edits;
  m_description = r.description;
  const bool tableChanged = r.dhTable != m_dhTable;
  m_dhTable = r.dhTable;
  if (!m_applyingEdits) m_fileDhText = r.fileDhText;
  m_edits = r.edits;
  if (!m_applyingEdits) m_skippedEdits = r.skippedEdits;
  if (m_model->hasLoops()) m_assembler = std::make_unique<dyn::Assembler>(*m_model);
  m_mimic.reset();
  if (!m_model->mimics.empty() && !m_model->hasLoops())
    if (auto c = std::make_unique<dyn::MimicCoupling>(dyn::mimicCoupling(*m_model)); c->active())
      m_mimic = std::move(c);
  m_loopMessage.clear();
  m_meshes = r.meshes;
  if (!m_applyingEdits) m_lastLoadMs = r.milliseconds;
  m_lastLoadWasReload = keep;
  m_keptTree = m_applyingEdits && sameTree(*old, *m_model);  // a reload reads the meshes again
  m_data = dyn::Data(*m_model);
  m_sourceFile = path;
  m_q = m_model->home();  // neutral, or the file's own pose (MJCF qpos0: free bodies where they are written)
  sanitize(m_q);
  // Zero may lie outside a joint's limits; start from the nearest valid pose.
  for (const JointCoordinate& c : jointCoordinates(*m_model))
    if (c.kind == JointCoordinate::Kind::Scalar && c.limited)
      m_q[c.qIndex] = std::clamp(m_q[c.qIndex], c.lower, c.upper);
  sanitize(m_q);                                   // mimic: the followers from their clamped masters
  if (m_model->hasLoops()) m_q = m_model->home();  // the assembled reference configuration
  m_home = m_q;
  m_constantTorques = Eigen::VectorXd::Zero(m_model->nv);

  if (keep) {  // reload: carry over each joint whose name and type are unchanged
    for (int i = 1; i <= m_model->N; ++i) {
      const int j = old->jointIndex(m_model->jointNames[i]);
      if (j < 1 || old->joints[j].type != m_model->joints[i].type) continue;
      const int n = m_model->joints[i].nq;
      m_q.segment(m_model->joints[i].idx_q, n) = oldQ.segment(old->joints[j].idx_q, n);
      const int nv = m_model->joints[i].nv;
      if (oldTorques.size() == old->nv)
        m_constantTorques.segment(m_model->joints[i].idx_v, nv) = oldTorques.segment(old->joints[j].idx_v, nv);
    }
  }
  if (keep) sanitize(m_q);            // mimic: a follower carried over follows its master again
  if (keep && m_model->hasLoops()) {  // the carried-over values, closed; else the reference pose
    Eigen::VectorXd q = m_q;
    if (assemble(q, true, tr("the reloaded pose")))
      m_q = q;
    else
      m_q = m_model->home();
    m_loopMessage.clear();
  }
  m_selectedBody = keep && !oldSelected.empty() ? m_model->bodyIndex(oldSelected) : -1;
  updateKinematics();
  emit modelChanged();
  emit poseChanged();
  // An edit keeps the selection, unless the selected body is gone (its joint made fixed).
  if (!m_applyingEdits || oldSelectedIndex != m_selectedBody) emit selectedBodyChanged(m_selectedBody);
  emit constantTorquesChanged();
  if (editListChanged) emit editsChanged();
  if (tableChanged && !m_applyingEdits) emit dhTableChanged();
  if (!m_applyingEdits) emit loadingFinished(true, QString(), keep);
}

bool RobotDocument::setEdits(const std::vector<dyn::RobotEdit>& edits, QString* error) {
  if (!m_description || m_worker) {
    if (error) *error = m_worker ? tr("a robot is still loading") : tr("no robot loaded");
    return false;
  }
  if (edits == m_edits) return true;
  return installRebuilt(m_description, m_dhTable, edits, error);
}

bool RobotDocument::setDhTable(const dyn::DhTable& table, QString* error) {
  if (!m_description || m_worker) {
    if (error) *error = m_worker ? tr("a robot is still loading") : tr("no robot loaded");
    return false;
  }
  std::shared_ptr<const dyn::RobotDescription> description;
  try {
    description = std::make_shared<const dyn::RobotDescription>(dyn::dhTableToDescription(table));
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  const bool ok = installRebuilt(description, std::make_shared<const dyn::DhTable>(table), m_edits, error);
  if (ok) emit dhTableChanged();
  return ok;
}

bool RobotDocument::dhTableEdited() const {
  return m_dhTable && (m_sourceFile.isEmpty() || dyn::writeDhTable(*m_dhTable) != m_fileDhText);
}

bool RobotDocument::installRebuilt(std::shared_ptr<const dyn::RobotDescription> description,
                                   std::shared_ptr<const dyn::DhTable> table, const std::vector<dyn::RobotEdit>& edits,
                                   QString* error) {
  RobotLoadResult r;
  try {
    r.model = buildEditedModel(*description, m_loadedFloatingBase, m_loadedFixups, edits);
  } catch (const std::exception& e) {  // an edit that does not fit, or a robot the builder refuses
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  r.description = std::move(description);
  r.dhTable = std::move(table);
  r.meshes = m_meshes;  // edits move and weigh links; the meshes stay (a DH robot has none)
  r.edits = edits;
  const Eigen::VectorXd home = m_home;
  m_applyingEdits = true;
  finishLoad(r, m_sourceFile, true);
  m_applyingEdits = false;
  if (home.size() == m_model->nq) m_home = home;
  return true;
}

bool RobotDocument::newFromDhTable(const dyn::DhTable& table, QString* error) {
  if (m_worker) {
    if (error) *error = tr("a robot is still loading");
    return false;
  }
  RobotLoadResult r;
  try {
    r.description = std::make_shared<const dyn::RobotDescription>(dyn::dhTableToDescription(table));
    r.model = buildEditedModel(*r.description, false, {}, {});
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  r.dhTable = std::make_shared<const dyn::DhTable>(table);
  m_loadedFixups.clear();
  m_loadedFloatingBase = false;
  finishLoad(r, QString(), false);  // a robot of its own: no file yet
  emit dhTableChanged();
  return true;
}

void RobotDocument::adoptSavedFile(const QString& path, const dyn::RobotDescription& saved,
                                   std::shared_ptr<const dyn::DhTable> table) {
  m_sourceFile = QFileInfo(path).absoluteFilePath();
  m_description = std::make_shared<const dyn::RobotDescription>(saved);
  m_dhTable = std::move(table);
  m_fileDhText = m_dhTable ? dyn::writeDhTable(*m_dhTable) : std::string();
  if (!m_edits.empty()) {  // they are in the file now
    m_edits.clear();
    emit editsChanged();
  }
  emit dhTableChanged();
}

bool RobotDocument::waitForLoad(QString* error) {
  bool ok = false;
  QString message;
  QEventLoop loop;
  connect(this, &RobotDocument::loadingFinished, &loop, [&](bool o, const QString& e) {
    ok = o;
    message = e;
    loop.quit();
  });
  loop.exec();
  if (error) *error = message;
  return ok;
}

bool RobotDocument::load(const QString& path, QString* error) {
  if (!startLoad(path, false)) {
    if (error) *error = QStringLiteral("another robot is still loading");
    return false;
  }
  return waitForLoad(error);
}

bool RobotDocument::reload(QString* error) {
  if (m_sourceFile.isEmpty()) {
    if (error) *error = QStringLiteral("no robot loaded");
    return false;
  }
  if (!startLoad(m_sourceFile, true)) {
    if (error) *error = QStringLiteral("another robot is still loading");
    return false;
  }
  return waitForLoad(error);
}

void RobotDocument::sanitize(Eigen::VectorXd& q) const {
  for (int i = 1; i <= m_model->N; ++i) {
    const auto& J = m_model->joints[i];
    const int off = J.type == dyn::JointType::Floating ? 3 : J.type == dyn::JointType::Spherical ? 0 : -1;
    if (off >= 0) {
      auto quat = q.segment<4>(J.idx_q + off);
      const double n = quat.norm();
      if (n > 1e-12 && std::isfinite(n))
        quat /= n;
      else
        quat = Eigen::Vector4d(0, 0, 0, 1);
    } else if (J.type == dyn::JointType::Revolute && J.continuous) {
      q[J.idx_q] = wrapAngle(q[J.idx_q]);
    }
  }
  if (m_mimic) {  // the followers from their masters: q = G_q y + b
    Eigen::VectorXd y(m_mimic->nqy);
    dyn::selectPositions(*m_mimic, q, y);
    dyn::expandPositions(*m_mimic, y, q);
  }
}

void RobotDocument::updateKinematics() {
  QElapsedTimer timer;
  timer.start();
  dyn::forwardKinematics(*m_model, m_data, m_q);
  dyn::updateFrames(*m_model, m_data);
  m_lastKinematicsMs = timer.nsecsElapsed() / 1e6;
  if (m_assembler) {  // what the window reports as the loops' closure
    m_assembler->evaluate(m_q);
    m_loopResidual = dyn::maxAbs(m_assembler->loopData().phi);
  } else {
    m_loopResidual = 0;
  }
}

bool RobotDocument::isDependentDof(int dof) const {
  if (dof < 0 || dof >= m_model->nv) return false;
  if (m_mimic) return m_mimic->isFollower(m_model->dofBody[size_t(dof)]);
  return m_model->hasLoops() && !m_model->isIndependent(dof);
}

bool RobotDocument::isMimicFollower(int body) const {
  return m_mimic && body >= 1 && body <= m_model->N && m_mimic->isFollower(body);
}

bool RobotDocument::assemble(Eigen::VectorXd& q, bool restarts, const QString& what) {
  m_assembler->evaluate(q);
  if (dyn::maxAbs(m_assembler->loopData().phi) <= kClosedTolerance) {  // closed already (playback, simulation)
    m_assemblyIterations = 0;
    m_loopMessage.clear();
    return true;
  }
  dyn::AssemblyOptions options;
  options.held = m_model->independentDofs();
  options.tolerance = kAssemblyTolerance;
  // First without restarts: a slider dragged stays on the branch the mechanism is on.
  options.restarts = 0;
  const dyn::AssemblyResult* r = &m_assembler->solve(q, options);
  if (!r->converged && restarts) {
    options.restarts = 8;
    r = &m_assembler->solve(q, options);
  }
  m_assemblyIterations = r->iterations;
  if (!r->converged || !r->q.allFinite()) {
    m_loopMessage = tr("The loops cannot close at %1: %2. The mechanism keeps its last assembled pose.")
                        .arg(what, QString::fromStdString(r->message));
    emit loopClosureFailed(m_loopMessage);
    return false;
  }
  q = r->q;
  m_loopMessage.clear();
  return true;
}

bool RobotDocument::commitQ(Eigen::VectorXd q, bool restarts, const QString& what) {
  sanitize(q);
  if (m_assembler && !assemble(q, restarts, what)) return false;
  m_q = q;
  updateKinematics();
  emit poseChanged();
  return true;
}

bool RobotDocument::setQ(const Eigen::VectorXd& q) {
  if (q.size() != m_model->nq || !q.allFinite()) return false;
  return commitQ(q, true, tr("the requested pose"));
}

bool RobotDocument::setJointValue(int qIndex, double value) {
  if (qIndex < 0 || qIndex >= m_model->nq || !std::isfinite(value)) return false;
  if (m_mimic) {  // a follower's value is its master's business
    int body = 1;
    while (body < m_model->N && qIndex >= m_model->joints[body].idx_q + m_model->joints[body].nq) ++body;
    if (m_mimic->isFollower(body)) return false;
  }
  const double lo = m_model->lowerLimit[qIndex], hi = m_model->upperLimit[qIndex];
  if (std::isfinite(lo) && std::isfinite(hi) && hi >= lo) value = std::clamp(value, lo, hi);
  if (m_q[qIndex] == value) return true;  // sliders and spin boxes echo; skip the redundant frame
  if (m_assembler) {                      // closed loops: only independent coordinates move; the dependent ones follow
    int body = 1;
    while (body < m_model->N && qIndex >= m_model->joints[body].idx_q + m_model->joints[body].nq) ++body;
    JointCoordinate c;
    c.body = body;
    c.qIndex = qIndex;
    if (isDependentDof(coordinateDof(*m_model, c))) return false;
    Eigen::VectorXd q = m_q;
    q[qIndex] = value;
    const QString name = QString::fromStdString(m_model->jointNames[body]);
    const bool angular = m_model->joints[body].type != dyn::JointType::Prismatic;
    return commitQ(q, false,
                   angular ? tr("%1 = %2°").arg(name).arg(value * 180 / M_PI, 0, 'f', 2)
                           : tr("%1 = %2 m").arg(name).arg(value, 0, 'f', 4));
  }
  m_q[qIndex] = value;
  sanitize(m_q);
  updateKinematics();
  emit poseChanged();
  return true;
}

bool RobotDocument::setJointRpy(int body, const Eigen::Vector3d& rpy) {
  if (body < 1 || body > m_model->N || !rpy.allFinite()) return false;
  const auto& J = m_model->joints[body];
  if (J.type != dyn::JointType::Spherical && J.type != dyn::JointType::Floating) return false;
  if (m_assembler) {
    for (int k = 0; k < 3; ++k)
      if (isDependentDof(J.idx_v + k)) return false;
    Eigen::VectorXd q = m_q;
    q.segment<4>(J.idx_q + (J.type == dyn::JointType::Floating ? 3 : 0)) = rpyToQuaternion(rpy);
    return commitQ(q, false, tr("the orientation of %1").arg(QString::fromStdString(m_model->jointNames[body])));
  }
  m_q.segment<4>(J.idx_q + (J.type == dyn::JointType::Floating ? 3 : 0)) = rpyToQuaternion(rpy);
  updateKinematics();
  emit poseChanged();
  return true;
}

void RobotDocument::setZero() {
  Eigen::VectorXd q = m_model->neutral();
  for (const JointCoordinate& c : jointCoordinates(*m_model))
    if (c.kind == JointCoordinate::Kind::Scalar && c.limited) q[c.qIndex] = std::clamp(q[c.qIndex], c.lower, c.upper);
  setQ(q);
}

void RobotDocument::randomize() {
  Eigen::VectorXd q = m_q;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 1; i <= m_model->N; ++i) {
    const auto& J = m_model->joints[i];
    if (J.type == dyn::JointType::Spherical) {  // uniform on SO(3): normalised Gaussian quaternion
      std::normal_distribution<double> g;
      q.segment<4>(J.idx_q) = Eigen::Vector4d(g(m_rng), g(m_rng), g(m_rng), g(m_rng)).normalized();
    }
    // A floating base keeps its pose: "within limits" means the actuated joints.
  }
  for (const JointCoordinate& c : jointCoordinates(*m_model)) {
    if (c.kind != JointCoordinate::Kind::Scalar) continue;
    if (m_model->joints[c.body].type == dyn::JointType::Floating) continue;
    if (!c.limited && !c.angular) continue;  // an unlimited slide has no range to sample
    q[c.qIndex] = c.lower + (c.upper - c.lower) * unit(m_rng);
  }
  if (m_assembler) {  // a random pose of the independent coordinates that closes: a few draws
    for (int attempt = 0; attempt < 10; ++attempt) {
      Eigen::VectorXd closed = q;
      sanitize(closed);
      bool closes = false;
      {
        const QSignalBlocker quiet(this);  // only the last draw's failure is worth reporting
        closes = assemble(closed, true, QString());
      }
      if (closes) {
        commitQ(closed, false, QString());
        return;
      }
      for (const JointCoordinate& c : jointCoordinates(*m_model))
        if (c.kind == JointCoordinate::Kind::Scalar && !isDependentDof(coordinateDof(*m_model, c)) &&
            (c.limited || c.angular))
          q[c.qIndex] = c.lower + (c.upper - c.lower) * unit(m_rng);
    }
    commitQ(q, true, tr("a random pose"));
    return;
  }
  setQ(q);
}

void RobotDocument::setSelectedBody(int body) {
  if (body < 0 || body > m_model->N) body = -1;
  if (body == m_selectedBody) return;
  m_selectedBody = body;
  emit selectedBodyChanged(body);
}

bool RobotDocument::setConstantTorque(int dof, double tau) {
  if (dof < 0 || dof >= m_constantTorques.size() || !std::isfinite(tau)) return false;
  if (m_constantTorques[dof] == tau) return true;
  m_constantTorques[dof] = tau;
  emit constantTorquesChanged();
  return true;
}
