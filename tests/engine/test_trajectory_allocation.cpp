// Evaluating a waypoint trajectory and interpolating a sampled one (what the timeline does at
// every frame) allocate nothing: this program interposes malloc/calloc/realloc (which operator new
// and Eigen both use) and counts the calls made by the test thread inside a guarded region. The
// count is shown to work: a deliberate allocation inside the region is seen.
#include <QtTest>
#include <cstdlib>
#include <random>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"
#include "random_tree.hpp"

#include "malloc_counter.hpp"

namespace {

using dyn::testing::countAllocations;

}  // namespace

class TestTrajectoryAllocation : public QObject {
  Q_OBJECT

 private slots:
  void theCounterWorks() {
    const long n = countAllocations([] {
      std::vector<double> v(100);
      QVERIFY(v.size() == 100);
    });
    QVERIFY(n >= 1);
    QCOMPARE(countAllocations([] {
               Eigen::VectorXd v(50);
               v.setZero();
             }),
             1L);
  }

  void evaluateDoesNotAllocate_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("quintic") << int(dyn::Interpolation::Quintic);
    QTest::newRow("trapezoidal") << int(dyn::Interpolation::Trapezoidal);
    QTest::newRow("cubic-spline") << int(dyn::Interpolation::CubicSpline);
  }
  void evaluateDoesNotAllocate() {
    QFETCH(int, kind);
    using K = dyn::JointKind;
    const dyn::Model m = dyn::buildModel(
        dyn::testing::randomTree(5, 10, {K::Revolute, K::Prismatic, K::Planar, K::Spherical, K::Floating}),
        {.floatingBase = true});
    std::mt19937 rng(5);
    std::vector<dyn::Waypoint> w;
    for (double t : {0.0, 0.5, 1.2, 2.0}) w.push_back({t, dyn::randomConfiguration(m, rng)});
    const dyn::WaypointTrajectory traj(m, w, dyn::Interpolation(kind));
    Eigen::VectorXd q(m.nq), qd(m.nv), qdd(m.nv);
    const long n = countAllocations([&] {
      for (double t = -0.1; t < 2.2; t += 0.01) traj.evaluate(t, q, qd, qdd);
    });
    QCOMPARE(n, 0L);

    const dyn::SampledTrajectory s = traj.sample(30);
    const long m2 = countAllocations([&] {
      for (double t = -0.1; t < 2.2; t += 0.003) {
        s.interpolate(m, t, q, qd, qdd);
        (void)s.nearestSample(t);
      }
    });
    QCOMPARE(m2, 0L);
  }
};

QTEST_GUILESS_MAIN(TestTrajectoryAllocation)
#include "test_trajectory_allocation.moc"
