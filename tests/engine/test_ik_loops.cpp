// Inverse kinematics of closed-loop mechanisms (issue 16: "IK dragging respects loops"). The solver
// moves only along the constraint manifold phi(q) = 0, so a link of a mechanism reaches its target
// through the mechanism's own joints. Every solution is checked independently of the solver:
//  * the delta robot's plate (it hangs from the base by a floating joint, so the tree's Jacobian of
//    the plate has only that joint's columns) reaches a reachable target: each leg then satisfies
//    Williams' closed form |P + wP r_i - E_i(theta_i)| = l with the motor angles found, the plate does
//    not turn, and the motors are those that produced the target;
//  * a point on the four-bar's coupler follows targets along its coupler curve (the closed-form
//    position solution of tests/support/fourbar_closed_form.hpp), the crank at the generating angle;
//  * locks, limits and strict pins keep working: a locked motor keeps its value, a target above the
//    workspace stops the motors at their limits with the loops still closed, a pinned plate holds.
#include <QtTest>
#include <cmath>
#include <random>

#include "dynscope/dynscope.hpp"
#include "dynscope/loops/loop_constraints.hpp"
#include "fourbar_closed_form.hpp"
#include "loop_states.hpp"

using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

// max |phi(q)|, evaluated afresh.
double phiAt(const dyn::Model& m, const VectorXd& q) {
  dyn::Data d(m);
  dyn::LoopData ld(m);
  dyn::loopConstraints(m, d, ld, q);
  return dyn::maxAbs(ld.phi);
}

dyn::Transform<double> frameAt(const dyn::Model& m, const VectorXd& q, int frame) {
  dyn::Data d(m);
  dyn::forwardKinematics(m, d, q);
  dyn::updateFrames(m, d);
  return d.oMf[size_t(frame)];
}

int qOf(const dyn::Model& m, const std::string& joint) { return m.joints[size_t(m.jointIndex(joint))].idx_q; }

bool withinLimits(const dyn::Model& m, const VectorXd& q) {
  for (int k = 0; k < m.nq; ++k)
    if (q[k] < m.lowerLimit[k] || q[k] > m.upperLimit[k]) return false;
  return true;
}

// Williams (2016), as in robots/delta.urdf: the distance of each leg's plate joint from its elbow,
// from the motor angle alone, minus the lower arm's length l.
double deltaLegError(const dyn::Model& m, const VectorXd& q, const Vector3d& plate) {
  const double sB = 0.567, sP = 0.076, L = 0.524, l = 1.244, th0 = 20 * M_PI / 180;
  const double wB = std::sqrt(3.0) / 6 * sB, wP = std::sqrt(3.0) / 6 * sP;
  double worst = 0;
  for (int i = 0; i < 3; ++i) {
    const double psi = (-90 + 120 * i) * M_PI / 180, th = th0 + q[qOf(m, "motor" + std::to_string(i + 1))];
    const Vector3d r(std::cos(psi), std::sin(psi), 0),
        E = (wB + L * std::cos(th)) * r + Vector3d(0, 0, -L * std::sin(th));
    worst = std::max(worst, std::abs((plate + wP * r - E).norm() - l));
  }
  return worst;
}

}  // namespace

class TestIkLoops : public QObject {
  Q_OBJECT

 private slots:
  void deltaPlateReachesReachableTargets() {
    const dyn::Model m = dyn::testing::loadRobot("delta.urdf");
    const int plate = m.frameIndex("plate");
    QVERIFY(plate >= 0);
    dyn::IkSolver solver(m);
    std::mt19937 rng(5);
    int solved = 0;
    for (int trial = 0; trial < 8; ++trial) {
      VectorXd qt, qd;
      QVERIFY(dyn::testing::randomAssembledState(m, rng, qt, qd, 0.5));
      const dyn::Transform<double> target = frameAt(m, qt, plate);
      for (bool positionOnly : {true, false}) {
        solver.setTarget(dyn::IkTask{plate, target, 1.0, positionOnly});
        const dyn::IkResult& r = solver.solve(m.home());
        QVERIFY2(r.converged, qPrintable(QString("trial %1: %2 m away").arg(trial).arg(r.positionError)));
        ++solved;
        const dyn::Transform<double> X = frameAt(m, r.q, plate);
        QVERIFY((X.translation() - target.translation()).norm() < 1e-9);
        QVERIFY2(phiAt(m, r.q) < 1e-10, qPrintable(QString("|phi| %1").arg(phiAt(m, r.q))));
        QVERIFY(r.constraintError < 1e-10);
        QVERIFY2(deltaLegError(m, r.q, X.translation()) < 1e-9, "a leg is not its length (Williams' closed form)");
        QVERIFY((X.rotation() - Eigen::Matrix3d::Identity()).norm() < 1e-9);  // the plate only translates
        for (const char* motor : {"motor1", "motor2", "motor3"}) {
          QVERIFY2(std::abs(r.q[qOf(m, motor)] - qt[qOf(m, motor)]) < 1e-6, motor);
          QVERIFY(std::abs(r.q[qOf(m, motor)] - m.home()[qOf(m, motor)]) > 1e-3 ||
                  std::abs(qt[qOf(m, motor)] - m.home()[qOf(m, motor)]) < 1e-3);  // the motors moved
        }
        QVERIFY(withinLimits(m, r.q));
      }
    }
    QCOMPARE(solved, 16);
  }

  // The coupler point (s along the coupler from the crank pin A, h to its left) traces the coupler
  // curve as the crank turns; IK drags it along the curve from one target to the next.
  void fourBarCouplerPointFollowsItsCurve() {
    using dyn::testing::fourBarClosedForm;
    dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    const double s = 0.2, h = 0.08, theta20 = M_PI / 3;
    const auto couplerPoint = [&](double theta2) {
      const dyn::testing::FourBarPose p = fourBarClosedForm(theta2);
      const Vector3d u = (p.B - p.A).normalized(), n(-u.z(), 0, u.x());
      return Vector3d(p.A + s * u + h * n);
    };
    // The point as a frame of the coupler, placed from the closed form at the zero pose.
    const int coupler = m.bodyIndex("coupler");
    QVERIFY(coupler > 0);
    dyn::Data d(m);
    dyn::forwardKinematics(m, d, m.home());
    const dyn::Transform<double>& Xc = d.X0[size_t(coupler)];
    m.frames.push_back(
        {"coupler_point", coupler, dyn::Transform<double>::xlt(Xc.E * (couplerPoint(theta20) - Xc.translation()))});
    const int frame = m.frameIndex("coupler_point");
    const int crank = qOf(m, "crank_joint");
    dyn::IkSolver solver(m);
    solver.options.maxStep = 0.1;
    VectorXd q = m.home();
    double travelled = 0;
    for (int k = 1; k <= 72; ++k) {  // the crank once round in 5 degree steps
      const double delta = 2 * M_PI * k / 72;
      const Vector3d target = couplerPoint(theta20 + delta);
      travelled += (target - couplerPoint(theta20 + delta - 2 * M_PI / 72)).norm();
      solver.setTarget(dyn::IkTask{frame, dyn::Transform<double>::xlt(target), 1.0, true});
      const dyn::IkResult& r = solver.solve(q);
      QVERIFY2(r.converged, qPrintable(QString("step %1: %2 m away").arg(k).arg(r.positionError)));
      q = r.q;
      QVERIFY((frameAt(m, q, frame).translation() - target).norm() < 1e-9);
      QVERIFY2(phiAt(m, q) < 1e-10, qPrintable(QString("step %1: |phi| %2").arg(k).arg(phiAt(m, q))));
      QVERIFY2(std::abs(std::remainder(q[crank] - delta, 2 * M_PI)) < 1e-6,
               qPrintable(QString("step %1: crank %2, curve point of %3").arg(k).arg(q[crank]).arg(delta)));
      // The rocker at the closed form's angle for that crank angle (joint value: from the zero pose).
      const double rocker = fourBarClosedForm(theta20 + q[crank]).theta4 - fourBarClosedForm(theta20).theta4;
      QVERIFY(std::abs(std::remainder(q[qOf(m, "rocker_joint")] - rocker, 2 * M_PI)) < 1e-8);
    }
    QVERIFY(travelled > 0.3);  // a real curve, not a point
  }

  // A locked motor keeps its value; the two others bring the plate to a target reachable that way.
  void lockedMotorKeepsItsValue() {
    const dyn::Model m = dyn::testing::loadRobot("delta.urdf");
    const int plate = m.frameIndex("plate");
    VectorXd q0 = m.home();
    q0[qOf(m, "motor2")] += 0.3;
    q0[qOf(m, "motor3")] -= 0.2;
    const dyn::AssemblyResult a = dyn::assemble(m, q0, {m.independentDofs(), 1e-13, 100});
    QVERIFY2(a.converged, a.message.c_str());
    dyn::IkSolver solver(m);
    solver.lockJoint(m.jointIndex("motor1"));
    solver.setTarget(dyn::IkTask{plate, frameAt(m, a.q, plate), 1.0, true});
    const dyn::IkResult& r = solver.solve(m.home());
    QVERIFY2(r.converged, qPrintable(QString("%1 m away").arg(r.positionError)));
    QCOMPARE(r.q[qOf(m, "motor1")], m.home()[qOf(m, "motor1")]);
    QVERIFY(std::abs(r.q[qOf(m, "motor2")] - a.q[qOf(m, "motor2")]) < 1e-6);
    QVERIFY(phiAt(m, r.q) < 1e-10);
  }

  // A target 0.8 m above the plate is out of the workspace: the motors stop at their upper-arm
  // limit, the loops stay closed, and the plate gets closer than it was.
  void limitsHoldOnAnUnreachableTarget() {
    const dyn::Model m = dyn::testing::loadRobot("delta.urdf");
    const int plate = m.frameIndex("plate");
    const Vector3d p0 = frameAt(m, m.home(), plate).translation(), target = p0 + Vector3d(0, 0, 0.8);
    dyn::IkSolver solver(m);
    solver.setTarget(dyn::IkTask{plate, dyn::Transform<double>::xlt(target), 1.0, true});
    const dyn::IkResult& r = solver.solve(m.home());
    QVERIFY(!r.converged);
    QVERIFY(withinLimits(m, r.q));
    QVERIFY(phiAt(m, r.q) < 1e-10);
    QVERIFY(r.positionError < 0.8 - 0.1);
    int atLimit = 0;
    for (int v : r.limitedDofs) atLimit += m.jointNames[size_t(m.dofBody[size_t(v)])].rfind("motor", 0) == 0;
    QVERIFY2(atLimit >= 1, "no motor stopped at its limit");
  }

  // The plate pinned (strict): dragging an elbow moves nothing, since every motion of the arm moves
  // the plate (the spanning tree alone would turn the motor and leave the plate: the loop open).
  void pinnedPlateHolds() {
    const dyn::Model m = dyn::testing::loadRobot("delta.urdf");
    const int plate = m.frameIndex("plate"), arm = m.frameIndex("elbow_cross1");
    QVERIFY(arm >= 0);
    dyn::IkSolver solver(m);
    solver.options.pinMode = dyn::IkPinMode::Strict;
    solver.pinAt(plate, m.home());
    const Vector3d pArm = frameAt(m, m.home(), arm).translation();
    solver.setTarget(dyn::IkTask{arm, dyn::Transform<double>::xlt(pArm + Vector3d(0, 0, 0.05)), 1.0, true});
    const dyn::IkResult& r = solver.solve(m.home());
    QVERIFY(r.pinError < 1e-9);
    QVERIFY((frameAt(m, r.q, plate).translation() - frameAt(m, m.home(), plate).translation()).norm() < 1e-9);
    QVERIFY(std::abs(r.q[qOf(m, "motor1")] - m.home()[qOf(m, "motor1")]) < 1e-6);
    QVERIFY(phiAt(m, r.q) < 1e-10);
  }

  // A start whose loops are open is assembled first, the independent coordinates as given.
  void openStartIsAssembled() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    VectorXd torn = m.home();
    torn.array() += 0.2;
    QVERIFY(phiAt(m, torn) > 1e-3);
    dyn::IkSolver solver(m);
    solver.setTarget(dyn::IkTask{m.frameIndex("rocker"), frameAt(m, m.home(), m.frameIndex("rocker")), 1.0, true});
    const dyn::IkResult& r = solver.solve(torn);
    QVERIFY(phiAt(m, r.q) < 1e-10);
  }
};

QTEST_APPLESS_MAIN(TestIkLoops)
#include "test_ik_loops.moc"
