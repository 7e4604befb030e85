// Inverse kinematics on the shipped robots: random reachable targets (the FK pose of a random q
// within the limits) are reached to 1e-9 from a nearby start and from the zero pose, at the rates
// the issue asks for. Every solution is checked independently of the solver: a fresh forward
// kinematics, the angle from Eigen's AngleAxis, the limits, the pins.
#include <Eigen/Geometry>
#include <QtTest>
#include <cstdio>
#include <random>
#include <string>

#include "dynscope/dynscope.hpp"

namespace {

constexpr double kTol = 1e-9;

std::string robotPath(const char* file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

dyn::Transform<double> poseAt(const dyn::Model& model, const Eigen::VectorXd& q, int frame) {
  dyn::Data data(model);
  dyn::forwardKinematics(model, data, q);
  dyn::updateFrames(model, data);
  return data.oMf[frame];
}

// Position (m) and rotation angle (rad) between the frame's pose at q and `target`.
struct PoseError {
  double position = 0, rotation = 0;
};
PoseError poseError(const dyn::Model& model, const Eigen::VectorXd& q, int frame,
                    const dyn::Transform<double>& target) {
  const dyn::Transform<double> X = poseAt(model, q, frame);
  const Eigen::Matrix3d dR = target.rotation().transpose() * X.rotation();
  return {(X.translation() - target.translation()).norm(), Eigen::AngleAxisd(dR).angle()};
}

bool withinLimits(const dyn::Model& model, const Eigen::VectorXd& q) {
  for (int k = 0; k < model.nq; ++k)
    if (q[k] < model.lowerLimit[k] || q[k] > model.upperLimit[k]) return false;
  return true;
}

// q + a random displacement of up to `size` (rad or m) per dof, on the joint manifolds.
Eigen::VectorXd perturbed(const dyn::Model& model, const Eigen::VectorXd& q, double size, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-size, size);
  Eigen::VectorXd dv(model.nv), out(model.nq);
  for (int k = 0; k < model.nv; ++k) dv[k] = U(rng);
  dyn::integrate(model, q, dv, 1.0, out);
  return out;
}

struct Scenario {
  const char* file;
  bool floating;
  const char* link;  // nullptr: the model's end effector
  std::vector<const char*> pins;
};

// Success rate over `cases` random reachable targets; fails the test on any broken invariant.
double successRate(const Scenario& sc, int cases, bool nearby, int restarts, unsigned seed) {
  const dyn::Model model = dyn::loadModel(robotPath(sc.file), dyn::BuildOptions{.floatingBase = sc.floating});
  const int frame = model.frameIndex(sc.link ? sc.link : model.defaultEndEffector);
  if (frame < 0) qFatal("no frame %s", sc.link);
  dyn::IkSolver solver(model);
  solver.options.restarts = restarts;
  std::mt19937 rng(seed);
  int ok = 0;
  for (int c = 0; c < cases; ++c) {
    const Eigen::VectorXd qt = dyn::randomConfiguration(model, rng);
    dyn::IkTask task;
    task.frame = frame;
    task.target = poseAt(model, qt, frame);
    solver.setTarget(task);
    solver.clearPins();
    for (const char* p : sc.pins) solver.pinAt(model.frameIndex(p), qt);
    const Eigen::VectorXd q0 = nearby ? perturbed(model, qt, 0.1, rng) : model.neutral();
    const dyn::IkResult& r = solver.solve(q0);
    if (!r.q.allFinite() || !withinLimits(model, r.q)) {
      qWarning("%s case %d: non-finite or outside the limits", sc.file, c);
      return -1;
    }
    const PoseError e = poseError(model, r.q, frame, task.target);
    double pinError = 0;
    for (size_t k = 0; k < sc.pins.size(); ++k) {
      const PoseError ep = poseError(model, r.q, solver.pins()[k].frame, solver.pins()[k].target);
      pinError = std::max({pinError, ep.position, ep.rotation});
    }
    const bool reached = e.position <= kTol && e.rotation <= kTol && pinError <= kTol;
    if (reached != r.converged && (e.position > 2 * kTol || e.rotation > 2 * kTol || pinError > 2 * kTol)) {
      qWarning("%s case %d: converged = %d but the pose error is %g m, %g rad, pins %g", sc.file, c, r.converged,
               e.position, e.rotation, pinError);
      return -1;
    }
    ok += reached;
  }
  return double(ok) / cases;
}

const Scenario kUr5{"ur5.urdf", false, nullptr, {}};
const Scenario kPanda{"panda.urdf", false, nullptr, {}};
const Scenario kStanford{"stanford_arm.dh", false, nullptr, {}};
const Scenario kPuma{"puma560.dh", false, nullptr, {}};
const Scenario kIiwa{"lbr_iiwa7.dh", false, nullptr, {}};
const Scenario kHumanoid{"humanoid.urdf", false, "left_hand_frame", {"left_sole_link", "right_sole_link"}};
const Scenario kHumanoidFloating{"humanoid.urdf", true, "left_hand_frame", {"left_sole_link", "right_sole_link"}};

}  // namespace

class TestIk : public QObject {
  Q_OBJECT

 private slots:
  // The default link to drag is the end of the main chain: a gripper's TCP, not one of its fingers
  // (a finger made the gripper open); an arm's last link; a serial DH table's tool.
  void defaultLinkIsTheHandNotAFinger() {
    const dyn::Model panda = dyn::loadModel(robotPath("panda_gripper.urdf"));
    QCOMPARE(panda.defaultEndEffector, std::string("panda_hand_tcp"));
    const int hand = panda.frames[size_t(panda.frameIndex(panda.defaultEndEffector))].body;
    for (const char* finger : {"panda_leftfinger", "panda_rightfinger"})
      QVERIFY(panda.bodyIndex(finger) > hand);  // the fingers hang below it
    QCOMPARE(dyn::loadModel(robotPath("ur5.urdf")).defaultEndEffector, std::string("wrist_3_link"));  // no hand
    const dyn::Model stanford = dyn::loadModel(robotPath("stanford_arm.dh"));
    QCOMPARE(stanford.frames[size_t(stanford.frameIndex(stanford.defaultEndEffector))].body, stanford.N);
  }

  // From nearby (a drag: no restarts) and from the zero pose, the arms' default (a one-shot solve: up
  // to 20 random restarts when an attempt ends at a local minimum; see docs/ik.md for the rates
  // without). The arms (UR5, Panda, our own 6-dof Stanford arm and PUMA 560 and our own 7-dof LBR
  // iiwa 7) reach >= 99 % of random reachable targets either way (issue 25).
  // The humanoid from the zero pose runs 200 cases to keep the suite within its time budget.
  void reachableTargets_data() {
    QTest::addColumn<int>("scenario");
    QTest::addColumn<bool>("nearby");
    QTest::addColumn<int>("cases");
    QTest::addColumn<double>("rate");
    const int n = 1000;
    QTest::newRow("ur5 nearby") << 0 << true << n << 0.99;
    QTest::newRow("ur5 zero") << 0 << false << n << 0.99;
    QTest::newRow("panda nearby") << 1 << true << n << 0.99;
    QTest::newRow("panda zero") << 1 << false << n << 0.99;
    QTest::newRow("stanford nearby") << 2 << true << n << 0.99;
    QTest::newRow("stanford zero") << 2 << false << n << 0.99;
    QTest::newRow("puma560 nearby") << 5 << true << n << 0.99;
    QTest::newRow("puma560 zero") << 5 << false << n << 0.99;
    QTest::newRow("lbr_iiwa7 nearby") << 6 << true << n << 0.99;
    QTest::newRow("lbr_iiwa7 zero") << 6 << false << n << 0.99;
    QTest::newRow("humanoid feet pinned nearby") << 3 << true << n << 0.99;
    QTest::newRow("humanoid feet pinned zero") << 3 << false << 200 << 0.90;
    QTest::newRow("floating humanoid feet pinned nearby") << 4 << true << n << 0.99;
    QTest::newRow("floating humanoid feet pinned zero") << 4 << false << 200 << 0.90;
  }
  void reachableTargets() {
    QFETCH(int, scenario);
    QFETCH(bool, nearby);
    QFETCH(int, cases);
    QFETCH(double, rate);
    const Scenario* all[] = {&kUr5, &kPanda, &kStanford, &kHumanoid, &kHumanoidFloating, &kPuma, &kIiwa};
    QElapsedTimer timer;
    timer.start();
    const double r = successRate(*all[scenario], cases, nearby, nearby ? 0 : 20, 1234u + scenario);
    std::printf("  %-40s %d cases: %.1f %% reached 1e-9 (%lld ms)\n", QTest::currentDataTag(), cases, 100 * r,
                timer.elapsed());
    QVERIFY2(r >= 0, "an invariant was broken (see the warning)");
    QVERIFY2(r >= rate, qPrintable(QString("success rate %1 < %2").arg(r).arg(rate)));
  }
};

QTEST_APPLESS_MAIN(TestIk)
#include "test_ik.moc"
