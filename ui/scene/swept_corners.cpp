#include "scene/swept_corners.hpp"

#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"

namespace scene {
namespace {

// The corners of every box at a pose (body placements X0).
void addCorners(const std::vector<GeometryLayer::Box>& boxes, const std::vector<Tf>& X0, std::vector<Vec3>& out) {
  for (const auto& b : boxes) {
    const Tf X = b.placement * X0[size_t(b.body)];  // geometry_X_0
    for (int k = 0; k < 8; ++k)
      out.push_back(X.pointToA(Vec3(b.local[k & 1 ? 1 : 0], b.local[k & 2 ? 3 : 2], b.local[k & 4 ? 5 : 4])));
  }
}

}  // namespace

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
