// A recorded walk through an algorithm (lecture mode, issue 15): one TraceStepRecord per
// elementary step (one body of one pass), each with its equations in the paper's notation, the
// numbers substituted, the quantities it wrote and the operation count so far. Recorded by the
// algorithms' own code (trace/trace_policy.hpp) on double, and counted by the same code on
// CountingScalar; the result is bit for bit the plain algorithm's.
//
// Equations and symbols are written in a small markup that the GUI turns into rich text and the
// CLI prints as it is: **v** bold (a spatial vector or matrix), _{..} subscript, ^{..} superscript
// (single characters may omit the braces), everything else verbatim UTF-8.
#pragma once
#include <Eigen/Core>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "../formulations/registry.hpp"
#include "../model/model.hpp"
#include "../opcount/counting_scalar.hpp"
#include "trace_policy.hpp"

namespace dyn {

// How a value reads.
enum class ValueKind {
  Scalar,     // 1 x 1
  Vector,     // n x 1 (joint quantities of a multi-dof joint, tau, qdd, ...)
  Motion,     // 6 x 1 spatial motion [w; v]
  Force,      // 6 x 1 spatial force [n; f]
  Inertia,    // 6 x 6 spatial inertia, blocks [Ibar hx; hx^T m1] (rigid or articulated)
  Transform,  // 6 x 6 Pluecker motion transform, blocks [E 0; -E rx E]
  Subspace,   // 6 x nv motion subspace S (columns)
  Matrix,     // anything else (H, L)
};

// Coordinates of a spatial value.
enum class TraceFrame { None, Link, World };

// What a value means physically (the 3D arrows are drawn from these, trace_arrows.hpp). "With
// gravity": the algorithm gives the base the fictitious acceleration -g, and so do these values.
enum class TraceRole {
  None,
  Velocity,                // v: spatial motion [w; v] (Pluecker); also DeNOC's twist t_i = [w_i; o'_i] at O_i
  Acceleration,            // a: spatial acceleration, with gravity
  BiasAcceleration,        // c = v x S qd
  Force,                   // f: spatial force [n; f] (net force on the body, then the joint force); DeNOC's w_i
  BiasForce,               // pA: articulated-body bias force
  TwistRate,               // DeNOC's t'_i = [w'_i; o''_i]: the classical acceleration of the origin, with gravity
  AngularVelocity,         // 3-vector w_i
  AngularAcceleration,     // 3-vector w'_i
  OriginAcceleration,      // 3-vector: acceleration of the frame origin O_i, with gravity (Luh's p''_i)
  OriginAccelerationTrue,  // 3-vector: acceleration of O_i without gravity (Hollerbach's 3x3 p''_i)
  LinearForce,             // 3-vector force (Newton-Euler's F_i, then f_i)
  MomentAboutOrigin,       // 3-vector moment about O_i (Newton-Euler's n_i)
  PoseRate,                // W'_i: 4x4 homogeneous (or 3x3 rotation) rate of the link's pose, base coordinates
  PoseAcceleration,        // W''_i: its second derivative (no gravity)
};

struct TraceTerm {
  std::string symbol;    // markup with the actual indices: "**a**_{3}", "^{3}**X**_{2}"
  std::string quantity;  // state key and table column ("v", "IA", "H"); empty for display-only values
  int index = -1;        // body 0..N of a per-body quantity; -1 for a whole vector or matrix
  ValueKind kind = ValueKind::Scalar;
  TraceFrame frame = TraceFrame::None;
  TraceRole role = TraceRole::None;
  Eigen::MatrixXd value;  // NaN marks entries not computed yet (H, L while they fill)
  // A patch of a matrix quantity (H, L, the GIM): the step wrote only the entries at `entries`
  // (row, column), their values in `value` (one column); the state keeps the whole matrix. Steps
  // store what they write, not copies of an nv x nv matrix.
  bool patch = false;
  std::vector<std::pair<int, int>> entries;
};

// One equation of a step: generic (with i, lambda(i)) and with the numbers substituted.
struct TraceToken {
  int term = -1;     // a term of the step, drawn as its value (matrix, vector, number) with its symbol
  std::string text;  // otherwise markup text; "\n" starts a new row
};
struct TraceLine {
  std::string equation;   // markup, e.g. "**a**_{i} = ^{i}**X**_{λ(i)} **a**_{λ(i)} + ..."
  std::string reference;  // "eq. 10, Fig. 5 line 7"
  std::vector<TraceToken> substituted;
};

struct TraceStepRecord {
  StepKind kind = StepKind::RneaOutward;
  int body = 0;  // the body processed (for per-dof steps: the dof's body)
  int dof = -1;  // per-dof steps (L^T L): the dof
  int pass = 0;  // index into AlgorithmTrace::passes
  std::vector<TraceLine> lines;
  std::vector<TraceTerm> terms;  // every value the step shows
  std::vector<int> written;      // terms that are state written by this step
  OpTally counts;                // measured on CountingScalar: everything up to and including this step
};

// A pass: a run of consecutive steps (Shift+Right jumps to its end).
struct TracePass {
  std::string name;       // "outward pass"
  std::string reference;  // "Featherstone Part 2, Fig. 5, lines 3-9"
  enum class Direction { Outward, Inward, None } direction = Direction::None;
  int first = 0, last = -1;  // step indices
};

struct TraceInput {
  Eigen::VectorXd q, qd, qdd, tau;  // qdd for inverse dynamics, tau for forward dynamics
};

struct AlgorithmTrace {
  std::string algorithm;  // registry name ("rnea")
  TraceInput input;
  std::vector<TraceTerm> initial;  // the state before the first step (v_0, a_0, IC_i = I_i, ...)
  std::vector<TraceLine> start;    // the equations of that initialisation
  std::vector<TraceStepRecord> steps;
  std::vector<TracePass> passes;
  Eigen::MatrixXd result;  // tau, qdd (column vectors) or H; the plain algorithm's bit for bit
  OpTally total;           // of a whole CountingScalar run
};

// The state after `position` steps (0: before the first, steps.size(): the end): every
// quantity's latest value, keyed by (quantity, index).
struct TraceState {
  using Key = std::pair<std::string, int>;
  std::map<Key, TraceTerm> values;
  std::vector<Key> changed;  // written by the last step taken
  const TraceTerm* find(const std::string& quantity, int index) const {
    const auto it = values.find({quantity, index});
    return it == values.end() ? nullptr : &it->second;
  }
  bool wasChanged(const std::string& quantity, int index) const;
  // Writes a term: replaces the value, or sets the entries of a patch in the whole matrix.
  void apply(const TraceTerm& written);
};

// Walks a trace's states incrementally: seek() applies the steps between the current position and
// the new one, or undoes them (each step taken keeps the values it replaced), so a key press costs
// one step's writes, not a rebuild from the start. The trace must outlive the cursor.
class TraceCursor {
 public:
  explicit TraceCursor(const AlgorithmTrace& trace);
  int position() const { return position_; }
  const TraceState& state() const { return state_; }
  void seek(int position);  // clamped to 0 .. steps.size()

 private:
  struct Undo {
    TraceState::Key key;
    bool existed = false;
    TraceTerm before;  // the replaced value; for a patch, the replaced entries (as a patch)
  };
  void forward();
  void backward();
  const AlgorithmTrace* trace_;
  TraceState state_;
  int position_ = 0;
  std::vector<std::vector<Undo>> undo_;  // one list per step taken
};

// The state at a position, built from the start (TraceCursor does it incrementally).
TraceState traceState(const AlgorithmTrace& trace, int position);

// The algorithms the inspector and `dynscope-cli trace` can step through.
enum class TraceNeeds { Positions, Accelerations, Forces };  // q; q, qd, qdd; q, qd, tau
struct TraceableAlgorithm {
  const char* name;         // "rnea": the CLI's --algorithm
  const char* label;        // short, for menus: "RNEA (inverse dynamics)"
  const char* title;        // "Recursive Newton–Euler algorithm (RNEA)"
  const char* source;       // "Featherstone Part 2, Fig. 5, eqs. 9–13"
  const char* coordinates;  // "link coordinates"
  TraceNeeds needs;
  const char* resultKey;  // the plain command's key: "tau", "qdd", "mass_matrix"
  AlgorithmTrace (*run)(const Model& model, const TraceInput& input);
  const char* formulation;  // its name in the formulation registry (formulations/registry.hpp) ...
  Problem problem;          // ... for this problem: the CLI's "id --algorithm denoc" is "trace --algorithm denoc-id"
};
const std::vector<TraceableAlgorithm>& traceableAlgorithms();
const TraceableAlgorithm* findTraceableAlgorithm(const std::string& name);

// Runs `algorithm` (a registry name) on the model at the input state: records the steps on double,
// counts them on CountingScalar. Throws std::invalid_argument for an unknown name or wrong sizes
// (naming the argument), like the algorithms.
AlgorithmTrace traceAlgorithm(const Model& model, const std::string& algorithm, const TraceInput& input);

// Markup without its marks, for plain text ("**a**_{3}" -> "a_3").
std::string plainMarkup(const std::string& markup);
// Short names for the CLI and the handout.
const char* stepKindName(StepKind k);  // "rnea_outward", "denoc_twist", ...
const char* traceFrameName(TraceFrame f);
const char* traceRoleName(TraceRole r);
const char* valueKindName(ValueKind k);
const char* passDirectionName(TracePass::Direction d);  // "outward", "inward", "none"

}  // namespace dyn
