// Trajectories of a model with mimic joints (docs/mimic.md): the samples made to obey the relations,
// and per-dof force histories given to the independent coordinates. Both keep the full-coordinate
// layout (nq or nv rows), so plots, CSV and playback need no second layout.
#pragma once
#include <Eigen/Core>

#include "../model/mimic_coupling.hpp"
#include "sampled_trajectory.hpp"

namespace dyn {

// Every sample onto the relations: q = G_q y + b, qd = G yd, qdd = G ydd with y, yd, ydd the
// independent entries of the sample (a follower's own values, e.g. from a CSV, are replaced).
void enforceMimic(const MimicCoupling& c, SampledTrajectory& trajectory);

// Column by column, a force per full dof (nv x n) as the generalized force on the independent
// coordinates, in the full layout: an independent dof's row becomes its entry of G^T f (its own
// force plus each follower's times the multiplier), a follower's row 0 (the coupling carries its
// load to the master; it has no actuator of its own). Linear, so M qdd + c + g = tau is kept.
void forcesOnIndependentDofs(const MimicCoupling& c, Eigen::MatrixXd& perDof);
void forcesOnIndependentDofs(const MimicCoupling& c, Eigen::VectorXd& perDof);

}  // namespace dyn
