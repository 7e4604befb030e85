// The ground in the window (issue 25), as a user meets it: a floating-base quadruped gets the ground
// switched on under its feet, an arm bolted to the world does not; lowering the ground drops the robot,
// which lands and stands; the 3D view shows the ground's push as contact arrows (up, carrying the
// weight), the contact tab plots it, and the grid is where the ground is. References: the robot's
// weight from the model, the ground's height typed in.
#include <QtTest>

#include <QDoubleSpinBox>
#include <QLabel>
#include <QScreen>
#include <QTabWidget>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "plots/time_series_plot.hpp"
#include "scene/force_arrow_layer.hpp"
#include "scene/robot_scene.hpp"
#include "simulation/ground_box.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

class TestSimulationGround : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;

  RobotDocument* doc() const { return m_window->document(); }
  SimulationDock* dock() const { return m_window->simulationDock(); }
  bool open(const QString& file) {
    return dyn::testing::openAndWait(*m_window, QString(DYNSCOPE_ROBOTS_DIR) + "/" + file, nullptr, 20);
  }

 private slots:
  void init() {
    m_window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    const QSize screen = QGuiApplication::primaryScreen()->size();  // 1920x1080, or the laptop's 1366x768
    m_window->resize(std::min(screen.width(), 1920), std::min(screen.height(), 1080));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->setWorkspace("simulate");
  }
  void cleanup() { m_window.reset(); }

  void armHasNoGroundByDefault() {
    QVERIFY(open("ur5.urdf"));
    QVERIFY(!dock()->groundBox()->isChecked());
    QVERIFY(!dock()->settings().ground.enabled);
    QVERIFY(!dock()->plotTabs()->isTabVisible(4));
  }

  // A spring and damper of one's own instead of the contact time: the box's numbers reach the settings.
  void stiffnessAndDampingFromTheBox() {
    QVERIFY(open("ur5.urdf"));
    GroundBox* ground = dock()->groundBox();
    ground->setChecked(true);
    QCOMPARE(dock()->settings().ground.stiffness, 0.0);  // the contact time's rule
    QVERIFY(!ground->dampingBox()->isEnabled() && ground->timeConstantBox()->isEnabled());
    ground->stiffnessBox()->setValue(3e4);
    ground->dampingBox()->setValue(250);
    QVERIFY(ground->dampingBox()->isEnabled() && !ground->timeConstantBox()->isEnabled());
    QCOMPARE(dock()->settings().ground.stiffness, 3e4);
    QCOMPARE(dock()->settings().ground.damping, 250.0);
    ground->stiffnessBox()->setValue(0);
    QCOMPARE(dock()->settings().ground.damping, 0.0);
    QVERIFY(ground->timeConstantBox()->isEnabled());
  }

  void quadrupedDropsLandsAndStands() {
    doc()->setFloatingBase(true);
    QVERIFY(open("quadruped.urdf"));
    GroundBox* ground = dock()->groundBox();
    QVERIFY(ground->isChecked());  // a floating base stands on the ground
    const double feet = ground->heightBox()->value();
    QVERIFY(feet < 0);  // under the feet of the home pose (the trunk at the origin)
    QVERIFY(dock()->plotTabs()->isTabVisible(4));
    QCOMPARE(m_window->scene()->groundHeight(), feet);  // the grid is the ground
    // Lower it by 0.3 m: the robot is dropped.
    ground->heightBox()->setValue(feet - 0.3);
    QCOMPARE(dock()->settings().ground.height, feet - 0.3);
    QVERIFY(std::abs(m_window->scene()->groundHeight() - (feet - 0.3)) < 1e-12);
    const double z0 = doc()->q()[2];
    dock()->stepOnce();  // configures the run from the pose shown
    QVERIFY(dock()->runner()->advance(2.5));
    dock()->stepOnce();  // shows the state
    const SimulationRunner::Snapshot s = dock()->runner()->snapshot();
    QVERIFY2(s.status == dyn::SimulationStatus::Ok, qPrintable(s.error));
    QVERIFY(doc()->q()[2] < z0 - 0.25);  // fell (at least most of the 0.3 m; the legs may fold)
    QVERIFY(!s.contacts.empty());
    // Standing: the ground carries the weight, pushing up.
    const dyn::Model& m = doc()->model();
    double up = 0;
    for (const auto& c : s.contacts) {
      QVERIFY(c.force.z() > 0);
      QVERIFY(std::abs(c.point.z() - (feet - 0.3)) < 0.02);  // at the ground (the centre of pressure)
      up += c.force.z();
    }
    QVERIFY2(std::abs(up - m.totalMass() * 9.81) < 0.02 * m.totalMass() * 9.81,
             qPrintable(QString("the ground carries %1 N of %2 N").arg(up).arg(m.totalMass() * 9.81)));
    // Drawn: one contact arrow per body that touches, pointing up.
    const ForceArrowLayer& arrows = m_window->scene()->forceArrows();
    int contactArrows = 0;
    for (const ForceArrow& a : arrows.arrows()) {
      QCOMPARE(a.kind, ForceArrow::Kind::Contact);
      QVERIFY(a.vector.z() > 0);
      ++contactArrows;
    }
    QCOMPARE(contactArrows, int(s.contacts.size()));
    QVERIFY(arrows.visibleCount() == contactArrows);
    QVERIFY(dock()->statusLabel()->text().contains("ground"));
    // Plotted once the run is paused and published.
    dock()->pause();
    QTest::qWait(50);
    QCOMPARE(dock()->contactPlot()->seriesCount(), 2);
    QVERIFY(dock()->contactPlot()->sampleCount() > 100);
    QVERIFY(dock()->contactPlot()->seriesValues(0).back() > 0.9 * doc()->model().totalMass() * 9.81);
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
      dock()->plotTabs()->setCurrentIndex(4);
      QTest::qWait(200);
      const QString size = QString::number(m_window->width());
      m_window->grab().save(dir + "/ground-quadruped-" + size + ".png");
      m_window->setPresentationMode(true);
      QTest::qWait(300);
      m_window->grab().save(dir + "/ground-quadruped-" + size + "-present.png");
      m_window->setPresentationMode(false);
    }
    // The pose moved away from the run's state: the arrows go (they belong to that state).
    Eigen::VectorXd q = doc()->q();
    q[2] += 0.5;
    doc()->setQ(q);
    QTest::qWait(20);
    QVERIFY(m_window->scene()->forceArrows().arrows().empty());
  }
};

QTEST_MAIN(TestSimulationGround)
#include "test_simulation_ground.moc"
