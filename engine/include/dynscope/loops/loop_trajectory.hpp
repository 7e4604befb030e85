// Trajectories of a closed-loop mechanism (review §3.4). A trajectory planned over every tree
// joint (waypoints, a CSV, a demonstration) does not in general satisfy the loop constraints; what
// the mechanism can follow is the motion of its independent coordinates (model.independentDofs()).
// closeTrajectory keeps the independent coordinates' q, q̇, q̈ of every sample and solves for the
// dependent ones:
//   q:  phi(q) = 0 by assembly (dynscope/loops/assembly.hpp), each sample started from the one
//       before, so the whole trajectory stays on one branch of the mechanism;
//   q̇:  phi' q̇ = 0 (eq. 16 differentiated), loopDependentVelocities;
//   q̈:  phi' q̈ = c (eq. 17), as loopInverseDynamics solves it.
// computeTrajectoryDynamics (trajectory_dynamics.hpp) then gives the actuator torques of the
// closed-loop inverse dynamics for such a trajectory.
#pragma once
#include <string>

#include "../trajectory/sampled_trajectory.hpp"
#include "assembly.hpp"

namespace dyn {

struct LoopTrajectoryReport {
  int closed = 0;              // samples made consistent (all of them on success)
  int failedSample = -1;       // the first sample where the loops cannot close (-1: none)
  double maxResidual = 0;      // max |phi| over the closed samples
  double maxRateResidual = 0;  // max |phi' q̇| over the closed samples
  std::string message;         // why failedSample cannot close ("" on success)
  bool ok() const { return failedSample < 0; }
};

// In place. On a tree it changes nothing. At the first sample that cannot close, that sample and
// the ones after it are left as they were and the report says why.
LoopTrajectoryReport closeTrajectory(const Model& model, SampledTrajectory& trajectory);

// One state: q assembled with the independent coordinates held (from q itself; `restarts` as in
// AssemblyOptions: 0 stays on q's branch), q̇ and q̈ made consistent. False (state unchanged) when
// the loops cannot close at q; `why` then says where.
bool closeState(const Model& model, Assembler& assembler, Data& data, LoopData& ld, Eigen::VectorXd& q,
                Eigen::VectorXd& qd, Eigen::VectorXd& qdd, int restarts = 0, std::string* why = nullptr);

}  // namespace dyn
