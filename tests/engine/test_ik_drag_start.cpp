// IK dragging from the pose a robot opens in (issue 25: "IK dragging gets stuck from the Panda's
// default pose"). The window opens a robot at its home pose clamped into the joint limits, which
// for the Panda puts joint 4 on its -4° limit with the arm stretched upright: a singular pose with a
// joint at its limit. A drag is a run of solves, each from where the last left the robot, toward a
// target that moves a little at a time (as IkDragController does: no random restarts, which would
// jump). The targets are reachable by construction: the end effector's pose at a configuration near
// the start (within the limits); the path to it is a straight line (and a slerp of the orientation)
// in 40 steps. The drag must end on the target, for each shipped arm, in position and in full pose
// (see the one exception allowed below); and the report's own moves on the Panda.
#include <Eigen/Geometry>
#include <QtTest>
#include <algorithm>
#include <random>
#include <string>

#include "dynscope/dynscope.hpp"

namespace {

std::string robotPath(const char* file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

dyn::Transform<double> poseAt(const dyn::Model& m, const Eigen::VectorXd& q, int frame) {
  dyn::Data d(m);
  dyn::forwardKinematics(m, d, q);
  dyn::updateFrames(m, d);
  return d.oMf[size_t(frame)];
}

// The window's start pose: home, each limited joint clamped into its limits.
Eigen::VectorXd openingPose(const dyn::Model& m) {
  Eigen::VectorXd q = m.home();
  for (int k = 0; k < m.nq; ++k) q[k] = std::clamp(q[k], m.lowerLimit[k], m.upperLimit[k]);
  return q;
}

}  // namespace

class TestIkDragStart : public QObject {
  Q_OBJECT
 private slots:
  void dragReachesTheTarget_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("positionOnly");
    for (const char* f : {"panda.urdf", "ur5.urdf", "stanford_arm.dh", "puma560.dh", "lbr_iiwa7.dh"})
      for (const bool p : {true, false})
        QTest::newRow(qPrintable(QString("%1 %2").arg(f, p ? "position" : "pose"))) << QString(f) << p;
  }
  void dragReachesTheTarget() {
    QFETCH(QString, file);
    QFETCH(bool, positionOnly);
    const dyn::Model m = dyn::loadModel(robotPath(qPrintable(file)));
    const int frame = m.frameIndex(m.defaultEndEffector);
    QVERIFY(frame >= 0);
    const Eigen::VectorXd start = openingPose(m);
    const dyn::Transform<double> from = poseAt(m, start, frame);
    dyn::IkSolver solver(m);  // the drag's settings: no restarts
    std::mt19937 rng(4);
    std::uniform_real_distribution<double> U(-0.6, 0.6);
    int failures = 0;
    QStringList report;
    for (int c = 0; c < 12; ++c) {
      Eigen::VectorXd goal = start;  // a configuration near the start, within the limits
      for (int k = 0; k < m.nq; ++k) goal[k] = std::clamp(start[k] + U(rng), m.lowerLimit[k], m.upperLimit[k]);
      const dyn::Transform<double> to = poseAt(m, goal, frame);
      const Eigen::Quaterniond r0(from.rotation()), r1(to.rotation());
      Eigen::VectorXd q = start;
      for (int s = 1; s <= 40; ++s) {
        const double t = s / 40.0;
        const Eigen::Vector3d p = (1 - t) * from.translation() + t * to.translation();
        solver.setTarget(dyn::IkTask{frame, dyn::Transform<double>::fromPose(r0.slerp(t, r1).toRotationMatrix(), p),
                                     1.0, positionOnly});
        q = solver.solve(q).q;
      }
      const dyn::IkResult& r = solver.solve(q);
      const bool reached = r.positionError < 1e-6 && (positionOnly || r.rotationError < 1e-6);
      if (!reached) {
        ++failures;
        report << QString("case %1: %2 m, %3 rad; at limits: %4 reachable %5 it %6")
                      .arg(c)
                      .arg(r.positionError, 0, 'g', 3)
                      .arg(r.rotationError, 0, 'g', 3)
                      .arg(int(r.limitedDofs.size()))
                      .arg(r.reachable)
                      .arg(r.iterations);
      }
    }
    // Positions: every drag. Full poses: a straight line with a slerp may pass poses the limits
    // forbid, and the drag can end on another branch of the arm (the target is reachable, far
    // away in joint space: a global solve with restarts finds it, a drag does not jump there); one
    // case in twelve at most. The Panda, the arm of the report, every time.
    const int allowed = positionOnly || file == "panda.urdf" ? 0 : 1;
    QVERIFY2(failures <= allowed, qPrintable(report.join("\n")));
  }

  // The moves of the report: from the Panda's default pose (joint 4 on its limit, the arm upright),
  // the link's position dragged down and sideways, 15 cm in 1 cm steps. (With the orientation held,
  // tests/gui/test_ik_drag.cpp drags it down in the window, whose moves are bounded.)
  void pandaDownAndSideways_data() {
    QTest::addColumn<Eigen::Vector3d>("direction");
    QTest::newRow("down") << Eigen::Vector3d(-Eigen::Vector3d::UnitZ());
    QTest::newRow("+x") << Eigen::Vector3d(Eigen::Vector3d::UnitX());
    QTest::newRow("-x") << Eigen::Vector3d(-Eigen::Vector3d::UnitX());
    QTest::newRow("+y") << Eigen::Vector3d(Eigen::Vector3d::UnitY());
    QTest::newRow("-y") << Eigen::Vector3d(-Eigen::Vector3d::UnitY());
  }
  void pandaDownAndSideways() {
    QFETCH(Eigen::Vector3d, direction);
    const bool positionOnly = true;
    const dyn::Model m = dyn::loadModel(robotPath("panda.urdf"));
    const int frame = m.frameIndex(m.defaultEndEffector);
    Eigen::VectorXd q = openingPose(m);
    QVERIFY(q[3] >= m.upperLimit[3] - 1e-12);  // joint 4 on its limit, as the window opens it
    const dyn::Transform<double> from = poseAt(m, q, frame);
    dyn::IkSolver solver(m);
    for (int s = 1; s <= 15; ++s) {
      const Eigen::Vector3d p = from.translation() + 0.01 * s * direction;
      solver.setTarget(dyn::IkTask{frame, dyn::Transform<double>::fromPose(from.rotation(), p), 1.0, positionOnly});
      const dyn::IkResult& r = solver.solve(q);
      QVERIFY2(r.converged, qPrintable(QString("step %1: %2 m, %3 rad from the target")
                                           .arg(s)
                                           .arg(r.positionError, 0, 'g', 3)
                                           .arg(r.rotationError, 0, 'g', 3)));
      q = r.q;
    }
  }
};

QTEST_APPLESS_MAIN(TestIkDragStart)
#include "test_ik_drag_start.moc"
