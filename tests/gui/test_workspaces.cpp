// Workspaces and presentation mode as a lecturer uses them, at 1366x768 and 1920x1080: every
// workspace's docks on screen and not squeezed below their minimum, the 3D view the largest part at
// the desk, no label cut and no toolbar overflowing; F11 on and off ten times gives back the
// identical layout; Reset layout restores the design after the user changed it; each workspace
// remembers the user's changes; Ctrl+1..5 switch; --window-screenshot renders the whole window.
// DYNSCOPE_GRAB_DIR=/some/dir keeps a picture of every workspace for a human to look at.
#include <QtTest>
#include <array>

#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "algorithms/algorithms_dock.hpp"
#include "document/robot_document.hpp"
#include "lecture_hall_sizes.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/app_settings.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/window_screenshot_command.hpp"
#include "window/workspaces.hpp"
#include "window_loading.hpp"

namespace {

using dyn::testing::robotFile;

void settle(int ms) { dyn::testing::settle(ms); }

// Everything that makes up the layout: the window, every dock (shown, floating, where, how large)
// and the viewport.
QString layoutSignature(MainWindow& w) {
  QStringList parts;
  parts << QString("window %1,%2 %3x%4").arg(w.x()).arg(w.y()).arg(w.width()).arg(w.height());
  parts << QString("viewport %1x%2").arg(w.viewport()->width()).arg(w.viewport()->height());
  for (QToolBar* bar : w.findChildren<QToolBar*>())
    parts << QString("toolbar %1 %2,%3 %4x%5")
                 .arg(bar->objectName())
                 .arg(bar->x())
                 .arg(bar->y())
                 .arg(bar->width())
                 .arg(bar->height());
  for (QDockWidget* d : w.findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) {
    // A tab behind another, or a hidden dock, keeps a stale geometry off screen: only its place counts.
    const bool shown = d->isVisible() && !d->visibleRegion().isEmpty();
    const QRect g = shown ? d->geometry() : QRect();
    parts << QString("%1 %2 %3 %4 %5,%6 %7x%8")
                 .arg(d->objectName())
                 .arg(d->isVisible() ? (shown ? "front" : "behind") : "hidden")
                 .arg(d->isFloating())
                 .arg(int(w.dockWidgetArea(d)))
                 .arg(g.x())
                 .arg(g.y())
                 .arg(g.width())
                 .arg(g.height());
  }
  std::sort(parts.begin() + 2, parts.end());  // findChildren's order changes as docks are re-added
  return parts.join('\n');
}

void grab(MainWindow& w, const QString& name) {
  const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
  if (!dir.isEmpty()) QVERIFY(w.grab().save(QDir(dir).filePath(name)));
}

bool onScreen(QWidget* w) { return w->isVisible() && !w->visibleRegion().isEmpty(); }

// The window at `size` with a robot of robots/ loaded and painted.
using dyn::testing::showWithRobot;

// A key as the lecturer presses it: the workspace and F11 keys are window shortcuts, which need the
// active window (without a window manager, full screen may have deactivated it).
void key(MainWindow& w, Qt::Key k, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  if (!w.isActiveWindow()) {
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
  }
  w.viewport()->setFocus();
  QTest::keyClick(w.viewport(), k, mods);
}

}  // namespace

class TestWorkspaces : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings(kSettingsOrganization, kSettingsApplication).clear();
  }
  void cleanupTestCase() { QSettings(kSettingsOrganization, kSettingsApplication).clear(); }

  void everyWorkspaceIsReadable_data() { dyn::testing::addLectureHallRows(true); }
  void everyWorkspaceIsReadable() {
    QFETCH(QSize, size);
    QFETCH(bool, present);
    DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size);
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(showWithRobot(w, size, "stanford_arm.dh"));
    // Presentation mode ends with the test, also when a check fails (the application font is global).
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    if (present) {
      w.presentOnScreenOfSize(size);  // this test's "screen"
    }
    for (const workspaces::Workspace& ws : workspaces::all()) {
      const QString id = QString::fromLatin1(ws.id);
      QVERIFY(w.setWorkspace(id));
      w.resetLayout();
      settle(600);
      QCOMPARE(w.workspace(), id);
      QCOMPARE(w.size(), size);
      grab(w,
           QString("workspace_%1_%2x%3%4.png").arg(id).arg(size.width()).arg(size.height()).arg(present ? "_F11" : ""));
      // As shown for this robot (a DH robot's table while presenting).
      const workspaces::Layout layout = workspaces::effective(&w, present ? ws.presenting : ws.desk);
      // The front dock of every group on screen, docked, at least its minimum size.
      for (const workspaces::Group& g : layout.groups) {
        if (g.docks.empty()) continue;  // not for this robot
        auto* front = w.findChild<QDockWidget*>(QString::fromLatin1(g.docks.front()));
        QVERIFY(front);
        // Too little room for it to be readable: a tab behind the first group (tabWhenSqueezed).
        if (workspaces::isSqueezedIntoTabs(&w, layout, size_t(&g - layout.groups.data()))) continue;
        const QString where = id + ": " + front->objectName();
        QVERIFY2(onScreen(front), qPrintable(where + " is not on screen"));
        QVERIFY2(!front->isFloating(), qPrintable(where + " floats"));
        QCOMPARE(w.dockWidgetArea(front), g.area);
        const QSize minimum = front->minimumSizeHint();
        QVERIFY2(front->width() >= minimum.width() && front->height() >= minimum.height(),
                 qPrintable(QString("%1 is %2x%3, below its minimum %4x%5")
                                .arg(where)
                                .arg(front->width())
                                .arg(front->height())
                                .arg(minimum.width())
                                .arg(minimum.height())));
        // Its share of the window: within a few per cent of the design (Qt keeps minimum sizes).
        const double share = g.area == Qt::BottomDockWidgetArea ? double(front->height()) / size.height()
                                                                : double(front->width()) / size.width();
        if (g.area != Qt::BottomDockWidgetArea)
          QVERIFY2(share >= g.across / 100.0 - 0.04,
                   qPrintable(
                       QString("%1 takes %2 % of the width, designed %3 %").arg(where).arg(100 * share).arg(g.across)));
      }
      // Docks not in the design are not on screen.
      const std::vector<QDockWidget*> designed = workspaces::docksOf(&w, layout);
      for (QDockWidget* d : w.findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        if (std::find(designed.begin(), designed.end(), d) == designed.end())
          QVERIFY2(!d->isVisible(), qPrintable(id + ": " + d->objectName() + " is shown but not designed in"));
      // Labels in the visible docks whole (a label narrower than its text cuts it).
      for (QDockWidget* d : designed) {
        if (!onScreen(d)) continue;
        for (QLabel* label : d->findChildren<QLabel*>()) {
          if (!onScreen(label) || label->wordWrap() || label->text().isEmpty() || !label->pixmap().isNull()) continue;
          QVERIFY2(label->width() >= label->minimumSizeHint().width(),
                   qPrintable(QString("%1: '%2' is cut (%3 px for %4)")
                                  .arg(id, label->text())
                                  .arg(label->width())
                                  .arg(label->minimumSizeHint().width())));
        }
      }
      // The 3D view: a good part of the window everywhere (the mass-matrix and lecture workspaces give
      // their matrices and equations more).
      const QSize view = w.viewport()->size();
      const double area = double(view.width()) * view.height() / (double(size.width()) * size.height());
      QVERIFY2(area >= (present ? 0.2 : 0.25) && view.height() >= 0.38 * size.height(),
               qPrintable(QString("%1: viewport %2x%3").arg(id).arg(view.width()).arg(view.height())));
      // Toolbars without an overflow menu.
      for (QToolBar* bar : w.findChildren<QToolBar*>()) {
        if (!bar->isVisible()) continue;
        auto* more = bar->findChild<QToolButton*>("qt_toolbar_ext_button");
        QVERIFY2(!more || !more->isVisible(), qPrintable(id + ": " + bar->windowTitle() + " overflows"));
      }
    }
  }

  void presentationGivesBackTheExactLayout() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(showWithRobot(w, QSize(1300, 760), "ur5.urdf"));
    for (const char* id : {"explore", "lecture"}) {
      QVERIFY(w.setWorkspace(id));
      settle(500);
      const QString before = layoutSignature(w);
      const QFont font = QApplication::font();
      for (int k = 0; k < 4; ++k) {  // a drift would show by the fourth round trip (ten took 17 s)
        key(w, Qt::Key_F11);
        QTRY_VERIFY(w.presentationMode());
        settle(150);
        QVERIFY(QApplication::font().pointSizeF() >= 1.4 * font.pointSizeF());
        key(w, Qt::Key_F11);
        QTRY_VERIFY(!w.presentationMode());
        QTRY_COMPARE(layoutSignature(w), before);
      }
      QCOMPARE(QApplication::font(), font);
    }
  }

  // On the laptop (1366 x 768) the first F11 round trip, and every later one, gives the 3D view back
  // as it was: the same camera, so the robot the same size.
  void presentationGivesBackTheCamera() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(showWithRobot(w, QSize(1366, 768), "ur5.urdf"));
    for (const char* id : {"explore", "trajectory", "lecture"}) {
      QVERIFY(w.setWorkspace(id));
      settle(500);
      vtkCamera* camera = w.scene()->renderer()->GetActiveCamera();
      const auto state = [&] {
        std::array<double, 8> s{};
        camera->GetPosition(s.data());
        camera->GetFocalPoint(s.data() + 3);
        s[6] = camera->GetParallelScale();
        s[7] = camera->GetViewAngle();
        return s;
      };
      const std::array<double, 8> before = state();
      const QSize view = w.viewport()->size();
      for (int k = 0; k < 3; ++k) {
        key(w, Qt::Key_F11);
        QTRY_VERIFY(w.presentationMode());
        settle(300);
        key(w, Qt::Key_F11);
        QTRY_VERIFY(!w.presentationMode());
        settle(300);
        QCOMPARE(w.viewport()->size(), view);
        const std::array<double, 8> after = state();
        for (int j = 0; j < 8; ++j)
          QVERIFY2(std::abs(after[size_t(j)] - before[size_t(j)]) <= 1e-9 * (1 + std::abs(before[size_t(j)])),
                   qPrintable(QString("%1, round trip %2: camera entry %3 was %4, now %5")
                                  .arg(id)
                                  .arg(k + 1)
                                  .arg(j)
                                  .arg(before[size_t(j)])
                                  .arg(after[size_t(j)])));
      }
    }
  }

  // Presenting Explore, a DH robot's table has a place of its own below the 3D view (a lecturer
  // changes a twist in front of the class); a URDF opened next gives the place back, a DH table
  // takes it again. At the desk a DH robot brings its table's tab forward.
  void presentingADhRobotShowsItsTable() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.setErrorHandler([](const QString& title, const QString& text) { QFAIL(qPrintable(title + ": " + text)); });
    w.setPromptHandler([](auto, auto, auto) { return QMessageBox::Discard; });
    QVERIFY(showWithRobot(w, QSize(1366, 768), "ur5.urdf"));
    QVERIFY(w.setWorkspace("explore"));
    auto* dh = w.findChild<QDockWidget*>("dhTableDock");
    QVERIFY(dh);
    QVERIFY(!onScreen(dh));  // behind the model check's tab
    QVERIFY(dyn::testing::openAndWait(w, dyn::testing::robotFile("planar3.dh")));
    settle(200);
    QVERIFY(onScreen(dh));  // its tab in front
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    w.presentOnScreenOfSize(QSize(1366, 768));
    settle(600);
    QVERIFY(onScreen(dh));
    QCOMPARE(w.dockWidgetArea(dh), Qt::BottomDockWidgetArea);
    grab(w, "present_explore_planar3_1366x768_F11.png");
    QVERIFY(dyn::testing::openAndWait(w, dyn::testing::robotFile("ur5.urdf")));
    settle(600);
    QVERIFY(!dh->isVisible());
    QVERIFY(w.viewport()->height() > 0.5 * 768);  // the place given back to the 3D view
    QVERIFY(dyn::testing::openAndWait(w, dyn::testing::robotFile("stanford_arm.dh")));
    settle(600);
    QVERIFY(onScreen(dh));
  }

  // F11 on a laptop narrows the 3D view; the camera, not moved since it was fitted, fits again so
  // that the robot stays whole (it ran past the right edge before). A camera the lecturer has moved
  // is left where it is.
  void narrowerViewKeepsTheRobotWhole() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(showWithRobot(w, QSize(1600, 1000), "ur5.urdf"));
    QVERIFY(w.setWorkspace("explore"));
    settle(300);
    vtkRenderer* renderer = w.scene()->renderer();
    const auto inView = [&] {  // every corner of every geometry actor's bounds inside the viewport
      const int* size = renderer->GetSize();
      for (vtkActor* a : w.scene()->geometryActors()) {
        double b[6];
        a->GetBounds(b);
        for (int k = 0; k < 8; ++k) {
          renderer->SetWorldPoint(b[k & 1 ? 1 : 0], b[k & 2 ? 3 : 2], b[k & 4 ? 5 : 4], 1.0);
          renderer->WorldToDisplay();
          const double* d = renderer->GetDisplayPoint();
          if (d[0] < 0 || d[1] < 0 || d[0] > size[0] || d[1] > size[1]) return false;
        }
      }
      return true;
    };
    QVERIFY(inView());
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    w.presentOnScreenOfSize(QSize(1366, 768));
    settle(600);
    QVERIFY(w.viewport()->width() < 700);  // much narrower than at the desk
    QVERIFY(inView());
    w.setGeometry(QRect(0, 0, 1000, 768));  // narrower still (a projector at 1024 x 768)
    settle(600);
    QVERIFY(inView());
    // Moved by the lecturer: kept.
    vtkCamera* camera = renderer->GetActiveCamera();
    camera->Azimuth(20);
    double before[3], after[3];
    camera->GetPosition(before);
    w.setPresentationMode(false);
    settle(600);
    camera->GetPosition(after);
    for (int k = 0; k < 3; ++k) QCOMPARE(after[k], before[k]);
  }

  void resetLayoutRestoresTheDesign() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(showWithRobot(w, QSize(1366, 768), "ur5.urdf"));
    QVERIFY(w.setWorkspace("trajectory"));
    w.resetLayout();
    settle(600);
    const QString designed = layoutSignature(w);
    // The user rearranges: a narrower dock, a dock closed, one floated, another opened.
    auto* trajectory = w.findChild<QDockWidget*>("trajectoryDock");
    auto* plots = w.findChild<QDockWidget*>("plotsDock");
    auto* tree = w.findChild<QDockWidget*>("modelTreeDock");
    w.resizeDocks({trajectory}, {trajectory->width() - 90}, Qt::Horizontal);
    plots->setFloating(true);
    tree->show();
    settle(300);
    QVERIFY(layoutSignature(w) != designed);
    w.findChild<QAction*>("resetLayoutAction")->trigger();
    settle(600);
    QCOMPARE(layoutSignature(w), designed);
  }

  void eachWorkspaceRemembersTheUsersChanges() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(showWithRobot(w, QSize(1366, 768), "ur5.urdf"));
    QVERIFY(w.setWorkspace("explore"));
    settle(500);
    auto* joints = w.findChild<QDockWidget*>("jointsDock");
    w.resizeDocks({joints}, {joints->width() + 120}, Qt::Horizontal);
    settle(200);
    const QString mine = layoutSignature(w);
    // Ctrl+2 and Ctrl+1, as the lecturer switches.
    key(w, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(w.workspace(), QString("trajectory"));
    QVERIFY(w.findChild<QAction*>("workspace_trajectory")->isChecked());
    settle(300);
    QVERIFY(onScreen(w.findChild<QDockWidget*>("plotsDock")));
    QVERIFY(!w.findChild<QDockWidget*>("modelTreeDock")->isVisible());
    key(w, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(w.workspace(), QString("explore"));
    settle(300);
    QCOMPARE(layoutSignature(w), mine);
    key(w, Qt::Key_5, Qt::ControlModifier);
    QCOMPARE(w.workspace(), QString("lecture"));
    QVERIFY(!w.setWorkspace("nonsense"));
    QCOMPARE(w.workspace(), QString("lecture"));
  }

  // Dock sizes are saved in pixels: restored on the screen they were saved on, and on a screen of
  // another size (a 1920x1080 desk, then a 1366x768 laptop) the designed layout instead, so that a
  // table never ends up larger than the 3D view (issue 37).
  void layoutsFromAnotherScreenAreNotRestored() {
    QSettings(kSettingsOrganization, kSettingsApplication).clear();
    // Reopened in the Trajectory workspace; Explore's saved layout comes back on switching to it.
    const auto jointsWidth = [](bool sameScreen) {
      if (!sameScreen)
        QSettings(kSettingsOrganization, kSettingsApplication).setValue("workspace/screen", QSize(800, 600));
      MainWindow w(MainWindow::Settings::Persistent);
      if (!showWithRobot(w, QSize(1366, 768), "ur5.urdf")) return -1;
      settle(300);
      w.setWorkspace("explore");
      settle(500);
      return w.findChild<QDockWidget*>("jointsDock")->width();
    };
    int designed = 0;
    {
      MainWindow w(MainWindow::Settings::Persistent);
      QVERIFY(showWithRobot(w, QSize(1366, 768), "ur5.urdf"));
      QVERIFY(w.setWorkspace("explore"));
      settle(500);
      auto* joints = w.findChild<QDockWidget*>("jointsDock");
      designed = joints->width();
      w.resizeDocks({joints}, {designed + 250}, Qt::Horizontal);
      settle(200);
      QVERIFY(joints->width() > designed + 150);
      QVERIFY(w.setWorkspace("trajectory"));  // Explore's layout kept
      settle(300);
      QVERIFY(w.close());  // saves the layouts with this screen's size
    }
    const int same = jointsWidth(true), other = jointsWidth(false);
    QVERIFY2(same > designed + 150, qPrintable(QString("restored %1, designed %2").arg(same).arg(designed)));
    QVERIFY2(std::abs(other - designed) < 30, qPrintable(QString("%1 px, designed %2").arg(other).arg(designed)));
    QSettings(kSettingsOrganization, kSettingsApplication).clear();
  }

  // A dock that is not on screen does no work: the mass matrix and the formulations' survey wait in
  // the Explore workspace while the joints move, and catch up when their workspace shows them.
  void docksOffScreenDoNoWork() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(showWithRobot(w, QSize(1366, 768), "ur5.urdf"));
    QVERIFY(w.setWorkspace("explore"));
    settle(400);
    QVERIFY(!onScreen(w.massMatrixDock()) && !onScreen(w.algorithmsDock()));
    const int recomputes = w.massMatrixDock()->recomputeCount(), surveys = w.algorithmsDock()->surveysDone();
    Eigen::VectorXd q = w.document()->q();
    for (int k = 0; k < 5; ++k) {
      q[1] += 0.1;
      QVERIFY(w.document()->setQ(q));
      settle(60);
    }
    settle(400);
    QCOMPARE(w.massMatrixDock()->recomputeCount(), recomputes);
    QCOMPARE(w.algorithmsDock()->surveysDone(), surveys);
    QVERIFY(w.setWorkspace("massmatrix"));
    QTRY_VERIFY(w.massMatrixDock()->recomputeCount() > recomputes);
  }

  void windowScreenshotOfTheLectureWorkspace() {
    QTemporaryDir tmp;
    LaunchOptions o;
    o.windowScreenshot = tmp.filePath("lecture.png");
    o.size = QSize(1366, 768);
    o.algorithm = "denoc-id";
    o.step = 4;
    o.present = true;
    QString error;
    QVERIFY2(runWindowScreenshot(o, robotFile("stanford_arm.dh"), &error) == 0, qPrintable(error));
    const QImage image(o.windowScreenshot);
    QCOMPARE(image.size(), QSize(1366, 768));
    // Not a blank picture: the window's docks, text and the robot make many colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 50, qPrintable(QString("%1 colours").arg(colours.size())));
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty())
      QVERIFY(image.save(QDir(dir).filePath("window_screenshot_lecture_F11.png")));

    // Wrong input is refused with a message naming it, no picture written.
    LaunchOptions bad = o;
    bad.windowScreenshot = tmp.filePath("bad.png");
    bad.workspace = "nonsense";
    QCOMPARE(runWindowScreenshot(bad, robotFile("stanford_arm.dh"), &error), 1);
    QVERIFY2(error.contains("nonsense") && error.contains("lecture"), qPrintable(error));
    bad.workspace.clear();
    bad.algorithm = "nonsense";
    QCOMPARE(runWindowScreenshot(bad, robotFile("stanford_arm.dh"), &error), 1);
    QVERIFY2(error.contains("nonsense") && error.contains("rnea"), qPrintable(error));
    bad.algorithm = "rnea";
    bad.step = 100000;
    QCOMPARE(runWindowScreenshot(bad, robotFile("stanford_arm.dh"), &error), 1);
    QVERIFY2(error.contains("100000"), qPrintable(error));
    QVERIFY(!QFile::exists(bad.windowScreenshot));
  }
};

QTEST_MAIN(TestWorkspaces)
#include "test_workspaces.moc"
