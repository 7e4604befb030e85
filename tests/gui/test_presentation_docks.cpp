// Presentation mode (F11) enlarges the docks' chrome with the rest of the window (issue 22): each
// dock's title is drawn in the larger font and its title bar grows with it; the tab bars of
// tabified docks too; after F11 again the titles, title bars and tab bars are exactly as before.
// What is measured is what is drawn: the height of the title's ink in a picture of the title bar.
// The lecture workspace presenting CRBA at step 4: at 1920x1080 H is readable below the 3D view;
// at 1366x768, where the window cannot give it that height, it is a tab behind the inspector; the
// step's pass is named in the equation panel. Simulate presenting shows its energy chart whole.
// Presentation sizes follow the projected screen's height.
// DYNSCOPE_GRAB_DIR=/some/dir keeps the pictures.
#include <QtTest>

#include <QDockWidget>
#include <QStyle>
#include <QStyleOptionDockWidget>
#include <QTabBar>
#include <QTableView>

#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/lecture_document.hpp"
#include "lecture_hall_sizes.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "massmatrix/matrix_heat_map.hpp"
#include "plots/time_series_plot.hpp"
#include "scene/trace_arrow_overlay.hpp"
#include "simulation/simulation_dock.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/main_window.hpp"
#include "window/workspaces.hpp"
#include "window_loading.hpp"

namespace {

using dyn::testing::robotFile;

// Rows of the image with ink: pixels clearly darker than the background (the image's top-left
// pixel, the title bar's own colour). The title's ink height is last row - first row + 1.
int inkHeight(const QImage& image, int x0, int x1) {
  const QColor background = image.pixelColor(1, 1);
  int first = -1, last = -1;
  for (int y = 0; y < image.height(); ++y)
    for (int x = std::max(0, x0); x < std::min(image.width(), x1); ++x)
      if (background.lightness() - image.pixelColor(x, y).lightness() > 90) {
        if (first < 0) first = y;
        last = y;
        break;
      }
  return first < 0 ? 0 : last - first + 1;
}

// The title bar of a docked dock: Qt lays it out above the contents, as high as the content's top.
QRect titleBar(QDockWidget* d) { return QRect(0, 0, d->width(), d->widget()->geometry().top()); }

struct Title {
  int barHeight = 0;
  int ink = 0;
};

Title titleOf(QDockWidget* d, const QString& picture) {
  Title t;
  const QRect bar = titleBar(d);
  t.barHeight = bar.height();
  const QImage image = d->grab(bar).toImage();
  // The text only: left of the float and close buttons (they sit at the right end).
  t.ink = inkHeight(image, 4, d->width() * 2 / 3);
  const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
  if (!dir.isEmpty()) image.save(QDir(dir).filePath(picture));
  return t;
}

QList<QTabBar*> dockTabBars(MainWindow& w) {
  QList<QTabBar*> bars;
  for (QTabBar* bar : w.findChildren<QTabBar*>(Qt::FindDirectChildrenOnly))
    if (bar->isVisible() && bar->count() > 1) bars << bar;
  return bars;
}

}  // namespace

class TestPresentationDocks : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void titlesAndTabsGrowAndComeBack() {
    const QSize screen = QGuiApplication::primaryScreen()->size();
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.resize(std::min(1366, screen.width()), std::min(768, screen.height()));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(dyn::testing::openAndWait(w, robotFile("ur5.urdf")));
    QVERIFY(w.setWorkspace("explore"));  // presenting: properties and model tree tabbed, joints beside
    dyn::testing::settle(300);
    const QStringList names = {"propertiesDock", "jointsDock"};
    std::map<QString, Title> before, during, after;
    std::vector<std::pair<int, double>> tabsBefore, tabsDuring, tabsAfter;  // height, point size
    const auto measure = [&](std::map<QString, Title>& titles, std::vector<std::pair<int, double>>& tabs,
                             const QString& when) {
      for (const QString& name : names) {
        auto* d = w.findChild<QDockWidget*>(name);
        QVERIFY(d);
        QVERIFY2(d->isVisible() && !d->visibleRegion().isEmpty(), qPrintable(name + " not on screen " + when));
        titles[name] = titleOf(d, QString("title_%1_%2.png").arg(name, when));
        QVERIFY2(titles[name].ink > 0, qPrintable(name + ": no title drawn " + when));
      }
      tabs.clear();
      for (QTabBar* bar : dockTabBars(w)) tabs.push_back({bar->height(), bar->font().pointSizeF()});
    };

    measure(before, tabsBefore, "before");
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    w.setPresentationMode(true);
    dyn::testing::settle(700);
    measure(during, tabsDuring, "presenting");
    for (const QString& name : names) {
      // The font is x 1.5: the ink at least x 1.3 (glyph rounding), the bar at least as much taller.
      QVERIFY2(during[name].ink >= 1.3 * before[name].ink,
               qPrintable(QString("%1: title ink %2 px presenting, %3 px before")
                              .arg(name)
                              .arg(during[name].ink)
                              .arg(before[name].ink)));
      // The bar holds a line of the larger font (Qt adds its margins; the buttons set a floor).
      const int line = QFontMetrics(w.findChild<QDockWidget*>(name)->font()).height();
      QVERIFY2(during[name].barHeight > before[name].barHeight && during[name].barHeight >= line,
               qPrintable(QString("%1: title bar %2 px presenting (a line: %3 px), %4 px before")
                              .arg(name)
                              .arg(during[name].barHeight)
                              .arg(line)
                              .arg(before[name].barHeight)));
    }
    QVERIFY2(!tabsDuring.empty(), "no tabbed docks in the explore workspace's presentation layout");
    for (const auto& [height, points] : tabsDuring) {
      QVERIFY2(points >= 1.45 * QFont(w.font()).pointSizeF() / 1.5,
               qPrintable(QString("a dock tab bar's font is %1 pt presenting").arg(points)));
      QVERIFY2(height >= QFontMetrics(QApplication::font()).height(),
               qPrintable(QString("a dock tab bar is %1 px high presenting").arg(height)));
    }

    w.setPresentationMode(false);
    dyn::testing::settle(900);
    measure(after, tabsAfter, "after");
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) QCOMPARE(d->style(), QApplication::style());
    for (const QString& name : names) {
      QCOMPARE(after[name].ink, before[name].ink);
      QCOMPARE(after[name].barHeight, before[name].barHeight);
    }
    QCOMPARE(tabsAfter, tabsBefore);
  }

  void lectureShowsHReadableOrAsATab_data() { dyn::testing::addLectureHallRows(false); }
  void lectureShowsHReadableOrAsATab() {
    QFETCH(QSize, size);
    DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size);
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(dyn::testing::showWithRobot(w, size, "stanford_arm.dh"));
    QVERIFY(w.setWorkspace("lecture"));
    w.lectureDocument()->setAlgorithm("crba");
    w.inspectorDock()->show();
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    w.presentOnScreenOfSize(size);  // this test's "screen"
    dyn::testing::settle(700);      // the presenting layout's later passes (150, 400 ms)
    w.lectureDocument()->setPosition(4);
    dyn::testing::settle(300);
    const QString where = QString("%1x%2").arg(size.width()).arg(size.height());
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty())
      w.grab().save(QDir(dir).filePath("lecture_crba_F11_" + where + ".png"));
    const workspaces::Layout& layout = workspaces::find("lecture")->presenting;
    MassMatrixDock* mass = w.massMatrixDock();
    QVERIFY(mass->presentationMode());
    if (workspaces::isSqueezedIntoTabs(&w, layout, 1)) {
      QVERIFY2(size.height() < 1080, "H is a tab at 1920x1080, where it has room below the 3D view");
      QVERIFY(w.tabifiedDockWidgets(w.inspectorDock()).contains(mass));
      QVERIFY2(w.inspectorDock()->isVisible() && !w.inspectorDock()->visibleRegion().isEmpty(),
               "the inspector in front");
    } else {
      QVERIFY2(mass->isVisible() && !mass->visibleRegion().isEmpty(), qPrintable(where));
      QVERIFY2(mass->heatMap()->isReadable(), qPrintable(QString("%1: H is %2x%3, readable from %4x%5")
                                                             .arg(where)
                                                             .arg(mass->heatMap()->width())
                                                             .arg(mass->heatMap()->height())
                                                             .arg(mass->heatMap()->minimumSizeHint().width())
                                                             .arg(mass->heatMap()->minimumSizeHint().height())));
    }
    // The pass's name in the panel (the label above it is hidden while presenting).
    const QString pass = QString::fromStdString(w.lectureDocument()->currentPass()->name);
    QVERIFY2(w.inspectorDock()->equationHtml().contains(pass.toHtmlEscaped()), qPrintable(pass));
  }

  // The sizes follow the screen that is projected (a laptop's 768 lines fill the same wall as 1080):
  // the application font x 1.5 at 1920x1080 and x 1.25 at 1366x768, the equations 30 pt x
  // height / 1080; a step's equations together above their numbers; the step's body row in view.
  void lectureSizesFollowTheScreen_data() { dyn::testing::addLectureHallRows(false); }
  void lectureSizesFollowTheScreen() {
    QFETCH(QSize, size);
    DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size);
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(dyn::testing::showWithRobot(w, size, "ur5.urdf"));
    QVERIFY(w.setWorkspace("lecture"));
    w.lectureDocument()->setAlgorithm("rnea");
    w.inspectorDock()->show();
    const double normalPt = QApplication::font().pointSizeF();
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    w.presentOnScreenOfSize(size);
    dyn::testing::settle(700);
    const double scale = std::min(1.0, size.height() / 1080.0);
    QVERIFY2(std::abs(QApplication::font().pointSizeF() - normalPt * std::max(1.25, 1.5 * scale)) < 0.01,
             qPrintable(QString::number(QApplication::font().pointSizeF())));
    w.lectureDocument()->setPosition(5);  // RNEA's outward pass at body 5: four equations
    dyn::testing::settle(300);
    const QString html = w.inspectorDock()->equationHtml();
    QVERIFY2(html.contains(QString("font-size:%1pt").arg(30 * scale, 0, 'f', 1)), qPrintable(html.left(800)));
    const int lastEquation = int(html.lastIndexOf("class=\"eq\"")), firstNumbers = int(html.indexOf("class=\"sub\""));
    QVERIFY2(lastEquation > 0 && firstNumbers > lastEquation, "the equations first, then their numbers");
    auto* table = w.inspectorDock()->findChild<QTableView*>("lectureTable");
    QVERIFY(table);
    const int body = w.lectureDocument()->currentBody();
    QVERIFY(body >= 1);
    QTRY_VERIFY2(table->viewport()->rect().intersects(table->visualRect(table->model()->index(body - 1, 0))),
                 "the step's body row in view");
    // The 3D legend beside the equations keeps to the symbols and scales where the view is narrow.
    const QString legend = QString::fromStdString(w.arrowOverlay()->legendText());
    QVERIFY2(legend.contains("1 m/s = "), qPrintable(legend));
    QCOMPARE(legend.contains("angular velocity"), w.viewport()->width() >= 900);
  }

  // Simulate presenting: the settings made at the desk go, so the run controls and the energy chart
  // are on screen whole, without scrolling; at the desk again the settings are back.
  void simulateShowsItsChartWhole_data() { dyn::testing::addLectureHallRows(false); }
  void simulateShowsItsChartWhole() {
    QFETCH(QSize, size);
    DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size);
    MainWindow w(MainWindow::Settings::Ephemeral);
    QVERIFY(dyn::testing::showWithRobot(w, size, "planar3.dh"));
    QVERIFY(w.setWorkspace("simulate"));
    auto* plots = w.simulationDock()->findChild<QWidget*>("simulationPlots");
    auto* integrator = w.simulationDock()->findChild<QWidget*>("simulationIntegrator");
    QVERIFY(plots && integrator);
    const auto leave = qScopeGuard([&w] { w.setPresentationMode(false); });
    w.presentOnScreenOfSize(size);  // this test's "screen"
    dyn::testing::settle(700);
    const QString where = QString("%1x%2").arg(size.width()).arg(size.height());
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty())
      w.grab().save(QDir(dir).filePath("simulate_F11_" + where + ".png"));
    QVERIFY(w.simulationDock()->isVisible());
    QVERIFY(!integrator->isVisible());
    // Whole: the part of the chart not clipped by the dock's scroll area is the chart itself.
    const QRect shown = plots->visibleRegion().boundingRect();
    QVERIFY2(plots->isVisible() && shown.size() == plots->size(),
             qPrintable(QString("%1: %2x%3 of the %4x%5 chart on screen")
                            .arg(where)
                            .arg(shown.width())
                            .arg(shown.height())
                            .arg(plots->width())
                            .arg(plots->height())));
    QVERIFY2(plots->height() >= 150, qPrintable(QString("%1: chart %2 px high").arg(where).arg(plots->height())));
    // Readable, not the "too small" hint: the dock is as wide as its plots need.
    QVERIFY2(w.simulationDock()->energyPlot()->canvas()->isReadable(),
             qPrintable(QString("%1: energy chart %2x%3, the dock wants %4 px")
                            .arg(where)
                            .arg(w.simulationDock()->energyPlot()->width())
                            .arg(w.simulationDock()->energyPlot()->height())
                            .arg(w.simulationDock()->readableSize().width())));
    w.setPresentationMode(false);
    dyn::testing::settle(300);
    QVERIFY(integrator->isVisible());
  }
};

QTEST_MAIN(TestPresentationDocks)
#include "test_presentation_docks.moc"
