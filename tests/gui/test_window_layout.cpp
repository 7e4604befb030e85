// The workbench window as a lecturer sees it on a 1366x768 laptop and a 1920x1080 projector: the
// whole window on screen, toolbars without overflow, names in the model tree in full, the 3D view
// the largest part, presentation mode covering the screen even without a window manager (Xvfb has
// none), exports at another aspect ratio keeping the whole view. Runs under Xvfb.
// DYNSCOPE_GRAB_DIR=/some/dir keeps pictures of the window for a human to look at.
#include <QtTest>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <QDir>
#include <QDoubleSpinBox>
#include <QImage>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>

#include "document/robot_document.hpp"
#include "lecture_hall_sizes.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/app_settings.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"
#include "window/model_tree_dock.hpp"
#include "window_loading.hpp"

namespace {

QString robot(const char* name) { return QDir(QStringLiteral(DYNSCOPE_ROBOTS_DIR)).absoluteFilePath(name); }

bool openAndWait(MainWindow& w, const QString& path) { return dyn::testing::openAndWait(w, path, nullptr, 50); }

void grabForInspection(QWidget* w, const QString& name) {
  const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
  if (!dir.isEmpty()) QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

// Pixels of a column of the image that differ from the same column of a reference image.
int differingPixelsInColumn(const QImage& a, const QImage& b, int x) {
  int n = 0;
  for (int y = 0; y < a.height(); ++y) {
    const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
    n += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q)) > 40;
  }
  return n;
}

}  // namespace

class TestWindowLayout : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to ~/.qttest
    QSettings(kSettingsOrganization, kSettingsApplication).clear();
  }
  void cleanupTestCase() { QSettings(kSettingsOrganization, kSettingsApplication).clear(); }

  void defaultSizeFitsTheScreen() {
    MainWindow w;
    const QRect available = w.screen()->availableGeometry();
    QVERIFY2(
        w.width() <= available.width() && w.height() <= available.height(),
        qPrintable(
            QString("%1x%2 on %3x%4").arg(w.width()).arg(w.height()).arg(available.width()).arg(available.height())));
  }

  void readableAtLaptopAndProjectorSizes_data() { dyn::testing::addLectureHallRows(false); }
  void readableAtLaptopAndProjectorSizes() {
    QFETCH(QSize, size);
    DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size);
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, robot("humanoid.urdf")));  // the deepest tree and the most joints
    w.document()->setSelectedBody(w.document()->model().bodyIndex("left_upper_arm"));
    QTest::qWait(100);
    QCOMPARE(w.size(), size);
    grabForInspection(&w, QString("layout_%1x%2.png").arg(size.width()).arg(size.height()));

    // Toolbars: every button on screen, no overflow (») menu.
    for (QToolBar* bar : w.findChildren<QToolBar*>()) {
      if (!bar->isVisible()) continue;
      auto* more = bar->findChild<QToolButton*>("qt_toolbar_ext_button");
      QVERIFY2(!more || !more->isVisible(), qPrintable(bar->windowTitle() + " overflows"));
    }
    // The model tree: every name in full (indentation included), not "left_shou…".
    QTreeWidget* tree = w.modelTreeDock()->tree();
    const QFontMetrics fm(tree->font());
    int items = 0;
    for (QTreeWidgetItemIterator it(tree); *it; ++it, ++items) {
      const QRect cell = tree->visualItemRect(*it);
      QVERIFY2(cell.width() >= fm.horizontalAdvance((*it)->text(ModelTreeDock::Name)),
               qPrintable((*it)->text(ModelTreeDock::Name) + " is cut off"));
    }
    QVERIFY(items > 32);
    // The joints dock: rows fit its width (no sideways scrolling), name and spin box inside each row.
    auto* jointsScroll = w.jointsDock()->findChild<QScrollArea*>();
    QVERIFY(jointsScroll && !jointsScroll->horizontalScrollBar()->isVisible());
    for (JointRow* r : w.jointsDock()->rows()) {
      const QRect spin = r->spinBox()->geometry();
      QVERIFY2(spin.left() >= 0 && spin.right() < r->width(), qPrintable(r->objectName()));
      QVERIFY(r->spinBox()->width() >= r->spinBox()->minimumSizeHint().width());
    }
    // The joints dock runs the full height: a laptop shows a good part of the humanoid's rows.
    int shown = 0;
    for (JointRow* r : w.jointsDock()->rows())
      if (!r->visibleRegion().isEmpty() && r->visibleRegion().boundingRect().height() == r->height()) ++shown;
    QVERIFY2(shown >= 18, qPrintable(QString("only %1 joint rows on screen").arg(shown)));
    // The 3D view is the centre of the window, not a strip between docks.
    const QSize view = w.viewport()->size();
    QVERIFY2(view.height() >= 0.45 * size.height() && view.width() >= 0.4 * size.width(),
             qPrintable(QString("viewport %1x%2").arg(view.width()).arg(view.height())));
  }

  void presentationModeCoversTheScreen() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, robot("ur5.urdf")));
    w.findChild<QAction*>("show_inertia")->setChecked(true);
    const QRect before = w.geometry();
    const QFont font = QApplication::font();
    const QList<vtkActor*> boxes = w.scene()->inertiaActors();
    QVERIFY(!boxes.isEmpty());
    const double lineWidth = boxes.first()->GetProperty()->GetLineWidth();
    QWidget* tree = w.modelTreeDock()->tree();
    const int textHeight = tree->fontMetrics().height();

    w.findChild<QAction*>("presentationAction")->trigger();  // F11
    QVERIFY(w.presentationMode());
    QTRY_COMPARE(w.geometry(), w.screen()->geometry());
    QVERIFY(QApplication::font().pointSizeF() >= 1.4 * font.pointSizeF());
    QVERIFY(boxes.first()->GetProperty()->GetLineWidth() >= 2 * lineWidth);
    // The docks' text, not just the setting (Qt propagates the application font by posted events).
    QTRY_VERIFY2(tree->fontMetrics().height() >= 1.3 * textHeight,
                 qPrintable(QString("%1 -> %2 px").arg(textHeight).arg(tree->fontMetrics().height())));
    // The joints dock grew with the text: spin boxes whole, no sideways scrolling.
    auto* jointsScroll = w.jointsDock()->findChild<QScrollArea*>();
    QTRY_VERIFY(!jointsScroll->horizontalScrollBar()->isVisible());
    for (JointRow* r : w.jointsDock()->rows())
      QVERIFY(r->spinBox()->geometry().right() < jointsScroll->viewport()->width());
    QTRY_COMPARE(w.jointsDock()->geometry().right(), w.width() - 1);  // laid out for the screen
    grabForInspection(&w, "layout_presentation.png");

    w.findChild<QAction*>("presentationAction")->trigger();
    QVERIFY(!w.presentationMode());
    QTRY_COMPARE(w.geometry(), before);
    QCOMPARE(QApplication::font(), font);
    QCOMPARE(boxes.first()->GetProperty()->GetLineWidth(), lineWidth);
    QTRY_COMPARE(tree->fontMetrics().height(), textHeight);
  }

  void inertiaShapeActions() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, robot("panda.urdf")));
    w.findChild<QAction*>("show_inertia")->setChecked(true);
    QCOMPARE(w.scene()->inertiaShape(), RobotScene::InertiaShape::Box);
    const QList<vtkActor*> boxes = w.scene()->inertiaActors();
    w.findChild<QAction*>("inertiaEllipsoidAction")->trigger();
    QCOMPARE(w.scene()->inertiaShape(), RobotScene::InertiaShape::Ellipsoid);
    const QList<vtkActor*> ellipsoids = w.scene()->inertiaActors();
    QCOMPARE(ellipsoids.size(), boxes.size());
    for (int k = 0; k < boxes.size(); ++k) QVERIFY(ellipsoids[k]->GetVisibility() && !boxes[k]->GetVisibility());
    QVERIFY(w.findChild<QAction*>("inertiaBoxAction")->isChecked() == false);
    w.findChild<QAction*>("inertiaBoxAction")->trigger();
    QVERIFY(boxes.first()->GetVisibility() && !ellipsoids.first()->GetVisibility());
    grabForInspection(&w, "layout_inertia.png");
  }

  void exportNarrowerThanTheViewKeepsTheRobot() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.resize(1400, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, robot("ur5.urdf")));
    w.scene()->setShowGrid(false);
    w.scene()->setShowWorldAxes(false);
    w.scene()->setViewPreset(RobotScene::Front);  // the arm stretched out sideways fills the width
    QVERIFY(w.viewport()->width() > w.viewport()->height());
    QTemporaryDir tmp;
    vtkCamera* camera = w.viewport()->renderer()->GetActiveCamera();
    for (const bool parallel : {false, true}) {
      w.scene()->setParallelProjection(parallel);
      w.scene()->fitToRobot();
      const double angle = camera->GetViewAngle(), scale = camera->GetParallelScale();
      const QSize portrait(300, 900);
      QVERIFY(w.exportImage(tmp.filePath("with.png"), portrait));
      w.scene()->setShowVisual(false);
      QVERIFY(w.exportImage(tmp.filePath("without.png"), portrait));
      w.scene()->setShowVisual(true);
      const QImage with(tmp.filePath("with.png")), without(tmp.filePath("without.png"));
      QCOMPARE(with.size(), portrait);
      // The robot is in the picture and does not run off its left or right edge.
      int robotColumns = 0;
      for (int x = 0; x < with.width(); ++x) robotColumns += differingPixelsInColumn(with, without, x) > 0;
      QVERIFY2(robotColumns > 50, qPrintable(QString::number(robotColumns)));
      QCOMPARE(differingPixelsInColumn(with, without, 0), 0);
      QCOMPARE(differingPixelsInColumn(with, without, with.width() - 1), 0);
      // The user's camera is as it was.
      QCOMPARE(camera->GetViewAngle(), angle);
      QCOMPARE(camera->GetParallelScale(), scale);
    }
  }
};

QTEST_MAIN(TestWindowLayout)
#include "test_window_layout.moc"
