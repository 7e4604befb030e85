// What the Algorithms dock shows, computed without Qt so that it can run on a worker thread:
// every registry formulation (dynscope/formulations/registry.hpp) on the loaded robot at one state
// (its largest difference from the engine's default, its measured operation count and time per
// call, or its refusal), and the operation counts of every formulation on the general N-link
// chains dyn::generalChain(N), for the log-log figure.
#pragma once
#include <Eigen/Core>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "dynscope/formulations/registry.hpp"

namespace survey {

struct Row {
  const dyn::Formulation* formulation = nullptr;
  std::string refusal;             // non-empty: the formulation refuses the model (the engine's message)
  double maxDiff = NAN;            // max |result - reference|: τ against RNEA, M against CRBA, q̈ against ABA
  double relDiff = NAN;            // maxDiff / max(|reference|, 1e-300)
  long long muls = -1, adds = -1;  // one call, the algorithm itself
  long long jointMuls = -1, jointAdds = -1;  // the joint transforms (the papers leave them out)
  long long tableMuls = -1, tableAdds = -1;  // the tabulation (configuration-space: G, J, C at q; 0 for the others)
  double microseconds = NAN;                 // measured time per call (a tabulating formulation's includes it)
  int calls = 0;                             // calls timed
  // Non-empty: not run on this robot because one call would take too long (its cost grows as
  // n^degree); the estimate is said here. The figure still shows the formulation's growth.
  std::string skipped;
  double estimatedOps = NAN;  // operations of one call, extrapolated from a small chain
};

// Largest estimated operation count of one call the dock runs (timing repeats it at least 3
// times) and counts with the counting scalar (tens of times slower than double).
inline constexpr double kMaxTimedOps = 2e8;
inline constexpr double kMaxCountedOps = 2e7;
// The operations of one call of f on an n-dof robot, extrapolated as n^degree from the count on
// the general chain of min(n, 8) links (an upper bound for branched trees of the same n).
double estimatedOperations(const dyn::Formulation& f, int n);

// Every formulation of the registry, in table order, at (q, qd, qdd); the forward-dynamics
// formulations get τ = RNEA(q, qd, qdd). Each is timed for about `timeBudgetMs` (at least 3 calls).
// Stops early (rows left default) when *cancel becomes true.
std::vector<Row> surveyModel(const dyn::Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                             const Eigen::VectorXd& qdd, double timeBudgetMs = 4.0,
                             const std::atomic<bool>* cancel = nullptr);

// The reference formulation of a problem: rnea, crba, aba.
const dyn::Formulation& reference(dyn::Problem problem);

struct Curve {
  const dyn::Formulation* formulation = nullptr;  // null: the closed form (below)
  std::string name;                               // the closed form's series name
  std::vector<int> n;                             // chain sizes measured
  std::vector<double> muls, adds;                 // the algorithm's count at each (joint transforms excluded)
  int cap = 0;                                    // > 0: measured only up to this n (its cost grows too fast)
};

// The chain sizes of the figure: 1, 2, ... up to nMax (<= 64), about geometrically spaced.
std::vector<int> chainSizes(int nMax);
// The largest n counted for a formulation whose count grows as n^degree (Uicker/Kahn: 32).
int countCap(int degree);
// The closed form's τ as generated code after common-subexpression elimination (dyn::closedFormCost,
// computer algebra: only when built with it) up to this n: it grows about sixfold a link (n = 4 in
// about a second, 5 in 23 s; docs/operation-counts.md).
inline constexpr int kClosedFormMaxN = 4;
// The counts of every formulation on generalChain(N) for N in chainSizes(nMax), then the closed
// form's (a curve without formulation) when this build has computer algebra.
std::vector<Curve> countCurves(int nMax, const std::atomic<bool>* cancel = nullptr);

}  // namespace survey
