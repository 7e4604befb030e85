// Mimic joints where the robot moves (docs/mimic.md): the IK solver, the simulator and sampled
// trajectories keep every relation q_f = a q_master + b, checked against references that do not
// use the coupling:
//  * simulation: the same-direction gripper equals its equivalent model written without a mimic
//    (one prismatic joint carrying both fingers rigidly) along a whole RK4 run, to 1e-9; on the
//    four-finger hand (chains of mimics) the relations hold at every recorded sample to 1e-12 and
//    the energy of the undamped run is conserved;
//  * IK: a fingertip brought to a pose reached by a configuration that obeys the relations; the
//    solution obeys them to 1e-12 (and the same solve without the relations breaks them: the
//    check can fail);
//  * trajectories: enforceMimic puts every sample on the relations, and forcesOnIndependentDofs
//    equals G^T f with a dense G.
#include <QtTest>
#include <random>

#include "dynscope/dynscope.hpp"
#include "dynscope/ik/ik_solver.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "dynscope/simulation/simulator.hpp"
#include "dynscope/trajectory/mimic_trajectory.hpp"

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

std::string dataFile(const char* name) { return std::string(DYNSCOPE_TEST_DATA_DIR) + "/mimic/" + name; }

// The largest violation of the model's relations at q (0 when every follower is where it belongs).
double relationError(const dyn::Model& m, const VectorXd& q) {
  double worst = 0;
  for (const dyn::MimicInfo& mi : m.mimics) {
    const double qf = q[m.joints[size_t(mi.joint)].idx_q], qm = q[m.joints[size_t(mi.mimicked)].idx_q];
    worst = std::max(worst, std::abs(qf - (mi.multiplier * qm + mi.offset)));
  }
  return worst;
}

dyn::SimulationSettings undamped() {
  dyn::SimulationSettings s;
  s.integrator = dyn::Integrator::Rk4;
  s.dt = 1e-3;
  s.damping = s.friction = s.limits = false;
  return s;
}

}  // namespace

class TestMimicMotion : public QObject {
  Q_OBJECT

 private slots:
  void simulationEqualsTheRigidModel() {
    const dyn::Model m = dyn::loadModel(dataFile("gripper_same_direction.urdf"));
    const dyn::Model rigid = dyn::loadModel(dataFile("gripper_same_direction_rigid.urdf"));
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    QCOMPARE(rigid.nv, c.ny);
    const VectorXd y = (VectorXd(2) << 0.4, 0.012).finished(), yd = (VectorXd(2) << -0.8, 0.05).finished();
    VectorXd q(m.nq), qd(m.nv);
    dyn::expandPositions(c, y, q);
    dyn::expandVelocities(c, yd, qd);
    dyn::Simulator sim(m, undamped()), simRigid(rigid, undamped());
    sim.reset(q, qd);
    simRigid.reset(y, yd);
    QVERIFY(sim.advance(0.5) == dyn::SimulationStatus::Ok);
    QVERIFY(simRigid.advance(0.5) == dyn::SimulationStatus::Ok);
    VectorXd yEnd(2), ydEnd(2);
    dyn::selectPositions(c, sim.q(), yEnd);
    dyn::selectVelocities(c, sim.qd(), ydEnd);
    QVERIFY2((yEnd - simRigid.q()).cwiseAbs().maxCoeff() < 1e-9,
             qPrintable(QString::number((yEnd - simRigid.q()).cwiseAbs().maxCoeff())));
    QVERIFY((ydEnd - simRigid.qd()).cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY((y - yEnd).cwiseAbs().maxCoeff() > 1e-2);  // it moved
    QVERIFY(relationError(m, sim.q()) < 1e-12);
  }

  void simulationKeepsChainsOfRelations() {
    const dyn::Model m = dyn::loadModel(dataFile("four_finger_hand.urdf"));
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    QVERIFY(c.ny < m.nv);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-0.5, 0.5);
    VectorXd y(c.nqy), yd(c.ny), q(m.nq), qd(m.nv);
    for (int k = 0; k < c.nqy; ++k) y[k] = U(rng);
    for (int k = 0; k < c.ny; ++k) yd[k] = 2 * U(rng);
    dyn::expandPositions(c, y, q);
    dyn::expandVelocities(c, yd, qd);
    dyn::Simulator sim(m, undamped());
    sim.reset(q, qd);
    // The first evaluation is the reduced forward dynamics: qdd = G H_y^-1 G^T (tau - C).
    dyn::Data data(m);
    dyn::MimicData w(c);
    VectorXd tauY(c.ny);
    dyn::reduceForces(c, sim.tau(), tauY);
    dyn::reducedForwardDynamics(m, data, c, w, y, yd, tauY);
    QVERIFY((sim.qdd() - w.qdd).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY(sim.advance(0.4) == dyn::SimulationStatus::Ok);
    const dyn::SimulationRecord& r = sim.record();
    QVERIFY(r.samples() > 100);
    double worst = 0;
    for (int k = 0; k < r.samples(); ++k)
      worst = std::max(worst, relationError(m, Eigen::Map<const VectorXd>(r.q.data() + size_t(k) * m.nq, m.nq)));
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
    QVERIFY2(r.maxRelativeEnergyDrift() < 1e-6, qPrintable(QString::number(r.maxRelativeEnergyDrift())));
  }

  void ikKeepsTheRelations() {
    const dyn::Model m = dyn::loadModel(dataFile("four_finger_hand.urdf"));
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    const int tip = m.frameIndex("f1_distal");
    QVERIFY(tip >= 0);
    // A reachable target: the fingertip where a configuration on the relations puts it.
    VectorXd yGoal = VectorXd::Constant(c.nqy, 0.3), qGoal(m.nq);
    dyn::expandPositions(c, yGoal, qGoal);
    dyn::IkSolver goal(m);
    const dyn::Transform<double> target = goal.framePose(tip, qGoal);
    VectorXd yStart = VectorXd::Constant(c.nqy, 0.1), q0(m.nq);
    dyn::expandPositions(c, yStart, q0);
    dyn::IkSolver ik(m);
    ik.setTarget(dyn::IkTask{tip, target, 1.0, true});
    const dyn::IkResult& r = ik.solve(q0);
    QVERIFY(r.converged);
    QVERIFY2(relationError(m, r.q) < 1e-12, qPrintable(QString::number(relationError(m, r.q))));
    QVERIFY((ik.framePose(tip, r.q).translation() - target.translation()).norm() < 1e-8);
    // Without the relations the finger's joints move on their own and the relations break.
    dyn::Model free = m;
    free.mimics.clear();
    dyn::IkSolver ikFree(free);
    ikFree.setTarget(dyn::IkTask{tip, target, 1.0, true});
    const dyn::IkResult& rf = ikFree.solve(q0);
    QVERIFY(rf.converged);
    QVERIFY(relationError(m, rf.q) > 1e-4);
  }

  void trajectorySamplesOnTheRelations() {
    const dyn::Model m = dyn::loadModel(dataFile("parallel_gripper.urdf"));
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    dyn::SampledTrajectory t;
    const int n = 5;
    t.t = VectorXd::LinSpaced(n, 0, 1);
    t.q = MatrixXd::Random(m.nq, n);
    t.qd = MatrixXd::Random(m.nv, n);
    t.qdd = MatrixXd::Random(m.nv, n);
    const MatrixXd qdBefore = t.qd;
    dyn::enforceMimic(c, t);
    const MatrixXd G = c.denseG();
    for (int k = 0; k < n; ++k) {
      QVERIFY(relationError(m, t.q.col(k)) < 1e-15);
      VectorXd yd(c.ny);
      dyn::selectVelocities(c, qdBefore.col(k), yd);
      QVERIFY((t.qd.col(k) - G * yd).cwiseAbs().maxCoeff() < 1e-15);
    }
    // Forces on the independent dofs: G^T f in the independent rows, 0 in the followers'.
    MatrixXd f = MatrixXd::Random(m.nv, n), expected = MatrixXd::Zero(m.nv, n);
    const MatrixXd reduced = G.transpose() * f;
    for (int j = 0; j < c.ny; ++j) expected.row(c.independentDofs[size_t(j)]) = reduced.row(j);
    dyn::forcesOnIndependentDofs(c, f);
    QVERIFY((f - expected).cwiseAbs().maxCoeff() < 1e-14);
  }
};

QTEST_APPLESS_MAIN(TestMimicMotion)
#include "test_mimic_motion.moc"
