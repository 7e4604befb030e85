// IK dragging in the 3D view (issue 6): a minimal workbench (VtkViewport + RobotScene +
// RobotDocument + QUndoStack) with an IkDragController, driven by simulated mouse drags on the
// gizmo. Expected positions come from the camera projection (the link must end under the cursor),
// limits from the model, pins from the pose at pin time, the ellipsoid's drawn size from an SVD of
// the engine's Jacobian. Exported images must not show the handle. Run under Xvfb.
#include <QComboBox>
#include <QDir>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <Eigen/SVD>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "ik/ik_dock.hpp"
#include "ik/ik_drag_controller.hpp"
#include "scene/arrow_glyph.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/render_scale.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/main_window.hpp"

namespace {

QString robot(const char* file) { return QStringLiteral(DYNSCOPE_ROBOTS_DIR "/") + file; }

using Vec3 = Eigen::Vector3d;

// The linear part M and the translation of an actor's user matrix: the unit sphere drawn as
// x = c + M s.
Eigen::Matrix3d linearPart(vtkActor* a) {
  Eigen::Matrix3d M;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M(r, c) = a->GetUserMatrix()->GetElement(r, c);
  return M;
}
Vec3 translationOf(vtkActor* a) {
  return {a->GetUserMatrix()->GetElement(0, 3), a->GetUserMatrix()->GetElement(1, 3),
          a->GetUserMatrix()->GetElement(2, 3)};
}

// Jv (3 x nv, world axes, velocity of the frame origin) from the engine's Jacobian at q.
Eigen::MatrixXd linearJacobian(const dyn::Model& m, const Eigen::VectorXd& q, int frame) {
  dyn::Data d(m);
  return dyn::frameJacobian(m, d, q, frame, dyn::ReferenceFrame::LocalWorldAligned).bottomRows<3>();
}

// World bounding box (columns min, max) of the points an actor draws.
Eigen::Matrix<double, 3, 2> drawnBox(vtkActor* a) {
  a->GetMapper()->Update();
  vtkPolyData* poly = vtkPolyData::SafeDownCast(a->GetMapper()->GetInput());
  Eigen::Matrix<double, 3, 2> box;
  box.col(0).setConstant(HUGE_VAL);
  box.col(1).setConstant(-HUGE_VAL);
  for (vtkIdType i = 0; poly && i < poly->GetNumberOfPoints(); ++i) {
    double p[4] = {0, 0, 0, 1}, w[4];
    poly->GetPoint(i, p);
    a->GetMatrix()->MultiplyPoint(p, w);
    for (int j = 0; j < 3; ++j) {
      box(j, 0) = std::min(box(j, 0), w[j]);
      box(j, 1) = std::max(box(j, 1), w[j]);
    }
  }
  return box;
}

double relativeError(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) { return (a - b).norm() / b.norm(); }

}  // namespace

class TestIkDrag : public QObject {
  Q_OBJECT

  VtkViewport* view_ = nullptr;
  RobotDocument* doc_ = nullptr;
  RobotScene* scene_ = nullptr;
  QUndoStack* undo_ = nullptr;
  IkDragController* ik_ = nullptr;
  Eigen::VectorXd ready_;

  // World point -> widget pixel (the inverse of the controller's display mapping).
  QPointF project(const Vec3& p) const {
    vtkRenderer* r = view_->renderer();
    r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
    r->WorldToDisplay();
    const double* d = r->GetDisplayPoint();
    const double dpr = view_->devicePixelRatioF();
    const int H = view_->renderWindow()->GetSize()[1];
    return {d[0] / dpr, (H - 1 - d[1]) / dpr};
  }
  const dyn::Transform<double>& pose(int frame) const { return doc_->data().oMf[frame]; }
  Vec3 linkOrigin() const { return pose(ik_->draggedFrame()).translation(); }
  Vec3 viewDirection() const { return Vec3(view_->renderer()->GetActiveCamera()->GetDirectionOfProjection()); }

  bool withinLimits(const Eigen::VectorXd& q) const {
    const dyn::Model& m = doc_->model();
    for (int i = 0; i < m.nq; ++i)
      if (!std::isfinite(q[i]) || q[i] < m.lowerLimit[i] - 1e-12 || q[i] > m.upperLimit[i] + 1e-12) return false;
    return true;
  }

  // Press at `from`, move in `steps` equal moves to `to`, optionally release. Records the largest
  // change of any joint between two moves.
  double drag(QPointF from, QPointF to, int steps, bool release = true) {
    QTest::mousePress(view_, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    double biggest = 0;
    for (int k = 1; k <= steps; ++k) {
      const Eigen::VectorXd before = doc_->q();
      QTest::mouseMove(view_, (from + (to - from) * (double(k) / steps)).toPoint());
      biggest = std::max(biggest, (doc_->q() - before).lpNorm<Eigen::Infinity>());
    }
    if (release) QTest::mouseRelease(view_, Qt::LeftButton, Qt::NoModifier, to.toPoint());
    return biggest;
  }

  // Pixels of a colour family in an image: the gizmo's parts drawn on top of the robot.
  static int countPixels(const QImage& img, int channel) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
      for (int x = 0; x < img.width(); ++x) {
        const QColor c = img.pixelColor(x, y);
        const int v[3] = {c.red(), c.green(), c.blue()};
        const int others = std::max(v[(channel + 1) % 3], v[(channel + 2) % 3]);
        if (v[channel] > 120 && v[channel] > others + 70) ++n;
      }
    return n;
  }
  void save(const QImage& img, const char* name) {
    const QByteArray dir = qgetenv("DYNSCOPE_GRAB_DIR");
    if (!dir.isEmpty()) QVERIFY(img.save(QDir(QString::fromLocal8Bit(dir)).filePath(name)));
  }

 private slots:
  void initTestCase() {
    view_ = new VtkViewport;
    view_->resize(900, 700);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_));
    doc_ = new RobotDocument;
    QString error;
    QVERIFY2(doc_->load(robot("panda.urdf"), &error), qPrintable(error));
    scene_ = new RobotScene(view_->renderer());
    scene_->setAutoFit(false);  // each test frames the iso view itself (setViewPreset): a pose that
                                // leaves it must not move the camera between a projection and a drag
    scene_->setModel(doc_->model(), doc_->sourceFile());
    connect(doc_, &RobotDocument::poseChanged, scene_, [this] { scene_->updatePose(doc_->model(), doc_->data()); });
    ready_.resize(7);
    ready_ << 0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785;  // panda's "ready" pose, far from limits
    QVERIFY(doc_->setQ(ready_));
    scene_->setViewPreset(RobotScene::Iso);
    undo_ = new QUndoStack;
    ik_ = new IkDragController(doc_, view_, view_->renderer(), undo_);
    QVERIFY(view_->grabImage().width() > 0);  // one frame: the camera and sizes are settled
  }

  void cleanupTestCase() {
    delete ik_;
    delete undo_;
    delete scene_;
    delete doc_;
    delete view_;
  }

  void init() {
    QVERIFY(doc_->setQ(ready_));
    doc_->setSelectedBody(-1);
    ik_->clearPins();
    for (int j = 1; j <= doc_->model().N; ++j) ik_->setJointLocked(j, false);
    ik_->positionOnlyAction()->setChecked(false);
    ik_->localAxesAction()->setChecked(false);
    ik_->dragModeAction()->setChecked(true);
    undo_->clear();
    scene_->setViewPreset(RobotScene::Iso);  // the same view for every test
    view_->grabImage();                      // one frame: sizes and the handle's scale settle
  }

  void cleanup() {  // a failed check in the middle of a drag must not leave the button down
    if (ik_->isDragging()) QTest::mouseRelease(view_, Qt::LeftButton, Qt::NoModifier, QPoint(1, 1));
  }

  void defaultsToEndEffector() {
    const dyn::Model& m = doc_->model();
    QCOMPARE(ik_->draggedFrame(), m.frameIndex(m.defaultEndEffector));
    QVERIFY(ik_->isActive());
    QVERIFY(ik_->gizmo().visible());
    QVERIFY((ik_->gizmo().origin() - linkOrigin()).norm() < 1e-12);
    ik_->dragModeAction()->setChecked(false);
    QVERIFY(!ik_->gizmo().visible());
    ik_->dragModeAction()->setChecked(true);
    // Selecting a link moves the handle onto it.
    const int body = m.bodyIndex("panda_link4");
    doc_->setSelectedBody(body);
    QCOMPARE(m.frames[ik_->draggedFrame()].name, std::string("panda_link4"));
    QVERIFY((ik_->gizmo().origin() - pose(ik_->draggedFrame()).translation()).norm() < 1e-12);
    doc_->setSelectedBody(-1);
    QCOMPARE(ik_->draggedFrame(), m.frameIndex(m.defaultEndEffector));
  }

  // A moving frame in software GL is drawn into a smaller part of the framebuffer (VtkViewport's
  // adaptive quality, 0.55 of each side here) and scaled up: the handle, sized in screen pixels,
  // keeps its world size (it alternated between two sizes 1.8x apart during drags), and so do the
  // shortest arrows (pixelsPerMetreAt).
  void handleKeepsItsSizeInMovingFrames() {
    IkGizmo& g = ik_->gizmo();
    vtkRenderer* r = view_->renderer();
    const double still = g.scale(), ppm = pixelsPerMetreAt(r, g.origin());
    double v[4];
    r->GetViewport(v);
    r->SetViewport(v[0] * 0.55, v[1] * 0.55, v[2] * 0.55, v[3] * 0.55);
    viewport::setRenderScale(0.55);
    g.setPose(g.rotation(), g.origin());
    const double moving = g.scale(), ppmMoving = pixelsPerMetreAt(r, g.origin());
    viewport::setRenderScale(1.0);
    r->SetViewport(v);
    g.setPose(g.rotation(), g.origin());
    QVERIFY2(std::abs(moving / still - 1) < 0.01,
             qPrintable(QString("handle %1 still, %2 moving").arg(still).arg(moving)));
    QVERIFY2(std::abs(ppmMoving / ppm - 1) < 0.01,
             qPrintable(QString("%1 px/m still, %2 moving").arg(ppm).arg(ppmMoving)));
    QCOMPARE(g.scale(), still);
  }

  // The x arrow: grabbed near its tip and pulled 60 px along its projection, the link follows
  // along +x and ends where the cursor is; undo restores q exactly.
  void arrowDragMovesLinkAndUndoes() {
    const Eigen::VectorXd q0 = doc_->q();
    const Vec3 p0 = linkOrigin();
    const dyn::Transform<double> X0 = pose(ik_->draggedFrame());
    const double s = ik_->gizmo().scale();
    const Vec3 grab = p0 + 0.85 * s * Vec3::UnitX();
    const QPointF from = project(grab);
    QPointF dir = project(p0 + s * Vec3::UnitX()) - project(p0);
    dir /= std::hypot(dir.x(), dir.y());
    const QPointF to = from + 60 * dir;
    double camBefore[3], camAfter[3];
    view_->renderer()->GetActiveCamera()->GetPosition(camBefore);

    QSignalSpy finished(ik_, &IkDragController::dragFinished);
    const double biggest = drag(from, to, 6);
    QCOMPARE(finished.count(), 1);
    view_->renderer()->GetActiveCamera()->GetPosition(camAfter);
    for (int k = 0; k < 3; ++k) QCOMPARE(camAfter[k], camBefore[k]);  // the camera did not orbit

    const Vec3 p1 = linkOrigin();
    QVERIFY2(p1.x() - p0.x() > 0.02, qPrintable(QString::number(p1.x() - p0.x())));
    QVERIFY(std::abs(p1.y() - p0.y()) < 1e-6 && std::abs(p1.z() - p0.z()) < 1e-6);
    // Full pose: the orientation is held.
    QVERIFY((pose(ik_->draggedFrame()).rotation() - X0.rotation()).norm() < 1e-6);
    // The grabbed point of the arrow is under the cursor (rounded to whole pixels).
    const QPointF end = project(p1 + (grab - p0));
    QVERIFY2(std::hypot(end.x() - to.x(), end.y() - to.y()) < 1.5,
             qPrintable(QString("%1,%2 vs %3,%4").arg(end.x()).arg(end.y()).arg(to.x()).arg(to.y())));
    QVERIFY(withinLimits(doc_->q()));
    QVERIFY(biggest <= IkDragController::kMaxMoveStep + 1e-12);
    // The handle snapped back onto the link.
    QVERIFY((ik_->gizmo().origin() - p1).norm() < 1e-12);
    QVERIFY(!ik_->gizmo().outOfReach());

    QCOMPARE(undo_->count(), 1);
    QCOMPARE(undo_->text(0), QString("Drag %1").arg(QString::fromStdString(doc_->model().defaultEndEffector)));
    const Eigen::VectorXd q1 = doc_->q();
    undo_->undo();
    QVERIFY(doc_->q() == q0);
    QVERIFY((linkOrigin() - p0).norm() < 1e-12);
    QVERIFY((ik_->gizmo().origin() - p0).norm() < 1e-12);
    undo_->redo();
    QVERIFY(doc_->q() == q1);
  }

  void pressBesideTheGizmoOrbits() {
    // A press away from the handle goes to the camera as before, and no undo command appears.
    double camBefore[3], camAfter[3];
    view_->renderer()->GetActiveCamera()->GetPosition(camBefore);
    drag(QPointF(40, 40), QPointF(140, 60), 5);
    view_->renderer()->GetActiveCamera()->GetPosition(camAfter);
    QVERIFY(Vec3(camAfter[0] - camBefore[0], camAfter[1] - camBefore[1], camAfter[2] - camBefore[2]).norm() > 1e-3);
    QCOMPARE(undo_->count(), 0);
  }

  // The example: the wrist (panda_link7) pinned, the elbow (panda_link4) dragged sideways
  // moves in the arm's null space; the pin holds.
  void pinHoldsDuringDrag() {
    const dyn::Model& m = doc_->model();
    const int wrist = m.bodyIndex("panda_link7");
    doc_->setSelectedBody(wrist);
    QVERIFY(ik_->pinSelectedAction()->isEnabled());
    ik_->pinSelectedAction()->trigger();
    const int pinFrame = ik_->frameOfBody(wrist);
    QVERIFY(ik_->isPinned(pinFrame));
    QCOMPARE(ik_->gizmo().pinMarkerCount(), 1);
    const dyn::Transform<double> pinned = pose(pinFrame);
    doc_->setSelectedBody(m.bodyIndex("panda_link4"));  // drag the elbow
    QCOMPARE(m.frames[ik_->draggedFrame()].name, std::string("panda_link4"));
    ik_->positionOnlyAction()->setChecked(true);

    const Vec3 p0 = linkOrigin();
    const double s = ik_->gizmo().scale();
    const QPointF from = project(p0 + 0.85 * s * Vec3::UnitY());
    QPointF dir = project(p0 + s * Vec3::UnitY()) - project(p0);
    dir /= std::hypot(dir.x(), dir.y());
    drag(from, from + 30 * dir, 3);

    QVERIFY2(linkOrigin().y() - p0.y() > 0.005, qPrintable(QString::number(linkOrigin().y() - p0.y())));
    QVERIFY((pose(pinFrame).translation() - pinned.translation()).norm() < 1e-6);
    QVERIFY((pose(pinFrame).rotation() - pinned.rotation()).norm() < 1e-6);
    QVERIFY(withinLimits(doc_->q()));
    ik_->clearPins();
    QCOMPARE(ik_->gizmo().pinMarkerCount(), 0);
  }

  void lockedJointKeepsItsValue() {
    const dyn::Model& m = doc_->model();
    const int joint = m.jointIndex("panda_joint1");
    QVERIFY(joint > 0);
    ik_->setJointLocked(joint, true);
    ik_->positionOnlyAction()->setChecked(true);
    const double before = doc_->q()[m.joints[joint].idx_q];
    const Vec3 p0 = linkOrigin();
    const double s = ik_->gizmo().scale();
    const QPointF from = project(p0 + 0.85 * s * Vec3::UnitY());
    QPointF dir = project(p0 + s * Vec3::UnitY()) - project(p0);
    dir /= std::hypot(dir.x(), dir.y());
    drag(from, from + 40 * dir, 4);
    QVERIFY(std::abs(linkOrigin().y() - p0.y()) > 1e-3);  // moved (in the arm's plane as far as it can)
    QCOMPARE(doc_->q()[m.joints[joint].idx_q], before);
  }

  // Pulled 0.6 m out along x: the handle turns red and a message says so; the robot stops as close
  // as it can, finite, within its limits, without jumps. Release: the handle snaps back, not red.
  void unreachableTurnsRed() {
    ik_->positionOnlyAction()->setChecked(true);
    view_->renderer()->GetActiveCamera()->Zoom(0.4);  // target and robot on screen
    view_->grabImage();
    const Vec3 p0 = linkOrigin();
    const double s = ik_->gizmo().scale();
    const Vec3 grab = p0 + 0.85 * s * Vec3::UnitX();
    QSignalSpy messages(ik_, &IkDragController::message);
    const double biggest = drag(project(grab), project(grab + 0.6 * Vec3::UnitX()), 20, false);
    QVERIFY(ik_->gizmo().outOfReach());
    QCOMPARE(ik_->gizmo().color(IkGizmo::ArrowY), Vec3(1, 0, 0));
    QCOMPARE(ik_->gizmo().color(IkGizmo::Centre), Vec3(1, 0, 0));
    QVERIFY(messages.count() >= 1);
    const QString text = messages.first().first().toString();
    QVERIFY2(text.startsWith("target out of reach: ") && text.endsWith(" m away"), qPrintable(text));
    QVERIFY(!ik_->readout().reachable);
    QVERIFY(withinLimits(doc_->q()));
    QVERIFY(biggest <= IkDragController::kMaxMoveStep + 1e-12);
    QVERIFY(text.section(' ', 4, 4).toDouble() > 0);
    // Settled (a few more moves on the spot): the read-out's residual is the link's distance from
    // the target, where the handle is.
    for (int k = 0; k < 10; ++k) QTest::mouseMove(view_, project(grab + 0.6 * Vec3::UnitX()).toPoint());
    const double away = (ik_->gizmo().origin() - linkOrigin()).norm();
    QVERIFY(away > 0.05);
    QVERIFY2(std::abs(ik_->readout().positionError - away) < 1e-6,
             qPrintable(QString("%1 vs %2").arg(ik_->readout().positionError).arg(away)));
    const QImage red = view_->grabFramebuffer();  // on screen: exports leave the handle out
    save(red, "ik_out_of_reach.png");
    QVERIFY(countPixels(red, 0) > 200);
    QVERIFY(countPixels(red, 1) < 30);  // no green arrow (only the small world-axes triad)

    QTest::mouseRelease(view_, Qt::LeftButton, Qt::NoModifier, project(grab + 0.6 * Vec3::UnitX()).toPoint());
    QVERIFY(!ik_->gizmo().outOfReach());
    QVERIFY((ik_->gizmo().color(IkGizmo::ArrowY) - Vec3(0.2, 0.75, 0.22)).norm() < 1e-9);
    QVERIFY((ik_->gizmo().origin() - linkOrigin()).norm() < 1e-12);
    QCOMPARE(undo_->count(), 1);
  }

  // Issue 25: from the pose the window opens the Panda in (home clamped into the limits: upright,
  // joint 4 on its limit, a singular pose), the handle's z arrow pulled down with the orientation
  // held: the link follows (the solver's perturbed seeds take joint 4 off its limit), the handle
  // stays green, nothing is reported out of reach.
  void dragsFromTheDefaultPose_data() {
    QTest::addColumn<Vec3>("axis");
    QTest::addColumn<double>("distance");
    QTest::newRow("down") << Vec3(Vec3::UnitZ()) << -0.1;
    QTest::newRow("sideways +y") << Vec3(Vec3::UnitY()) << 0.1;
    QTest::newRow("sideways -y") << Vec3(Vec3::UnitY()) << -0.1;
    QTest::newRow("sideways +x") << Vec3(Vec3::UnitX()) << 0.1;
  }
  void dragsFromTheDefaultPose() {
    QFETCH(Vec3, axis);
    QFETCH(double, distance);
    doc_->setZero();  // neutral, clamped into the limits: as a load leaves the Panda
    QVERIFY(std::abs(doc_->q()[3] - doc_->model().upperLimit[3]) < 1e-12);
    view_->grabImage();
    const Vec3 p0 = linkOrigin();
    const dyn::Transform<double> X0 = pose(ik_->draggedFrame());
    const double s = ik_->gizmo().scale();
    const Vec3 grab = p0 + 0.85 * s * axis;  // the arrow of that axis
    QSignalSpy messages(ik_, &IkDragController::message);
    drag(project(grab), project(grab + distance * axis), 10);
    const Vec3 p1 = linkOrigin();
    const double moved = (p1 - p0).dot(axis) * (distance < 0 ? -1 : 1);
    QVERIFY2(moved > 0.05, qPrintable(QString("moved %1 m of %2").arg(moved).arg(std::abs(distance))));
    QVERIFY(((p1 - p0) - (p1 - p0).dot(axis) * axis).norm() < 1e-6);  // along the arrow
    if (!ik_->readout().orientationFreed)                             // held, unless the log said it cannot be (once)
      QVERIFY((pose(ik_->draggedFrame()).rotation() - X0.rotation()).norm() < 1e-6);
    QVERIFY(!ik_->gizmo().outOfReach());
    QCOMPARE(messages.count(), ik_->readout().orientationFreed ? 1 : 0);
    QVERIFY(withinLimits(doc_->q()));
  }

  // A pose that cannot be held while the link moves (the wrist's three joints locked): the position
  // follows with the orientation free, the handle stays green, and the log says so once.
  void orientationFreedWhenItCannotBeKept() {
    for (int j : {5, 6, 7}) ik_->setJointLocked(j, true);
    const Vec3 p0 = linkOrigin();
    const double s = ik_->gizmo().scale();
    const Vec3 grab = p0 + 0.85 * s * Vec3::UnitX();
    QSignalSpy messages(ik_, &IkDragController::message);
    drag(project(grab), project(grab + 0.06 * Vec3::UnitX()), 6, false);
    const Vec3 p1 = linkOrigin();
    QVERIFY2(p1.x() - p0.x() > 0.03, qPrintable(QString("moved %1 m").arg(p1.x() - p0.x())));
    QVERIFY(ik_->readout().orientationFreed);
    QVERIFY(ik_->readout().rotationError > 1e-3);  // what is left of the orientation, reported
    QVERIFY(!ik_->gizmo().outOfReach());
    QCOMPARE(messages.count(), 1);
    const QString text = messages.first().first().toString();
    QVERIFY2(text.contains("orientation cannot be kept") && text.contains("position follows"), qPrintable(text));
    QTest::mouseRelease(view_, Qt::LeftButton, Qt::NoModifier, project(grab + 0.06 * Vec3::UnitX()).toPoint());
  }

  // The centre sphere moves the link in the plane facing the camera, under the cursor.
  void centreMovesInCameraPlane() {
    ik_->positionOnlyAction()->setChecked(true);
    const Vec3 p0 = linkOrigin();
    const QPointF from = project(p0);
    const QPointF to = from + QPointF(30, -25);
    drag(from, to, 5);
    const Vec3 d = linkOrigin() - p0;
    QVERIFY(d.norm() > 0.02);
    QVERIFY2(std::abs(d.dot(viewDirection())) < 1e-3 * d.norm(), qPrintable(QString::number(d.dot(viewDirection()))));
    const QPointF end = project(linkOrigin());
    QVERIFY2(std::hypot(end.x() - to.x(), end.y() - to.y()) < 1.5,
             qPrintable(QString("%1,%2").arg(end.x()).arg(end.y())));
  }

  // The z ring, grabbed at 45 degrees and pulled to 75: the link turns 30 degrees about world z and
  // stays where it is.
  void ringRotatesAboutItsAxis() {
    const Vec3 p0 = linkOrigin();
    const Eigen::Matrix3d R0 = pose(ik_->draggedFrame()).rotation();
    const double s = ik_->gizmo().scale(), r = 0.72 * s;
    auto onRing = [&](double deg) {
      const double a = deg * M_PI / 180;
      return project(p0 + r * Vec3(std::cos(a), std::sin(a), 0));
    };
    QPointF last = onRing(45);
    QTest::mousePress(view_, Qt::LeftButton, Qt::NoModifier, last.toPoint());
    QCOMPARE(ik_->grabbedPart(), IkGizmo::RingZ);
    for (int deg = 50; deg <= 75; deg += 5) QTest::mouseMove(view_, (last = onRing(deg)).toPoint());
    QTest::mouseRelease(view_, Qt::LeftButton, Qt::NoModifier, last.toPoint());
    // The angle the whole-pixel cursor positions sweep in the ring's plane (z = p0.z).
    auto planeAngle = [&](QPointF px) {
      vtkRenderer* ren = view_->renderer();
      const int H = view_->renderWindow()->GetSize()[1];
      Vec3 e[2];
      for (int k = 0; k < 2; ++k) {
        ren->SetDisplayPoint(px.x(), H - 1 - px.y(), k);
        ren->DisplayToWorld();
        const double* w = ren->GetWorldPoint();
        e[k] = Vec3(w[0], w[1], w[2]) / w[3];
      }
      const Vec3 hit = e[0] + (p0.z() - e[0].z()) / (e[1].z() - e[0].z()) * (e[1] - e[0]);
      return std::atan2(hit.y() - p0.y(), hit.x() - p0.x());
    };
    const double expected = planeAngle(last.toPoint()) - planeAngle(onRing(45).toPoint());
    // (about 30 degrees: the ring is seen obliquely, so whole pixels shift the angle by a few)
    QVERIFY2(std::abs(expected - M_PI / 6) < 0.15, qPrintable(QString::number(expected * 180 / M_PI)));
    const Eigen::AngleAxisd turn(pose(ik_->draggedFrame()).rotation() * R0.transpose());
    QVERIFY2(std::abs(turn.angle() - expected) < 1e-6, qPrintable(QString::number(turn.angle() * 180 / M_PI)));
    QVERIFY(turn.axis().z() > 0.999);
    QVERIFY((linkOrigin() - p0).norm() < 1e-6);
    QVERIFY(withinLimits(doc_->q()));
  }

  void escapeCancels() {
    const Eigen::VectorXd q0 = doc_->q();
    const Vec3 p0 = linkOrigin();
    const QPointF from = project(p0);
    QTest::mousePress(view_, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    QTest::mouseMove(view_, (from + QPointF(25, 10)).toPoint());
    QVERIFY(doc_->q() != q0);
    QTest::keyClick(view_, Qt::Key_Escape);
    QVERIFY(!ik_->isDragging());
    QVERIFY(doc_->q() == q0);
    QTest::mouseRelease(view_, Qt::LeftButton, Qt::NoModifier, (from + QPointF(25, 10)).toPoint());
    QCOMPARE(undo_->count(), 0);
  }

  // The smallest singular value against a finite-difference Jacobian of the link origin.
  void singularityReadout() {
    ik_->singularityAction()->setChecked(true);
    ik_->ellipsoidAction()->setChecked(true);
    QVERIFY(ik_->gizmo().ellipsoidVisible());
    const dyn::Model& m = doc_->model();
    dyn::Data d(m);
    const int f = ik_->draggedFrame();
    auto origin = [&](const Eigen::VectorXd& q) {
      dyn::forwardKinematics(m, d, q);
      dyn::updateFrames(m, d);
      return Vec3(d.oMf[f].translation());
    };
    Eigen::Matrix<double, 3, Eigen::Dynamic> J(3, m.nv);
    const double h = 1e-6;
    for (int k = 0; k < m.nv; ++k) {
      Eigen::VectorXd qp = doc_->q(), qm = doc_->q();
      qp[k] += h;
      qm[k] -= h;
      J.col(k) = (origin(qp) - origin(qm)) / (2 * h);
    }
    const double sigmaMin = Eigen::JacobiSVD<Eigen::MatrixXd>(J).singularValues()[2];
    QVERIFY2(std::abs(ik_->readout().minSingularValue - sigmaMin) < 1e-6,
             qPrintable(QString("%1 vs %2").arg(ik_->readout().minSingularValue).arg(sigmaMin)));
    ik_->singularityAction()->setChecked(false);
    ik_->ellipsoidAction()->setChecked(false);
    QVERIFY(!ik_->gizmo().ellipsoidVisible());
  }

  // The handle is drawn on top of the robot in its colours.
  void gizmoIsVisible() {
    ik_->singularityAction()->setChecked(true);
    ik_->ellipsoidAction()->setChecked(true);
    doc_->setSelectedBody(doc_->model().bodyIndex("panda_link3"));
    ik_->pinSelectedAction()->trigger();
    doc_->setSelectedBody(-1);
    const QImage img = view_->grabFramebuffer();
    save(img, "ik_gizmo.png");
    QVERIFY(countPixels(img, 0) > 200);  // x arrow and ring
    QVERIFY(countPixels(img, 1) > 200);  // y
    QVERIFY(countPixels(img, 2) > 200);  // z
    ik_->dragModeAction()->setChecked(false);
    const QImage without = view_->grabFramebuffer();
    QVERIFY(countPixels(without, 1) < countPixels(img, 1) / 10);
    ik_->singularityAction()->setChecked(false);
    ik_->ellipsoidAction()->setChecked(false);
    ik_->clearPins();
  }

  // Exported images (grabImage: File > Export image, --screenshot) are figures of the robot: the
  // handle, the pins, the ellipsoid and the read-out stay on screen only. The export with drag
  // mode on equals the one with it off; the widget's own frame still has the handle.
  void exportsLeaveOverlaysOut() {
    ik_->singularityAction()->setChecked(true);
    ik_->ellipsoidAction()->setChecked(true);
    ik_->togglePin(doc_->model().frameIndex("panda_link3"));
    QVERIFY(ik_->gizmo().visible() && ik_->gizmo().ellipsoidVisible());
    QVERIFY(!ik_->gizmo().text().empty());
    QVERIFY(view_->isHiddenInExports(ik_->gizmo().overlay()));
    QVERIFY(!view_->isHiddenInExports(view_->renderer()));

    const QImage screen = view_->grabFramebuffer();
    const QImage exported = view_->grabImage(screen.width(), screen.height());
    save(exported, "ik_exported.png");
    QVERIFY(countPixels(screen, 1) > 200);                    // the green arrow and ring
    QVERIFY(countPixels(exported, 1) < 30);                   // only the small world-axes triad
    QVERIFY(ik_->gizmo().visible());                          // still on for the user
    QVERIFY(countPixels(view_->grabFramebuffer(), 1) > 200);  // and drawn in the next frame

    ik_->dragModeAction()->setChecked(false);
    ik_->clearPins();
    const QImage plain = view_->grabImage(screen.width(), screen.height());
    QCOMPARE(plain.size(), exported.size());
    int differing = 0;
    for (int y = 0; y < plain.height(); ++y)
      for (int x = 0; x < plain.width(); ++x) differing += plain.pixel(x, y) != exported.pixel(x, y);
    QVERIFY2(differing == 0, qPrintable(QString("%1 pixels differ").arg(differing)));
    ik_->singularityAction()->setChecked(false);
    ik_->ellipsoidAction()->setChecked(false);
  }

  // The velocity ellipsoid is drawn in metres: semi-axes sigma_k x s (s fixed, stated in the
  // read-out), i.e. the drawn shape matrix M M^T equals s^2 Jv Jv^T with Jv from the engine's
  // Jacobian; the force ellipsoid's equals k^2 (Jv Jv^T)^-1. Zooming or dragging leaves the scale
  // alone, so a size change means a change of manipulability. UR5 at a bent pose.
  void ellipsoidInMetres() {
    VtkViewport view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    RobotDocument doc;
    QString error;
    QVERIFY2(doc.load(robot("ur5.urdf"), &error), qPrintable(error));
    Eigen::VectorXd q(6);
    q << 0.3, -1.1, 1.4, -1.6, -1.2, 0.4;
    QVERIFY(doc.setQ(q));
    RobotScene scene(view.renderer());
    scene.setModel(doc.model(), doc.sourceFile());
    connect(&doc, &RobotDocument::poseChanged, &scene, [&] { scene.updatePose(doc.model(), doc.data()); });
    scene.updatePose(doc.model(), doc.data());
    scene.setViewPreset(RobotScene::Iso);
    QUndoStack undo;
    IkDragController ik(&doc, &view, view.renderer(), &undo);
    ik.dragModeAction()->setChecked(true);
    ik.ellipsoidAction()->setChecked(true);
    QVERIFY(!view.grabImage().isNull());
    const dyn::Model& m = doc.model();
    const int f = ik.draggedFrame();
    vtkActor* ell = ik.gizmo().ellipsoidActor();
    QVERIFY(ik.gizmo().ellipsoidVisible());

    const double s = ik.velocityEllipsoidScale();
    QCOMPARE(s, IkDragController::kVelocitySeconds);
    Eigen::MatrixXd Jv = linearJacobian(m, q, f);
    Eigen::Matrix3d A = Jv * Jv.transpose();
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Jv);
    const Vec3 sigma = svd.singularValues().head<3>();
    QVERIFY(sigma[2] > 0.05);  // far from a singularity: nothing capped
    Eigen::Matrix3d M = linearPart(ell);
    QVERIFY2(relativeError(M * M.transpose(), s * s * A) < 1e-9,
             qPrintable(QString::number(relativeError(M * M.transpose(), s * s * A))));
    const Vec3 drawn = Eigen::JacobiSVD<Eigen::Matrix3d>(M).singularValues();
    QVERIFY((drawn - s * sigma).norm() < 1e-9 * sigma[0]);
    QVERIFY((ik.readout().ellipsoidValues - sigma).norm() < 1e-9);
    QVERIFY((ik.readout().ellipsoidRadii - s * sigma).norm() < 1e-9);
    QVERIFY((translationOf(ell) - doc.data().oMf[f].translation()).norm() < 1e-12);
    // The drawn geometry (the mapper's points through the actor's matrix): its half-extent along
    // world axis j is s sqrt(A_jj) for the ellipsoid {c + M u : |u| <= 1}; the tessellated sphere
    // lies inside the true one, so a little less.
    const Eigen::Matrix<double, 3, 2> box = drawnBox(ell);
    for (int j = 0; j < 3; ++j) {
      const double half = (box(j, 1) - box(j, 0)) / 2, expected = s * std::sqrt(A(j, j));
      QVERIFY2(half <= expected * (1 + 1e-9) && half > 0.98 * expected,
               qPrintable(QString("axis %1: %2 vs %3").arg(j).arg(half).arg(expected)));
      QVERIFY(std::abs((box(j, 1) + box(j, 0)) / 2 - doc.data().oMf[f].translation()[j]) < 0.02 * expected);
    }
    const QString text = QString::fromStdString(ik.gizmo().text());
    QVERIFY2(text.startsWith(QString("velocity ellipsoid × %1 s: semi-axes %2, ").arg(s).arg(sigma[0], 0, 'g', 3)) &&
                 text.contains("m/s per rad/s"),
             qPrintable(text));
    QVERIFY(!ik.readout().singular);

    // Zoomed in: the handle shrinks back to its pixel size, the ellipsoid keeps its metres.
    view.renderer()->GetActiveCamera()->Zoom(2.0);
    const double handle = ik.gizmo().scale();
    view.grabFramebuffer();  // an on-screen frame (exports do not draw the handle)
    QVERIFY(ik.gizmo().scale() < 0.75 * handle);
    QVERIFY(linearPart(ell) == M);

    // Force: semi-axes k / sigma_k, k in m/N from the model's reach (a 1-2-5 number).
    ik.forceEllipsoidAction()->setChecked(true);
    const double k = ik.forceEllipsoidScale();
    QVERIFY(k > 0);
    QCOMPARE(k, ikdrag::roundScale(IkDragController::kForceScalePerReach2 * ik.reach() * ik.reach()));
    M = linearPart(ell);
    const Eigen::Matrix3d expectedForce = k * k * A.inverse();
    QVERIFY2(relativeError(M * M.transpose(), expectedForce) < 1e-8,
             qPrintable(QString::number(relativeError(M * M.transpose(), expectedForce))));
    QVERIFY(QString::fromStdString(ik.gizmo().text()).startsWith(QString("force ellipsoid × %1 m/N").arg(k)));
    ik.forceEllipsoidAction()->setChecked(false);

    // While dragging the centre the scale stays put: the drawn ellipsoid is s^2 Jv Jv^T at the new q.
    vtkRenderer* r = view.renderer();
    const Vec3 p0 = doc.data().oMf[f].translation();
    r->SetWorldPoint(p0.x(), p0.y(), p0.z(), 1.0);
    r->WorldToDisplay();
    const QPointF from(r->GetDisplayPoint()[0], view.renderWindow()->GetSize()[1] - 1 - r->GetDisplayPoint()[1]);
    ik.positionOnlyAction()->setChecked(true);
    QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    QCOMPARE(ik.grabbedPart(), IkGizmo::Centre);
    for (int i = 1; i <= 4; ++i) QTest::mouseMove(&view, (from + i * QPointF(8, 6)).toPoint());
    QVERIFY(doc.q() != q);
    QCOMPARE(ik.velocityEllipsoidScale(), s);
    Jv = linearJacobian(m, doc.q(), f);
    A = Jv * Jv.transpose();
    M = linearPart(ell);
    QVERIFY(relativeError(M * M.transpose(), s * s * A) < 1e-9);
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, (from + QPointF(32, 24)).toPoint());
    // A stated scale of the user's choosing.
    ik.setVelocityEllipsoidScale(0.5);
    M = linearPart(ell);
    QVERIFY(relativeError(M * M.transpose(), 0.25 * A) < 1e-9);
    QVERIFY(QString::fromStdString(ik.gizmo().text()).startsWith("velocity ellipsoid × 0.5 s"));
  }

  // Stated scales are 1-2-5 numbers at or below the ideal value.
  void ellipsoidScaleIsRound() {
    QCOMPARE(ikdrag::roundScale(0.3), 0.2);
    QCOMPARE(ikdrag::roundScale(0.0886), 0.05);
    QCOMPARE(ikdrag::roundScale(0.1), 0.1);
    QCOMPARE(ikdrag::roundScale(1000.0), 1000.0);
    QCOMPARE(ikdrag::roundScale(7.0), 5.0);
    QCOMPARE(ikdrag::roundScale(19.99), 10.0);
    QCOMPARE(ikdrag::roundScale(0.0), 1.0);  // no length: a neutral 1
    const ikdrag::DrawnEllipsoid e = ikdrag::drawnEllipsoid(Vec3(2, 40, INFINITY), 0.1, 3.0, 1e-3);
    QCOMPARE(e.radii, Vec3(0.2, 3.0, 3.0));
    QVERIFY(!e.capped[0] && e.capped[1] && e.capped[2]);
    QCOMPARE(ikdrag::drawnEllipsoid(Vec3(1, 1, 0), 0.1, 3.0, 1e-3).radii, Vec3(0.1, 0.1, 1e-3));
  }

  // A planar arm moves its tip in the plane only: sigma_3 = 0, so the force ellipsoid is unbounded
  // along the plane's normal. The drawing stops at the cap and the read-out says "singular"; the
  // in-plane semi-axes are still k / sigma.
  void forceEllipsoidCappedAtSingularity() {
    VtkViewport view;
    view.resize(600, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    RobotDocument doc;
    QString error;
    QVERIFY2(doc.load(robot("planar3.dh"), &error), qPrintable(error));
    Eigen::VectorXd q(3);
    q << 0.3, 1.0, 0.8;
    QVERIFY(doc.setQ(q));
    RobotScene scene(view.renderer());
    scene.setModel(doc.model(), doc.sourceFile());
    scene.updatePose(doc.model(), doc.data());
    QUndoStack undo;
    IkDragController ik(&doc, &view, view.renderer(), &undo);
    ik.dragModeAction()->setChecked(true);
    ik.ellipsoidAction()->setChecked(true);
    ik.forceEllipsoidAction()->setChecked(true);
    QVERIFY(ik.isActive());
    QVERIFY2(std::abs(ik.reach() - 0.65) < 1e-9, qPrintable(QString::number(ik.reach())));  // 0.3 + 0.25 + 0.1

    const Eigen::MatrixXd Jv = linearJacobian(doc.model(), q, ik.draggedFrame());
    const Vec3 sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(Jv).singularValues().head<3>();
    QVERIFY(sigma[2] < 1e-12 && sigma[1] > 0.05);
    const double k = ik.forceEllipsoidScale(), cap = ik.ellipsoidCap();
    QCOMPARE(cap, 2 * ik.reach());
    const Vec3 drawn = Eigen::JacobiSVD<Eigen::Matrix3d>(linearPart(ik.gizmo().ellipsoidActor())).singularValues();
    QVERIFY2(std::abs(drawn[0] - cap) < 1e-12, qPrintable(QString::number(drawn[0])));  // the normal, capped
    QVERIFY(std::abs(drawn[1] - k / sigma[1]) < 1e-9 && std::abs(drawn[2] - k / sigma[0]) < 1e-9);
    QVERIFY(ik.readout().singular);
    const QString text = QString::fromStdString(ik.gizmo().text());
    QVERIFY2(text.contains(QString("singular (> %1)").arg(cap / k, 0, 'g', 3)), qPrintable(text));
    // The velocity ellipsoid of the same pose: flat (a disc in the plane), nothing singular.
    ik.forceEllipsoidAction()->setChecked(false);
    QVERIFY(!ik.readout().singular);
    const double s = ik.velocityEllipsoidScale();
    const Vec3 flat = Eigen::JacobiSVD<Eigen::Matrix3d>(linearPart(ik.gizmo().ellipsoidActor())).singularValues();
    QVERIFY(std::abs(flat[0] - s * sigma[0]) < 1e-9 && std::abs(flat[1] - s * sigma[1]) < 1e-9);
    QVERIFY(flat[2] <= 1e-4 * ik.reach() + 1e-15);
  }

  // The real window with a UR5 in drag mode, both ellipsoids, and File > Export image's result.
  // With DYNSCOPE_GRAB_DIR set the pictures are kept for a human to look at.
  void windowExportHasNoOverlays() {
    MainWindow window(MainWindow::Settings::Ephemeral);
    QStringList errors;
    window.setErrorHandler([&errors](const QString&, const QString& text) { errors << text; });
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QString error;
    QVERIFY2(window.document()->load(robot("ur5.urdf"), &error), qPrintable(error));
    Eigen::VectorXd q(6);
    q << 0.3, -1.1, 1.4, -1.6, -1.2, 0.4;
    QVERIFY(window.document()->setQ(q));
    window.scene()->fitToRobot();
    window.ikDock()->raise();
    IkDragController* ik = window.ikController();
    ik->dragModeAction()->setChecked(true);
    ik->ellipsoidAction()->setChecked(true);
    ik->singularityAction()->setChecked(true);
    QTest::qWait(100);
    QVERIFY(countPixels(window.viewport()->grabFramebuffer(), 1) > 200);
    save(window.grab().toImage(), "ik_window_velocity.png");
    ik->forceEllipsoidAction()->setChecked(true);
    QTest::qWait(100);
    save(window.grab().toImage(), "ik_window_force.png");

    QTemporaryDir tmp;
    const QString path = tmp.filePath("export.png");
    QVERIFY(window.exportImage(path, QSize(1280, 720)));
    const QImage exported(path);
    QCOMPARE(exported.size(), QSize(1280, 720));
    save(exported, "ik_window_export.png");
    QVERIFY(ik->gizmo().visible());
    ik->dragModeAction()->setChecked(false);
    QVERIFY(window.exportImage(tmp.filePath("plain.png"), QSize(1280, 720)));
    QVERIFY(QImage(tmp.filePath("plain.png")) == exported);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
  }

  // A floating-base humanoid (spherical joints, quaternions) with both feet pinned: dragging a hand
  // moves the body over the feet, which stay put.
  void humanoidFeetPinned() {
    VtkViewport view;
    view.resize(700, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    RobotDocument doc;
    doc.setFloatingBase(true);
    QString error;
    QVERIFY2(doc.load(robot("humanoid.urdf"), &error), qPrintable(error));
    RobotScene scene(view.renderer());
    scene.setModel(doc.model(), doc.sourceFile());
    scene.updatePose(doc.model(), doc.data());
    scene.setViewPreset(RobotScene::Iso);
    QUndoStack undo;
    IkDragController ik(&doc, &view, view.renderer(), &undo);
    ik.dragModeAction()->setChecked(true);
    ik.positionOnlyAction()->setChecked(true);
    const dyn::Model& m = doc.model();
    QVERIFY(m.floatingBase);
    const int feet[2] = {m.frameIndex("left_foot"), m.frameIndex("right_foot")};
    dyn::Transform<double> held[2];
    for (int k = 0; k < 2; ++k) {
      ik.togglePin(feet[k]);
      held[k] = doc.data().oMf[feet[k]];
    }
    QCOMPARE(ik.gizmo().pinMarkerCount(), 2);
    doc.setSelectedBody(m.bodyIndex("right_hand"));
    const int hand = ik.draggedFrame();
    QCOMPARE(m.frames[hand].name, std::string("right_hand"));
    QVERIFY(!view.grabImage().isNull());
    save(view.grabImage(), "ik_humanoid.png");

    const Vec3 p0 = doc.data().oMf[hand].translation();
    vtkRenderer* r = view.renderer();
    r->SetWorldPoint(p0.x(), p0.y(), p0.z(), 1.0);
    r->WorldToDisplay();
    const QPointF from(r->GetDisplayPoint()[0], view.renderWindow()->GetSize()[1] - 1 - r->GetDisplayPoint()[1]);
    QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    QCOMPARE(ik.grabbedPart(), IkGizmo::Centre);
    for (int k = 1; k <= 5; ++k) QTest::mouseMove(&view, (from + k * QPointF(6, -4)).toPoint());
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, (from + QPointF(30, -20)).toPoint());

    QVERIFY((doc.data().oMf[hand].translation() - p0).norm() > 0.01);
    QVERIFY(doc.q().allFinite());
    for (int k = 0; k < 2; ++k) {
      QVERIFY((doc.data().oMf[feet[k]].translation() - held[k].translation()).norm() < 1e-6);
      QVERIFY((doc.data().oMf[feet[k]].rotation() - held[k].rotation()).norm() < 1e-6);
    }
    QCOMPARE(undo.count(), 1);
    undo.undo();
    QVERIFY((doc.data().oMf[hand].translation() - p0).norm() < 1e-12);
  }

  // MainWindow deletes its children in creation order: the viewport (and its renderer) first.
  void survivesViewportDeletion() {
    auto* view = new VtkViewport;
    view->resize(200, 150);
    QUndoStack undo;
    IkDragController ik(doc_, view, view->renderer(), &undo);
    ik.dragModeAction()->setChecked(true);
    QVERIFY(!view->grabImage().isNull());
    delete view;
    QVERIFY(doc_->setQ(ready_ * 0.5));
    ik.dragModeAction()->setChecked(false);
  }

  void dockFollowsController() {
    IkDock dock(ik_, doc_);
    const dyn::Model& m = doc_->model();
    QCOMPARE(dock.linkCombo()->count(), int(m.frames.size()));
    QCOMPARE(dock.linkCombo()->currentData().toInt(), ik_->draggedFrame());
    QCOMPARE(dock.lockList()->count(), m.N);
    dock.lockList()->item(1)->setCheckState(Qt::Checked);
    QVERIFY(ik_->isJointLocked(2));
    ik_->setJointLocked(2, false);
    QCOMPARE(dock.lockList()->item(1)->checkState(), Qt::Unchecked);
    ik_->togglePin(m.frameIndex("panda_link2"));
    QCOMPARE(dock.pinList()->count(), 1);
    QCOMPARE(dock.pinList()->item(0)->text(), QString("panda_link2"));
    dock.resize(320, 620);
    save(dock.grab().toImage(), "ik_dock.png");
    ik_->clearPins();
    QCOMPARE(dock.pinList()->count(), 0);
  }

  // A hand's fingers are locked when the robot loads: dragging the hand's TCP moves the arm and leaves
  // the gripper as it was; choosing a finger to drag frees the finger (issue 37). Runs last: it loads
  // the gripper and puts the panda back.
  void fingersLockedUnlessAsked() {
    QString error;
    QVERIFY2(doc_->load(robot("panda_gripper.urdf"), &error), qPrintable(error));
    scene_->setModel(doc_->model(), doc_->sourceFile());
    const dyn::Model& m = doc_->model();
    QCOMPARE(m.frames[ik_->draggedFrame()].name, std::string("panda_hand_tcp"));
    std::vector<int> fingers;
    for (int j = 1; j <= m.N; ++j)
      if (m.jointNames[j].find("finger") != std::string::npos && m.joints[j].nv > 0) fingers.push_back(j);
    QVERIFY(!fingers.empty());
    for (int j = 1; j <= m.N; ++j)
      QCOMPARE(ik_->isJointLocked(j), std::find(fingers.begin(), fingers.end(), j) != fingers.end());
    Eigen::VectorXd q = doc_->q();
    q.head(7) = ready_;
    for (int j : fingers) q[m.joints[j].idx_q] = 0.02;  // half open
    QVERIFY(doc_->setQ(q));
    scene_->setViewPreset(RobotScene::Iso);
    view_->grabImage();
    const Vec3 p0 = linkOrigin();
    const double s = ik_->gizmo().scale();
    const QPointF from = project(p0 + 0.85 * s * Vec3::UnitX());
    QPointF dir = project(p0 + s * Vec3::UnitX()) - project(p0);
    dir /= std::hypot(dir.x(), dir.y());
    drag(from, from + 40 * dir, 4);
    QVERIFY((linkOrigin() - p0).norm() > 1e-3);  // the hand moved
    for (int j : fingers) QCOMPARE(doc_->q()[m.joints[j].idx_q], 0.02);
    // A finger chosen: its joint is free to move.
    doc_->setSelectedBody(fingers.front());
    QVERIFY(!ik_->isJointLocked(fingers.front()));
    doc_->setSelectedBody(-1);
    QVERIFY2(doc_->load(robot("panda.urdf"), &error), qPrintable(error));
    scene_->setModel(doc_->model(), doc_->sourceFile());
  }
};

QTEST_MAIN(TestIkDrag)
#include "test_ik_drag.moc"
