// DhTable -> URDF-shaped RobotDescription (docs/dh-format.md, "What the loader builds").
//
// Shape of the output for row i (1-based) named NAME; every link<i> frame is joint frame i (z = axis):
//   standard: frame<i-1> --NAME (R/P)--> link<i> --fixed link<i>_dh_fixed--> frame<i> (DH frame i, which
//             carries the row's inertial; the model builder merges it into link<i>).
//   modified: link<i-1> --NAME (R/P)--> link<i> = DH frame i (inertial there) + FrameDesc frame<i>.
// DH frame 0 is "base", or "base_dh" fixed to "base" by "base_fixed" when a `base` directive is given.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <unordered_map>

#include "dh_geometry.hpp"
#include "dynscope/io/dh_table.hpp"

namespace dyn {
namespace {

using dh::Iso;
using dh::rotX;
using dh::rotZ;
using dh::toPose;
using dh::transX;
using dh::transZ;

struct Palette {
  Material base{"dh_base", {0.30, 0.30, 0.34, 1.0}, true, ""};
  Material revolute{"dh_revolute", {0.95, 0.55, 0.10, 1.0}, true, ""};
  Material prismatic{"dh_prismatic", {0.20, 0.45, 0.90, 1.0}, true, ""};
  Material segment{"dh_segment", {0.78, 0.78, 0.80, 1.0}, true, ""};
  Material tool{"dh_tool", {0.85, 0.15, 0.15, 1.0}, true, ""};
};

Shape cylinderShape(double radius, double length) {
  Shape s;
  s.kind = Shape::Kind::Cylinder;
  s.radius = radius;
  s.length = length;
  return s;
}

Geometry visual(const std::string& name, const Pose& origin, const Shape& shape, const Material& m, int line) {
  Geometry g;
  g.name = name;
  g.origin = origin;
  g.shape = shape;
  g.material = m;
  g.line = line;
  return g;
}

// A rod from p0 to p1 (link coordinates): a cylinder, whose axis is z, turned onto the segment.
void addRod(LinkDesc& link, const std::string& name, const Vec3<double>& p0, const Vec3<double>& p1, double radius,
            const Material& m, int line) {
  const Vec3<double> v = p1 - p0;
  if (v.norm() < 1e-9) return;
  const Vec3<double> z = v.normalized(), x = z.unitOrthogonal();  // the spin about z is immaterial
  Iso T = Iso::Identity();
  T.linear() << x, z.cross(x), z;
  T.translation() = (p0 + p1) / 2;
  link.visuals.push_back(visual(name, toPose(T), cylinderShape(radius, v.norm()), m, line));
}

// ---------------------------------------------------------------- assembly

RobotDescription assemble(const DhTable& t) {
  const std::string& sourceName = t.sourceName;
  const bool modified = t.convention == DhConvention::Modified;
  RobotDescription robot;
  robot.sourceFile = sourceName;
  robot.name = t.name;
  if (robot.name.empty()) {
    const std::string stem = std::filesystem::path(sourceName).stem().string();
    robot.name = stem.empty() || stem.front() == '<' ? "dh_robot" : stem;
  }
  robot.gravity = t.gravity;

  // The generated fixed joints share the namespace of the rows' joint names.
  std::set<std::string> generated;
  if (t.base) generated.insert("base_fixed");
  for (std::size_t i = 1; !modified && i <= t.rows.size(); ++i)
    generated.insert("link" + std::to_string(i) + "_dh_fixed");
  for (const DhRow& r : t.rows)
    if (generated.count(r.name))
      throw LoadError(sourceName, r.line, "joint '" + r.name + "'", "the name is reserved for a generated fixed joint");

  // Drawing scale from the robot's size, so a desk arm and a gantry both look like stick figures.
  double size = 0;
  for (const DhRow& r : t.rows) size += std::abs(r.a) + std::abs(r.d) + (r.prismatic ? std::abs(r.upper) : 0);
  const double jr = std::clamp(0.04 * size, 0.015, 0.08);  // joint radius: 0.04 m for a 1 m arm
  const double jl = 2.5 * jr;                              // joint length
  const double rr = 0.35 * jr;                             // rod radius
  const Palette pal;
  robot.materials = {pal.base, pal.revolute, pal.prismatic, pal.segment, pal.tool};

  // robot.links grows while we hold positions in it, so links are addressed by index.
  auto addLink = [&](const std::string& name, int line) {
    LinkDesc l;
    l.name = name;
    l.line = line;
    robot.links.push_back(std::move(l));
    return static_cast<int>(robot.links.size()) - 1;
  };
  auto addJoint = [&](const std::string& name, JointKind kind, const std::string& parent, const std::string& child,
                      const Pose& origin, int line) -> JointDesc& {
    JointDesc j;
    j.name = name;
    j.kind = kind;
    j.parent = parent;
    j.child = child;
    j.origin = origin;
    j.line = line;
    robot.joints.push_back(std::move(j));
    return robot.joints.back();
  };

  addLink("base", t.rows.front().line);  // not written in the file: located at the table's first row
  int frameLink = 0;                     // the link that is DH frame i-1 while row i is added
  if (t.base) {
    frameLink = addLink("base_dh", t.baseLine);
    addJoint("base_fixed", JointKind::Fixed, "base", "base_dh", *t.base, t.baseLine);
  }
  robot.links[frameLink].visuals.push_back(visual("base_plate", toPose(transZ(-(jl / 2 + 0.3 * jr))),
                                                  cylinderShape(1.6 * jr, 0.6 * jr), pal.base, t.baseLine));

  for (std::size_t i = 1; i <= t.rows.size(); ++i) {
    const DhRow& r = t.rows[i - 1];
    const std::string link = "link" + std::to_string(i), frame = "frame" + std::to_string(i);

    // The joint frame relative to DH frame i-1 at q = 0, and (standard) DH frame i relative to it.
    Iso origin, jointToFrame = Iso::Identity();
    if (modified) {
      origin = rotX(r.alpha) * transX(r.a) * rotZ(r.theta) * transZ(r.d);
    } else if (r.prismatic) {
      origin = rotZ(r.theta) * transZ(r.d);
      jointToFrame = transX(r.a) * rotX(r.alpha);
    } else {
      origin = rotZ(r.theta);
      jointToFrame = transZ(r.d) * transX(r.a) * rotX(r.alpha);
    }
    const int li = addLink(link, r.line);
    JointDesc& j = addJoint(r.name, r.prismatic ? JointKind::Prismatic : JointKind::Revolute,
                            robot.links[frameLink].name, link, toPose(origin), r.line);
    j.axis = Vec3<double>::UnitZ();
    j.hasLimits = r.hasLimits;
    j.lower = r.lower;
    j.upper = r.upper;
    j.velocity = r.velocity;
    j.effort = r.effort;
    j.damping = r.damping;
    j.friction = r.friction;

    int fi = li;  // the link that is DH frame i
    if (modified) {
      robot.frames.push_back(FrameDesc{frame, link, Pose{}, r.line});
    } else {
      fi = addLink(frame, r.line);
      addJoint(link + "_dh_fixed", JointKind::Fixed, link, frame, toPose(jointToFrame), r.line);
    }
    if (r.hasInertial) {
      InertialDesc in;
      in.origin.xyz = r.com;
      in.mass = r.mass;
      const auto& I = r.inertia;
      in.ixx = I[0], in.iyy = I[1], in.izz = I[2], in.ixy = I[3], in.ixz = I[4], in.iyz = I[5];
      in.line = in.inertiaLine = r.line;
      robot.links[fi].inertial = in;
    }

    // Stick figure, on link<i> in joint-frame coordinates, except the modified a_{i-1} segment, which
    // runs along x of DH frame i-1 and so belongs to the parent link.
    LinkDesc& L = robot.links[li];
    if (r.prismatic) {
      Shape box;
      box.size = Vec3<double>(1.6 * jr, 1.6 * jr, jl);
      L.visuals.push_back(visual(r.name + "_joint", Pose{}, box, pal.prismatic, r.line));
      // The ram reaches back to the previous common normal at q = upper (at q = 0 when unlimited).
      double back = r.d + std::max(0.0, r.upper);
      if (std::abs(back) < 1e-9) back = 2 * jl;
      addRod(L, r.name + "_ram", Vec3<double>(0, 0, -back), Vec3<double>::Zero(), 0.6 * jr, pal.prismatic, r.line);
    } else {
      L.visuals.push_back(visual(r.name + "_joint", Pose{}, cylinderShape(jr, jl), pal.revolute, r.line));
    }
    const Vec3<double> zero = Vec3<double>::Zero();
    if (modified) {
      if (!r.prismatic) addRod(L, r.name + "_d", Vec3<double>(0, 0, -r.d), zero, rr, pal.segment, r.line);
      addRod(robot.links[frameLink], r.name + "_a", zero, Vec3<double>(r.a, 0, 0), rr, pal.segment, r.line);
    } else {
      const double z = r.prismatic ? 0 : r.d;  // height of the common normal in the joint frame
      addRod(L, r.name + "_d", zero, Vec3<double>(0, 0, z), rr, pal.segment, r.line);
      addRod(L, r.name + "_a", Vec3<double>(0, 0, z), Vec3<double>(r.a, 0, z), rr, pal.segment, r.line);
    }
    frameLink = fi;
  }

  robot.loopJoints = t.loops;
  std::unordered_map<std::string, JointDesc*> jointByName;  // one lookup per marker, not a scan
  if (!t.actuated.empty())
    for (JointDesc& d : robot.joints) jointByName.emplace(d.name, &d);
  for (const auto& marker : t.actuated) {
    const std::string& name = marker.first;
    const int line = marker.second;
    const auto it = jointByName.find(name);
    if (it == jointByName.end() || it->second->kind == JointKind::Fixed)
      throw LoadError(sourceName, line, "actuated", "'" + name + "' is not a joint of the table");
    it->second->actuated = true;
  }

  LinkDesc& last = robot.links[frameLink];
  const Pose toolPose = t.tool ? *t.tool : Pose{};
  robot.frames.push_back(FrameDesc{"tool", last.name, toolPose, t.toolLine});
  Shape ball;
  ball.kind = Shape::Kind::Sphere;
  ball.radius = 0.5 * jr;
  last.visuals.push_back(visual("tool", toolPose, ball, pal.tool, t.toolLine));
  // A tool offset (the modified convention's last length is one) hangs on a rod, not in the air.
  addRod(last, "tool_rod", Vec3<double>::Zero(), toolPose.xyz, rr, pal.segment, t.toolLine);
  robot.defaultEndEffector = last.name;
  return robot;
}

}  // namespace

RobotDescription dhTableToDescription(const DhTable& table) { return assemble(table); }

}  // namespace dyn
