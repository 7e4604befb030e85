// MuJoCo's frame rules (MJCF reference, "Frame orientations"): quat is w x y z and is normalised;
// axisangle, euler and the angles of a joint are in the compiler's unit (degrees unless
// angle="radian"); euler follows eulerseq, a lowercase letter rotating about the moving axes
// (intrinsic) and an uppercase one about the fixed axes (extrinsic); xyaxes takes x and the part of y
// orthogonal to it; zaxis (and fromto) turn z onto a direction by the shortest arc.
#include <cmath>
#include <numbers>

#include "dynscope/spatial/scalar.hpp"
#include "mjcf_reader.hpp"

namespace dyn::mjcf {
namespace {

Eigen::Vector3d unit(Reader& reader, const XMLElement* el, const char* name, const std::vector<double>& v) {
  const Eigen::Vector3d a(v[0], v[1], v[2]);
  if (!(a.norm() > 1e-12))
    reader.fail(el, "<" + std::string(el->Name()) + ">", std::string(name) + ": the direction must not be zero");
  return a.normalized();
}

Eigen::Matrix3d axisRotation(char axis, double angle) {
  const int k = axis == 'x' || axis == 'X' ? 0 : axis == 'y' || axis == 'Y' ? 1 : 2;
  return Eigen::AngleAxisd(angle, Eigen::Vector3d::Unit(k)).toRotationMatrix();
}

}  // namespace

Eigen::Matrix3d rotationZTo(const Eigen::Vector3d& v) {
  const Eigen::Vector3d z = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d axis = z.cross(v);
  const double s = axis.norm();
  if (s < 1e-10)
    axis = Eigen::Vector3d::UnitX();  // parallel or opposite: MuJoCo turns about x
  else
    axis /= s;
  return Eigen::AngleAxisd(std::atan2(s, v.z()), axis).toRotationMatrix();
}

Eigen::Matrix3d eulerRotation(const Reader& reader, const Eigen::Vector3d& e) {
  const double unitAngle = reader.compiler.degrees ? std::numbers::pi / 180 : 1.0;
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  for (int i = 0; i < 3; ++i) {
    const char axis = reader.compiler.eulerseq[size_t(i)];
    const Eigen::Matrix3d Ri = axisRotation(axis, e[i] * unitAngle);
    R = std::islower(static_cast<unsigned char>(axis)) ? Eigen::Matrix3d(R * Ri) : Eigen::Matrix3d(Ri * R);
  }
  return R;
}

Eigen::Matrix3d orientation(Reader& reader, const XMLElement* el, const std::string& tag,
                            const std::string& childclass) {
  static const char* kinds[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  // The element's own specifier wins over one its default class gives.
  const char* which = nullptr;
  const char* value = nullptr;
  for (int pass = 0; pass < 2 && !value; ++pass) {
    if (pass == 1 && tag.empty()) break;
    for (const char* k : kinds) {
      const char* v = pass == 0 ? el->Attribute(k) : reader.get(el, k, tag, childclass);
      if (!v) continue;
      if (pass == 0) reader.markRead(el, k);
      if (value && pass == 0)
        reader.note(Severity::Warning, "mjcf.orientation_repeated", el, "<" + std::string(el->Name()) + ">",
                    std::string("both ") + which + " and " + k + " give the orientation; " + which + " is used",
                    "MuJoCo refuses an element with two orientation specifiers: keep one.");
      if (!value) {
        which = k;
        value = v;
      }
    }
  }
  if (!value) return Eigen::Matrix3d::Identity();
  const std::string kind = which;
  const double unitAngle = reader.compiler.degrees ? std::numbers::pi / 180 : 1.0;
  if (kind == "quat") {
    const std::vector<double> q = reader.numbers(el, "quat", value, 4);
    Eigen::Quaterniond quat(q[0], q[1], q[2], q[3]);
    if (!(quat.norm() > 1e-12)) reader.fail(el, "<" + std::string(el->Name()) + ">", "quat: the quaternion is zero");
    return quat.normalized().toRotationMatrix();
  }
  if (kind == "axisangle") {
    const std::vector<double> a = reader.numbers(el, "axisangle", value, 4);
    return Eigen::AngleAxisd(a[3] * unitAngle, unit(reader, el, "axisangle", a)).toRotationMatrix();
  }
  if (kind == "euler") {
    const std::vector<double> e = reader.numbers(el, "euler", value, 3);
    return eulerRotation(reader, Eigen::Vector3d(e[0], e[1], e[2]));
  }
  if (kind == "xyaxes") {
    const std::vector<double> a = reader.numbers(el, "xyaxes", value, 6);
    const Eigen::Vector3d x = unit(reader, el, "xyaxes", a);
    Eigen::Vector3d y(a[3], a[4], a[5]);
    y -= x * x.dot(y);
    if (!(y.norm() > 1e-12))
      reader.fail(el, "<" + std::string(el->Name()) + ">", "xyaxes: the y axis is parallel to the x axis");
    y.normalize();
    Eigen::Matrix3d R;
    R << x, y, x.cross(y);
    return R;
  }
  const std::vector<double> z = reader.numbers(el, "zaxis", value, 3);
  return rotationZTo(unit(reader, el, "zaxis", z));
}

Iso framePose(Reader& reader, const XMLElement* el, const std::string& tag, const std::string& childclass) {
  Iso T = Iso::Identity();
  const char* pos = el->Attribute("pos");
  if (!pos && !tag.empty()) pos = reader.get(el, "pos", tag, childclass);
  if (el->Attribute("pos")) reader.markRead(el, "pos");
  if (pos) {
    const std::vector<double> p = reader.numbers(el, "pos", pos, 3);
    T.translation() = Eigen::Vector3d(p[0], p[1], p[2]);
  }
  T.linear() = orientation(reader, el, tag, childclass);
  return T;
}

Pose toPose(const Iso& T) {
  Pose p;
  p.xyz = T.translation();
  const Eigen::Matrix3d R = T.linear();
  // Near pitch +-90 deg only roll - yaw is defined and matrixToRpy would read it from round-off.
  if (std::hypot(R(0, 0), R(1, 0)) > 1e-8) {
    p.rpy = matrixToRpy<double>(R);
  } else {
    constexpr double kHalfPi = std::numbers::pi / 2;
    p.rpy = R(2, 0) < 0 ? Vec3<double>(std::atan2(R(0, 1), R(1, 1)), kHalfPi, 0)
                        : Vec3<double>(std::atan2(-R(0, 1), R(1, 1)), -kHalfPi, 0);
  }
  return p;
}

Iso fromPose(const Pose& p) {
  Iso T = Iso::Identity();
  T.linear() = p.rotation();
  T.translation() = p.xyz;
  return T;
}

}  // namespace dyn::mjcf
