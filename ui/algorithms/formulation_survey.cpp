#include "algorithms/formulation_survey.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>

#include "dynscope/dynscope.hpp"
#if DYNSCOPE_HAS_SYMBOLIC
#include "dynscope/symbolic/equations_report.hpp"
#endif

namespace survey {
namespace {

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

// One call of a bound formulation; the result as a matrix (τ, q̈: one column; M: n x n).
Eigen::MatrixXd call(const dyn::BoundFormulation<double>& b, dyn::Problem p, const Eigen::VectorXd& q,
                     const Eigen::VectorXd& qd, const Eigen::VectorXd& third) {
  switch (p) {
    case dyn::Problem::InverseDynamics:
      return b.inverseDynamics(q, qd, third);
    case dyn::Problem::MassMatrix:
      return b.massMatrix(q);
    case dyn::Problem::ForwardDynamics:
      return b.forwardDynamics(q, qd, third);
  }
  return {};
}

// Calls until `budgetMs` has passed (at least 3), the mean time per call in µs.
double timePerCall(const dyn::BoundFormulation<double>& b, dyn::Problem p, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& qd, const Eigen::VectorXd& third, double budgetMs, int* calls) {
  using Clock = std::chrono::steady_clock;
  volatile double sink = 0;
  const auto start = Clock::now();
  int k = 0;
  double elapsedUs = 0;
  do {
    switch (p) {  // no copy of the result: what is timed is the formulation
      case dyn::Problem::InverseDynamics:
        sink = sink + b.inverseDynamics(q, qd, third)[0];
        break;
      case dyn::Problem::MassMatrix:
        sink = sink + b.massMatrix(q)(0, 0);
        break;
      case dyn::Problem::ForwardDynamics:
        sink = sink + b.forwardDynamics(q, qd, third)[0];
        break;
    }
    ++k;
    elapsedUs = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  } while (k < 3 || (elapsedUs < budgetMs * 1e3 && k < 1000000));
  *calls = k;
  return elapsedUs / k;
}

// 3e+13 as "3·10¹³"-free plain text: "3e+13".
std::string approximately(double ops) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0e", ops);
  return text;
}

}  // namespace

double estimatedOperations(const dyn::Formulation& f, int n) {
  const int k = std::clamp(n, 1, 8);
  const dyn::Model chain = dyn::generalChain(k);
  const Eigen::VectorXd q = chain.neutral(), zero = Eigen::VectorXd::Zero(chain.nv);
  const dyn::OpTally t = dyn::countOperations(f, chain, q, zero, zero);
  const double ops = double(t.algorithm.muls + t.algorithm.adds + t.jointTransforms.muls + t.jointTransforms.adds);
  return ops * std::pow(double(n) / k, f.degree);
}

const dyn::Formulation& reference(dyn::Problem problem) {
  return dyn::formulation(problem, problem == dyn::Problem::InverseDynamics ? "rnea"
                                   : problem == dyn::Problem::MassMatrix    ? "crba"
                                                                            : "aba");
}

std::vector<Row> surveyModel(const dyn::Model& model, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                             const Eigen::VectorXd& qdd, double timeBudgetMs, const std::atomic<bool>* cancel) {
  std::vector<Row> rows;
  if (model.nv == 0) return rows;
  // The references: RNEA's τ (also the input of the forward dynamics), CRBA's M, ABA's q̈.
  dyn::Data data(model);
  const Eigen::VectorXd tau = dyn::rnea(model, data, q, qd, qdd);
  const auto thirdFor = [&](dyn::Problem p) -> const Eigen::VectorXd& {
    return p == dyn::Problem::ForwardDynamics ? tau : qdd;
  };
  std::vector<std::pair<dyn::Problem, Eigen::MatrixXd>> refs;
  std::vector<std::string> refErrors;  // a reference that refuses this state (forward dynamics on a singular H)
  for (dyn::Problem p : {dyn::Problem::InverseDynamics, dyn::Problem::MassMatrix, dyn::Problem::ForwardDynamics}) {
    refErrors.emplace_back();
    try {
      refs.emplace_back(p, call(reference(p).bind(model), p, q, qd, thirdFor(p)));
    } catch (const std::exception& e) {
      refs.emplace_back(p, Eigen::MatrixXd());
      refErrors.back() = e.what();
    }
  }

  for (const dyn::Formulation& f : dyn::formulations()) {
    if (cancelled(cancel)) break;
    Row row;
    row.formulation = &f;
    try {
      const dyn::BoundFormulation<double> b = f.bind(model);  // a refusal first: it says more than the cost
      row.estimatedOps = estimatedOperations(f, model.nv);
      if (!(row.estimatedOps <= kMaxTimedOps)) {  // a 1,000-body robot and an O(n^4) method: hours
        row.skipped = "not run: about " + approximately(row.estimatedOps) + " operations per call (it grows as n^" +
                      std::to_string(f.degree) + ")";
        rows.push_back(std::move(row));
        continue;
      }
      const Eigen::VectorXd& third = thirdFor(f.problem);
      const Eigen::MatrixXd result = call(b, f.problem, q, qd, third);
      const auto r = std::find_if(refs.begin(), refs.end(), [&](const auto& x) { return x.first == f.problem; });
      const Eigen::MatrixXd& ref = r->second;
      if (ref.size() != result.size()) throw std::runtime_error(refErrors[size_t(r - refs.begin())]);
      row.maxDiff = (result - ref).cwiseAbs().maxCoeff();
      row.relDiff = row.maxDiff / std::max(ref.cwiseAbs().maxCoeff(), 1e-300);
      if (row.estimatedOps <= kMaxCountedOps) {  // else the counts stay unknown (-1): shown as "—"
        const dyn::OpTally t = dyn::countOperations(f, model, q, qd, third);
        row.muls = t.algorithm.muls;
        row.adds = t.algorithm.adds;
        row.jointMuls = t.jointTransforms.muls;
        row.jointAdds = t.jointTransforms.adds;
        row.tableMuls = t.tabulation.muls;
        row.tableAdds = t.tabulation.adds;
      }
      row.microseconds = timePerCall(b, f.problem, q, qd, third, timeBudgetMs, &row.calls);
    } catch (const std::exception& e) {
      row.refusal = e.what();
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<int> chainSizes(int nMax) {
  static const int kSizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64};
  std::vector<int> out;
  for (int n : kSizes)
    if (n <= std::clamp(nMax, 1, 64)) out.push_back(n);
  return out;
}

int countCap(int degree) { return degree >= 4 ? 32 : 64; }

std::vector<Curve> countCurves(int nMax, const std::atomic<bool>* cancel) {
  const std::vector<int> sizes = chainSizes(nMax);
  std::vector<Curve> curves;
  for (const dyn::Formulation& f : dyn::formulations()) {
    Curve c;
    c.formulation = &f;
    if (sizes.back() > countCap(f.degree)) c.cap = countCap(f.degree);
    curves.push_back(std::move(c));
  }
  std::mt19937 rng(2024);  // the counts of these branch-free formulations do not depend on the state
  std::uniform_real_distribution<double> U(-1, 1);
  for (int n : sizes) {
    const dyn::Model chain = dyn::generalChain(n);
    const Eigen::VectorXd q = dyn::randomConfiguration(chain, rng);
    const Eigen::VectorXd qd = Eigen::VectorXd::NullaryExpr(chain.nv, [&] { return U(rng); });
    const Eigen::VectorXd third = Eigen::VectorXd::NullaryExpr(chain.nv, [&] { return U(rng); });
    for (Curve& c : curves) {
      if (cancelled(cancel)) return curves;
      if (c.cap > 0 && n > c.cap) continue;
      const dyn::OpTally t = dyn::countOperations(*c.formulation, chain, q, qd, third);
      c.n.push_back(n);
      c.muls.push_back(double(t.algorithm.muls));
      c.adds.push_back(double(t.algorithm.adds));
    }
  }
#if DYNSCOPE_HAS_SYMBOLIC
  // Hollerbach's comparison made measurable: the closed form itself, on the same chains.
  Curve closed;
  closed.name = "id: closed form (CSE)";
  for (int n : sizes) {
    if (n > kClosedFormMaxN || cancelled(cancel)) break;
    const dyn::ClosedFormCost cost = dyn::closedFormCost(n);
    closed.n.push_back(n);
    closed.muls.push_back(double(cost.multiplications));
    closed.adds.push_back(double(cost.additions));
  }
  if (!closed.n.empty()) curves.push_back(std::move(closed));
#endif
  return curves;
}

}  // namespace survey
