#include "dynscope/simulation/simulator.hpp"

#include <Eigen/Cholesky>
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
#include "dynscope/io/trajectory_csv.hpp"

namespace dyn {
namespace {

std::string number(double x) { return formatCsvNumber(x); }

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
    : model_(model), data_(model_), settings_(settings), controller_(std::move(controller)) {
  validate(settings_);
  validate(controller_, model_);
  if (!model_.immobileBodies.empty())
    throw std::runtime_error(model_.warnings.empty() ? "the model has joints that move no mass: H(q) is singular"
                                                     : model_.warnings.front());
  const int nq = model_.nq, nv = model_.nv;
  for (auto* v : {&q_, &qTrial_, &qNew_}) v->setZero(nq);
  for (auto* v : {&qd_, &qdd_, &tau_, &qdTrial_, &qdNew_, &dq_, &dv_, &tauStage_, &qddStage_, &qddOther_})
    v->setZero(nv);
  scratch_.setZero(nq + 3 * nv);
  force_.setZero(nv);
  for (auto* m : {&massMatrix_, &nextMassMatrix_, &factor_}) m->setZero(nv, nv);
  screwJoints_ = true;
  for (int i = 1; i <= model_.N; ++i)
    if (model_.joints[i].nv != 1 || model_.joints[i].type == JointType::Planar) screwJoints_ = false;
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
  // The inertia each limit spring pushes against when the other joints give way: 1 / (H^-1)_ii.
  if (!limitDofs_.empty()) {
    const Eigen::MatrixXd Hinv =
        Eigen::MatrixXd(crba(model_, data_, model_.neutral())).llt().solve(Eigen::MatrixXd::Identity(nv, nv));
    for (int iv : limitDofs_) limitInertia_.push_back(1.0 / Hinv(iv, iv));
  }
  limitConstants();
  record_.nq = nq;
  record_.nv = nv;
  record_.limitEvents.reserve(64);
  reset();
}

void Simulator::reset() { reset(model_.neutral(), Eigen::VectorXd::Zero(model_.nv)); }

void Simulator::reset(const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0) {
  checkSize("q0", q0.size(), model_.nq);
  checkSize("qd0", qd0.size(), model_.nv);
  if (!q0.allFinite()) throw std::invalid_argument("q0 has a value that is not finite");
  if (!qd0.allFinite()) throw std::invalid_argument("qd0 has a value that is not finite");
  Eigen::VectorXd q = q0;
  normaliseQuaternions(model_, q, "q0");
  q_ = q;
  qd_ = qd0;
  t_ = tBase_ = 0;
  stepCount_ = baseStep_ = 0;
  dpStep_ = settings_.dt;
  stats_ = {};
  status_ = SimulationStatus::Ok;
  error_.clear();
  record_.clear();
  std::fill(inLimit_.begin(), inLimit_.end(), 0);
  fdDifference_ = 0;
  qNew_ = q_;
  qdNew_ = qd_;
  if (!commit(0.0, false)) {  // the initial state itself is unusable (e.g. a NaN torque)
    status_ = SimulationStatus::Diverged;
    evaluate(t_, q_, qd_, tau_, qdd_);
  }
  recordState();
}

// A stiff spring on a light joint has a natural frequency w = sqrt(k / m) that an explicit step
// of h integrates only while w h stays small (symplectic Euler: < 2; RK4: < 2.8), and an explicit
// damper only while c h / m stays small. Capping at w h = 1 and c h / m = 1 keeps every joint
// stable at the chosen step; heavy joints keep the settings' values. Symplectic Euler takes the
// damper implicitly, so only its spring is capped.
void Simulator::limitConstants() {
  limitK_.assign(limitDofs_.size(), settings_.limitStiffness);
  limitC_.assign(limitDofs_.size(), settings_.limitDamping);
  const double h = settings_.dt;
  for (size_t j = 0; j < limitDofs_.size(); ++j) {
    const double m = limitInertia_[j];
    if (!(m > 0) || !std::isfinite(m)) continue;
    limitK_[j] = std::min(limitK_[j], m / (h * h));
    if (settings_.integrator != Integrator::SemiImplicitEuler) limitC_[j] = std::min(limitC_[j], m / h);
  }
}

void Simulator::setSettings(const SimulationSettings& settings) {
  validate(settings);
  settings_ = settings;
  limitConstants();
  tBase_ = t_;
  baseStep_ = stepCount_;
  dpStep_ = std::min(dpStep_ > 0 ? dpStep_ : settings_.dt, settings_.dt);
  evaluate(t_, q_, qd_, tau_, qdd_);  // the right-hand side depends on the passive effects
}

void Simulator::setController(Controller controller) {
  validate(controller, model_);
  controller_ = std::move(controller);
  evaluate(t_, q_, qd_, tau_, qdd_);
}

// ---- The right-hand side: tau(t, q, qd) and qdd = FD(q, qd, tau) ---------------------------------

void Simulator::passiveTorque(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau) const {
  if (settings_.damping) tau -= model_.damping.cwiseProduct(qd);  // viscous: -b qd
  if (settings_.friction)
    for (int i = 0; i < model_.nv; ++i)  // Coulomb, smoothed: -f tanh(qd / eps)
      if (model_.friction[i] != 0) tau[i] -= model_.friction[i] * std::tanh(qd[i] / settings_.frictionVelocity);
  if (!settings_.limits) return;
  for (size_t j = 0; j < limitDofs_.size(); ++j) {  // one-sided spring-dampers that only push back
    const int iq = limitQ_[j], iv = limitDofs_[j];
    const double k = limitK_[j], c = limitC_[j];
    const double x = q[iq], lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq];
    if (x > hi) tau[iv] += std::min(0.0, -k * (x - hi) - c * qd[iv]);
    if (x < lo) tau[iv] += std::max(0.0, k * (lo - x) - c * qd[iv]);
  }
}

const Eigen::VectorXd& Simulator::forwardDynamics(ForwardAlgorithm algorithm, const Eigen::VectorXd& q,
                                                  const Eigen::VectorXd& qd, const Eigen::VectorXd& tau) {
  ++stats_.evaluations;
  return algorithm == ForwardAlgorithm::Crba ? forwardDynamicsCrba(model_, data_, q, qd, tau)
                                             : aba(model_, data_, q, qd, tau);
}

void Simulator::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau,
                         Eigen::VectorXd& qdd) {
  checkSize("q", q.size(), model_.nq);
  checkSize("qd", qd.size(), model_.nv);
  tau.resize(model_.nv);  // no-ops for the workspace vectors
  qdd.resize(model_.nv);
  controlTorque(controller_, model_, data_, t, q, qd, tau, scratch_);
  passiveTorque(q, qd, tau);
  qdd = forwardDynamics(settings_.algorithm, q, qd, tau);
}

// ---- Accepting a new state ------------------------------------------------------------------------

bool Simulator::finiteAndBounded(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                                 double t) {
  const std::string at = "the simulation diverged at t = " + number(t) + ": ";
  if (!q.allFinite() || !qd.allFinite() || !qdd.allFinite() || !tauStage_.allFinite()) {
    error_ = at + "the state or the torques are not finite (NaN or infinite); try a smaller time step";
    return false;
  }
  Eigen::Index i = 0;
  if (model_.nv > 0 && qd.cwiseAbs().maxCoeff(&i) > settings_.velocityBound) {
    error_ = at + "the velocity of joint '" + model_.jointNames[model_.dofBody[i]] + "' is " + number(qd[i]) +
             ", above the bound " + number(settings_.velocityBound) + "; try a smaller time step";
    return false;
  }
  return true;
}

bool Simulator::commit(double tNew, bool evaluated) {
  if (!evaluated) evaluate(tNew, qNew_, qdNew_, tauStage_, qddStage_);
  // The message is only built on failure: the check itself does not allocate.
  const bool ok = qNew_.allFinite() && qdNew_.allFinite() && qddStage_.allFinite() && tauStage_.allFinite() &&
                  (model_.nv == 0 || qdNew_.cwiseAbs().maxCoeff() <= settings_.velocityBound);
  if (!ok) {
    finiteAndBounded(qNew_, qdNew_, qddStage_, tNew);
    return false;
  }
  q_.swap(qNew_);
  qd_.swap(qdNew_);
  qdd_.swap(qddStage_);
  tau_.swap(tauStage_);
  t_ = tNew;
  recorded_ = false;
  massValid_ = false;       // stepEuler re-validates its cached H(q)
  if (settings_.compare) {  // the other algorithm on the same state and torques
    const ForwardAlgorithm other =
        settings_.algorithm == ForwardAlgorithm::Aba ? ForwardAlgorithm::Crba : ForwardAlgorithm::Aba;
    qddOther_ = forwardDynamics(other, q_, qd_, tau_);
    if (model_.nv > 0) fdDifference_ = std::max(fdDifference_, (qddOther_ - qdd_).cwiseAbs().maxCoeff());
  }
  if (settings_.energy) {
    computeEnergy(model_, data_, q_, qd_);
    energy_ = data_.kinetic + data_.potential;
  }
  checkLimits();
  return true;
}

void Simulator::checkLimits() {
  for (size_t j = 0; j < limitDofs_.size(); ++j) {
    const int iq = limitQ_[j];
    const double x = q_[iq], lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq];
    const signed char side = x > hi ? 1 : x < lo ? -1 : 0;
    if (side != 0 && side != inLimit_[j]) {
      record_.limitEvents.push_back(
          {t_, limitDofs_[j], model_.dofBody[limitDofs_[j]], side > 0, x, side > 0 ? hi : lo});
    }
    inLimit_[j] = side;
  }
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
  fdDifference_ = 0;
  recorded_ = true;
}

// ---- Stepping -----------------------------------------------------------------------------------------

SimulationStatus Simulator::step() {
  if (status_ == SimulationStatus::Diverged) return status_;
  bool ok = false;
  // The step's end time counted from the last reset or settings change: no drift from adding dt.
  const double h = tBase_ + double(stepCount_ + 1 - baseStep_) * settings_.dt - t_;
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
  if (!ok) {
    status_ = SimulationStatus::Diverged;
    recordState();  // the last good state ends the record
    return status_;
  }
  ++stats_.steps;
  if (++stepCount_ % settings_.recordEvery == 0) recordState();
  return SimulationStatus::Ok;
}

SimulationStatus Simulator::advance(double duration, const std::atomic<bool>* cancel,
                                    const std::function<void(double)>& progress) {
  if (!std::isfinite(duration) || duration < 0)
    throw std::invalid_argument("advance: duration must be a finite number >= 0, not " + number(duration));
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
    if (!(change > 1e-14 * (1 + qdTrial_.cwiseAbs().maxCoeff()))) break;
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
    evaluate(t_ + c[s] * h, qTrial_, qdTrial_, tauStage_, qddStage_);
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
    evaluate(t_ + kC[s] * h, qTrial_, qdTrial_, tauStage_, qddStage_);
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

bool Simulator::stepDormandPrince(double interval) {
  const double tEnd = t_ + interval;
  while (t_ < tEnd) {
    const bool last = dpStep_ >= tEnd - t_ - 1e-12 * interval;  // reach tEnd exactly
    const double h = last ? tEnd - t_ : dpStep_;
    double err = 0;
    dormandPrinceTrial(h, err);
    // Step-size control: h * 0.9 err^(-1/5), changed by at most x0.2 .. x5.
    const double factor = err == 0 ? 5.0 : std::clamp(0.9 * std::pow(err, -0.2), 0.2, 5.0);
    if (err <= 1) {
      if (!commit(last ? tEnd : t_ + h, true)) return false;
      ++stats_.subSteps;
      dpStep_ = std::min(settings_.dt, last ? std::max(dpStep_, h * factor) : h * factor);
      if (last) break;
    } else {
      ++stats_.rejected;
      dpStep_ = h * (std::isfinite(err) ? factor : 0.1);
      if (dpStep_ < settings_.minStep) {
        error_ = "the simulation diverged at t = " + number(t_) + ": the adaptive step fell below " +
                 number(settings_.minStep) + " s (the motion is too stiff or not finite)";
        return false;
      }
    }
  }
  return true;
}

}  // namespace dyn
