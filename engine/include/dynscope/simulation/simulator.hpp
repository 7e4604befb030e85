// Forward-dynamics simulation of a model from a state (t, q, qd): integrates qdd = FD(q, qd, tau)
// with tau = controller + damping + friction + limit forces, records the run and watches the
// energy and for divergence. Closed-loop mechanisms (docs/loops.md) use the loop method of the
// settings with Baumgarte stabilization and project each new state back onto the constraints;
// the controller drives the actuated dofs only. Mimic joints (docs/mimic.md; without closed loops)
// make the state (q, qd) = (G_q y + b, G yd): the forward dynamics is the reduced one on y
// (mimic_coupling.hpp: ydd = H_y^-1 G^T (tau - C), qdd = G ydd) and each new state is re-expanded
// from its independent entries, so the followers move with their masters. No Qt: the GUI drives step()/advance() from a
// worker thread (one Simulator per thread). After construction and reset, step() does not allocate (with the record
// reserved, see SimulationRecord::reserve). Details: docs/simulation.md.
#pragma once
#include <atomic>
#include <functional>
#include <string>

#include "../algorithms/external_wrench.hpp"
#include "../loops/loop_data.hpp"
#include "../model/data.hpp"
#include "../model/mimic_coupling.hpp"
#include "controller.hpp"
#include "ground_contact.hpp"
#include "simulation_record.hpp"
#include "simulation_settings.hpp"

namespace dyn {

enum class SimulationStatus {
  Ok,         // the step(s) were taken
  Diverged,   // NaN/inf, a velocity above the bound, or forward dynamics refused at a state (lastError()
              // names the joint whose pivot is not positive): the state is the last good one
  Cancelled,  // advance() was cancelled; the state is consistent (whole steps only)
};

struct SimulationStats {
  long steps = 0;        // step() calls that succeeded
  long subSteps = 0;     // accepted integrator steps (Dormand-Prince: several per step())
  long rejected = 0;     // Dormand-Prince steps rejected by the error control (not those cut back
                         // to a joint-limit switch they passed, whose evaluations still count)
  long evaluations = 0;  // forward-dynamics evaluations
  // Closed loops: accepted steps whose projection onto phi = 0 stopped above settings().projectionTolerance
  // after settings().projectionIterations Newton steps, and the largest max |phi| they left.
  long projectionFailures = 0;
  double worstProjectionResidual = 0;
};

class Simulator {
 public:
  // Copies the model. Throws std::invalid_argument for bad settings or controller,
  // std::runtime_error when the model has joints that move no mass (H(q) singular), and
  // ForwardDynamicsError (algorithms/pivot_check.hpp) naming the joint where H(q) at the neutral pose
  // or at the initial state is not positive definite (so does reset()).
  Simulator(const Model& model, const SimulationSettings& settings = {}, Controller controller = PassiveController{});

  // Back to t = 0 at (q0, qd0): sizes, finite values, non-zero quaternions checked (naming the
  // argument); quaternions are normalised. Closed loops: q0 is assembled (the nearest assembled
  // configuration; std::invalid_argument naming the loop joint when the loops cannot close) and qd0
  // projected onto the constraints. Clears the record and records the initial state.
  void reset(const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0);
  void reset();  // model.home() (neutral, or the assembled reference of a closed loop) at rest

  // One step of settings().dt (Dormand-Prince: as many adaptive sub-steps as the tolerance needs).
  SimulationStatus step();
  // Steps until t has advanced by `duration` (rounded to whole steps); polls cancel between steps
  // and calls progress(fraction) every ~1% when given.
  SimulationStatus advance(double duration, const std::atomic<bool>* cancel = nullptr,
                           const std::function<void(double)>& progress = {});

  void setSettings(const SimulationSettings& settings);  // validated; keeps the state and record
  void setController(Controller controller);             // validated; keeps the state and record
  // External wrenches held constant in world axes while the robot moves (a push, a load: issue 25,
  // dynscope/algorithms/external_wrench.hpp): each evaluation adds tau_e = J^T f at the state's pose
  // to the joint forces. std::invalid_argument naming the wrench that cannot be applied.
  void setWrenches(const std::vector<ExternalWrench>& wrenches);
  const std::vector<ExternalWrench>& wrenches() const { return wrenches_; }

  // Ground contact (settings().ground; ground_contact.hpp): the contact points (taken from the
  // geometry when the ground is first switched on, with notes on geometry that gives none), the
  // forces of the points in contact at the current state, and the energy stored in their springs
  // (counted in energy(), so that contact can only take energy out).
  const ContactPointSet& contactPoints() const { return contactSet_; }
  const std::vector<ContactForce>& contactForces() const { return contactForces_; }
  double contactEnergy() const { return contactEnergy_; }
  // tau_e = J^T f of the wrenches and the ground's contact forces at the current state: the joint forces
  // from outside, part of tau() (also recorded, SimulationRecord::tauExternal); the joints' own share
  // (actuators, damping, friction, limits) is tau() - externalTau().
  const Eigen::VectorXd& externalTau() const { return tauExternal_; }
  // The spring and damper of contact point j (the time-constant rule for its effective mass; capped for
  // the step as the limits are where the forces are explicit, see implicitContact()). The points of a
  // shape in contact act in proportion to their penetration, w_j = d_j / sum d: the shape's stiffness
  // is the weighted mean of its points', however many vertices its mesh has.
  double contactStiffness(int j) const { return contactK_[size_t(j)]; }
  double contactDamping(int j) const { return contactC_[size_t(j)]; }
  // Symplectic Euler on a tree takes the ground's forces at the step's end (linearly implicit in the
  // contact springs and dampers, as MuJoCo's soft constraints are): stable for any stiffness. RK4,
  // RK45 and closed-loop or mimic models take them explicitly, with the stiffness capped for the step.
  bool implicitContact() const;

  const Model& model() const { return model_; }
  const SimulationSettings& settings() const { return settings_; }
  const Controller& controller() const { return controller_; }
  double time() const { return t_; }
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& qd() const { return qd_; }
  const Eigen::VectorXd& qdd() const { return qdd_; }  // at the current state
  const Eigen::VectorXd& tau() const { return tau_; }  // all joint forces at the current state: H qdd + C = tau
  // Kinetic + potential + what the springs hold (the ground's contacts, joints beyond their limits).
  double energy() const { return energy_; }
  // Closed loops: |phi(q)| and |phi'(q) qd| at the current state (0 for trees), and the constraint
  // terms of the last forward-dynamics evaluation (phi, phi', the multipliers lambda of its rows).
  double constraintError() const { return phiNorm_; }
  double constraintRateError() const { return phiDotNorm_; }
  const LoopData& loopData() const { return ld_; }
  SimulationStatus status() const { return status_; }
  const std::string& lastError() const { return error_; }  // why the run diverged
  const SimulationRecord& record() const { return record_; }
  SimulationRecord& record() { return record_; }  // e.g. reserve() before a long run
  // Steps between recorded samples now: settings().recordEvery, doubled each time the record hit
  // settings().recordLimit.
  long recordInterval() const { return long(settings_.recordEvery) * recordThinning_; }
  const SimulationStats& stats() const { return stats_; }

  // The limit spring and damper acting on limitDofs()[j]: the settings' values, capped where a
  // light joint would make the explicit step unstable (see docs/simulation.md).
  double limitStiffness(int j) const { return limitK_[size_t(j)]; }
  double limitDamping(int j) const { return limitC_[size_t(j)]; }
  const std::vector<int>& limitDofs() const { return limitDofs_; }
  // The smoothing velocity of dof i's friction f tanh(qd / eps): the settings' frictionVelocity,
  // raised where the friction's slope f / eps near rest would make a light joint stiff for the step.
  double frictionVelocity(int i) const { return frictionEps_[i]; }

  // The generalized force the simulation applies at (t, q, qd) and the resulting qdd (the right-
  // hand side the integrators use; joint-limit contacts taken from the state, where Dormand-Prince
  // holds them through a sub-step and steps onto their switches). For tests and the GUI's readouts.
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau,
                Eigen::VectorXd& qdd);

 private:
  void passiveTorque(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau, bool held) const;
  // evaluate(), with the joint-limit contacts held (contact_) instead of taken from the state; with
  // `applied` false (a stage that needs only qdd) tau may leave out gravity compensation's g(q).
  void rightHandSide(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Eigen::VectorXd& tau,
                     Eigen::VectorXd& qdd, bool heldContacts, bool applied = true);
  // Dormand-Prince holds the contacts through a step and steps onto their switches.
  bool holdsContacts() const { return settings_.integrator == Integrator::DormandPrince45; }
  const Eigen::VectorXd& forwardDynamics(ForwardAlgorithm algorithm, const Eigen::VectorXd& q,
                                         const Eigen::VectorXd& qd, const Eigen::VectorXd& tau);
  bool stepEuler(double h);
  bool stepEulerVelocity(double h);
  bool stepEulerContact(double h);   // symplectic Euler, velocity form, the ground's forces implicit
  bool stepEulerLimits(double h);    // the same with pushing joint limits alone: one ABA with armature
  bool contactCandidates(double h);  // the points that touch or will within h (contactRows_)
  bool solveContactStep(double h);   // qdNew_ from the implicit contact rows (an active-set loop)
  void kineticGradient(const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& out);
  bool stepRk4(double h);
  bool stepDormandPrince(double interval);
  bool dormandPrinceTrial(double h, double& errorNorm);
  bool finiteAndBounded(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd, double t);
  // Takes qNew_/qdNew_ (evaluated into qddStage_/tauStage_ unless `evaluated`: by the last stage)
  // as the state at tNew when it is finite and bounded; else sets the error and keeps the last
  // good state.
  // `switchingLimit`: the limitDofs_ entry whose located contact switch the state was stepped
  // onto (Dormand-Prince), with its contact from here.
  bool commit(double tNew, bool evaluated, int switchingLimit = -1, int contact = 0);
  void recordState();
  void updateEnergy();
  // Closed loops: qNew_, qdNew_ back onto phi = 0 and phi' qd = 0 (settings().projection).
  void projectNewState();
  LoopSettings loopSettings(LoopMethod method) const;
  // Mimic joints: q and qd re-expanded from their independent entries (round-off only: the
  // integrators combine derivatives qdd = G ydd, which keep the relation).
  void enforceMimic(Eigen::VectorXd& q, Eigen::VectorXd& qd);
  bool checkLimits(int switching, int contact);  // records entries; true when a contact changed
  bool limitPushing() const;                     // a joint limit's spring-damper pushes at the state
  int limitSwitch(double h, double& s, int& contact) const;

  Model model_;
  Data data_;
  LoopData ld_;  // closed loops: constraint terms and the methods' workspace (empty for trees)
  Eigen::VectorXd qProj_, dqProj_;
  // Mimic joints (inactive without followers): the coupling, its workspace, y, yd and G^T tau.
  bool mimic_ = false;
  MimicCoupling coupling_;
  MimicData mimicData_;
  Eigen::VectorXd y_, yd_, tauY_;
  double phiNorm_ = 0, phiDotNorm_ = 0;
  SimulationSettings settings_;
  Controller controller_;
  SimulationRecord record_;
  SimulationStats stats_;
  SimulationStatus status_ = SimulationStatus::Ok;
  std::string error_;

  double t_ = 0, energy_ = 0, fdDifference_ = 0;
  double dpStep_ = 0, dpErrPrevious_ = 1e-4;  // Dormand-Prince: the next step, the last accepted error
  long stepCount_ = 0, baseStep_ = 0;
  long recordThinning_ = 1;  // 2^(times the record was thinned to stay below recordLimit)
  double tBase_ = 0;
  bool recorded_ = false;  // the current state is the record's last sample
  Eigen::VectorXd q_, qd_, qdd_, tau_;
  // Workspace, sized once: trial state, stage derivatives (k: velocities and accelerations).
  Eigen::VectorXd qTrial_, qdTrial_, qNew_, qdNew_, dq_, dv_, tauStage_, qddStage_, qddOther_, scratch_;
  Eigen::VectorXd force_;
  std::vector<ExternalWrench> wrenches_;
  Eigen::VectorXd tauWrench_;                             // J^T f of the wrenches at the evaluated state
  Eigen::VectorXd tauExternal_;                           // J^T f of the wrenches and the ground at the state
  Eigen::MatrixXd massMatrix_, nextMassMatrix_, factor_;  // symplectic Euler: H(q_n), H(q_n+1), L^T L
  bool massValid_ = false, screwJoints_ = true;
  Eigen::MatrixXd kq_, kv_;              // nv x 7 stage velocities / accelerations
  std::vector<int> limitDofs_;           // v indices of the limited 1-dof-per-coordinate entries
  std::vector<int> limitQ_;              // their q indices
  std::vector<signed char> inLimit_;     // -1 below, +1 above, 0 inside, per limitDofs_ entry
  std::vector<signed char> contact_;     // the same, +-2 where released (the spring-damper would pull)
  std::vector<double> dofInertia_;       // per dof: 1 / (H^-1)_ii at the neutral pose
  std::vector<double> limitK_, limitC_;  // the limit spring and damper per entry (capped, see stabilityCaps)
  Eigen::VectorXd frictionEps_;          // per dof: the friction's smoothing velocity (capped)
  void stabilityCaps();

  // Ground contact: points and their effective masses (once, when the ground is first on), the
  // forces at the kinematics in data_ with the anchors held (added to tau as J^T f; `state`: also the
  // readouts), and
  // the anchors moved after an accepted step (true when one slipped).
  void setUpContacts();
  bool groundActive() const;  // the ground on, and the robot has points to touch it with
  bool cancelsGravity() const;
  void groundForces(Eigen::VectorXd& tau, bool state);
  void stateReadouts();  // tauExternal_, contactForces_ and contactEnergy_ at the current state
  bool slipAnchors();
  void measureDepths(double h);         // contactDepth_, shapeDepth_ (h ahead at the present velocities)
  double contactShare(size_t j) const;  // point j's share of its shape's springs
  bool contactsReady_ = false;
  ContactPointSet contactSet_;
  // Per point, along the normal and (T, t) along the ground: effective mass (kg), spring N/m and damper
  // N s/m (shared with the shape's other points in contact, see contactShare).
  std::vector<double> contactMass_, contactK_, contactC_, contactMassT_, contactKt_, contactCt_;
  std::vector<double> contactDepth_;  // per point: the penetration the forces are shared by
  std::vector<double> shapeDepth_;    // per geometry: the sum of its points' positive penetrations
  Eigen::VectorXd tauGround_;         // J^T f of the ground at the current state (part of tau_)
  // The implicit step's rows: the candidate points, their world Jacobians (3 rows each: x, y along the
  // ground, z the normal), modes (0 stuck, 1 sliding, -1 released), shares of the spring, and the
  // world motion subspaces of the dofs.
  struct ContactRow {
    int point = 0;
    signed char mode = 0;
    double k = 0, c = 0, kt = 0, ct = 0, depth = 0;
    Eigen::Vector2d stretch = Eigen::Vector2d::Zero(), slide = Eigen::Vector2d::Zero();
  };
  std::vector<ContactRow> contactRows_;
  Eigen::MatrixXd contactJ_;                     // 3 x nv per row
  Eigen::Matrix<double, 6, Eigen::Dynamic> Sw_;  // world Pluecker motion subspace per dof
  Eigen::VectorXd impulse_;                      // the step's right-hand side
  Eigen::VectorXd armatureWork_;                 // stepEulerLimits: the armature with the implicit terms
  std::vector<int> freeDofs_;                    // the dofs of floating joints
  std::vector<Vec3<double>> anchor_;             // per point: where it stuck (world, z unused)
  std::vector<signed char> anchored_;            // per point: in contact at the last step's end
  std::vector<ExternalWrench> contactWrenches_;  // the evaluation's contact forces as wrenches
  std::vector<ContactForce> contactForces_;      // at the current state
  double contactEnergy_ = 0;
};

}  // namespace dyn
