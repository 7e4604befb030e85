// Built-in demonstration trajectories from the seed papers: Saha's cycloidal joint trajectories
// (S. K. Saha, "Dynamics of Serial Multibody Systems Using the DeNOC Matrices", ASME J. Appl. Mech.
// 66(4), 1999, Sec. 6, eq. 39):
//   theta(t) = theta(0) + (theta(T) - theta(0)) / T [t - (T / 2 pi) sin(2 pi t / T)],  T = 10 s,
// so q̇ = q̈ = 0 at both ends and theta(T/2) is the midpoint.
//  - saha-stanford (Sec. 6.2, robots/stanford_arm.dh, joints R R P R R R): theta_i(0) = 0 except
//    theta_2(0) = 90°, b_3(0) = 0; theta_i(T) = 60° for i != 3, b_3(T) = 0.1 m.
//  - saha-planar3 (Sec. 6.1, robots/planar3.dh): the paper's formula is garbled in our copy of the
//    text, so we use every theta_i from 0 to pi over T = 10 s, as in Saha's textbook and the ReDySim
//    example of the same arm.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "../model/model.hpp"
#include "sampled_trajectory.hpp"

namespace dyn {

enum class DemoTrajectory { SahaStanford, SahaPlanar3 };

// "saha-stanford", "saha-planar3".
const char* demoTrajectoryName(DemoTrajectory demo);
std::optional<DemoTrajectory> demoTrajectoryByName(std::string_view name);

// The definition: per joint (in joint order) its type, start and end value (rad or m), and T.
struct CycloidDemo {
  double period = 10.0;
  std::vector<JointType> types;
  std::vector<double> start, end;
};
CycloidDemo demoDefinition(DemoTrajectory demo);

// Samples the demo at `rate` Hz over [0, T] with analytic q̇ and q̈. The model must have exactly
// the demo's joints, in order and of the same types (one DOF each); throws std::invalid_argument
// naming the mismatch otherwise, or for a rate that is not positive.
SampledTrajectory demoTrajectory(const Model& model, DemoTrajectory demo, double rate = 100.0);

}  // namespace dyn
