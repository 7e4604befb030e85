// Once its workspace exists, no formulation of the Lagrangian family allocates: this program interposes
// malloc/calloc/realloc (tests/support/malloc_counter.hpp; operator new and Eigen both end there) and counts the
// calls of the test thread while each formulation runs, on the shipped robots (prismatic joints and a 32-joint tree
// included) and on a random tree. The tabulation and the evaluation of the configuration-space method are checked
// apart. The counter is shown to see an allocation.
#include <QtTest>
#include <filesystem>
#include <string>
#include <vector>

#include "dynscope/formulations/configuration_space_method.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"
#include "dynscope/io/model_builder.hpp"
#include "random_state.hpp"
#include "random_tree.hpp"

#include "malloc_counter.hpp"

using dyn::testing::countAllocations;
using Eigen::VectorXd;

namespace {

// Runs f once to warm up, then counts the allocations of three more calls; the result must be finite.
template <class F>
void expectNoAllocation(const QString& what, F f) {
  double sink = f()[0];
  const long n = countAllocations([&] {
    for (int k = 0; k < 3; ++k) sink += f()[0];
  });
  QVERIFY2(n == 0, qPrintable(QString("%1 allocated %2 times").arg(what).arg(n)));
  QVERIFY2(std::isfinite(sink), qPrintable(what));
}

void checkModel(const QString& label, const dyn::Model& m) {
  const auto in = dyn::testing::randomState(m, 7);
  dyn::UickerKahnWorkspace<double> uk(m);
  dyn::WatersWorkspace<double> wa(m);
  dyn::RecursiveLagrangian4x4Workspace<double> l4(m);
  dyn::RecursiveLagrangian3x3Workspace<double> l3(m);
  dyn::ConfigurationSpaceWorkspace<double> cs(m);
  expectNoAllocation(label + " uicker-kahn",
                     [&]() -> const VectorXd& { return dyn::uickerKahnInverseDynamics(m, uk, in.q, in.qd, in.qdd); });
  expectNoAllocation(label + " waters",
                     [&]() -> const VectorXd& { return dyn::watersInverseDynamics(m, wa, in.q, in.qd, in.qdd); });
  expectNoAllocation(label + " lagrange-4x4", [&]() -> const VectorXd& {
    return dyn::recursiveLagrangian4x4InverseDynamics(m, l4, in.q, in.qd, in.qdd);
  });
  expectNoAllocation(label + " lagrange-3x3", [&]() -> const VectorXd& {
    return dyn::recursiveLagrangian3x3InverseDynamics(m, l3, in.q, in.qd, in.qdd);
  });
  expectNoAllocation(label + " configuration-space tabulate", [&]() -> const VectorXd& {
    dyn::configurationSpaceTabulate(m, cs, in.q);
    return cs.G;
  });
  expectNoAllocation(label + " configuration-space evaluate",
                     [&]() -> const VectorXd& { return dyn::configurationSpaceEvaluate(m, cs, in.qd, in.qdd); });
  expectNoAllocation(label + " configuration-space", [&]() -> const VectorXd& {
    return dyn::configurationSpaceInverseDynamics(m, cs, in.q, in.qd, in.qdd);
  });
}

}  // namespace

class TestLagrangianAllocation : public QObject {
  Q_OBJECT

 private slots:
  void theCounterWorks() {
    QCOMPARE(countAllocations([] {
               Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
               QVERIFY(m.trace() == 4.0);
             }),
             0L);
    QCOMPARE(countAllocations([] {
               Eigen::VectorXd v(50);
               v.setZero();
             }),
             1L);
  }

  void robots_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"ur5.urdf", "stanford_arm.dh", "humanoid.urdf", "panda.urdf"}) QTest::newRow(f) << f;
  }
  void robots() {
    QFETCH(QString, file);
    const std::string path = std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file.toStdString();
    if (!std::filesystem::exists(path)) QSKIP(qPrintable(file + " not present"));
    checkModel(file, dyn::loadModel(path));
  }

  void randomTree() {
    using K = dyn::JointKind;
    checkModel("random tree", dyn::buildModel(dyn::testing::randomTree(3, 14, {K::Revolute, K::Prismatic, K::Fixed})));
  }
};

QTEST_APPLESS_MAIN(TestLagrangianAllocation)
#include "test_lagrangian_allocation.moc"
