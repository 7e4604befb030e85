#include "dh_geometry.hpp"

#include <charconv>
#include <cmath>
#include <numbers>

namespace dyn::dh {

Vec3<double> rotationToRpy(const Mat3<double>& R) {
  // dyn::matrixToRpy reads roll and yaw from entries that all vanish at pitch = +-90 deg, so near
  // there round-off would pick them; only roll -+ yaw is defined, and we take yaw = 0.
  if (std::hypot(R(0, 0), R(1, 0)) > 1e-8) return matrixToRpy(R);
  constexpr double kHalfPi = std::numbers::pi / 2;
  // With yaw = 0: Ry(+-90) Rx(r) has R(0,1) = +-sin r and R(1,1) = cos r.
  return R(2, 0) < 0 ? Vec3<double>(std::atan2(R(0, 1), R(1, 1)), kHalfPi, 0)
                     : Vec3<double>(std::atan2(-R(0, 1), R(1, 1)), -kHalfPi, 0);
}

Pose toPose(const Iso& T) {
  Pose p;
  p.xyz = T.translation();
  p.rpy = rotationToRpy(T.linear());
  return p;
}

Iso toIso(const Pose& p) {
  Iso T = Iso::Identity();
  T.linear() = p.rotation();
  T.translation() = p.xyz;
  return T;
}

Iso rowTransform(const DhRow& r, DhConvention c, double q) {
  const double theta = r.theta + (r.prismatic ? 0 : q), d = r.d + (r.prismatic ? q : 0);
  return c == DhConvention::Modified ? rotX(r.alpha) * transX(r.a) * rotZ(theta) * transZ(d)
                                     : rotZ(theta) * transZ(d) * transX(r.a) * rotX(r.alpha);
}

double tidy(double v, double zero) {
  if (std::abs(v) <= zero) return 0;
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 14);
  double back = v;
  std::from_chars(buf, res.ptr, back);
  return back;
}

std::string exactNumber(double v, double unit) {
  char buf[64];
  if (v == 0) return "0";
  if (unit == 1) {
    const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest round trip
    return std::string(buf, res.ptr);
  }
  const double scaled = v / unit;
  for (int digits = 1; digits <= 17; ++digits) {
    const auto res = std::to_chars(buf, buf + sizeof buf, scaled, std::chars_format::general, digits);
    double back = 0;
    std::from_chars(buf, res.ptr, back);
    if (back * unit == v) {  // written in its shortest form: 160, not 1.6e+02
      const auto shortest = std::to_chars(buf, buf + sizeof buf, back);
      return std::string(buf, shortest.ptr);
    }
  }
  const auto res = std::to_chars(buf, buf + sizeof buf, scaled, std::chars_format::general, 17);
  return std::string(buf, res.ptr);
}

}  // namespace dyn::dh
