// The classical formulations (DeNOC inverse dynamics, GIM, convective-inertia matrix and forward
// dynamics; the 3-vector Newton-Euler) and every formulation bound through the registry allocate
// nothing per call once their workspace exists: this program interposes malloc/calloc/realloc
// (tests/support/malloc_counter.hpp; operator new and Eigen end there) and counts the calls of the
// test thread inside a guarded region. The counter is shown to see an allocation.
#include <QDir>
#include <QtTest>
#include <optional>
#include <random>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "random_tree.hpp"

#include "malloc_counter.hpp"

using dyn::testing::countAllocations;
using Eigen::VectorXd;

namespace {

struct State {
  VectorXd q, qd, qdd, tau;
};
State randomState(const dyn::Model& m) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> U(-1, 1);
  State s;
  s.q = dyn::randomConfiguration(m, rng);
  s.qd = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
  s.qdd = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
  s.tau = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
  return s;
}

// Every call on model m, each in its own guarded region; fails naming the call that allocated.
void checkModel(const dyn::Model& m, const QString& label) {
  const State s = randomState(m);
  double sink = 0;
  const auto expectNone = [&](const char* what, auto&& call) {
    const long n = countAllocations(call);
    if (n != 0) QFAIL(qPrintable(QString("%1: %2 allocated %3 times").arg(label, what).arg(n)));
  };
  // through the registry: binding allocates (the model copy and workspace), calling does not;
  // a formulation that refuses the model (a floating or spherical joint) is skipped
  for (const dyn::Formulation& f : dyn::formulations()) {
    std::optional<dyn::BoundFormulation<double>> bound;
    try {
      bound = f.bind(m);
    } catch (const std::invalid_argument&) {
      QVERIFY2(f.revolutePrismaticOnly, qPrintable(label + ": " + QString::fromStdString(f.name) + " refused"));
      continue;
    }
    const dyn::BoundFormulation<double>& b = *bound;
    const QByteArray what = (QString(dyn::problemName(f.problem)) + "/" + QString::fromStdString(f.name)).toUtf8();
    switch (f.problem) {
      case dyn::Problem::InverseDynamics:
        expectNone(what.constData(), [&] { sink += b.inverseDynamics(s.q, s.qd, s.qdd)[0]; });
        break;
      case dyn::Problem::MassMatrix:
        expectNone(what.constData(), [&] { sink += b.massMatrix(s.q)(0, 0); });
        break;
      case dyn::Problem::ForwardDynamics:
        expectNone(what.constData(), [&] { sink += b.forwardDynamics(s.q, s.qd, s.tau)[0]; });
        break;
    }
  }
  QVERIFY(std::isfinite(sink));
  try {
    dyn::requireRevolutePrismatic(m, "the classical formulations");
  } catch (const std::invalid_argument&) {
    return;  // refused above, through the registry
  }
  dyn::DenocWorkspace ws(m);
  dyn::NewtonEuler3Workspace ne(m);
  expectNone("denocInverseDynamics", [&] { sink += dyn::denocInverseDynamics(m, ws, s.q, s.qd, s.qdd)[0]; });
  expectNone("denocGeneralizedInertia", [&] { sink += dyn::denocGeneralizedInertia(m, ws, s.q)(0, 0); });
  expectNone("denocConvectiveInertia", [&] { sink += dyn::denocConvectiveInertia(m, ws, s.q, s.qd)(0, 0); });
  expectNone("denocForwardDynamics", [&] { sink += dyn::denocForwardDynamics(m, ws, s.q, s.qd, s.tau)[0]; });
  expectNone("newtonEuler3", [&] { sink += dyn::newtonEuler3(m, ne, s.q, s.qd, s.qdd)[0]; });
  QVERIFY(std::isfinite(sink));
}

}  // namespace

class TestFormulationAllocation : public QObject {
  Q_OBJECT

 private slots:
  void theCounterWorks() {
    QVERIFY(countAllocations([] {
              std::vector<double> v(100);
              QVERIFY(v.size() == 100);
            }) >= 1);
    const dyn::Model m = dyn::generalChain(4);
    const long binding = countAllocations([&] { dyn::formulation(dyn::Problem::InverseDynamics, "denoc").bind(m); });
    QVERIFY(binding > 0);  // building a workspace does allocate
  }

  void robots_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(DYNSCOPE_ROBOTS_DIR);
    for (const QString& f : dir.entryList({"*.urdf", "*.dh"}, QDir::Files, QDir::Name))
      QTest::newRow(qPrintable(f)) << dir.filePath(f);
  }
  void robots() {
    QFETCH(QString, file);
    const dyn::Model m = dyn::loadModel(file.toStdString());
    checkModel(m, QFileInfo(file).fileName());
  }

  void randomTrees() {
    using K = dyn::JointKind;
    for (unsigned seed = 1; seed <= 4; ++seed) {
      checkModel(dyn::buildModel(dyn::testing::randomTree(seed, 12, {K::Revolute, K::Prismatic, K::Fixed})),
                 QString("tree %1").arg(seed));
      if (QTest::currentTestFailed()) return;
    }
  }
};

QTEST_GUILESS_MAIN(TestFormulationAllocation)
#include "test_formulation_allocation.moc"
