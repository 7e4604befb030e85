// Explicit fix-ups of a robot description, never applied silently: each returns one Info finding
// (code "fixup.<name>") per change, naming the link or joint, its line and the values before and
// after, and appends them to robot.findings, so the log, the Model check panel and the CLI list
// them (checkModel starts with the description's findings). Projects store the fix-ups applied
// (ui/project/project_file.hpp); docs/model-check.md describes each.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "finding.hpp"
#include "robot_description.hpp"

namespace dyn {

enum class Fixup {
  // Every inertia the checker calls inconsistent: negative principal moments raised to zero, then the
  // two smaller moments raised by equal amounts until a + b = c (the principal axes kept).
  BalanceInertias,
  // Every revolute or prismatic joint whose range has no width (lower = upper) becomes unlimited.
  UnlimitedDegenerateLimits,
  // Every link of a massless moving subtree gets a small mass: 1 % of the median link mass (1 g when
  // no link has mass), as a uniform sphere of radius 2 cm at the link's origin.
  MassMasslessLinks,
};
inline constexpr Fixup kAllFixups[] = {Fixup::BalanceInertias, Fixup::UnlimitedDegenerateLimits,
                                       Fixup::MassMasslessLinks};

// "balance-inertias", "unlimited-degenerate-limits", "mass-massless-links" (CLI --fix, project files).
const char* fixupName(Fixup fixup);
// "Balance inertias", ... (menus).
const char* fixupTitle(Fixup fixup);
std::optional<Fixup> fixupByName(std::string_view name);

// Applies one fix-up and returns its changes. When there is nothing to change, a note saying so
// is appended to robot.findings (and nothing returned). floatingBase: as the model will be built
// (it decides which bodies move).
std::vector<Finding> applyFixup(RobotDescription& robot, Fixup fixup, bool floatingBase = false);

// The radius of the sphere MassMasslessLinks gives a link, in metres.
inline constexpr double kFixupSphereRadius = 0.02;

}  // namespace dyn
