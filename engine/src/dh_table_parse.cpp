// Reader of the .dh text (docs/dh-format.md) into a DhTable: every mistake is a LoadError at its
// line, with the element (directive or joint) and what is wrong.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/utf8.hpp"

namespace dyn {
namespace {

class DhTableParser {
 public:
  explicit DhTableParser(std::string file) : file_(std::move(file)) {}
  DhTable parse(const std::string& text);

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
  DhTable t_;
  std::map<std::string, int> jointLine_, directiveLine_;
  std::optional<std::array<double, 6>> base_, tool_;  // as written: the angle unit is applied at the end
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
double DhTableParser::number(std::string_view s, int line, const std::string& element, const std::string& what) const {
  std::string_view body = (!s.empty() && s.front() == '+') ? s.substr(1) : s;
  double v = 0;
  const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
  if (body.empty() || ec != std::errc() || end != body.data() + body.size() || !std::isfinite(v))
    fail(line, element, what + "'" + std::string(s) + "' is not a finite number");
  return v;
}

std::vector<double> DhTableParser::numbers(std::string_view csv, int line, const std::string& element,
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

void DhTableParser::directive(const std::vector<std::string>& tok, int line) {
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
  if (auto [it, fresh] = directiveLine_.emplace(kw, line); !fresh)
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
    t_.convention = args[0] == "modified" ? DhConvention::Modified : DhConvention::Standard;
  } else if (kw == "angles") {
    if (args[0] != "deg" && args[0] != "rad") fail(line, el, "expected 'deg' or 'rad', got '" + args[0] + "'");
    t_.degrees = args[0] == "deg";
  } else if (kw == "gravity") {
    for (int k = 0; k < 3; ++k) t_.gravity[k] = number(args[k], line, el, "");
  } else {
    std::array<double, 6> v{};
    for (int k = 0; k < 6; ++k) v[k] = number(args[k], line, el, "");
    (kw == "base" ? base_ : tool_) = v;
    (kw == "base" ? t_.baseLine : t_.toolLine) = line;
  }
}

void DhTableParser::jointRow(const std::vector<std::string>& tok, int line) {
  if (tok.size() < 3 || tok[1].find('=') != std::string::npos)
    fail(line, tok.size() == 2 ? "joint '" + tok[1] + "'" : "joint", "expected 'joint NAME TYPE key=value ...'");
  DhRow row;
  std::map<std::string, std::string> written;  // canonical key -> key as written
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
    double DhRow::*field;
    double unit;
    bool nonNegative;
  };
  const std::map<std::string, ScalarKey> scalars = {{"a", {&DhRow::a, 1, false}},
                                                    {"alpha", {&DhRow::alpha, deg, false}},
                                                    {"d", {&DhRow::d, 1, false}},
                                                    {"theta", {&DhRow::theta, deg, false}},
                                                    {"lower", {&DhRow::lower, qUnit, false}},
                                                    {"upper", {&DhRow::upper, qUnit, false}},
                                                    {"velocity", {&DhRow::velocity, qUnit, true}},
                                                    {"effort", {&DhRow::effort, 1, true}},
                                                    {"damping", {&DhRow::damping, 1, true}},
                                                    {"friction", {&DhRow::friction, 1, true}},
                                                    {"mass", {&DhRow::mass, 1, true}}};

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
    if (auto [it, fresh] = written.emplace(canon, key); !fresh)
      fail(line, el,
           it->second == key ? "duplicate key '" + key + "'"
                             : "'" + key + "' and '" + it->second + "' both give the joint offset");
  }
  const auto has = [&](const char* key) { return written.count(key) > 0; };
  if (has("lower") != has("upper"))
    fail(line, el, has("lower") ? "'lower' given without 'upper'" : "'upper' given without 'lower'");
  row.hasLimits = has("lower");
  row.hasInertial = has("mass") || has("com") || has("inertia");
  if (row.lower > row.upper)
    fail(line, el, "'lower' (" + fmt(row.lower) + ") is greater than 'upper' (" + fmt(row.upper) + ")");
  t_.rows.push_back(std::move(row));  // an implausible inertia is the model checker's finding
}

// ---------------------------------------------------------------- closed loops (docs/loops.md)

// loop NAME R|P|S|F link1=LINK [xyz1=x,y,z] [rpy1=r,p,y] link2=LINK [xyz2=..] [rpy2=..] [axis=x,y,z]:
// a loop-closure joint between two of the links the table generates (base, link<i>, frame<i>).
void DhTableParser::loopRow(const std::vector<std::string>& tok, int line) {
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
void DhTableParser::actuatedRow(const std::vector<std::string>& tok, int line) {
  if (tok.size() < 2) fail(line, "actuated", "expected 'actuated JOINT [JOINT ...]'");
  for (std::size_t k = 1; k < tok.size(); ++k) t_.actuated.emplace_back(tok[k], line);
}

DhTable DhTableParser::parse(const std::string& text) {
  t_.sourceName = file_;
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
  // Directives all precede the joints, but `angles` may follow `base`: units applied now.
  const double deg = t_.degrees ? std::numbers::pi / 180 : 1.0;
  const auto pose = [&](const std::array<double, 6>& v) {
    Pose p;
    p.xyz = Vec3<double>(v[0], v[1], v[2]);
    p.rpy = Vec3<double>(v[3], v[4], v[5]) * deg;
    return p;
  };
  if (base_) t_.base = pose(*base_);
  if (tool_) t_.tool = pose(*tool_);
  for (LoopJointDesc& j : t_.loops) {
    j.origin1.rpy *= deg;
    j.origin2.rpy *= deg;
  }
  return std::move(t_);
}

}  // namespace

DhTable parseDhTable(const std::string& text, const std::string& sourceName) {
  return DhTableParser(sourceName).parse(text);
}

}  // namespace dyn
