// The trajectory the window scrubs and plots, and the inverse dynamics along it. Sources:
// waypoints (edited in the GUI, interpolated by the engine's WaypointTrajectory), a CSV file, or
// one of Saha's demonstrations. Any change (waypoints, interpolation, rate, payload, gravity, a
// new robot) re-samples the trajectory and recomputes τ and its decomposition for every sample
// (engine: computeTrajectoryDynamics, parallel). Qt side only: the numbers are the engine's.
//
// Mimic joints (docs/mimic.md): every sample is put on the relations (dyn::enforceMimic), and τ,
// its decomposition and the power are the generalized forces on the independent coordinates in
// the full layout: a master's row holds Gᵀτ (its own torque plus its followers' times their
// multipliers), a follower's row 0 (it has no actuator; the coupling carries its load). The live
// forward-dynamics check is the reduced one, ÿ = H_y⁻¹ Gᵀ(τ − C).
//
// A simulation run with forces from outside (a push, the ground) brings its Jᵀf per sample: τ along
// the samples (plots, power, effort limits) is then the joints' share, ID − Jᵀf, with −Jᵀf a fourth
// term of the decomposition. The values at time() (tauAtTime, the live ID/FD check) stay ID's total.
// A steady wrench on a link (setWrench: a hand holding the tool down) acts along every trajectory
// the same way, Jᵀf at each sample's pose, and at time() too: tauAtTime() is then the joints' share
// and the live forward dynamics takes the wrench, FD(q, q̇, τ + Jᵀf) (docs/external-forces.md).
#pragma once
#include <Eigen/Core>
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "dynscope/algorithms/external_wrench.hpp"
#include "dynscope/formulations/registry.hpp"
#include "dynscope/loops/assembly.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/trajectory/trajectory.hpp"
#include "project/project_file.hpp"

namespace dyn {
template <class S>
struct MimicCouplingTpl;
template <class S>
struct MimicDataTpl;
}  // namespace dyn

class QUndoStack;
class RobotDocument;

class TrajectoryDocument : public QObject {
  Q_OBJECT

 public:
  enum class Source { None, Waypoints, Csv, Demo, Simulation };

  explicit TrajectoryDocument(RobotDocument* robot, QObject* parent = nullptr);
  ~TrajectoryDocument() override;

  RobotDocument* robot() const { return m_robot; }
  Source source() const { return m_source; }
  QString sourceDescription() const;  // "3 waypoints, quintic, 100 Hz", "file.csv", "Saha: Stanford arm"
  QString csvFile() const { return m_csvFile; }
  std::optional<dyn::DemoTrajectory> demo() const { return m_demo; }

  // The sampled trajectory and its dynamics; empty (0 samples) when there is none or it is invalid.
  bool hasTrajectory() const { return m_samples.samples() > 0; }
  const dyn::SampledTrajectory& samples() const { return m_samples; }
  std::vector<double> sampleTimes() const;
  // τ and the joint power for every sample; the decomposition and the energies only after
  // ensureDetails() (three more RNEA passes and an energy pass: computed when a plot or an
  // export needs them, so that an edit recomputes τ alone).
  const dyn::TrajectoryDynamics& dynamics() const { return m_dynamics; }
  void ensureDetails();
  bool detailsReady() const { return m_detailsReady; }
  const dyn::EffortLimitViolations& violations() const { return m_violations; }
  // The model the dynamics use: the robot with the payload and gravity applied.
  const dyn::Model& dynamicsModel() const;
  // Why there is no trajectory (e.g. "waypoint 3: times must increase"); empty when fine.
  QString problem() const { return m_problem; }
  double lastComputeMs() const { return m_lastComputeMs; }

  // Waypoints (Source::Waypoints). Editing them switches the source to waypoints.
  const std::vector<dyn::Waypoint>& waypoints() const { return m_waypoints; }
  void setWaypoints(std::vector<dyn::Waypoint> waypoints);
  // Appends the robot's current pose at `time` (default: 1 s after the last waypoint) and moves the
  // time there, so that the time shown is that of the pose shown.
  void addCurrentPose(std::optional<double> time = std::nullopt);
  dyn::Interpolation interpolation() const { return m_interpolation; }
  void setInterpolation(dyn::Interpolation kind);
  double sampleRate() const { return m_rate; }
  void setSampleRate(double hz);

  // Imported / built-in trajectories. False and a message (file:line) on failure; the current
  // trajectory stays.
  bool importCsv(const QString& path, QString* error = nullptr);
  bool exportCsv(const QString& path, QString* error = nullptr) const;    // t, q, qd_, qdd_
  bool exportDynamicsCsv(const QString& path, QString* error = nullptr);  // t, tau_, the terms, energies
  bool loadDemo(dyn::DemoTrajectory demo, QString* error = nullptr);
  // A recorded simulation run (scrubbed, plotted and exported like any other); the time moves
  // to its end, the state the simulation stopped in. `external`: the joint forces from outside,
  // J^T f per sample (nv x samples: SimulationRecord::externalTorques()), or empty when nothing from
  // outside acted. With it, τ, the power and the effort-limit check are the joints' share
  // τ = M q̈ + c + g − Jᵀf, and the decomposition has the fourth term −Jᵀf (dynamics().external).
  bool setRecorded(dyn::SampledTrajectory run, const QString& label, QString* error = nullptr,
                   Eigen::MatrixXd external = {});
  // J^T f along the samples (nv x samples) of a recorded run with forces from outside; else empty
  // (another source, or a closed-loop mechanism, whose actuator torques do not take it).
  const Eigen::MatrixXd& externalTorques() const { return m_external; }
  bool hasExternalForces() const { return m_external.size() > 0; }
  void clear();

  // Payload on a link and gravity (the model's own unless overridden).
  const std::optional<dyn::Payload>& payload() const { return m_payload; }
  bool setPayload(std::optional<dyn::Payload> payload, QString* error = nullptr);
  // A steady wrench from outside on a link (world axes; the point in the link's coordinates), or
  // none. False and the reason for a link the robot does not have, a value that is not finite, or a
  // closed-loop mechanism (its actuator torques do not take Jᵀf on all dofs).
  const std::optional<dyn::LinkWrench>& wrench() const { return m_wrench; }
  bool setWrench(std::optional<dyn::LinkWrench> wrench, QString* error = nullptr);
  // The wrench as the engine takes it (body, point in body coordinates), for the robot's model; empty
  // when there is none.
  std::vector<dyn::ExternalWrench> engineWrenches() const;
  // J^T f of the steady wrench at time() (zero without one).
  const Eigen::VectorXd& wrenchTauAtTime() const { return m_wrenchTau; }
  Eigen::Vector3d gravity() const;
  void setGravity(std::optional<Eigen::Vector3d> g);  // nullopt: the model's
  bool gravityOverridden() const { return m_gravity.has_value(); }

  // Poses the robot at time t (interpolating between samples) and keeps q̇, q̈ and τ there. Without
  // a trajectory, the values are those of the robot's pose at rest (q̇ = q̈ = 0: τ = g(q)).
  void setTime(double t);
  double time() const { return m_time; }
  const Eigen::VectorXd& qdAtTime() const { return m_qd; }
  const Eigen::VectorXd& qddAtTime() const { return m_qdd; }
  const Eigen::VectorXd& tauAtTime() const { return m_tau; }
  // q̈ = FD(q, q̇, τ) at time() by the forward-dynamics formulation: the live forward dynamics
  // (equal to qddAtTime() up to rounding when both formulations are right).
  const Eigen::VectorXd& forwardQddAtTime() const { return m_qddForward; }
  // Why the live forward dynamics was refused at time() (a pivot of H(q) not positive, naming the
  // joint; algorithms/pivot_check.hpp), empty when it ran. forwardQddAtTime() is then empty.
  const QString& forwardRefusal() const { return m_fdRefusal; }

  // The formulations (dynscope/formulations/registry.hpp, by their command-line names) that compute
  // τ along the trajectory and at time() ("rnea" by default) and q̈ = FD(q, q̇, τ) at time() ("aba").
  // A formulation that refuses the model (floating base, spherical joint) is not taken: false and
  // its message. When a new robot is refused by the chosen one, the default takes over and
  // algorithmNote() says why.
  QString inverseDynamicsAlgorithm() const { return m_idName; }
  QString forwardDynamicsAlgorithm() const { return m_fdName; }
  bool setInverseDynamicsAlgorithm(const QString& name, QString* error = nullptr);
  bool setForwardDynamicsAlgorithm(const QString& name, QString* error = nullptr);
  QString algorithmNote() const { return m_algorithmNote; }

  // Dofs whose |τ| exceeds the effort limit at the sample nearest to time().
  std::vector<int> overLimitDofsAtTime() const;

  // Recomputes now instead of at the next event-loop turn (tests; the project loader).
  void recomputeNow();

  // Unsaved work: what a project stores (ui/project/project_file.hpp) differs from what was last
  // opened or saved. The parts: the trajectory (waypoints, interpolation, rate, an imported CSV, a
  // simulation run, clearing), the payload, the wrench, the gravity, and work restored from an autosave as a
  // whole. Edits through the undo stack count while they lie between its clean state and now, so
  // undoing back to the saved state is unmodified again. A project does not store the robot's
  // pose: an IK drag on the stack (like a joint slider, which is not on it) is no unsaved work.
  enum class Unsaved { Trajectory = 0x1, Payload = 0x2, Gravity = 0x4, Restored = 0x8, Wrench = 0x10 };
  Q_DECLARE_FLAGS(UnsavedParts, Unsaved)
  UnsavedParts unsavedParts() const;
  bool isModified() const { return unsavedParts().toInt() != 0; }
  void setUndoStack(QUndoStack* undo);
  // The current state is what is on disk (a project was opened or saved, a new robot or demo loaded).
  void markSaved();
  void setModified(bool modified);  // true: restored from an autosave (Unsaved::Restored)

 signals:
  void trajectoryChanged();  // new samples (sampleTimes() may have changed)
  void dynamicsChanged();    // new τ / decomposition / energy
  void timeChanged(double t);
  void problemChanged(const QString& problem);
  void algorithmsChanged();    // the inverse- or forward-dynamics formulation changed (or fell back)
  void liveDynamicsChanged();  // tauAtTime() / forwardQddAtTime() were recomputed
  void modifiedChanged(bool modified);

 private:
  void scheduleRecompute();
  void resample();
  void recomputeDynamics();
  void onModelChanged();
  void updateAtTime();
  void computeLiveDynamics();                    // τ and the forward q̈ at (m_q, m_qd, m_qdd)
  bool bindAlgorithms(const dyn::Model& model);  // false: a default took over (m_algorithmNote says why)

  RobotDocument* m_robot;
  Source m_source = Source::None;
  std::vector<dyn::Waypoint> m_waypoints;
  dyn::Interpolation m_interpolation = dyn::Interpolation::Quintic;
  double m_rate = 100.0;
  dyn::SampledTrajectory m_imported;   // Csv / Demo samples as read
  Eigen::MatrixXd m_importedExternal;  // Simulation: J^T f per sample of m_imported (or empty)
  QString m_csvFile;
  QString m_recordLabel;
  std::optional<dyn::DemoTrajectory> m_demo;
  std::optional<dyn::Payload> m_payload;
  std::optional<dyn::LinkWrench> m_wrench;
  Eigen::VectorXd m_wrenchTau;  // J^T f of m_wrench at (m_q)
  std::optional<Eigen::Vector3d> m_gravity;

  std::shared_ptr<const dyn::Model> m_dynModel;  // robot + payload + gravity
  dyn::SampledTrajectory m_samples;
  Eigen::MatrixXd m_external;  // J^T f per sample of m_samples (or empty)
  dyn::TrajectoryDynamics m_dynamics;
  bool m_detailsReady = false;
  dyn::EffortLimitViolations m_violations;
  QString m_problem;
  double m_lastComputeMs = 0;
  bool m_scheduled = false;

  UnsavedParts m_unsaved;           // edits that have no undo
  bool m_reportedModified = false;  // what modifiedChanged said last
  QUndoStack* m_undo = nullptr;
  void markUnsaved(Unsaved part);
  void reportModified();             // modifiedChanged when isModified() changed
  bool undoHasUnsavedEdits() const;  // an edit a project stores between the clean state and now

  double m_time = 0;
  Eigen::VectorXd m_q, m_qd, m_qdd, m_tau, m_qddForward;
  QString m_fdRefusal;
  std::unique_ptr<dyn::Data> m_data;

  QString m_idName = QStringLiteral("rnea"), m_fdName = QStringLiteral("aba");
  dyn::BoundFormulation<double> m_id, m_fd;  // bound to the dynamics model
  QString m_algorithmNote;
  // Closed loops (for *m_dynModel; declared after it, destroyed first): samples made consistent,
  // actuator torques from the closed-loop inverse dynamics.
  std::unique_ptr<dyn::Assembler> m_assembler;
  std::unique_ptr<dyn::LoopData> m_loopData;
  std::shared_ptr<const dyn::MimicCouplingTpl<double>> m_mimic;  // null without followers (or with loops)
  std::shared_ptr<dyn::MimicDataTpl<double>> m_mimicData;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(TrajectoryDocument::UnsavedParts)
