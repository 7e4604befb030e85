// Pushing a link with the mouse in the Simulate workspace (issue 25), driven as a user does:
// UR5, the simulation paused with gravity compensation; Ctrl+right drag on the forearm pulls the
// point grabbed towards the cursor (the force the runner applies points at the cursor's place in
// the plane of the grab, on screen too; the arrow is drawn; the point moves that way while the drag
// lasts; release removes the push and pauses again), Ctrl+left drag twists it (the moment about
// the expected axis, the link turns that way). Elsewhere than in the Simulate workspace the
// Ctrl+drags stay the camera's. With DYNSCOPE_SCREENSHOT_DIR set, the whole window at 1920x1080
// while pulling and while twisting is saved there.
#include <QtTest>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <QComboBox>
#include <QTemporaryDir>
#include <cmath>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "scene/force_arrow_layer.hpp"
#include "scene/robot_scene.hpp"
#include "simulation/perturbation_drag.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

using Vec3 = Eigen::Vector3d;

class TestPerturbationDrag : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> w_;
  QTemporaryDir tmp_;
  Eigen::VectorXd home_;

  RobotDocument* doc() const { return w_->document(); }
  SimulationDock* dock() const { return w_->simulationDock(); }
  VtkViewport* view() const { return w_->viewport(); }
  PerturbationDrag* drag() const { return w_->perturbationDrag(); }

  QPointF project(const Vec3& p) const {
    vtkRenderer* r = view()->renderer();
    r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
    r->WorldToDisplay();
    const double* d = r->GetDisplayPoint();
    const double dpr = view()->devicePixelRatioF();
    const int H = view()->renderWindow()->GetSize()[1];
    return {d[0] / dpr, (H - 1 - d[1]) / dpr};
  }
  // A pixel on the link's drawn geometry (the picker says so), near its middle.
  QPoint pixelOn(const char* link) const {
    const int body = doc()->model().bodyIndex(link);
    for (vtkActor* a : w_->scene()->actorsOfLink(link)) {
      double b[6];
      a->GetBounds(b);
      for (double t : {0.5, 0.4, 0.6, 0.3, 0.7})
        for (double s : {0.5, 0.35, 0.65}) {
          const Vec3 p(b[0] + t * (b[1] - b[0]), b[2] + s * (b[3] - b[2]), b[4] + 0.5 * (b[5] - b[4]));
          const QPoint px = project(p).toPoint();
          if (w_->scene()->pickBody(px, view()) == body) return px;
        }
    }
    return {-1, -1};
  }
  void moveInSteps(QPoint from, QPoint to, int steps) {
    for (int k = 1; k <= steps; ++k) {
      QTest::mouseMove(view(), from + (to - from) * k / steps);
      QTest::qWait(15);
    }
  }
  Vec3 worldOf(int body, const Vec3& point) const { return doc()->data().X0[body].pointToA(point); }
  void save(const QString& name) {
    const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    w_->grab().save(dir + "/" + name);
  }
  void backHome() {
    dock()->pause();
    doc()->setQ(home_);
    dock()->reset();
    dyn::testing::settle(50);
  }

 private slots:
  void initTestCase() {
    w_ = dyn::testing::strictWindow();
    QVERIFY(dyn::testing::showWithRobot(*w_, QSize(1920, 1080), "ur5.urdf"));
    QVERIFY(w_->setWorkspace("simulate"));
    dock()->raise();
    QComboBox* source = dock()->sourceBox();
    source->setCurrentIndex(source->findData(int(SimulationDock::Source::Gravity)));
    home_ = Eigen::VectorXd::Zero(doc()->model().nq);
    home_ << 0.3, -1.2, 1.4, -0.6, 1.2, 0.0;  // the forearm across the view, the wrist clear of it
    doc()->setQ(home_);
    w_->scene()->fitToRobot();
    dyn::testing::settle(200);
  }
  void cleanupTestCase() { w_.reset(); }
  void cleanup() {  // a failed check must not leave a drag going into the next test
    if (!drag()->isDragging()) return;
    const bool force = drag()->perturbation().kind == perturb::Perturbation::Kind::Force;
    QTest::mouseRelease(view(), force ? Qt::RightButton : Qt::LeftButton, Qt::ControlModifier, QPoint(5, 5));
  }

  void ctrlRightDragPullsTowardsTheCursor() {
    backHome();
    QVERIFY(!dock()->isRunning());
    const int body = doc()->model().bodyIndex("forearm_link");
    const QPoint from = pixelOn("forearm_link");
    QVERIFY2(from.x() >= 0, "no pixel of the forearm found");
    QTest::mousePress(view(), Qt::RightButton, Qt::ControlModifier, from);
    QVERIFY(drag()->isDragging());
    QCOMPARE(drag()->perturbation().body, body);
    QVERIFY(drag()->runsWhileDragging());  // paused with gravity compensation: the run follows the push
    const Vec3 point = drag()->perturbation().point;
    const Vec3 grab = worldOf(body, point);
    QVERIFY((project(grab) - QPointF(from)).manhattanLength() < 3);  // the point under the cursor

    const QPoint to = from + QPoint(40, -70);  // up and to the right on screen
    moveInSteps(from, to, 6);
    const Vec3 target = drag()->perturbation().target;
    QVERIFY((project(target) - QPointF(to)).manhattanLength() < 3);  // the cursor's place
    const Vec3 towards = target - grab;
    QVERIFY(towards.norm() > 0.02);

    // Right after the move: the force points at the target (the spring; the damper, against the
    // point's velocity as it starts to follow, turns it somewhat).
    SimulationRunner::Snapshot s = dock()->runner()->snapshot();
    QCOMPARE(int(s.wrenches.size()), 1);
    QCOMPARE(s.wrenches[0].body, body);
    const Vec3 towardsNow = (target - s.wrenches[0].point).normalized();
    QVERIFY2(s.wrenches[0].force.normalized().dot(towardsNow) > 0.5,
             qPrintable(QString("cos = %1").arg(s.wrenches[0].force.normalized().dot(towardsNow))));
    // On screen: up and to the right, as the cursor went.
    const QPointF onScreen =
        project(s.wrenches[0].point + 0.05 * s.wrenches[0].force.normalized()) - project(s.wrenches[0].point);
    QVERIFY(onScreen.x() > 0 && onScreen.y() < 0);
    dyn::testing::settle(60);
    const ForceArrowLayer& arrows = w_->scene()->forceArrows();
    QCOMPARE(arrows.visibleCount(), 1);
    QCOMPARE(arrows.arrows().front().kind, ForceArrow::Kind::Force);
    QVERIFY(arrows.label(0).find(" N") != std::string::npos);

    // Held for a while: the point follows towards the cursor.
    QTest::qWait(600);
    save("perturb-pull.png");
    const Vec3 now = worldOf(body, point);
    const double along = (now - grab).dot(towards.normalized());
    QVERIFY2(along > 0.3 * towards.norm(),
             qPrintable(QString("moved %1 m towards the cursor of %2 m").arg(along).arg(towards.norm())));

    QTest::mouseRelease(view(), Qt::RightButton, Qt::ControlModifier, to);
    QVERIFY(!drag()->isDragging());
    QVERIFY(!dock()->isRunning());  // paused again
    QVERIFY(!dock()->runner()->hasPerturbation());
    QVERIFY(dock()->runner()->snapshot().wrenches.empty());
    QCOMPARE(w_->scene()->forceArrows().visibleCount(), 0);
  }

  void ctrlLeftDragTwistsTheLink() {
    backHome();
    const int body = doc()->model().bodyIndex("forearm_link");
    const QPoint from = pixelOn("forearm_link");
    QVERIFY(from.x() >= 0);
    const Eigen::Matrix3d R0 = doc()->data().X0[body].E.transpose();
    QTest::mousePress(view(), Qt::LeftButton, Qt::ControlModifier, from);
    QVERIFY(drag()->isDragging());
    QCOMPARE(drag()->perturbation().kind, perturb::Perturbation::Kind::Torque);
    const QPoint to = from + QPoint(0, -90);  // straight up on screen
    moveInSteps(from, to, 6);
    // The expected turn: about (towards the viewer) x (up on screen), so that the link's front turns up.
    vtkCamera* cam = view()->renderer()->GetActiveCamera();
    const Vec3 dop = Vec3(cam->GetDirectionOfProjection()).normalized();
    const Vec3 right = dop.cross(Vec3(cam->GetViewUp())).normalized(), up = right.cross(dop);
    const Vec3 axis = (-dop).cross(up).normalized();
    const Eigen::AngleAxisd wanted(drag()->perturbation().rotation * R0.transpose());
    QVERIFY(wanted.axis().dot(axis) > 0.99);
    QCOMPARE_LE(std::abs(wanted.angle() - 90.0 / PerturbationDrag::kPixelsPerRadian), 1e-6);

    SimulationRunner::Snapshot s = dock()->runner()->snapshot();
    QCOMPARE(int(s.wrenches.size()), 1);
    QVERIFY(s.wrenches[0].force.norm() == 0);
    QVERIFY2(s.wrenches[0].moment.normalized().dot(axis) > 0.5,
             qPrintable(QString("cos = %1").arg(s.wrenches[0].moment.normalized().dot(axis))));
    dyn::testing::settle(60);
    QCOMPARE(w_->scene()->forceArrows().visibleCount(), 1);
    QCOMPARE(w_->scene()->forceArrows().arrows().front().kind, ForceArrow::Kind::Torque);

    QTest::qWait(600);
    save("perturb-twist.png");
    const Eigen::Matrix3d R = doc()->data().X0[body].E.transpose();
    const Eigen::AngleAxisd turned(R * R0.transpose());
    const double about = turned.angle() * turned.axis().dot(axis);
    QVERIFY2(about > 0.05, qPrintable(QString("turned %1 rad about the drag's axis").arg(about)));
    QTest::mouseRelease(view(), Qt::LeftButton, Qt::ControlModifier, to);
    QVERIFY(!drag()->isDragging());
    QVERIFY(!dock()->runner()->hasPerturbation());
    QCOMPARE(w_->scene()->forceArrows().visibleCount(), 0);
  }

  // Paused with another torque source (passive: the arm would fall), the drag shows the push's
  // arrow at the pose shown, pointing at the cursor, and nothing moves.
  void pausedPassiveShowsTheArrowOnly() {
    backHome();
    QComboBox* source = dock()->sourceBox();
    source->setCurrentIndex(source->findData(int(SimulationDock::Source::Passive)));
    const Eigen::VectorXd q = doc()->q();
    const int body = doc()->model().bodyIndex("forearm_link");
    const QPoint from = pixelOn("forearm_link");
    QVERIFY(from.x() >= 0);
    QTest::mousePress(view(), Qt::RightButton, Qt::ControlModifier, from);
    QVERIFY(drag()->isDragging());
    QVERIFY(!drag()->runsWhileDragging());
    const Vec3 grab = worldOf(body, drag()->perturbation().point);
    moveInSteps(from, from + QPoint(-60, 0), 4);  // to the left on screen
    QTest::qWait(200);
    QVERIFY(!dock()->isRunning());
    QCOMPARE((doc()->q() - q).norm(), 0.0);
    const ForceArrowLayer& arrows = w_->scene()->forceArrows();
    QCOMPARE(arrows.visibleCount(), 1);
    const ForceArrow a = arrows.arrows().front();
    QCOMPARE_LE((a.point - grab).norm(), 1e-9);
    const Vec3 towards = drag()->perturbation().target - grab;
    QVERIFY(a.vector.normalized().dot(towards.normalized()) > 0.999);  // at rest: the spring alone
    QVERIFY(project(grab + 0.05 * a.vector.normalized()).x() < project(grab).x());
    QTest::mouseRelease(view(), Qt::RightButton, Qt::ControlModifier, from + QPoint(-60, 0));
    QCOMPARE(arrows.visibleCount(), 0);
    source->setCurrentIndex(source->findData(int(SimulationDock::Source::Gravity)));
  }

  // The layer on its own: the robot's weight a quarter of its size long, a tiny force at the
  // shortest length (its direction still shown), a huge one at the longest; moments double-headed
  // at their own scale; every arrow labelled with its magnitude; an empty list removes them.
  void arrowLayerScales() {
    RobotScene* scene = w_->scene();
    const ForceArrowLayer& layer = scene->forceArrows();
    const double size = layer.robotSize();
    QVERIFY(size > 0.3 && size < 3);  // UR5's geometry, metres
    const double weight = doc()->model().totalMass() * 9.81;
    const Vec3 at(0.2, 0.1, 0.5);
    scene->setForceArrows({{at, Vec3(0, 0, weight), ForceArrow::Kind::Force},
                           {at, Vec3(1e-3, 0, 0), ForceArrow::Kind::Contact},
                           {at, Vec3(0, 100 * weight, 0), ForceArrow::Kind::Force},
                           {at, Vec3(0, 0.1 * size * weight, 0), ForceArrow::Kind::Torque}});
    QCOMPARE(layer.visibleCount(), 4);
    QCOMPARE_LE(std::abs(layer.drawnLength(0) - ForceArrowLayer::kWeightLength * size), 1e-9);
    const double ppm = layer.pixelsPerMetre(at);
    QVERIFY(ppm > 0);
    const double shortest = std::max(ForceArrowLayer::kMinLength * size, ForceArrowLayer::kMinPixels / ppm);
    QCOMPARE_LE(std::abs(layer.drawnLength(1) - shortest), 1e-9);
    QCOMPARE_LE(std::abs(layer.drawnLength(2) - ForceArrowLayer::kMaxLength * size), 1e-9);
    QCOMPARE_LE(std::abs(layer.drawnLength(3) - ForceArrowLayer::kWeightLength * size), 1e-9);
    QVERIFY(layer.actor(3) != layer.actor(0));
    QVERIFY(layer.label(3).find("N") != std::string::npos && layer.label(3).find("m") != std::string::npos);
    QVERIFY(layer.label(1).find(" N") != std::string::npos);
    // The arrow starts at its point and runs along the vector (the actor's bounds).
    double b[6];
    layer.actor(0)->GetBounds(b);
    QCOMPARE_LE(std::abs(b[4] - at.z()), 0.02 * size);
    QCOMPARE_LE(std::abs(b[5] - (at.z() + layer.drawnLength(0))), 0.02 * size);
    // Colours: three kinds, three colours.
    QVERIFY(
        (ForceArrowLayer::colour(ForceArrow::Kind::Force) - ForceArrowLayer::colour(ForceArrow::Kind::Torque)).norm() >
        0.3);
    QVERIFY(
        (ForceArrowLayer::colour(ForceArrow::Kind::Force) - ForceArrowLayer::colour(ForceArrow::Kind::Contact)).norm() >
        0.3);
    scene->setForceArrows({});
    QCOMPARE(layer.visibleCount(), 0);
  }

  // Another workspace: Ctrl+right drag is the camera's zoom again, nothing is pushed.
  void onlyInTheSimulateWorkspace() {
    backHome();
    QVERIFY(w_->setWorkspace("explore"));
    dyn::testing::settle(100);
    const QPoint from = pixelOn("forearm_link");
    QVERIFY(from.x() >= 0);
    QTest::mousePress(view(), Qt::RightButton, Qt::ControlModifier, from);
    QVERIFY(!drag()->isDragging());
    QTest::mouseRelease(view(), Qt::RightButton, Qt::ControlModifier, from);
    QVERIFY(!dock()->runner()->hasPerturbation());
    QVERIFY(w_->setWorkspace("simulate"));
  }

  // For the eye (DYNSCOPE_SCREENSHOT_DIR set): the humanoid's forearm pulled sideways, at 1920x1080
  // and presenting (F11) at 1366x768. Checks only that the push was drawn.
  void humanoidPictures() {
    if (qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR").isEmpty()) QSKIP("pictures only when asked for");
    QVERIFY(dyn::testing::openAndWait(*w_, dyn::testing::robotFile("humanoid.urdf")));
    QVERIFY(w_->setWorkspace("simulate"));
    QComboBox* source = dock()->sourceBox();
    source->setCurrentIndex(source->findData(int(SimulationDock::Source::Gravity)));
    for (const bool present : {false, true}) {
      w_->setPresentationMode(present);
      if (present) w_->resize(1366, 768);
      dyn::testing::settle(400);
      const QPoint from = pixelOn("left_forearm");
      QVERIFY(from.x() >= 0);
      QTest::mousePress(view(), Qt::RightButton, Qt::ControlModifier, from);
      QVERIFY(drag()->isDragging());
      moveInSteps(from, from + QPoint(90, -40), 6);
      QTest::qWait(250);
      QCOMPARE(w_->scene()->forceArrows().visibleCount(), 1);
      save(present ? "perturb-humanoid-present.png" : "perturb-humanoid.png");
      QTest::mouseRelease(view(), Qt::RightButton, Qt::ControlModifier, from + QPoint(90, -40));
    }
    w_->setPresentationMode(false);
  }
};

QTEST_MAIN(TestPerturbationDrag)
#include "test_perturbation_drag.moc"
