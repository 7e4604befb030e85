// Closed kinematic loops in the window (issue 16, docs/loops.md): the four-bar opens assembled, its
// loop-closure joint is drawn (read back from the scene), the Joints dock marks independent and
// dependent coordinates, moving the crank re-assembles the loop live to the closed-form position
// solution of the four-bar, dependent coordinates cannot be set, a value where the loop cannot
// close keeps the last pose and says why, the simulation dock runs the mechanism by each of the
// three methods of the review's §3.4, and the delta robot's three loops are drawn and follow its
// motors. Screenshots go to $DYNSCOPE_SCREENSHOT_DIR when set (to look at), else to a temporary
// directory; a pixel count checks that the loop markers are on screen.
//
// References: the four-bar's position solution in closed form (Freudenstein's equation, solved for
// the coupler and rocker angles; Norton, Design of Machinery, sec. 4.5), with the link lengths and
// the zero-pose offsets the file states; the engine's loop constraints phi(q) evaluated afresh; the
// engine's Simulator run in-process with the dock's settings.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QImage>
#include <QLabel>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>

#include <vtkActor.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkPolyData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include "document/robot_document.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/loops/loop_constraints.hpp"
#include "dynscope/simulation/simulator.hpp"
#include "gizmo_drag.hpp"
#include "ik/ik_drag_controller.hpp"
#include "massmatrix/global_matrices_view.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "plots/time_series_plot.hpp"
#include "scene/robot_scene.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180;

// robots/fourbar.urdf as its header states it: ground d, crank a, coupler b, rocker c (m); the
// joints' zero-pose angles (the rpy pitch of their origins, negated: the axes are -y).
constexpr double kA = 0.10, kB = 0.35, kC = 0.30, kD = 0.40;
constexpr double kCrank0 = 1.0471975511965976, kCouplerRel0 = -0.41848242355105714, kRocker0 = 1.7957749733962085;

double wrap(double a) { return std::remainder(a, 2 * kPi); }

// The four-bar's position solution: for crank angle th2 (from the ground line), the coupler and
// rocker angles th3, th4 of the branch nearest (th3Near, th4Near). Freudenstein's equation
// K1 cos th4 - K2 cos th2 + K3 = cos(th2 - th4) as A t^2 + B t + C = 0 in t = tan(th4 / 2), and
// the same for th3 (Norton eqs. 4.10-4.13).
bool fourBarAngles(double th2, double th3Near, double th4Near, double& th3, double& th4) {
  const double K1 = kD / kA, K2 = kD / kC, K3 = (kA * kA - kB * kB + kC * kC + kD * kD) / (2 * kA * kC);
  const double K4 = kD / kB, K5 = (kC * kC - kD * kD - kA * kA - kB * kB) / (2 * kA * kB);
  const double A = std::cos(th2) - K1 - K2 * std::cos(th2) + K3, B = -2 * std::sin(th2),
               C = K1 - (K2 + 1) * std::cos(th2) + K3;
  const double D = std::cos(th2) - K1 + K4 * std::cos(th2) + K5, E = -2 * std::sin(th2),
               F = K1 + (K4 - 1) * std::cos(th2) + K5;
  const double disc4 = B * B - 4 * A * C, disc3 = E * E - 4 * D * F;
  if (disc4 < 0 || disc3 < 0) return false;
  double best = INFINITY;
  for (int s4 : {-1, 1})
    for (int s3 : {-1, 1}) {
      const double t4 = 2 * std::atan2(-B + s4 * std::sqrt(disc4), 2 * A);
      const double t3 = 2 * std::atan2(-E + s3 * std::sqrt(disc3), 2 * D);
      // Only pairs that close the loop: a e^(i th2) + b e^(i th3) = d + c e^(i th4).
      const double ex = kA * std::cos(th2) + kB * std::cos(t3) - kD - kC * std::cos(t4);
      const double ey = kA * std::sin(th2) + kB * std::sin(t3) - kC * std::sin(t4);
      if (std::hypot(ex, ey) > 1e-9) continue;
      const double dist = std::abs(wrap(t3 - th3Near)) + std::abs(wrap(t4 - th4Near));
      if (dist < best) {
        best = dist;
        th3 = t3;
        th4 = t4;
      }
    }
  return std::isfinite(best);
}

// Pixels of the loop markers' magenta (lit or not) in an image of the 3D view.
int magentaPixels(const QImage& image) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (c.red() > 120 && c.blue() > 100 && c.green() < 0.45 * c.red() && c.green() < 0.45 * c.blue()) ++n;
    }
  return n;
}

// The line of a shipped file on which `<joint name="NAME"` stands (read from the file itself).
int jointLine(const char* file, const QString& name) {
  QFile f(dyn::testing::robotFile(file));
  if (!f.open(QIODevice::ReadOnly)) return -1;
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
  for (int k = 0; k < lines.size(); ++k)
    if (lines[k].contains("<joint name=\"" + name + "\"")) return k + 1;
  return -1;
}

}  // namespace

class TestLoopsWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QString m_shots;

  RobotDocument* doc() const { return m_window->document(); }
  JointsDock* joints() const { return m_window->jointsDock(); }
  SimulationDock* sim() const { return m_window->simulationDock(); }
  bool open(const char* robot) { return dyn::testing::openAndWait(*m_window, dyn::testing::robotFile(robot)); }
  int qIndex(const char* joint) const {
    const int j = doc()->model().jointIndex(joint);
    return j > 0 ? doc()->model().joints[j].idx_q : -1;
  }
  // max |phi(q)| evaluated afresh by the engine (not the document's own number).
  double phiAt(const Eigen::VectorXd& q) const {
    const dyn::Model& m = doc()->model();
    dyn::Data data(m);
    dyn::LoopData ld(m);
    dyn::loopConstraints(m, data, ld, q);
    return dyn::maxAbs(ld.phi);
  }
  // Moves a row's slider as a user drags it (valueChanged from the slider).
  static void dragTo(JointRow* row, double si) {
    const JointCoordinate& c = row->coordinate();
    const double t = (si - c.lower) / (c.upper - c.lower);
    row->slider()->setValue(int(std::lround(t * row->slider()->maximum())));
  }
  static double sliderValue(JointRow* row) {  // what the slider's position stands for (SI)
    const JointCoordinate& c = row->coordinate();
    return c.lower + (c.upper - c.lower) * row->slider()->value() / double(row->slider()->maximum());
  }
  QPointF project(const Eigen::Vector3d& p) const { return dyn::testing::viewportPoint(*m_window, p); }
  QImage shot(const QString& name) {
    dyn::testing::settle(60);
    const QImage image = m_window->viewport()->grabImage();
    image.save(QDir(m_shots).filePath(name));
    return image;
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_shots = dyn::testing::screenshotDirectory(m_tmp);
    m_window = dyn::testing::strictWindow();
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }
  void cleanupTestCase() { m_window.reset(); }

  // The four-bar opens in its assembled reference pose, its loop joint drawn at the coinciding
  // frames, which are where the closed-form solution puts the coupler-rocker pin.
  void fourBarOpensAssembledWithItsLoopDrawn() {
    QVERIFY(open("fourbar.urdf"));
    const dyn::Model& m = doc()->model();
    QVERIFY(m.hasLoops());
    QVERIFY((doc()->q() - m.home()).norm() < 1e-15);
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    QCOMPARE(m_window->scene()->loopJointCount(), 1);
    for (vtkActor* a : m_window->scene()->loopActors()) QVERIFY(a->GetVisibility());
    // Pin B: x-z plane, B = a e^(i th2) + b e^(i th3) from the crank pivot at the origin.
    double th3 = 0, th4 = 0;
    QVERIFY(fourBarAngles(kCrank0, kCrank0 + kCouplerRel0, kRocker0, th3, th4));
    QVERIFY(std::abs(wrap(th3 - (kCrank0 + kCouplerRel0))) < 1e-9);  // the file's zero pose is the solution
    QVERIFY(std::abs(wrap(th4 - kRocker0)) < 1e-9);
    const std::array<double, 6> ends = m_window->scene()->loopJointEnds(0);
    const double bx = kA * std::cos(kCrank0) + kB * std::cos(th3), bz = kA * std::sin(kCrank0) + kB * std::sin(th3);
    for (int e = 0; e < 2; ++e) {
      QVERIFY2(std::abs(ends[3 * e] - bx) < 1e-9 && std::abs(ends[3 * e + 2] - bz) < 1e-9,
               qPrintable(QString("frame %1 drawn at (%2, %3), pin at (%4, %5)")
                              .arg(e + 1)
                              .arg(ends[3 * e])
                              .arg(ends[3 * e + 2])
                              .arg(bx)
                              .arg(bz)));
    }
    // The dashed lines start at the two bodies' origins, the crank pin A and the rocker's pivot
    // (d, 0): the first dash of the first segment and of the second (9 dashes of 2 points each).
    vtkPolyData* lines = m_window->scene()->loopLines();
    QVERIFY(lines && lines->GetNumberOfLines() > 0);
    double p0[3], p1[3];
    lines->GetPoint(0, p0);
    lines->GetPoint(18, p1);
    const auto at = [](const double* p, double x, double z) {
      return std::abs(p[0] - x) < 1e-9 && std::abs(p[2] - z) < 1e-9;
    };
    const double ax = kA * std::cos(kCrank0), az = kA * std::sin(kCrank0);
    QVERIFY2((at(p0, ax, az) && at(p1, kD, 0)) || (at(p1, ax, az) && at(p0, kD, 0)),
             qPrintable(QString("dashes start at (%1, %2) and (%3, %4)").arg(p0[0]).arg(p0[2]).arg(p1[0]).arg(p1[2])));
    // On screen: magenta markers, gone when the loop joints are hidden.
    const QImage with = shot("fourbar_home.png");
    m_window->scene()->setShowLoopJoints(false);
    const QImage without = shot("fourbar_no_loops.png");
    m_window->scene()->setShowLoopJoints(true);
    QVERIFY2(magentaPixels(with) > 200 && magentaPixels(without) < magentaPixels(with) / 10,
             qPrintable(
                 QString("magenta pixels: %1 with, %2 without").arg(magentaPixels(with)).arg(magentaPixels(without))));
  }

  // The crank is independent; coupler and rocker are dependent, read-only, marked.
  void jointsDockMarksRoles() {
    JointRow* crank = joints()->row("crank_joint");
    JointRow* coupler = joints()->row("coupler_joint");
    JointRow* rocker = joints()->row("rocker_joint");
    QVERIFY(crank && coupler && rocker);
    QCOMPARE(crank->loopRole(), JointRow::LoopRole::Independent);
    QVERIFY(crank->slider()->isEnabled());
    for (JointRow* r : {coupler, rocker}) {
      QCOMPARE(r->loopRole(), JointRow::LoopRole::Dependent);
      QVERIFY(!r->slider()->isEnabled());
      QVERIFY(!r->spinBox()->isEnabled());
      QVERIFY(!r->roleLabel()->isHidden());
    }
    QVERIFY(!joints()->loopStatusLabel()->isHidden());
    // A dependent coordinate cannot be set, not even through the document.
    const Eigen::VectorXd before = doc()->q();
    QVERIFY(!doc()->setJointValue(qIndex("rocker_joint"), 0.3));
    QCOMPARE(doc()->q(), before);
  }

  // Dragging the crank once round: every pose closes (|phi| < 1e-9), the coupler and rocker are
  // at the closed-form angles of the branch the mechanism is on, their rows follow, and the drawn
  // loop frames stay together at pin B.
  void crankDragReassemblesLive() {
    JointRow* crank = joints()->row("crank_joint");
    JointRow* coupler = joints()->row("coupler_joint");
    JointRow* rocker = joints()->row("rocker_joint");
    const int iCrank = qIndex("crank_joint"), iCoupler = qIndex("coupler_joint"), iRocker = qIndex("rocker_joint");
    double th3 = kCrank0 + kCouplerRel0, th4 = kRocker0;
    for (int k = 1; k <= 36; ++k) {
      const double target = wrap(k * 10.0 * kDeg);
      dragTo(crank, target);
      const Eigen::VectorXd q = doc()->q();
      QCOMPARE(q[iCrank], sliderValue(crank));
      QVERIFY2(phiAt(q) < 1e-9, qPrintable(QString("|phi| = %1 at crank %2").arg(phiAt(q)).arg(q[iCrank])));
      QVERIFY(doc()->loopResidual() < 1e-9);
      const double th2 = kCrank0 + q[iCrank];
      QVERIFY(fourBarAngles(th2, th3, th4, th3, th4));
      QVERIFY2(std::abs(wrap(q[iCoupler] - (th3 - th2 - kCouplerRel0))) < 1e-8 &&
                   std::abs(wrap(q[iRocker] - (th4 - kRocker0))) < 1e-8,
               qPrintable(QString("crank %1 deg: coupler %2 rocker %3, closed form %4 %5")
                              .arg(q[iCrank] / kDeg)
                              .arg(q[iCoupler] / kDeg)
                              .arg(q[iRocker] / kDeg)
                              .arg(wrap(th3 - th2 - kCouplerRel0) / kDeg)
                              .arg(wrap(th4 - kRocker0) / kDeg)));
      QCOMPARE(coupler->value(), q[iCoupler]);  // the dependent rows follow
      QCOMPARE(rocker->value(), q[iRocker]);
      const std::array<double, 6> ends = m_window->scene()->loopJointEnds(0);
      const double bx = kA * std::cos(th2) + kB * std::cos(th3), bz = kA * std::sin(th2) + kB * std::sin(th3);
      QVERIFY(std::abs(ends[0] - bx) < 1e-8 && std::abs(ends[2] - bz) < 1e-8);
      QVERIFY(std::abs(ends[3] - bx) < 1e-8 && std::abs(ends[5] - bz) < 1e-8);
      if (k == 12) shot("fourbar_crank_120.png");
    }
    QVERIFY(doc()->loopMessage().isEmpty());
  }

  // Randomize and Zero keep the loop closed.
  void zeroAndRandomizeClose() {
    doc()->randomize();
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    doc()->setZero();
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    QVERIFY(std::abs(doc()->q()[qIndex("crank_joint")]) < 1e-15);
    doc()->goHome();
    QVERIFY((doc()->q() - doc()->model().home()).norm() < 1e-12);
    // What IK dragging and playback hand the document: a pose of the tree that does not close.
    // It is assembled with the independent coordinate (the crank) as given.
    Eigen::VectorXd torn = doc()->q();
    torn.array() += 0.3;
    QVERIFY(phiAt(torn) > 1e-3);
    QVERIFY(doc()->setQ(torn));
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    QCOMPARE(doc()->q()[qIndex("crank_joint")], torn[qIndex("crank_joint")]);
  }

  // With the rocker as the actuated (independent) joint, the rocker can swing only between its
  // Grashof limits (101.4 and 141.4 deg from the ground line): asked beyond, the mechanism keeps
  // its last assembled pose and the window says which loop stays open; nothing is torn apart.
  void valueThatCannotCloseKeepsLastPose() {
    QFile in(dyn::testing::robotFile("fourbar.urdf"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(in.readAll());
    const QString marker = "<dynscope:actuated/>";
    const qsizetype crankAt = text.indexOf("<joint name=\"crank_joint\""), mark = text.indexOf(marker, crankAt);
    QVERIFY(crankAt > 0 && mark > crankAt && mark < text.indexOf("</joint>", crankAt));
    text.remove(mark, marker.size());
    text.replace("<child link=\"rocker\"/>", "<child link=\"rocker\"/>" + marker);
    const QString path = m_tmp.filePath("fourbar_rocker_driven.urdf");
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();
    QVERIFY(dyn::testing::openAndWait(*m_window, path));
    JointRow* rocker = joints()->row("rocker_joint");
    JointRow* crank = joints()->row("crank_joint");
    QCOMPARE(rocker->loopRole(), JointRow::LoopRole::Independent);
    QCOMPARE(crank->loopRole(), JointRow::LoopRole::Dependent);
    dragTo(rocker, 20 * kDeg);  // 122.9 deg: closes
    const Eigen::VectorXd closed = doc()->q();
    QVERIFY(std::abs(closed[qIndex("rocker_joint")] - sliderValue(rocker)) < 1e-15);
    QVERIFY(phiAt(closed) < 1e-9);
    QSignalSpy refused(doc(), &RobotDocument::loopClosureFailed);
    dragTo(rocker, -40 * kDeg);  // 62.9 deg: below the rocker's lower limit of 101.4 deg
    QCOMPARE(refused.count(), 1);
    QCOMPARE(doc()->q(), closed);  // the last assembled pose, not a torn or NaN one
    QVERIFY(doc()->q().allFinite());
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    QCOMPARE(rocker->value(), closed[qIndex("rocker_joint")]);  // the row shows the pose kept
    const QString why = doc()->loopMessage();
    QVERIFY2(why.contains("cannot close") && why.contains("coupler_rocker_joint"), qPrintable(why));
    QVERIFY(m_window->statusBar()->currentMessage().contains("cannot close"));
    QVERIFY(joints()->loopStatusLabel()->text().contains("cannot close"));
    QVERIFY(m_window->logDock()->plainText().contains("cannot close"));
    shot("fourbar_refused.png");
    joints()->raise();
    dyn::testing::settle(60);
    joints()->grab().save(QDir(m_shots).filePath("fourbar_refused_joints_dock.png"));
    dragTo(rocker, 30 * kDeg);  // back in range: moves again
    QVERIFY(std::abs(doc()->q()[qIndex("rocker_joint")] - sliderValue(rocker)) < 1e-15);
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    QVERIFY(doc()->loopMessage().isEmpty());
  }

  // The simulation dock offers the loop methods and stabilization for a mechanism; each method
  // runs the passive four-bar (released at rest in the home pose) and matches the engine's
  // Simulator with the same settings; the methods agree, the loop stays closed, |phi| is plotted.
  void simulationRunsEachLoopMethod() {
    QVERIFY(open("fourbar.urdf"));
    sim()->raise();
    QVERIFY(sim()->loopGroup()->isVisibleTo(sim()));
    QCOMPARE(sim()->loopMethodBox()->count(), 3);
    QVERIFY(sim()->baumgarteBox()->isChecked());
    QVERIFY(sim()->projectionBox()->isChecked());
    sim()->sourceBox()->setCurrentIndex(sim()->sourceBox()->findData(int(SimulationDock::Source::Passive)));
    sim()->integratorBox()->setCurrentIndex(sim()->integratorBox()->findData(int(dyn::Integrator::Rk4)));
    std::vector<Eigen::VectorXd> finals;
    for (dyn::LoopMethod method :
         {dyn::LoopMethod::Augmented, dyn::LoopMethod::Multipliers, dyn::LoopMethod::NullSpace}) {
      doc()->goHome();
      sim()->loopMethodBox()->setCurrentIndex(sim()->loopMethodBox()->findData(int(method)));
      QCOMPARE(sim()->settings().loopMethod, method);
      sim()->reset();
      for (int k = 0; k < 300; ++k) sim()->stepOnce();
      const dyn::SimulationRecord gui = sim()->runner()->record();
      QVERIFY(std::abs(gui.t.back() - 0.3) < 1e-9);
      QVERIFY2(gui.maxConstraintError() < 1e-9, qPrintable(QString("|phi| %1").arg(gui.maxConstraintError())));
      const SimulationRunner::Snapshot s = sim()->runner()->snapshot();
      QVERIFY(std::abs(s.q[qIndex("crank_joint")] - doc()->model().home()[qIndex("crank_joint")]) > 1e-3);  // it moved
      QVERIFY(phiAt(doc()->q()) < 1e-9);  // and the view shows a closed mechanism
      dyn::Simulator ref(m_window->trajectory()->dynamicsModel(), sim()->settings(), dyn::PassiveController{});
      ref.reset(doc()->model().home(), Eigen::VectorXd::Zero(doc()->model().nv));
      ref.advance(gui.t.back());
      QCOMPARE(ref.record().samples(), gui.samples());
      for (size_t k = 0; k < gui.q.size(); ++k) QCOMPARE(gui.q[k], ref.record().q[k]);
      // No damping or friction in the file: the energy stays (RK4; stabilization changes it little).
      QVERIFY2(gui.maxRelativeEnergyDrift() < 1e-5, qPrintable(QString("drift %1").arg(gui.maxRelativeEnergyDrift())));
      QVERIFY(sim()->constraintPlot()->sampleCount() > 10);
      QVERIFY(sim()->statusLabel()->text().contains("|φ|"));
      finals.push_back(s.q);
    }
    for (const Eigen::VectorXd& q : finals) QVERIFY((q - finals[1]).cwiseAbs().maxCoeff() < 1e-6);
    sim()->plotTabs()->setCurrentWidget(sim()->constraintPlot());
    dyn::testing::settle(60);
    sim()->grab().save(QDir(m_shots).filePath("fourbar_simulation_dock.png"));
    sim()->constraintPlot()->grab().save(QDir(m_shots).filePath("fourbar_constraint_plot.png"));
    // Stabilization settings reach the simulator.
    sim()->baumgarteAlphaBox()->setValue(5);
    sim()->baumgarteBetaBox()->setValue(7);
    sim()->projectionBox()->setChecked(false);
    QCOMPARE(sim()->settings().baumgarteAlpha, 5.0);
    QCOMPARE(sim()->settings().baumgarteBeta, 7.0);
    QVERIFY(!sim()->settings().projection);
    sim()->projectionBox()->setChecked(true);
  }

  // A trajectory planned with waypoints over every joint is closed sample by sample (the crank's
  // motion kept) and its torques are the actuator torques: zero on the passive joints, and the
  // crank's power equal to the rate of the mechanism's energy (the constraints do no work).
  void trajectoryTorquesAreActuatorTorques() {
    QVERIFY(open("fourbar.urdf"));
    const dyn::Model& m = doc()->model();
    TrajectoryDocument* traj = m_window->trajectory();
    const int crank = qIndex("crank_joint");
    Eigen::VectorXd q1 = m.home(), q2 = m.home();
    q2[crank] += 1.2;  // the dependent entries left as at home: not closed
    traj->setWaypoints({{0.0, q1}, {1.0, q2}});
    traj->recomputeNow();
    QVERIFY2(traj->hasTrajectory(), qPrintable(traj->problem()));
    const dyn::SampledTrajectory& s = traj->samples();
    QVERIFY(s.samples() > 50);
    QCOMPARE(s.q(crank, s.samples() - 1), q2[crank]);
    for (int k = 0; k < s.samples(); k += 10) QVERIFY(phiAt(s.q.col(k)) < 1e-9);
    traj->ensureDetails();
    const dyn::TrajectoryDynamics& d = traj->dynamics();
    for (int v = 0; v < m.nv; ++v)
      if (!m.isActuated(v)) QCOMPARE(d.tau.row(v).cwiseAbs().maxCoeff(), 0.0);
    double worst = 0, scale = 0;
    for (int k = 1; k + 1 < s.samples(); ++k) {
      const double dEdt = (d.total[k + 1] - d.total[k - 1]) / (s.t[k + 1] - s.t[k - 1]);
      worst = std::max(worst, std::abs(d.power.col(k).sum() - dEdt));
      scale = std::max(scale, std::abs(dEdt));
    }
    QVERIFY2(scale > 1e-3 && worst < 2e-2 * scale, qPrintable(QString("|P - dE/dt| %1 of %2").arg(worst).arg(scale)));
    traj->setTime(0.5);  // the scrubbed state is closed, its torque the crank's alone
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    for (int v = 0; v < m.nv; ++v)
      if (!m.isActuated(v)) QCOMPARE(traj->tauAtTime()[v], 0.0);
  }

  // The mass-matrix dock's global (6N) pictures of §3.5 beside H: their shapes and patterns follow
  // from the tree (I block diagonal, P with one -1 block per parent, P⁻¹ one block per ancestor),
  // the system of eq. 27 has 6N + (6N - n + n_c) rows, and Sᵀ I S is CRBA's H.
  void massMatrixDockShowsGlobalMatrices() {
    QVERIFY(open("fourbar.urdf"));
    MassMatrixDock* mass = m_window->massMatrixDock();
    mass->show();
    mass->raise();
    mass->setShowGlobal(true);
    dyn::testing::settle(60);
    mass->recomputeNow();
    const GlobalMatricesView* g = mass->globalView();
    QVERIFY(g->isVisibleTo(mass));
    const dyn::Model& m = doc()->model();
    const int six = 6 * m.N;
    QCOMPARE(int(g->pictures().size()), 5);
    const auto& pics = g->pictures();
    QCOMPARE(pics[0].name, QString("I"));
    for (int k : {0, 2, 3}) QCOMPARE(int(pics[size_t(k)].nonZero.rows()), six);
    QCOMPARE(int(pics[1].nonZero.rows()), six);
    QCOMPARE(int(pics[1].nonZero.cols()), m.nv);
    for (int r = 0; r < six; ++r)  // I: nothing outside the 6 x 6 diagonal blocks
      for (int c = 0; c < six; ++c)
        if (r / 6 != c / 6) QVERIFY(!pics[0].nonZero(r, c));
    int parents = 0, path = 0;
    for (int i = 1; i <= m.N; ++i) {
      parents += m.parent[i] > 0;
      for (int j = i; j > 0; j = m.parent[j]) ++path;
    }
    QCOMPARE(pics[2].nonZeros, six + 6 * parents);  // P: identity blocks and -1 blocks
    QCOMPARE(pics[3].nonZeros, 6 * path);           // P⁻¹: an identity block per ancestor
    int treeConstraints = 0;
    for (int i = 1; i <= m.N; ++i) treeConstraints += 6 - m.joints[i].nv;
    QCOMPARE(int(pics[4].nonZero.rows()), six + treeConstraints + m.loopRank);
    QVERIFY(g->reductionError() < 1e-12);
    QVERIFY(g->summary().contains("6N"));
    mass->grab().save(QDir(m_shots).filePath("fourbar_mass_matrix_global.png"));
    mass->setShowGlobal(false);
    QVERIFY(!g->isVisibleTo(mass));
  }

  // The delta robot: three loops drawn, closed at home; moving a motor re-assembles all three.
  void deltaRobotLoopsFollowTheMotors() {
    QVERIFY(open("delta.urdf"));
    const dyn::Model& m = doc()->model();
    QCOMPARE(m_window->scene()->loopJointCount(), int(m.loops.size()));
    QVERIFY(m.loops.size() >= 3);
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    const auto apart = [&](int k) {
      const std::array<double, 6> e = m_window->scene()->loopJointEnds(k);
      return std::hypot(e[0] - e[3], e[1] - e[4], e[2] - e[5]);
    };
    for (int k = 0; k < int(m.loops.size()); ++k) QVERIFY(apart(k) < 1e-9);
    JointRow* motor = joints()->row("motor1");
    QVERIFY(motor);
    QCOMPARE(motor->loopRole(), JointRow::LoopRole::Independent);
    int dependentRows = 0;
    for (JointRow* r : joints()->rows())
      if (r->loopRole() == JointRow::LoopRole::Dependent) {
        ++dependentRows;
        QVERIFY(!r->slider()->isEnabled());
      }
    QVERIFY(dependentRows >= int(m.dependentDofs.size()) - 3);  // a floating plate's quaternion shows as 3 rows
    const QImage home = shot("delta_home.png");
    QVERIFY(magentaPixels(home) > 100);
    const std::array<double, 6> before = m_window->scene()->loopJointEnds(0);
    const double q0 = doc()->q()[qIndex("motor1")];
    dragTo(motor, q0 + 10 * kDeg);
    QVERIFY(std::abs(doc()->q()[qIndex("motor1")] - sliderValue(motor)) < 1e-15);
    QVERIFY2(phiAt(doc()->q()) < 1e-9,
             qPrintable(QString("|phi| %1; %2").arg(phiAt(doc()->q())).arg(doc()->loopMessage())));
    for (int k = 0; k < int(m.loops.size()); ++k) QVERIFY(apart(k) < 1e-8);
    const std::array<double, 6> after = m_window->scene()->loopJointEnds(0);
    QVERIFY(std::hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]) > 1e-4);  // it moved
    shot("delta_motor1.png");
  }

  // The load log says which joints were cut from the file's cycles (the files' headers name them;
  // their lines are read from the files), which loop joints the file wrote, and which coordinates
  // move the mechanism.
  void loadLogNamesTheCutJoints() {
    QVERIFY(open("delta.urdf"));
    const QString log = m_window->logDock()->plainText();
    QString cut;
    for (const char* j : {"wrist1_u", "wrist2_u", "wrist3_u"})
      cut += (cut.isEmpty() ? "" : ", ") + QString("%1 (line %2)").arg(j).arg(jointLine("delta.urdf", j));
    QVERIFY2(log.contains("Closed loops: 3 loop-closure joints; cut from the joint graph's cycles: " + cut),
             qPrintable(log));
    QVERIFY2(log.contains("independent: motor1, motor2, motor3"), qPrintable(log));
    QVERIFY(open("slider_crank.urdf"));
    QVERIFY(m_window->logDock()->plainText().contains(QString("cut from the joint graph's cycles: piston_pin (line %1)")
                                                          .arg(jointLine("slider_crank.urdf", "piston_pin"))));
    QVERIFY(open("fourbar.urdf"));  // a <loop_joint>: nothing cut
    const QString last = m_window->logDock()->plainText().section("Closed loops:", -1);
    QVERIFY2(last.contains("written as loop joints: coupler_rocker_joint") && !last.contains("cut from"),
             qPrintable(last));
    QVERIFY(last.contains("independent: crank_joint"));
    m_window->logDock()->grab().save(QDir(m_shots).filePath("delta_load_log.png"));
  }

  // Each shipped mechanism opens assembled with its loop joints drawn, moves when its first
  // independent joint is dragged (the loops re-assembled, dependent joints following), and
  // simulates in the Simulation dock with its loops closed. Screenshots of each to look at.
  void everyMechanismOpensMovesAndSimulates_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"fourbar.urdf", "fourbar.dh", "slider_crank.urdf", "palletizer.urdf", "delta.urdf"})
      QTest::newRow(f) << QString(f);
  }
  void everyMechanismOpensMovesAndSimulates() {
    QFETCH(QString, file);
    const QString name = QFileInfo(file).completeBaseName() + (file.endsWith(".dh") ? "_dh" : "");
    QVERIFY(open(qPrintable(file)));
    const dyn::Model& m = doc()->model();
    QVERIFY(m.hasLoops());
    QVERIFY(phiAt(doc()->q()) < 1e-9);
    QCOMPARE(m_window->scene()->loopJointCount(), int(m.loops.size()));
    for (vtkActor* a : m_window->scene()->loopActors()) QVERIFY(a->GetVisibility());
    // The Joints dock: independent rows editable, dependent ones read-only and marked.
    JointRow* first = nullptr;
    int independent = 0, dependent = 0;
    for (JointRow* r : joints()->rows()) {
      const int dof = coordinateDof(m, r->coordinate());
      const bool dep = !m.isIndependent(dof);
      QCOMPARE(r->loopRole(), dep ? JointRow::LoopRole::Dependent : JointRow::LoopRole::Independent);
      QCOMPARE(r->slider()->isEnabled(), !dep);
      QVERIFY(!r->roleLabel()->isHidden());
      (dep ? dependent : independent)++;
      if (!dep && !first && r->coordinate().kind == JointCoordinate::Kind::Scalar) first = r;
    }
    QVERIFY(first && dependent > 0);           // (a scalar independent row to move)
    QCOMPARE(independent, m.nv - m.loopRank);  // the mobility (no floating joint is independent here)
    const QImage home = shot(name + "_home.png");
    QVERIFY2(magentaPixels(home) > 50, qPrintable(QString("%1 magenta pixels").arg(magentaPixels(home))));
    // Move: each independent joint in turn by 10 degrees (or 2 cm) within its range; the loops
    // close after every move, the rows show the re-assembled pose, and the dependent joints follow.
    const Eigen::VectorXd start = doc()->q();
    for (JointRow* row : joints()->rows()) {
      if (row->loopRole() != JointRow::LoopRole::Independent || row->coordinate().kind != JointCoordinate::Kind::Scalar)
        continue;
      const Eigen::VectorXd before = doc()->q();
      const JointCoordinate& c = row->coordinate();
      const double step = c.angular ? 10 * kDeg : 0.02;
      const double target = before[c.qIndex] + step <= c.upper ? before[c.qIndex] + step : before[c.qIndex] - step;
      dragTo(row, target);
      const Eigen::VectorXd q = doc()->q();
      QVERIFY2(std::abs(q[c.qIndex] - sliderValue(row)) < 1e-15, qPrintable(doc()->loopMessage()));
      QVERIFY(std::abs(q[c.qIndex] - before[c.qIndex]) > 0.5 * step);
      QVERIFY2(phiAt(q) < 1e-9, qPrintable(QString("|phi| %1 after moving %2").arg(phiAt(q)).arg(c.jointName)));
      for (JointRow* r : joints()->rows())
        QVERIFY(std::abs(wrap(r->value() - coordinateValue(r->coordinate(), q))) < 1e-9);
    }
    const Eigen::VectorXd moved = doc()->q();
    Eigen::VectorXd dv(m.nv);
    dyn::difference(m, start, moved, dv);
    double followed = 0;
    for (int v : m.dependentDofs) followed = std::max(followed, std::abs(dv[v]));
    QVERIFY2(followed > 1e-3, "no dependent joint followed");
    shot(name + "_moved.png");
    joints()->raise();
    dyn::testing::settle(60);
    joints()->grab().save(QDir(m_shots).filePath(name + "_joints_dock.png"));
    // Simulate: released at rest from the moved pose, passive, 0.2 s.
    sim()->raise();
    sim()->sourceBox()->setCurrentIndex(sim()->sourceBox()->findData(int(SimulationDock::Source::Passive)));
    sim()->reset();
    for (int k = 0; k < 200; ++k) sim()->stepOnce();
    const dyn::SimulationRecord rec = sim()->runner()->record();
    QVERIFY(std::abs(rec.t.back() - 200 * sim()->settings().dt) < 1e-9);
    QVERIFY2(rec.maxConstraintError() < 1e-9, qPrintable(QString("|phi| %1").arg(rec.maxConstraintError())));
    const Eigen::VectorXd after = doc()->q();
    QVERIFY(phiAt(after) < 1e-9);
    dyn::difference(m, moved, after, dv);
    QVERIFY2(dv.cwiseAbs().maxCoeff() > 1e-3, "the simulation did not move the mechanism");
    QVERIFY(sim()->statusLabel()->text().contains("|φ|"));
    QVERIFY(!sim()->statusLabel()->text().contains("Projection"));
    shot(name + "_simulated.png");
    sim()->grab().save(QDir(m_shots).filePath(name + "_simulation_dock.png"));
  }

  // IK dragging respects the loops: the delta robot's plate (on a floating joint of the spanning
  // tree) dragged 60 px back along its x arrow (towards the middle of the view: the plate hangs near
  // its bottom edge) moves the three motors, and the plate follows the handle to the cursor with
  // the loops closed. Undo restores the pose.
  void ikDragOfTheDeltaPlateMovesTheMotors() {
    QVERIFY(open("delta.urdf"));
    const dyn::Model& m = doc()->model();
    IkDragController* ik = m_window->ikController();
    doc()->setSelectedBody(m.bodyIndex("plate"));
    const int plate = m.frameIndex("plate");
    QCOMPARE(ik->draggedFrame(), plate);
    ik->positionOnlyAction()->setChecked(true);
    ik->dragModeAction()->setChecked(true);
    m_window->scene()->setViewPreset(RobotScene::Iso);
    dyn::testing::settle(60);
    dyn::testing::settleGizmo(*m_window, ik);
    QVERIFY(ik->isActive());
    const Eigen::VectorXd q0 = doc()->q();
    const Eigen::Vector3d p0 = doc()->data().oMf[size_t(plate)].translation();
    ik->gizmo().syncCamera();  // the handle's size as a press will see it (it follows the view's size)
    const double s = ik->gizmo().scale();
    const Eigen::Vector3d grab = p0 + 0.6 * s * Eigen::Vector3d::UnitX();  // on the arrow's shaft
    const QPointF from = project(grab);
    QPointF dir = project(p0 + s * Eigen::Vector3d::UnitX()) - project(p0);
    dir /= std::hypot(dir.x(), dir.y());
    const QPointF to = from - 60 * dir;
    QTest::mousePress(m_window->viewport(), Qt::LeftButton, Qt::NoModifier, from.toPoint());
    QCOMPARE(ik->grabbedPart(), IkGizmo::ArrowX);
    for (int k = 1; k <= 6; ++k) QTest::mouseMove(m_window->viewport(), (from + (to - from) * (k / 6.0)).toPoint());
    const QImage dragging = m_window->viewport()->grabFramebuffer();  // the handle is on screen, not in exports
    dragging.save(QDir(m_shots).filePath("delta_plate_drag.png"));
    QTest::mouseRelease(m_window->viewport(), Qt::LeftButton, Qt::NoModifier, to.toPoint());
    const Eigen::VectorXd q1 = doc()->q();
    const Eigen::Vector3d p1 = doc()->data().oMf[size_t(plate)].translation();
    QVERIFY2(p0.x() - p1.x() > 0.02, qPrintable(QString("the plate moved %1 m along -x").arg(p0.x() - p1.x())));
    QVERIFY2(std::abs(p1.y() - p0.y()) < 1e-6 && std::abs(p1.z() - p0.z()) < 1e-6,
             qPrintable(QString("off the arrow by %1, %2").arg(p1.y() - p0.y()).arg(p1.z() - p0.z())));
    const QPointF end = project(p1 + (grab - p0));  // the grabbed point is under the cursor
    QVERIFY2(std::hypot(end.x() - to.x(), end.y() - to.y()) < 1.5,
             qPrintable(QString("%1,%2 vs %3,%4").arg(end.x()).arg(end.y()).arg(to.x()).arg(to.y())));
    int motorsMoved = 0;
    for (const char* motor : {"motor1", "motor2", "motor3"})
      motorsMoved += std::abs(q1[qIndex(motor)] - q0[qIndex(motor)]) > 1e-3;
    QVERIFY2(motorsMoved >= 2, qPrintable(QString("%1 motors moved").arg(motorsMoved)));
    QVERIFY2(phiAt(q1) < 1e-9, qPrintable(QString("|phi| %1").arg(phiAt(q1))));
    QVERIFY(ik->readout().converged);
    QVERIFY(!ik->gizmo().outOfReach());
    shot("delta_plate_dragged.png");
    m_window->undoStack()->undo();
    QVERIFY((doc()->q() - q0).norm() < 1e-12);
    ik->dragModeAction()->setChecked(false);
    doc()->setSelectedBody(-1);
  }
};

QTEST_MAIN(TestLoopsWindow)
#include "test_loops_window.moc"
