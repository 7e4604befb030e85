// Inside dynscope_symbolic only (never installed, never included by the CLI or the window): the
// expressions behind an EquationsReport, the deterministic printer and the code generator that
// equations_report.cpp, expression_printer.cpp and code_generation.cpp share.
#pragma once
#include <array>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dynscope/symbolic/equations_of_motion.hpp"
#include "dynscope/symbolic/equations_report.hpp"

namespace dyn {

// What the report's strings were printed from, kept for evaluation and code generation.
struct EquationsExpressions {
  SymbolicState state;
  std::vector<GiNaC::ex> M, c, g, tau;               // M row-major n * n (symmetric)
  std::vector<GiNaC::ex> christoffel;                // in the order of EquationsReport::christoffel
  std::vector<std::array<int, 3>> christoffelIndex;  // (i, j, k), 0-based, j <= k
  std::vector<GiNaC::realsymbol> parameters;         // the symbolic parameters (empty: numeric)
  GiNaC::exmap values;                               // parameter -> its value in the model
  bool decimals = false;                             // numeric parameters: numbers as decimals
};

namespace symbolic_detail {

// GiNaC is not thread-safe: its expressions share reference-counted nodes (the numbers 0, 1, ...)
// without atomic counts. Every entry point of the library that builds, prints or drops expressions
// holds this lock (recursive: closedFormCost calls equationsReport), so the window may derive the
// equations in one thread while the operation-count chart counts the closed form in another.
std::recursive_mutex& computerAlgebraMutex();

struct Printed {
  std::string text, tex;
};

// GiNaC orders the terms of a sum and the factors of a product by hash values that depend on where
// its type information lies in memory, so its own printer writes the same expression differently
// from run to run. This printer sorts them: terms by their text without the leading number, factors
// numbers first, then symbols and their powers, functions, sums; the same expression, the same text.
// `decimals` (numeric parameters): non-integer numbers as the shortest decimal of their double, and
// a number times a sum multiplied out.
Printed printExpression(const GiNaC::ex& x, bool decimals);
// The top-level terms of x in the printed order, each with its text (signed) and TeX.
std::vector<std::pair<GiNaC::ex, Printed>> printTerms(const GiNaC::ex& x, bool decimals);
// Joins printed terms as a sum: a+b-c, a + b - c.
Printed joinTerms(const std::vector<Printed>& terms);

// The shortest decimal that reads back as exactly x.
std::string shortestDecimal(double x);

// The cost of tau = M qdd + c + g as generated code after common-subexpression elimination.
ClosedFormCost generatedCost(const EquationsExpressions& x, int n);
// C, Python or MATLAB code computing M(q), c(q, qd), g(q) and tau(q, qd, qdd).
std::string generateCode(const EquationsReport& report, EquationFormat format, const std::string& origin);

}  // namespace symbolic_detail
}  // namespace dyn
