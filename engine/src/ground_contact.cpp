#include "dynscope/simulation/ground_contact.hpp"

#include <cmath>
#include <stdexcept>

#include "dynscope/io/mesh_path.hpp"
#include "triangle_mesh.hpp"

namespace dyn {
namespace {

// Directions for a mesh's support points (each a vertex of the mesh's convex hull): the 26 of a
// cube's faces, edges and corners (a box-like part rests on its corners in any of its orientations)
// and 74 more spread evenly over the sphere (a Fibonacci lattice, about 24 degrees apart), so that a
// rounded part (a foot's sole, a shell) rests on hull vertices close to its lowest point in any pose.
std::vector<Vec3<double>> supportDirections() {
  std::vector<Vec3<double>> d;
  for (int x = -1; x <= 1; ++x)
    for (int y = -1; y <= 1; ++y)
      for (int z = -1; z <= 1; ++z)
        if (x || y || z) d.push_back(Vec3<double>(x, y, z).normalized());
  constexpr int kLattice = 74;
  const double golden = M_PI * (3 - std::sqrt(5.0));  // the golden angle
  for (int k = 0; k < kLattice; ++k) {
    const double z = 1 - (2 * k + 1.0) / kLattice, r = std::sqrt(1 - z * z), a = golden * k;
    d.push_back(Vec3<double>(r * std::cos(a), r * std::sin(a), z));
  }
  return d;
}

// Points in geometry coordinates of a box, a cylinder (12 on each rim) or a mesh; empty with a reason.
std::vector<Vec3<double>> shapePoints(const Model& model, const GeometryObject& g, std::string& why) {
  std::vector<Vec3<double>> p;
  const Shape& s = g.shape;
  switch (s.kind) {
    case Shape::Kind::Box:
      for (int c = 0; c < 8; ++c)
        p.push_back(0.5 * Vec3<double>(c & 1 ? s.size.x() : -s.size.x(), c & 2 ? s.size.y() : -s.size.y(),
                                       c & 4 ? s.size.z() : -s.size.z()));
      break;
    case Shape::Kind::Cylinder:
      for (int k = 0; k < 12; ++k) {
        const double a = 2 * M_PI * k / 12;
        for (double z : {-s.length / 2, s.length / 2})
          p.push_back(Vec3<double>(s.radius * std::cos(a), s.radius * std::sin(a), z));
      }
      break;
    case Shape::Kind::Mesh: {
      std::string error;
      const std::string path = resolveMeshPath(s.meshUri, model.sourceFile, &error);
      std::vector<Triangle> triangles;
      if (path.empty() || !readTriangleMesh(path, triangles, &error) || triangles.empty()) {
        if (error.empty()) error = "it holds no triangles";
        why = "the mesh '" + s.meshUri + "': " + error;
        break;
      }
      for (const Vec3<double>& d : supportDirections()) {
        Vec3<double> best = triangles[0][0].cwiseProduct(s.scale);
        for (const Triangle& t : triangles)
          for (const Eigen::Vector3d& v : t)
            if (v.cwiseProduct(s.scale).dot(d) > best.dot(d)) best = v.cwiseProduct(s.scale);
        p.push_back(best);
      }
      break;
    }
    case Shape::Kind::Sphere:
      break;
  }
  return p;
}

}  // namespace

ContactPointSet contactPoints(const Model& model) {
  ContactPointSet set;
  bool anyCollision = false;
  for (const GeometryObject& g : model.geometries) anyCollision = anyCollision || g.collision;
  if (!anyCollision && !model.geometries.empty())
    set.notes.push_back(model.name + " has no collision geometry: the ground touches its visual geometry");
  for (int gi = 0; gi < int(model.geometries.size()); ++gi) {
    const GeometryObject& g = model.geometries[size_t(gi)];
    if (g.collision != anyCollision || g.body == 0) continue;  // the fixed base never moves
    // placement = geometry_X_body: a point in geometry coordinates to body coordinates is pointToA.
    if (g.shape.kind == Shape::Kind::Sphere) {
      set.points.push_back({g.body, g.placement.pointToA(Vec3<double>::Zero()), g.shape.radius, gi});
      continue;
    }
    std::string why;
    const std::vector<Vec3<double>> pts = shapePoints(model, g, why);
    if (!why.empty()) set.notes.push_back("link '" + g.link + "': no contact points from " + why);
    for (const Vec3<double>& p : pts) {
      const Vec3<double> b = g.placement.pointToA(p);
      bool seen = false;  // the same point twice (a mesh's support point in several directions)
      for (const ContactPoint& c : set.points)
        seen = seen || (c.body == g.body && c.radius == 0 && (c.point - b).norm() < 1e-9);
      if (!seen) set.points.push_back({g.body, b, 0, gi});
    }
  }
  if (set.points.empty())
    set.notes.push_back(model.name + " has no geometry on a moving body: nothing of it can touch the ground");
  return set;
}

}  // namespace dyn
