// Two DH tables field by field, to a relative tolerance (0: bitwise equal numbers); empty when they
// agree, else the first difference. For the DH table and conversion suites.
#pragma once
#include <QString>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "dynscope/io/dh_table.hpp"

namespace dyn::testing {

using dyn::DhRow;
using dyn::DhTable;

// Field by field, to a relative tolerance (0: bitwise equal numbers).
inline QString tableDifference(const DhTable& a, const DhTable& b, double tol) {
  const auto same = [&](double x, double y) { return x == y || std::abs(x - y) <= tol * std::max(1.0, std::abs(y)); };
  const auto sameVec = [&](const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
    return same(x[0], y[0]) && same(x[1], y[1]) && same(x[2], y[2]);
  };
  const auto samePose = [&](const std::optional<dyn::Pose>& x, const std::optional<dyn::Pose>& y) {
    if (x.has_value() != y.has_value()) return false;
    return !x || (sameVec(x->xyz, y->xyz) && sameVec(x->rpy, y->rpy));
  };
  if (a.name != b.name || a.convention != b.convention || a.degrees != b.degrees) return "name, convention or unit";
  if (!sameVec(a.gravity, b.gravity)) return "gravity";
  if (!samePose(a.base, b.base)) return "base";
  if (!samePose(a.tool, b.tool)) return "tool";
  if (a.rows.size() != b.rows.size()) return "number of rows";
  for (size_t i = 0; i < a.rows.size(); ++i) {
    const DhRow &r = a.rows[i], &s = b.rows[i];
    const double x[] = {r.a,        r.alpha,  r.d,       r.theta,    r.lower, r.upper,
                        r.velocity, r.effort, r.damping, r.friction, r.mass};
    const double y[] = {s.a,        s.alpha,  s.d,       s.theta,    s.lower, s.upper,
                        s.velocity, s.effort, s.damping, s.friction, s.mass};
    for (size_t k = 0; k < std::size(x); ++k)
      if (!same(x[k], y[k]))
        return QString("row %1 number %2: %3 vs %4").arg(i + 1).arg(k).arg(x[k], 0, 'g', 17).arg(y[k], 0, 'g', 17);
    if (r.name != s.name || r.prismatic != s.prismatic || r.hasLimits != s.hasLimits || r.hasInertial != s.hasInertial)
      return QString("row %1 name, type or flags").arg(i + 1);
    if (!sameVec(r.com, s.com)) return QString("row %1 com").arg(i + 1);
    for (size_t k = 0; k < 6; ++k)
      if (!same(r.inertia[k], s.inertia[k])) return QString("row %1 inertia %2").arg(i + 1).arg(k);
  }
  if (a.loops.size() != b.loops.size()) return "loops";
  for (size_t k = 0; k < a.loops.size(); ++k) {
    const auto &l = a.loops[k], &m = b.loops[k];
    if (l.name != m.name || l.kind != m.kind || l.link1 != m.link1 || l.link2 != m.link2 ||
        !sameVec(l.origin1.xyz, m.origin1.xyz) || !sameVec(l.origin1.rpy, m.origin1.rpy) ||
        !sameVec(l.origin2.xyz, m.origin2.xyz) || !sameVec(l.origin2.rpy, m.origin2.rpy) || !sameVec(l.axis, m.axis))
      return QString("loop %1").arg(l.name.c_str());
  }
  if (a.actuated.size() != b.actuated.size()) return "actuated";
  for (size_t k = 0; k < a.actuated.size(); ++k)
    if (a.actuated[k].first != b.actuated[k].first) return "actuated";
  return {};
}

}  // namespace dyn::testing
