#include "scene/reach_envelope.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"

namespace scene {
namespace {

bool oneDof(dyn::JointType t) {
  return t == dyn::JointType::Revolute || t == dyn::JointType::Prismatic || t == dyn::JointType::Helical;
}

// The range a 1-dof joint is sampled over: its limits, a whole turn where a revolute joint has none,
// nothing (its home value) for an unlimited prismatic joint.
bool range(const dyn::Model& model, int i, double& lo, double& hi) {
  const int k = model.joints[i].idx_q;
  lo = model.lowerLimit.size() > k ? model.lowerLimit[k] : -INFINITY;
  hi = model.upperLimit.size() > k ? model.upperLimit[k] : INFINITY;
  if (model.joints[i].type != dyn::JointType::Prismatic) {
    lo = std::isfinite(lo) ? std::max(lo, -M_PI) : -M_PI;
    hi = std::isfinite(hi) ? std::min(hi, M_PI) : M_PI;
  }
  return std::isfinite(lo) && std::isfinite(hi) && hi > lo;
}

// The corners of every box at a pose (body placements X0).
void addCorners(const std::vector<GeometryLayer::Box>& boxes, const std::vector<Tf>& X0, std::vector<Vec3>& out) {
  for (const auto& b : boxes) {
    const Tf X = b.placement * X0[size_t(b.body)];  // geometry_X_0
    for (int k = 0; k < 8; ++k)
      out.push_back(X.pointToA(Vec3(b.local[k & 1 ? 1 : 0], b.local[k & 2 ? 3 : 2], b.local[k & 4 ? 5 : 4])));
  }
}

}  // namespace

std::vector<Vec3> reachEnvelope(const dyn::Model& model, const dyn::Data& current,
                                const std::vector<GeometryLayer::Box>& boxes, size_t maxPoints) {
  std::vector<Vec3> out;
  if (boxes.empty() || int(current.X0.size()) != model.N + 1) return out;
  const auto addPose = [&](const std::vector<Tf>& X0) { addCorners(boxes, X0, out); };
  addPose(current.X0);
  if (model.hasLoops()) return out;

  // A floating base stays put: each body is re-rooted on its floating ancestor's current pose.
  std::vector<int> floatingRoot(size_t(model.N + 1), -1);
  for (int i = 1; i <= model.N; ++i) {
    const int p = model.parent[size_t(i)];
    floatingRoot[size_t(i)] =
        model.joints[i].type == dyn::JointType::Floating ? i : (p > 0 ? floatingRoot[size_t(p)] : -1);
  }
  dyn::Data data(model);
  std::vector<Tf> X0(size_t(model.N + 1));
  const auto addConfiguration = [&](const Eigen::VectorXd& q) {
    dyn::forwardKinematics(model, data, q);
    for (int i = 0; i <= model.N; ++i) {
      const int r = floatingRoot[size_t(i)];
      X0[size_t(i)] =
          r < 0 ? data.X0[size_t(i)] : data.X0[size_t(i)] * data.X0[size_t(r)].inverse() * current.X0[size_t(r)];
    }
    addPose(X0);
  };

  const size_t perPose = boxes.size() * 8;
  const size_t budget = std::max<size_t>(16, maxPoints / perPose);
  const Eigen::VectorXd home = model.home();
  std::vector<int> swept;
  for (int i = 1; i <= model.N; ++i)
    if (double lo, hi; oneDof(model.joints[i].type) && range(model, i, lo, hi)) swept.push_back(i);
  // Each joint alone: 9 values from limit to limit (fewer on a long chain, none below 3).
  const int values = swept.empty() ? 0 : int(std::min<size_t>(9, budget / 2 / swept.size()));
  size_t used = 0;
  if (values >= 3)
    for (int i : swept) {
      double lo, hi;
      range(model, i, lo, hi);
      for (int v = 0; v < values; ++v, ++used) {
        Eigen::VectorXd q = home;
        q[model.joints[i].idx_q] = lo + (hi - lo) * v / (values - 1);
        addConfiguration(q);
      }
    }
  // Then every joint at once, at random (the same numbers every time: the same view at every load).
  std::mt19937 random(22);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal;
  for (; used < budget; ++used) {
    Eigen::VectorXd q = home;
    for (int i = 1; i <= model.N; ++i) {
      const auto& J = model.joints[i];
      double lo, hi;
      if (oneDof(J.type) && range(model, i, lo, hi)) {
        q[J.idx_q] = lo + (hi - lo) * unit(random);
      } else if (J.type == dyn::JointType::Spherical) {
        Eigen::Vector4d u(normal(random), normal(random), normal(random), normal(random));
        q.segment<4>(J.idx_q) = u.normalized();
      }
    }
    addConfiguration(q);
  }
  return out;
}

std::vector<Vec3> sweptCorners(const dyn::Model& model, const std::vector<GeometryLayer::Box>& boxes,
                               const std::vector<Eigen::VectorXd>& configurations) {
  std::vector<Vec3> out;
  dyn::Data data(model);
  for (const Eigen::VectorXd& q : configurations) {
    if (q.size() != model.nq) continue;
    dyn::forwardKinematics(model, data, q);
    addCorners(boxes, data.X0, out);
  }
  return out;
}

}  // namespace scene
