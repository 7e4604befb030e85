// The τ decomposition of a recorded run that had forces from outside (issue 25): with the record's
// J^T f given (TrajectoryDynamicsOptions::tauExternal), τ is the joints' share, τ + J^T f is the
// inverse dynamics of the recorded motion (and the simulator's applied total), and the four terms
// M q̈ + c + g - J^T f sum to τ. A run without forces from outside keeps the three-term results
// exactly (bit for bit against the formulas of the decomposition, term by term).
#include <QtTest>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"

using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

dyn::Model robot(const char* file, bool floating = false) {
  return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file, {.floatingBase = floating});
}

// UR5 pushed sideways on its forearm for 0.3 s (no ground): a fixed base, the push alone.
dyn::SimulationRecord pushedUr5() {
  const dyn::Model model = robot("ur5.urdf");
  dyn::SimulationSettings s;
  s.integrator = dyn::Integrator::Rk4;
  dyn::Simulator sim(model, s);
  sim.reset();
  const int frame = model.frameIndex("forearm_link");
  if (frame < 0) throw std::runtime_error("ur5 has no forearm_link");
  sim.setWrenches({dyn::wrenchOnFrame(model, frame, Eigen::Vector3d(0.2, 0, 0), Eigen::Vector3d(0, 40, -25),
                                      Eigen::Vector3d(0, 0, 3))});
  sim.advance(0.3);
  return sim.record();
}

// The quadruped dropped 5 cm onto the ground: it lands, and the ground's contact forces act.
dyn::SimulationRecord quadrupedOnGround() {
  const dyn::Model model = robot("quadruped.urdf", true);
  dyn::SimulationSettings s;
  s.integrator = dyn::Integrator::Rk4;
  s.ground.enabled = true;
  dyn::Simulator sim(model, s);
  dyn::Data d(model);
  dyn::forwardKinematics(model, d, model.neutral());
  double lowest = 1e9;
  for (const dyn::ContactPoint& c : sim.contactPoints().points)
    lowest = std::min(lowest, d.X0[c.body].pointToA(c.point).z() - c.radius);
  VectorXd q0 = model.neutral();
  q0[2] = 0.05 - lowest;
  sim.reset(q0, VectorXd::Zero(model.nv));
  sim.advance(0.4);
  return sim.record();
}

double maxAbs(const MatrixXd& m) { return m.size() ? m.cwiseAbs().maxCoeff() : 0.0; }

}  // namespace

class TestTrajectoryExternal : public QObject {
  Q_OBJECT

 private slots:
  void joints_share_and_four_terms_data() {
    QTest::addColumn<QString>("which");
    QTest::newRow("ur5 pushed") << "push";
    QTest::newRow("quadruped on the ground") << "ground";
  }
  // τ_joints + J^T f = ID(q, q̇, q̈) and τ_joints = recorded τ - J^T f (the simulator's own split);
  // M q̈ + c + g + (-J^T f) = τ_joints; the inertial term is the CRBA's M(q) q̈.
  void joints_share_and_four_terms() {
    QFETCH(QString, which);
    const bool floating = which == "ground";
    const dyn::Model model = robot(floating ? "quadruped.urdf" : "ur5.urdf", floating);
    const dyn::SimulationRecord record = floating ? quadrupedOnGround() : pushedUr5();
    QVERIFY(!record.tauExternal.empty());
    const dyn::SampledTrajectory run = record.trajectory();
    const MatrixXd ext = record.externalTorques();
    const int n = run.samples();
    QVERIFY(n > 50);
    QVERIFY2(maxAbs(ext) > 1.0, qPrintable(QString("J^T f at most %1").arg(maxAbs(ext))));

    dyn::TrajectoryDynamicsOptions o;
    o.decompose = true;
    o.tauExternal = &ext;
    const dyn::TrajectoryDynamics d = dyn::computeTrajectoryDynamics(model, run, o);
    QCOMPARE(d.external.rows(), Eigen::Index(model.nv));
    QCOMPARE(d.external.cols(), Eigen::Index(n));
    QVERIFY(d.external == -ext);

    dyn::Data data(model);
    const MatrixXd applied = record.torques();
    int pushed = 0;
    for (int k = 0; k < n; ++k) {
      const VectorXd id = dyn::rnea(model, data, run.q.col(k), run.qd.col(k), run.qdd.col(k));
      const double scale = 1 + id.cwiseAbs().maxCoeff() + ext.col(k).cwiseAbs().maxCoeff();
      const QString at = QString(" at sample %1").arg(k);
      QVERIFY2((d.tau.col(k) + ext.col(k) - id).cwiseAbs().maxCoeff() < 1e-10 * scale,
               qPrintable("τ + J^T f is not ID" + at));
      // The simulator's total minus what came from outside (ID of the recorded q̈ is that total up
      // to the forward dynamics' rounding).
      QVERIFY2((d.tau.col(k) - (applied.col(k) - ext.col(k))).cwiseAbs().maxCoeff() < 1e-8 * scale,
               qPrintable("τ is not the recorded τ - J^T f" + at));
      const VectorXd sum = d.inertial.col(k) + d.coriolis.col(k) + d.gravity.col(k) + d.external.col(k);
      QVERIFY2((sum - d.tau.col(k)).cwiseAbs().maxCoeff() < 1e-10 * scale, qPrintable("the terms miss τ" + at));
      const MatrixXd& M = dyn::crba(model, data, run.q.col(k));
      QVERIFY2((d.inertial.col(k) - M * run.qdd.col(k)).cwiseAbs().maxCoeff() < 1e-9 * scale,
               qPrintable("the inertial term is not M q̈" + at));
      QVERIFY((d.power.col(k) - d.tau.col(k).cwiseProduct(run.qd.col(k))).cwiseAbs().maxCoeff() == 0);
      // The floating base has no actuator: what moves the trunk is the outside alone, τ_joints = 0 there.
      if (floating)
        QVERIFY2(d.tau.col(k).head(6).cwiseAbs().maxCoeff() < 1e-8 * scale,
                 qPrintable("the free joint gives a force" + at));
      if (ext.col(k).cwiseAbs().maxCoeff() > 1e-6) ++pushed;
    }
    QVERIFY(pushed > n / 4);

    // τ given (another formulation's, already the joints' share): the decomposition is the same.
    dyn::TrajectoryDynamics given;
    given.tau = d.tau;
    o.tauGiven = true;
    dyn::computeTrajectoryDynamics(model, run, o, given);
    QVERIFY(given.tau == d.tau);
    QVERIFY(given.inertial == d.inertial && given.coriolis == d.coriolis && given.gravity == d.gravity);
    QVERIFY(given.external == d.external);

    // Without the decomposition only τ and the power, the joints' share; no fourth term.
    o.tauGiven = false;
    o.decompose = false;
    const dyn::TrajectoryDynamics plain = dyn::computeTrajectoryDynamics(model, run, o);
    QVERIFY(plain.tau == d.tau);
    QCOMPARE(plain.external.size(), Eigen::Index(0));
  }

  // No forces from outside: the three terms as the decomposition defines them, bit for bit
  // (g = RNEA(q,0,0), c = RNEA(q,q̇,0) - g, M q̈ = τ - RNEA(q,q̇,0)); zero J^T f changes nothing either.
  void without_outside_forces_bit_identical() {
    const dyn::Model model = robot("ur5.urdf");
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    dyn::Simulator sim(model, s);
    VectorXd q0 = model.neutral();
    q0.setConstant(0.4);
    sim.reset(q0, VectorXd::Constant(model.nv, 0.5));
    sim.advance(0.3);
    QVERIFY(sim.record().tauExternal.empty());
    const dyn::SampledTrajectory run = sim.record().trajectory();
    const int n = run.samples();
    dyn::TrajectoryDynamicsOptions o;
    o.decompose = true;
    const dyn::TrajectoryDynamics d = dyn::computeTrajectoryDynamics(model, run, o);
    QCOMPARE(d.external.size(), Eigen::Index(0));
    dyn::Data data(model);
    const VectorXd zero = VectorXd::Zero(model.nv);
    for (int k = 0; k < n; ++k) {
      const VectorXd g = dyn::rnea(model, data, run.q.col(k), zero, zero);
      const VectorXd cg = dyn::rnea(model, data, run.q.col(k), run.qd.col(k), zero);
      const VectorXd tau = dyn::rnea(model, data, run.q.col(k), run.qd.col(k), run.qdd.col(k));
      QVERIFY(d.tau.col(k) == tau);
      QVERIFY(d.gravity.col(k) == g);
      QVERIFY(d.coriolis.col(k) == cg - g);
      QVERIFY(d.inertial.col(k) == tau - cg);
    }
    const MatrixXd zeros = sim.record().externalTorques();  // zeros: nothing from outside acted
    QCOMPARE(zeros.cols(), Eigen::Index(n));
    QVERIFY(zeros.isZero(0));
    o.tauExternal = &zeros;
    const dyn::TrajectoryDynamics z = dyn::computeTrajectoryDynamics(model, run, o);
    QVERIFY(z.tau == d.tau && z.inertial == d.inertial && z.coriolis == d.coriolis && z.gravity == d.gravity);
    QVERIFY(z.power == d.power && z.total == d.total);
    QVERIFY(z.external.isZero(0));
  }

  void refusals() {
    const dyn::Model model = robot("ur5.urdf");
    const dyn::SampledTrajectory run = pushedUr5().trajectory();
    dyn::TrajectoryDynamicsOptions o;
    const MatrixXd wrong = MatrixXd::Zero(model.nv, run.samples() - 1);
    o.tauExternal = &wrong;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::computeTrajectoryDynamics(model, run, o));
    const MatrixXd right = MatrixXd::Zero(model.nv, run.samples());
    const std::vector<dyn::Force<double>> fext(std::size_t(model.N + 1), dyn::Force<double>::Zero());
    o.tauExternal = &right;
    o.fext = &fext;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::computeTrajectoryDynamics(model, run, o));
  }
};

QTEST_MAIN(TestTrajectoryExternal)
#include "test_trajectory_external.moc"
