// Torque sources of a simulation: what the actuators apply at (t, q, qd). The passive joint
// effects (damping, friction, limits) come on top, from the simulator settings.
#pragma once
#include <string>
#include <variant>

#include "../model/data.hpp"
#include "../trajectory/sampled_trajectory.hpp"

namespace dyn {

struct PassiveController {};  // tau = 0

struct GravityCompensation {};  // tau = g(q) = RNEA(q, 0, 0): holds any pose at rest

struct ConstantTorque {
  Eigen::VectorXd tau;  // nv
};

// Tracking of a sampled trajectory (interpolated on the joint manifolds) with e = q_ref (-) q,
// ed = qd_ref - qd:
//   Pd:             tau = Kp e + Kd ed                              (gains in N m/rad, N m s/rad)
//   ComputedTorque: tau = RNEA(q, qd, qdd_ref + Kp e + Kd ed)       (gains in 1/s^2, 1/s)
// Computed torque cancels the rigid-body dynamics, so e'' + Kd e' + Kp e = 0 (without damping,
// friction and limits). Before the first and after the last sample the reference is held.
struct PdTracking {
  enum class Mode { Pd, ComputedTorque };
  SampledTrajectory trajectory;  // with qdd (ComputedTorque)
  Eigen::VectorXd kp, kd;        // nv
  Mode mode = Mode::Pd;
};

// Replay of recorded torques, linear between the samples, the first/last row held outside.
struct TorqueReplay {
  Eigen::VectorXd t;    // n, strictly increasing
  Eigen::MatrixXd tau;  // nv x n
};

using Controller = std::variant<PassiveController, GravityCompensation, ConstantTorque, PdTracking, TorqueReplay>;

// Throws std::invalid_argument when the controller does not fit the model (sizes, finite values,
// a trajectory without accelerations for computed torque).
void validate(const Controller& controller, const Model& model);

template <class S>
struct LoopDataTpl;

// The actuator torque at (t, q, qd) into tau (nv). May use data (RNEA); never allocates.
// `scratch` holds at least 3 * nv + nq doubles (PD tracking). With `loops` (a LoopData of a model
// with loop joints), gravity compensation and computed torque use the closed-loop inverse dynamics
// (docs/loops.md): the torques of the actuated joints that hold the pose or make the motion of the
// independent coordinates. The caller zeroes the passive dofs.
void controlTorque(const Controller& controller, const Model& model, Data& data, double t, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& qd, Eigen::VectorXd& tau, Eigen::VectorXd& scratch,
                   LoopDataTpl<double>* loops = nullptr);

// "passive", "gravity", "constant", "pd", "computed-torque", "replay" (as the CLI names them).
const char* controllerName(const Controller& controller);

// Reads a torque CSV: a header row with t and tau_<v name> for every dof (names as in
// dynscope/model/names.hpp; other columns are ignored), one row per sample. Errors name the file
// and line (std::runtime_error).
TorqueReplay readTorqueCsv(const Model& model, const std::string& path);

}  // namespace dyn
