// Inverse kinematics beyond reaching a pose: limits, locked dofs, pins (equal and strict
// priority), unreachable targets, position-only targets, the step limit, the posture term,
// spherical joints, bad input; and the manipulability ellipsoids against Eigen's SVD.
#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <QtTest>
#include <random>
#include <string>

#include "dynscope/dynscope.hpp"
#include "random_tree.hpp"

namespace {

std::string robotPath(const char* file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

dyn::Model load(const char* file, bool floating = false) {
  return dyn::loadModel(robotPath(file), dyn::BuildOptions{.floatingBase = floating});
}

dyn::Transform<double> poseAt(const dyn::Model& model, const Eigen::VectorXd& q, int frame) {
  dyn::Data data(model);
  dyn::forwardKinematics(model, data, q);
  dyn::updateFrames(model, data);
  return data.oMf[frame];
}

double positionError(const dyn::Model& m, const Eigen::VectorXd& q, int frame, const dyn::Transform<double>& X) {
  return (poseAt(m, q, frame).translation() - X.translation()).norm();
}
double rotationError(const dyn::Model& m, const Eigen::VectorXd& q, int frame, const dyn::Transform<double>& X) {
  return Eigen::AngleAxisd(X.rotation().transpose() * poseAt(m, q, frame).rotation()).angle();
}

bool withinLimits(const dyn::Model& model, const Eigen::VectorXd& q) {
  for (int k = 0; k < model.nq; ++k)
    if (!(q[k] >= model.lowerLimit[k] && q[k] <= model.upperLimit[k])) return false;
  return true;
}

dyn::IkTask taskAt(const dyn::Model& model, int frame, const Eigen::VectorXd& q) {
  dyn::IkTask t;
  t.frame = frame;
  t.target = poseAt(model, q, frame);
  return t;
}

int endEffector(const dyn::Model& m) { return m.frameIndex(m.defaultEndEffector); }

}  // namespace

class TestIkConstraints : public QObject {
  Q_OBJECT

 private slots:
  // Locked dofs keep their start value exactly; the others still reach a target that the
  // locked configuration can reach.
  void lockedJointsDoNotMove() {
    const dyn::Model model = load("panda.urdf");
    dyn::IkSolver solver(model);
    std::mt19937 rng(3);
    int converged = 0;
    for (int c = 0; c < 50; ++c) {
      Eigen::VectorXd qt = dyn::randomConfiguration(model, rng);
      Eigen::VectorXd q0 = dyn::randomConfiguration(model, rng);
      const int j = 1 + c % 7;  // lock joint j: the target is made with q0's value there
      qt[model.joints[j].idx_q] = q0[model.joints[j].idx_q];
      solver.setTarget(taskAt(model, endEffector(model), qt));
      solver.unlockAll();
      solver.lockJoint(j);
      solver.options.restarts = 10;
      const dyn::IkResult& r = solver.solve(q0);
      QCOMPARE(r.q[model.joints[j].idx_q], q0[model.joints[j].idx_q]);
      QVERIFY(withinLimits(model, r.q));
      converged += r.converged;
    }
    QVERIFY2(converged >= 45, qPrintable(QString("%1 of 50").arg(converged)));  // 6 dofs left, with limits
  }

  // A target far outside the workspace: the solver ends at a local minimum with finite q, inside
  // the limits, flags it, and its cost never increased.
  void unreachableTarget() {
    for (const char* file : {"ur5.urdf", "panda.urdf", "stanford_arm.dh"}) {
      const dyn::Model model = load(file);
      dyn::IkSolver solver(model);
      std::mt19937 rng(7);
      for (int c = 0; c < 20; ++c) {
        dyn::IkTask t = taskAt(model, endEffector(model), dyn::randomConfiguration(model, rng));
        t.target.r = t.target.r.normalized() * 5.0;  // 5 m away: out of reach of every arm here
        solver.setTarget(t);
        const dyn::IkResult& r = solver.solve(model.neutral());
        QVERIFY(r.q.allFinite());
        QVERIFY(withinLimits(model, r.q));
        QVERIFY(!r.converged);
        QVERIFY(!r.reachable);
        QVERIFY(std::isfinite(r.positionError) && r.positionError > 3.0);
        for (size_t k = 1; k < r.costHistory.size(); ++k) QVERIFY(r.costHistory[k] <= r.costHistory[k - 1]);
        // the reported residual is the real one
        QVERIFY(std::abs(r.positionError - positionError(model, r.q, t.frame, t.target)) < 1e-9);
        // it moved toward the target: closer than from the start
        QVERIFY(r.positionError < positionError(model, model.neutral(), t.frame, t.target));
      }
    }
  }

  // Position-only: the position is reached from any start, the orientation is whatever it is
  // (the target orientation is deliberately far off and is not reached).
  void positionOnly() {
    const dyn::Model model = load("ur5.urdf");
    dyn::IkSolver solver(model);
    solver.options.restarts = 5;  // from random starts the limits can trap a local attempt
    std::mt19937 rng(11);
    int rotated = 0;
    for (int c = 0; c < 50; ++c) {
      dyn::IkTask t = taskAt(model, endEffector(model), dyn::randomConfiguration(model, rng));
      t.target.E = dyn::rotx(2.5) * t.target.E;  // an orientation unrelated to the position
      t.positionOnly = true;
      solver.setTarget(t);
      const Eigen::VectorXd q0 = dyn::randomConfiguration(model, rng);
      const dyn::IkResult& r = solver.solve(q0);
      QVERIFY(r.converged);
      QVERIFY(positionError(model, r.q, t.frame, t.target) <= 1e-9);
      QCOMPARE(r.rotationError, 0.0);
      rotated += rotationError(model, r.q, t.frame, t.target) > 1e-3;
    }
    QVERIFY(rotated > 40);  // the orientation was free, not matched by accident
  }

  // Pins: equal priority holds them to 1e-9 when everything is reachable; strict priority holds
  // them even when the target is out of reach (equal priority then gives way).
  void pinsHold() {
    const dyn::Model model = load("humanoid.urdf", true);
    const int hand = model.frameIndex("left_hand_frame"), lf = model.frameIndex("left_sole_link"),
              rf = model.frameIndex("right_sole_link");
    std::mt19937 rng(5);
    const Eigen::VectorXd q0 = model.neutral();
    for (auto mode : {dyn::IkPinMode::EqualPriority, dyn::IkPinMode::Strict}) {
      dyn::IkSolver solver(model);
      solver.options.pinMode = mode;
      solver.pinAt(lf, q0);
      solver.pinAt(rf, q0);
      // reachable: the hand 20 cm forward and down (the legs and the pelvis help)
      dyn::IkTask t = taskAt(model, hand, q0);
      t.target.r += Eigen::Vector3d(0.2, 0.0, -0.2);
      t.positionOnly = true;
      solver.setTarget(t);
      const dyn::IkResult& r = solver.solve(q0);
      QVERIFY(r.converged);
      QVERIFY(r.pinError <= 1e-9);
      for (int f : {lf, rf}) {
        QVERIFY(positionError(model, r.q, f, poseAt(model, q0, f)) <= 1e-9);
        QVERIFY(rotationError(model, r.q, f, poseAt(model, q0, f)) <= 1e-9);
      }
      QVERIFY(withinLimits(model, r.q));
      // out of reach: 3 m up
      t.target.r += Eigen::Vector3d(0, 0, 3.0);
      solver.setTarget(t);
      const dyn::IkResult& u = solver.solve(q0);
      QVERIFY(!u.converged && u.q.allFinite());
      if (mode == dyn::IkPinMode::Strict)
        QVERIFY2(u.pinError <= 1e-9, qPrintable(QString::number(u.pinError)));
      else
        QVERIFY(u.pinError > 1e-6);  // the weighted compromise
    }
  }

  // The step limit: one iteration moves no dof by more than maxStep.
  void stepLimit() {
    const dyn::Model model = load("panda.urdf");
    dyn::IkSolver solver(model);
    solver.options.maxIterations = 1;
    solver.options.maxStep = 0.05;
    std::mt19937 rng(9);
    for (int c = 0; c < 50; ++c) {
      solver.setTarget(taskAt(model, endEffector(model), dyn::randomConfiguration(model, rng)));
      const Eigen::VectorXd q0 = dyn::randomConfiguration(model, rng);
      const dyn::IkResult& r = solver.solve(q0);
      QCOMPARE(r.iterations, 1);
      QVERIFY((r.q - q0).cwiseAbs().maxCoeff() <= 0.05 + 1e-15);
    }
  }

  // The posture term acts in the null space: targets are still reached to 1e-9, and the
  // redundant panda ends closer to the middle of its ranges than without it.
  void postureInNullSpace() {
    const dyn::Model model = load("panda.urdf");
    const Eigen::VectorXd mid = 0.5 * (model.lowerLimit + model.upperLimit);
    dyn::IkSolver plain(model), posture(model);
    posture.options.postureWeight = 0.2;
    posture.options.posture = dyn::IkPosture::MidRange;
    std::mt19937 rng(21);
    double dPlain = 0, dPosture = 0;
    for (int c = 0; c < 50; ++c) {
      const Eigen::VectorXd qt = dyn::randomConfiguration(model, rng);
      std::uniform_real_distribution<double> U(-0.3, 0.3);
      Eigen::VectorXd q0 = qt;
      for (int k = 0; k < model.nq; ++k) q0[k] += U(rng);
      plain.setTarget(taskAt(model, endEffector(model), qt));
      posture.setTarget(plain.target());
      const dyn::IkResult& a = plain.solve(q0);
      const dyn::IkResult& b = posture.solve(q0);
      QVERIFY(a.converged && b.converged);
      QVERIFY(positionError(model, b.q, plain.target().frame, plain.target().target) <= 1e-9);
      QVERIFY(withinLimits(model, b.q));
      dPlain += (a.q - mid).norm();
      dPosture += (b.q - mid).norm();
    }
    QVERIFY2(dPosture < dPlain, qPrintable(QString("%1 vs %2").arg(dPosture).arg(dPlain)));
  }

  // Spherical, planar and floating joints (quaternions in q) on random trees: reachable targets.
  void manifoldJoints() {
    using K = dyn::JointKind;
    int ok = 0, total = 0;
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const dyn::Model model =
          dyn::buildModel(dyn::testing::randomTree(seed, 6, {K::Revolute, K::Spherical, K::Prismatic, K::Spherical}),
                          dyn::BuildOptions{.floatingBase = seed % 2 == 0});
      bool spherical = false;
      for (int i = 1; i <= model.N; ++i) spherical |= model.joints[i].type == dyn::JointType::Spherical;
      QVERIFY(spherical);
      dyn::IkSolver solver(model);
      std::mt19937 rng(seed);
      const int frame = int(model.frames.size()) - 1;
      for (int c = 0; c < 20; ++c) {
        const Eigen::VectorXd qt = dyn::randomConfiguration(model, rng);
        solver.setTarget(taskAt(model, frame, qt));
        Eigen::VectorXd dv = Eigen::VectorXd::Constant(model.nv, 0.1), q0(model.nq);
        dyn::integrate(model, qt, dv, 1.0, q0);
        const dyn::IkResult& r = solver.solve(q0);
        ++total;
        ok += r.converged && positionError(model, r.q, frame, solver.target().target) <= 1e-9 &&
              rotationError(model, r.q, frame, solver.target().target) <= 1e-9;
        QVERIFY(withinLimits(model, r.q));
      }
    }
    QVERIFY2(ok >= 0.99 * total, qPrintable(QString("%1 of %2").arg(ok).arg(total)));
  }

  void badInput() {
    const dyn::Model model = load("panda.urdf");
    dyn::IkSolver solver(model);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solver.solve(model.neutral()));  // no target
    dyn::IkTask t;
    t.frame = 999;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solver.setTarget(t));
    t.frame = endEffector(model);
    t.target.r[0] = std::nan("");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solver.setTarget(t));
    t.target.r[0] = 0.3;
    solver.setTarget(t);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solver.solve(Eigen::VectorXd::Zero(3)));
    Eigen::VectorXd q = model.neutral();
    q[2] = std::nan("");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solver.solve(q));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solver.lockDof(model.nv));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, solver.lockJoint(0));
  }

  // Manipulability against Eigen's JacobiSVD of the linear rows of the Jacobian.
  void manipulabilityMatchesSvd() {
    const dyn::Model model = load("panda.urdf");
    dyn::Data data(model);
    std::mt19937 rng(13);
    const int frame = endEffector(model);
    for (int c = 0; c < 20; ++c) {
      const Eigen::VectorXd q = dyn::randomConfiguration(model, rng);
      const dyn::Manipulability m = dyn::manipulability(model, data, q, frame);
      dyn::Data d2(model);
      const Eigen::MatrixXd J = dyn::frameJacobian(model, d2, q, frame, dyn::ReferenceFrame::LocalWorldAligned);
      const Eigen::JacobiSVD<Eigen::MatrixXd> svd(J.bottomRows(3), Eigen::ComputeThinU);
      const Eigen::JacobiSVD<Eigen::MatrixXd> svd6(J);
      for (int k = 0; k < 3; ++k) {
        QVERIFY(std::abs(m.singularValues[k] - svd.singularValues()[k]) < 1e-9);
        QVERIFY(std::abs(std::abs(m.axes.col(k).dot(svd.matrixU().col(k))) - 1.0) < 1e-6);
        QVERIFY(std::abs(m.forceRadii[k] * m.velocityRadii[k] - 1.0) < 1e-12);
      }
      QVERIFY(std::abs(m.minSingularValue - svd.singularValues()[2]) < 1e-9);
      QVERIFY(std::abs(m.fullMinSingularValue - svd6.singularValues()[5]) < 1e-7);
      QVERIFY(std::abs(m.measure - std::sqrt((J.bottomRows(3) * J.bottomRows(3).transpose()).determinant())) < 1e-9);
      QVERIFY((m.center - poseAt(model, q, frame).translation()).norm() < 1e-12);
    }
    // A positional singularity: UR5 with the elbow straight (q3 = 0) and the wrist centre on the base axis is
    // hard to build by hand; the planar 3R arm is simpler: its velocity ellipsoid is flat (sigma_3 = 0).
    const dyn::Model planar = load("planar3.dh");
    dyn::Data pd(planar);
    const dyn::Manipulability mp = dyn::manipulability(planar, pd, planar.neutral(), endEffector(planar));
    QVERIFY(mp.minSingularValue < 1e-12);
    QVERIFY(std::isinf(mp.forceRadii[2]) || mp.forceRadii[2] > 1e12);
  }
};

QTEST_APPLESS_MAIN(TestIkConstraints)
#include "test_ik_constraints.moc"
