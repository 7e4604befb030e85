#include "dynscope/ik/ik_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/jacobian.hpp"
#include "dynscope/loops/loop_constraints.hpp"

namespace dyn {
namespace {

// Regularisation of the null-space projectors N = 1 - (H + eps)^-1 H: small against the squared
// singular values of real Jacobians, large enough to keep the factorisation regular.
constexpr double kNullSpaceEps = 1e-10;
// Perturbed seeds tried when a solve stops at a local minimum (each a full attempt).
constexpr int kPerturbedSeeds = 6;

bool finitePose(const Transform<double>& X) { return X.E.allFinite() && X.r.allFinite(); }

}  // namespace

IkSolver::IkSolver(const Model& model) : model_(model), data_(model), dataTry_(model) {
  const int nv = model.nv;
  locked_.assign(nv, 0);
  blocked_.assign(nv, 0);
  limitedQ_.assign(nv, -1);
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<double>& J = model.joints[i];
    if (J.nq != J.nv) continue;  // quaternion joints have no position limits
    for (int k = 0; k < J.nv; ++k) {
      const int iq = J.idx_q + k;
      if (std::isfinite(model.lowerLimit[iq]) || std::isfinite(model.upperLimit[iq])) limitedQ_[J.idx_v + k] = iq;
    }
  }
  J_ = Mat6X<double>::Zero(6, nv);
  for (MatX<double>* m : {&H_, &H1_, &A_, &N_, &M_, &P_}) *m = MatX<double>::Zero(nv, nv);
  for (VecX<double>* v : {&g_, &g1_, &dq_, &dq1_, &z_, &fixed_, &tmp_, &limitMove_}) *v = VecX<double>::Zero(nv);
  qTry_ = posture_ = qStart_ = qBest_ = model.neutral();
  history_.reserve(options.maxIterations + 1);
  llt_ = Eigen::LLT<MatX<double>>(nv);
  result_.q = model.neutral();
  result_.limitedDofs.reserve(nv);
  result_.costHistory.reserve(options.maxIterations + 1);
  if (!model.mimics.empty() && !model.hasLoops()) {
    coupling_ = mimicCoupling(model);
    mimic_ = coupling_.active();
    masterDof_.assign(size_t(nv), -1);
    gain_.assign(size_t(nv), 1.0);
    for (int v = 0; v < nv; ++v) {
      const int m = coupling_.independentDofs[size_t(coupling_.column[size_t(v)])];
      if (m != v) {
        masterDof_[size_t(v)] = m;
        gain_[size_t(v)] = coupling_.multiplier[size_t(v)];
        limitedQ_[size_t(v)] = -1;  // a follower's own limits are not enforced: its master's are
      }
    }
    y_ = VecX<double>::Zero(coupling_.nqy);
  }
  if (model.hasLoops()) {
    loops_ = true;
    const int m = model.constraintRows;
    ld_ = LoopData(model);
    Ct_ = MatX<double>::Zero(nv, m + nv);
    T_ = MatX<double>::Zero(nv, nv);
    cqr_ = PivotedQR<double>(nv, m + nv);
    d_ = VecX<double>::Zero(m + nv);
    assembler_ = std::make_unique<Assembler>(model);
    assembly_.held.reserve(size_t(nv));
    assembly_.tolerance = 1e-12;
    assembly_.maxIterations = 50;
  }
}

void IkSolver::checkFrame(int frame, const char* what) const {
  if (frame < 0 || frame >= int(model_.frames.size()))
    throw std::invalid_argument(std::string(what) + ": frame index " + std::to_string(frame) + " is not a frame of " +
                                model_.name + " (it has " + std::to_string(model_.frames.size()) + ")");
}

void IkSolver::setTarget(const IkTask& task) {
  checkFrame(task.frame, "IK target");
  if (!finitePose(task.target)) throw std::invalid_argument("IK target: the pose is not finite");
  if (!(task.weight > 0) || !std::isfinite(task.weight))
    throw std::invalid_argument("IK target: the weight must be positive and finite");
  target_ = task;
  haveTarget_ = true;
}

void IkSolver::addPin(const IkTask& pin) {
  const std::string name = "IK pin on '" +
                           (pin.frame >= 0 && pin.frame < int(model_.frames.size()) ? model_.frames[pin.frame].name
                                                                                    : std::to_string(pin.frame)) +
                           "'";
  checkFrame(pin.frame, name.c_str());
  if (!finitePose(pin.target)) throw std::invalid_argument(name + ": the pose is not finite");
  if (!(pin.weight > 0) || !std::isfinite(pin.weight))
    throw std::invalid_argument(name + ": the weight must be positive and finite");
  pins_.push_back(pin);
  pinErrors_.resize(pins_.size());
  pinErrorsTry_.resize(pins_.size());
}

Transform<double> IkSolver::framePose(int frame, const VecX<double>& q) {
  checkFrame(frame, "framePose");
  forwardKinematics(model_, dataTry_, q);
  return model_.frames[frame].placement * dataTry_.X0[model_.frames[frame].body];
}

void IkSolver::pinAt(int frame, const VecX<double>& q) {
  checkFrame(frame, "IK pin");
  IkTask pin;
  pin.frame = frame;
  pin.target = framePose(frame, q);
  addPin(pin);
}

void IkSolver::clearPins() {
  pins_.clear();
  pinErrors_.clear();
  pinErrorsTry_.clear();
}

void IkSolver::lockDof(int v, bool locked) {
  if (v < 0 || v >= model_.nv)
    throw std::invalid_argument("IK lock: dof " + std::to_string(v) + " is not in 0.." + std::to_string(model_.nv - 1));
  locked_[v] = locked;
}

void IkSolver::lockJoint(int joint, bool locked) {
  if (joint < 1 || joint > model_.N)
    throw std::invalid_argument("IK lock: joint index " + std::to_string(joint) + " is not in 1.." +
                                std::to_string(model_.N));
  const JointModel<double>& J = model_.joints[joint];
  for (int k = 0; k < J.nv; ++k) locked_[J.idx_v + k] = locked;
}

void IkSolver::unlockAll() { std::fill(locked_.begin(), locked_.end(), 0); }

// Pose error of one task, in world axes: e = [log(R_d R^T); p_d - p]. Featherstone's eq. 15,
// XtoV(d_X_b), is its first-order form; the logarithm stays exact for large rotations.
IkSolver::TaskError IkSolver::taskError(const Model& model, const Data& data, const IkTask& t) {
  const Frame<double>& F = model.frames[t.frame];
  const Transform<double> X = F.placement * data.X0[F.body];  // frame_X_0
  TaskError err;
  err.e.tail<3>() = t.target.translation() - X.translation();
  err.position = err.e.tail<3>().norm();
  if (!t.positionOnly) {
    err.e.head<3>() = logSO3<double>(t.target.rotation() * X.E);  // R_d R^T, as X.E = R^T
    err.rotation = err.e.head<3>().norm();
  }
  return err;
}

double IkSolver::evaluate(const VecX<double>& q, Data& data, TaskError& targetError,
                          std::vector<TaskError>& pinErrors) {
  forwardKinematics(model_, data, q);  // eq. 14
  targetError = taskError(model_, data, target_);
  double cost = target_.weight * targetError.e.squaredNorm();
  // Strict pins count 1e4 times in the cost the steps are tested on: a step that trades pin error
  // for target error is rejected.
  const double pinScale = options.pinMode == IkPinMode::Strict ? 1e4 : 1.0;
  for (size_t k = 0; k < pins_.size(); ++k) {
    pinErrors[k] = taskError(model_, data, pins_[k]);
    cost += pinScale * pins_[k].weight * pinErrors[k].e.squaredNorm();
  }
  return 0.5 * cost;
}

bool IkSolver::withinTolerance() const {
  const double tol = options.tolerance;
  if (targetError_.position > tol || targetError_.rotation > tol) return false;
  for (const TaskError& e : pinErrors_)
    if (e.position > tol || e.rotation > tol) return false;
  return true;
}

// H += w J^T J and g += w J^T e' for one task, with J the world-aligned frame Jacobian
// (Part 2, eqs. 17-25) without the locked and limit-stopped columns, and e' = e - J fixed the
// error left after the limit-stopped dofs make their fixed moves.
void IkSolver::addNormalEquations(const IkTask& t, const TaskError& err, MatX<double>& H, VecX<double>& g) {
  frameJacobian(model_, data_, t.frame, ReferenceFrame::LocalWorldAligned, J_);
  Vec6<double> e = err.e;
  e.noalias() -= J_ * fixed_;  // (mimic: fixed_ is in G's range, spread to the followers)
  if (mimic_) foldFollowerColumns();
  for (int v = 0; v < model_.nv; ++v)
    if (locked_[v] || blocked_[v]) J_.col(v).setZero();
  const int row = t.positionOnly ? 3 : 0, rows = 6 - row;
  H.noalias() += t.weight * (J_.bottomRows(rows).transpose() * J_.bottomRows(rows));
  g.noalias() += t.weight * (J_.bottomRows(rows).transpose() * e.tail(rows));
}

// The normal equations of the levels: EqualPriority: everything in (H_, g_); Strict: pins in
// (H1_, g1_), the target in (H_, g_).
void IkSolver::buildSystem() {
  H_.setZero();
  g_.setZero();
  H1_.setZero();
  g1_.setZero();
  addNormalEquations(target_, targetError_, H_, g_);
  const bool strict = options.pinMode == IkPinMode::Strict;
  for (size_t k = 0; k < pins_.size(); ++k)
    addNormalEquations(pins_[k], pinErrors_[k], strict ? H1_ : H_, strict ? g1_ : g_);
}

// x = (H + lambda 1)^-1 b: the damped least-squares (Levenberg-Marquardt) step.
void IkSolver::dampedSolve(const MatX<double>& H, double lambda, const VecX<double>& b, VecX<double>& x) {
  A_ = H;
  A_.diagonal().array() += lambda;
  llt_.compute(A_);
  x = b;
  llt_.solveInPlace(x);
}

// z <- (1 - (H + eps)^-1 H) z: removes what z would change in the tasks of H.
void IkSolver::projectToNullSpace(const MatX<double>& H, VecX<double>& z) {
  tmp_.noalias() = H * z;
  A_ = H;
  A_.diagonal().array() += kNullSpaceEps;
  llt_.compute(A_);
  llt_.solveInPlace(tmp_);
  z -= tmp_;
}

// One limit-aware step dq_ at q: solve, and while the step carries a limited dof past a limit,
// stop that dof at the limit (its move becomes fixed, its column leaves J) and solve again.
void IkSolver::computeStep(const VecX<double>& q, double lambda, bool posture) {
  const int nv = model_.nv;
  std::fill(blocked_.begin(), blocked_.end(), 0);
  fixed_.setZero();
  const bool strict = options.pinMode == IkPinMode::Strict && !pins_.empty();
  if (loops_) {
    detail::loopPositionTerms(model_, data_, ld_);  // phi, phi' at q (data_ holds its kinematics)
    limitMove_.setZero();
  }
  for (int pass = 0; pass <= nv; ++pass) {
    if (loops_) constrainStep();            // fixed_ = dq_p, T_
    if (mimic_) spreadToFollowers(fixed_);  // a stopped master carries its followers
    buildSystem();
    if (loops_) projectSystem();
    if (!strict) {
      dampedSolve(H_, lambda, g_, dq_);  // (J^T W J + lambda 1) dq = J^T W e
    } else {
      // Level 1, the pins: dq1 = J1^+ e1 (damped); N1 = 1 - J1^+ J1.
      dampedSolve(H1_, std::min(lambda, 1e-6), g1_, dq1_);  // pins stay lightly damped: they come first
      A_ = H1_;
      A_.diagonal().array() += kNullSpaceEps;
      llt_.compute(A_);
      N_ = H1_;
      llt_.solveInPlace(N_);
      N_ = -N_;
      N_.diagonal().array() += 1.0;
      // Level 2, the target in the null space of level 1: dq = dq1 + N1 (J2 N1)^+ (e2 - J2 dq1).
      g_.noalias() -= H_ * dq1_;
      tmp_.noalias() = N_ * g_;
      M_.noalias() = H_ * N_;
      P_.noalias() = N_ * M_;  // N1 H2 N1 = (J2 N1)^T (J2 N1)
      dampedSolve(P_, lambda, tmp_, z_);
      dq_ = dq1_;
      if (!pinsOnly_) dq_.noalias() += N_ * z_;
    }
    if (posture && options.postureWeight > 0) {
      // Posture pull in the null space of all tasks: z = k (q_posture - q), projected.
      difference(model_, q, posture_, z_);
      z_ *= options.postureWeight;
      for (int v = 0; v < nv; ++v)
        if (locked_[v] || blocked_[v] || (options.posture == IkPosture::MidRange && limitedQ_[v] < 0)) z_[v] = 0;
      if (loops_) {  // only motions the mechanism can make
        tmp_.noalias() = T_ * z_;
        z_ = tmp_;
      }
      if (strict) H_ += H1_;
      projectToNullSpace(H_, z_);
      dq_ += z_;
    }
    dq_ += fixed_;
    bool newlyBlocked = false;
    for (int v = 0; v < nv; ++v) {
      const int iq = limitedQ_[v];
      if (iq < 0 || locked_[v] || blocked_[v]) continue;
      const double qn = q[iq] + dq_[v], lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq];
      if (qn < lo || qn > hi) {
        blocked_[v] = 1;
        fixed_[v] = limitMove_[v] = (qn < lo ? lo : hi) - q[iq];  // (closed loops: a row of C dq = d)
        newlyBlocked = true;
      }
    }
    if (!newlyBlocked) break;
  }
  for (int v = 0; v < nv; ++v)
    if (locked_[v]) dq_[v] = 0;        // exactly: damping keeps them at 0 up to rounding
  if (mimic_) spreadToFollowers(dq_);  // dq = G dy
  // Step limit: scale the whole step (its direction is kept, and it stays within the limits).
  double largest = 0;
  for (int v = 0; v < nv; ++v) largest = std::max(largest, std::abs(dq_[v]));
  if (largest > options.maxStep) dq_ *= options.maxStep / largest;
}

void IkSolver::clampToLimits(VecX<double>& q) const {
  for (int v = 0; v < model_.nv; ++v)
    if (const int iq = limitedQ_[v]; iq >= 0) q[iq] = std::clamp(q[iq], model_.lowerLimit[iq], model_.upperLimit[iq]);
}

// Draws a restart configuration: limited dofs uniform in their range, unlimited ones in
// [-pi, pi], spherical joints a uniform random rotation; a floating base keeps q0's pose.
void IkSolver::randomRestart(const VecX<double>& q0, VecX<double>& q) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::normal_distribution<double> G(0.0, 1.0);
  q = q0;
  for (int i = 1; i <= model_.N; ++i) {
    const JointModel<double>& J = model_.joints[i];
    if (J.type == JointType::Floating) continue;
    if (J.type == JointType::Spherical) {
      Eigen::Vector4d quat(G(rng_), G(rng_), G(rng_), G(rng_));
      q.segment<4>(J.idx_q) = quat / std::max(quat.norm(), 1e-12);
      continue;
    }
    for (int k = 0; k < J.nv; ++k) {
      const int iq = J.idx_q + k;
      if (locked_[J.idx_v + k]) continue;
      const double lo = std::isfinite(model_.lowerLimit[iq]) ? model_.lowerLimit[iq] : -M_PI;
      const double hi = std::isfinite(model_.upperLimit[iq]) ? model_.upperLimit[iq] : M_PI;
      q[iq] = lo + 0.5 * (hi - lo) * (U(rng_) + 1.0);
    }
  }
  clampToLimits(q);
  if (mimic_) enforceMimic(q);
  if (loops_) {
    std::fill(blocked_.begin(), blocked_.end(), 0);
    if (!closeLoops(q, false, 8)) q = q0;
  }
}

bool IkSolver::trialStep(const VecX<double>& q) {
  integrate(model_, q, dq_, 1.0, qTry_);
  clampToLimits(qTry_);  // rounding only: the step ends at the limits
  if (mimic_) enforceMimic(qTry_);
  if (!loops_) return true;
  if (!closeLoops(qTry_, false, 0)) return false;
  // The assembly's correction is second order in the step, yet it must not cross a limit.
  for (int v = 0; v < model_.nv; ++v)
    if (const int iq = limitedQ_[v];
        iq >= 0 && (qTry_[iq] < model_.lowerLimit[iq] - 1e-12 || qTry_[iq] > model_.upperLimit[iq] + 1e-12))
      return false;
  clampToLimits(qTry_);
  return true;
}

// One Levenberg-Marquardt run from q (updated in place). Returns false when it stopped at a local
// minimum (or, with stopWhenSlow, when the cost fell by less than 1 % over 10 iterations).
bool IkSolver::runAttempt(VecX<double>& q, int maxIterations, bool stopWhenSlow, int& iterations) {
  history_.clear();
  double cost = evaluate(q, data_, targetError_, pinErrors_);
  history_.push_back(cost);
  double lambda = std::clamp(options.initialDamping, options.minDamping, options.maxDamping);
  for (int it = 0; it < maxIterations && !withinTolerance(); ++it) {
    bool accepted = false, posture = options.postureWeight > 0;
    while (!accepted) {
      computeStep(q, lambda, posture);
      const double costTry = trialStep(q) ? evaluate(qTry_, dataTry_, targetErrorTry_, pinErrorsTry_)
                                          : std::numeric_limits<double>::infinity();  // the loops do not close there
      if (costTry < cost - 1e-15 * cost) {  // a real decrease (not a rounding-level one)
        accepted = true;
        q.swap(qTry_);
        std::swap(data_, dataTry_);
        std::swap(targetError_, targetErrorTry_);
        pinErrors_.swap(pinErrorsTry_);
        cost = costTry;
        lambda = std::max(lambda * 0.1, options.minDamping);
      } else if (posture) {
        posture = false;  // the posture pull may be what hurts: retry with the tasks alone
      } else if (lambda >= options.maxDamping) {
        break;  // no descent even along the (scaled) gradient: a local minimum
      } else {
        lambda = std::min(lambda * 10.0, options.maxDamping);
      }
    }
    if (!accepted) return false;
    ++iterations;
    history_.push_back(cost);
    const size_t n = history_.size();
    if (stopWhenSlow && n > 10 && history_[n - 11] - cost < 1e-2 * history_[n - 11] && !withinTolerance()) return false;
  }
  return true;
}

// Strict pins after the target stopped short: the target's steps leave second-order drift in the
// pins; a few Gauss-Newton steps of the pins alone (level 1) remove it.
void IkSolver::settlePins(VecX<double>& q) {
  if (options.pinMode != IkPinMode::Strict || pins_.empty()) return;
  const auto pinCost = [&](const std::vector<TaskError>& errors) {
    double c = 0;
    for (const TaskError& e : errors) c += e.e.squaredNorm();
    return c;
  };
  evaluate(q, data_, targetError_, pinErrors_);
  pinsOnly_ = true;
  for (int it = 0; it < 10 && pinCost(pinErrors_) > 0; ++it) {
    computeStep(q, options.minDamping, false);
    if (!trialStep(q)) break;
    evaluate(qTry_, dataTry_, targetErrorTry_, pinErrorsTry_);
    if (!(pinCost(pinErrorsTry_) < pinCost(pinErrors_))) break;
    q.swap(qTry_);
    std::swap(data_, dataTry_);
    std::swap(targetError_, targetErrorTry_);
    pinErrors_.swap(pinErrorsTry_);
  }
  pinsOnly_ = false;
}

const IkResult& IkSolver::solve(const VecX<double>& q0) {
  checkSize("q0", q0.size(), model_.nq);
  if (!q0.allFinite()) throw std::invalid_argument("q0 has a non-finite entry");
  if (!haveTarget_) throw std::invalid_argument("IK solve: no target set (setTarget)");
  const int nv = model_.nv;
  VecX<double>& q = result_.q;
  q = q0;
  for (int i = 1; i <= model_.N; ++i) {  // unit quaternions
    const JointModel<double>& J = model_.joints[i];
    if (J.type != JointType::Spherical && J.type != JointType::Floating) continue;
    auto quat = q.segment<4>(J.idx_q + (J.type == JointType::Floating ? 3 : 0));
    const double n = quat.norm();
    if (!(n > 0))
      throw std::invalid_argument("q0: the quaternion of joint '" + model_.jointNames[i] +
                                  "' is zero (identity is 0,0,0,1)");
    quat /= n;
  }
  clampToLimits(q);
  if (mimic_) enforceMimic(q);  // the followers where their masters put them
  if (loops_) {                 // a closed start: the independent (and locked) dofs as given, else the nearest one
    std::fill(blocked_.begin(), blocked_.end(), 0);
    if (!closeLoops(q, true, 8) && !closeLoops(q, false, 8))
      throw std::invalid_argument("IK: the start configuration cannot be assembled: " + assembler_->result().message);
  }
  posture_ = q;
  if (options.posture == IkPosture::MidRange)
    for (int v = 0; v < nv; ++v)
      if (const int iq = limitedQ_[v];
          iq >= 0 && std::isfinite(model_.lowerLimit[iq]) && std::isfinite(model_.upperLimit[iq]))
        posture_[iq] = 0.5 * (model_.lowerLimit[iq] + model_.upperLimit[iq]);
  if (int(history_.capacity()) < options.maxIterations + 1) {  // only when maxIterations grew
    history_.reserve(options.maxIterations + 1);
    result_.costHistory.reserve(options.maxIterations + 1);
  }
  rng_.seed(options.seed);
  qStart_ = q;

  // Attempt 0 from q0; then restarts from random configurations while it fails. The best
  // attempt (lowest cost) is kept in result_.q / costHistory.
  int iterations = 0;
  double bestCost = std::numeric_limits<double>::infinity();
  bool bestProgressing = false;
  VecX<double>& qa = qBest_;
  for (int attempt = 0; attempt <= options.restarts; ++attempt) {
    if (attempt == 0)
      qa = qStart_;
    else
      randomRestart(qStart_, qa);
    const bool more = attempt < options.restarts;
    const bool progressing = runAttempt(qa, options.maxIterations, more, iterations);
    const double cost = history_.back();
    if (cost < bestCost) {
      bestCost = cost;
      bestProgressing = progressing;
      q = qa;
      result_.costHistory.swap(history_);
      result_.restartsUsed = attempt;
    }
    if (withinTolerance()) break;
  }
  // Stuck at a local minimum (typically a dof resting at a limit in a singular pose: the Panda
  // stretched upright with joint 4 on its limit, whose Jacobian has no direction toward the target):
  // try again from nearby perturbed seeds, the dofs at a limit moved into their range. Small moves,
  // so that a drag does not jump (the caller bounds each move anyway); kept only when clearly better.
  if (!withinTolerance() && !bestProgressing) {
    VecX<double>& qp = qBest_;  // the attempts' scratch (q holds the best so far)
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    for (int k = 0; k < kPerturbedSeeds && !withinTolerance(); ++k) {
      const double size = 0.05 * (k + 1);  // 0.05 .. 0.3 rad (or m): nearest first
      qp = q;
      for (int v = 0; v < nv; ++v) {
        if (locked_[v]) continue;
        const int iq = limitedQ_[v];
        if (iq < 0) continue;  // unlimited dofs keep their value: they are not what stops the solver
        const double lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq];
        if (qp[iq] <= lo + 1e-10)
          qp[iq] = lo + size * (1.5 + 0.5 * U(rng_));  // off the limit, into the range
        else if (qp[iq] >= hi - 1e-10)
          qp[iq] = hi - size * (1.5 + 0.5 * U(rng_));
        else
          qp[iq] += 0.5 * size * U(rng_);
      }
      clampToLimits(qp);
      if (mimic_) enforceMimic(qp);
      if (loops_) {
        std::fill(blocked_.begin(), blocked_.end(), 0);
        if (!closeLoops(qp, false, 0)) continue;
      }
      const bool progressing = runAttempt(qp, options.maxIterations, false, iterations);
      const double cost = history_.back();
      if (cost < 0.5 * bestCost) {
        bestCost = cost;
        bestProgressing = progressing;
        q = qp;
        result_.costHistory.swap(history_);
      }
      evaluate(q, data_, targetError_, pinErrors_);  // withinTolerance() of the best
    }
  }
  if (!withinTolerance()) settlePins(q);
  // The errors of the best configuration.
  const double cost = evaluate(q, data_, targetError_, pinErrors_);
  const bool stalled = !bestProgressing;
  const int it = iterations;

  result_.iterations = it;
  result_.cost = cost;
  result_.converged = withinTolerance();
  result_.positionError = targetError_.position;
  result_.rotationError = targetError_.rotation;
  result_.pinError = 0;
  for (const TaskError& e : pinErrors_) result_.pinError = std::max({result_.pinError, e.position, e.rotation});
  // Still progressing (over the last 10 iterations the cost fell by more than 1 %)?
  const auto& h = result_.costHistory;
  const bool progressing = !stalled && h.size() > 10 && h[h.size() - 11] - cost > 1e-2 * h[h.size() - 11];
  result_.reachable = result_.converged || progressing;
  result_.constraintError = 0;
  if (loops_) {
    assembler_->evaluate(q);
    result_.constraintError = maxAbs(assembler_->loopData().phi);
  }
  result_.limitedDofs.clear();
  for (int v = 0; v < nv; ++v)
    if (const int iq = limitedQ_[v];
        iq >= 0 && (q[iq] <= model_.lowerLimit[iq] + 1e-10 || q[iq] >= model_.upperLimit[iq] - 1e-10))
      result_.limitedDofs.push_back(v);
  return result_;
}

}  // namespace dyn
