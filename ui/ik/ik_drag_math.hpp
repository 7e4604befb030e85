// Geometry of a gizmo drag: the mouse ray against an arrow's axis line, a ring's plane or the
// camera-facing plane; the manipulability ellipsoid's drawn size. Pure Eigen, no Qt or VTK, so it
// can be checked on its own.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace ikdrag {

struct Ray {
  Eigen::Vector3d origin;
  Eigen::Vector3d dir;  // unit
};

// Parameter t of the point o + t a (a unit) of the line closest to the ray; none when the line is
// (nearly) parallel to the ray, where the closest point is undefined.
inline std::optional<double> closestOnLine(const Ray& ray, const Eigen::Vector3d& o, const Eigen::Vector3d& a) {
  // Minimise |o + t a - c - s d|^2: t (1 - b^2) = b (d.w) - a.w, with w = o - c, b = a.d.
  const Eigen::Vector3d w = o - ray.origin;
  const double b = a.dot(ray.dir), denom = 1 - b * b;
  if (denom < 1e-6) return std::nullopt;
  return (b * ray.dir.dot(w) - a.dot(w)) / denom;
}

// Where the ray meets the plane through o with normal n; none when it runs along the plane.
inline std::optional<Eigen::Vector3d> hitPlane(const Ray& ray, const Eigen::Vector3d& o, const Eigen::Vector3d& n) {
  const double dn = ray.dir.dot(n);
  if (std::abs(dn) < 1e-4) return std::nullopt;
  return Eigen::Vector3d(ray.origin + (n.dot(o - ray.origin) / dn) * ray.dir);
}

// Signed angle about unit axis n from v0 to v (both projected into the plane normal to n).
inline double angleAbout(const Eigen::Vector3d& n, const Eigen::Vector3d& v0, const Eigen::Vector3d& v) {
  return std::atan2(n.dot(v0.cross(v)), v0.dot(v) - n.dot(v0) * n.dot(v));
}

// The 1-2-5 round number nearest below x > 0 (0.3 -> 0.2, 0.07 -> 0.05): scales a reader can
// take in at a glance.
inline double roundScale(double x) {
  if (!(x > 0) || !std::isfinite(x)) return 1;
  double decade = std::pow(10.0, std::floor(std::log10(x)));
  if (x / decade >= 10) decade *= 10;  // log10 rounded off at an exact power of ten
  if (x / decade < 1) decade /= 10;
  const double m = x / decade;
  return decade * (m >= 5 ? 5 : m >= 2 ? 2 : 1);
}

// An ellipsoid's semi-axes in metres: value_k (sigma_k or 1/sigma_k) times scale, at most `cap`
// (1/sigma grows without bound near a singularity) and at least `floor` (a flat direction is still
// drawn, as a disc).
struct DrawnEllipsoid {
  Eigen::Vector3d radii = Eigen::Vector3d::Zero();
  std::array<bool, 3> capped{};
};
inline DrawnEllipsoid drawnEllipsoid(const Eigen::Vector3d& values, double scale, double cap, double floor) {
  DrawnEllipsoid e;
  for (int k = 0; k < 3; ++k) {
    const double r = values[k] * scale;  // inf / nan (a lost direction) count as capped
    e.capped[k] = !(r <= cap);
    e.radii[k] = std::max(floor, e.capped[k] ? cap : r);
  }
  return e;
}

}  // namespace ikdrag
