// Pose helpers shared by the DH reader, writer and converters (internal): elementary DH
// transforms as Eigen isometries, URDF rpy <-> rotation, Pose <-> isometry, and the shortest
// decimal text of a double that reads back exactly.
#pragma once
#include <Eigen/Geometry>
#include <string>

#include "dynscope/io/dh_table.hpp"

namespace dyn::dh {

using Iso = Eigen::Isometry3d;

inline Iso rotX(double t) { return Iso(Eigen::AngleAxisd(t, Eigen::Vector3d::UnitX())); }
inline Iso rotZ(double t) { return Iso(Eigen::AngleAxisd(t, Eigen::Vector3d::UnitZ())); }
inline Iso transX(double a) { return Iso(Eigen::Translation3d(a, 0, 0)); }
inline Iso transZ(double d) { return Iso(Eigen::Translation3d(0, 0, d)); }

// URDF rpy (R = Rz(yaw) Ry(pitch) Rx(roll)) of a rotation, robust at pitch = +-90 deg (yaw = 0 there).
Vec3<double> rotationToRpy(const Mat3<double>& R);
Pose toPose(const Iso& T);
Iso toIso(const Pose& p);

// The DH link transform ^{i-1}T_i of a row at joint value q (q = 0: the constants alone).
Iso rowTransform(const DhRow& row, DhConvention convention, double q = 0);

// Rounding noise off a computed length or inertia entry: 0 when |v| <= zero, else v to 14
// significant digits (a decimal written with fewer comes back as written; changes <= 1e-14 relative).
double tidy(double v, double zero);

// Shortest decimal that reads back (from_chars) as exactly v; with `unit` != 1 the shortest d such
// that d * unit == v (angles written in degrees), or 17 digits of v / unit when there is none.
std::string exactNumber(double v, double unit = 1);

}  // namespace dyn::dh
