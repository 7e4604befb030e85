// The recording trace policies (trace_policy.hpp): TraceRecorder runs with the algorithm on
// double and turns each step into a TraceStepRecord (equations, numbers, quantities written);
// OpCountRecorder runs with it on CountingScalar and notes the operation count after each step.
// Both may allocate: they serve the inspector, never the plain path.
//
// Adding a formulation: give it StepKinds, call the hooks in its code, and write one capture
// per StepKind (engine/src/trace_capture_*.cpp) that reads the Model and Data after the step and
// fills a StepBuilder; list it in captureFor() (engine/src/trace_recorder.cpp).
#pragma once
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "../model/data.hpp"
#include "algorithm_trace.hpp"

namespace dyn {

class TraceRecorder;

// Fills one TraceStepRecord.
class StepBuilder {
 public:
  explicit StepBuilder(TraceStepRecord& record) : r_(record) {}
  struct Token {
    Token(int t) : term(t) {}
    Token(const char* s) : text(s) {}
    Token(std::string s) : text(std::move(s)) {}
    int term = -1;
    std::string text;
  };
  // A value the step shows (display only).
  int show(TraceTerm t);
  // A quantity the step writes (its state key is t.quantity, t.index).
  int write(TraceTerm t);
  void line(std::string equation, std::string reference, std::initializer_list<Token> substituted);
  void line(std::string equation, std::string reference, const std::vector<Token>& substituted);
  TraceStepRecord& record() { return r_; }

 private:
  TraceStepRecord& r_;
};

// Term constructors (symbol in markup, see algorithm_trace.hpp).
TraceTerm scalarTerm(std::string symbol, double x, std::string quantity = {}, int index = -1);
TraceTerm vectorTerm(std::string symbol, const Eigen::VectorXd& x, std::string quantity = {}, int index = -1);
TraceTerm motionTerm(std::string symbol, const Motion<double>& m, TraceFrame frame, TraceRole role = TraceRole::None,
                     std::string quantity = {}, int index = -1);
TraceTerm forceTerm(std::string symbol, const Force<double>& f, TraceFrame frame, TraceRole role = TraceRole::None,
                    std::string quantity = {}, int index = -1);
TraceTerm inertiaTerm(std::string symbol, const Mat6<double>& I, TraceFrame frame, std::string quantity = {},
                      int index = -1);
TraceTerm transformTerm(std::string symbol, const Transform<double>& X);
TraceTerm subspaceTerm(std::string symbol, const Motion<double>* columns, int count, TraceFrame frame);
TraceTerm matrixTerm(std::string symbol, const Eigen::MatrixXd& M, std::string quantity = {}, int index = -1);
// A patch of a matrix quantity: the entries (row, column) of `source` (algorithm_trace.hpp).
TraceTerm patchTerm(std::string symbol, std::string quantity, int index, std::vector<std::pair<int, int>> entries,
                    const Eigen::Ref<const Eigen::MatrixXd>& source);
// A 3-vector (Newton-Euler, the Lagrangian p'' and c) with its role in the 3D view.
TraceTerm vector3Term(std::string symbol, const Eigen::Vector3d& x, TraceFrame frame, TraceRole role = TraceRole::None,
                      std::string quantity = {}, int index = -1);
// "**a**_{3}", "^{3}**X**_{2}", "^{2}**X**_{3}^{*}"
std::string indexed(const std::string& name, int i);
std::string transformSymbol(int to, int from, bool dual = false);

// The recording policy on double. Runs alongside one algorithm call (or a composition of them,
// e.g. forwardDynamicsCrba calling rnea, crba, factorLTL and solveLTL with the same recorder).
class TraceRecorder {
 public:
  TraceRecorder(const Model& model, const Data& data, AlgorithmTrace& out);

  // --- the policy interface (trace_policy.hpp) ---
  template <class... Args>
  void begin(TraceAlgorithm algorithm, const Args&... args) {
    std::vector<Eigen::MatrixXd> values;
    const std::vector<Force<double>>* fext = nullptr;
    (collect(values, fext, args), ...);
    onBegin(algorithm, values, fext);
  }
  template <class T>
  void local(const char* name, int index, const T& value) {
    if constexpr (requires { value.derived().data(); }) {
      using D = std::decay_t<decltype(value.derived())>;
      if constexpr (std::is_same_v<D, Eigen::MatrixXd> || std::is_same_v<D, Eigen::VectorXd>) {
        // A whole matrix or vector that the algorithm updates in place (L, x): seen, not copied.
        views_[name] = {value.derived().data(), value.rows(), value.cols()};
        return;
      }
    }
    locals_.push_back(localTerm(name, index, value));
  }
  void ahead(int) {}
  void step(StepKind kind, int index);
  // The workspace of a formulation that does not run on Data (DeNOC, the Lagrangian family, ...).
  template <class W>
  void setWorkspace(const W& ws) {
    workspace_ = &ws;
    workspaceType_ = &typeid(W);
  }

  // --- for the captures ---
  const Model& model() const { return model_; }
  const Data& data() const { return data_; }
  // The arguments of the last begin() of RNEA or ABA: q, qd and qdd (RNEA) or tau (ABA).
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& qd() const { return qd_; }
  const Eigen::VectorXd& accelerationsOrForces() const { return x_; }
  const std::vector<Force<double>>* externalForces() const { return fext_; }
  // Argument k of the last begin(algorithm) (empty matrix if there is none).
  const Eigen::MatrixXd& argument(TraceAlgorithm algorithm, int k) const;
  // A quantity's value before this step (the recorded state), or nullptr.
  const TraceTerm* previous(const std::string& quantity, int index) const;
  // The locals reported since the last step, in order.
  const std::vector<TraceTerm>& locals() const { return locals_; }
  // A matrix or vector reported by local() that the algorithm keeps updating (its current values).
  Eigen::Map<const Eigen::MatrixXd> view(const std::string& name) const;
  // The formulation's workspace (setWorkspace); throws std::logic_error for another type.
  template <class W>
  const W& workspace() const {
    if (!workspaceType_ || *workspaceType_ != typeid(W)) throw std::logic_error("trace: no workspace of that type");
    return *static_cast<const W*>(workspace_);
  }

 private:
  template <class D>
  static void collect(std::vector<Eigen::MatrixXd>& values, const std::vector<Force<double>>*&,
                      const Eigen::MatrixBase<D>& x) {
    values.emplace_back(x);
  }
  static void collect(std::vector<Eigen::MatrixXd>&, const std::vector<Force<double>>*& fext,
                      const std::vector<Force<double>>* p) {
    fext = p;
  }
  static TraceTerm localTerm(const char* name, int index, double x);
  static TraceTerm localTerm(const char* name, int index, const Force<double>& f);
  static TraceTerm localTerm(const char* name, int index, const Motion<double>& m);
  template <class D>
  static TraceTerm localTerm(const char* name, int index, const Eigen::MatrixBase<D>& x) {
    return matrixTerm(name, Eigen::MatrixXd(x), name, index);
  }
  void onBegin(TraceAlgorithm algorithm, const std::vector<Eigen::MatrixXd>& values,
               const std::vector<Force<double>>* fext);
  void apply(const TraceTerm& written);
  Eigen::MatrixXd unknownMassMatrix() const;  // NaN where not computed yet, 0 where two branches meet

  const Model& model_;
  const Data& data_;
  AlgorithmTrace& out_;
  TraceState state_;
  std::vector<TraceTerm> locals_, pendingWrites_;
  std::vector<TraceLine> pendingLines_;  // what the initial writes of a begin() mean
  std::vector<std::pair<TraceAlgorithm, std::vector<Eigen::MatrixXd>>> arguments_;
  Eigen::VectorXd q_, qd_, x_;
  const std::vector<Force<double>>* fext_ = nullptr;
  struct View {
    const double* data = nullptr;
    Eigen::Index rows = 0, cols = 0;
  };
  std::map<std::string, View> views_;
  const void* workspace_ = nullptr;
  const std::type_info* workspaceType_ = nullptr;
};

// The counting policy on CountingScalar: the tally after every step, with the work done ahead
// for a body (ahead(i)) booked to the next step of that body, so that the running count follows
// the paper's order (e.g. Fig. 5: jcalc, v_i, a_i, f_i of body i in one step).
class OpCountRecorder {
 public:
  struct Entry {
    StepKind kind;
    int index;
    OpTally counts;  // cumulative
  };
  std::vector<Entry> entries;
  explicit OpCountRecorder(const std::vector<int>& dofBody) : dofBody_(dofBody) {}
  template <class... Args>
  void begin(TraceAlgorithm, const Args&...) {}
  template <class T>
  void local(const char*, int, const T&) {}
  void ahead(int body);
  void step(StepKind kind, int index);  // index: the body, or the dof of a per-dof step
  // A formulation's workspace is built (from the counting model) before the algorithm runs: its
  // construction (e.g. the Newton-Euler link parameters) is no part of the count, as in a bound call.
  template <class W>
  void setWorkspace(const W&) {
    CountingScalar::reset();
    last_ = OpTally{};
  }

 private:
  const std::vector<int>& dofBody_;
  OpTally sinceLast();
  OpTally last_, booked_;
  std::vector<std::pair<int, OpTally>> ahead_;  // per body, not yet booked
};

}  // namespace dyn
