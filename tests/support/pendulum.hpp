// A single pendulum for the lecture-mode tests: a rod hinged about the world y axis at the origin,
// its centre of mass a distance c below the hinge at q = 0, mass m, moment of inertia Ic about
// the COM for rotation about y. The expected motion is written here with sines and cosines
// (no spatial algebra): turning by q about +y, Ry(q) (0, 0, -c) = (-c sin q, 0, -c cos q).
#pragma once
#include <Eigen/Core>
#include <cmath>
#include <string>

namespace dyn::testing {

struct Pendulum {
  double m = 2.0, c = 0.5, Ic = 0.05, g = 9.81;

  std::string urdf() const {
    const std::string M = std::to_string(m), C = std::to_string(c), I = std::to_string(Ic);
    return "<robot name=\"pendulum\">\n"
           "  <link name=\"base\"/>\n"
           "  <link name=\"rod\">\n"
           "    <inertial><origin xyz=\"0 0 -" +
           C + "\"/><mass value=\"" + M +
           "\"/>\n"
           "      <inertia ixx=\"" +
           I + "\" iyy=\"" + I +
           "\" izz=\"0.001\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
           "    <visual><origin xyz=\"0 0 -" +
           C + "\"/><geometry><cylinder radius=\"0.02\" length=\"" + std::to_string(2 * c) +
           "\"/></geometry></visual>\n"
           "  </link>\n"
           "  <joint name=\"hinge\" type=\"continuous\"><parent link=\"base\"/><child link=\"rod\"/>\n"
           "    <axis xyz=\"0 1 0\"/></joint>\n"
           "</robot>\n";
  }

  // World quantities at the COM for the state (q, qd, qdd).
  Eigen::Vector3d com(double q) const { return {-c * std::sin(q), 0, -c * std::cos(q)}; }
  Eigen::Vector3d omega(double qd) const { return {0, qd, 0}; }
  Eigen::Vector3d velocity(double q, double qd) const { return {-c * qd * std::cos(q), 0, c * qd * std::sin(q)}; }
  Eigen::Vector3d acceleration(double q, double qd, double qdd) const {
    return {c * (std::sin(q) * qd * qd - std::cos(q) * qdd), 0, c * (std::cos(q) * qd * qd + std::sin(q) * qdd)};
  }
  // f = m a - m g (g = (0, 0, -g)): the force the hinge must exert, gravity included.
  Eigen::Vector3d force(double q, double qd, double qdd) const {
    return m * acceleration(q, qd, qdd) + Eigen::Vector3d(0, 0, m * g);
  }
  // Moment about the COM: Ic qdd about y (no gyroscopic term about a principal axis).
  Eigen::Vector3d moment(double qdd) const { return {0, Ic * qdd, 0}; }
};

}  // namespace dyn::testing
