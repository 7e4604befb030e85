// The 3D view's lecture aids as a lecturer sees them at 1920 x 1080 (issue 22): the selected body's
// highlight stands out against its links' own colour (orange, grey, white, black links); the arrow
// legend reads at 4.5:1 on light and dark scenes; in lecture mode on the Stanford arm every arrow is
// at least TraceArrowOverlay::kMinPixels long on screen and arrows of one kind from different bodies
// do not overlap (or the legend names the reduced scale); at load the camera frames the robot as
// it stands (not a 40 m floor), a raised arm widens that framing, and F fits the current pose.
// With DYNSCOPE_SCREENSHOT_DIR set, screenshots for a human to judge.
#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkMapper.h>
#include <vtkMatrix4x4.h>
#include <vtkPropCollection.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QOpenGLWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <memory>

#include "arrow_readback.hpp"
#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/lecture_document.hpp"
#include "scene/robot_scene.hpp"
#include "scene/scene_colours.hpp"
#include "scene/trace_arrow_overlay.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

using Eigen::Vector2d;
using Eigen::Vector3d;

namespace {

QString robot(const char* file) { return QDir(DYNSCOPE_ROBOTS_DIR).filePath(file); }

void keep(const QImage& img, const QString& name) {
  const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR");
  if (!dir.isEmpty()) img.save(QDir(dir).filePath(name));
}

scene::Rgb rgbOf(QRgb p) { return {qRed(p) / 255.0, qGreen(p) / 255.0, qBlue(p) / 255.0}; }

// Display pixels (origin bottom-left) of a world point.
Vector2d display(vtkRenderer* r, const Vector3d& p) {
  r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
  r->WorldToDisplay();
  const double* d = r->GetDisplayPoint();
  return {d[0], d[1]};
}

// World corners of every visible geometry actor's own bounding box, as posed; with `movingOnly`, of
// the bodies that move (not the world's floor).
std::vector<Vector3d> corners(RobotScene& scene, bool movingOnly = false) {
  std::vector<Vector3d> out;
  for (vtkActor* a : scene.geometryActors()) {
    if (!a->GetVisibility() || (movingOnly && scene.bodyOfActor(a) == 0)) continue;
    const double* b = a->GetMapper()->GetBounds();
    for (int k = 0; k < 8; ++k) {
      const double local[4] = {b[k & 1 ? 1 : 0], b[k & 2 ? 3 : 2], b[k & 4 ? 5 : 4], 1.0};
      double world[4];
      a->GetMatrix()->MultiplyPoint(local, world);
      out.emplace_back(world[0], world[1], world[2]);
    }
  }
  return out;
}

using dyn::testing::ReadArrow;
using dyn::testing::readArrow;

double pointToSegment(const Vector2d& p, const Vector2d& a, const Vector2d& b) {
  const Vector2d d = b - a;
  const double t = d.squaredNorm() > 0 ? std::clamp((p - a).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
  return (a + t * d - p).norm();
}
// Sampled: 200 points along each segment (a crossing comes within a pixel or two of the other).
double segmentGap(const Vector2d& a0, const Vector2d& a1, const Vector2d& b0, const Vector2d& b1) {
  double d = 1e300;
  for (int k = 0; k <= 200; ++k) {
    d = std::min(d, pointToSegment(a0 + (a1 - a0) * (k / 200.0), b0, b1));
    d = std::min(d, pointToSegment(b0 + (b1 - b0) * (k / 200.0), a0, a1));
  }
  return d;
}

QByteArray oneLink(const scene::Rgb& c) {
  return QStringLiteral(
             "<robot name=\"c\"><link name=\"base\"/>"
             "<joint name=\"j\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/>"
             "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>"
             "<link name=\"arm\"><inertial><mass value=\"1\"/>"
             "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
             "<visual><geometry><box size=\"0.4 0.4 0.4\"/></geometry>"
             "<material name=\"m\"><color rgba=\"%1 %2 %3 1\"/></material></visual></link></robot>")
      .arg(c[0])
      .arg(c[1])
      .arg(c[2])
      .toUtf8();
}

}  // namespace

class TestSceneAids : public QObject {
  Q_OBJECT
  VtkViewport* view_ = nullptr;
  QTemporaryDir tmp_;

  void pose(RobotScene& scene, const dyn::Model& m, dyn::Data& d, const Eigen::VectorXd& q) {
    dyn::forwardKinematics(m, d, q);
    scene.updatePose(m, d);
    QCoreApplication::processEvents();
  }
  // Every corner of the robot at `q` above the ground inside the view (pixels, with 1 px of slack).
  bool inside(RobotScene& scene, const dyn::Model& m, dyn::Data& d, const Eigen::VectorXd& q, QString* why,
              bool movingOnly = false) {
    pose(scene, m, d, q);
    const int* size = view_->renderer()->GetSize();
    for (const Vector3d& c : corners(scene, movingOnly)) {
      if (scene.up().dot(c) < scene.groundHeight()) continue;  // through the floor: not framed (RobotScene::updatePose)
      const Vector2d p = display(view_->renderer(), c);
      if (p.x() < -1 || p.y() < -1 || p.x() > size[0] + 1 || p.y() > size[1] + 1) {
        *why = QString("corner (%1, %2, %3) at pixel (%4, %5) of %6 x %7")
                   .arg(c.x())
                   .arg(c.y())
                   .arg(c.z())
                   .arg(p.x())
                   .arg(p.y())
                   .arg(size[0])
                   .arg(size[1]);
        return false;
      }
    }
    return true;
  }

 private slots:
  void initTestCase() {
    view_ = new VtkViewport;
    view_->resize(960, 540);  // the 3D view's share of a 1920 x 1080 window
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_));
    QTRY_VERIFY(view_->isValid());
  }
  void cleanupTestCase() { delete view_; }

  // The colour measures against published values: CIELAB of sRGB red (53.24, 80.09, 67.20);
  // WCAG's black on white, 21:1.
  void colourMeasures() {
    QVERIFY(std::abs(scene::deltaE({1, 1, 1}, {0, 0, 0}) - 100) < 0.05);
    QVERIFY(std::abs(scene::deltaE({1, 0, 0}, {0, 0, 0}) - std::sqrt(53.24 * 53.24 + 80.09 * 80.09 + 67.2 * 67.2)) <
            0.1);
    QVERIFY(std::abs(scene::contrastRatio({0, 0, 0}, {1, 1, 1}) - 21) < 1e-9);
    QVERIFY(scene::deltaE({0.95, 0.55, 0.10}, scene::kHighlightOrange) < 15);  // the complaint: orange on orange
  }

  void highlightContrastsWithTheLink_data() {
    QTest::addColumn<double>("r");
    QTest::addColumn<double>("g");
    QTest::addColumn<double>("b");
    QTest::newRow("orange (the DH joints')") << 0.95 << 0.55 << 0.10;
    QTest::newRow("highlight orange") << 1.0 << 0.62 << 0.05;
    QTest::newRow("grey") << 0.7 << 0.7 << 0.7;
    QTest::newRow("white") << 1.0 << 1.0 << 1.0;
    QTest::newRow("black") << 0.05 << 0.05 << 0.05;
    QTest::newRow("blue (the DH prismatic joints')") << 0.20 << 0.45 << 0.90;
  }
  void highlightContrastsWithTheLink() {
    QFETCH(double, r);
    QFETCH(double, g);
    QFETCH(double, b);
    const scene::Rgb link{r, g, b};
    const QString file = tmp_.filePath("link.urdf");
    {
      QFile f(file);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(oneLink(link));
    }
    const dyn::Model m = dyn::loadModel(file.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setModel(m, file);
    scene.setShowGrid(false);
    scene.setShowWorldAxes(false);
    pose(scene, m, d, m.neutral());
    scene.fitToRobot();
    QCOMPARE(scene.geometryActors().size(), 1);
    vtkActor* arm = scene.geometryActors().front();
    const QImage before = view_->grabImage();
    scene.setSelectedBody(scene.bodyOfActor(arm));
    double c[3];
    arm->GetProperty()->GetColor(c);
    const scene::Rgb highlight{c[0], c[1], c[2]};
    QVERIFY2(scene::deltaE(highlight, link) >= scene::kHighlightDeltaE,
             qPrintable(QString("ΔE %1 between the highlight and the link").arg(scene::deltaE(highlight, link))));
    // As drawn: the middle of the box changes colour by as much, whatever the shading.
    const QImage after = view_->grabImage();
    const QPoint mid(after.width() / 2, after.height() / 2);
    const double drawn = scene::deltaE(rgbOf(before.pixel(mid)), rgbOf(after.pixel(mid)));
    QVERIFY2(drawn >= 30, qPrintable(QString("ΔE %1 on screen").arg(drawn)));
    if (r > 0.9 && g < 0.6) keep(after, "highlight_on_orange.png");
  }

  // Every line of the legend, as set on its text actor, reads at 4.5:1 or better on its backing,
  // with the scene behind it white or black.
  void legendReadsOnLightAndDark() {
    TraceArrowOverlay overlay(view_->renderer());
    std::vector<TraceArrowOverlay::Arrow> arrows;
    for (int k = 0; k < TraceArrowOverlay::kKinds; ++k) {
      dyn::TraceArrow a;
      a.body = 1;
      a.kind = dyn::ArrowKind(k);
      a.vector = Vector3d(0.3, 0.2 * k, 0.1);
      arrows.push_back({a, true});
    }
    overlay.setArrows(arrows);
    int lines = 0;
    vtkPropCollection* props = overlay.overlay()->GetViewProps();
    props->InitTraversal();
    for (vtkProp* p = props->GetNextProp(); p; p = props->GetNextProp()) {
      auto* t = vtkTextActor::SafeDownCast(p);
      if (!t || !t->GetVisibility()) continue;
      ++lines;
      vtkTextProperty* tp = t->GetTextProperty();
      const scene::Rgb text{tp->GetColor()[0], tp->GetColor()[1], tp->GetColor()[2]};
      const scene::Rgb panel{tp->GetBackgroundColor()[0], tp->GetBackgroundColor()[1], tp->GetBackgroundColor()[2]};
      for (const scene::Rgb& behind : {scene::Rgb{1, 1, 1}, scene::Rgb{0, 0, 0}, scene::Rgb{0.32, 0.34, 0.4}}) {
        const double ratio = scene::contrastRatio(text, scene::over(panel, tp->GetBackgroundOpacity(), behind));
        QVERIFY2(ratio >= 4.5, qPrintable(QString("'%1': %2:1 over (%3, %4, %5)")
                                              .arg(QString::fromUtf8(t->GetInput()))
                                              .arg(ratio)
                                              .arg(behind[0])
                                              .arg(behind[1])
                                              .arg(behind[2])));
      }
    }
    QVERIFY(lines >= TraceArrowOverlay::kKinds + 1);  // the header and a line per kind (and a note)
    // The light-cyan angular velocity the lecturer could not read: a darker cyan now.
    const Vector3d w = TraceArrowOverlay::legendTextColour(dyn::ArrowKind::AngularVelocity);
    QVERIFY(w.z() > w.x() && w.y() > w.x());  // still a cyan
  }

  // At load the camera frames the robot as it stands, large (its whole reach made a UR5 about 100 px
  // wide in presentation mode); F fits the current pose the same way. A 40 m floor plane (an MJCF
  // model's) is scenery: the 1.5 m humanoid on it fills at least a third of the view's height.
  void loadFramesTheRobot_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("ur5") << robot("ur5.urdf");
    QTest::newRow("stanford_arm") << robot("stanford_arm.dh");
    QTest::newRow("humanoid") << robot("humanoid.urdf");
    QTest::newRow("humanoid on a 40 m floor") << QString(DYNSCOPE_TEST_DATA_DIR "/mjcf/floor_humanoid.xml");
  }
  void loadFramesTheRobot() {
    QFETCH(QString, file);
    const dyn::Model m = dyn::loadModel(file.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setAutoFit(true);
    scene.setModel(m, file);
    const Eigen::VectorXd home = m.home();
    pose(scene, m, d, home);
    keep(view_->grabImage(), QString("load_%1.png").arg(QFileInfo(file).baseName()));
    QString why;
    QVERIFY2(inside(scene, m, d, home, &why, true), qPrintable(why));
    // The robot's share of the view: of its width or height, whichever is the larger; and of its height.
    const auto fill = [&](double* ofHeight) {
      double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
      for (const Vector3d& c : corners(scene, true)) {
        const Vector2d p = display(view_->renderer(), c);
        for (int k = 0; k < 2; ++k) {
          lo[k] = std::min(lo[k], p[k]);
          hi[k] = std::max(hi[k], p[k]);
        }
      }
      const int* size = view_->renderer()->GetSize();
      *ofHeight = (hi[1] - lo[1]) / size[1];
      return std::max((hi[0] - lo[0]) / size[0], (hi[1] - lo[1]) / size[1]);
    };
    double heightAtLoad = 0, heightAfterF = 0;
    const double atLoad = fill(&heightAtLoad);
    scene.fitToRobot();
    const double afterF = fill(&heightAfterF);
    const QString figures = QString("fill %1 (height %2) at load, %3 (height %4) after F")
                                .arg(atLoad)
                                .arg(heightAtLoad)
                                .arg(afterF)
                                .arg(heightAfterF);
    QVERIFY2(atLoad > 0.6 && atLoad <= 1.0 && afterF > 0.6 && afterF <= 1.0, qPrintable(figures));
    if (file.endsWith("floor_humanoid.xml"))
      QVERIFY2(heightAtLoad >= 1.0 / 3 && heightAfterF >= 1.0 / 3, qPrintable(figures));
  }

  // Saha's planar arm falls along -y: the grid lies across y below the arm (not in the arm's plane),
  // the camera holds +y up, and the robot at load is framed above that floor.
  void gridFollowsGravity() {
    const QString file = robot("planar3.dh");
    const dyn::Model m = dyn::loadModel(file.toStdString());
    QVERIFY(m.gravity.v.normalized().isApprox(-Vector3d::UnitY()));
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setAutoFit(true);
    scene.setModel(m, file);
    pose(scene, m, d, m.home());
    keep(view_->grabImage(), "planar3_floor.png");
    QVERIFY((scene.up() - Vector3d::UnitY()).norm() < 1e-12);
    vtkMatrix4x4* g = scene.gridActor()->GetUserMatrix();
    QVERIFY(g);
    const Vector3d normal(g->GetElement(0, 2), g->GetElement(1, 2), g->GetElement(2, 2));
    const Vector3d origin(g->GetElement(0, 3), g->GetElement(1, 3), g->GetElement(2, 3));
    QVERIFY2((normal - Vector3d::UnitY()).norm() < 1e-9,
             qPrintable(QString("grid normal (%1, %2, %3)").arg(normal.x()).arg(normal.y()).arg(normal.z())));
    for (const Vector3d& c : corners(scene, false))
      QVERIFY2(c.y() >= origin.y(),
               qPrintable(QString("corner y %1 below the floor at %2").arg(c.y()).arg(origin.y())));
    double up[3];
    view_->renderer()->GetActiveCamera()->GetViewUp(up);
    QVERIFY2(up[1] > 0.7, qPrintable(QString("view up (%1, %2, %3)").arg(up[0]).arg(up[1]).arg(up[2])));
    QString why;
    QVERIFY2(inside(scene, m, d, m.home(), &why), qPrintable(why));
    // With the simulation's ground (the plane z = height), the grid is that plane again.
    scene.setGroundHeight(-0.5);
    g = scene.gridActor()->GetUserMatrix();
    QVERIFY(std::abs(g->GetElement(2, 2) - 1) < 1e-9 && std::abs(g->GetElement(2, 3) + 0.5) < 1e-9);
  }

  // A motion loaded after the robot (Saha's Stanford-arm demonstration) is framed as it sweeps:
  // every sample's pose inside the view, filling most of it; once the user
  // has moved the camera, a motion no longer moves it.
  void loadedMotionIsFramed() {
    const QString file = robot("stanford_arm.dh");
    const dyn::Model m = dyn::loadModel(file.toStdString());
    dyn::Data d(m);
    RobotScene scene(view_->renderer());
    scene.setAutoFit(true);
    scene.setModel(m, file);
    pose(scene, m, d, m.home());
    const dyn::SampledTrajectory demo = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaStanford, 20);
    std::vector<Eigen::VectorXd> qs;
    for (int k = 0; k < demo.samples(); ++k) qs.push_back(demo.q.col(k));
    const auto fillOfMotion = [&] {  // the motion's corners: the larger of their extents over the view's
      double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
      for (const auto& q : qs) {
        pose(scene, m, d, q);
        for (const Vector3d& c : corners(scene)) {
          const Vector2d p = display(view_->renderer(), c);
          for (int k = 0; k < 2; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
        }
      }
      const int* size = view_->renderer()->GetSize();
      return std::max((hi[0] - lo[0]) / size[0], (hi[1] - lo[1]) / size[1]);
    };
    const double atLoad = fillOfMotion();
    QVERIFY(scene.fitToMotion(m, qs));
    QString why;
    for (const auto& q : qs) QVERIFY2(inside(scene, m, d, q, &why), qPrintable(why));
    const double framed = fillOfMotion();
    QVERIFY2(framed > 0.75 && framed <= 1.0, qPrintable(QString("fill %1 at load, %2 framed").arg(atLoad).arg(framed)));
    keep(view_->grabImage(), "motion_stanford_arm.png");
    // The user turns the view: a motion loaded next leaves it alone.
    view_->renderer()->GetActiveCamera()->Azimuth(20);
    double before[3];
    view_->renderer()->GetActiveCamera()->GetPosition(before);
    QVERIFY(!scene.fitToMotion(m, qs));
    double after[3];
    view_->renderer()->GetActiveCamera()->GetPosition(after);
    QVERIFY(before[0] == after[0] && before[1] == after[1] && before[2] == after[2]);
  }

  // Lecture mode on the Stanford arm in a 1920 x 1080 window: at every RNEA step every arrow shown
  // is at least kMinPixels long at its depth, and arrows of one kind from different bodies keep
  // apart (unless they start at the same point, as bodies 2 and 3 do at b3 = 0), or the legend
  // says the scale was reduced.
  void lectureArrowsOnTheStanfordArm() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.setErrorHandler([](const QString& title, const QString& text) { qWarning() << title << text; });
    w.resize(1920, 1080);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY2(dyn::testing::openAndWait(w, robot("stanford_arm.dh"), &error), qPrintable(error));
    keep(w.grab().toImage(), "stanford_arm_load.png");
    w.findChild<QAction*>("lectureInspectorAction")->trigger();
    LectureDocument* lecture = w.lectureDocument();
    QTRY_VERIFY(lecture->isActive());
    lecture->setAlgorithm("rnea");
    const dyn::Model& m = w.document()->model();
    lecture->setInputSource(LectureDocument::InputSource::Entered);
    lecture->setEntered(Eigen::VectorXd::Constant(m.nv, 0.6), Eigen::VectorXd::Constant(m.nv, 0.5),
                        Eigen::VectorXd::Zero(m.nv));
    lecture->retraceNow();
    QVERIFY2(lecture->hasTrace(), qPrintable(lecture->error()));
    lecture->toStart();
    dyn::testing::settle(300);
    TraceArrowOverlay* o = w.arrowOverlay();
    vtkRenderer* r = w.viewport()->renderer();
    int checked = 0;
    const auto everyStep = [&](const QString& tag) {
      for (int step = 1; step <= lecture->stepCount(); ++step) {
        lecture->setPosition(step);
        dyn::testing::settle(40);
        if (step <= 3 || step == m.N) {
          keep(w.grab().toImage(), QString("stanford_lecture_%1_step%2.png").arg(tag).arg(step));
          keep(w.viewport()->grabImage(), QString("stanford_lecture_%1_step%2_view.png").arg(tag).arg(step));
        }
        const double gap = o->overlapGap();
        if (o->crowded()) qInfo() << tag << "step" << step << "crowded:" << QString::fromStdString(o->legendText());
        for (int k = 0; k < TraceArrowOverlay::kKinds; ++k) {
          const auto kind = dyn::ArrowKind(k);
          std::vector<std::pair<int, ReadArrow>> shown;
          std::vector<bool> current;  // drawn opaque: written by this step
          for (int body = 1; body <= m.N; ++body)
            if (vtkActor* a = o->actorFor(body, kind)) {
              shown.push_back({body, readArrow(a)});
              current.push_back(a->GetProperty()->GetOpacity() > 0.99);
            }
          for (const auto& [body, a] : shown) {
            // Its length on screen at its depth: measured across the view, where it is not foreshortened.
            Vector3d dop;
            r->GetActiveCamera()->GetDirectionOfProjection(dop.data());
            const Vector3d across = dop.cross(Vector3d::UnitZ()).norm() > 1e-6
                                        ? dop.cross(Vector3d::UnitZ()).normalized()
                                        : Vector3d::UnitX();
            const double pixels = (display(r, a.origin + a.length * across) - display(r, a.origin)).norm();
            QVERIFY2(
                pixels >= TraceArrowOverlay::kMinPixels - 0.5,
                qPrintable(QString("step %1: body %2's %3 arrow is %4 px").arg(step).arg(body).arg(k).arg(pixels)));
            ++checked;
          }
          for (size_t i = 0; i < shown.size(); ++i)
            for (size_t j = i + 1; j < shown.size(); ++j) {
              const ReadArrow &a = shown[i].second, &b = shown[j].second;
              const Vector2d a0 = display(r, a.origin), a1 = display(r, a.tip), b0 = display(r, b.origin),
                             b1 = display(r, b.tip);
              if ((a0 - b0).norm() < gap) continue;  // the same point
              const double apart = segmentGap(a0 + 0.15 * (a1 - a0), a1, b0 + 0.15 * (b1 - b0), b1);
              // The step's own arrows: no lighter arrow of another body lies on them, whatever the legend says.
              if (current[i] != current[j])
                QVERIFY2(apart >= gap - 1, qPrintable(QString("step %1: kind %2: body %3's lighter arrow lies on "
                                                              "this step's (%4 px apart)")
                                                          .arg(step)
                                                          .arg(k)
                                                          .arg(current[i] ? shown[j].first : shown[i].first)
                                                          .arg(apart)));
              const QString legend = QString::fromStdString(o->legendText());
              const bool named = (o->scaleReduced(kind) && legend.contains("reduced")) ||
                                 (o->crowded() && legend.contains("overlap: zoom in"));
              QVERIFY2(apart >= gap - 1 || named, qPrintable(QString("step %1: kind %2 of bodies %3 and %4 %5 px apart")
                                                                 .arg(step)
                                                                 .arg(k)
                                                                 .arg(shown[i].first)
                                                                 .arg(shown[j].first)
                                                                 .arg(apart)));
            }
        }
      }
    };
    everyStep("load");
    // The lecturer's F: the robot fills the view and its arrows part.
    w.scene()->fitToRobot();
    dyn::testing::settle(100);
    everyStep("fitted");

    QVERIFY(checked > 20);
    // The legend says which arrows are drawn longer than their scale.
    lecture->setPosition(1);
    dyn::testing::settle(40);
    bool anyStretched = false;
    for (int k = 0; k < TraceArrowOverlay::kKinds; ++k)
      anyStretched = anyStretched || o->stretched(1, dyn::ArrowKind(k));
    QCOMPARE(QString::fromStdString(o->legendText()).contains("direction only"), anyStretched);
  }

  // The humanoid in the workbench at load: head and feet in the 3D view (screenshot to look at).
  void humanoidAtLoad() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.resize(1920, 1080);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(dyn::testing::openAndWait(w, robot("humanoid.urdf"), nullptr, 300));
    keep(w.grab().toImage(), "humanoid_load.png");
    keep(w.viewport()->grabImage(), "humanoid_load_view.png");
    const dyn::Model& m = w.document()->model();
    Eigen::VectorXd q = w.document()->q();
    for (const char* joint : {"left_shoulder_pitch_joint", "right_shoulder_pitch_joint"})
      q[m.joints[m.jointIndex(joint)].idx_q] = -3;
    QVERIFY(w.document()->setQ(q));
    dyn::testing::settle(300);
    keep(w.grab().toImage(), "humanoid_arms_raised.png");
    vtkRenderer* r = w.viewport()->renderer();
    const int* size = r->GetSize();
    for (const Vector3d& c : corners(*w.scene())) {
      const Vector2d p = display(r, c);
      QVERIFY2(p.x() >= -1 && p.y() >= -1 && p.x() <= size[0] + 1 && p.y() <= size[1] + 1,
               qPrintable(QString("pixel (%1, %2) of %3 x %4").arg(p.x()).arg(p.y()).arg(size[0]).arg(size[1])));
    }
  }
};

QTEST_MAIN(TestSceneAids)
#include "test_scene_aids.moc"
