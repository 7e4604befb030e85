// The equations of motion in closed form as a report of plain strings (issue 40): what
// `dynscope-cli equations` prints and exports and what the window's "Equations of motion" view
// typesets. This header includes no GiNaC, so the window and the CLI's other units need no
// computer-algebra headers; the expressions themselves stay behind `EquationsReport::expressions`.
// Implemented in the optional library dynscope_symbolic (built when GiNaC is found).
#pragma once
#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../io/dh_table.hpp"
#include "../model/model.hpp"

namespace dyn {

enum class EquationParameters { Numeric, Symbolic };
enum class EquationFormat { Text, Latex, Json, C, Python, Matlab };

// Thrown by equationsReport when `cancel` was set (checked between entries and stages).
struct EquationsCancelled : std::runtime_error {
  EquationsCancelled() : std::runtime_error("the equations of motion were cancelled") {}
};
// Thrown when the model cannot be written in closed form (joint types, loops, mimic joints, a
// symbolic table the derivation cannot take): the reason in plain words, naming the joint.
struct EquationsUnsupported : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct EquationsRequest {
  EquationParameters parameters = EquationParameters::Numeric;
  // Symbolic parameters come from this standard-DH table when given (its model is `model`), else
  // from the model itself (symbolicModel: a URDF's masses, centres of mass, inertias, joint origins).
  const DhTable* table = nullptr;
  // Called from the computing thread: `done` of `total` steps, what is being done ("M_{23}").
  std::function<void(int done, int total, const std::string& stage)> progress;
  const std::atomic<bool>* cancel = nullptr;
  bool christoffel = true;  // also the Christoffel symbols of the first kind
};

// A symbol of the equations: a joint's q, qd or qdd, or a parameter (m1, l1, c1x, I1zz, g).
struct EquationSymbol {
  std::string name;             // plain text: q1, qd1, m2, c2x, I2zz
  std::string tex;              // q_{1}, \dot{q}_{1}, m_{2}
  std::string meaning;          // "mass of link 2 [kg]"
  std::optional<double> value;  // a parameter's number in the model
  int dof = -1;                 // the joint (0-based degree of freedom) of a state symbol
};

// One term of an entry's sum as written, and the joints whose q, qd or qdd it contains (for the
// window's hover: a joint lights the terms it appears in).
struct EquationTerm {
  std::string text, tex;
  std::vector<int> dofs;  // 0-based, ascending
};

struct EquationEntry {
  std::string name;     // M11, c1, g1, tau1, Gamma1_23 (plain text)
  std::string texName;  // M_{11}, c_{1}, g_{1}, \tau_{1}, \Gamma_{1,23}
  std::string text, tex;
  std::vector<EquationTerm> terms;  // the top-level terms (one when the entry is not a sum)
  std::vector<int> dofs;            // union of the terms' dofs
  bool zero = false;
};

// Operations of the generated code after common-subexpression elimination (what Hollerbach 1980,
// Table I counts for the closed-form Lagrangian: multiplications and additions), and the
// evaluations of sin/cos it needs.
// Counted as Hollerbach counts: a subtraction is an addition, a division a multiplication, an
// integer power x^k k - 1 multiplications, a change of sign nothing (docs/symbolic.md, "Code").
struct ClosedFormCost {
  long multiplications = 0, additions = 0, functions = 0;
  long temporaries = 0;  // common subexpressions kept
  // The same code without the elimination (every expression written out as a tree): what CSE saves.
  long multiplicationsWithoutCse = 0, additionsWithoutCse = 0, functionsWithoutCse = 0;
};

// Predicted size of the derivation before starting it, from the model's size and kind of
// parameters; `feasible` false above what cannot finish in reasonable time (the refusal quotes it).
struct EquationsEstimate {
  double seconds = 0;
  long terms = 0;  // expected terms in M's entries altogether
  bool feasible = true;
  std::string explanation;  // "about 40 s, 12,000 terms" / why it is refused
};
EquationsEstimate estimateEquations(const Model& model, EquationParameters parameters);

struct EquationsExpressions;  // GiNaC's expressions, defined inside dynscope_symbolic

// The entries' numbers at one state (evaluateEquations), from the expressions.
struct EquationValues {
  Eigen::VectorXd q, qd, qdd;
  Eigen::MatrixXd M;
  Eigen::VectorXd c, g, tau;
};

struct EquationsReport {
  std::string modelName;
  int n = 0;
  std::vector<std::string> dofNames;  // the joints' names, one per degree of freedom
  std::array<double, 3> gravity{};    // the model's gravity (m/s^2), for JSON's header
  EquationParameters parameters = EquationParameters::Numeric;
  std::vector<EquationEntry> M;            // row-major, n * n (M is symmetric: M[j*n+i] repeats M[i*n+j])
  std::vector<EquationEntry> c;            // C(q, qd) qd, the Coriolis and centrifugal terms
  std::vector<EquationEntry> g;            // g(q)
  std::vector<EquationEntry> tau;          // M(q) qdd + c + g
  std::vector<EquationEntry> christoffel;  // Gamma_{i,jk}, j <= k, non-zero ones only
  std::vector<EquationSymbol> symbols;     // the state's, then the parameters
  ClosedFormCost cost;                     // of tau as generated code
  std::shared_ptr<const EquationsExpressions> expressions;
  std::optional<EquationValues> values;  // set by evaluateEquations; written by every format but code
};

// Derives M, C qd, g, tau (and the Christoffel symbols) by CRBA and RNEA on the symbolic scalar
// and writes each entry the way a textbook does. Throws EquationsUnsupported, EquationsCancelled.
EquationsReport equationsReport(const Model& model, const EquationsRequest& request);

// The numbers of M, c, g and tau at (q, qd, qdd) (nv values each), evaluated exactly from the
// expressions and rounded once; also stored in report.values and in the state symbols' `value`, so
// writeEquations prints them. std::invalid_argument on a wrong size or a number that is not finite.
EquationValues evaluateEquations(EquationsReport& report, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd);

// The cost of the closed form's generated tau code for the engine's general n-link chain
// (generalChain(n), the chain of `dynscope-cli opcount --chain n` and the operation-count chart),
// numeric parameters: the chart's "closed form" series. n = 1..8 (std::invalid_argument otherwise);
// seconds at n = 5, minutes at 6 (docs/operation-counts.md).
ClosedFormCost closedFormCost(int n);

// The report in a format: text, LaTeX (the matrices, then each entry on its own line), JSON, or
// code (C, Python with only `math`, MATLAB) computing M(q), c(q, qd), g(q) and tau(q, qd, qdd).
// `origin` names the model's file in the header comment. Layouts: docs/symbolic.md.
std::string writeEquations(const EquationsReport& report, EquationFormat format, const std::string& origin);

}  // namespace dyn
