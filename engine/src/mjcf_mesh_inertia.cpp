// Volume, centre and inertia of a mesh geom as MuJoCo's compiler computes them, under each of its rules
// (MuJoCo 2.2.2's src/user/user_mesh.cc mjCMesh::Process and user_objects.cc mjCGeom::GetVolume,
// SetInertia; MuJoCo 3.3's <mesh inertia>, XML reference "asset/mesh/inertia"):
//  * the face centre: the area-weighted mean of the triangles' centres;
//  * the centre of mass: each triangle and the face centre span a tetrahedron (pyramid) of volume
//    det[a b c]/6 and centroid (3/4 triangle centre + 1/4 apex); legacy rules take |volume|;
//  * the inertia: the same tetrahedra from the centre of mass, second moment det/120 (a a^T + b b^T +
//    c c^T + s s^T), s = a + b + c (Blow and Binstock 2004, "Accurate and efficient computation of
//    inertia tensors"), again with |volume| under the legacy rules; MuJoCo takes it as the inertia
//    about the centre of mass without a parallel-axis correction, and so does this;
//  * the geom's volume (its mass is density x volume unless given): the tetrahedra's volume, except
//    under MuJoCo 2.x's legacy rule, which takes the volume of the box with the same inertia (the
//    "equivalent inertia box", sides from the principal second moments); the inertia per unit mass is
//    the tetrahedra's inertia divided by their volume under every rule;
//  * shell: the triangles' area as the "volume", centre and second moments of the surface
//    (area/12 (a a^T + b b^T + c c^T + s s^T) per triangle).
#include <algorithm>
#include <cmath>
#include <map>

#include "mjcf_reader.hpp"
#include "triangle_mesh.hpp"

namespace dyn::mjcf {
namespace {

struct Plane {
  int a, b, c;
  Eigen::Vector3d n;  // outward unit normal
  double d;           // n . x = d on the plane
  bool alive = true;
};

Plane makePlane(const std::vector<Eigen::Vector3d>& p, int a, int b, int c) {
  Plane f{a, b, c, (p[size_t(b)] - p[size_t(a)]).cross(p[size_t(c)] - p[size_t(a)]), 0};
  const double len = f.n.norm();
  if (len > 0) f.n /= len;
  f.d = f.n.dot(p[size_t(a)]);
  return f;
}

}  // namespace

// Incremental convex hull (each point outside the hull so far replaces the faces it sees by a fan
// from the horizon; de Berg et al., "Computational Geometry", ch. 11). Points within a tolerance of
// a face count as inside. Empty when the points span no volume.
std::vector<Triangle> convexHull(const std::vector<Eigen::Vector3d>& input) {
  std::vector<Eigen::Vector3d> p = input;
  std::sort(p.begin(), p.end(), [](const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
    return std::lexicographical_compare(x.data(), x.data() + 3, y.data(), y.data() + 3);
  });
  p.erase(std::unique(p.begin(), p.end()), p.end());
  if (p.size() < 4) return {};
  Eigen::Vector3d lo = p[0], hi = p[0];
  for (const Eigen::Vector3d& x : p) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const double eps = 1e-10 * std::max((hi - lo).maxCoeff(), 1e-300);
  // A first tetrahedron of extreme points.
  int i0 = 0, i1 = -1, i2 = -1, i3 = -1;
  double best = 0;
  for (size_t k = 0; k < p.size(); ++k)
    if (const double d = (p[k] - p[0]).norm(); d > best) best = d, i1 = int(k);
  if (i1 < 0 || best <= eps) return {};
  const Eigen::Vector3d u = (p[size_t(i1)] - p[0]).normalized();
  best = 0;
  for (size_t k = 0; k < p.size(); ++k) {
    const Eigen::Vector3d w = p[k] - p[0];
    if (const double d = (w - w.dot(u) * u).norm(); d > best) best = d, i2 = int(k);
  }
  if (i2 < 0 || best <= eps) return {};
  const Eigen::Vector3d n = u.cross(p[size_t(i2)] - p[0]).normalized();
  best = 0;
  for (size_t k = 0; k < p.size(); ++k)
    if (const double d = std::abs(n.dot(p[k] - p[0])); d > best) best = d, i3 = int(k);
  if (i3 < 0 || best <= eps) return {};
  const Eigen::Vector3d inside = (p[size_t(i0)] + p[size_t(i1)] + p[size_t(i2)] + p[size_t(i3)]) / 4;
  std::vector<Plane> faces;
  for (const auto& [a, b, c] :
       {std::array{i0, i1, i2}, std::array{i0, i1, i3}, std::array{i0, i2, i3}, std::array{i1, i2, i3}}) {
    Plane f = makePlane(p, a, b, c);
    if (f.n.dot(inside) > f.d) f = makePlane(p, a, c, b);
    faces.push_back(f);
  }
  for (size_t k = 0; k < p.size(); ++k) {
    const int pk = int(k);
    if (pk == i0 || pk == i1 || pk == i2 || pk == i3) continue;
    std::map<std::pair<int, int>, bool> edges;  // directed edges of the faces pk sees
    for (Plane& f : faces)
      if (f.alive && f.n.dot(p[k]) - f.d > eps) {
        f.alive = false;
        edges[{f.a, f.b}] = edges[{f.b, f.c}] = edges[{f.c, f.a}] = true;
      }
    if (edges.empty()) continue;
    for (const auto& [e, unused] : edges)  // the horizon: edges whose other side stays
      if (!edges.count({e.second, e.first})) faces.push_back(makePlane(p, e.first, e.second, pk));
    std::erase_if(faces, [](const Plane& f) { return !f.alive; });
  }
  std::vector<Triangle> out;
  for (const Plane& f : faces) out.push_back({p[size_t(f.a)], p[size_t(f.b)], p[size_t(f.c)]});
  return out;
}

const char* meshRuleName(MeshRule rule) {
  switch (rule) {
    case MeshRule::Legacy2:
      return "legacy (MuJoCo 2.x)";
    case MeshRule::Exact:
      return "exact";
    case MeshRule::Legacy3:
      return "legacy (MuJoCo 3.3)";
    case MeshRule::Convex:
      return "convex";
    case MeshRule::Shell:
      return "shell";
  }
  return "";
}

std::optional<MeshInertia> meshInertia(std::vector<Triangle> triangles, MeshRule rule, std::string* error) {
  const auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return std::nullopt;
  };
  if (rule == MeshRule::Convex) {
    std::vector<Eigen::Vector3d> points;
    for (const Triangle& t : triangles) points.insert(points.end(), t.begin(), t.end());
    triangles = convexHull(points);
    if (triangles.empty()) return fail("its convex hull has no volume");
  }
  const bool legacy = rule == MeshRule::Legacy2 || rule == MeshRule::Legacy3;
  Eigen::Vector3d faceCentre = Eigen::Vector3d::Zero();
  double area = 0;
  for (const Triangle& t : triangles) {
    const double a = (t[1] - t[0]).cross(t[2] - t[0]).norm() / 2;
    area += a;
    faceCentre += a * (t[0] + t[1] + t[2]) / 3;
  }
  if (!(area > 0)) return fail("it has no surface area");
  faceCentre /= area;
  MeshInertia m;
  Eigen::Matrix3d C = Eigen::Matrix3d::Zero();  // second moment about the centre of mass
  if (rule == MeshRule::Shell) {
    m.centroid = faceCentre;  // MuJoCo's shell centre: the face centre
    for (const Triangle& t : triangles) {
      const Eigen::Vector3d a = t[0] - m.centroid, b = t[1] - m.centroid, c = t[2] - m.centroid, s = a + b + c;
      const double A = (b - a).cross(c - a).norm() / 2;
      C += A / 12 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
    m.volume = area;
    m.inertiaPerMass = (C.trace() * Eigen::Matrix3d::Identity() - C) / area;
    return m;
  }
  double volume = 0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  for (const Triangle& t : triangles) {
    const Eigen::Vector3d a = t[0] - faceCentre, b = t[1] - faceCentre, c = t[2] - faceCentre;
    double v = a.dot(b.cross(c)) / 6;
    if (legacy) v = std::abs(v);
    volume += v;
    moment += v * (faceCentre + (a + b + c) / 4);  // 3/4 triangle centre + 1/4 apex
  }
  if (!(volume > 0))
    return fail(volume < 0 ? "its volume is negative (triangles wound inwards)" : "it encloses no volume");
  m.centroid = moment / volume;
  volume = 0;
  for (const Triangle& t : triangles) {
    const Eigen::Vector3d a = t[0] - m.centroid, b = t[1] - m.centroid, c = t[2] - m.centroid, s = a + b + c;
    double v = a.dot(b.cross(c)) / 6;
    if (legacy) v = std::abs(v);
    volume += v;
    C += v / 20 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (!(volume > 0)) return fail("it encloses no volume");
  const double det = C.determinant();
  if (!(det > 0)) return fail("its inertia is not positive definite (a flat or inside-out mesh)");
  m.inertiaPerMass = (C.trace() * Eigen::Matrix3d::Identity() - C) / volume;
  // The equivalent inertia box: half-sides sqrt(3 c_k / V) for the principal second moments c_k.
  m.volume = rule == MeshRule::Legacy2 ? 8 * std::sqrt(27 * det / (volume * volume * volume)) : volume;
  return m;
}

}  // namespace dyn::mjcf
