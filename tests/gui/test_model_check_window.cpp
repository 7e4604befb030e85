// The model check in the window (issue 13): a robot with warnings opens and says so in one line,
// the status bar's badge counts the warnings and opens the Model check panel, the panel lists
// every finding (compared with the engine's checker) and clicking one selects its link in the 3D
// view and the model tree; the fix-ups reload the robot with their changes in the log, are
// reversible, and a saved project brings them back. With DYNSCOPE_GRAB_DIR set, a picture of the
// window for a human to judge.
#include <QAction>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>
#include <memory>

#include "algorithms/algorithms_dock.hpp"
#include "document/robot_document.hpp"
#include "dynscope/io/model_builder.hpp"
#include "scene/robot_scene.hpp"
#include "trajectory/plots_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window/model_check_dock.hpp"
#include "window/model_tree_dock.hpp"
#include "window_loading.hpp"

namespace {

QString data(const char* name) { return QString(DYNSCOPE_TEST_DATA_DIR) + "/model_check/" + name; }

int indexOf(const std::vector<dyn::Finding>& all, const std::string& code, const std::string& link) {
  for (size_t k = 0; k < all.size(); ++k)
    if (all[k].code == code && all[k].link == link) return int(k);
  return -1;
}

}  // namespace

class TestModelCheckWindow : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QString m_errors;

  RobotDocument* doc() const { return m_window->document(); }
  ModelCheckDock* dock() const { return m_window->modelCheckDock(); }
  QAction* fixup(const char* name) const { return m_window->findChild<QAction*>(QString("fixup_") + name); }
  // Triggers the action and waits for the reload it starts.
  bool toggleAndWait(QAction* action) {
    QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
    action->trigger();
    if (!finished.wait(30000)) return false;
    QTest::qWait(30);
    return finished.at(0).at(0).toBool();
  }

 private slots:
  void initTestCase() {
    qputenv("ROS_PACKAGE_PATH", "");
    qputenv("AMENT_PREFIX_PATH", "");
    m_window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    m_window->setErrorHandler([this](const QString& title, const QString& text) { m_errors += title + ": " + text; });
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
  }

  // The file loads (it used to be refused for its inertias) and the load says so in one line.
  void robotWithWarningsOpens() {
    QString error;
    QVERIFY2(dyn::testing::openAndWait(*m_window, data("arm_with_warnings.urdf"), &error), qPrintable(error));
    QVERIFY2(m_errors.isEmpty(), qPrintable(m_errors));
    const dyn::Model reference = dyn::loadModel(data("arm_with_warnings.urdf").toStdString());
    const dyn::FindingCounts n = dyn::countFindings(reference.findings);
    QVERIFY(n.warnings > 0);
    QCOMPARE(doc()->model().N, reference.N);
    const QString log = m_window->logDock()->plainText();
    QVERIFY2(
        log.contains(QString("model check: %1 warnings, %2 notes (Model check panel)").arg(n.warnings).arg(n.infos)),
        qPrintable(log));
    QVERIFY(m_window->statusBar()->currentMessage().contains("loaded with"));
    // The badge: warnings and errors.
    QToolButton* badge = m_window->modelCheckBadge();
    QVERIFY(badge->isVisible());
    QCOMPARE(badge->text(), QString::number(n.errors + n.warnings));
  }

  void panelListsTheFindings() {
    QTreeWidget* list = dock()->list();
    const std::vector<dyn::Finding>& all = doc()->findings();
    QCOMPARE(list->topLevelItemCount(), int(all.size()));
    QCOMPARE(dock()->visibleCount(), int(all.size()));
    const dyn::FindingCounts n = dyn::countFindings(all);
    QCOMPARE(dock()->summary(), QString("%1 warnings, %2 notes").arg(n.warnings).arg(n.infos));
    // Warnings before notes; each row shows location, element and message.
    QCOMPARE(list->topLevelItem(0)->text(ModelCheckDock::SeverityColumn), QString("warning"));
    QCOMPARE(list->topLevelItem(list->topLevelItemCount() - 1)->text(ModelCheckDock::SeverityColumn), QString("note"));
    const int shoulder = indexOf(all, "inertia.triangle", "shoulder_link");
    QVERIFY(shoulder >= 0);
    QTreeWidgetItem* item = dock()->itemForFinding(shoulder);
    QVERIFY(item);
    QCOMPARE(item->text(ModelCheckDock::LocationColumn), QString("arm_with_warnings.urdf:%1").arg(all[shoulder].line));
    QCOMPARE(item->text(ModelCheckDock::ElementColumn), QString("link 'shoulder_link' <inertial>"));
    QVERIFY(item->text(ModelCheckDock::MessageColumn).contains("triangle inequality"));
    // The severity buttons filter.
    auto* warnings = dock()->findChild<QToolButton*>("showWarnings");
    warnings->click();
    QCOMPARE(dock()->visibleCount(), n.infos + n.errors);
    warnings->click();
    QCOMPARE(dock()->visibleCount(), int(all.size()));
  }

  // The list's order is a strict weak ordering (std::stable_sort needs one): severity, then line,
  // findings without a line last. Checked on every triple of a set with lines 0 and mixed order.
  void listOrderIsAStrictWeakOrdering() {
    std::vector<dyn::Finding> set;
    for (dyn::Severity s : {dyn::Severity::Info, dyn::Severity::Warning})
      for (int line : {30, 0, 10, 0, 20}) {
        dyn::Finding f;
        f.severity = s;
        f.line = line;
        set.push_back(f);
      }
    const auto before = &ModelCheckDock::listedBefore;
    const auto equivalent = [&](const dyn::Finding& a, const dyn::Finding& b) {
      return !before(a, b) && !before(b, a);
    };
    for (const dyn::Finding& a : set) {
      QVERIFY(!before(a, a));
      for (const dyn::Finding& b : set) {
        QVERIFY(!(before(a, b) && before(b, a)));
        for (const dyn::Finding& c : set) {
          if (before(a, b) && before(b, c)) QVERIFY(before(a, c));
          if (equivalent(a, b) && equivalent(b, c)) QVERIFY(equivalent(a, c));  // the old order failed here
        }
      }
    }
    // The panel shows the loaded robot's findings in that order.
    const std::vector<dyn::Finding>& all = doc()->findings();
    QTreeWidget* list = dock()->list();
    for (int r = 1; r < list->topLevelItemCount(); ++r) {
      const int a = list->topLevelItem(r - 1)->data(ModelCheckDock::SeverityColumn, Qt::UserRole + 1).toInt();
      const int b = list->topLevelItem(r)->data(ModelCheckDock::SeverityColumn, Qt::UserRole + 1).toInt();
      QVERIFY2(!ModelCheckDock::listedBefore(all[size_t(b)], all[size_t(a)]), qPrintable(QString::number(r)));
    }
  }

  // The badge opens the panel; a click on a finding selects its link in the 3D view and the tree.
  void clickingAFindingSelectsTheLink() {
    m_window->logDock()->raise();  // the panel hidden behind another tab (Explore: the log)
    QTest::qWait(20);
    QVERIFY(dock()->visibleRegion().isEmpty());
    m_window->modelCheckBadge()->click();
    QTest::qWait(50);
    QVERIFY(dock()->isVisible() && !dock()->visibleRegion().isEmpty());

    const std::vector<dyn::Finding>& all = doc()->findings();
    for (const char* link : {"shoulder_link", "sensor_mount", "antenna"}) {
      const int index = indexOf(all, std::string(link) == "antenna" ? "inertia.not_psd" : "inertia.triangle", link);
      QVERIFY2(index >= 0, link);
      QTreeWidgetItem* item = dock()->itemForFinding(index);
      QTreeWidget* list = dock()->list();
      list->scrollToItem(item);
      QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center());
      QTest::qWait(20);
      // sensor_mount is merged into gripper_motor by a fixed joint: that body is selected.
      const int body = doc()->model().frames[doc()->model().frameIndex(link)].body;
      QCOMPARE(doc()->selectedBody(), body);
      QCOMPARE(m_window->scene()->selectedBody(), body);
      QCOMPARE(m_window->modelTreeDock()->tree()->currentItem(), m_window->modelTreeDock()->itemForBody(body));
      QVERIFY2(dock()->details().contains(QString::fromStdString(all[index].hint).left(40)),
               qPrintable(dock()->details()));
    }
  }

  // The window takes limits as the engine does: a range of no width holds the joint (its slider
  // is disabled, the pose starts there); placeholder limits are no limits (the sliders move freely).
  void limitsAsTheEngineTakesThem() {
    const int wrist = doc()->model().jointIndex("wrist");
    QCOMPARE(doc()->q()[doc()->model().joints[wrist].idx_q], 0.5);
    auto* slider = m_window->findChild<QSlider*>("slider:wrist");
    QVERIFY(slider && !slider->isEnabled());
    QVERIFY(doc()->setJointValue(doc()->model().joints[wrist].idx_q, 1.0));
    QCOMPARE(doc()->q()[doc()->model().joints[wrist].idx_q], 0.5);
    QVERIFY(m_window->findChild<QSlider*>("slider:shoulder_pan")->isEnabled());
  }

  void grabForAHuman() {
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (dir.isEmpty()) QSKIP("set DYNSCOPE_GRAB_DIR to keep a picture of the window");
    QDir().mkpath(dir);
    QTest::qWait(200);
    QVERIFY(m_window->grab().save(dir + "/model_check_window.png"));
  }

  // A fix-up reloads the robot with its changes listed in the log; unchecking it restores the file's values.
  void fixupsAreListedAndReversible() {
    const dyn::FindingCounts before = dyn::countFindings(doc()->findings());
    QAction* balance = fixup("balance-inertias");
    QVERIFY(balance && !balance->isChecked());
    QVERIFY(toggleAndWait(balance));
    QVERIFY(balance->isChecked());
    QCOMPARE(doc()->loadedFixups(), std::vector<dyn::Fixup>{dyn::Fixup::BalanceInertias});
    const dyn::Model reference =
        dyn::loadModel(data("arm_with_warnings.urdf").toStdString(), {.fixups = {dyn::Fixup::BalanceInertias}});
    const dyn::FindingCounts after = dyn::countFindings(doc()->findings());
    QCOMPARE(after.warnings, dyn::countFindings(reference.findings).warnings);
    QVERIFY(after.warnings < before.warnings);
    QCOMPARE(m_window->modelCheckBadge()->text(), QString::number(after.warnings));
    const QString log = m_window->logDock()->plainText();
    QVERIFY2(log.contains("Fix-up: ") && log.contains("link 'shoulder_link' <inertial>: principal moments"),
             qPrintable(log));
    const int shoulder = doc()->model().bodyIndex("shoulder_link");
    QVERIFY(doc()->model().I[shoulder].Ibar.isApprox(reference.I[shoulder].Ibar));

    QVERIFY(toggleAndWait(balance));  // off again: the file's values
    QVERIFY(!balance->isChecked());
    QCOMPARE(dyn::countFindings(doc()->findings()).warnings, before.warnings);
    const dyn::Model asGiven = dyn::loadModel(data("arm_with_warnings.urdf").toStdString());
    QVERIFY(doc()->model().I[shoulder].Ibar.isApprox(asGiven.I[shoulder].Ibar));
  }

  // A saved project keeps the fix-ups; opening it applies them; opening a plain file clears them.
  void projectKeepsTheFixups() {
    QVERIFY(toggleAndWait(fixup("unlimited-degenerate-limits")));
    const QString path = m_tmp.filePath("arm.json");
    QVERIFY(m_window->saveProject(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("\"unlimited-degenerate-limits\""));

    QString error;
    QVERIFY(dyn::testing::openAndWait(*m_window, QDir(DYNSCOPE_ROBOTS_DIR).filePath("ur5.urdf"), &error));
    QVERIFY(doc()->loadedFixups().empty());
    QVERIFY(!fixup("unlimited-degenerate-limits")->isChecked());
    QVERIFY(!m_window->modelCheckBadge()->isVisible());  // notes only

    QVERIFY2(dyn::testing::openAndWait(*m_window, path, &error), qPrintable(error));
    QCOMPARE(doc()->loadedFixups(), std::vector<dyn::Fixup>{dyn::Fixup::UnlimitedDegenerateLimits});
    QVERIFY(fixup("unlimited-degenerate-limits")->isChecked());
    const int wrist = doc()->model().jointIndex("wrist");
    QVERIFY(std::isinf(doc()->model().upperLimit[doc()->model().joints[wrist].idx_q]));
    QVERIFY2(m_errors.isEmpty(), qPrintable(m_errors));
  }

  void placeholderLimitsMoveFreely() {
    QString error;
    QVERIFY2(dyn::testing::openAndWait(*m_window, data("double_pendulum_placeholder.urdf"), &error), qPrintable(error));
    QCOMPARE(m_window->modelCheckBadge()->text(), QString("2"));  // the two placeholders
    for (const char* joint : {"joint1", "joint2"}) {
      auto* slider = m_window->findChild<QSlider*>(QString("slider:") + joint);
      QVERIFY(slider && slider->isEnabled());
      const int iq = doc()->model().joints[doc()->model().jointIndex(joint)].idx_q;
      QVERIFY(doc()->setJointValue(iq, 1.2));
      QCOMPARE(doc()->q()[iq], 1.2);
    }
  }

  // A tool plate without mass on a prismatic joint: the robot opens with the warning, and the live
  // forward dynamics says that (and where) it refuses instead of showing NaN.
  void liveForwardDynamicsRefusesNamingTheJoint() {
    QString error;
    QVERIFY2(dyn::testing::openAndWait(*m_window, data("linear_stage.urdf"), &error), qPrintable(error));
    QVERIFY(indexOf(doc()->findings(), "mass.zero_leaf", "tool_plate") >= 0);
    const QString refusal = m_window->trajectory()->forwardRefusal();
    QVERIFY2(refusal.contains("joint 'tool_slide' (link 'tool_plate')") && refusal.contains("not positive"),
             qPrintable(refusal));
    QVERIFY(m_window->trajectory()->forwardQddAtTime().size() == 0);
    m_window->algorithmsDock()->raise();
    QTest::qWait(50);
    QVERIFY2(m_window->algorithmsDock()->liveText().contains("refuses"),
             qPrintable(m_window->algorithmsDock()->liveText()));
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (!dir.isEmpty()) QVERIFY(m_window->grab().save(dir + "/model_check_refusal.png"));
    QVERIFY2(m_errors.isEmpty(), qPrintable(m_errors));
  }

  // Balancing on a camera head without mass: the head is left as it is, the panel and the log say
  // balancing cannot give it mass, and the log names the fix-up that can, with its menu path; that
  // fix-up then gives the head mass and forward dynamics runs.
  void balancingOffersTheMassFixup() {
    QString error;
    QVERIFY2(dyn::testing::openAndWait(*m_window, data("massless_pan_tilt.urdf"), &error), qPrintable(error));
    QAction* balance = fixup("balance-inertias");
    QAction* mass = fixup("mass-massless-links");
    QVERIFY(balance && mass && !balance->isChecked() && !mass->isChecked());
    QVERIFY(toggleAndWait(balance));
    const int note = indexOf(doc()->findings(), "fixup.balance-inertias.massless", "pan_link");
    QVERIFY(note >= 0);
    QVERIFY(QString::fromStdString(doc()->findings()[size_t(note)].hint)
                .contains("Give massless moving links a small mass"));
    bool listed = false;  // the panel shows it
    for (QTreeWidgetItemIterator it(dock()->list()); *it; ++it)
      listed = listed || (*it)->text(3).contains("cannot give a massless link mass");  // the message column
    QVERIFY(listed);
    const QString log = m_window->logDock()->plainText();
    QVERIFY2(log.contains("Balance inertias cannot give mass to a massless link (pan_link, tilt_link)") &&
                 log.contains("choose Model > Fix-ups > Give massless moving links a small mass"),
             qPrintable(log));
    QVERIFY(!m_window->trajectory()->forwardRefusal().isEmpty());  // still singular
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty()) {
      m_window->logDock()->show();
      m_window->logDock()->raise();
      QTest::qWait(100);
      QVERIFY(m_window->grab().save(dir + "/model_check_massless_log.png"));
      dock()->raise();
      QTest::qWait(100);
      QVERIFY(m_window->grab().save(dir + "/model_check_massless_panel.png"));
    }
    QVERIFY(toggleAndWait(mass));
    QVERIFY(indexOf(doc()->findings(), "fixup.balance-inertias.massless", "pan_link") < 0);
    QVERIFY(doc()->model().immobileBodies.empty());
    QVERIFY2(m_window->trajectory()->forwardRefusal().isEmpty(), qPrintable(m_window->trajectory()->forwardRefusal()));
    QVERIFY(toggleAndWait(mass));
    QVERIFY(toggleAndWait(balance));
    QVERIFY2(m_errors.isEmpty(), qPrintable(m_errors));
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestModelCheckWindow)
#include "test_model_check_window.moc"
