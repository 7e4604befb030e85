// Operation counts of Hollerbach's Lagrangian family, measured with the counting scalar on the general N-link
// revolute chain (dyn::generalChain) for N = 2..16:
//  - each count is a polynomial in N of exactly the paper's degree (Table I): n⁴ Uicker/Kahn, n² Waters, n for the
//    recursive 4x4 and 3x3 forms, n³ for the configuration-space evaluation: the finite differences of that order
//    are constant and non-zero, and a least-squares fit of lower degree leaves a residual;
//  - the joint transforms A_j (sines, cosines, ∂A_j/∂q_j, ∂²A_j/∂q_j²) are booked apart, as Hollerbach excludes them,
//    and the configuration-space tables are booked as off-line tabulation (the evaluation has no sine at all);
//  - the counting run computes the same τ as double;
//  - at n = 6 the ranking of Table II holds (Uicker/Kahn > Waters > 4x4 > 3x3 > configuration space).
// The measured counts, the fitted polynomials and Hollerbach's are printed (docs/formulations.md discusses them).
#include <QtTest>
#include <array>
#include <cmath>
#include <functional>
#include <random>

#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/formulations/configuration_space_method.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"
#include "dynscope/io/generated_models.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/opcount/counting_scalar.hpp"
#include "random_state.hpp"

using CS = dyn::CountingScalar;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

enum class Kind { UickerKahn, Waters, Lagrange4x4, Lagrange3x3, ConfigurationSpace };

// What Hollerbach's Table I says (multiplications, additions as functions of n) and Table II (n = 6).
struct Paper {
  const char* name;
  Kind kind;
  int degree;
  double (*muls)(double);
  double (*adds)(double);
  long tableMuls, tableAdds;
};
const std::array<Paper, 5> papers = {{
    {"Uicker/Kahn", Kind::UickerKahn, 4,
     [](double n) {
       return 32.5 * n * n * n * n + (86 + 5.0 / 12) * n * n * n + 171.25 * n * n + (53 + 1.0 / 3) * n - 128;
     },
     [](double n) { return 25 * n * n * n * n + (66 + 1.0 / 3) * n * n * n + 129.5 * n * n + (42 + 1.0 / 3) * n - 96; },
     66271, 51548},
    {"Waters", Kind::Waters, 2, [](double n) { return 106.5 * n * n + 620.25 * n - 512; },
     [](double n) { return 82 * n * n + 514 * n - 384; }, 7051, 5652},
    {"Hollerbach (4x4)", Kind::Lagrange4x4, 1, [](double n) { return 830 * n - 592; },
     [](double n) { return 675 * n - 464; }, 4388, 3586},
    {"Hollerbach (3x3)", Kind::Lagrange3x3, 1, [](double n) { return 412 * n - 277; },
     [](double n) { return 320 * n - 201; }, 2195, 1719},
    {"Horn, Raibert", Kind::ConfigurationSpace, 3, [](double n) { return 2 * n * n * n + n * n; },
     [](double n) { return n * n * n + n * n + 2 * n; }, 468, 264},
}};

struct Run {
  dyn::OpTally tally;
  VectorXd tau;
};

using dyn::testing::RandomState;
using dyn::testing::randomState;

VectorXd values(const dyn::VecX<CS>& x) {
  VectorXd v(x.size());
  for (int k = 0; k < x.size(); ++k) v[k] = x[k].value();
  return v;
}

// One call of formulation `kind` on the scalar S, from a fresh workspace (counts: CountingScalar only).
template <class S>
dyn::VecX<S> call(Kind kind, const dyn::ModelTpl<S>& m, const RandomState& s, dyn::OpTally* tally) {
  const dyn::VecX<S> q = s.q.cast<S>(), qd = s.qd.cast<S>(), qdd = s.qdd.cast<S>();
  auto counted = [&](auto& ws, auto run) {
    if constexpr (std::is_same_v<S, CS>) CS::reset();
    dyn::VecX<S> tau = run(ws);
    if constexpr (std::is_same_v<S, CS>) *tally = CS::tally();
    return tau;
  };
  switch (kind) {
    case Kind::UickerKahn: {
      dyn::UickerKahnWorkspace<S> ws(m);
      return counted(ws, [&](auto& w) { return dyn::uickerKahnInverseDynamics(m, w, q, qd, qdd); });
    }
    case Kind::Waters: {
      dyn::WatersWorkspace<S> ws(m);
      return counted(ws, [&](auto& w) { return dyn::watersInverseDynamics(m, w, q, qd, qdd); });
    }
    case Kind::Lagrange4x4: {
      dyn::RecursiveLagrangian4x4Workspace<S> ws(m);
      return counted(ws, [&](auto& w) { return dyn::recursiveLagrangian4x4InverseDynamics(m, w, q, qd, qdd); });
    }
    case Kind::Lagrange3x3: {
      dyn::RecursiveLagrangian3x3Workspace<S> ws(m);
      return counted(ws, [&](auto& w) { return dyn::recursiveLagrangian3x3InverseDynamics(m, w, q, qd, qdd); });
    }
    case Kind::ConfigurationSpace: {
      dyn::ConfigurationSpaceWorkspace<S> ws(m);
      return counted(ws, [&](auto& w) { return dyn::configurationSpaceInverseDynamics(m, w, q, qd, qdd); });
    }
  }
  return {};
}

Run countOn(Kind kind, const dyn::Model& m, unsigned seed = 3) {
  Run r;
  r.tau = values(call<CS>(kind, m.cast<CS>(), randomState(m, seed), &r.tally));
  return r;
}

// Finite differences of order p of y (one entry shorter per order).
std::vector<double> differences(std::vector<double> y, int p) {
  for (int o = 0; o < p; ++o) {
    for (size_t k = 0; k + 1 < y.size(); ++k) y[k] = y[k + 1] - y[k];
    y.pop_back();
  }
  return y;
}

// Least-squares polynomial fit of degree p: coefficients (constant first) and the largest residual.
std::pair<VectorXd, double> polyfit(const std::vector<double>& x, const std::vector<double>& y, int p) {
  MatrixXd V(x.size(), p + 1);
  VectorXd b(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    for (int k = 0; k <= p; ++k) V(i, k) = std::pow(x[i], k);
    b[i] = y[i];
  }
  const VectorXd c = V.colPivHouseholderQr().solve(b);
  return {c, (V * c - b).cwiseAbs().maxCoeff()};
}

QString polynomial(const VectorXd& c) {
  QString s;
  for (int k = int(c.size()) - 1; k >= 0; --k) {
    const double v = std::abs(c[k]) < 1e-6 ? 0.0 : c[k];
    if (v == 0 && k != 0) continue;
    s += QString("%1%2%3")
             .arg(s.isEmpty() ? "" : (v < 0 ? " - " : " + "))
             .arg(s.isEmpty() ? v : std::abs(v), 0, 'g', 6)
             .arg(k == 0   ? ""
                  : k == 1 ? " n"
                           : QString(" n^%1").arg(k));
  }
  return s;
}

}  // namespace

class TestLagrangianOpcounts : public QObject {
  Q_OBJECT

 private slots:
  void growthHasThePapersDegree_data() {
    QTest::addColumn<int>("index");
    for (int k = 0; k < int(papers.size()); ++k) QTest::newRow(papers[k].name) << k;
  }
  void growthHasThePapersDegree() {
    QFETCH(int, index);
    const Paper& paper = papers[index];
    std::vector<double> n, muls, adds;
    for (int N = 2; N <= 16; ++N) {
      const Run r = countOn(paper.kind, dyn::generalChain(N));
      n.push_back(N);
      muls.push_back(double(r.tally.algorithm.muls));
      adds.push_back(double(r.tally.algorithm.adds));
    }
    for (const auto& [what, y] : {std::pair{"multiplications", muls}, std::pair{"additions", adds}}) {
      // exactly of degree p: the p-th differences are one non-zero constant
      const std::vector<double> d = differences(y, paper.degree);
      for (double v : d)
        QVERIFY2(v == d.front() && v > 0, qPrintable(QString("%1 %2: %3-th differences not constant: %4 vs %5")
                                                         .arg(paper.name, what)
                                                         .arg(paper.degree)
                                                         .arg(v)
                                                         .arg(d.front())));
      // and a fit of lower degree does not explain the counts
      const auto [c, residual] = polyfit(n, y, paper.degree);
      const auto [cLow, residualLow] = polyfit(n, y, paper.degree - 1);
      QVERIFY2(residual < 1e-6 * y.back() && residualLow > 1e-3 * y.back(),
               qPrintable(QString("%1 %2: residuals %3 (degree %4), %5 (degree %6)")
                              .arg(paper.name, what)
                              .arg(residual)
                              .arg(paper.degree)
                              .arg(residualLow)
                              .arg(paper.degree - 1)));
      qDebug("%-18s %-15s measured %s;  n = 6: %.0f", paper.name, what, qPrintable(polynomial(c)), y[4]);
    }
    qDebug("%-18s Table I: %.0f multiplications, %.0f additions at n = 6 (Table II: %ld, %ld)", paper.name,
           paper.muls(6), paper.adds(6), paper.tableMuls, paper.tableAdds);
  }

  // A_j and their derivatives (with every sine and cosine) are booked under JointTransforms; the evaluation of
  // the configuration-space method has no joint transform at all, its tables are off-line work.
  void jointTransformsAndTablesBookedApart() {
    const int N = 7;
    const dyn::Model m = dyn::generalChain(N);
    for (const Paper& p : papers) {
      const Run r = countOn(p.kind, m);
      const dyn::OpCounts& alg = r.tally.algorithm;
      QCOMPARE(alg.functions(), std::int64_t(0));
      QVERIFY(alg.muls > 0 && alg.adds > 0);
      if (p.kind == Kind::ConfigurationSpace) {
        QCOMPARE(r.tally.jointTransforms.muls + r.tally.jointTransforms.functions(), std::int64_t(0));
        QVERIFY(r.tally.tabulation.muls > alg.muls && r.tally.tabulation.sin >= N);
      } else {
        QCOMPARE(r.tally.jointTransforms.sin, std::int64_t(N));
        QCOMPARE(r.tally.jointTransforms.cos, std::int64_t(N));
        QVERIFY(r.tally.jointTransforms.muls > 0);
        QCOMPARE(r.tally.tabulation.muls + r.tally.tabulation.adds, std::int64_t(0));
      }
    }
  }

  // The counting runs are the double computations (values), on a chain and on a tree with prismatic joints.
  void countingRunsComputeTheSameTorques() {
    for (const dyn::Model& m :
         {dyn::generalChain(6), dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/stanford_arm.dh")})
      for (const Paper& p : papers) {
        const auto s = randomState(m, 3);
        const VectorXd ref = call<double>(p.kind, m, s, nullptr);
        const Run r = countOn(p.kind, m);
        const double err = (r.tau - ref).cwiseAbs().maxCoeff(), scale = ref.cwiseAbs().maxCoeff();
        QVERIFY2(err <= 1e-12 * scale, qPrintable(QString("%1: %2").arg(p.name).arg(err)));
      }
  }

  // Table II's ranking at n = 6 and the crossovers Hollerbach discusses.
  void rankingAtSixLinks() {
    const dyn::Model m = dyn::generalChain(6);
    std::array<std::int64_t, 5> muls{};
    for (size_t k = 0; k < papers.size(); ++k) {
      const Run r = countOn(papers[k].kind, m);
      muls[k] = r.tally.algorithm.muls;
      qDebug("n = 6 %-18s measured %6ld mul %6ld add | Table II %6ld mul %6ld add | ratio %.2f %.2f", papers[k].name,
             long(r.tally.algorithm.muls), long(r.tally.algorithm.adds), papers[k].tableMuls, papers[k].tableAdds,
             double(r.tally.algorithm.muls) / papers[k].tableMuls,
             double(r.tally.algorithm.adds) / papers[k].tableAdds);
    }
    for (size_t k = 0; k + 1 < muls.size(); ++k) QVERIFY(muls[k] > muls[k + 1]);
    // the configuration-space evaluation (n³) overtakes the recursive 3x3 form (n) somewhere above n = 6
    int crossover = 0;
    for (int N = 6; N <= 40 && !crossover; ++N) {
      const dyn::Model c = dyn::generalChain(N);
      if (countOn(Kind::ConfigurationSpace, c).tally.algorithm.muls >
          countOn(Kind::Lagrange3x3, c).tally.algorithm.muls)
        crossover = N;
    }
    QVERIFY(crossover > 6);
    qDebug("the configuration-space evaluation needs more multiplications than the recursive 3x3 form from n = %d",
           crossover);
  }
};

QTEST_APPLESS_MAIN(TestLagrangianOpcounts)
#include "test_lagrangian_opcounts.moc"
