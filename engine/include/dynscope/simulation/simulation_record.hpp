// What a simulation recorded: per recorded step t, q, qd, qdd, the applied tau (actuators plus
// damping, friction and limits), the total energy and, with compare on, the largest
// |qdd_ABA - qdd_CRBA|; and every time a joint entered a limit. Stored flat, so appending to
// reserved storage never allocates; trajectory() gives the usual SampledTrajectory.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "../model/model.hpp"
#include "../trajectory/sampled_trajectory.hpp"

namespace dyn {

struct LimitEvent {
  double t = 0;
  int dof = 0;    // v index of the limited coordinate
  int joint = 0;  // body index of its joint: model.jointNames[joint] names it
  bool upper = false;
  double position = 0, limit = 0;
};

struct SimulationRecord {
  int nq = 0, nv = 0;
  std::vector<double> t, q, qd, qdd, tau;   // flat, one column (nq or nv values) per sample
  std::vector<double> energy;               // kinetic + potential per sample (empty when not recorded)
  std::vector<double> fdDifference;         // max |qdd_ABA - qdd_CRBA| per sample (compare only)
  std::vector<double> constraintError;      // closed loops: |phi(q)| per sample (2-norm over all rows)
  std::vector<double> constraintRateError;  // closed loops: |phi'(q) qd| per sample
  // Ground contact (settings.ground on): per sample the sum of the normal forces (N), of the friction
  // forces' magnitudes (N), and the deepest penetration (m).
  std::vector<double> contactNormal, contactFriction, penetration;
  // External wrenches or the ground: J^T f per sample (nv values, flat; zeros before they acted; empty
  // when nothing from outside acted), the part of tau that came from outside.
  std::vector<double> tauExternal;
  std::vector<LimitEvent> limitEvents;

  void clear();
  void reserve(int samples);  // also room for samples / 10 limit events
  int samples() const { return int(t.size()); }
  // Keeps samples 0, 2, 4, ... (in place, no allocation); limit events are kept.
  void dropEveryOther();

  SampledTrajectory trajectory() const;     // t, q, qd, qdd as matrices
  Eigen::MatrixXd torques() const;          // nv x n
  Eigen::MatrixXd externalTorques() const;  // nv x n: tauExternal (zeros when it is empty)
  // (E_k - E_0) / |E_0| (or E_k - E_0 when |E_0| < 1e-12): the energy monitor's drift.
  double relativeEnergyDrift(int sample) const;
  double maxRelativeEnergyDrift() const;  // max over samples of |drift|
  double maxFdDifference() const;         // 0 when not compared
  double maxConstraintError() const;      // largest |phi| recorded (0 without loops)
  double maxConstraintRateError() const;  // largest |phi' qd| recorded
  double maxPenetration() const;          // deepest ground penetration recorded (0 without ground)
};

// CSV of a record: t, q names, qd_, qdd_, tau_ (v names), tau_ext_ (v names: J^T f from outside, when
// recorded), and energy, energy_drift,
// fd_difference, phi_norm, phi_dot_norm (closed loops), contact_normal, contact_friction, penetration
// (ground contact) when recorded. Numbers with 17 significant digits.
void writeSimulationCsv(std::ostream& out, const Model& model, const SimulationRecord& record);

}  // namespace dyn
