#include "dynscope/loops/assembly.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/loops/loop_constraints.hpp"

namespace dyn {
namespace {

std::string fixed(double x, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

}  // namespace

int worstLoop(const Model& model, const Eigen::VectorXd& phi) {
  int worst = -1;
  double largest = -1;
  for (int k = 0; k < int(model.loops.size()); ++k) {
    const LoopJoint<double>& J = model.loops[size_t(k)];
    const double e = phi.segment(J.row, J.rows()).cwiseAbs().maxCoeff();
    if (e > largest) {
      largest = e;
      worst = k;
    }
  }
  return worst;
}

std::string describeLoopError(const Model& model, const Eigen::VectorXd& phi, int k) {
  const LoopJoint<double>& J = model.loops[size_t(k)];
  double gap = 0, tilt = 0;
  for (int r = 0; r < J.rows(); ++r) {
    const double e = phi[J.row + r];
    (loopJointComponent(J.type, r) < 3 ? tilt : gap) += e * e;
  }
  gap = std::sqrt(gap);
  tilt = std::sqrt(tilt) * 180 / M_PI;
  std::string s = "a gap of " + (gap < 1e-2 ? fixed(gap * 1e3, 3) + " mm" : fixed(gap, 4) + " m");
  if (J.type != LoopJointType::Spherical && tilt > 1e-4) s += " and a misalignment of " + fixed(tilt, 3) + " deg";
  return s;
}

Assembler::Assembler(const Model& model) : model_(model), data_(model), ld_(model) {
  held_.assign(size_t(model.nv), 0);
  q_ = qTry_ = model.neutral();
  dq_ = grad_ = step_ = Eigen::VectorXd::Zero(model.nv);
  qBest_ = q_;
  phi_ = Eigen::VectorXd::Zero(model.constraintRows);
  Jfree_ = Eigen::MatrixXd::Zero(model.constraintRows, model.nv);
  result_.q = q_;
}

void Assembler::evaluate(const Eigen::VectorXd& q) { loopConstraints(model_, data_, ld_, q); }

double Assembler::merit(const Eigen::VectorXd& q) {
  loopConstraints(model_, data_, ld_, q);  // phi, phi' (eq. 16)
  return maxAbs(ld_.phi);
}

const AssemblyResult& Assembler::solve(const Eigen::VectorXd& q0, const AssemblyOptions& options) {
  checkSize("q0", q0.size(), model_.nq);
  if (!q0.allFinite()) throw std::invalid_argument("assembly: q0 has a value that is not finite");
  std::fill(held_.begin(), held_.end(), 0);
  for (int v : options.held) {
    if (v < 0 || v >= model_.nv)
      throw std::invalid_argument("assembly: held dof " + std::to_string(v) + " is not in 0.." +
                                  std::to_string(model_.nv - 1));
    held_[size_t(v)] = 1;
  }
  step_.setZero();
  integrate(model_, q0, step_, 0.0, q_);  // normalises the quaternions
  result_.iterations = 0;
  result_.restarts = 0;
  result_.message.clear();
  double best = attempt(options);
  qBest_ = q_;
  std::mt19937 rng(1);
  for (int k = 0; k < options.restarts && best > options.tolerance; ++k) {
    ++result_.restarts;
    perturb(q0, rng);
    const double e = attempt(options);
    if (e < best) {
      best = e;
      qBest_ = q_;
    }
  }
  result_.q = qBest_;
  result_.residual = merit(qBest_);  // phi (and phi') at the result stay in ld_
  result_.converged = result_.residual <= options.tolerance;
  result_.worstLoop = worstLoop(model_, ld_.phi);
  if (!result_.converged) describeFailure();
  return result_;
}

// q0 with every free 1-dof coordinate moved at random: revolute ones anywhere on the circle,
// prismatic ones within their limits (else by up to 0.2 m); quaternion joints turned by up to 0.5 rad.
void Assembler::perturb(const Eigen::VectorXd& q0, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  step_.setZero();
  for (int i = 1; i <= model_.N; ++i) {
    const JointModel<double>& J = model_.joints[size_t(i)];
    for (int k = 0; k < J.nv; ++k) {
      const int v = J.idx_v + k;
      if (held_[size_t(v)]) continue;
      if (J.nq != J.nv) {
        step_[v] = 0.5 * U(rng);
      } else if (J.type == JointType::Revolute) {
        step_[v] = M_PI * U(rng);
      } else {
        const int iq = J.idx_q + k;
        const double lo = model_.lowerLimit[iq], hi = model_.upperLimit[iq];
        step_[v] = std::isfinite(lo) && std::isfinite(hi) ? lo + (hi - lo) * 0.5 * (U(rng) + 1) - q0[iq] : 0.2 * U(rng);
      }
    }
  }
  integrate(model_, q0, step_, 1.0, q_);
}

double Assembler::attempt(const AssemblyOptions& options) {
  double err = merit(q_), previous = std::numeric_limits<double>::infinity();
  // Tries q (+) (-t d) for t = t0, t0/2, ... down to tMin t0; keeps the first that lowers max |phi|
  // (ld_ then holds phi and phi' there).
  auto lineSearch = [&](const Eigen::VectorXd& d, double t0, double tMin) {
    for (double t = t0; t > tMin * t0; t *= 0.5) {
      step_ = -t * d;
      integrate(model_, q_, step_, 1.0, qTry_);
      const double e = merit(qTry_);
      if (e < err) {
        q_.swap(qTry_);
        err = e;
        return true;
      }
    }
    return false;
  };
  for (int it = 0; it < options.maxIterations && err > options.tolerance; ++it) {
    ++result_.iterations;
    phi_ = ld_.phi;
    for (int v = 0; v < model_.nv; ++v)  // held coordinates do not move: their columns leave phi'
      if (held_[size_t(v)]) ld_.Jc.col(v).setZero();
    Jfree_ = ld_.Jc;
    grad_.noalias() = Jfree_.transpose() * phi_;  // gradient of 1/2 |phi|^2
    selectLoopRows(ld_, 1e-10);                   // column-pivoted QR of phi'_free^T: the numerical rank
    ld_.qr.solveTransposedMinNorm(phi_, dq_);     // Newton: phi'_free dq = phi, minimum norm
    bool moved = lineSearch(dq_, 1.0, 1e-4);
    if (!moved && grad_.squaredNorm() > 0) {  // steepest descent from the Cauchy step length
      phi_.noalias() = Jfree_ * grad_;
      const double jg2 = phi_.squaredNorm();
      moved = lineSearch(grad_, jg2 > 0 ? grad_.squaredNorm() / jg2 : 1.0, 1e-12);
    }
    if (!moved) break;  // no direction lowers |phi|: a minimum (or saddle) above the tolerance
    if (it >= 10 && err > 0.999 * previous && err > 1e3 * options.tolerance) break;  // stalled there
    previous = err;
  }
  return err;
}

void Assembler::describeFailure() {
  const int k = result_.worstLoop;
  if (k < 0) return;
  std::string held;
  for (int v = 0; v < model_.nv; ++v)
    if (held_[size_t(v)])
      held += (held.empty() ? "" : ", ") + std::string("'") + model_.jointNames[model_.dofBody[v]] + "'";
  result_.message = "loop joint '" + model_.loops[size_t(k)].name + "' cannot close" +
                    (held.empty() ? std::string() : " with " + held + " held") + ": the closest configuration leaves " +
                    describeLoopError(model_, ld_.phi, k) + " there";
}

AssemblyResult assemble(const Model& model, const Eigen::VectorXd& q0, const AssemblyOptions& options) {
  Assembler a(model);
  return a.solve(q0, options);
}

}  // namespace dyn
