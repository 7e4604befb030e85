// A steady external wrench set in the window (issue 25, "External forces"): the Trajectory dock's
// External wrench box gives the trajectory document a force and a moment on the UR5's tool0. Along
// the trajectory τ is the joints' share, ID − Jᵀf, with J from the engine's frame Jacobian (an
// independent path to J^T f) and −Jᵀf the decomposition's fourth term; at the current time τ is
// the same and the live forward dynamics takes the wrench back (q̈ again); the 3D view draws the
// force and the moment where they act; the unsaved-work prompt names the wrench and a project keeps
// it; a run with gravity compensated moves the tool along the force and keeps it in its record;
// switching it off restores τ.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTemporaryDir>
#include <cmath>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "project/project_file.hpp"
#include "scene/force_arrow_layer.hpp"
#include "scene/robot_scene.hpp"
#include "session/workbench_session.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "trajectory/trajectory_document.hpp"
#include "trajectory/wrench_box.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

const Vector3d kForce(0, 0, -20), kMoment(1.5, 0, 0);  // N, N m: world axes, at tool0's origin

// J^T f from the frame Jacobian with the world's axes at the frame origin (rows: angular, linear).
VectorXd jacobianTransposeWrench(const dyn::Model& model, const VectorXd& q, int frame) {
  dyn::Data data(model);
  const dyn::Mat6X<double>& J = dyn::frameJacobian(model, data, q, frame, dyn::ReferenceFrame::LocalWorldAligned);
  return J.topRows<3>().transpose() * kMoment + J.bottomRows<3>().transpose() * kForce;
}

}  // namespace

class TestSteadyWrench : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;

  RobotDocument* doc() const { return m_window->document(); }
  TrajectoryDocument* traj() const { return m_window->trajectory(); }

 private slots:
  void init() {
    m_window = dyn::testing::strictWindow();
    m_window->resize(1920, 1080);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->setWorkspace("trajectory");
    QVERIFY(dyn::testing::openAndWait(*m_window, QString(DYNSCOPE_ROBOTS_DIR) + "/ur5.urdf"));
  }
  void cleanup() { m_window.reset(); }

  void wrenchFromTheDock() {
    const dyn::Model& model = doc()->model();
    const int tool = model.frameIndex("tool0");
    QVERIFY(tool >= 0);
    VectorXd qa(6), qb(6);
    qa << 0, -1, 1, 0, 0.5, 0;
    qb << 0.5, -1.3, 1.2, 0.2, 0.3, 0.1;
    traj()->setWaypoints({{0.0, qa}, {2.0, qb}});
    traj()->recomputeNow();
    QVERIFY(traj()->hasTrajectory());
    const MatrixXd tau0 = traj()->dynamics().tau;

    // The box, as a user fills it in: the link, the numbers, then on.
    auto* box = m_window->findChild<WrenchBox*>("wrenchBox");
    QVERIFY(box);
    box->linkBox()->setCurrentIndex(box->linkBox()->findText("tool0"));
    for (int k = 0; k < 3; ++k) {
      box->forceBox(k)->setValue(kForce[k]);
      box->momentBox(k)->setValue(kMoment[k]);
    }
    QVERIFY(!traj()->wrench());  // off until ticked
    box->onBox()->setChecked(true);
    QVERIFY(traj()->wrench());
    QCOMPARE(traj()->wrench()->link, std::string("tool0"));
    QVERIFY(traj()->wrench()->force == kForce && traj()->wrench()->moment == kMoment);
    traj()->recomputeNow();

    // Along the trajectory: τ = ID − Jᵀf; the fourth term −Jᵀf; the four terms add up to τ.
    traj()->ensureDetails();
    const dyn::SampledTrajectory& s = traj()->samples();
    const dyn::TrajectoryDynamics& d = traj()->dynamics();
    QCOMPARE(d.tau.cols(), tau0.cols());
    QVERIFY(traj()->hasExternalForces());
    double largest = 0;
    for (int k = 0; k < s.samples(); ++k) {
      const VectorXd tauE = jacobianTransposeWrench(model, s.q.col(k), tool);
      const double scale = 1 + tau0.col(k).cwiseAbs().maxCoeff() + tauE.cwiseAbs().maxCoeff();
      QVERIFY2((d.tau.col(k) - (tau0.col(k) - tauE)).cwiseAbs().maxCoeff() < 1e-10 * scale,
               qPrintable(QString::number(k)));
      QVERIFY((d.external.col(k) + tauE).cwiseAbs().maxCoeff() < 1e-10 * scale);
      const VectorXd sum = d.inertial.col(k) + d.coriolis.col(k) + d.gravity.col(k) + d.external.col(k);
      QVERIFY((sum - d.tau.col(k)).cwiseAbs().maxCoeff() < 1e-10 * scale);
      largest = std::max(largest, tauE.cwiseAbs().maxCoeff());
    }
    QVERIFY2(largest > 1.0, "the wrench moves the joints' share");

    // At the current time: the joints' share, and FD(q, q̇, τ + Jᵀf) gives q̈ back.
    traj()->setTime(1.0);
    dyn::Data data(model);
    const VectorXd id = dyn::rnea(model, data, doc()->q(), traj()->qdAtTime(), traj()->qddAtTime());
    const VectorXd tauE = jacobianTransposeWrench(model, doc()->q(), tool);
    QVERIFY((traj()->tauAtTime() - (id - tauE)).cwiseAbs().maxCoeff() < 1e-10 * (1 + id.cwiseAbs().maxCoeff()));
    QVERIFY((traj()->wrenchTauAtTime() - tauE).cwiseAbs().maxCoeff() < 1e-10 * (1 + tauE.cwiseAbs().maxCoeff()));
    QVERIFY(traj()->forwardRefusal().isEmpty());
    QVERIFY((traj()->forwardQddAtTime() - traj()->qddAtTime()).cwiseAbs().maxCoeff() < 1e-8);

    // The 3D view: the force and the moment at tool0's origin, at the pose shown.
    dyn::forwardKinematics(model, data, doc()->q());
    const Vector3d at =
        data.X0[model.frames[tool].body].pointToA(model.frames[tool].placement.pointToA(Vector3d::Zero()));
    const std::vector<ForceArrow>& arrows = m_window->scene()->forceArrows().arrows();
    QCOMPARE(int(arrows.size()), 2);
    QVERIFY((arrows[0].point - at).norm() < 1e-9 && arrows[0].vector == kForce &&
            arrows[0].kind == ForceArrow::Kind::Force);
    QVERIFY((arrows[1].point - at).norm() < 1e-9 && arrows[1].vector == kMoment &&
            arrows[1].kind == ForceArrow::Kind::Torque);

    if (const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR"); !dir.isEmpty())
      for (const QSize size : {QSize(1920, 1080), QSize(1366, 768)}) {
        m_window->resize(size);
        QTest::qWait(400);
        m_window->grab().save(QString("%1/steady-wrench-%2.png").arg(dir).arg(size.width()));
      }

    // Unsaved work names it; a project keeps it.
    QVERIFY2(m_window->session()->unsavedParts().join(" ").contains("external wrench"),
             qPrintable(m_window->session()->unsavedParts().join("; ")));
    const QString path = m_tmp.filePath("wrench.dynscope");
    dyn::writeProjectFile(path, m_window->session()->currentProject());
    const dyn::ProjectFile back = dyn::readProjectFile(path);
    QVERIFY(back.wrench && *back.wrench == *traj()->wrench());

    // Switched off: τ as before, no arrows.
    box->onBox()->setChecked(false);
    traj()->recomputeNow();
    QVERIFY(!traj()->wrench());
    QVERIFY((traj()->dynamics().tau - tau0).cwiseAbs().maxCoeff() < 1e-12 * (1 + tau0.cwiseAbs().maxCoeff()));
    QVERIFY(m_window->scene()->forceArrows().arrows().empty());
  }

  // A run with gravity compensated: the wrench alone moves the robot, the tool along the force
  // (its first motion is q̈ = H⁻¹ Jᵀf, whose tool velocity J q̇ has a positive power F·v).
  void simulationTakesIt() {
    const dyn::Model& model = doc()->model();
    const int tool = model.frameIndex("tool0");
    VectorXd q(6);
    q << 0, -1, 1, 0, 0.5, 0;
    doc()->setQ(q);
    QVERIFY(traj()->setWrench(dyn::LinkWrench{"tool0", Vector3d::Zero(), kForce, Vector3d::Zero()}));
    traj()->recomputeNow();
    m_window->setWorkspace("simulate");
    SimulationDock* dock = m_window->simulationDock();
    dock->sourceBox()->setCurrentIndex(dock->sourceBox()->findData(int(SimulationDock::Source::Gravity)));
    dock->stepOnce();  // configures the run from the pose shown
    QVERIFY(dock->runner()->advance(0.05));
    const SimulationRunner::Snapshot s = dock->runner()->snapshot();
    dyn::Data data(model);
    const dyn::Mat6X<double>& J = dyn::frameJacobian(model, data, s.q, tool, dyn::ReferenceFrame::LocalWorldAligned);
    const Vector3d v = J.bottomRows<3>() * s.qd;
    QVERIFY2(kForce.dot(v) > 0 && v.z() < -1e-3,
             qPrintable(QString("tool velocity %1 %2 %3").arg(v.x()).arg(v.y()).arg(v.z())));
    // Paused, the run becomes the trajectory with the forces it had (the wrench's Jᵀf in its record);
    // changing the wrench afterwards does not rewrite the run.
    dock->pause();
    QTest::qWait(50);
    QCOMPARE(traj()->source(), TrajectoryDocument::Source::Simulation);
    const MatrixXd recorded = dock->runner()->record().externalTorques();
    QVERIFY(recorded.size() > 0 && traj()->externalTorques() == recorded);
    QVERIFY(traj()->setWrench(dyn::LinkWrench{"tool0", Vector3d::Zero(), 2 * kForce, Vector3d::Zero()}));
    traj()->recomputeNow();
    QVERIFY(traj()->externalTorques() == recorded);
    // Without it (the same start), the compensated robot stays put.
    QVERIFY(traj()->setWrench(std::nullopt));
    traj()->recomputeNow();
    dock->reset();
    doc()->setQ(q);
    dock->stepOnce();
    QVERIFY(dock->runner()->advance(0.05));
    QVERIFY(dock->runner()->snapshot().qd.cwiseAbs().maxCoeff() < 1e-6);
  }

  // A link the robot does not have is refused with its name.
  void refusesAnUnknownLink() {
    QString error;
    QVERIFY(!traj()->setWrench(dyn::LinkWrench{"no_such_link", Vector3d::Zero(), kForce, Vector3d::Zero()}, &error));
    QVERIFY2(error.contains("no_such_link"), qPrintable(error));
    QVERIFY(!traj()->wrench());
  }
};

QTEST_MAIN(TestSteadyWrench)
#include "test_steady_wrench.moc"
