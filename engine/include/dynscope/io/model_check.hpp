// The model checker: everything about a robot that loads but is implausible, with severity,
// location, message and hint (finding.hpp). Real robot files carry slightly inconsistent
// inertias, placeholder limits and massless dummy links; they load, the algorithms compute with
// the values as given, and the checker says what is off, by how much and what it means for the
// dynamics. docs/model-check.md documents every check, its code and its threshold.
#pragma once
#include <string>
#include <vector>

#include "../model/model.hpp"
#include "finding.hpp"
#include "robot_description.hpp"

namespace dyn {

// Thresholds (docs/model-check.md gives the reasons).
namespace check_limits {
// An inertia is inconsistent when it misses positive semi-definiteness or the triangle inequality
// by more than this fraction of its scale |a| + |b| + |c|: less is rounding noise, not even a note.
inline constexpr double kInertiaNoise = 1e-9;
// cond(H) from which forward dynamics loses half of the 16 digits of a double.
inline constexpr double kConditionWarning = 1e8;
// Neighbouring moving bodies whose masses (largest principal moments) differ by these factors.
inline constexpr double kMassRatio = 1e3;
inline constexpr double kInertiaRatio = 1e4;
// cond(H) takes a dense eigenvalue decomposition, O(nv^3): skipped above this many dofs.
inline constexpr int kConditionMaxDofs = 300;
}  // namespace check_limits

struct CheckOptions {
  bool meshes = true;  // look for the mesh files (resolveMeshPath)
};

// All findings about a model built from `description` (which gives the file, the lines and the
// values as written; without it the checks run on the model alone, with no lines): the
// description's own findings (parser notes, fix-ups applied) first, then inertias, masses,
// massless moving subtrees, limits, mimic joints, names, meshes and conditioning (cond(H) at the
// neutral pose, clamped into the limits; mass and inertia ratios of neighbouring bodies).
std::vector<Finding> checkModel(const Model& model, const RobotDescription* description = nullptr,
                                const CheckOptions& options = {});

// The physical consistency of a rotational inertia about the centre of mass.
struct InertiaConsistency {
  Vec3<double> moments = Vec3<double>::Zero();  // principal moments a <= b <= c
  double negative = 0;                          // how far a lies below zero (0 when a >= 0)
  double deficit = 0;                           // c - (a + b) when positive: the triangle inequality's shortfall
  bool physical = true;                         // both within kInertiaNoise * (|a| + |b| + |c|)
};
InertiaConsistency inertiaConsistency(const Mat3<double>& Ic);
Mat3<double> inertiaMatrix(const InertialDesc& in);  // the symmetric matrix of ixx .. izz

// Limits. A position range of no width (lower = upper) with effort = velocity = 0 says nothing at
// all: a placeholder of a generated file, treated as no <limit> (unlimited, no effort or velocity
// limit), like the zeros of effort and velocity alone. Any other range of no width is degenerate:
// taken as given (the joint cannot move), until the fix-up unlimited-degenerate-limits frees it.
bool hasPlaceholderLimits(const JointDesc& joint);
bool hasDegenerateRange(const JointDesc& joint);  // placeholders included

// The bodies whose joint moves no mass or inertia: their whole subtree has none (m = 0, Ibar = 0),
// so H(q) has a zero row at every pose (Model::immobileBodies).
std::vector<int> findImmobileBodies(const Model& model);

// Why forward dynamics cannot run on this model (the first joint that moves no mass, named), or
// an empty string when it can. The simulator and the CLI refuse with this message.
std::string forwardDynamicsRefusal(const Model& model);

}  // namespace dyn
