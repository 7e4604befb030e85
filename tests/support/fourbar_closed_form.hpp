// robots/fourbar.urdf's position solution in closed form, for the loop and IK suites: ground d,
// crank a, coupler b, rocker c (the file's header); the zero pose is at crank angle 60 deg.
#pragma once
#include <Eigen/Core>
#include <cmath>

namespace dyn::testing {

constexpr double kFourBarA = 0.10, kFourBarB = 0.35, kFourBarC = 0.30, kFourBarD = 0.40;

struct FourBarPose {
  double theta3, theta4;  // absolute angles of coupler and rocker from +x (counter-clockwise, x-z plane)
  Eigen::Vector3d A, B;   // the crank-coupler pin and the coupler-rocker pin
};

// A = a (cos t2, sin t2); B is where the circles of radius b about A and c about O4 = (d, 0) meet,
// on the branch where B lies left of the line A -> O4 (the open branch). Points are (x, 0, z).
inline FourBarPose fourBarClosedForm(double theta2) {
  const Eigen::Vector2d A(kFourBarA * std::cos(theta2), kFourBarA * std::sin(theta2)), O4(kFourBarD, 0);
  const Eigen::Vector2d e = O4 - A;
  const double D = e.norm(), l = (kFourBarB * kFourBarB - kFourBarC * kFourBarC + D * D) / (2 * D),
               h = std::sqrt(kFourBarB * kFourBarB - l * l);
  const Eigen::Vector2d u = e / D, n(-u.y(), u.x());  // n: left of A -> O4
  const Eigen::Vector2d B = A + l * u + h * n;
  return {std::atan2(B.y() - A.y(), B.x() - A.x()), std::atan2(B.y(), B.x() - kFourBarD),
          Eigen::Vector3d(A.x(), 0, A.y()), Eigen::Vector3d(B.x(), 0, B.y())};
}

}  // namespace dyn::testing
