#include "dynscope/trajectory/waypoint_trajectory.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/model/names.hpp"
#include "dynscope/trajectory/cubic_spline.hpp"
#include "dynscope/trajectory/sampled_trajectory.hpp"
#include "dynscope/trajectory/time_scaling.hpp"
#include "taylor_jet.hpp"

namespace dyn {
namespace {

using detail::Jet;
using Vec6d = Eigen::Matrix<double, 6, 1>;
using Mat6d = Eigen::Matrix<double, 6, 6>;

std::string preciseNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

bool isCurved(JointType type) { return type == JointType::Spherical || type == JointType::Floating; }

// The joints of a model without its inertias, frames and geometry: enough for integrate/difference.
Model jointSkeleton(const Model& model) {
  Model s;
  s.name = model.name;
  s.N = model.N;
  s.nq = model.nq;
  s.nv = model.nv;
  s.parent = model.parent;
  s.joints = model.joints;
  s.jointNames = model.jointNames;
  s.bodyNames = model.bodyNames;
  return s;
}

Mat3<double> valuePart(const Mat3<Jet>& m) {
  return m.unaryExpr([](const Jet& x) { return x.v; });
}
Mat3<double> firstPart(const Mat3<Jet>& m) {
  return m.unaryExpr([](const Jet& x) { return x.d; });
}
Mat3<double> secondPart(const Mat3<Jet>& m) {
  return m.unaryExpr([](const Jet& x) { return x.dd; });
}
// The axial vector of the skew-symmetric part of A.
Vec3<double> vee(const Mat3<double>& A) {
  return 0.5 * Vec3<double>(A(2, 1) - A(1, 2), A(0, 2) - A(2, 0), A(1, 0) - A(0, 1));
}

// Body velocity nu and its derivative nu' of the curve q_k (+) w(t) through a spherical or floating
// joint's chart, given w, w', w'' (3 or 6 entries). With R = R_k exp(phi) and, for the floating
// joint, p = p_k + R_k J_l(phi) rho (configuration.hpp's integrate):
//   omega = vee(R^T R'),  omega' = vee(R'^T R' + R^T R''),  v = R^T p',  v' = R'^T p' + R^T p''
// (R_k drops out). The derivatives are exact: phi and rho are carried as Taylor jets.
void bodyRates(JointType type, const double* w, const double* wd, const double* wdd, double* nu, double* nud) {
  Vec3<Jet> phi;
  for (int i = 0; i < 3; ++i) phi[i] = Jet(w[i], wd[i], wdd[i]);
  const Mat3<Jet> E = expSO3<Jet>(phi);
  const Mat3<double> Ev = valuePart(E), Ed = firstPart(E), Edd = secondPart(E);
  const Vec3<double> omega = vee(Ev.transpose() * Ed);
  const Vec3<double> omegaDot = vee(Ed.transpose() * Ed + Ev.transpose() * Edd);
  for (int i = 0; i < 3; ++i) {
    nu[i] = omega[i];
    nud[i] = omegaDot[i];
  }
  if (type != JointType::Floating) return;
  Vec3<Jet> rho;
  for (int i = 0; i < 3; ++i) rho[i] = Jet(w[3 + i], wd[3 + i], wdd[3 + i]);
  const Vec3<Jet> r = leftJacobianSO3<Jet>(phi) * rho;
  const Vec3<double> rd(r[0].d, r[1].d, r[2].d), rdd(r[0].dd, r[1].dd, r[2].dd);
  const Vec3<double> v = Ev.transpose() * rd, vDot = Ed.transpose() * rd + Ev.transpose() * rdd;
  for (int i = 0; i < 3; ++i) {
    nu[3 + i] = v[i];
    nud[3 + i] = vDot[i];
  }
}

// The inverse at a chart point w: the chart rates w', w'' giving body velocity nu and acceleration
// nud. nu = J(w) w' is linear in w' and nu' = J(w) w'' + b(w, w'), so one column of J per unit w'
// and the bias b from w'' = 0.
void chartRates(JointType type, int n, const double* w, const double* nu, const double* nud, double* wd, double* wdd) {
  Mat6d J = Mat6d::Identity();
  Vec6d unit, zero = Vec6d::Zero(), col, dummy;
  for (int i = 0; i < n; ++i) {
    unit.setZero();
    unit[i] = 1;
    bodyRates(type, w, unit.data(), zero.data(), col.data(), dummy.data());
    J.col(i).head(n) = col.head(n);
  }
  const Eigen::PartialPivLU<Mat6d> lu(J);
  Vec6d target = Vec6d::Zero();
  for (int i = 0; i < n; ++i) target[i] = nu[i];
  const Vec6d velocity = lu.solve(target);
  Vec6d bias;
  bodyRates(type, w, velocity.data(), zero.data(), dummy.data(), bias.data());
  for (int i = 0; i < n; ++i) target[i] = nud[i] - bias[i];
  const Vec6d acceleration = lu.solve(target);
  for (int i = 0; i < n; ++i) {
    wd[i] = velocity[i];
    wdd[i] = acceleration[i];
  }
}

// Coefficients c_0..c_5 of the quintic in x in [0, 1] with value, first and second x-derivative
// p0, v0, a0 at x = 0 and p1, v1, a1 at x = 1 (the quintic Hermite basis).
Vec6d quinticHermite(double p0, double v0, double a0, double p1, double v1, double a1) {
  const double dp = p1 - p0;
  Vec6d c;
  c << p0, v0, 0.5 * a0, 10 * dp - 6 * v0 - 4 * v1 - 1.5 * a0 + 0.5 * a1, -15 * dp + 8 * v0 + 7 * v1 + 1.5 * a0 - a1,
      6 * dp - 3 * v0 - 3 * v1 - 0.5 * a0 + 0.5 * a1;
  return c;
}

}  // namespace

const char* interpolationName(Interpolation kind) {
  switch (kind) {
    case Interpolation::Quintic:
      return "quintic";
    case Interpolation::Trapezoidal:
      return "trapezoidal";
    case Interpolation::CubicSpline:
      return "cubic-spline";
  }
  return "?";
}

std::optional<Interpolation> interpolationByName(std::string_view name) {
  for (Interpolation k : {Interpolation::Quintic, Interpolation::Trapezoidal, Interpolation::CubicSpline})
    if (name == interpolationName(k)) return k;
  return std::nullopt;
}

WaypointTrajectory::WaypointTrajectory(const Model& model, std::vector<Waypoint> waypoints, Interpolation kind,
                                       double trapezoidFraction)
    : skeleton_(jointSkeleton(model)),
      waypoints_(std::move(waypoints)),
      kind_(kind),
      trapezoidFraction_(trapezoidFraction) {
  const int n = int(waypoints_.size());
  if (n < 2) throw std::invalid_argument("a trajectory needs at least 2 waypoints, got " + std::to_string(n));
  if (!(trapezoidFraction > 0 && trapezoidFraction <= 0.5))
    throw std::invalid_argument("the trapezoidal acceleration fraction must be in (0, 0.5], got " +
                                preciseNumber(trapezoidFraction));
  const std::vector<std::string> qNames = configurationNames(model);
  times_.resize(n);
  for (int k = 0; k < n; ++k) {
    const Waypoint& wp = waypoints_[k];
    const std::string at = "waypoint " + std::to_string(k + 1) + ": ";
    if (!std::isfinite(wp.t)) throw std::invalid_argument(at + "the time is not a finite number");
    if (wp.q.size() != model.nq)
      throw std::invalid_argument(at + "q has " + std::to_string(wp.q.size()) + " entries, model '" + model.name +
                                  "' has nq = " + std::to_string(model.nq));
    for (int i = 0; i < model.nq; ++i)
      if (!std::isfinite(wp.q[i]))
        throw std::invalid_argument(at + "q entry '" + qNames[i] + "' is not a finite number");
    for (int i = 1; i <= model.N; ++i) {
      const JointModel<double>& J = model.joints[i];
      if (isCurved(J.type) && wp.q.segment<4>(J.idx_q + (J.type == JointType::Floating ? 3 : 0)).norm() == 0)
        throw std::invalid_argument(at + "the quaternion of joint '" + model.jointNames[i] + "' is zero");
    }
    if (k > 0 && !(wp.t > waypoints_[k - 1].t))
      throw std::invalid_argument(at + "t = " + preciseNumber(wp.t) + " is not after waypoint " + std::to_string(k) +
                                  " (t = " + preciseNumber(waypoints_[k - 1].t) + "); times must increase strictly");
    times_[k] = wp.t;
  }
  for (int i = 1; i <= model.N; ++i)
    if (isCurved(model.joints[i].type)) curvedJoints_.push_back(i);

  const int segments = n - 1;
  delta_.resize(model.nv, segments);
  for (int k = 0; k < segments; ++k) {
    Eigen::Ref<Eigen::VectorXd> d = delta_.col(k);
    difference(skeleton_, waypoints_[k].q, waypoints_[k + 1].q, d);
  }
  if (kind_ != Interpolation::CubicSpline) return;

  // The spline through the accumulated displacements, then one chart quintic per segment.
  Eigen::MatrixXd U = Eigen::MatrixXd::Zero(model.nv, n);
  for (int k = 1; k < n; ++k) U.col(k) = U.col(k - 1) + delta_.col(k - 1);
  const CubicSpline spline(times_, U, SplineEnds::ClampedRest);
  Eigen::MatrixXd V = spline.firstDerivatives();  // body velocity and acceleration at the waypoints
  Eigen::MatrixXd A = spline.secondDerivatives();
  coefficients_.resize(model.nv, 6 * segments);
  for (int k = 0; k < segments; ++k) {
    const double h = times_[k + 1] - times_[k];
    // Chart rates at both ends: the spline's on flat joints, mapped through the exponential's
    // Jacobian on curved ones (at x = 0 the chart is centred, the map is the identity up to rounding).
    Eigen::VectorXd v0 = V.col(k), a0 = A.col(k), v1 = V.col(k + 1), a1 = A.col(k + 1);
    for (int i : curvedJoints_) {
      const JointModel<double>& J = model.joints[i];
      const Vec6d zero = Vec6d::Zero();
      Vec6d wd, wdd;
      chartRates(J.type, J.nv, zero.data(), V.col(k).data() + J.idx_v, A.col(k).data() + J.idx_v, wd.data(),
                 wdd.data());
      v0.segment(J.idx_v, J.nv) = wd.head(J.nv);
      a0.segment(J.idx_v, J.nv) = wdd.head(J.nv);
      chartRates(J.type, J.nv, delta_.col(k).data() + J.idx_v, V.col(k + 1).data() + J.idx_v,
                 A.col(k + 1).data() + J.idx_v, wd.data(), wdd.data());
      v1.segment(J.idx_v, J.nv) = wd.head(J.nv);
      a1.segment(J.idx_v, J.nv) = wdd.head(J.nv);
    }
    for (int j = 0; j < model.nv; ++j)  // x-derivatives: d/dx = h d/dt
      coefficients_.block<1, 6>(j, 6 * k) =
          quinticHermite(0, h * v0[j], h * h * a0[j], delta_(j, k), h * v1[j], h * h * a1[j]).transpose();
  }
}

int WaypointTrajectory::segment(double t) const {
  const int n = int(times_.size());
  if (!(t > times_[0])) return 0;
  if (t >= times_[n - 1]) return n - 2;
  return int(std::upper_bound(times_.data(), times_.data() + n, t) - times_.data()) - 1;
}

void WaypointTrajectory::evaluate(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> qd,
                                  Eigen::Ref<Eigen::VectorXd> qdd) const {
  checkSize("q", q.size(), skeleton_.nq);
  checkSize("qd", qd.size(), skeleton_.nv);
  checkSize("qdd", qdd.size(), skeleton_.nv);
  const int k = segment(t);
  const double h = times_[k + 1] - times_[k];
  const double tau = std::clamp(t, times_[k], times_[k + 1]) - times_[k];
  if (kind_ != Interpolation::CubicSpline) {
    // q = q_k (+) s(tau) delta_k, q̇ = ṡ delta_k, q̈ = s̈ delta_k (delta_k is constant in the chart).
    const ScalingSample s =
        kind_ == Interpolation::Quintic ? quinticScaling(tau, h) : trapezoidalScaling(tau, h, trapezoidFraction_);
    integrate(skeleton_, waypoints_[k].q, delta_.col(k), s.s, q);
    qd = s.sd * delta_.col(k);
    qdd = s.sdd * delta_.col(k);
    return;
  }
  const double x = tau / h, x2 = x * x, x3 = x2 * x, x4 = x3 * x;
  const Vec6d p = (Vec6d() << 1, x, x2, x3, x4, x4 * x).finished();
  const Vec6d dp = (Vec6d() << 0, 1, 2 * x, 3 * x2, 4 * x3, 5 * x4).finished() / h;
  const Vec6d ddp = (Vec6d() << 0, 0, 2, 6 * x, 12 * x2, 20 * x3).finished() / (h * h);
  const auto C = coefficients_.middleCols<6>(6 * k);
  qd.noalias() = C * p;  // the chart point w, for integrate
  integrate(skeleton_, waypoints_[k].q, qd, 1.0, q);
  qd.noalias() = C * dp;
  qdd.noalias() = C * ddp;
  for (int i : curvedJoints_) {  // chart rates -> body velocity and acceleration
    const JointModel<double>& J = skeleton_.joints[i];
    Vec6d w, nu, nud;
    w.head(J.nv).noalias() = C.middleRows(J.idx_v, J.nv) * p;
    bodyRates(J.type, w.data(), qd.data() + J.idx_v, qdd.data() + J.idx_v, nu.data(), nud.data());
    qd.segment(J.idx_v, J.nv) = nu.head(J.nv);
    qdd.segment(J.idx_v, J.nv) = nud.head(J.nv);
  }
}

SampledTrajectory WaypointTrajectory::sample(double rate) const {
  if (!(rate > 0) || !std::isfinite(rate))
    throw std::invalid_argument("the sample rate must be a positive number of samples per second, got " + preciseNumber(rate));
  const double duration = endTime() - startTime();
  const double steps = std::floor(duration * rate + 1e-9);
  if (steps + 2 > 1e7)
    throw std::invalid_argument("sampling " + preciseNumber(duration) + " s at " + preciseNumber(rate) + " Hz gives " +
                                preciseNumber(steps + 1) + " samples (more than 10^7)");
  const bool extra = duration * rate - steps > 1e-6;  // the end is not on the grid
  const int n = int(steps) + 1 + (extra ? 1 : 0);
  SampledTrajectory s;
  s.t.resize(n);
  s.q.resize(nq(), n);
  s.qd.resize(nv(), n);
  s.qdd.resize(nv(), n);
  for (int k = 0; k < n; ++k) s.t[k] = k + 1 == n ? endTime() : startTime() + k / rate;
  for (int k = 0; k < n; ++k) evaluate(s.t[k], s.q.col(k), s.qd.col(k), s.qdd.col(k));
  return s;
}

}  // namespace dyn
