// Trajectories of closed-loop mechanisms (dynscope/loops/loop_trajectory.hpp) and their actuator
// torques (computeTrajectoryDynamics on a model with loops), against independent references:
//  * the closed samples satisfy phi = 0 and phi' qd = 0, keep the independent coordinates, and
//    their dependent velocities and accelerations are the central differences of the dependent
//    positions along the trajectory;
//  * power balance: with no damping or friction the actuators' power tau . qd equals dE/dt, the
//    central difference of the mechanism's energy (the constraint forces do no work);
//  * the decomposition M qdd + c + g sums to tau; a trajectory that cannot close is reported at the
//    sample where it fails.
#include <QtTest>
#include <cmath>

#include "dynscope/dynscope.hpp"
#include "dynscope/loops/loop_constraints.hpp"
#include "dynscope/loops/loop_trajectory.hpp"
#include "dynscope/trajectory/trajectory_dynamics.hpp"
#include "loop_states.hpp"

using Eigen::VectorXd;

namespace {

// A smooth motion of the independent coordinates about home(): x_v(t) = home_v + A sin(w t + v),
// with exact velocities and accelerations; the dependent entries are left at home (not closed).
dyn::SampledTrajectory independentMotion(const dyn::Model& m, double amplitude, double duration, double h) {
  const int n = int(std::lround(duration / h)) + 1;
  dyn::SampledTrajectory tr;
  tr.t = VectorXd::LinSpaced(n, 0, (n - 1) * h);
  tr.q = m.home().replicate(1, n);
  tr.qd = Eigen::MatrixXd::Zero(m.nv, n);
  tr.qdd = Eigen::MatrixXd::Zero(m.nv, n);
  const double w = 2.0;
  for (int v : m.independentDofs()) {
    const auto& J = m.joints[size_t(m.dofBody[size_t(v)])];
    if (J.nq != J.nv) continue;
    const int iq = J.idx_q + v - J.idx_v;
    for (int k = 0; k < n; ++k) {
      const double t = tr.t[k];
      tr.q(iq, k) += amplitude * std::sin(w * t + v);
      tr.qd(v, k) = amplitude * w * std::cos(w * t + v);
      tr.qdd(v, k) = -amplitude * w * w * std::sin(w * t + v);
    }
  }
  return tr;
}

}  // namespace

class TestLoopTrajectory : public QObject {
  Q_OBJECT

 private slots:
  void closedSamplesAreConsistent_data() {
    QTest::addColumn<QString>("robot");
    for (const char* r : dyn::testing::loopRobots()) QTest::newRow(r) << QString(r);
  }
  void closedSamplesAreConsistent() {
    QFETCH(QString, robot);
    const dyn::Model m = dyn::testing::loadRobot(robot.toStdString());
    const double h = 1e-3;
    dyn::SampledTrajectory tr = independentMotion(m, 0.1, 0.4, h);
    const dyn::SampledTrajectory planned = tr;
    const dyn::LoopTrajectoryReport r = dyn::closeTrajectory(m, tr);
    QVERIFY2(r.ok(), r.message.c_str());
    QCOMPARE(r.closed, tr.samples());
    QVERIFY(r.maxResidual < 1e-10);
    QVERIFY(r.maxRateResidual < 1e-9);
    dyn::Data data(m);
    dyn::LoopData ld(m);
    for (int k = 0; k < tr.samples(); ++k) {
      dyn::loopConstraints(m, data, ld, tr.q.col(k));
      QVERIFY(dyn::maxAbs(ld.phi) < 1e-10);
      for (int v : m.independentDofs()) {  // the independent motion is kept
        const auto& J = m.joints[size_t(m.dofBody[size_t(v)])];
        if (J.nq != J.nv) continue;
        QCOMPARE(tr.q(J.idx_q + v - J.idx_v, k), planned.q(J.idx_q + v - J.idx_v, k));
        QCOMPARE(tr.qd(v, k), planned.qd(v, k));
        QCOMPARE(tr.qdd(v, k), planned.qdd(v, k));
      }
    }
    // Dependent velocities and accelerations: central differences of the closed positions / velocities.
    double worstV = 0, worstA = 0, scaleV = 1e-9, scaleA = 1e-9;
    VectorXd dq(m.nv), dqd(m.nv);
    for (int k = 1; k + 1 < tr.samples(); ++k) {
      dyn::difference(m, VectorXd(tr.q.col(k - 1)), VectorXd(tr.q.col(k + 1)), dq);
      dqd = tr.qd.col(k + 1) - tr.qd.col(k - 1);
      for (int v : m.dependentDofs) {
        worstV = std::max(worstV, std::abs(dq[v] / (2 * h) - tr.qd(v, k)));
        worstA = std::max(worstA, std::abs(dqd[v] / (2 * h) - tr.qdd(v, k)));
        scaleV = std::max(scaleV, std::abs(tr.qd(v, k)));
        scaleA = std::max(scaleA, std::abs(tr.qdd(v, k)));
      }
    }
    QVERIFY2(worstV < 1e-4 * scaleV && worstA < 1e-3 * scaleA,
             qPrintable(QString("velocity error %1 of %2, acceleration error %3 of %4")
                            .arg(worstV)
                            .arg(scaleV)
                            .arg(worstA)
                            .arg(scaleA)));
  }

  // The four-bar has no damping or friction: the crank's power is the rate of change of energy.
  void actuatorPowerIsTheRateOfEnergy() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    for (int v = 0; v < m.nv; ++v) QCOMPARE(m.damping[v], 0.0);
    const double h = 1e-3;
    dyn::SampledTrajectory tr = independentMotion(m, 0.8, 1.5, h);
    QVERIFY(dyn::closeTrajectory(m, tr).ok());
    dyn::TrajectoryDynamicsOptions options;
    options.decompose = true;
    options.energy = true;
    const dyn::TrajectoryDynamics d = dyn::computeTrajectoryDynamics(m, tr, options);
    for (int v = 0; v < m.nv; ++v)  // the passive joints deliver nothing
      if (!m.isActuated(v)) QCOMPARE(d.tau.row(v).cwiseAbs().maxCoeff(), 0.0);
    double worst = 0, scale = 0;
    for (int k = 1; k + 1 < tr.samples(); ++k) {
      const double power = d.power.col(k).sum(), dEdt = (d.total[k + 1] - d.total[k - 1]) / (2 * h);
      worst = std::max(worst, std::abs(power - dEdt));
      scale = std::max(scale, std::abs(power));
    }
    QVERIFY2(scale > 1e-2 && worst < 1e-4 * scale, qPrintable(QString("|P - dE/dt| %1 of %2").arg(worst).arg(scale)));
    const double sum = (d.inertial + d.coriolis + d.gravity - d.tau).cwiseAbs().maxCoeff();
    QVERIFY(sum < 1e-9 * d.tau.cwiseAbs().maxCoeff());
  }

  // A rocker-driven four-bar swung past its extreme positions cannot close: reported at the sample.
  void unclosableSampleIsReported() {
    dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    const int rocker = m.joints[size_t(m.jointIndex("rocker_joint"))].idx_v;
    const int crank = m.joints[size_t(m.jointIndex("crank_joint"))].idx_v;
    m.dependentDofs = {0, 1, 2};  // the rocker independent instead of the crank
    m.dependentDofs.erase(std::find(m.dependentDofs.begin(), m.dependentDofs.end(), rocker));
    QVERIFY(std::find(m.dependentDofs.begin(), m.dependentDofs.end(), crank) != m.dependentDofs.end());
    dyn::SampledTrajectory tr = independentMotion(m, 0.6, 2.0, 1e-2);  // +-34 deg: the rocker swings 40 only
    const dyn::LoopTrajectoryReport r = dyn::closeTrajectory(m, tr);
    QVERIFY(!r.ok());
    QVERIFY(r.failedSample > 0 && r.closed == r.failedSample);  // it starts inside the range
    QVERIFY2(r.message.find("coupler_rocker_joint") != std::string::npos, r.message.c_str());
  }
};

QTEST_MAIN(TestLoopTrajectory)
#include "test_loop_trajectory.moc"
