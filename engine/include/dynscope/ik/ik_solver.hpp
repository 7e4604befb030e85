// Iterative inverse kinematics (Featherstone Part 2, Fig. 6 and eqs. 15-16: a pose error and the
// frame Jacobian, dq = J^+ dp) made robust: Levenberg-Marquardt damped least squares with adaptive
// damping and a cost test on every step, a per-iteration step limit (a drag never jumps), joint
// limits (the start is clamped into them, dofs that would cross one stop at it and leave the
// step), locked dofs, pins (other frames held at a pose) as equal-priority tasks or as a strict
// first priority with the target in their null space, and a null-space posture term. Works on
// the joint manifolds (spherical joints, floating bases) through integrate / difference.
// Double precision only; the model must outlive the solver. No allocation inside solve() once
// the tasks are set (the setters may allocate).
//
// Closed kinematic loops (docs/loops.md): on a model with loop joints every step stays on the
// constraint manifold phi(q) = 0 (review §3.4, eq. 16). The step is the damped least-squares one
// restricted to the null space of C = [phi'; the locked and limit-stopped dofs' unit rows], i.e. to
// the motions the mechanism can make (the tree Jacobian J becomes J T, T the orthogonal projector
// onto null(C), and dq = dq_p + T y with dq_p the minimum-norm solution of C dq_p = [-phi; moves of
// the stopped dofs]); each trial configuration is then re-assembled (loops/assembly.hpp, the locked
// and stopped dofs held) before its cost is taken. So a dragged link of a mechanism moves the
// independent joints and the loops stay closed: the delta robot's plate moves its motors.
//
// Mimic joints (docs/mimic.md; a model without closed loops): the solver works on the independent
// coordinates y with q = G_q y + b. Each Jacobian becomes J G (a follower's column is added to its
// root master's, times the multiplier, and dropped), the step is dq = G dy, and every trial q is
// re-expanded from its independent entries, so a follower keeps q = a q_master + b exactly. The
// followers' own limits are not enforced (their masters' are).
#pragma once
#include <Eigen/Cholesky>
#include <memory>
#include <random>
#include <vector>

#include "../loops/assembly.hpp"
#include "../loops/loop_data.hpp"
#include "../model/data.hpp"
#include "../model/mimic_coupling.hpp"

namespace dyn {

// One pose task: bring model frame `frame` to `target` (target_X_world, the form of Data::oMf:
// target.rotation() is the desired orientation, target.translation() the desired position).
struct IkTask {
  int frame = -1;
  Transform<double> target;
  double weight = 1.0;        // scales the task's rows in the least-squares cost
  bool positionOnly = false;  // only the frame origin's position counts; orientation is free
};

enum class IkPinMode {
  EqualPriority,  // pins are tasks like the target, weighted: a target out of reach may pull them
  Strict,         // pins first; the target only moves in their null space (pins win)
};

enum class IkPosture {
  Start,     // toward the start configuration q0
  MidRange,  // toward the middle of each limited dof's range (unlimited dofs are not pulled)
};

struct IkOptions {
  int maxIterations = 200;
  double tolerance = 1e-9;       // every task: position error (m) and rotation error (rad)
  double initialDamping = 1e-3;  // lambda of the first iteration (added to J^T W J's diagonal)
  double minDamping = 1e-10;
  double maxDamping = 1e6;     // a step rejected at this damping means a local minimum
  double maxStep = 0.2;        // largest |dq_k| per iteration, rad or m (the step limit)
  double postureWeight = 0.0;  // gain of the null-space posture pull per iteration (0 = off)
  IkPosture posture = IkPosture::Start;
  IkPinMode pinMode = IkPinMode::EqualPriority;
  // Global search for one-shot solves (never during a drag: a restart jumps). When an attempt ends
  // at a local minimum (or stops progressing), start again from a random configuration within the
  // limits (floating bases keep the start's pose); the best attempt is the result. Seeded: the
  // same inputs give the same answer.
  int restarts = 0;
  unsigned seed = 1;
};

struct IkResult {
  VecX<double> q;            // the solution, or the closest configuration reached
  double positionError = 0;  // target task: |p_target - p| (m)
  double rotationError = 0;  // target task: angle to the target orientation (rad); 0 if positionOnly
  double pinError = 0;       // largest position (m) or rotation (rad) error over the pins
  double cost = 0;           // 1/2 sum over all tasks of weight * |error|^2 (strict pins x 1e4)
  int iterations = 0;        // over all attempts
  int restartsUsed = 0;
  bool converged = false;           // every task within tolerance
  bool reachable = false;           // converged, or still progressing when the iterations ran out;
                                    // false: stopped at a local minimum (the closest it can get)
  std::vector<int> limitedDofs;     // v indices resting at a position limit at the end
  double constraintError = 0;       // closed loops: max |phi| at q (0 for trees)
  std::vector<double> costHistory;  // of the returned attempt: cost at its start and after every
                                    // iteration (never increases)
};

class IkSolver {
 public:
  explicit IkSolver(const Model& model);

  IkOptions options;

  // The primary task (the dragged frame).
  void setTarget(const IkTask& task);
  const IkTask& target() const { return target_; }

  // Pins: frames held at a pose. pinAt holds `frame` where it is at configuration q.
  void addPin(const IkTask& pin);
  void pinAt(int frame, const VecX<double>& q);
  void clearPins();
  const std::vector<IkTask>& pins() const { return pins_; }

  // Locked dofs (v indices) never move.
  void lockDof(int v, bool locked = true);
  void lockJoint(int joint, bool locked = true);  // every dof of joint (= body) index `joint`
  void unlockAll();
  bool isLocked(int v) const { return locked_[v] != 0; }

  // Solves from q0 (clamped into the limits first; closed loops: assembled first, the independent
  // and locked dofs held). The result lives in the solver until the next solve. Throws
  // std::invalid_argument for a wrong-sized or non-finite q0, without a target, or for a q0 whose
  // loops cannot close (naming the loop joint).
  const IkResult& solve(const VecX<double>& q0);

  // World pose (frame_X_world) of a model frame at q: what a target or pin is compared with.
  Transform<double> framePose(int frame, const VecX<double>& q);

  const Model& model() const { return model_; }

 private:
  struct TaskError {
    Vec6<double> e = Vec6<double>::Zero();  // [rotation; position] error in world axes
    double position = 0, rotation = 0;
  };
  static TaskError taskError(const Model& model, const Data& data, const IkTask& t);
  double evaluate(const VecX<double>& q, Data& data, TaskError& targetError, std::vector<TaskError>& pinErrors);
  bool withinTolerance() const;
  void addNormalEquations(const IkTask& t, const TaskError& err, MatX<double>& H, VecX<double>& g);
  void buildSystem();
  void computeStep(const VecX<double>& q, double lambda, bool posture);
  void dampedSolve(const MatX<double>& H, double lambda, const VecX<double>& b, VecX<double>& x);
  void projectToNullSpace(const MatX<double>& H, VecX<double>& z);
  void clampToLimits(VecX<double>& q) const;
  void checkFrame(int frame, const char* what) const;
  bool runAttempt(VecX<double>& q, int maxIterations, bool stopWhenSlow, int& iterations);
  void randomRestart(const VecX<double>& q0, VecX<double>& q);
  void settlePins(VecX<double>& q);
  // q (+) dq_ into qTry_, clamped into the limits and (closed loops) re-assembled; false when the
  // loops do not close there or the assembly carried a dof past a limit (the step is then refused).
  bool trialStep(const VecX<double>& q);

  // Closed loops (ik_solver_loops.cpp).
  void constrainStep();  // T_ and the particular step fixed_ from ld_'s phi, phi' at the step's q
  void projectSystem();  // H <- T H T, g <- T g for both levels
  // Assembles q in place holding the locked and limit-stopped dofs (and `independent` ones when
  // asked); false when the loops do not close.
  bool closeLoops(VecX<double>& q, bool independent, int restarts);

  // Mimic joints (ik_solver_mimic.cpp).
  void foldFollowerColumns();                     // J_ <- J_ G, in place (the followers' columns zero)
  void spreadToFollowers(VecX<double>& v) const;  // v[f] = a v[master]: a full-dof vector in G's range
  void enforceMimic(VecX<double>& q);             // q = G_q y + b with y the independent entries of q

  const Model& model_;
  Data data_, dataTry_;  // at the current q and at the trial step (swapped on acceptance)
  IkTask target_;
  bool haveTarget_ = false;
  bool pinsOnly_ = false;  // strict mode: steps of the pins alone (settlePins)
  std::vector<IkTask> pins_;
  TaskError targetError_, targetErrorTry_;
  std::vector<TaskError> pinErrors_, pinErrorsTry_;
  std::vector<char> locked_, blocked_;  // per dof: locked by the user / stopped at a limit this step
  std::vector<int> limitedQ_;           // per dof: its q index when a limit is finite, else -1
  IkResult result_;

  // Workspace, sized at construction (nv) so that solve() does not allocate.
  Mat6X<double> J_;
  MatX<double> H_, H1_, A_, N_, M_, P_;
  VecX<double> g_, g1_, dq_, dq1_, z_, fixed_, tmp_, qTry_, posture_, qStart_, qBest_;
  std::vector<double> history_;  // the current attempt's costs (swapped into the result)
  std::mt19937 rng_;
  Eigen::LLT<MatX<double>> llt_;

  // Closed loops (empty for trees): phi and phi', C^T and its rank-revealing QR, the projector T
  // onto null(C), the right-hand side of C dq = d, the stopped dofs' moves, the assembler.
  bool loops_ = false;
  LoopData ld_;
  MatX<double> Ct_, T_;
  PivotedQR<double> cqr_;
  VecX<double> d_, limitMove_;
  std::unique_ptr<Assembler> assembler_;
  AssemblyOptions assembly_;

  // Mimic joints (inactive without followers): per dof its root master's dof (-1 for an independent
  // dof) and the multiplier; the coupling and its y buffer.
  bool mimic_ = false;
  MimicCoupling coupling_;
  std::vector<int> masterDof_;
  std::vector<double> gain_;
  VecX<double> y_;
};

}  // namespace dyn
