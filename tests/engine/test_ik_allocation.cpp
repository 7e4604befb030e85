// IkSolver::solve allocates nothing once the solver is built and its tasks are set (the drag loop
// of the GUI): this program interposes malloc/calloc/realloc, which operator new and Eigen both
// use, and counts the calls of the test thread inside a guarded region (the technique of
// test_trajectory_allocation.cpp; test_no_allocation.cpp does the same for the algorithms). The
// counter is shown to work.
#include <QtTest>
#include <cstdlib>
#include <random>
#include <string>

#include "dynscope/dynscope.hpp"

#include "malloc_counter.hpp"

namespace {

using dyn::testing::countAllocations;

std::string robotPath(const char* file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

}  // namespace

class TestIkAllocation : public QObject {
  Q_OBJECT

 private slots:
  void theCounterWorks() {
    QVERIFY(countAllocations([] {
              std::vector<double> v(100);
              QVERIFY(v.size() == 100);
            }) >= 1);
    QCOMPARE(countAllocations([] {
               Eigen::VectorXd v(50);
               v.setZero();
             }),
             1L);
  }

  // A drag on the panda (target moved 1 cm per update from the previous solution), a solve from
  // the zero pose with restarts, the posture term, strict pins on the floating humanoid, and a drag
  // of the delta robot's plate (closed loops: each step projected and re-assembled).
  void solveDoesNotAllocate_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("floating");
    QTest::addColumn<int>("variant");
    QTest::newRow("panda drag") << "panda.urdf" << false << 0;
    QTest::newRow("panda zero pose, restarts, locked") << "panda.urdf" << false << 1;
    QTest::newRow("panda posture") << "panda.urdf" << false << 2;
    QTest::newRow("floating humanoid strict pins") << "humanoid.urdf" << true << 3;
    QTest::newRow("delta plate drag (closed loops)") << "delta.urdf" << false << 4;
  }
  void solveDoesNotAllocate() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    QFETCH(int, variant);
    const dyn::Model model = dyn::loadModel(robotPath(file.toStdString().c_str()), {.floatingBase = floating});
    dyn::IkSolver solver(model);
    std::mt19937 rng(17);
    Eigen::VectorXd qt = variant == 4 ? model.home() : dyn::randomConfiguration(model, rng);  // closed: assembled
    if (variant == 1) qt[model.joints[3].idx_q] = 0;  // reachable with joint 3 locked at the zero pose
    const int frame = floating       ? model.frameIndex("left_hand_frame")
                      : variant == 4 ? model.frameIndex("plate")
                                     : model.frameIndex(model.defaultEndEffector);
    dyn::IkTask task;
    task.frame = frame;
    task.target = solver.framePose(frame, qt);
    if (variant == 1) {
      solver.options.restarts = 10;
      solver.lockJoint(3);
    }
    if (variant == 2) {
      solver.options.postureWeight = 0.1;
      solver.options.posture = dyn::IkPosture::MidRange;
    }
    if (variant == 3) {
      solver.options.pinMode = dyn::IkPinMode::Strict;
      solver.pinAt(model.frameIndex("left_sole_link"), qt);
      solver.pinAt(model.frameIndex("right_sole_link"), qt);
    }
    Eigen::VectorXd q = variant == 1 ? model.neutral() : qt;
    solver.setTarget(task);
    int converged = 0;
    for (int step = 0; step < 10; ++step) {
      task.target.r += Eigen::Vector3d(0.01, 0.0, 0.0);  // the drag: 1 cm per update
      solver.setTarget(task);                            // (setTarget copies: no allocation either)
      const long n = countAllocations([&] {
        const dyn::IkResult& r = solver.solve(q);
        converged += r.converged;
        if (variant != 1) q = r.q;  // same size: no allocation
      });
      QCOMPARE(n, 0L);
    }
    QVERIFY(converged >= 5);  // the solves were real work, not a failure path
  }
};

QTEST_APPLESS_MAIN(TestIkAllocation)
#include "test_ik_allocation.moc"
