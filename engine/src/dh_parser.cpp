// DH table (.dh, docs/dh-format.md) -> URDF-shaped RobotDescription.
//
// Shape of the output for row i (1-based) named NAME; every link<i> frame is joint frame i (z = axis):
//   standard: frame<i-1> --NAME (R/P)--> link<i> --fixed link<i>_dh_fixed--> frame<i> (DH frame i, which
//             carries the row's inertial; the model builder merges it into link<i>).
//   modified: link<i-1> --NAME (R/P)--> link<i> = DH frame i (inertial there) + FrameDesc frame<i>.
// DH frame 0 is "base", or "base_dh" fixed to "base" by "base_fixed" when a `base` directive is given.
#include "dynscope/io/dh_parser.hpp"

#include "dynscope/io/utf8.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dyn {
namespace {

using Iso = Eigen::Isometry3d;

// ---------------------------------------------------------------- pose helpers

Iso rotX(double t) { return Iso(Eigen::AngleAxisd(t, Eigen::Vector3d::UnitX())); }
Iso rotZ(double t) { return Iso(Eigen::AngleAxisd(t, Eigen::Vector3d::UnitZ())); }
Iso transX(double a) { return Iso(Eigen::Translation3d(a, 0, 0)); }
Iso transZ(double d) { return Iso(Eigen::Translation3d(0, 0, d)); }

// URDF rpy (R = Rz(yaw) Ry(pitch) Rx(roll)) of a rotation. dyn::matrixToRpy reads roll and yaw from
// entries that all vanish at pitch = +-90 deg (rods along x, Rx(90) Rz(90), ...), so near there round-off
// would pick them; only roll -+ yaw is defined, and we take yaw = 0.
Vec3<double> rotationToRpy(const Mat3<double>& R) {
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

// ---------------------------------------------------------------- parsed rows

struct Row {
  std::string name;
  bool prismatic = false;
  int line = 0;
  std::map<std::string, std::string> given;  // canonical key ('offset' -> theta or d) -> key as written
  // SI units, angles in radians. theta0 and d0 are constants; for the joint variable, the offset added to q.
  double a = 0, alpha = 0, d0 = 0, theta0 = 0;
  double lower = 0, upper = 0, velocity = 0, effort = 0, damping = 0, friction = 0;
  double mass = 0;
  Vec3<double> com = Vec3<double>::Zero();
  std::array<double, 6> inertia{};  // Ixx Iyy Izz Ixy Ixz Iyz
  bool has(const std::string& key) const { return given.count(key) > 0; }
};

struct Table {
  std::string name;
  bool modified = false;
  bool degrees = false;
  Vec3<double> gravity = Vec3<double>(0, 0, -9.81);
  std::optional<std::array<double, 6>> base, tool;  // as written (angle unit applied at the end)
  int baseLine = 0, toolLine = 0;
  std::map<std::string, int> directiveLine;  // for "given twice" and "after the first joint"
  std::vector<Row> rows;
  std::vector<LoopJointDesc> loops;                   // `loop` lines (angles still in the file's unit)
  std::vector<std::pair<std::string, int>> actuated;  // `actuated` lines: joint name, line
};

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {}
  Table parse(const std::string& text);

 private:
  [[noreturn]] void fail(int line, const std::string& element, const std::string& msg) const {
    throw LoadError(file_, line, element, msg);
  }
  void directive(const std::vector<std::string>& tok, int line);
  void jointRow(const std::vector<std::string>& tok, int line);
  void loopRow(const std::vector<std::string>& tok, int line);
  void actuatedRow(const std::vector<std::string>& tok, int line);
  double number(std::string_view s, int line, const std::string& element, const std::string& what) const;
  std::vector<double> numbers(std::string_view csv, int line, const std::string& element, const std::string& key) const;

  std::string file_;
  Table t_;
  std::map<std::string, int> jointLine_;
};

std::vector<std::string> splitWhitespace(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string fmt(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// A finite decimal number, the whole token (from_chars: locale-independent; it rejects a leading '+').
double Parser::number(std::string_view s, int line, const std::string& element, const std::string& what) const {
  std::string_view body = (!s.empty() && s.front() == '+') ? s.substr(1) : s;
  double v = 0;
  const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
  if (body.empty() || ec != std::errc() || end != body.data() + body.size() || !std::isfinite(v))
    fail(line, element, what + "'" + std::string(s) + "' is not a finite number");
  return v;
}

std::vector<double> Parser::numbers(std::string_view csv, int line, const std::string& element,
                                    const std::string& key) const {
  std::vector<double> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = csv.find(',', start);
    const std::string_view item = csv.substr(start, comma == std::string_view::npos ? comma : comma - start);
    out.push_back(number(item, line, element, "'" + key + "': "));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

void Parser::directive(const std::vector<std::string>& tok, int line) {
  const std::string& kw = tok[0];
  const std::string el = "directive '" + kw + "'";
  static const std::map<std::string, std::string> kUsage = {{"name", "name NAME"},
                                                            {"convention", "convention standard|modified"},
                                                            {"angles", "angles deg|rad"},
                                                            {"gravity", "gravity gx gy gz"},
                                                            {"base", "base x y z roll pitch yaw"},
                                                            {"tool", "tool x y z roll pitch yaw"}};
  const auto usage = kUsage.find(kw);
  if (usage == kUsage.end())
    fail(line, el,
         "unknown directive (expected name, convention, angles, gravity, base, tool, joint, loop or actuated)");
  if (!t_.rows.empty())
    fail(line, el, "directives must precede the first joint (line " + std::to_string(t_.rows.front().line) + ")");
  if (auto [it, fresh] = t_.directiveLine.emplace(kw, line); !fresh)
    fail(line, el, "given twice (first on line " + std::to_string(it->second) + ")");
  const std::vector<std::string> args(tok.begin() + 1, tok.end());
  const std::size_t want = kw == "gravity" ? 3 : (kw == "base" || kw == "tool") ? 6 : 1;
  if (args.size() != want)
    fail(line, el,
         "expected '" + usage->second + "' (" + std::to_string(want) + " value" + (want > 1 ? "s" : "") + "), got " +
             std::to_string(args.size()));

  if (kw == "name") {
    t_.name = args[0];
  } else if (kw == "convention") {
    if (args[0] != "standard" && args[0] != "modified")
      fail(line, el, "expected 'standard' or 'modified', got '" + args[0] + "'");
    t_.modified = args[0] == "modified";
  } else if (kw == "angles") {
    if (args[0] != "deg" && args[0] != "rad") fail(line, el, "expected 'deg' or 'rad', got '" + args[0] + "'");
    t_.degrees = args[0] == "deg";
  } else if (kw == "gravity") {
    for (int k = 0; k < 3; ++k) t_.gravity[k] = number(args[k], line, el, "");
  } else {
    std::array<double, 6> v{};
    for (int k = 0; k < 6; ++k) v[k] = number(args[k], line, el, "");
    (kw == "base" ? t_.base : t_.tool) = v;
    (kw == "base" ? t_.baseLine : t_.toolLine) = line;
  }
}

void Parser::jointRow(const std::vector<std::string>& tok, int line) {
  if (tok.size() < 3 || tok[1].find('=') != std::string::npos)
    fail(line, tok.size() == 2 ? "joint '" + tok[1] + "'" : "joint", "expected 'joint NAME TYPE key=value ...'");
  Row row;
  row.name = tok[1];
  row.line = line;
  const std::string el = "joint '" + row.name + "'";
  if (auto [it, fresh] = jointLine_.emplace(row.name, line); !fresh)
    fail(line, el, "duplicate joint name (first on line " + std::to_string(it->second) + ")");
  if (tok[2] != "R" && tok[2] != "P") fail(line, el, "unknown joint type '" + tok[2] + "' (expected R or P)");
  row.prismatic = tok[2] == "P";

  // Directives all precede the joints, so the angle unit is final here.
  const double deg = t_.degrees ? std::numbers::pi / 180 : 1.0;
  const double qUnit = row.prismatic ? 1.0 : deg;  // unit of q: limits and velocity
  struct ScalarKey {
    double Row::*field;
    double unit;
    bool nonNegative;
  };
  const std::map<std::string, ScalarKey> scalars = {{"a", {&Row::a, 1, false}},
                                                    {"alpha", {&Row::alpha, deg, false}},
                                                    {"d", {&Row::d0, 1, false}},
                                                    {"theta", {&Row::theta0, deg, false}},
                                                    {"lower", {&Row::lower, qUnit, false}},
                                                    {"upper", {&Row::upper, qUnit, false}},
                                                    {"velocity", {&Row::velocity, qUnit, true}},
                                                    {"effort", {&Row::effort, 1, true}},
                                                    {"damping", {&Row::damping, 1, true}},
                                                    {"friction", {&Row::friction, 1, true}},
                                                    {"mass", {&Row::mass, 1, true}}};

  for (std::size_t k = 3; k < tok.size(); ++k) {
    const std::size_t eq = tok[k].find('=');
    if (eq == std::string::npos || eq == 0) fail(line, el, "expected key=value, got '" + tok[k] + "'");
    const std::string key = tok[k].substr(0, eq);
    const std::string_view val = std::string_view(tok[k]).substr(eq + 1);
    // 'offset' names the constant added to q: theta for R, d for P.
    const std::string canon = key == "offset" ? (row.prismatic ? "d" : "theta") : key;
    if (auto it = scalars.find(canon); it != scalars.end()) {
      const double v = number(val, line, el, "'" + key + "': ");
      if (it->second.nonNegative && v < 0) fail(line, el, "'" + key + "' must not be negative (got " + fmt(v) + ")");
      row.*(it->second.field) = v * it->second.unit;
    } else if (canon == "com") {
      const std::vector<double> v = numbers(val, line, el, key);
      if (v.size() != 3) fail(line, el, "'com' needs 3 comma-separated values x,y,z, got " + std::to_string(v.size()));
      row.com = Vec3<double>(v[0], v[1], v[2]);
    } else if (canon == "inertia") {
      const std::vector<double> v = numbers(val, line, el, key);
      if (v.size() != 3 && v.size() != 6)
        fail(line, el,
             "'inertia' needs 3 (Ixx,Iyy,Izz) or 6 (Ixx,Iyy,Izz,Ixy,Ixz,Iyz) comma-separated values, got " +
                 std::to_string(v.size()));
      std::copy(v.begin(), v.end(), row.inertia.begin());
    } else {
      fail(line, el, "unknown key '" + key + "'");
    }
    if (auto [it, fresh] = row.given.emplace(canon, key); !fresh)
      fail(line, el,
           it->second == key ? "duplicate key '" + key + "'"
                             : "'" + key + "' and '" + it->second + "' both give the joint offset");
  }
  if (row.has("lower") != row.has("upper"))
    fail(line, el, row.has("lower") ? "'lower' given without 'upper'" : "'upper' given without 'lower'");
  if (row.lower > row.upper)
    fail(line, el, "'lower' (" + fmt(row.lower) + ") is greater than 'upper' (" + fmt(row.upper) + ")");
  t_.rows.push_back(std::move(row));  // an implausible inertia is the model checker's finding
}

// ---------------------------------------------------------------- closed loops (docs/loops.md)

// loop NAME R|P|S|F link1=LINK [xyz1=x,y,z] [rpy1=r,p,y] link2=LINK [xyz2=..] [rpy2=..] [axis=x,y,z]:
// a loop-closure joint between two of the links the table generates (base, link<i>, frame<i>).
void Parser::loopRow(const std::vector<std::string>& tok, int line) {
  if (tok.size() < 3 || tok[1].find('=') != std::string::npos)
    fail(line, tok.size() == 2 ? "loop joint '" + tok[1] + "'" : "loop",
         "expected 'loop NAME R|P|S|F link1=LINK [xyz1=x,y,z] [rpy1=r,p,y] link2=LINK [xyz2=..] [rpy2=..] "
         "[axis=x,y,z]'");
  LoopJointDesc j;
  j.name = tok[1];
  j.line = line;
  const std::string el = "loop joint '" + j.name + "'";
  if (auto [it, fresh] = jointLine_.emplace(j.name, line); !fresh)
    fail(line, el, "duplicate joint name (first on line " + std::to_string(it->second) + ")");
  static const std::map<std::string, JointKind> kinds = {
      {"R", JointKind::Revolute}, {"P", JointKind::Prismatic}, {"S", JointKind::Spherical}, {"F", JointKind::Fixed}};
  const auto kind = kinds.find(tok[2]);
  if (kind == kinds.end()) fail(line, el, "unknown loop joint type '" + tok[2] + "' (expected R, P, S or F)");
  j.kind = kind->second;
  j.axis = Vec3<double>::UnitZ();
  std::set<std::string> given;
  for (std::size_t k = 3; k < tok.size(); ++k) {
    const std::size_t eq = tok[k].find('=');
    if (eq == std::string::npos || eq == 0) fail(line, el, "expected key=value, got '" + tok[k] + "'");
    const std::string key = tok[k].substr(0, eq), val = tok[k].substr(eq + 1);
    if (!given.insert(key).second) fail(line, el, "duplicate key '" + key + "'");
    auto vec3 = [&] {
      const std::vector<double> v = numbers(val, line, el, key);
      if (v.size() != 3)
        fail(line, el, "'" + key + "' needs 3 comma-separated values, got " + std::to_string(v.size()));
      return Vec3<double>(v[0], v[1], v[2]);
    };
    if (key == "link1")
      j.link1 = val;
    else if (key == "link2")
      j.link2 = val;
    else if (key == "xyz1")
      j.origin1.xyz = vec3();
    else if (key == "xyz2")
      j.origin2.xyz = vec3();
    else if (key == "rpy1")
      j.origin1.rpy = vec3();  // in the file's angle unit: converted at the end
    else if (key == "rpy2")
      j.origin2.rpy = vec3();
    else if (key == "axis") {
      j.axis = vec3();
      if (j.axis.norm() < 1e-12) fail(line, el, "'axis' must not be zero");
      j.axis.normalize();
    } else
      fail(line, el, "unknown key '" + key + "' (expected link1, xyz1, rpy1, link2, xyz2, rpy2 or axis)");
  }
  if (j.link1.empty()) fail(line, el, "'link1' is missing");
  if (j.link2.empty()) fail(line, el, "'link2' is missing");
  if (j.link1 == j.link2) fail(line, el, "connects link '" + j.link1 + "' to itself");
  t_.loops.push_back(std::move(j));
}

// actuated NAME [NAME ...]: the joints driven by actuators; the others are passive.
void Parser::actuatedRow(const std::vector<std::string>& tok, int line) {
  if (tok.size() < 2) fail(line, "actuated", "expected 'actuated JOINT [JOINT ...]'");
  for (std::size_t k = 1; k < tok.size(); ++k) t_.actuated.emplace_back(tok[k], line);
}

Table Parser::parse(const std::string& text) {
  std::istringstream in(text);
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    if (line == 1 && raw.starts_with("\xEF\xBB\xBF")) raw.erase(0, 3);  // UTF-8 BOM
    const std::string_view content = std::string_view(raw).substr(0, raw.find('#'));
    if (const std::string problem = utf8Problem("the line", content); !problem.empty()) fail(line, "", problem);
    const std::vector<std::string> tok = splitWhitespace(content);
    if (tok.empty()) continue;
    if (tok[0] == "joint")
      jointRow(tok, line);
    else if (tok[0] == "loop")
      loopRow(tok, line);
    else if (tok[0] == "actuated")
      actuatedRow(tok, line);
    else
      directive(tok, line);
  }
  if (t_.rows.empty()) fail(0, "", "the table has no joints (expected 'joint NAME TYPE key=value ...' lines)");
  return std::move(t_);
}

// ---------------------------------------------------------------- geometry

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

RobotDescription assemble(const Table& t, const std::string& sourceName) {
  RobotDescription robot;
  robot.sourceFile = sourceName;
  robot.name = t.name;
  if (robot.name.empty()) {
    const std::string stem = std::filesystem::path(sourceName).stem().string();
    robot.name = stem.empty() || stem.front() == '<' ? "dh_robot" : stem;
  }
  robot.gravity = t.gravity;
  const double deg = t.degrees ? std::numbers::pi / 180 : 1.0;
  auto directivePose = [&](const std::array<double, 6>& v) {
    Pose p;
    p.xyz = Vec3<double>(v[0], v[1], v[2]);
    p.rpy = Vec3<double>(v[3], v[4], v[5]) * deg;
    return p;
  };

  // The generated fixed joints share the namespace of the rows' joint names.
  std::set<std::string> generated;
  if (t.base) generated.insert("base_fixed");
  for (std::size_t i = 1; !t.modified && i <= t.rows.size(); ++i)
    generated.insert("link" + std::to_string(i) + "_dh_fixed");
  for (const Row& r : t.rows)
    if (generated.count(r.name))
      throw LoadError(sourceName, r.line, "joint '" + r.name + "'", "the name is reserved for a generated fixed joint");

  // Drawing scale from the robot's size, so a desk arm and a gantry both look like stick figures.
  double size = 0;
  for (const Row& r : t.rows) size += std::abs(r.a) + std::abs(r.d0) + (r.prismatic ? std::abs(r.upper) : 0);
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
    addJoint("base_fixed", JointKind::Fixed, "base", "base_dh", directivePose(*t.base), t.baseLine);
  }
  robot.links[frameLink].visuals.push_back(visual("base_plate", toPose(transZ(-(jl / 2 + 0.3 * jr))),
                                                  cylinderShape(1.6 * jr, 0.6 * jr), pal.base, t.baseLine));

  for (std::size_t i = 1; i <= t.rows.size(); ++i) {
    const Row& r = t.rows[i - 1];
    const std::string link = "link" + std::to_string(i), frame = "frame" + std::to_string(i);

    // The joint frame relative to DH frame i-1 at q = 0, and (standard) DH frame i relative to it.
    Iso origin, jointToFrame = Iso::Identity();
    if (t.modified) {
      origin = rotX(r.alpha) * transX(r.a) * rotZ(r.theta0) * transZ(r.d0);
    } else if (r.prismatic) {
      origin = rotZ(r.theta0) * transZ(r.d0);
      jointToFrame = transX(r.a) * rotX(r.alpha);
    } else {
      origin = rotZ(r.theta0);
      jointToFrame = transZ(r.d0) * transX(r.a) * rotX(r.alpha);
    }
    const int li = addLink(link, r.line);
    JointDesc& j = addJoint(r.name, r.prismatic ? JointKind::Prismatic : JointKind::Revolute,
                            robot.links[frameLink].name, link, toPose(origin), r.line);
    j.axis = Vec3<double>::UnitZ();
    j.hasLimits = r.has("lower");
    j.lower = r.lower;
    j.upper = r.upper;
    j.velocity = r.velocity;
    j.effort = r.effort;
    j.damping = r.damping;
    j.friction = r.friction;

    int fi = li;  // the link that is DH frame i
    if (t.modified) {
      robot.frames.push_back(FrameDesc{frame, link, Pose{}, r.line});
    } else {
      fi = addLink(frame, r.line);
      addJoint(link + "_dh_fixed", JointKind::Fixed, link, frame, toPose(jointToFrame), r.line);
    }
    if (r.has("mass") || r.has("com") || r.has("inertia")) {
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
      double back = r.d0 + std::max(0.0, r.upper);
      if (std::abs(back) < 1e-9) back = 2 * jl;
      addRod(L, r.name + "_ram", Vec3<double>(0, 0, -back), Vec3<double>::Zero(), 0.6 * jr, pal.prismatic, r.line);
    } else {
      L.visuals.push_back(visual(r.name + "_joint", Pose{}, cylinderShape(jr, jl), pal.revolute, r.line));
    }
    const Vec3<double> zero = Vec3<double>::Zero();
    if (t.modified) {
      if (!r.prismatic) addRod(L, r.name + "_d", Vec3<double>(0, 0, -r.d0), zero, rr, pal.segment, r.line);
      addRod(robot.links[frameLink], r.name + "_a", zero, Vec3<double>(r.a, 0, 0), rr, pal.segment, r.line);
    } else {
      const double z = r.prismatic ? 0 : r.d0;  // height of the common normal in the joint frame
      addRod(L, r.name + "_d", zero, Vec3<double>(0, 0, z), rr, pal.segment, r.line);
      addRod(L, r.name + "_a", Vec3<double>(0, 0, z), Vec3<double>(r.a, 0, z), rr, pal.segment, r.line);
    }
    frameLink = fi;
  }

  for (LoopJointDesc j : t.loops) {  // the angle unit applies to the frames' roll-pitch-yaw
    j.origin1.rpy *= deg;
    j.origin2.rpy *= deg;
    robot.loopJoints.push_back(std::move(j));
  }
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
  const Pose toolPose = t.tool ? directivePose(*t.tool) : Pose{};
  robot.frames.push_back(FrameDesc{"tool", last.name, toolPose, t.toolLine});
  Shape ball;
  ball.kind = Shape::Kind::Sphere;
  ball.radius = 0.5 * jr;
  last.visuals.push_back(visual("tool", toolPose, ball, pal.tool, t.toolLine));
  robot.defaultEndEffector = last.name;
  return robot;
}

}  // namespace

RobotDescription parseDhString(const std::string& text, const std::string& sourceName) {
  return assemble(Parser(sourceName).parse(text), sourceName);
}

RobotDescription parseDhFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw LoadError(path, 0, "", "file not found");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw LoadError(path, 0, "", "cannot open the file");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parseDhString(ss.str(), path);
}

}  // namespace dyn
