// The push's spring-damper (ui/simulation/perturbation.hpp) on its own, and through the
// simulation runner (SimulationRunner::setPerturbation): the force points at the target and grows
// with the distance and the subtree's mass, damping opposes the velocity, the pull is capped; the
// twist turns towards its target; the runner applies the spring from its current state, so the
// grabbed point of UR5 under gravity compensation goes to the target and rests there. No widgets.
#include <QtTest>

#include <cmath>

#include "dynscope/dynscope.hpp"
#include "simulation/perturbation.hpp"
#include "simulation/simulation_runner.hpp"

namespace {

constexpr double kPi = 3.14159265358979323846;
const double kW = 2 * kPi * perturb::kFrequency;

dyn::Model ur5() { return dyn::buildModel(dyn::parseUrdfFile(DYNSCOPE_ROBOTS_DIR "/ur5.urdf")); }

}  // namespace

class TestPerturbationSpring : public QObject {
  Q_OBJECT

 private slots:
  // At rest the force points from the point to the target, k = m w^2: twice the distance or twice
  // the mass, twice the force.
  void forceTowardsTheTargetScaledByMass() {
    const Eigen::Vector3d p(0.3, -0.2, 0.5), target(0.31, -0.18, 0.52), v = Eigen::Vector3d::Zero();
    const Eigen::Vector3d f = perturb::springForce(2.0, 9.81, p, v, target);
    const Eigen::Vector3d d = target - p;
    QVERIFY(f.normalized().dot(d.normalized()) > 1 - 1e-12);
    QCOMPARE_LE(std::abs(f.norm() - 2.0 * kW * kW * d.norm()), 1e-9 * f.norm());
    const Eigen::Vector3d f2 = perturb::springForce(4.0, 9.81, p, v, target);
    QCOMPARE_LE((f2 - 2 * f).norm(), 1e-9 * f2.norm());
    const Eigen::Vector3d fFar = perturb::springForce(2.0, 9.81, p, v, p + 2 * d);
    QCOMPARE_LE((fFar - 2 * f).norm(), 1e-9 * fFar.norm());
  }

  // At the target, moving: the force is -c v with c = 2 m w (critically damped), against the motion.
  void dampingOpposesVelocity() {
    const Eigen::Vector3d p(0.1, 0.2, 0.3), v(0.4, -0.3, 0.2);
    const Eigen::Vector3d f = perturb::springForce(1.5, 9.81, p, v, p);
    QVERIFY(f.dot(v) < 0);
    QCOMPARE_LE((f + 2 * 1.5 * kW * v).norm(), 1e-9 * f.norm());
  }

  // A target far away (the cursor off the robot) pulls with kMaxWeights weights, no more.
  void pullIsCapped() {
    const Eigen::Vector3d f =
        perturb::springForce(3.0, 9.81, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), Eigen::Vector3d(50, 0, 0));
    QCOMPARE_LE(std::abs(f.norm() - perturb::kMaxWeights * 3.0 * 9.81), 1e-9);
    QVERIFY(f.x() > 0);
  }

  // The twist: towards the target orientation about the right axis, K = I w^2; spin is damped.
  void momentTowardsTheTargetOrientation() {
    const Eigen::Matrix3d I = Eigen::Vector3d(0.2, 0.3, 0.4).asDiagonal();
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 1, 0).normalized()).toRotationMatrix();
    const Eigen::Matrix3d target = Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitZ()).toRotationMatrix() * R;
    const Eigen::Vector3d M = perturb::springMoment(5.0, 9.81, I, R, Eigen::Vector3d::Zero(), target);
    QCOMPARE_LE((M - I * (kW * kW * 0.1 * Eigen::Vector3d::UnitZ())).norm(), 1e-9 * M.norm());
    const Eigen::Vector3d omega(0.5, -1.0, 2.0);
    const Eigen::Vector3d Md = perturb::springMoment(5.0, 9.81, I, R, omega, R);
    QVERIFY(Md.dot(omega) < 0);
  }

  // On UR5: the gains use the subtree's mass (the upper arm carries the forearm and the wrist).
  void wrenchUsesTheSubtreeMass() {
    const dyn::Model m = ur5();
    dyn::Data data(m);
    const int upper = m.bodyIndex("upper_arm_link"), wrist = m.bodyIndex("wrist_3_link");
    QVERIFY(upper > 0 && wrist > upper);
    Eigen::VectorXd q = Eigen::VectorXd::Zero(m.nq);
    q << 0.2, -1.0, 1.2, -0.5, 0.3, 0.1;
    const Eigen::VectorXd qd = Eigen::VectorXd::Zero(m.nv);
    dyn::forwardKinematics(m, data, q);
    double expected = 0;
    for (int i = upper; i <= m.N; ++i) expected += m.I[i].m;  // UR5 is a chain: the rest of it
    const perturb::SubtreeInertia sub = perturb::subtreeInertia(m, data, upper, data.X0[upper].r);
    QCOMPARE_LE(std::abs(sub.mass - expected), 1e-12);
    QVERIFY(sub.mass > 10 * m.I[wrist].m);

    perturb::Perturbation p;
    p.body = upper;
    p.point = Eigen::Vector3d(0.0, 0.0, 0.2);
    dyn::forwardKinematics(m, data, q);
    const Eigen::Vector3d at = data.X0[upper].pointToA(p.point);
    p.target = at + Eigen::Vector3d(0, 0, 0.01);  // 1 cm up
    const dyn::ExternalWrench w = perturb::perturbationWrench(m, data, q, qd, p);
    QCOMPARE(w.body, upper);
    QCOMPARE_LE((w.force - expected * kW * kW * Eigen::Vector3d(0, 0, 0.01)).norm(), 1e-9 * w.force.norm());
    QVERIFY(w.moment.norm() == 0);
    // The same pull on the last link: its own small subtree.
    p.body = wrist;
    p.point.setZero();
    dyn::forwardKinematics(m, data, q);
    p.target = data.X0[wrist].r + Eigen::Vector3d(0, 0, 0.01);
    const dyn::ExternalWrench ww = perturb::perturbationWrench(m, data, q, qd, p);
    QCOMPARE_LE(std::abs(ww.force.norm() - m.I[wrist].m * kW * kW * 0.01), 1e-9);
  }

  // Through the runner, paused and stepped (advance): UR5 held by gravity compensation, its forearm
  // pulled 5 cm sideways and up. The snapshot's force points at the target at the start; after 2 s
  // of simulation the point has gone most of the way and the push has shrunk; held on, the pose
  // settles at the static response (the point on the target, Jᵀf = 0); cleared, no wrench acts.
  void runnerPullsThePointToTheTarget() {
    const dyn::Model m = ur5();
    SimulationRunner runner;
    Eigen::VectorXd q0 = Eigen::VectorXd::Zero(m.nq);
    q0 << 0.2, -1.0, 1.2, -0.5, 0.3, 0.1;
    dyn::SimulationSettings settings;
    settings.dt = 1e-3;
    QString error;
    QVERIFY2(runner.configure(m, settings, dyn::GravityCompensation{}, q0, Eigen::VectorXd::Zero(m.nv), &error),
             qPrintable(error));
    dyn::Data data(m);
    dyn::forwardKinematics(m, data, q0);
    perturb::Perturbation p;
    p.body = m.bodyIndex("forearm_link");
    p.point = Eigen::Vector3d(0.1, 0.0, 0.05);
    const Eigen::Vector3d start = data.X0[p.body].pointToA(p.point);
    const Eigen::Vector3d d(0.0, 0.03, 0.04);
    p.target = start + d;
    runner.setPerturbation(p);
    QVERIFY(runner.hasPerturbation());
    SimulationRunner::Snapshot s = runner.snapshot();
    QCOMPARE(int(s.wrenches.size()), 1);
    QVERIFY(s.wrenches[0].force.normalized().dot(d.normalized()) > 0.999);
    QCOMPARE_LE((s.wrenches[0].point - start).norm(), 1e-12);
    QCOMPARE(s.tauExternal.size(), Eigen::Index(m.nv));
    const double f0 = s.wrenches[0].force.norm();

    QVERIFY(runner.advance(2.0));
    s = runner.snapshot();
    dyn::forwardKinematics(m, data, s.q);
    const Eigen::Vector3d now = data.X0[p.body].pointToA(p.point);
    QVERIFY2((now - start).dot(d.normalized()) > 0.7 * d.norm(),
             qPrintable(QString("moved %1 m of %2").arg((now - start).dot(d.normalized())).arg(d.norm())));
    QVERIFY((now - p.target).norm() < 0.5 * d.norm());
    QVERIFY(s.wrenches[0].force.norm() < 0.6 * f0);

    // Held on (a paused drag that stays): the pose goes to the force's static response. With gravity
    // compensated, q̇ = q̈ = 0 needs Jᵀf = 0 (the joint damping and friction act only while moving),
    // so the arm comes to rest with the spring slack, the point on the target (exponentially: the
    // joints the point does not fix drift on with the damping alone, Jᵀf 14 times smaller at 8 s).
    const double tau0 = runner.snapshot().tauExternal.size() ? s.tauExternal.cwiseAbs().maxCoeff() : 0;
    QVERIFY(runner.advance(6.0));
    s = runner.snapshot();
    dyn::forwardKinematics(m, data, s.q);
    const Eigen::Vector3d rest = data.X0[p.body].pointToA(p.point);
    QVERIFY2(s.qd.cwiseAbs().maxCoeff() < 1e-3,
             qPrintable(QString("still moving: %1").arg(s.qd.cwiseAbs().maxCoeff())));
    QVERIFY2((rest - p.target).norm() < 1e-3,
             qPrintable(QString("%1 m from the target").arg((rest - p.target).norm())));
    QVERIFY2(s.tauExternal.cwiseAbs().maxCoeff() < 0.1 * tau0,
             qPrintable(QString("J^T f %1 of %2 at 2 s").arg(s.tauExternal.cwiseAbs().maxCoeff()).arg(tau0)));

    runner.clearPerturbation();
    QVERIFY(!runner.hasPerturbation());
    QVERIFY(runner.snapshot().wrenches.empty());
    const Eigen::VectorXd qBefore = runner.snapshot().q;
    QVERIFY(runner.step());
    QVERIFY(runner.snapshot().wrenches.empty());
  }

  // The floating humanoid held by gravity compensation, its head pulled 4 cm sideways: the gains of
  // the head's subtree (light) still move it most of the way; the pelvis (the whole robot's subtree)
  // pulled up 3 cm rises too.
  void humanoidHeadAndPelvisFollow() {
    dyn::BuildOptions floating;
    floating.floatingBase = true;
    const dyn::Model m = dyn::buildModel(dyn::parseUrdfFile(DYNSCOPE_ROBOTS_DIR "/humanoid.urdf"), floating);
    QVERIFY(m.floatingBase);
    for (const char* link : {"head", "pelvis"}) {
      SimulationRunner runner;
      const Eigen::VectorXd q0 = m.home();
      QString error;
      QVERIFY2(runner.configure(m, dyn::SimulationSettings{}, dyn::GravityCompensation{}, q0,
                                Eigen::VectorXd::Zero(m.nv), &error),
               qPrintable(error));
      dyn::Data data(m);
      dyn::forwardKinematics(m, data, q0);
      perturb::Perturbation p;
      p.body = m.bodyIndex(link);
      QVERIFY(p.body > 0);
      const Eigen::Vector3d start = data.X0[p.body].pointToA(p.point);
      const Eigen::Vector3d d = std::string(link) == "head" ? Eigen::Vector3d(0, 0.04, 0) : Eigen::Vector3d(0, 0, 0.03);
      p.target = start + d;
      runner.setPerturbation(p);
      QVERIFY(runner.advance(1.5));
      const SimulationRunner::Snapshot s = runner.snapshot();
      dyn::forwardKinematics(m, data, s.q);
      const double along = (data.X0[p.body].pointToA(p.point) - start).dot(d.normalized());
      QVERIFY2(along > 0.5 * d.norm(), qPrintable(QString("%1 moved %2 m of %3").arg(link).arg(along).arg(d.norm())));
    }
  }
};

QTEST_GUILESS_MAIN(TestPerturbationSpring)
#include "test_perturbation_spring.moc"
