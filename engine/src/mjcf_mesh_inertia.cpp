// Volume, centroid and inertia of a triangle mesh (STL binary or ASCII, OBJ), for the inertia MuJoCo's
// compiler gives mesh geoms. Each triangle (a, b, c) and an apex span a tetrahedron of volume
// det[a b c]/6, whose second moment about the apex is det/120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c
// (Blow and Binstock 2004, "Accurate and efficient computation of inertia tensors").
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "mjcf_reader.hpp"
#include "triangle_mesh.hpp"

namespace dyn::mjcf {

std::optional<MeshInertia> meshInertia(const std::string& path, const Eigen::Vector3d& scale, std::string* error) {
  std::vector<Triangle> triangles;
  if (!readTriangleMesh(path, triangles, error)) return std::nullopt;
  // MuJoCo's compiler ("legacy" mesh inertia, its default): tetrahedra from the area-weighted centre of
  // the faces, each counted with the absolute value of its volume. For a closed mesh that is star-shaped
  // about that centre (every convex one) this is the solid's exact inertia; for others it is MuJoCo's.
  Eigen::Vector3d apex = Eigen::Vector3d::Zero();
  double area = 0;
  for (Triangle& t : triangles) {
    for (Eigen::Vector3d& v : t) v = v.cwiseProduct(scale);
    const double a = (t[1] - t[0]).cross(t[2] - t[0]).norm() / 2;
    area += a;
    apex += a * (t[0] + t[1] + t[2]) / 3;
  }
  if (area > 0) apex /= area;
  double volume = 0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  Eigen::Matrix3d C = Eigen::Matrix3d::Zero();  // second moment about the apex
  for (const Triangle& tri : triangles) {
    const Eigen::Vector3d a = tri[0] - apex, b = tri[1] - apex, c = tri[2] - apex;
    const double det = std::abs(a.dot(b.cross(c)));
    const Eigen::Vector3d s = a + b + c;
    volume += det / 6;
    moment += det / 24 * s;
    C += det / 120 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (!(volume > 0)) {
    if (error) *error = "'" + path + "' encloses no volume";
    return std::nullopt;
  }
  MeshInertia m;
  m.volume = volume;
  const Eigen::Vector3d d = moment / volume;  // the centroid from the apex
  m.centroid = apex + d;
  const Eigen::Matrix3d Cc = C - volume * d * d.transpose();  // about the centroid
  m.inertiaPerMass = (Cc.trace() * Eigen::Matrix3d::Identity() - Cc) / volume;
  return m;
}

}  // namespace dyn::mjcf
