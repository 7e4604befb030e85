// The inertia MuJoCo's compiler gives a geom (inertiafromgeom): volume times density (or the geom's
// mass), and the inertia of the solid shape about its centre in the geom frame. Sizes are MuJoCo's:
// radii, half-lengths and half-sizes. A capsule is a cylinder of length 2h with two hemispherical
// caps; each cap's inertia about the capsule's centre follows from a solid hemisphere's (centroid
// 3r/8 from its flat face) by the parallel-axis theorem.
#include <cmath>
#include <numbers>

#include "mjcf_reader.hpp"

namespace dyn::mjcf {

GeomType geomType(const std::string& name) {
  if (name == "plane") return GeomType::Plane;
  if (name == "hfield") return GeomType::Hfield;
  if (name == "sphere") return GeomType::Sphere;
  if (name == "capsule") return GeomType::Capsule;
  if (name == "ellipsoid") return GeomType::Ellipsoid;
  if (name == "cylinder") return GeomType::Cylinder;
  if (name == "box") return GeomType::Box;
  if (name == "mesh") return GeomType::Mesh;
  if (name == "sdf") return GeomType::Sdf;
  return GeomType::Unknown;
}

std::optional<UnitInertia> primitiveInertia(GeomType type, const Eigen::Vector3d& size) {
  constexpr double pi = std::numbers::pi;
  UnitInertia u;
  const double r = size[0];
  switch (type) {
    case GeomType::Sphere:
      u.volume = 4.0 / 3.0 * pi * r * r * r;
      u.diagonalPerMass.setConstant(2.0 / 5.0 * r * r);
      return u;
    case GeomType::Capsule: {
      const double H = 2 * size[1];  // the cylinder's length
      u.volume = pi * r * r * H + 4.0 / 3.0 * pi * r * r * r;
      const double caps = 4 * r / (4 * r + 3 * H);  // the caps' share of the volume (and of the mass)
      const double tube = 1 - caps;
      const double across = tube * (3 * r * r + H * H) / 12 + caps * (2 * r * r / 5 + H * (3 * r + 2 * H) / 8);
      u.diagonalPerMass = Eigen::Vector3d(across, across, tube * r * r / 2 + caps * 2 * r * r / 5);
      return u;
    }
    case GeomType::Cylinder: {
      const double H = 2 * size[1];
      u.volume = pi * r * r * H;
      const double across = (3 * r * r + H * H) / 12;
      u.diagonalPerMass = Eigen::Vector3d(across, across, r * r / 2);
      return u;
    }
    case GeomType::Ellipsoid: {
      const double a = size[0], b = size[1], c = size[2];
      u.volume = 4.0 / 3.0 * pi * a * b * c;
      u.diagonalPerMass = Eigen::Vector3d(b * b + c * c, a * a + c * c, a * a + b * b) / 5;
      return u;
    }
    case GeomType::Box: {
      const double a = size[0], b = size[1], c = size[2];
      u.volume = 8 * a * b * c;
      u.diagonalPerMass = Eigen::Vector3d(b * b + c * c, a * a + c * c, a * a + b * b) / 3;
      return u;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace dyn::mjcf
