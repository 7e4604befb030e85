// Mimic joints in the window (issue 23, docs/mimic.md): the Panda with its two-finger hand
// (robots/panda_gripper.urdf, panda_finger_joint2 mimics panda_finger_joint1) and a four-finger hand
// with chains of mimics (tests/data/mimic). A follower's row is read-only and says whom it follows;
// moving the master's slider moves it; IK dragging, trajectories and the simulation keep every
// relation to 1e-12; trajectory torques are the generalized forces on the independent coordinates
// (Gᵀτ, checked against RNEA on every joint and a dense G); the mass-matrix dock shows H_y = GᵀHG.
// Screenshots go to $DYNSCOPE_SCREENSHOT_DIR when set (to look at), else to a temporary directory.
#include <QtTest>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSlider>
#include <QTemporaryDir>
#include <QUndoStack>
#include <cmath>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "gizmo_drag.hpp"
#include "ik/ik_drag_controller.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "scene/robot_scene.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace {

QString handFile() { return QStringLiteral(DYNSCOPE_TEST_DATA_DIR) + "/mimic/four_finger_hand.urdf"; }

// The largest violation of the model's relations at q, from the file's own <mimic> values.
double relationError(const dyn::Model& m, const Eigen::VectorXd& q) {
  double worst = 0;
  for (const dyn::MimicInfo& mi : m.mimics) {
    const double qf = q[m.joints[size_t(mi.joint)].idx_q], qm = q[m.joints[size_t(mi.mimicked)].idx_q];
    worst = std::max(worst, std::abs(qf - (mi.multiplier * qm + mi.offset)));
  }
  return worst;
}

}  // namespace

class TestMimicWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QString m_shots;

  RobotDocument* doc() const { return m_window->document(); }
  JointsDock* joints() const { return m_window->jointsDock(); }
  bool open(const QString& path) { return dyn::testing::openAndWait(*m_window, path); }
  int qIndex(const char* joint) const {
    const int j = doc()->model().jointIndex(joint);
    return j > 0 ? doc()->model().joints[j].idx_q : -1;
  }
  static void dragTo(JointRow* row, double si) {  // the slider, as a user drags it
    const JointCoordinate& c = row->coordinate();
    row->slider()->setValue(int(std::lround((si - c.lower) / (c.upper - c.lower) * row->slider()->maximum())));
  }
  void shotWindow(const QString& name) {
    dyn::testing::settle(100);
    m_window->grab().save(QDir(m_shots).filePath(name));
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_shots = dyn::testing::screenshotDirectory(m_tmp);
    m_window = dyn::testing::strictWindow();
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }
  void cleanupTestCase() { m_window.reset(); }

  // The follower's row is read-only, marked and names its master; the master's slider moves both.
  void slidersMoveTheFollowers() {
    QVERIFY(open(dyn::testing::robotFile("panda_gripper.urdf")));
    QVERIFY(doc()->mimic());
    JointRow* master = joints()->row("panda_finger_joint1");
    JointRow* follower = joints()->row("panda_finger_joint2");
    QVERIFY(master && follower);
    QVERIFY(master->slider()->isEnabled());
    QVERIFY(!follower->slider()->isEnabled() && !follower->spinBox()->isEnabled());
    QVERIFY(!follower->roleLabel()->isHidden());
    QVERIFY(follower->roleLabel()->text().contains("mim"));
    QVERIFY(follower->roleLabel()->toolTip().contains("panda_finger_joint1"));
    QVERIFY(!joints()->loopStatusLabel()->isHidden());
    QVERIFY(joints()->loopStatusLabel()->text().contains("Mimic"));
    const Eigen::VectorXd before = doc()->q();
    QVERIFY(!doc()->setJointValue(qIndex("panda_finger_joint2"), 0.02));  // not even through the document
    QCOMPARE(doc()->q(), before);
    for (double open : {0.01, 0.035, 0.0}) {
      dragTo(master, open);
      const Eigen::VectorXd& q = doc()->q();
      QVERIFY(std::abs(q[qIndex("panda_finger_joint1")] - open) < 1e-3);
      QCOMPARE(q[qIndex("panda_finger_joint2")], q[qIndex("panda_finger_joint1")]);
      QCOMPARE(follower->value(), q[qIndex("panda_finger_joint2")]);
    }
    dragTo(master, 0.03);
    shotWindow("panda_gripper_open.png");
    // Any q set from outside (a random pose, a pasted q) lands on the relations.
    Eigen::VectorXd q = doc()->q();
    q[qIndex("panda_finger_joint2")] = 0.001;
    QVERIFY(doc()->setQ(q));
    QCOMPARE(doc()->q()[qIndex("panda_finger_joint2")], doc()->q()[qIndex("panda_finger_joint1")]);
    QVERIFY(open(handFile()));
    for (int k = 0; k < 5; ++k) {
      doc()->randomize();
      QVERIFY2(relationError(doc()->model(), doc()->q()) < 1e-12,
               qPrintable(QString::number(relationError(doc()->model(), doc()->q()))));
    }
  }

  // Dragging a finger with the IK handle moves the arm and the master finger; the follower keeps
  // the relation, and Undo brings the pose back.
  void ikDragKeepsTheRelation() {
    QVERIFY(open(dyn::testing::robotFile("panda_gripper.urdf")));
    const dyn::Model& m = doc()->model();
    dragTo(joints()->row("panda_finger_joint1"), 0.02);
    IkDragController* ik = m_window->ikController();
    doc()->setSelectedBody(m.bodyIndex("panda_leftfinger"));
    const int finger = m.frameIndex("panda_leftfinger");
    QCOMPARE(ik->draggedFrame(), finger);
    ik->positionOnlyAction()->setChecked(true);
    ik->dragModeAction()->setChecked(true);
    m_window->scene()->setViewPreset(RobotScene::Iso);
    dyn::testing::settle(60);
    dyn::testing::settleGizmo(*m_window, ik);
    QVERIFY(ik->isActive());
    const Eigen::VectorXd q0 = doc()->q();
    const Eigen::Vector3d p0 = doc()->data().oMf[size_t(finger)].translation();
    QCOMPARE(dyn::testing::dragGizmoArrow(*m_window, ik, p0, Eigen::Vector3d::UnitZ(), 50), IkGizmo::ArrowZ);
    const Eigen::VectorXd q1 = doc()->q();
    const Eigen::Vector3d p1 = doc()->data().oMf[size_t(finger)].translation();
    QVERIFY2(p0.z() - p1.z() > 0.003, qPrintable(QString("the finger moved %1 m down").arg(p0.z() - p1.z())));
    QVERIFY2(relationError(m, q1) < 1e-12, qPrintable(QString::number(relationError(m, q1))));
    QVERIFY((q1 - q0).norm() > 1e-3);
    shotWindow("panda_gripper_ik_drag.png");
    m_window->undoStack()->undo();
    QVERIFY((doc()->q() - q0).norm() < 1e-12);
    ik->dragModeAction()->setChecked(false);
    doc()->setSelectedBody(-1);
  }

  // A trajectory whose waypoints disagree with the relations is put on them; its τ is Gᵀτ of the
  // RNEA on all joints in the masters' rows and 0 in the followers'; the power is the energy's rate.
  void trajectoryTorquesOnTheIndependentCoordinates() {
    QVERIFY(open(handFile()));
    const dyn::Model& m = doc()->model();
    TrajectoryDocument* traj = m_window->trajectory();
    Eigen::VectorXd q1 = doc()->q(), q2 = q1;
    for (int i = 1; i <= m.N; ++i) q2[m.joints[size_t(i)].idx_q] += 0.6;  // followers too: off the relations
    traj->setWaypoints({{0.0, q1}, {1.0, q2}});
    traj->recomputeNow();
    QVERIFY2(traj->hasTrajectory(), qPrintable(traj->problem()));
    traj->ensureDetails();
    const dyn::SampledTrajectory& s = traj->samples();
    const dyn::TrajectoryDynamics& d = traj->dynamics();
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    const Eigen::MatrixXd G = c.denseG();
    dyn::Data data(m);
    double worstTau = 0, worstRelation = 0;
    for (int k = 0; k < s.samples(); k += 7) {
      worstRelation = std::max(worstRelation, relationError(m, s.q.col(k)));
      const Eigen::VectorXd tauY = G.transpose() * dyn::rnea(m, data, s.q.col(k), s.qd.col(k), s.qdd.col(k));
      for (int v = 0; v < m.nv; ++v) {
        const bool follower = c.isFollower(m.dofBody[size_t(v)]);
        const double expected = follower ? 0.0 : tauY[c.column[size_t(v)]];
        worstTau = std::max(worstTau, std::abs(d.tau(v, k) - expected));
      }
      const Eigen::VectorXd sum = d.inertial.col(k) + d.coriolis.col(k) + d.gravity.col(k);
      QVERIFY((sum - d.tau.col(k)).cwiseAbs().maxCoeff() < 1e-10);
    }
    QVERIFY2(worstRelation < 1e-12, qPrintable(QString::number(worstRelation)));
    QVERIFY2(worstTau < 1e-10, qPrintable(QString::number(worstTau)));
    double worst = 0, scale = 0;
    for (int k = 1; k + 1 < s.samples(); ++k) {
      const double dEdt = (d.total[k + 1] - d.total[k - 1]) / (s.t[k + 1] - s.t[k - 1]);
      worst = std::max(worst, std::abs(d.power.col(k).sum() - dEdt));
      scale = std::max(scale, std::abs(dEdt));
    }
    QVERIFY2(scale > 1e-4 && worst < 2e-2 * scale, qPrintable(QString("|P - dE/dt| %1 of %2").arg(worst).arg(scale)));
    traj->setTime(0.4);  // the scrubbed state: on the relations, its forward dynamics the reduced one
    QVERIFY(relationError(m, doc()->q()) < 1e-12);
    QVERIFY(traj->forwardRefusal().isEmpty());
    QVERIFY((traj->forwardQddAtTime() - traj->qddAtTime()).cwiseAbs().maxCoeff() < 1e-8);
  }

  // The simulation dock runs the hand with its relations kept at every recorded sample.
  void simulationKeepsTheRelations() {
    QVERIFY(open(handFile()));
    SimulationDock* sim = m_window->simulationDock();
    sim->raise();
    sim->sourceBox()->setCurrentIndex(sim->sourceBox()->findData(int(SimulationDock::Source::Passive)));
    sim->integratorBox()->setCurrentIndex(sim->integratorBox()->findData(int(dyn::Integrator::Rk4)));
    sim->reset();
    for (int k = 0; k < 300; ++k) sim->stepOnce();
    const dyn::SimulationRecord r = sim->runner()->record();
    QVERIFY2(r.samples() > 10 && std::abs(r.t.back() - 0.3) < 1e-9, qPrintable(QString::number(r.samples())));
    const dyn::Model& m = doc()->model();
    double worst = 0, moved = 0;
    for (int k = 0; k < r.samples(); ++k) {
      const Eigen::Map<const Eigen::VectorXd> q(r.q.data() + size_t(k) * m.nq, m.nq);
      worst = std::max(worst, relationError(m, q));
      moved = std::max(moved, (q - Eigen::Map<const Eigen::VectorXd>(r.q.data(), m.nq)).cwiseAbs().maxCoeff());
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
    QVERIFY(moved > 1e-2);
    QVERIFY(relationError(m, doc()->q()) < 1e-12);  // the view shows the simulated, coupled pose
  }

  // H_y = GᵀHG on the independent coordinates, in the dock's cells.
  void massMatrixDockShowsTheReducedMatrix() {
    QVERIFY(open(dyn::testing::robotFile("panda_gripper.urdf")));
    MassMatrixDock* mass = m_window->massMatrixDock();
    mass->show();
    mass->raise();
    dyn::testing::settle(60);
    mass->recomputeNow();
    const MassMatrixAnalysis& a = mass->analysis();
    const dyn::Model& m = doc()->model();
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    QVERIFY(a.reduced);
    QCOMPARE(a.nv, c.ny);
    QCOMPARE(a.nv, m.nv - 1);
    dyn::Data data(m);
    const Eigen::MatrixXd Hy = c.denseG().transpose() * dyn::crba(m, data, doc()->q()) * c.denseG();
    for (int r = 0; r < a.nv; ++r)
      for (int col = 0; col < a.nv; ++col)
        QVERIFY(std::abs(a.values(r, col) - Hy(c.column[size_t(a.dof(r))], c.column[size_t(a.dof(col))])) < 1e-12);
    for (const std::string& name : a.dofNames) QVERIFY(name != "panda_finger_joint2");
    shotWindow("panda_gripper_mass_matrix.png");
  }
};

QTEST_MAIN(TestMimicWindow)
#include "test_mimic_window.moc"
