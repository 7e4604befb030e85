#include "document/joint_coordinates.hpp"

#include <cmath>
#include <numbers>

#include "dynscope/algorithms/configuration.hpp"

namespace {

constexpr double kPi = std::numbers::pi;
// Editing ranges where the model gives none: a floating base within a few metres of the origin.
constexpr double kDefaultLength = 2.0;

// wrapsIfUnlimited: a revolute or planar angle without limits lives on a circle; a helical
// joint's angle does not (its translation grows with it).
JointCoordinate scalar(const dyn::Model& m, int body, int iq, const QString& label, bool angular,
                       bool wrapsIfUnlimited = false) {
  JointCoordinate c;
  c.kind = JointCoordinate::Kind::Scalar;
  c.body = body;
  c.qIndex = iq;
  c.label = label;
  c.angular = angular;
  const double lo = m.lowerLimit.size() > iq ? m.lowerLimit[iq] : -INFINITY;
  const double hi = m.upperLimit.size() > iq ? m.upperLimit[iq] : INFINITY;
  // A range of no width is a joint that cannot move (as the engine's IK and simulation take it);
  // placeholder limits never get here, the model builder reads them as none.
  c.limited = std::isfinite(lo) && std::isfinite(hi) && hi >= lo;
  if (c.limited) {
    c.lower = lo;
    c.upper = hi;
  } else if (angular) {
    c.lower = -kPi;
    c.upper = kPi;
    c.wraps = wrapsIfUnlimited;
  } else {
    c.lower = -kDefaultLength;
    c.upper = kDefaultLength;
  }
  return c;
}

JointCoordinate rpy(int body, int iq, JointCoordinate::Kind kind) {
  JointCoordinate c;
  c.kind = kind;
  c.body = body;
  c.qIndex = iq;
  c.angular = true;
  c.label = kind == JointCoordinate::Kind::Roll ? "roll" : kind == JointCoordinate::Kind::Pitch ? "pitch" : "yaw";
  // matrixToRpy returns pitch in [-pi/2, pi/2]; roll and yaw go round.
  const bool isPitch = kind == JointCoordinate::Kind::Pitch;
  c.lower = isPitch ? -kPi / 2 : -kPi;
  c.upper = isPitch ? kPi / 2 : kPi;
  c.wraps = !isPitch;
  return c;
}

}  // namespace

std::vector<JointCoordinate> jointCoordinates(const dyn::Model& m) {
  std::vector<JointCoordinate> out;
  for (int i = 1; i <= m.N; ++i) {
    const dyn::JointModel<double>& J = m.joints[i];
    const int iq = J.idx_q;
    std::vector<JointCoordinate> cs;
    switch (J.type) {
      case dyn::JointType::Revolute:
        cs.push_back(scalar(m, i, iq, "", true, true));
        break;
      case dyn::JointType::Helical:
        cs.push_back(scalar(m, i, iq, "", true));
        break;
      case dyn::JointType::Prismatic:
        cs.push_back(scalar(m, i, iq, "", false));
        break;
      case dyn::JointType::Planar:
        cs.push_back(scalar(m, i, iq, "x", false));
        cs.push_back(scalar(m, i, iq + 1, "y", false));
        cs.push_back(scalar(m, i, iq + 2, "θ", true, true));
        break;
      case dyn::JointType::Spherical:
        for (auto k : {JointCoordinate::Kind::Roll, JointCoordinate::Kind::Pitch, JointCoordinate::Kind::Yaw})
          cs.push_back(rpy(i, iq, k));
        break;
      case dyn::JointType::Floating:
        cs.push_back(scalar(m, i, iq, "x", false));
        cs.push_back(scalar(m, i, iq + 1, "y", false));
        cs.push_back(scalar(m, i, iq + 2, "z", false));
        for (auto k : {JointCoordinate::Kind::Roll, JointCoordinate::Kind::Pitch, JointCoordinate::Kind::Yaw})
          cs.push_back(rpy(i, iq + 3, k));
        break;
    }
    // The engine marks continuous revolute joints explicitly: they wrap whatever the file's limits say.
    for (auto& c : cs) {
      c.jointName = QString::fromStdString(m.jointNames[i]);
      c.jointType = QString::fromLatin1(dyn::jointTypeName(J.type));
      if (J.type == dyn::JointType::Revolute && J.continuous && c.kind == JointCoordinate::Kind::Scalar && c.angular) {
        c.wraps = true;
        c.limited = false;
        c.lower = -kPi;
        c.upper = kPi;
      }
      out.push_back(c);
    }
  }
  return out;
}

double wrapAngle(double a) {
  if (!std::isfinite(a)) return a;
  double r = std::remainder(a, 2 * kPi);  // in [-pi, pi]
  if (r <= -kPi) r += 2 * kPi;
  return r;
}

Eigen::Vector3d quaternionToRpy(const Eigen::Vector4d& xyzw) {
  return dyn::matrixToRpy<double>(dyn::quaternionToMatrix<double>(xyzw));
}

Eigen::Vector4d rpyToQuaternion(const Eigen::Vector3d& r) {
  return dyn::matrixToQuaternion<double>(dyn::rpyToMatrix<double>(r.x(), r.y(), r.z()));
}

double coordinateValue(const JointCoordinate& c, const Eigen::VectorXd& q) {
  switch (c.kind) {
    case JointCoordinate::Kind::Scalar:
      return q[c.qIndex];
    case JointCoordinate::Kind::Roll:
      return quaternionToRpy(q.segment<4>(c.qIndex)).x();
    case JointCoordinate::Kind::Pitch:
      return quaternionToRpy(q.segment<4>(c.qIndex)).y();
    case JointCoordinate::Kind::Yaw:
      return quaternionToRpy(q.segment<4>(c.qIndex)).z();
  }
  return 0;
}

int coordinateDof(const dyn::Model& m, const JointCoordinate& c) {
  const dyn::JointModel<double>& J = m.joints[c.body];
  if (c.kind != JointCoordinate::Kind::Scalar) return J.idx_v + int(c.kind) - int(JointCoordinate::Kind::Roll);
  return J.idx_v + c.qIndex - J.idx_q + (J.type == dyn::JointType::Floating ? 3 : 0);
}
