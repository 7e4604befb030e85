// DhTable -> .dh text (docs/dh-format.md), and the validation an editor runs on every cell.
// Numbers are written in their shortest exact decimal form (dh::exactNumber), so the text parses
// back to the same doubles; angles keep the unit the file used.
#include <cctype>
#include <cmath>
#include <numbers>
#include <sstream>

#include "dh_geometry.hpp"
#include "dynscope/io/dh_table.hpp"

namespace dyn {
namespace {

using dh::exactNumber;

std::string plain(double v) {  // for messages
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string poseText(const Pose& p, double deg) {
  return exactNumber(p.xyz.x()) + " " + exactNumber(p.xyz.y()) + " " + exactNumber(p.xyz.z()) + " " +
         exactNumber(p.rpy.x(), deg) + " " + exactNumber(p.rpy.y(), deg) + " " + exactNumber(p.rpy.z(), deg);
}

std::string csv(const Vec3<double>& v, double unit = 1) {
  return exactNumber(v.x(), unit) + "," + exactNumber(v.y(), unit) + "," + exactNumber(v.z(), unit);
}

std::string nameProblem(const std::string& name, const char* what) {
  if (name.empty()) return std::string("'") + what + "' is empty";
  for (char c : name)
    if (std::isspace(static_cast<unsigned char>(c)) || c == '#' || c == '=')
      return std::string("'") + what + "' '" + name + "' contains '" +
             (c == '#' || c == '=' ? std::string(1, c) : "white space") + "' (a name is one token without '#' or '=')";
  return "";
}

std::string valueProblem(const DhRow& r) {
  const std::pair<const char*, double> scalars[] = {{"a", r.a},
                                                    {"alpha", r.alpha},
                                                    {"d", r.d},
                                                    {"theta", r.theta},
                                                    {"lower", r.lower},
                                                    {"upper", r.upper},
                                                    {"velocity", r.velocity},
                                                    {"effort", r.effort},
                                                    {"damping", r.damping},
                                                    {"friction", r.friction},
                                                    {"mass", r.mass}};
  for (const auto& [key, v] : scalars)
    if (!std::isfinite(v)) return std::string("'") + key + "' is not a finite number";
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(r.com[k])) return std::string("'com' ") + "xyz"[k] + " is not a finite number";
  static const char* const kInertia[] = {"Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"};
  for (int k = 0; k < 6; ++k)
    if (!std::isfinite(r.inertia[size_t(k)]))
      return std::string("'inertia' ") + kInertia[k] + " is not a finite number";
  for (const auto& [key, v] : {std::pair{"velocity", r.velocity},
                               {"effort", r.effort},
                               {"damping", r.damping},
                               {"friction", r.friction},
                               {"mass", r.mass}})
    if (v < 0) return std::string("'") + key + "' must not be negative (got " + plain(v) + ")";
  if (r.hasLimits && r.lower > r.upper)
    return "'lower' (" + plain(r.lower) + ") is greater than 'upper' (" + plain(r.upper) + ")";
  return "";
}

}  // namespace

std::string checkDhRow(const DhTable& t, int index) {
  if (index < 0 || index >= int(t.rows.size())) return "no row " + std::to_string(index + 1);
  const DhRow& r = t.rows[size_t(index)];
  if (std::string p = nameProblem(r.name, "name"); !p.empty()) return p;
  for (size_t k = 0; k < t.rows.size(); ++k)
    if (int(k) != index && t.rows[k].name == r.name)
      return "'name' '" + r.name + "' is also the name of row " + std::to_string(k + 1);
  for (const LoopJointDesc& l : t.loops)
    if (l.name == r.name) return "'name' '" + r.name + "' is also the name of loop joint '" + l.name + "'";
  const bool modified = t.convention == DhConvention::Modified;
  bool reserved = t.base && r.name == "base_fixed";
  for (size_t i = 1; !modified && !reserved && i <= t.rows.size(); ++i)
    reserved = r.name == "link" + std::to_string(i) + "_dh_fixed";
  if (reserved) return "'name' '" + r.name + "' is reserved for a generated fixed joint";
  return valueProblem(r);
}

std::string checkDhValue(const DhTable& t, int index, const std::string& key, double value) {
  if (index < 0 || index >= int(t.rows.size())) return "no row " + std::to_string(index + 1);
  DhRow r = t.rows[size_t(index)];
  const std::string canon = key == "offset" ? (r.prismatic ? "d" : "theta") : key;
  const std::pair<const char*, double DhRow::*> fields[] = {{"a", &DhRow::a},
                                                            {"alpha", &DhRow::alpha},
                                                            {"d", &DhRow::d},
                                                            {"theta", &DhRow::theta},
                                                            {"lower", &DhRow::lower},
                                                            {"upper", &DhRow::upper},
                                                            {"velocity", &DhRow::velocity},
                                                            {"effort", &DhRow::effort},
                                                            {"damping", &DhRow::damping},
                                                            {"friction", &DhRow::friction},
                                                            {"mass", &DhRow::mass}};
  for (const auto& [name, field] : fields)
    if (canon == name) {
      r.*field = value;
      if (canon == "lower" || canon == "upper") r.hasLimits = true;
      std::string why = valueProblem(r);
      if (!why.empty() && key == "offset") why = "'offset': " + why;  // the key as the user wrote it
      return why;
    }
  return "unknown key '" + key + "'";
}

std::string checkDhTable(const DhTable& t) {
  if (t.rows.empty()) return "the table has no joints";
  if (!t.name.empty())
    if (std::string p = nameProblem(t.name, "robot name"); !p.empty()) return p;
  if (!t.gravity.allFinite()) return "'gravity' is not a finite vector";
  for (const auto& [what, pose] : {std::pair{"base", &t.base}, {"tool", &t.tool}})
    if (*pose && !((*pose)->xyz.allFinite() && (*pose)->rpy.allFinite()))
      return std::string("'") + what + "' is not a finite pose";
  for (size_t i = 0; i < t.rows.size(); ++i)
    if (std::string p = checkDhRow(t, int(i)); !p.empty())
      return "row " + std::to_string(i + 1) + " ('" + t.rows[i].name + "'): " + p;
  return "";
}

std::string writeDhTable(const DhTable& t) {
  const double deg = t.degrees ? std::numbers::pi / 180 : 1.0;
  std::ostringstream out;
  out << "# DH table written by Dynscope (docs/dh-format.md)\n";
  if (!t.name.empty()) out << "name " << t.name << "\n";
  out << "convention " << (t.convention == DhConvention::Modified ? "modified" : "standard") << "\n";
  if (t.degrees) out << "angles deg\n";
  if (t.gravity != Vec3<double>(0, 0, -9.81))
    out << "gravity " << exactNumber(t.gravity.x()) << " " << exactNumber(t.gravity.y()) << " "
        << exactNumber(t.gravity.z()) << "\n";
  if (t.base) out << "base " << poseText(*t.base, deg) << "\n";
  if (t.tool) out << "tool " << poseText(*t.tool, deg) << "\n";
  for (const DhRow& r : t.rows) {
    const double qUnit = r.prismatic ? 1.0 : deg;
    out << "joint " << r.name << (r.prismatic ? " P" : " R");
    const auto key = [&](const char* k, double v, double unit = 1) {
      if (v != 0) out << " " << k << "=" << exactNumber(v, unit);
    };
    key("a", r.a);
    key("alpha", r.alpha, deg);
    key("d", r.d);
    key("theta", r.theta, deg);
    if (r.hasLimits) out << " lower=" << exactNumber(r.lower, qUnit) << " upper=" << exactNumber(r.upper, qUnit);
    key("velocity", r.velocity, qUnit);
    key("effort", r.effort);
    key("damping", r.damping);
    key("friction", r.friction);
    if (r.hasInertial) {
      out << " mass=" << exactNumber(r.mass);
      if (!r.com.isZero(0)) out << " com=" << csv(r.com);
      const auto& I = r.inertia;
      const bool products = I[3] != 0 || I[4] != 0 || I[5] != 0;
      if (products || I[0] != 0 || I[1] != 0 || I[2] != 0) {
        out << " inertia=" << exactNumber(I[0]) << "," << exactNumber(I[1]) << "," << exactNumber(I[2]);
        if (products) out << "," << exactNumber(I[3]) << "," << exactNumber(I[4]) << "," << exactNumber(I[5]);
      }
    }
    out << "\n";
  }
  for (const LoopJointDesc& l : t.loops) {
    const char kind = l.kind == JointKind::Prismatic   ? 'P'
                      : l.kind == JointKind::Spherical ? 'S'
                      : l.kind == JointKind::Fixed     ? 'F'
                                                       : 'R';
    out << "loop " << l.name << " " << kind << " link1=" << l.link1;
    if (!l.origin1.xyz.isZero(0)) out << " xyz1=" << csv(l.origin1.xyz);
    if (!l.origin1.rpy.isZero(0)) out << " rpy1=" << csv(l.origin1.rpy, deg);
    out << " link2=" << l.link2;
    if (!l.origin2.xyz.isZero(0)) out << " xyz2=" << csv(l.origin2.xyz);
    if (!l.origin2.rpy.isZero(0)) out << " rpy2=" << csv(l.origin2.rpy, deg);
    if (l.axis != Vec3<double>::UnitZ()) out << " axis=" << csv(l.axis);
    out << "\n";
  }
  if (!t.actuated.empty()) {
    out << "actuated";
    for (const auto& a : t.actuated) out << " " << a.first;
    out << "\n";
  }
  return out.str();
}

}  // namespace dyn
