#include "simulation/perturbation.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "dynscope/algorithms/kinematics.hpp"

namespace perturb {

namespace {

double omega0() { return 2 * std::numbers::pi * kFrequency; }

double gravityOf(const dyn::Model& model) {
  const double g = model.gravity.v.norm();
  return g > 0 ? g : kGravityFallback;
}

Eigen::Vector3d capped(const Eigen::Vector3d& v, double limit) {
  const double n = v.norm();
  return n > limit && n > 0 ? Eigen::Vector3d(v * (limit / n)) : v;
}

}  // namespace

SubtreeInertia subtreeInertia(const dyn::Model& model, const dyn::Data& data, int body, const Eigen::Vector3d& p) {
  SubtreeInertia out;
  if (body < 1 || body > model.N) return out;
  // parent[j] < j: one pass marks the subtree.
  std::vector<char> in(size_t(model.N + 1), 0);
  in[size_t(body)] = 1;
  for (int j = body + 1; j <= model.N; ++j) in[size_t(j)] = in[size_t(model.parent[j])];
  for (int j = body; j <= model.N; ++j) {
    if (!in[size_t(j)]) continue;
    const auto& I = model.I[j];
    if (!(I.m > 0)) continue;
    const Eigen::Matrix3d R = data.X0[j].E.transpose();  // body axes to world
    const Eigen::Vector3d r = data.X0[j].pointToA(I.com()) - p;
    // Ic (world) + m (|r|^2 1 - r r^T): the parallel-axis theorem.
    out.aboutPoint += R * I.inertiaAboutCom() * R.transpose() +
                      I.m * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());
    out.mass += I.m;
  }
  return out;
}

Eigen::Vector3d springForce(double mass, double g, const Eigen::Vector3d& p, const Eigen::Vector3d& v,
                            const Eigen::Vector3d& target) {
  const double w = omega0();
  const Eigen::Vector3d f = mass * w * w * (target - p) - 2 * mass * w * v;
  return capped(f, kMaxWeights * mass * g);
}

Eigen::Vector3d springMoment(double mass, double g, const Eigen::Matrix3d& inertia, const Eigen::Matrix3d& R,
                             const Eigen::Vector3d& omega, const Eigen::Matrix3d& target) {
  const double w = omega0();
  const Eigen::AngleAxisd error(target * R.transpose());  // world-axes rotation from R to the target
  const Eigen::Vector3d e = error.angle() * error.axis();
  const Eigen::Vector3d M = inertia * (w * w * e - 2 * w * omega);
  const double lambda =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(inertia, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
  const double gyration = mass > 0 ? std::sqrt(std::max(lambda, 0.0) / mass) : 0.0;
  return capped(M, kMaxWeights * mass * g * gyration);
}

dyn::ExternalWrench perturbationWrench(const dyn::Model& model, dyn::Data& data, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& qd, const Perturbation& p) {
  dyn::ExternalWrench w;
  w.body = p.body;
  w.point = p.point;
  if (p.body < 1 || p.body > model.N) return w;
  dyn::forwardKinematics(model, data, q, qd);
  const dyn::Transform<double>& X = data.X0[p.body];
  const Eigen::Matrix3d R = X.E.transpose();              // body axes to world
  const dyn::Motion<double>& v = data.v[size_t(p.body)];  // body coordinates, at the body origin
  const Eigen::Vector3d pos = X.pointToA(p.point);
  const SubtreeInertia sub = subtreeInertia(model, data, p.body, pos);
  const double g = gravityOf(model);
  if (p.kind == Perturbation::Kind::Force) {
    const Eigen::Vector3d vp = R * (v.v + v.w.cross(p.point));  // the grabbed point's velocity, world
    w.force = springForce(sub.mass, g, pos, vp, p.target);
  } else {
    w.moment = springMoment(sub.mass, g, sub.aboutPoint, R, R * v.w, p.rotation);
  }
  return w;
}

}  // namespace perturb
