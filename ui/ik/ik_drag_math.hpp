// Geometry of a gizmo drag: the mouse ray against an arrow's axis line, a ring's plane or the
// camera-facing plane. Pure Eigen, no Qt or VTK, so it can be checked on its own.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>
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

}  // namespace ikdrag
