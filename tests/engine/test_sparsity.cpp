// Branch-induced sparsity (Featherstone Part 2, eq. 45) and the fill-in of Cholesky orders:
// the structural pattern is the body-level ancestor relation and exactly where H (built column
// by column from RNEA, not CRBA) is zero; factorLTL's L reproduces H, solves like Eigen's LLT
// and stays inside the pattern; symbolic fill-in matches hand-worked and closed-form counts and
// the non-zeros of a numeric dense factor.
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <QDir>
#include <QtTest>
#include <algorithm>
#include <numeric>
#include <random>

#include "check_close.hpp"
#include "dynscope/algorithms/mass_matrix_spectrum.hpp"
#include "dynscope/algorithms/sparsity.hpp"
#include "dynscope/dynscope.hpp"
#include "model_rows.hpp"
#include "random_tree.hpp"

using dyn::CholeskyForm;
using dyn::DofRelation;
using dyn::Model;
using dyn::SparsityPattern;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

using dyn::testing::modelFor;

QString robot(const char* file) { return QDir(DYNSCOPE_ROBOTS_DIR).filePath(file); }

void addModelRows() {
  QTest::addColumn<QString>("source");
  QTest::addColumn<bool>("floating");
  QTest::newRow("humanoid") << robot("humanoid.urdf") << false;
  QTest::newRow("humanoid floating") << robot("humanoid.urdf") << true;
  QTest::newRow("quadruped floating") << robot("quadruped.urdf") << true;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const QString src = QString("random:%1:%2").arg(seed).arg(4 + int(seed * 7) % 12);
    QTest::newRow(qPrintable(src)) << src << false;
  }
}

// H column by column: with zero gravity and zero velocity, RNEA(q, 0, e_k) = H e_k. RNEA never
// looks at the sparsity, so its branch zeros are a genuine consequence of the dynamics.
MatrixXd massMatrixByRnea(const Model& model, const VectorXd& q) {
  Model m = model;
  m.gravity = dyn::Motion<double>(Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  dyn::Data d(m);
  MatrixXd H(m.nv, m.nv);
  const VectorXd zero = VectorXd::Zero(m.nv);
  for (int k = 0; k < m.nv; ++k) H.col(k) = dyn::rnea(m, d, q, zero, VectorXd::Unit(m.nv, k));
  return H;
}

// Lower triangle of factorLTL's in-place result (its upper triangle still holds H).
MatrixXd ltlFactor(const Model& model, const MatrixXd& H) {
  MatrixXd L = H;
  dyn::factorLTL(model, L);
  return L.triangularView<Eigen::Lower>();
}

// The tree  base -> a -> {b, c}: three revolute dofs, b and c on different branches.
Model forkModel() {
  dyn::RobotDescription r;
  r.name = r.sourceFile = "fork";
  std::mt19937 rng(7);
  for (const char* n : {"base", "a", "b", "c"}) {
    dyn::LinkDesc l;
    l.name = n;
    l.inertial = dyn::testing::randomInertial(rng);
    r.links.push_back(l);
  }
  const char* pairs[3][2] = {{"base", "a"}, {"a", "b"}, {"a", "c"}};
  for (int j = 0; j < 3; ++j) {
    dyn::JointDesc jd;
    jd.name = std::string("j_") + pairs[j][1];
    jd.kind = dyn::JointKind::Continuous;
    jd.parent = pairs[j][0];
    jd.child = pairs[j][1];
    jd.origin = dyn::testing::randomPose(rng);
    jd.axis = Eigen::Vector3d::UnitZ();
    r.joints.push_back(jd);
  }
  return dyn::buildModel(r);
}

std::vector<int> identityOrder(int n) {
  std::vector<int> o(n);
  std::iota(o.begin(), o.end(), 0);
  return o;
}

}  // namespace

class TestSparsity : public QObject {
  Q_OBJECT

 private slots:
  void patternIsAncestorRelation_data() { addModelRows(); }
  void patternIsAncestorRelation() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model model = modelFor(source, floating);
    const SparsityPattern P = dyn::structuralPattern(model);
    QCOMPARE(P.rows(), model.nv);
    for (int i = 0; i < model.nv; ++i)
      for (int j = 0; j < model.nv; ++j) {
        const int bi = model.dofBody[i], bj = model.dofBody[j];
        // Reference: the body-level parent array, not dofParent.
        const bool related = model.isAncestor(bi, bj) || model.isAncestor(bj, bi);
        QVERIFY2(P(i, j) == related, qPrintable(QString("dofs %1, %2").arg(i).arg(j)));
        const DofRelation r = dyn::dofRelation(model, i, j);
        QCOMPARE(dyn::structurallyNonZero(r), related);
        if (i == j)
          QCOMPARE(r, DofRelation::SameDof);
        else if (bi == bj)
          QCOMPARE(r, DofRelation::SameJoint);
        else if (model.isAncestor(bi, bj))
          QCOMPARE(r, DofRelation::Ancestor);
        else if (model.isAncestor(bj, bi))
          QCOMPARE(r, DofRelation::Descendant);
      }
  }

  // Zero in H(q) (built by RNEA) exactly where the pattern says so, at random q: every
  // structural non-zero is non-zero at some q, every branch zero is exactly 0.0 at all of them.
  void patternIsWhereHIsZero_data() { addModelRows(); }
  void patternIsWhereHIsZero() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model model = modelFor(source, floating);
    const SparsityPattern P = dyn::structuralPattern(model);
    dyn::Data d(model);
    std::mt19937 rng(11);
    SparsityPattern seen = SparsityPattern::Constant(model.nv, model.nv, false);
    for (int s = 0; s < 4; ++s) {
      const VectorXd q = dyn::randomConfiguration(model, rng);
      const MatrixXd H = massMatrixByRnea(model, q);
      const MatrixXd Hc = dyn::crba(model, d, q);
      CHECK_CLOSE(Hc, H, 1e-10, 1 + H.cwiseAbs().maxCoeff(), "crba vs rnea columns");
      for (int i = 0; i < model.nv; ++i)
        for (int j = 0; j < model.nv; ++j) {
          if (!P(i, j)) {
            QVERIFY2(H(i, j) == 0.0 && Hc(i, j) == 0.0,
                     qPrintable(QString("H(%1,%2) = %3").arg(i).arg(j).arg(H(i, j))));
          }
          seen(i, j) = seen(i, j) || H(i, j) != 0.0;
        }
    }
    // Conversely every structural non-zero is non-zero at some q, except within a multi-dof
    // joint, whose own block may vanish identically (a planar or floating joint's orthogonal
    // translations: m e_x . e_y = 0).
    for (int i = 0; i < model.nv; ++i)
      for (int j = 0; j < model.nv; ++j)
        if (P(i, j) && !seen(i, j))
          QVERIFY2(dyn::dofRelation(model, i, j) == DofRelation::SameJoint,
                   qPrintable(QString("H(%1,%2) is zero at every q").arg(i).arg(j)));
  }

  void ltlReproducesHAndSolves_data() { addModelRows(); }
  void ltlReproducesHAndSolves() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model model = modelFor(source, floating);
    const SparsityPattern P = dyn::structuralPattern(model);
    dyn::Data d(model);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> U(-1, 1);
    for (int s = 0; s < 3; ++s) {
      const MatrixXd H = dyn::crba(model, d, dyn::randomConfiguration(model, rng));
      const MatrixXd L = ltlFactor(model, H);
      const double scale = 1 + H.cwiseAbs().maxCoeff();
      CHECK_CLOSE(MatrixXd(L.transpose() * L), H, 1e-12, scale, "L^T L vs H");
      // No fill-in: every entry of L outside the pattern is exactly zero.
      for (int i = 0; i < model.nv; ++i)
        for (int j = 0; j <= i; ++j)
          if (!P(i, j)) QVERIFY2(L(i, j) == 0.0, qPrintable(QString("fill at L(%1,%2)").arg(i).arg(j)));
      // The Cholesky factor with positive diagonal is unique: equal to the dense one.
      CHECK_CLOSE(dyn::denseCholesky(H, CholeskyForm::LTL), L, 1e-9, 1 + L.cwiseAbs().maxCoeff(), "dense L^T L");
      VectorXd b(model.nv);
      for (int k = 0; k < model.nv; ++k) b[k] = U(rng);
      VectorXd x = b;
      dyn::solveLTL(model, L, x);
      const VectorXd xe = H.llt().solve(b);
      CHECK_CLOSE(x, xe, 1e-9, 1 + xe.cwiseAbs().maxCoeff(), "solveLTL vs Eigen LLT");
    }
  }

  // base -> a -> {b, c}: eliminating a first (L L^T, model order) couples b and c: one fill
  // entry at (2,1). Eliminating from the tip (L^T L) never does; reversing the order swaps them.
  void forkFillInByHand() {
    const Model model = forkModel();
    QCOMPARE(model.nv, 3);
    const SparsityPattern P = dyn::structuralPattern(model);
    SparsityPattern expected(3, 3);
    expected << true, true, true, true, true, false, true, false, true;
    QVERIFY(P == expected);
    QCOMPARE(dyn::dofRelation(model, 1, 2), DofRelation::DifferentBranches);
    QCOMPARE(dyn::dofRelation(model, 0, 2), DofRelation::Ancestor);
    QCOMPARE(dyn::dofRelation(model, 2, 0), DofRelation::Descendant);
    const std::vector<int> id = {0, 1, 2}, reversed = {2, 1, 0};
    QCOMPARE((int)dyn::choleskyFillIn(P, id, CholeskyForm::LTL).count(), 0);
    const SparsityPattern F = dyn::choleskyFillIn(P, id, CholeskyForm::LLT);
    QCOMPARE((int)F.count(), 1);
    QVERIFY(F(2, 1));
    // Reversed, the dofs are (c, b, a): L^T L eliminates a (now last) first, coupling c and b.
    const SparsityPattern R = dyn::choleskyFillIn(P, reversed, CholeskyForm::LTL);
    QCOMPARE((int)R.count(), 1);
    QVERIFY(R(1, 0));
    QCOMPARE((int)dyn::choleskyFillIn(P, reversed, CholeskyForm::LLT).count(), 0);
  }

  // The humanoid: breadth-first is a regular numbering (parents first), so, like the model's
  // depth-first order, it causes no fill in L^T L. The textbook L L^T in either order fills
  // every branch-zero pair that shares an ancestor dof (closed form below).
  void humanoidFillIn_data() {
    QTest::addColumn<bool>("floating");
    QTest::newRow("fixed") << false;
    QTest::newRow("floating") << true;
  }
  void humanoidFillIn() {
    QFETCH(bool, floating);
    const Model model = dyn::loadModel(robot("humanoid.urdf").toStdString(), {.floatingBase = floating});
    const SparsityPattern P = dyn::structuralPattern(model);
    const std::vector<int> dfs = identityOrder(model.nv), bfs = dyn::breadthFirstOrder(model);
    dyn::checkPermutation(bfs, model.nv);
    QVERIFY(bfs != dfs);
    std::vector<int> position(model.nv);
    for (int k = 0; k < model.nv; ++k) position[bfs[k]] = k;
    for (int k = 0; k < model.nv; ++k) {
      if (model.dofParent[k] >= 0) QVERIFY(position[model.dofParent[k]] < position[k]);  // regular
      if (k > 0) {  // breadth-first: depth never decreases along the order
        auto depth = [&](int dof) {
          int n = 0;
          for (int b = model.dofBody[dof]; b > 0; b = model.parent[b]) ++n;
          return n;
        };
        QVERIFY(depth(bfs[k - 1]) <= depth(bfs[k]));
      }
    }
    // Closed form for L L^T in a parents-first order: pairs on different branches with a common
    // ancestor dof (one rooted subtree) all fill; others never meet.
    auto rootDof = [&](int k) {
      while (model.dofParent[k] >= 0) k = model.dofParent[k];
      return k;
    };
    int expectedLLT = 0;
    for (int i = 0; i < model.nv; ++i)
      for (int j = 0; j < i; ++j)
        if (!P(i, j) && rootDof(i) == rootDof(j)) ++expectedLLT;
    QVERIFY(expectedLLT > 0);
    QCOMPARE((int)dyn::choleskyFillIn(P, dfs, CholeskyForm::LTL).count(), 0);
    QCOMPARE((int)dyn::choleskyFillIn(P, bfs, CholeskyForm::LTL).count(), 0);
    QCOMPARE((int)dyn::choleskyFillIn(P, dfs, CholeskyForm::LLT).count(), expectedLLT);
    QCOMPARE((int)dyn::choleskyFillIn(P, bfs, CholeskyForm::LLT).count(), expectedLLT);
    std::vector<int> rev(dfs.rbegin(), dfs.rend());  // children first: L^T L now fills
    QCOMPARE((int)dyn::choleskyFillIn(P, rev, CholeskyForm::LTL).count(), expectedLLT);
  }

  // A numeric dense factor of P H P^T is zero (to rounding) outside the symbolic pattern, and
  // predicted fill is real: some of it is far from zero. (Single structural entries may be tiny
  // or vanish for geometric reasons, so entry-by-entry equality is not expected.)
  void symbolicMatchesNumericFactor_data() { addModelRows(); }
  void symbolicMatchesNumericFactor() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model model = modelFor(source, floating);
    const SparsityPattern P = dyn::structuralPattern(model);
    dyn::Data d(model);
    std::mt19937 rng(3);
    const MatrixXd H = dyn::crba(model, d, dyn::randomConfiguration(model, rng));
    const std::vector<int> dfs = identityOrder(model.nv);
    std::vector<int> shuffled = dfs;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (const std::vector<int>& order : {dfs, dyn::breadthFirstOrder(model), shuffled})
      for (CholeskyForm form : {CholeskyForm::LTL, CholeskyForm::LLT}) {
        const MatrixXd A = dyn::permuteSymmetric(H, order);
        const MatrixXd L = dyn::denseCholesky(A, form);
        CHECK_CLOSE(form == CholeskyForm::LTL ? MatrixXd(L.transpose() * L) : MatrixXd(L * L.transpose()), A, 1e-11,
                    1 + A.cwiseAbs().maxCoeff(), "dense factor");
        const SparsityPattern S = dyn::symbolicCholesky(P, order, form);
        const double tiny = 1e-13 * (1 + L.cwiseAbs().maxCoeff());
        const SparsityPattern F = dyn::choleskyFillIn(P, order, form);
        double fillMax = 0;
        for (int i = 0; i < model.nv; ++i)
          for (int j = 0; j < model.nv; ++j) {
            if (!S(i, j))
              QVERIFY2(std::abs(L(i, j)) <= tiny,
                       qPrintable(QString("L(%1,%2) = %3 outside the symbolic pattern").arg(i).arg(j).arg(L(i, j))));
            if (F(i, j)) fillMax = std::max(fillMax, std::abs(L(i, j)));
          }
        if (F.count() > 0) QVERIFY2(fillMax > 1e-6 * L.cwiseAbs().maxCoeff(), "predicted fill is numerically zero");
      }
  }

  // The elimination-tree algorithm against the definition of fill (the elimination game: removing
  // a pivot couples all its remaining neighbours), on random symmetric patterns that need not come
  // from a tree, in random orders, both forms.
  void symbolicMatchesTheEliminationGame() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> U(0, 1);
    for (int trial = 0; trial < 60; ++trial) {
      const int n = 1 + int(U(rng) * 25);
      const double density = U(rng) * 0.5;
      SparsityPattern P = SparsityPattern::Constant(n, n, false);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) P(i, j) = P(j, i) = i == j || U(rng) < density;
      std::vector<int> order = identityOrder(n);
      std::shuffle(order.begin(), order.end(), rng);
      for (CholeskyForm form : {CholeskyForm::LTL, CholeskyForm::LLT}) {
        SparsityPattern G = dyn::permutePattern(P, order);
        for (int step = 0; step < n; ++step) {  // the game, O(n^3)
          const int k = form == CholeskyForm::LLT ? step : n - 1 - step;
          std::vector<int> nb;
          for (int i = 0; i < n; ++i)
            if (i != k && G(i, k) && (form == CholeskyForm::LLT ? i > k : i < k)) nb.push_back(i);
          for (int i : nb)
            for (int j : nb) G(i, j) = true;
        }
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j) G(i, j) = false;
        QVERIFY2(
            dyn::symbolicCholesky(P, order, form) == G,
            qPrintable(QString("trial %1, n %2, %3").arg(trial).arg(n).arg(form == CholeskyForm::LTL ? "LTL" : "LLT")));
      }
    }
  }

  // The O(n) spectrum (RNEA applies H, ABA its inverse) against the dense eigen solver of CRBA's H,
  // on the shipped trees (fixed and floating) and random trees, at a random pose.
  void spectrumWithoutFormingH_data() { addModelRows(); }
  void spectrumWithoutFormingH() {
    QFETCH(QString, source);
    QFETCH(bool, floating);
    const Model model = modelFor(source, floating);
    dyn::Data d(model);
    std::mt19937 rng(11);
    const VectorXd q = dyn::randomConfiguration(model, rng);
    const Eigen::SelfAdjointEigenSolver<MatrixXd> eig(dyn::crba(model, d, q), Eigen::EigenvaluesOnly);
    const dyn::MassMatrixSpectrum s = dyn::massMatrixSpectrum(model, d, q, 1e-12, 20000);
    const double lo = eig.eigenvalues()[0], hi = eig.eigenvalues()[model.nv - 1];
    QVERIFY2(std::abs(s.lambdaMax / hi - 1) < 1e-6, qPrintable(QString("%1 vs %2").arg(s.lambdaMax).arg(hi)));
    QVERIFY2(std::abs(s.lambdaMin / lo - 1) < 1e-6, qPrintable(QString("%1 vs %2").arg(s.lambdaMin).arg(lo)));
    QVERIFY(std::abs(s.condition() / (hi / lo) - 1) < 1e-5);
  }

  // A joint that moves no mass: H is singular, ABA cannot invert it, the spectrum says so.
  void spectrumOfASingularH() {
    dyn::RobotDescription r = dyn::testing::randomTree(3, 5);
    for (auto& link : r.links)  // a leaf (no joint's parent) without mass or inertia
      if (std::none_of(r.joints.begin(), r.joints.end(), [&](const auto& j) { return j.parent == link.name; }) &&
          std::any_of(r.joints.begin(), r.joints.end(),
                      [&](const auto& j) { return j.child == link.name && j.kind != dyn::JointKind::Fixed; })) {
        link.inertial.reset();
        break;
      }
    const Model model = dyn::buildModel(r);
    dyn::Data d(model);
    const dyn::MassMatrixSpectrum s = dyn::massMatrixSpectrum(model, d, model.neutral());
    QCOMPARE(s.lambdaMin, 0.0);
    QVERIFY(std::isinf(s.condition()));
    QVERIFY(s.lambdaMax > 0);
  }

  void badInput() {
    const Model model = forkModel();
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, dyn::dofRelation(model, -1, 0));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, dyn::dofRelation(model, 0, 3));
    const SparsityPattern P = dyn::structuralPattern(model);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::permutePattern(P, {0, 1}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::choleskyFillIn(P, {0, 1, 1}));
    MatrixXd notSpd = MatrixXd::Identity(3, 3);
    notSpd(1, 1) = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::denseCholesky(notSpd, CholeskyForm::LTL));
    notSpd(1, 1) = std::nan("");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::denseCholesky(notSpd, CholeskyForm::LLT));
  }
};

QTEST_APPLESS_MAIN(TestSparsity)
#include "test_sparsity.moc"
