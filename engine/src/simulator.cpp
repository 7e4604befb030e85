#include "dynscope/simulation/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/check.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/energy.hpp"
#include "dynscope/algorithms/forward_dynamics_crba.hpp"
#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/io/model_check.hpp"
#include "dynscope/io/readable_number.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/loops/assembly.hpp"
#include "dynscope/loops/loop_forward_dynamics.hpp"
#include "dynscope/loops/loop_projection.hpp"

namespace dyn {
namespace {

// Normalises the quaternions of q in place; throws naming the joint when one is zero or not finite.
void normaliseQuaternions(const Model& model, Eigen::VectorXd& q, const char* what) {
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<double>& J = model.joints[i];
    if (J.type != JointType::Spherical && J.type != JointType::Floating) continue;
    auto quat = q.segment<4>(J.idx_q + (J.type == JointType::Floating ? 3 : 0));
    const double n = quat.norm();
    if (!(n > 1e-12) || !std::isfinite(n))
      throw std::invalid_argument(std::string(what) + ": the quaternion of joint '" + model.jointNames[i] +
                                  "' is zero or not finite");
    quat /= n;
  }
}

}  // namespace

Simulator::Simulator(const Model& model, const SimulationSettings& settings, Controller controller)
    : model_(model), data_(model_), ld_(model_), settings_(settings), controller_(std::move(controller)) {
  validate(settings_);
  validate(controller_, model_);
  if (const std::string refusal = forwardDynamicsRefusal(model_); !refusal.empty()) throw std::runtime_error(refusal);
  const int nq = model_.nq, nv = model_.nv;
  for (auto* v : {&q_, &qTrial_, &qNew_}) v->setZero(nq);
  for (auto* v : {&qd_, &qdd_, &tau_, &qdTrial_, &qdNew_, &dq_, &dv_, &tauStage_, &qddStage_, &qddOther_})
    v->setZero(nv);
  scratch_.setZero(nq + 3 * nv);
  force_.setZero(nv);
  tauWrench_.setZero(nv);
  tauExternal_.setZero(nv);
  tauGround_.setZero(nv);  // the implicit step's workspace (simulator_contact.cpp), also for joint limits alone
  impulse_.setZero(nv);
  armatureWork_.setZero(nv);
  Sw_.setZero(6, nv);
  for (int i = 1; i <= model_.N; ++i)
    if (model_.joints[i].type == JointType::Floating)
      for (int k = 0; k < 6; ++k) freeDofs_.push_back(model_.joints[i].idx_v + k);
  for (auto* m : {&massMatrix_, &nextMassMatrix_, &factor_}) m->setZero(nv, nv);
  screwJoints_ = true;
  for (int i = 1; i <= model_.N; ++i)
    if (model_.joints[i].nv != 1 || model_.joints[i].type == JointType::Planar) screwJoints_ = false;
  if (model_.hasLoops()) screwJoints_ = false;  // the momentum form knows no constraints: velocity form
  if (!model_.mimics.empty() && !model_.hasLoops()) {
    coupling_ = mimicCoupling(model_);
    mimic_ = coupling_.active();
  }
  if (mimic_) {
    screwJoints_ = false;  // the momentum form has H, not H_y: velocity form
    mimicData_ = MimicData(coupling_);
    y_.setZero(coupling_.nqy);
    yd_.setZero(coupling_.ny);
    tauY_.setZero(coupling_.ny);
  }
  qProj_.setZero(nq);
  dqProj_.setZero(nv);
  kq_.setZero(nv, 7);
  kv_.setZero(nv, 7);
  // Limits act on coordinates whose q and v entries coincide (not on quaternions).
  for (int i = 1; i <= model_.N; ++i) {
    const JointModel<double>& J = model_.joints[i];
    if (J.type == JointType::Spherical || J.type == JointType::Floating) continue;
    for (int k = 0; k < J.nq; ++k)
      if (std::isfinite(model_.lowerLimit[J.idx_q + k]) || std::isfinite(model_.upperLimit[J.idx_q + k])) {
        limitQ_.push_back(J.idx_q + k);
        limitDofs_.push_back(J.idx_v + k);
      }
  }
  inLimit_.assign(limitDofs_.size(), 0);
  contact_.assign(limitDofs_.size(), 0);
  // The inertia a joint force (limit spring, friction) pushes against when the other joints give
  // way: 1 / (H^-1)_ii.
  dofInertia_.assign(size_t(nv), 0.0);
  data_.reserveFactor();  // the CRBA-based steps then allocate nothing
  // (H^-1)_ii at the neutral pose from H = L^T L, which refuses naming the joint where H is not
  // positive definite (inconsistent inertias, a massless prismatic leaf).
  if (nv > 0) {
    factor_ = crba(model_, data_, model_.neutral());
    try {
      factorLTL(model_, factor_);
    } catch (const ForwardDynamicsError& e) {
      throw ForwardDynamicsError(std::string("the simulation cannot start (at the neutral pose): ") + e.what(),
                                 e.body());
    }
    for (int i = 0; i < nv; ++i) {
      dv_.setZero();
      dv_[i] = 1;
      solveLTL(model_, factor_, dv_);
      dofInertia_[size_t(i)] = 1.0 / dv_[i];
    }
  }
  setUpContacts();
  stabilityCaps();
  record_.nq = nq;
  record_.nv = nv;
  record_.limitEvents.reserve(64);
  reset();
}

void Simulator::reset() { reset(model_.home(), Eigen::VectorXd::Zero(model_.nv)); }

void Simulator::reset(const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0) {
  checkSize("q0", q0.size(), model_.nq);
  checkSize("qd0", qd0.size(), model_.nv);
  if (!q0.allFinite()) throw std::invalid_argument("q0 has a value that is not finite");
  if (!qd0.allFinite()) throw std::invalid_argument("qd0 has a value that is not finite");
  Eigen::VectorXd q = q0, qd = qd0;
  normaliseQuaternions(model_, q, "q0");
  if (model_.hasLoops()) {  // onto the constraints: the nearest assembled configuration, a consistent qd
    const AssemblyResult a = assemble(model_, q, {{}, settings_.projectionTolerance, 200});
    if (!a.converged) throw std::invalid_argument("q0 cannot be assembled: " + a.message);
    q = a.q;
    projectVelocities(model_, data_, ld_, q, qd);
  }
  if (mimic_) enforceMimic(q, qd);  // the followers where their masters put them
  q_ = q;
  qd_ = qd;
  t_ = tBase_ = 0;
  stepCount_ = baseStep_ = 0;
  recordThinning_ = 1;
  dpStep_ = settings_.dt;
  dpErrPrevious_ = 1e-4;
  stats_ = {};
  status_ = SimulationStatus::Ok;
  error_.clear();
  record_.clear();
  std::fill(inLimit_.begin(), inLimit_.end(), 0);
  std::fill(contact_.begin(), contact_.end(), 0);
  std::fill(anchored_.begin(), anchored_.end(), 0);  // points in contact at q0 stick where they are
  contactForces_.clear();
  contactEnergy_ = 0;
  fdDifference_ = 0;
  qNew_ = q_;
  qdNew_ = qd_;
  try {
    if (!commit(0.0, false)) {  // the initial state itself is unusable (e.g. a NaN torque)
      status_ = SimulationStatus::Diverged;
      rightHandSide(t_, q_, qd_, tau_, qdd_, holdsContacts());
    }
  } catch (const ForwardDynamicsError& e) {
    throw ForwardDynamicsError(std::string("the simulation cannot start (at the initial state): ") + e.what(),
                               e.body());
  }
  updateEnergy();
  recordState();
}

// A stiff spring on a light joint has a natural frequency w = sqrt(k / m) that an explicit step
// of h integrates only while w h stays small (symplectic Euler: < 2; RK4: < 2.8), and an explicit
// damper only while c h / m stays small. Capping at w h = 1 and c h / m = 1 keeps every joint
// stable at the chosen step; heavy joints keep the settings' values. Symplectic Euler in momentum
// form takes the damper implicitly, so only its spring is capped (not in its velocity form). The smoothed friction f
// tanh(qd / eps) is a damper of slope f / eps near rest, explicit in every integrator: eps >= f h / m caps it the same
// way (the gripper fingers: 1 N m s/rad on 1e-4 kg m^2 held RK45 to ~0.3 ms sub-steps).
void Simulator::stabilityCaps() {
  limitK_.assign(limitDofs_.size(), settings_.limitStiffness);
  limitC_.assign(limitDofs_.size(), settings_.limitDamping);
  const double h = settings_.dt;
  for (size_t j = 0; j < limitDofs_.size(); ++j) {
    const double m = dofInertia_[size_t(limitDofs_[j])];
    if (!(m > 0) || !std::isfinite(m)) continue;
    limitK_[j] = std::min(limitK_[j], m / (h * h));
    // The momentum form takes the damper implicitly; its velocity form (quaternion joints) does not.
    if (settings_.integrator != Integrator::SemiImplicitEuler || !screwJoints_)
      limitC_[j] = std::min(limitC_[j], m / h);
  }
  // Contact points: K = m / (tau^2 zeta^2), C = 2 m / tau with tau no shorter than two steps (MuJoCo
  // clamps its time constant the same way), or the settings' K and C. A shape's points in contact act
  // in proportion to their penetration (contactShare), so a mesh's hundred hull points are as stiff as
  // a box's corners.
  const GroundSettings& g = settings_.ground;
  const double tc = std::max(g.timeConstant, 2 * h);
  // A light link (a foot, which the knee and ankle move easily) pressed by the rest of the robot would
  // sink on a spring sized for its own mass: the rule takes at least the share of the robot's mass
  // that one of two feet carries.
  const double share = model_.totalMass() / 2;
  const bool capped = !implicitContact();
  const auto spring = [&](double m, double& K, double& C) {
    K = C = 0;
    if (!(m > 0) || !std::isfinite(m)) return;  // a point no joint can move takes no force
    const double mr = std::max(m, share);
    K = g.stiffness > 0 ? g.stiffness : mr / (tc * tc * g.dampingRatio * g.dampingRatio);
    C = g.stiffness > 0 ? g.damping : 2 * mr / tc;
    if (!capped) return;  // implicit: stable for any K and C
    // Explicit: w h <= 1/sqrt(2) and c h / m <= 1 (a point can pass from free to pressed within a stage).
    K = std::min(K, m / (2 * h * h));
    C = std::min(C, m / h);
  };
  const size_t points = contactMass_.size();
  for (auto* v : {&contactK_, &contactC_, &contactKt_, &contactCt_}) v->assign(points, 0.0);
  for (size_t j = 0; j < points; ++j) {
    spring(contactMass_[j], contactK_[j], contactC_[j]);     // normal
    spring(contactMassT_[j], contactKt_[j], contactCt_[j]);  // tangential (sticking)
  }
  frictionEps_.setConstant(model_.nv, settings_.frictionVelocity);
  for (int i = 0; i < model_.nv; ++i) {
    const double m = dofInertia_[size_t(i)];
    if (m > 0 && std::isfinite(m)) frictionEps_[i] = std::max(frictionEps_[i], std::abs(model_.friction[i]) * h / m);
  }
}

void Simulator::setSettings(const SimulationSettings& settings) {
  validate(settings);
  settings_ = settings;
  setUpContacts();
  stabilityCaps();
  if (!groundActive()) {  // off: no anchors, no forces; on again: points in contact stick where they are
    std::fill(anchored_.begin(), anchored_.end(), 0);
    contactForces_.clear();
    contactEnergy_ = 0;
  }
  tBase_ = t_;
  baseStep_ = stepCount_;
  dpStep_ = std::min(dpStep_ > 0 ? dpStep_ : settings_.dt, settings_.dt);
  rightHandSide(t_, q_, qd_, tau_, qdd_, holdsContacts());  // the right-hand side depends on the passive effects
  stateReadouts();
  updateEnergy();  // energy may just have been switched on
}

void Simulator::setController(Controller controller) {
  validate(controller, model_);
  controller_ = std::move(controller);
  rightHandSide(t_, q_, qd_, tau_, qdd_, holdsContacts());
}

// ---- The right-hand side: tau(t, q, qd) and qdd = FD(q, qd, tau) ---------------------------------

void Simulator::setWrenches(const std::vector<ExternalWrench>& wrenches) {
  for (const ExternalWrench& w : wrenches)
    if (const std::string why = wrenchProblem(model_, w); !why.empty()) throw std::invalid_argument(why);
  wrenches_ = wrenches;
  tauWrench_.setZero(model_.nv);
  if (status_ == SimulationStatus::Ok) rightHandSide(t_, q_, qd_, tau_, qdd_, holdsContacts());  // qdd at the state
  stateReadouts();
}

void Simulator::passiveTorque(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau,
                              bool held) const {
  if (settings_.damping) tau -= model_.damping.cwiseProduct(qd);  // viscous: -b qd
  if (model_.stiffness.size() == model_.nv)                       // joint springs: -k (q - springref)
    for (int i = 1; i <= model_.N; ++i) {
      const JointModel<double>& J = model_.joints[i];
      if (J.nv == 1 && J.nq == 1 && model_.stiffness[J.idx_v] != 0)
        tau[J.idx_v] -= model_.stiffness[J.idx_v] * (q[J.idx_q] - model_.springref[J.idx_v]);
    }
  if (settings_.friction)
    for (int i = 0; i < model_.nv; ++i)  // Coulomb, smoothed: -f tanh(qd / eps)
      if (model_.friction[i] != 0) tau[i] -= model_.friction[i] * std::tanh(qd[i] / frictionEps_[i]);
  if (!settings_.limits) return;
  // Held: the contacts of the step's start (Dormand-Prince locates their switches, see
  // limitSwitch); else taken from the state.
  for (size_t j = 0; j < limitDofs_.size(); ++j) {  // one-sided spring-dampers that only push back
    const int iq = limitQ_[j], iv = limitDofs_[j];
    const double k = limitK_[j], c = limitC_[j];
    const double x = q[iq], lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq];
    if (held) {
      if (contact_[j] == 1) tau[iv] += -k * (x - hi) - c * qd[iv];
      if (contact_[j] == -1) tau[iv] += k * (lo - x) - c * qd[iv];
      continue;
    }
    if (x > hi) tau[iv] += std::min(0.0, -k * (x - hi) - c * qd[iv]);
    if (x < lo) tau[iv] += std::max(0.0, k * (lo - x) - c * qd[iv]);
  }
}

const Eigen::VectorXd& Simulator::forwardDynamics(ForwardAlgorithm algorithm, const Eigen::VectorXd& q,
                                                  const Eigen::VectorXd& qd, const Eigen::VectorXd& tau) {
  ++stats_.evaluations;
  if (model_.hasLoops()) return loopForwardDynamics(model_, data_, ld_, q, qd, tau, loopSettings(settings_.loopMethod));
  if (mimic_) {  // ydd = H_y^-1 (G^T tau - G^T C), qdd = G ydd (the followers' torques reach their masters)
    selectPositions(coupling_, q, y_);
    selectVelocities(coupling_, qd, yd_);
    reduceForces(coupling_, tau, tauY_);
    reducedForwardDynamics(model_, data_, coupling_, mimicData_, y_, yd_, tauY_);
    return mimicData_.qdd;
  }
  return algorithm == ForwardAlgorithm::Crba ? forwardDynamicsCrba(model_, data_, q, qd, tau)
                                             : aba(model_, data_, q, qd, tau);
}

LoopSettings Simulator::loopSettings(LoopMethod method) const {
  LoopSettings s;
  s.method = method;
  if (settings_.baumgarte) {
    s.baumgarteAlpha = settings_.baumgarteAlpha;
    s.baumgarteBeta = settings_.baumgarteBeta;
  }
  return s;
}

void Simulator::enforceMimic(Eigen::VectorXd& q, Eigen::VectorXd& qd) {
  selectPositions(coupling_, q, y_);
  expandPositions(coupling_, y_, q);
  selectVelocities(coupling_, qd, yd_);
  expandVelocities(coupling_, yd_, qd);
}

void Simulator::projectNewState() {
  if (!model_.hasLoops() || !settings_.projection) return;
  if (projectPositions(model_, data_, ld_, qNew_, qProj_, dqProj_, settings_.projectionTolerance,
                       settings_.projectionIterations) < 0) {  // reported, not dropped: see SimulationStats
    ++stats_.projectionFailures;
    stats_.worstProjectionResidual = std::max(stats_.worstProjectionResidual, maxAbs(ld_.phi));
  }
  projectVelocities(model_, data_, ld_, qNew_, qdNew_);
}

void Simulator::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau,
                         Eigen::VectorXd& qdd) {
  rightHandSide(t, q, qd, tau, qdd, false);
}

void Simulator::rightHandSide(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau,
                              Eigen::VectorXd& qdd, bool heldContacts, bool applied) {
  checkSize("q", q.size(), model_.nq);
  checkSize("qd", qd.size(), model_.nv);
  tau.resize(model_.nv);  // no-ops for the workspace vectors
  qdd.resize(model_.nv);
  // Gravity compensation cancels gravity exactly: qdd = FD(q, qd, g(q) + p) is FD(q, qd, p) without
  // gravity, so a stage that needs qdd alone skips the RNEA for g(q).
  const bool cancel = !applied && cancelsGravity();
  if (cancel)
    tau.setZero();
  else
    controlTorque(controller_, model_, data_, t, q, qd, tau, scratch_, &ld_);
  for (int v : model_.passiveDofs) tau[v] = 0;  // no actuator there
  if (groundActive())  // standing on the ground a free-floating base carries itself: no motor drives it
    for (int v : freeDofs_) tau[v] = 0;
  passiveTorque(q, qd, tau, heldContacts);
  const bool ground = groundActive();
  if (!wrenches_.empty() || ground) forwardKinematics(model_, data_, q, qd);
  if (!wrenches_.empty()) {  // tau += J^T f at this state's pose (their world axes stay put)
    wrenchJointForces(model_, data_, wrenches_, tauWrench_);
    tau += tauWrench_;
  }
  if (ground) groundForces(tau, false);
  if (!cancel) {
    qdd = forwardDynamics(settings_.algorithm, q, qd, tau);
    return;
  }
  const Motion<double> gravity = model_.gravity;
  model_.gravity.setZero();
  qdd = forwardDynamics(settings_.algorithm, q, qd, tau);  // does not throw: the sizes are checked
  model_.gravity = gravity;
}

// ---- Accepting a new state ------------------------------------------------------------------------

bool Simulator::finiteAndBounded(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                                 double t) {
  // The message is built only on failure: this runs on every accepted step and must not allocate.
  const auto at = [&] { return "the simulation diverged at t = " + readableNumber(t) + ": "; };
  if (!q.allFinite() || !qd.allFinite() || !qdd.allFinite() || !tauStage_.allFinite()) {
    error_ = at() + "the state or the torques are not finite (NaN or infinite); try a smaller time step";
    return false;
  }
  Eigen::Index i = 0;
  if (model_.nv > 0 && qd.cwiseAbs().maxCoeff(&i) > settings_.velocityBound) {
    error_ = at() + "the velocity of joint '" + model_.jointNames[model_.dofBody[i]] + "' is " + readableNumber(qd[i]) +
             ", above the bound " + readableNumber(settings_.velocityBound) + "; try a smaller time step";
    return false;
  }
  return true;
}

bool Simulator::commit(double tNew, bool evaluated, int switchingLimit, int contact) {
  if (mimic_) enforceMimic(qNew_, qdNew_);          // removes round-off; the evaluation stays valid
  if (model_.hasLoops() && settings_.projection) {  // back onto the constraints: the stage values no longer hold
    projectNewState();
    evaluated = false;
  }
  if (!evaluated)
    rightHandSide(tNew, qNew_, qdNew_, tauStage_, qddStage_, holdsContacts());
  else if (cancelsGravity())  // from a stage: add g(q)
    tauStage_ += gravityVector(model_, data_, qNew_);
  // The message is only built on failure: the check itself does not allocate.
  if (!finiteAndBounded(qNew_, qdNew_, qddStage_, tNew)) return false;
  q_.swap(qNew_);
  qd_.swap(qdNew_);
  qdd_.swap(qddStage_);
  tau_.swap(tauStage_);
  t_ = tNew;
  recorded_ = false;
  massValid_ = false;  // stepEuler re-validates its cached H(q)
  // Held contacts (Dormand-Prince) that changed: the state's forces and the next step's first
  // stage (FSAL) under the new ones.
  if (checkLimits(switchingLimit, contact) && settings_.integrator == Integrator::DormandPrince45)
    rightHandSide(t_, q_, qd_, tau_, qdd_, holdsContacts());
  // Anchors that slipped change the state's friction forces.
  if (groundActive() && slipAnchors()) rightHandSide(t_, q_, qd_, tau_, qdd_, holdsContacts());
  stateReadouts();
  if (model_.hasLoops()) {  // the evaluation at (q_, qd_) left phi and phi' qd in ld_
    phiNorm_ = ld_.phi.norm();
    phiDotNorm_ = ld_.phiDot.norm();
  }
  if (settings_.compare && !mimic_) {  // the other algorithm on the same state and torques (mimic: one, CRBA-based)
    if (model_.hasLoops()) {           // method 2 against method 1, other methods against method 2
      const LoopMethod other =
          settings_.loopMethod == LoopMethod::Multipliers ? LoopMethod::Augmented : LoopMethod::Multipliers;
      ++stats_.evaluations;
      qddOther_ = loopForwardDynamics(model_, data_, ld_, q_, qd_, tau_, loopSettings(other));
    } else {
      const ForwardAlgorithm other =
          settings_.algorithm == ForwardAlgorithm::Aba ? ForwardAlgorithm::Crba : ForwardAlgorithm::Aba;
      qddOther_ = forwardDynamics(other, q_, qd_, tau_);
    }
    if (model_.nv > 0) fdDifference_ = std::max(fdDifference_, (qddOther_ - qdd_).cwiseAbs().maxCoeff());
  }
  return true;
}

// Once per step(), not per Dormand-Prince sub-step: the record and the readouts see step ends only.
void Simulator::updateEnergy() {
  if (!settings_.energy) return;
  computeEnergy(model_, data_, q_, qd_);
  // The springs' stored energy counts: the ground's, and the joint limits' 1/2 k (x - limit)^2 (a start
  // beyond a limit, like an MJCF ant's ankles at q = 0, holds energy that its spring hands back).
  double springs = groundActive() ? contactEnergy_ : 0.0;
  if (settings_.limits)
    for (size_t j = 0; j < limitDofs_.size(); ++j) {
      const double x = q_[limitQ_[j]], lo = model_.lowerLimit[limitQ_[j]], hi = model_.upperLimit[limitQ_[j]];
      const double beyond = x > hi ? x - hi : x < lo ? lo - x : 0.0;
      springs += 0.5 * limitK_[j] * beyond * beyond;
    }
  energy_ = data_.kinetic + data_.potential + springs;
}

bool Simulator::limitPushing() const {
  if (!settings_.limits) return false;
  for (signed char c : contact_)
    if (c == 1 || c == -1) return true;
  return false;
}

bool Simulator::checkLimits(int switching, int contact) {
  bool changed = false;
  for (size_t j = 0; j < limitDofs_.size(); ++j) {
    const int iq = limitQ_[j], iv = limitDofs_[j];
    const double x = q_[iq], qd = qd_[iv], lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq];
    signed char side = x > hi ? 1 : x < lo ? -1 : 0, mode = 0;
    if (int(j) == switching) {  // on a located switch, maybe a hair short of it
      mode = static_cast<signed char>(contact);
      side = static_cast<signed char>(contact > 0 ? 1 : contact < 0 ? -1 : 0);
    } else if (side > 0) {  // pushing while the spring-damper pushes back, else released
      mode = -limitK_[j] * (x - hi) - limitC_[j] * qd < 0 ? 1 : 2;
    } else if (side < 0) {
      mode = limitK_[j] * (lo - x) - limitC_[j] * qd > 0 ? -1 : -2;
    }
    if (side != 0 && side != inLimit_[j])
      record_.limitEvents.push_back({t_, iv, model_.dofBody[iv], side > 0, x, side > 0 ? hi : lo});
    inLimit_[j] = side;
    changed = changed || mode != contact_[j];
    contact_[j] = mode;
  }
  return changed;
}

void Simulator::recordState() {
  if (recorded_) return;
  SimulationRecord& r = record_;
  r.t.push_back(t_);
  r.q.insert(r.q.end(), q_.data(), q_.data() + q_.size());
  r.qd.insert(r.qd.end(), qd_.data(), qd_.data() + qd_.size());
  r.qdd.insert(r.qdd.end(), qdd_.data(), qdd_.data() + qdd_.size());
  r.tau.insert(r.tau.end(), tau_.data(), tau_.data() + tau_.size());
  if (settings_.energy && r.energy.size() + 1 == r.t.size()) r.energy.push_back(energy_);
  if (settings_.compare && r.fdDifference.size() + 1 == r.t.size()) r.fdDifference.push_back(fdDifference_);
  if (model_.hasLoops() && r.constraintError.size() + 1 == r.t.size()) {
    r.constraintError.push_back(phiNorm_);
    r.constraintRateError.push_back(phiDotNorm_);
  }
  // Once recorded, the outside forces' columns go on (zero) when the wrenches or the ground are
  // switched off mid-run, so that they keep one entry per sample.
  const bool outside = groundActive() || !wrenches_.empty() || !r.tauExternal.empty();
  if (outside && r.tauExternal.size() < r.t.size() * size_t(model_.nv)) {
    r.tauExternal.resize((r.t.size() - 1) * size_t(model_.nv), 0.0);  // none before they were set
    r.tauExternal.insert(r.tauExternal.end(), tauExternal_.data(), tauExternal_.data() + tauExternal_.size());
  }
  if ((groundActive() || !r.contactNormal.empty()) && r.contactNormal.size() < r.t.size()) {
    for (auto* v : {&r.contactNormal, &r.contactFriction, &r.penetration})  // switched on mid-run: none before
      v->resize(r.t.size() - 1, 0.0);
    double normal = 0, friction = 0, depth = 0;
    for (const ContactForce& c : contactForces_) {
      if (!groundActive()) break;  // switched off mid-run: zeros from here on
      normal += c.force.z();
      friction += c.force.head<2>().norm();
      depth = std::max(depth, c.penetration);
    }
    r.contactNormal.push_back(normal);
    r.contactFriction.push_back(friction);
    r.penetration.push_back(depth);
  }
  fdDifference_ = 0;
  recorded_ = true;
  // At the limit: every other sample goes, the interval doubles (the samples kept are on its grid).
  if (settings_.recordLimit >= 2 && r.samples() >= settings_.recordLimit) {
    recorded_ = r.samples() % 2 == 1;  // the current state is the last sample: kept when its index is even
    r.dropEveryOther();
    recordThinning_ *= 2;
  }
}

// ---- Stepping -----------------------------------------------------------------------------------------

SimulationStatus Simulator::step() {
  if (status_ == SimulationStatus::Diverged) return status_;
  bool ok = false;
  // The step's end time counted from the last reset or settings change: no drift from adding dt.
  const double h = tBase_ + double(stepCount_ + 1 - baseStep_) * settings_.dt - t_;
  try {
    switch (settings_.integrator) {
      case Integrator::SemiImplicitEuler:
        ok = stepEuler(h);
        break;
      case Integrator::Rk4:
        ok = stepRk4(h);
        break;
      case Integrator::DormandPrince45:
        ok = stepDormandPrince(h);
        break;
    }
  } catch (const ForwardDynamicsError& e) {  // a pivot of H(q) not positive on the way: the joint is named
    error_ = "the simulation stopped at t = " + readableNumber(t_) + ": " + e.what();
    ok = false;
  }
  updateEnergy();  // also for the last good state of a failed step, which ends the record
  if (!ok) {
    status_ = SimulationStatus::Diverged;
    recordState();  // the last good state ends the record
    return status_;
  }
  ++stats_.steps;
  if (++stepCount_ % recordInterval() == 0) recordState();
  return SimulationStatus::Ok;
}

SimulationStatus Simulator::advance(double duration, const std::atomic<bool>* cancel,
                                    const std::function<void(double)>& progress) {
  if (!std::isfinite(duration) || duration < 0)
    throw std::invalid_argument("advance: duration must be a finite number >= 0, not " + readableNumber(duration));
  const long n = std::lround(duration / settings_.dt);
  const long every = std::max(1L, n / 100);
  SimulationStatus status = status_;
  for (long k = 0; k < n && status != SimulationStatus::Diverged; ++k) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      status = SimulationStatus::Cancelled;
      break;
    }
    status = step();
    if (progress && (k + 1) % every == 0) progress(double(k + 1) / double(n));
  }
  recordState();  // the final state, also when recordEvery skipped it
  return status;
}

// Semi-implicit Euler in velocity form: qd+ = qd + h qdd(q, qd), q+ = q (+) h qd+. Symplectic only
// where H(q) is constant; the fallback for spherical, floating and planar joints.
bool Simulator::stepEulerVelocity(double h) {
  qdNew_ = qd_ + h * qdd_;
  integrate(model_, q_, qdNew_, h, qNew_);
  ++stats_.subSteps;
  return commit(t_ + h, false);
}

// Symplectic Euler on (q, p = H(q) qd) (Hairer, Lubich & Wanner, Geometric Numerical Integration,
// Thm. VI.3.3): p+ = p + h (dL/dq(q, v+) + tau), q+ = q + h v+ with v+ = H(q)^-1 p+, solved for v+ by
// fixed-point iteration (dL/dq = dT/dq - g); then qd+ = H(q+)^-1 p+. The forces tau (actuators,
// friction, limit springs) are taken at the start of the step, viscous damping at its end.
bool Simulator::stepEuler(double h) {
  // The ground touched, or (velocity form, whose limit springs are otherwise explicit) a joint limit
  // pushing: the forces at the step's end (simulator_contact.cpp).
  if (implicitContact()) {
    if (contactCandidates(h)) return stepEulerContact(h);
    if (!screwJoints_ && limitPushing()) return stepEulerLimits(h);  // one ABA: the terms are diagonal
  }
  if (!screwJoints_) return stepEulerVelocity(h);
  if (!massValid_) massMatrix_ = crba(model_, data_, q_);  // H(q_n)
  // Viscous terms implicitly, (H + h B)(v+ - qd_n) = h (dT/dq + tau - g): stable for any b h / H_ii,
  // where explicit damping of a light link (the URDF's or the limit damper) would blow up.
  factor_ = massMatrix_;
  if (settings_.damping) factor_.diagonal() += h * model_.damping;
  if (settings_.limits)
    for (size_t j = 0; j < limitDofs_.size(); ++j)
      if (inLimit_[j] != 0) factor_(limitDofs_[j], limitDofs_[j]) += h * limitC_[j];
  factorLTL(model_, factor_);
  force_ = tau_ - gravityVector(model_, data_, q_);  // tau - g(q_n)
  qdTrial_ = qd_ + h * qdd_;                         // initial guess: the velocity form
  for (int it = 0; it < 50; ++it) {
    kineticGradient(q_, qdTrial_, dv_);  // dT/dq(q_n, v+)
    dv_ += force_;
    solveLTL(model_, factor_, dv_);
    qdNew_ = qd_ + h * dv_;  // v+ = qd_n + h (H + h B)^-1 (dT/dq - g + tau)
    const double change = model_.nv ? (qdNew_ - qdTrial_).cwiseAbs().maxCoeff() : 0.0;
    qdTrial_.swap(qdNew_);
    if (!(change > 1e-14 * (1 + (model_.nv ? qdTrial_.cwiseAbs().maxCoeff() : 0.0)))) break;
  }
  integrate(model_, q_, qdTrial_, h, qNew_);
  dq_.noalias() = massMatrix_ * qdTrial_;  // p+ = H(q_n) v+
  nextMassMatrix_ = crba(model_, data_, qNew_);
  factor_ = nextMassMatrix_;
  factorLTL(model_, factor_);
  solveLTL(model_, factor_, dq_);
  qdNew_ = dq_;  // qd+ = H(q+)^-1 p+
  ++stats_.subSteps;
  if (!commit(t_ + h, false)) return false;
  massMatrix_.swap(nextMassMatrix_);
  massValid_ = true;
  return true;
}

// dT/dq_k = -S_k . (v_lambda(i) x* H_i) for the screw joint k of body i, H_i the momentum of the
// subtree of i (the derivative of the link-coordinate velocities; the inertias are constant there).
void Simulator::kineticGradient(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
  jointTransformsAndVelocities(model_, data_, q, v);
  for (int i = 1; i <= model_.N; ++i) data_.f[i] = model_.I[i] * data_.v[i];  // h_i = I_i v_i
  for (int i = model_.N; i >= 1; --i) {
    const JointModel<double>& J = model_.joints[i];
    const int lambda = model_.parent[i];
    const Motion<double> vp = data_.Xup[i].apply(data_.v[lambda]);  // v_lambda(i) in link-i coordinates
    const Force<double> g = vp.crossForce(data_.f[i]);
    for (int k = 0; k < J.nv; ++k) out[J.idx_v + k] = -data_.S[J.idx_v + k].dot(g);
    if (lambda > 0) data_.f[lambda] += data_.Xup[i].applyTranspose(data_.f[i]);  // H_lambda += X^T H_i
  }
}

// Classic RK4 on (q, qd); q-stages move on the joint manifolds: q (+) h sum a_j k_j.
bool Simulator::stepRk4(double h) {
  kq_.col(0) = qd_;  // k1 at the current state (cached)
  kv_.col(0) = qdd_;
  const double c[4] = {0, 0.5, 0.5, 1};
  for (int s = 1; s < 4; ++s) {
    dq_ = (c[s] * h) * kq_.col(s - 1);
    integrate(model_, q_, dq_, 1.0, qTrial_);
    qdTrial_ = qd_ + (c[s] * h) * kv_.col(s - 1);
    rightHandSide(t_ + c[s] * h, qTrial_, qdTrial_, tauStage_, qddStage_, holdsContacts(), false);
    kq_.col(s) = qdTrial_;
    kv_.col(s) = qddStage_;
  }
  dq_ = (h / 6) * (kq_.col(0) + 2 * kq_.col(1) + 2 * kq_.col(2) + kq_.col(3));
  integrate(model_, q_, dq_, 1.0, qNew_);
  qdNew_ = qd_ + (h / 6) * (kv_.col(0) + 2 * kv_.col(1) + 2 * kv_.col(2) + kv_.col(3));
  ++stats_.subSteps;
  return commit(t_ + h, false);
}

namespace {
// Dormand-Prince RK5(4)7M (J. Comput. Appl. Math. 6, 1980): the 5th-order row b = a[6] (FSAL) and
// e = b - b* (the 4th-order embedded solution) for the error estimate.
constexpr double kC[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
constexpr double kA[7][6] = {
    {},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84},
};
constexpr double kE[7] = {71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40};
}  // namespace

// One trial step of size h from the current state: the 5th-order solution into qNew_/qdNew_ (with
// its qdd and tau from the last stage), the error norm (<= 1: accept) into errorNorm.
bool Simulator::dormandPrinceTrial(double h, double& errorNorm) {
  kq_.col(0) = qd_;
  kv_.col(0) = qdd_;
  for (int s = 1; s < 7; ++s) {
    dq_.setZero();
    dv_.setZero();
    for (int j = 0; j < s; ++j) {
      dq_ += (h * kA[s][j]) * kq_.col(j);
      dv_ += (h * kA[s][j]) * kv_.col(j);
    }
    integrate(model_, q_, dq_, 1.0, qTrial_);
    qdTrial_ = qd_ + dv_;
    rightHandSide(t_ + kC[s] * h, qTrial_, qdTrial_, tauStage_, qddStage_, holdsContacts(), false);
    kq_.col(s) = qdTrial_;
    kv_.col(s) = qddStage_;
  }
  qNew_ = qTrial_;  // the last stage is the 5th-order solution itself
  qdNew_ = qdTrial_;
  dq_.setZero();  // error estimates h sum e_j k_j
  dv_.setZero();
  for (int j = 0; j < 7; ++j) {
    dq_ += (h * kE[j]) * kq_.col(j);
    dv_ += (h * kE[j]) * kv_.col(j);
  }
  const double tol = settings_.tolerance;
  errorNorm = 0;
  for (int i = 0; i < model_.nv; ++i) {  // positions absolute, velocities mixed absolute/relative
    const double velocityScale = tol * (1 + std::max(std::abs(qd_[i]), std::abs(qdNew_[i])));
    errorNorm = std::max({errorNorm, std::abs(dq_[i]) / tol, std::abs(dv_[i]) / velocityScale});
  }
  if (!std::isfinite(errorNorm) || !qddStage_.allFinite()) errorNorm = std::numeric_limits<double>::infinity();
  return true;
}

// The first switch of a held contact during the trial step t_ -> t_ + h just taken (qNew_,
// qdNew_, qddStage_): the limit index, the contact after it, and the fraction s of h where the
// switching function crosses zero along cubic Hermites of the position and velocity through the
// step's ends; -1 when none. Switches: a free joint entering a limit (the damper's force -c qd
// starts at once: a jump), a pushing contact releasing (the spring-damper would pull: a kink), a
// released one pushing again. Inside a step the contacts are held (passiveTorque), so the trial is
// smooth and the cubics accurate to O(h^4); stepping onto the switch spares the error control a
// jump or kink that it would otherwise narrow down in tens of rejected steps (or, for a kink,
// sometimes miss).
int Simulator::limitSwitch(double h, double& s, int& contact) const {
  int first = -1;
  s = 1;
  for (size_t j = 0; j < limitDofs_.size(); ++j) {
    const int iq = limitQ_[j], iv = limitDofs_[j], mode = contact_[j];
    const double lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq], k = limitK_[j], c = limitC_[j];
    auto hermite = [](double y0, double m0, double y1, double m1, double u) {
      const double u2 = u * u, u3 = u2 * u;
      return (2 * u3 - 3 * u2 + 1) * y0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * y1 + (u3 - u2) * m1;
    };
    auto x = [&](double u) { return hermite(q_[iq], h * qd_[iv], qNew_[iq], h * qdNew_[iv], u); };
    auto v = [&](double u) { return hermite(qd_[iv], h * qdd_[iv], qdNew_[iv], h * qddStage_[iv], u); };
    // f(u) <= 0 before the switch into `to`, > 0 after it.
    auto consider = [&](auto f, int to) {
      if (!(f(0.0) <= 0 && f(s) > 0)) return;
      double a = 0, b = s;
      for (int it = 0; it < 60 && b - a > 1e-15; ++it) {
        const double mid = 0.5 * (a + b);
        (f(mid) > 0 ? b : a) = mid;
      }
      s = b;
      first = int(j);
      contact = to;
    };
    auto upperForce = [&](double u) { return -k * (x(u) - hi) - c * v(u); };  // pushes while < 0
    auto lowerForce = [&](double u) { return k * (lo - x(u)) - c * v(u); };   // pushes while > 0
    if (mode == 0) {
      consider([&](double u) { return x(u) - hi; }, 1);
      consider([&](double u) { return lo - x(u); }, -1);
    } else if (mode == 1) {
      consider(upperForce, 2);
    } else if (mode == 2) {
      consider([&](double u) { return -upperForce(u); }, 1);
    } else if (mode == -1) {
      consider([&](double u) { return -lowerForce(u); }, -2);
    } else {
      consider(lowerForce, -1);
    }
  }
  return first;
}

// Step-size control after Hairer, Norsett & Wanner (Solving ODEs I, II.4 and the DOPRI5 code):
// the PI controller h' = h * clamp(0.9 err^(-0.17) errPrev^0.04, 0.2, 5), at most dt, no growth
// right after a rejection; a rejected step shrinks by clamp(0.9 err^(-1/p), 0.2, 0.9) with p = 5,
// or, rejected again, the order the two errors show (a kink or jump in the forces, e.g. a joint
// limit, gives p ~ 1 where p = 5 would creep towards it in many small cuts).
// The interval is cut into equal sub-steps no longer than h' (rather than full steps and a
// sliver at the end: each costs six evaluations however short).
bool Simulator::stepDormandPrince(double interval) {
  constexpr double kSafety = 0.9, kBeta = 0.04, kAlpha = 0.2 - 0.75 * kBeta, kMinFactor = 0.2, kMaxFactor = 5;
  constexpr double kStretch = 1.1;  // a piece may exceed the plan by 10 % (err ~ h^5: x1.6)
  const double tEnd = t_ + interval;
  bool rejected = false;
  double rejectedStep = 0, rejectedErr = 0;
  int switching = -1, contact = 0;  // the limit switch the trial lands on (h = hSwitch)
  double hSwitch = 0;
  while (t_ < tEnd) {
    const double remaining = tEnd - t_;
    const double pieces = std::max(1.0, std::ceil(remaining / ((rejected ? 1.0 : kStretch) * dpStep_)));
    const bool last = switching < 0 && pieces == 1;
    const double h = switching >= 0 ? hSwitch : last ? remaining : remaining / pieces;
    double err = 0;
    dormandPrinceTrial(h, err);
    if (err <= 1 && switching < 0 && settings_.limits) {  // a contact switched on the way: step onto it
      double s = 1;
      const int j = limitSwitch(h, s, contact);
      if (j >= 0 && s * h > settings_.minStep && s < 1 - 1e-9) {
        switching = j;
        hSwitch = s * h;
        continue;
      }
    }
    if (err <= 1 && switching >= 0) {  // on the switch: the plan stands for the next step
      if (!commit(t_ + h, true, switching, contact)) return false;
      ++stats_.subSteps;
      switching = -1;
      rejected = false;
      continue;
    }
    switching = -1;
    if (err <= 1) {
      if (!commit(last ? tEnd : t_ + h, true)) return false;
      ++stats_.subSteps;
      // The error model err ~ h^5 carries the error over to the planned step (h is shorter when
      // the split cut it): the plan grows as if it had been taken, else it would stick below dt.
      const double plan = std::max(h, dpStep_), errPlan = err * std::pow(plan / h, 5);
      const double factor = errPlan == 0
                                ? kMaxFactor
                                : std::clamp(kSafety * std::pow(errPlan, -kAlpha) * std::pow(dpErrPrevious_, kBeta),
                                             kMinFactor, rejected ? 1.0 : kMaxFactor);
      dpErrPrevious_ = std::max(errPlan, 1e-4);
      dpStep_ = std::min(settings_.dt, plan * factor);
      rejected = false;
    } else {
      ++stats_.rejected;
      double order = 5;
      if (rejected && h < rejectedStep && std::isfinite(err) && std::isfinite(rejectedErr))
        order = std::clamp(std::log(rejectedErr / err) / std::log(rejectedStep / h), 1.0, 5.0);
      dpStep_ = std::isfinite(err) ? h * std::clamp(kSafety * std::pow(err, -1 / order), kMinFactor, kSafety) : h * 0.1;
      rejected = true;
      rejectedStep = h;
      rejectedErr = err;
      if (dpStep_ < settings_.minStep) {
        error_ = "the simulation diverged at t = " + readableNumber(t_) + ": the adaptive step fell below " +
                 readableNumber(settings_.minStep) + " s (the motion is too stiff or not finite)";
        return false;
      }
    }
  }
  return true;
}

}  // namespace dyn
