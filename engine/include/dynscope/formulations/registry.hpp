// The formulations the engine offers for each problem (inverse dynamics, the mass matrix, forward
// dynamics), by name: what each computes, which seed paper and equations it implements, how its
// cost grows with n, the operation count the paper prints for it (with what the paper leaves
// out), and callables on double and on the operation-counting scalar. The command-line tool, the
// operation-count tests and the GUI read this table; engine/src/formulation_registry.cpp fills it
// (adding a formulation there is an adapter of a few lines and one entry).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../model/model.hpp"
#include "../opcount/counting_scalar.hpp"

namespace dyn {

enum class Problem { InverseDynamics, MassMatrix, ForwardDynamics };

const char* problemName(Problem p);   // "id", "mass", "fd" (the CLI commands)
const char* problemTitle(Problem p);  // "inverse dynamics", "mass matrix", "forward dynamics"
std::optional<Problem> problemByName(std::string_view name);

// An operation count as a seed paper prints it: M multiplications/divisions, A additions/subtractions.
struct PaperCount {
  struct Value {
    int n = 0;
    long long muls = 0, adds = 0;
  };
  std::string source;                    // paper, table and row
  std::string mulsFormula, addsFormula;  // as printed, e.g. "120n - 44"
  std::vector<double> muls, adds;        // the polynomials: coefficient k multiplies n^k (empty: not legible)
  std::vector<Value> tabulated;          // the values the paper tabulates (n = 6, and 12 for forward dynamics)
  std::string basis;                     // what the count covers and what the paper leaves out
  std::optional<double> mulsAt(int n) const { return evaluate(muls, n); }
  std::optional<double> addsAt(int n) const { return evaluate(adds, n); }
  static std::optional<double> evaluate(const std::vector<double>& c, int n);
};

template <class S>
using InverseDynamicsFn = std::function<const VecX<S>&(const VecX<S>& q, const VecX<S>& qd, const VecX<S>& qdd)>;
template <class S>
using MassMatrixFn = std::function<const MatX<S>&(const VecX<S>& q)>;
template <class S>
using ForwardDynamicsFn = std::function<const VecX<S>&(const VecX<S>& q, const VecX<S>& qd, const VecX<S>& tau)>;

// A formulation bound to one model: it holds a copy of the model and its own workspace, so a call
// allocates nothing. Only the callable of the formulation's problem is set.
template <class S>
struct BoundFormulation {
  InverseDynamicsFn<S> inverseDynamics;  // tau = ID(q, qd, qdd)
  MassMatrixFn<S> massMatrix;            // M(q)
  ForwardDynamicsFn<S> forwardDynamics;  // qdd = FD(q, qd, tau)

  // The result of the problem this binding solves, as one matrix (ID and FD give a column):
  // x is qdd for inverse dynamics and tau for forward dynamics; the mass matrix ignores qd and x.
  MatX<S> evaluate(const VecX<S>& q, const VecX<S>& qd, const VecX<S>& x) const {
    if (inverseDynamics) return inverseDynamics(q, qd, x);
    if (massMatrix) return massMatrix(q);
    return forwardDynamics(q, qd, x);
  }
};

struct Formulation {
  std::string name;  // the command-line name, unique per problem: "denoc"
  Problem problem = Problem::InverseDynamics;
  std::string title;                   // "DeNOC recursive inverse dynamics"
  std::string description;             // one line: what it computes, how
  std::string reference;               // seed, section and equations
  std::string header;                  // the file that implements it, under engine/include/dynscope/
  int degree = 1;                      // the cost grows as n^degree on a serial chain of n links
  bool revolutePrismaticOnly = false;  // refuses other joints (naming the joint)
  // A call also fills tables that the papers' count leaves out as off-line work (the configuration-space
  // method): its count is the evaluation alone, its time includes the tables (OpTally::tabulation).
  bool tabulates = false;
  std::vector<PaperCount> paperCounts;
  // Bind to a model (throws std::invalid_argument naming the joint for a model it cannot handle).
  BoundFormulation<double> (*bind)(const Model&) = nullptr;
  BoundFormulation<CountingScalar> (*bindCounting)(const ModelTpl<CountingScalar>&) = nullptr;
};

// Every formulation, grouped by problem, the engine's default (rnea, crba, aba) first in each group.
const std::vector<Formulation>& formulations();
// nullptr when there is none of that name for the problem.
const Formulation* findFormulation(Problem problem, std::string_view name);
// The names for a problem, in table order.
std::vector<std::string> formulationNames(Problem problem);
// The formulation, or std::invalid_argument "unknown inverse-dynamics algorithm 'x' (valid: ...)".
const Formulation& formulation(Problem problem, std::string_view name);

// The operation count of one call of f on model at the state (q, qd, and qdd, tau or nothing as the
// problem needs): the model is cast to CountingScalar, bound, then one call is counted.
// The joint transforms are in tally.jointTransforms, the rest in tally.algorithm.
OpTally countOperations(const Formulation& f, const Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qddOrTau);

}  // namespace dyn
