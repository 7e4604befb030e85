// Every formulation of the engine's registry (dynscope/formulations/registry.hpp) against the
// spatial algorithms it must equal, to 1e-10 relative: inverse dynamics against RNEA, mass matrices
// against CRBA, forward dynamics against ABA; on every robot in robots/ it accepts (URDF and DH)
// and on seeded random serial chains and branched trees of revolute and prismatic joints (with
// massless links). Also Saha's convective-inertia matrix (C qd + g = RNEA(q, qd, 0)), the DeNOC
// round trip ID(FD(tau)) = tau, and the refusals: a model with a joint a formulation cannot handle
// is refused with a message that names the joint (and the floating base).
#include <QDir>
#include <QtTest>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "random_tree.hpp"

using dyn::Model;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

constexpr double kTol = 1e-10;
constexpr int kStates = 4;

using K = dyn::JointKind;

struct State {
  VectorXd q, qd, qdd, tau;
};

State randomState(const Model& m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  State s;
  s.q = dyn::randomConfiguration(m, rng);
  s.qd = VectorXd::NullaryExpr(m.nv, [&] { return 2 * U(rng); });
  s.qdd = VectorXd::NullaryExpr(m.nv, [&] { return 2 * U(rng); });
  s.tau = VectorXd::NullaryExpr(m.nv, [&] { return 5 * U(rng); });
  return s;
}

// max |a - b| relative to max(1, max |b|); infinite on a size mismatch or a non-finite entry.
double relErr(const MatrixXd& a, const MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  if (a.size() == 0) return 0;
  const double e = (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
  return std::isfinite(e) ? e : INFINITY;
}

#define CHECK_REL(a, b, what)                                                                                \
  do {                                                                                                       \
    const double e_ = relErr((a), (b));                                                                      \
    if (!(e_ <= kTol)) QFAIL(qPrintable(QString("%1: relative error %2 > %3").arg(what).arg(e_).arg(kTol))); \
  } while (false)

bool revolutePrismaticOnly(const Model& m) {
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[i].type != dyn::JointType::Revolute && m.joints[i].type != dyn::JointType::Prismatic) return false;
  return true;
}

// A serial chain of n links with random origins, axes and inertias, joints drawn from kinds;
// link `massless` (if > 0) has no mass at all (a DH dummy frame).
Model randomChain(unsigned seed, int n, std::vector<K> kinds, int massless = 0) {
  std::mt19937 rng(seed);
  dyn::RobotDescription r;
  r.name = "chain" + std::to_string(seed);
  r.sourceFile = r.name;
  for (int l = 0; l <= n; ++l) {
    dyn::LinkDesc ld;
    ld.name = "link" + std::to_string(l);
    ld.inertial = dyn::testing::randomInertial(rng);
    if (l == massless && l > 0) ld.inertial.reset();
    r.links.push_back(ld);
  }
  std::uniform_real_distribution<double> V(-1, 1);
  for (int l = 1; l <= n; ++l) {
    dyn::JointDesc jd;
    jd.name = "joint" + std::to_string(l);
    jd.kind = kinds[std::uniform_int_distribution<int>(0, int(kinds.size()) - 1)(rng)];
    jd.parent = "link" + std::to_string(l - 1);
    jd.child = "link" + std::to_string(l);
    jd.origin = dyn::testing::randomPose(rng);
    jd.axis = Eigen::Vector3d(V(rng), V(rng), V(rng)).normalized();
    r.joints.push_back(jd);
  }
  return dyn::buildModel(r);
}

// Every registry formulation on model m at kStates random states, against RNEA, CRBA and ABA.
void checkAllFormulations(const Model& m, const QString& label) {
  dyn::Data d(m);
  for (const dyn::Formulation& f : dyn::formulations()) {
    const dyn::BoundFormulation<double> b = f.bind(m);
    const QString what = label + ": " + dyn::problemName(f.problem) + "/" + QString::fromStdString(f.name);
    for (unsigned k = 0; k < kStates; ++k) {
      const State s = randomState(m, 100 + k);
      switch (f.problem) {
        case dyn::Problem::InverseDynamics:
          CHECK_REL(b.inverseDynamics(s.q, s.qd, s.qdd), dyn::rnea(m, d, s.q, s.qd, s.qdd), what + " = RNEA");
          break;
        case dyn::Problem::MassMatrix:
          CHECK_REL(b.massMatrix(s.q), dyn::crba(m, d, s.q), what + " = CRBA");
          break;
        case dyn::Problem::ForwardDynamics:
          CHECK_REL(b.forwardDynamics(s.q, s.qd, s.tau), dyn::aba(m, d, s.q, s.qd, s.tau), what + " = ABA");
          break;
      }
    }
  }
}

// Saha's eq. 20 pieces on model m: C qd + g = RNEA(q, qd, 0), I = CRBA, and ID(FD(tau)) = tau.
void checkDenocIdentities(const Model& m, const QString& label) {
  dyn::Data d(m);
  dyn::DenocWorkspace ws(m);
  for (unsigned k = 0; k < kStates; ++k) {
    const State s = randomState(m, 200 + k);
    const VectorXd zero = VectorXd::Zero(m.nv);
    const VectorXd g = dyn::rnea(m, d, s.q, zero, zero);
    const VectorXd h = dyn::rnea(m, d, s.q, s.qd, zero);
    const MatrixXd C = dyn::denocConvectiveInertia(m, ws, s.q, s.qd);
    CHECK_REL(VectorXd(C * s.qd + g), h, label + ": C qd + g = RNEA(q, qd, 0)");
    // C is linear in qd
    const MatrixXd C2 = dyn::denocConvectiveInertia(m, ws, s.q, VectorXd(-2.5 * s.qd));
    CHECK_REL(C2, MatrixXd(-2.5 * C), label + ": C(q, a qd) = a C(q, qd)");
    // entries for two joints on different branches stay zero, as in I
    const MatrixXd I = dyn::denocGeneralizedInertia(m, ws, s.q);
    for (int r = 0; r < m.nv; ++r)
      for (int c = 0; c < m.nv; ++c) {
        const int a = m.dofBody[r], b = m.dofBody[c];
        if (!m.isAncestor(a, b) && !m.isAncestor(b, a) && (C(r, c) != 0 || I(r, c) != 0))
          QFAIL(qPrintable(label + QString(": C or I non-zero at (%1,%2) across branches").arg(r).arg(c)));
      }
    // I qdd + C qd + g = tau
    const VectorXd tau = dyn::denocInverseDynamics(m, ws, s.q, s.qd, s.qdd);
    CHECK_REL(VectorXd(I * s.qdd + C * s.qd + g), tau, label + ": I qdd + C qd + g = DeNOC ID (eq. 20)");
    // ID(FD(tau)) = tau
    const VectorXd qdd = dyn::denocForwardDynamics(m, ws, s.q, s.qd, s.tau);
    CHECK_REL(dyn::denocInverseDynamics(m, ws, s.q, s.qd, qdd), s.tau, label + ": ID(FD(tau)) = tau");
  }
}

// The first joint (in body order) that is neither revolute nor prismatic.
int firstUnsupportedJoint(const Model& m) {
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[i].type != dyn::JointType::Revolute && m.joints[i].type != dyn::JointType::Prismatic) return i;
  return 0;
}

}  // namespace

class TestFormulations : public QObject {
  Q_OBJECT

 private slots:
  void registryIsComplete() {
    // the names the CLI and the issue promise, each once per problem, each with a callable
    const auto has = [](dyn::Problem p, const char* name) { return dyn::findFormulation(p, name) != nullptr; };
    for (const char* n : {"rnea", "denoc", "newton-euler-3", "uicker-kahn", "waters", "lagrange-4x4", "lagrange-3x3",
                          "configuration-space"})
      QVERIFY2(has(dyn::Problem::InverseDynamics, n), n);
    for (const char* n : {"crba", "denoc"}) QVERIFY2(has(dyn::Problem::MassMatrix, n), n);
    for (const char* n : {"aba", "crba", "denoc"}) QVERIFY2(has(dyn::Problem::ForwardDynamics, n), n);
    for (const dyn::Formulation& f : dyn::formulations()) {
      QVERIFY(f.bind && f.bindCounting);
      QVERIFY(!f.title.empty() && !f.description.empty() && !f.reference.empty() && !f.header.empty());
      QVERIFY(f.degree >= 1 && f.degree <= 4);
      int same = 0;
      for (const dyn::Formulation& g : dyn::formulations()) same += g.problem == f.problem && g.name == f.name;
      QCOMPARE(same, 1);
      for (const dyn::PaperCount& p : f.paperCounts) {
        // a legible polynomial reproduces the paper's own tabulated values
        for (const dyn::PaperCount::Value& v : p.tabulated) {
          if (const auto m = p.mulsAt(v.n)) QCOMPARE(std::llround(*m), v.muls);
          if (const auto a = p.addsAt(v.n)) QCOMPARE(std::llround(*a), v.adds);
        }
        QVERIFY(!p.basis.empty() && !p.source.empty());
      }
    }
    QCOMPARE(dyn::formulationNames(dyn::Problem::InverseDynamics).front(), std::string("rnea"));
    bool threw = false;
    try {
      dyn::formulation(dyn::Problem::MassMatrix, "aba");
    } catch (const std::invalid_argument& e) {
      threw = true;
      QVERIFY2(QString(e.what()).contains("valid: crba, denoc"), e.what());
    }
    QVERIFY(threw);
  }

  void robots_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(DYNSCOPE_ROBOTS_DIR);
    const QStringList files = dir.entryList({"*.urdf", "*.dh"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 5);
    for (const QString& f : files) QTest::newRow(qPrintable(f)) << dir.filePath(f);
  }
  void robots() {
    QFETCH(QString, file);
    const Model m = dyn::loadModel(file.toStdString());
    if (!revolutePrismaticOnly(m)) QSKIP("the robot has a joint the classical formulations refuse");
    checkAllFormulations(m, QFileInfo(file).fileName());
    if (QTest::currentTestFailed()) return;
    checkDenocIdentities(m, QFileInfo(file).fileName());
  }

  // The humanoid is a tree of 32 revolute joints: the branched case on a real robot.
  void humanoidIsABranchedTree() {
    const Model m = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/humanoid.urdf");
    QCOMPARE(m.nv, 32);
    QVERIFY(revolutePrismaticOnly(m));
    int leaves = 0;
    for (int i = 1; i <= m.N; ++i) {
      bool leaf = true;
      for (int j = i + 1; j <= m.N; ++j) leaf &= m.parent[j] != i;
      leaves += leaf;
    }
    QVERIFY(leaves >= 4);
  }

  void randomChains() {
    for (unsigned seed = 1; seed <= 12; ++seed) {
      const int n = 1 + int(seed * 7) % 19;  // 1..19 links
      const Model m = randomChain(seed, n, {K::Revolute, K::Continuous, K::Prismatic});
      checkAllFormulations(m, QString("chain %1 (n = %2)").arg(seed).arg(n));
      if (QTest::currentTestFailed()) return;
      checkDenocIdentities(m, QString("chain %1").arg(seed));
      if (QTest::currentTestFailed()) return;
    }
    // all prismatic, and the general revolute chain the papers count
    checkAllFormulations(randomChain(40, 6, {K::Prismatic}), "prismatic chain");
    checkAllFormulations(dyn::generalChain(9), "generalChain(9)");
  }

  void randomTrees() {
    for (unsigned seed = 1; seed <= 16; ++seed) {
      const int links = 3 + int(seed * 5) % 24;  // 3..26 links
      const Model m =
          dyn::buildModel(dyn::testing::randomTree(seed, links, {K::Revolute, K::Continuous, K::Prismatic, K::Fixed}));
      checkAllFormulations(m, QString("tree %1 (%2 links)").arg(seed).arg(links));
      if (QTest::currentTestFailed()) return;
      checkDenocIdentities(m, QString("tree %1").arg(seed));
      if (QTest::currentTestFailed()) return;
    }
  }

  // A massless link between two massive ones (a dummy DH frame): no mass centre to refer to.
  void masslessLink() {
    for (unsigned seed = 1; seed <= 4; ++seed) {
      const Model m = randomChain(60 + seed, 6, {K::Revolute, K::Prismatic}, 3);
      QCOMPARE(m.I[3].m, 0.0);
      checkAllFormulations(m, QString("massless link, chain %1").arg(seed));
      if (QTest::currentTestFailed()) return;
      checkDenocIdentities(m, QString("massless link, chain %1").arg(seed));
      if (QTest::currentTestFailed()) return;
    }
  }

  // Floating base, spherical, planar and helical joints: refused by name.
  void refusals_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("floating");
    QTest::newRow("spherical") << int(K::Spherical) << false;
    QTest::newRow("planar") << int(K::Planar) << false;
    QTest::newRow("helical") << int(K::Helical) << false;
    QTest::newRow("floating joint") << int(K::Floating) << false;
    QTest::newRow("floating base") << int(K::Revolute) << true;
  }
  void refusals() {
    QFETCH(int, kind);
    QFETCH(bool, floating);
    const Model m = dyn::buildModel(dyn::testing::randomTree(7, 9, {K::Revolute, K::Prismatic, K(kind)}),
                                    {.floatingBase = floating});
    const int bad = firstUnsupportedJoint(m);
    QVERIFY(bad > 0);
    const QString joint = QString("joint '%1' is %2")
                              .arg(QString::fromStdString(m.jointNames[bad]), dyn::jointTypeName(m.joints[bad].type));
    for (const dyn::Formulation& f : dyn::formulations()) {
      if (!f.revolutePrismaticOnly) {
        f.bind(m);  // the spatial algorithms take any joint
        continue;
      }
      QString message;
      try {
        f.bind(m);
      } catch (const std::invalid_argument& e) {
        message = e.what();
      }
      QVERIFY2(message.contains(joint), qPrintable(QString::fromStdString(f.name) + ": '" + message + "'"));
      QVERIFY2(message.contains("revolute and prismatic"), qPrintable(message));
      if (floating) QVERIFY2(message.contains("floating base"), qPrintable(message));
    }
    // the functions themselves refuse too, whatever workspace they are given
    const Model ok = randomChain(3, m.N, {K::Revolute});
    dyn::DenocWorkspace ws(ok);
    dyn::NewtonEuler3Workspace ne(ok);
    const VectorXd q = m.neutral(), v = VectorXd::Zero(m.nv);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::denocInverseDynamics(m, ws, q, v, v));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::denocGeneralizedInertia(m, ws, q));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::denocForwardDynamics(m, ws, q, v, v));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::newtonEuler3(m, ne, q, v, v));
  }

  // A workspace belongs to the model it was built from; wrong vector sizes are named.
  void wrongWorkspaceOrSizes() {
    const Model a = randomChain(1, 4, {K::Revolute}), b = randomChain(2, 5, {K::Revolute});
    dyn::DenocWorkspace ws(a);
    dyn::NewtonEuler3Workspace ne(a);
    const VectorXd q = b.neutral(), v = VectorXd::Zero(b.nv);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::denocInverseDynamics(b, ws, q, v, v));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::newtonEuler3(b, ne, q, v, v));
    const VectorXd qa = a.neutral(), va = VectorXd::Zero(a.nv), bad = VectorXd::Zero(a.nv + 1);
    try {
      dyn::denocForwardDynamics(a, ws, qa, va, bad);
      QFAIL("a tau of the wrong size was accepted");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("tau"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestFormulations)
#include "test_formulations.moc"
