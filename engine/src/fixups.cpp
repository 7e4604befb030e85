#include "dynscope/io/fixups.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cstdio>

#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/model_check.hpp"
#include "model_check_context.hpp"

namespace dyn {
namespace {

// BalanceInertias' note on a moving link that has no mass (Info, link and joint set, its hint names
// MassMasslessLinks); MassMasslessLinks, applied after, removes the notes of the links it gives mass.
constexpr const char* kBalanceMasslessNote = "fixup.balance-inertias.massless";

std::string fourDigits(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string moments(const Vec3<double>& e) {
  return "(" + fourDigits(e[0]) + ", " + fourDigits(e[1]) + ", " + fourDigits(e[2]) + ")";
}

Finding change(const RobotDescription& robot, Fixup fixup, int line, std::string element, std::string message) {
  Finding f;
  f.severity = Severity::Info;
  f.code = std::string("fixup.") + fixupName(fixup);
  f.file = robot.sourceFile;
  f.line = line;
  f.element = std::move(element);
  f.message = std::move(message) + " (fix-up " + fixupName(fixup) + ")";
  f.hint = "Changed by the fix-up, not in the file; remove the fix-up to compute with the file's values.";
  return f;
}

// Principal moments made physical: negatives raised to zero, then the two smaller raised equally
// until a + b = c. Sorted ascending in, sorted ascending out (b + d/2 <= c since d <= c - b).
Vec3<double> balanced(Vec3<double> e) {
  e = e.cwiseMax(0.0);
  const double deficit = e[2] - e[0] - e[1];
  if (deficit > 0) {
    e[0] += deficit / 2;
    e[1] += deficit / 2;
  }
  return e;
}

// Where a link's inertial is written (its <inertia>, else its <inertial>, else the link).
int inertialLine(const LinkDesc& link) {
  if (!link.inertial) return link.line;
  return link.inertial->inertiaLine > 0 ? link.inertial->inertiaLine : link.inertial->line;
}

// Balancing cannot give a link mass: for every moving body that still has none (a massless
// subtree: H(q) stays singular), a note that points to the fix-up that can.
std::vector<Finding> masslessNotes(const RobotDescription& robot, bool floatingBase) {
  BuildOptions options;
  options.floatingBase = floatingBase;
  options.check = false;
  const Model model = buildModel(robot, options);
  std::vector<Finding> notes;
  for (int body : model.immobileBodies) {
    const auto link = std::find_if(robot.links.begin(), robot.links.end(),
                                   [&](const LinkDesc& l) { return l.name == model.bodyNames[body]; });
    if (link == robot.links.end()) continue;  // the floating base's "world": no link of the file
    Finding f = change(robot, Fixup::BalanceInertias, inertialLine(*link), "link '" + link->name + "'",
                       "link '" + link->name + "' has no mass: balancing cannot give a massless link mass, so joint '" +
                           model.jointNames[body] + "' still moves none and H(q) stays singular; left as it is");
    f.code = kBalanceMasslessNote;
    f.hint = std::string("Give massless moving links a small mass: the fix-up ") + fixupName(Fixup::MassMasslessLinks) +
             " (Model > Fix-ups > " + fixupTitle(Fixup::MassMasslessLinks) + "; --fix " +
             fixupName(Fixup::MassMasslessLinks) + "), or give the link its <inertial>.";
    f.link = link->name;
    f.joint = model.jointNames[body];
    notes.push_back(std::move(f));
  }
  return notes;
}

std::vector<Finding> balanceInertias(RobotDescription& robot) {
  std::vector<Finding> out;
  for (LinkDesc& link : robot.links) {
    if (!link.inertial) continue;
    InertialDesc& in = *link.inertial;
    // No mass and no inertia: moments such as 1e-35 are the rounding noise of nothing. Balanced,
    // they would stay noise (1e-35 kg m^2 moves nothing); the link is left bit for bit.
    if (check_detail::isMassless(in)) continue;
    const Mat3<double> I = inertiaMatrix(in);
    if (inertiaConsistency(I).physical) continue;
    const Eigen::SelfAdjointEigenSolver<Mat3<double>> es(I);
    const Vec3<double> before = es.eigenvalues(), after = balanced(before);
    const Mat3<double> R = es.eigenvectors();
    const Mat3<double> fixed = R * after.asDiagonal() * R.transpose();  // the principal axes kept
    in.ixx = fixed(0, 0), in.iyy = fixed(1, 1), in.izz = fixed(2, 2);
    in.ixy = fixed(0, 1), in.ixz = fixed(0, 2), in.iyz = fixed(1, 2);
    Finding f = change(robot, Fixup::BalanceInertias, in.inertiaLine > 0 ? in.inertiaLine : in.line,
                       "link '" + link.name + "' <inertial>",
                       "principal moments " + moments(before) + " -> " + moments(after) + " kg m^2");
    f.link = link.name;
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Finding> unlimitDegenerate(RobotDescription& robot) {
  std::vector<Finding> out;
  for (JointDesc& j : robot.joints) {
    // Placeholders are already read as no limit; only the ranges taken literally change.
    if (!hasDegenerateRange(j) || hasPlaceholderLimits(j)) continue;
    j.hasLimits = false;
    Finding f = change(robot, Fixup::UnlimitedDegenerateLimits, j.limitLine > 0 ? j.limitLine : j.line,
                       "joint '" + j.name + "'" + (j.limitLine > 0 ? " <limit>" : ""),
                       "lower = upper = " + fourDigits(j.lower) + " -> no position limits");
    f.joint = j.name;
    f.link = j.child;
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<Finding> massMassless(RobotDescription& robot, bool floatingBase) {
  BuildOptions options;
  options.floatingBase = floatingBase;
  options.check = false;
  const Model model = buildModel(robot, options);
  if (model.immobileBodies.empty()) return {};
  std::vector<double> masses;
  for (const LinkDesc& l : robot.links)
    if (l.inertial && l.inertial->mass > 0) masses.push_back(l.inertial->mass);
  double mass = 1e-3;
  if (!masses.empty()) {
    std::nth_element(masses.begin(), masses.begin() + long(masses.size() / 2), masses.end());
    mass = 0.01 * masses[masses.size() / 2];
  }
  const double moment = 0.4 * mass * kFixupSphereRadius * kFixupSphereRadius;  // uniform sphere: 2/5 m r^2
  std::vector<Finding> out;
  for (int body : model.immobileBodies) {
    const auto link = std::find_if(robot.links.begin(), robot.links.end(),
                                   [&](const LinkDesc& l) { return l.name == model.bodyNames[body]; });
    if (link == robot.links.end()) continue;                    // the floating base's "world": no link of the file
    InertialDesc in = link->inertial.value_or(InertialDesc{});  // keeps a given centre of mass
    if (!link->inertial) in.line = link->line;
    in.mass = mass;
    in.ixx = in.iyy = in.izz = moment;
    in.ixy = in.ixz = in.iyz = 0;
    link->inertial = in;
    Finding f = change(
        robot, Fixup::MassMasslessLinks, in.inertiaLine > 0 ? in.inertiaLine : in.line, "link '" + link->name + "'",
        "no mass -> " + fourDigits(mass) + " kg, " + fourDigits(moment) + " kg m^2 about every axis (a sphere of " +
            fourDigits(kFixupSphereRadius * 100) + " cm), moved by joint '" + model.jointNames[body] + "'");
    f.link = link->name;
    f.joint = model.jointNames[body];
    out.push_back(std::move(f));
  }
  // Balancing, applied before, said these links need this fix-up: they have their mass now.
  std::erase_if(robot.findings, [&](const Finding& note) {
    return note.code == kBalanceMasslessNote &&
           std::any_of(out.begin(), out.end(), [&](const Finding& given) { return given.link == note.link; });
  });
  return out;
}

}  // namespace

const char* fixupName(Fixup fixup) {
  switch (fixup) {
    case Fixup::BalanceInertias:
      return "balance-inertias";
    case Fixup::UnlimitedDegenerateLimits:
      return "unlimited-degenerate-limits";
    case Fixup::MassMasslessLinks:
      return "mass-massless-links";
  }
  return "?";
}

const char* fixupTitle(Fixup fixup) {
  switch (fixup) {
    case Fixup::BalanceInertias:
      return "Balance inertias";
    case Fixup::UnlimitedDegenerateLimits:
      return "Treat degenerate limits as unlimited";
    case Fixup::MassMasslessLinks:
      return "Give massless moving links a small mass";
  }
  return "?";
}

std::optional<Fixup> fixupByName(std::string_view name) {
  for (Fixup f : kAllFixups)
    if (name == fixupName(f)) return f;
  return std::nullopt;
}

std::vector<Finding> applyFixup(RobotDescription& robot, Fixup fixup, bool floatingBase) {
  std::vector<Finding> changes, notes;
  switch (fixup) {
    case Fixup::BalanceInertias:
      changes = balanceInertias(robot);
      notes = masslessNotes(robot, floatingBase);
      break;
    case Fixup::UnlimitedDegenerateLimits:
      changes = unlimitDegenerate(robot);
      break;
    case Fixup::MassMasslessLinks:
      changes = massMassless(robot, floatingBase);
      break;
  }
  if (changes.empty())  // say so: a fix-up asked for is never silent
    robot.findings.push_back(change(robot, fixup, 0, "", "nothing to change"));
  else
    robot.findings.insert(robot.findings.end(), changes.begin(), changes.end());
  robot.findings.insert(robot.findings.end(), notes.begin(), notes.end());
  return changes;
}

}  // namespace dyn
