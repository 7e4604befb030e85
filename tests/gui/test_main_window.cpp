// The workbench window driven as a user would: open files, move joints in the joints dock,
// select links, reload, fail to load, take screenshots. Runs under Xvfb (needs OpenGL).
#include <QtTest>

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkRenderer.h>
#include <QDir>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <cmath>
#include <memory>
#include <set>

#include "document/joint_coordinates.hpp"
#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/app_settings.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/launch_options.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window/model_tree_dock.hpp"
#include "window/properties_dock.hpp"
#include "window/recent_files.hpp"
#include "window/screenshot_command.hpp"
#include "window/shortcuts_dialog.hpp"
#include "window_loading.hpp"

namespace {

const QString kRobots = QStringLiteral(DYNSCOPE_ROBOTS_DIR);
QString robot(const char* name) { return QDir(kRobots).absoluteFilePath(name); }

void writeFile(const QString& path, const QByteArray& content) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(content);
}

// Largest difference between each geometry actor's world pose and the engine's FK
// (placement * X0[body], as the scene documents it).
double actorPoseError(const RobotScene& scene, const dyn::Model& m, const dyn::Data& d) {
  const QList<vtkActor*> actors = scene.geometryActors();
  double worst = 0;
  for (int g = 0; g < actors.size() && g < int(m.geometries.size()); ++g) {
    vtkMatrix4x4* M = actors[g]->GetUserMatrix();
    if (!M) return INFINITY;
    const dyn::Transform<double> X = m.geometries[g].placement * d.X0[m.geometries[g].body];
    const Eigen::Matrix3d R = X.rotation();
    const Eigen::Vector3d p = X.translation();
    for (int r = 0; r < 3; ++r) {
      worst = std::max(worst, std::abs(M->GetElement(r, 3) - p[r]));
      for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(M->GetElement(r, c) - R(r, c)));
    }
  }
  return worst;
}

int distinctColors(const QImage& image) {
  std::set<QRgb> colors;
  for (int y = 0; y < image.height(); y += 4)
    for (int x = 0; x < image.width(); x += 4) colors.insert(image.pixel(x, y));
  return int(colors.size());
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void cleanupTestCase();
  void launchOptionsParse();
  void loadsEveryRobot();
  void opensMujocoModels();
  void spinBoxMovesJointAndScene();
  void sliderAndUnitsAgree();
  void zeroHomeRandomizeStayWithinLimits();
  void failedLoadKeepsPreviousRobot_data();
  void failedLoadKeepsPreviousRobot();
  void reloadKeepsJointValuesWhereNamesMatch();
  void recentFilesUpdate();
  void selectionIsSharedByTreeSceneAndProperties();
  void clickingALinkSelectsIt();
  void floatingBaseGetsPositionAndRpyEditors();
  void continuousPrismaticAndSphericalEditors();
  void jointFilterHidesRows();
  void typingInEditorsDoesNotTriggerShortcuts();
  void presentationModeRoundTrip();
  void exportImageWritesPng();
  void screenshotCommandWritesPng();
  void screenshotCommandFailsOnBadModel();
  void dropOpensFile();
  void helpListsEveryShortcut();
  void layoutPersistsAcrossSessions();
  void windowGrabForInspection();

 private:
  bool open(const QString& path, QString* error = nullptr);
  RobotDocument* doc() const { return m_window->document(); }

  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QStringList m_errors;  // intercepted error dialogs
};

void TestMainWindow::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);  // QSettings go to ~/.qttest, not the user's config
  QSettings(kSettingsOrganization, kSettingsApplication).clear();
  QVERIFY(m_tmp.isValid());
  m_window = std::make_unique<MainWindow>();
  m_window->setErrorHandler([this](const QString&, const QString& text) { m_errors << text; });
  m_window->resize(1400, 900);
  m_window->show();
  QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMainWindow::cleanupTestCase() {
  m_window.reset();
  QSettings(kSettingsOrganization, kSettingsApplication).clear();
}

bool TestMainWindow::open(const QString& path, QString* error) {
  return dyn::testing::openAndWait(*m_window, path, error, 20);
}

void TestMainWindow::launchOptionsParse() {
  LaunchOptions o;
  QString error;
  QVERIFY(parseLaunchOptions(
      {"dynscope", "r.urdf", "--screenshot", "o.png", "--q", "0.1, -2,3e-1", "--size", "640x480"}, &o, &error));
  QCOMPARE(o.model, QString("r.urdf"));
  QCOMPARE(o.screenshot, QString("o.png"));
  QVERIFY(o.hasQ);
  QCOMPARE(o.q.size(), size_t(3));
  QCOMPARE(o.q[2], 0.3);
  QCOMPARE(o.size, QSize(640, 480));
  QVERIFY(parseLaunchOptions({"dynscope"}, &o, &error));
  QVERIFY(o.model.isEmpty() && o.screenshot.isEmpty() && !o.hasQ);
  QVERIFY(!parseLaunchOptions({"dynscope", "--q", "1,x"}, &o, &error));
  QVERIFY(error.contains("'x'"));
  QVERIFY(!parseLaunchOptions({"dynscope", "--size", "640"}, &o, &error));
  QVERIFY(!parseLaunchOptions({"dynscope", "a.urdf", "b.urdf"}, &o, &error));
  QVERIFY(!parseLaunchOptions({"dynscope", "--bogus"}, &o, &error));
}

void TestMainWindow::loadsEveryRobot() {
  const QStringList files = QDir(kRobots).entryList({"*.urdf", "*.xml", "*.dh"}, QDir::Files, QDir::Name);
  QVERIFY(files.size() >= 7);
  for (const QString& name : files) {
    const QString path = QDir(kRobots).absoluteFilePath(name);
    QString error;
    QVERIFY2(open(path, &error), qPrintable(name + ": " + error));
    const dyn::Model expected = dyn::loadModel(path.toStdString());
    const dyn::Model& m = doc()->model();
    QCOMPARE(doc()->sourceFile(), path);
    QCOMPARE(m.name, expected.name);
    QCOMPARE(m.N, expected.N);
    QCOMPARE(m.nv, expected.nv);
    QCOMPARE(doc()->q().size(), Eigen::Index(m.nq));
    // The docks follow: one tree item per body, one joint row per DOF (fixed base: 1-DOF joints).
    for (int i = 0; i <= m.N; ++i) QVERIFY(m_window->modelTreeDock()->itemForBody(i));
    QCOMPARE(m_window->modelTreeDock()->itemForBody(m.N)->text(ModelTreeDock::Name),
             QString::fromStdString(m.bodyNames[m.N]));
    QCOMPARE(int(m_window->jointsDock()->rows().size()), m.nv);
    // The scene built an actor per geometry and placed it where the engine says.
    QVERIFY(m_window->scene()->hasModel());
    QCOMPARE(m_window->scene()->geometryActors().size(), qsizetype(m.geometries.size()));
    QVERIFY2(actorPoseError(*m_window->scene(), m, doc()->data()) < 1e-9, qPrintable(name));
    QVERIFY(m_window->windowTitle().contains(name));
  }
  QVERIFY(m_errors.isEmpty());
}

// MuJoCo's MJCF (docs/mjcf.md): the test models open in the window like any robot, free bases and
// ball joints included, with the 3D view placing each geom where the engine says.
void TestMainWindow::opensMujocoModels() {
  const QDir dir(QStringLiteral(DYNSCOPE_TEST_DATA_DIR "/mjcf"));
  int opened = 0, keyframes = 0;
  for (const QString& name : dir.entryList({"*.xml"}, QDir::Files, QDir::Name)) {
    const QString path = dir.absoluteFilePath(name);
    dyn::Model expected;
    try {
      expected = dyn::loadModel(path.toStdString());
    } catch (const std::exception&) {
      continue;  // an <include>d asset file, not a model of its own
    }
    QString error;
    QVERIFY2(open(path, &error), qPrintable(name + ": " + error));
    const dyn::Model& m = doc()->model();
    QCOMPARE(m.nv, expected.nv);
    QCOMPARE(doc()->q().size(), Eigen::Index(m.nq));
    if (m.N == 0) {  // a world with no bodies (an <include>d asset file): an empty model, as MuJoCo loads it
      QVERIFY(m_window->jointsDock()->rows().empty());
      QVERIFY(m_window->windowTitle().contains(name));
      continue;
    }
    QVERIFY(m_window->modelTreeDock()->itemForBody(m.N));
    QVERIFY(!m_window->jointsDock()->rows().empty());
    QVERIFY(m_window->scene()->hasModel());
    QCOMPARE(m_window->scene()->geometryActors().size(), qsizetype(m.geometries.size()));
    QVERIFY2(actorPoseError(*m_window->scene(), m, doc()->data()) < 1e-9, qPrintable(name));
    QVERIFY(m_window->windowTitle().contains(name));
    // Keyframes are in the Home button's menu; choosing one poses the robot.
    for (const dyn::NamedPose& pose : m.poses) {
      auto* action = m_window->jointsDock()->findChild<QAction*>("pose:" + QString::fromStdString(pose.name));
      QVERIFY2(action, qPrintable(name + ": no menu entry for pose " + QString::fromStdString(pose.name)));
      action->trigger();
      QVERIFY((doc()->q() - pose.q).cwiseAbs().maxCoeff() < 1e-12);
      ++keyframes;
    }
    ++opened;
  }
  QVERIFY(opened >= 5);
  QVERIFY(keyframes >= 2);
  QVERIFY(m_errors.isEmpty());
}

void TestMainWindow::spinBoxMovesJointAndScene() {
  QVERIFY(open(robot("ur5.urdf")));
  m_window->jointsDock()->setDegrees(true);
  JointRow* row = m_window->jointsDock()->row("elbow_joint");
  QVERIFY(row);
  const int iq = row->coordinate().qIndex;
  const dyn::Model& m = doc()->model();
  const int body = m.jointIndex("elbow_joint");
  QCOMPARE(iq, m.joints[body].idx_q);
  const double before = doc()->q()[iq];
  const int wrist = m.bodyIndex("wrist_3_link");
  QVERIFY(wrist > body);
  const Eigen::Vector3d wristBefore = doc()->data().X0[wrist].translation();

  QDoubleSpinBox* spin = row->spinBox();
  QCOMPARE(spin->suffix(), QString(" °"));
  spin->setValue(spin->value() + 30.0);  // as a user typing / stepping in degrees
  QCOMPARE(doc()->q()[iq], before + 30.0 * M_PI / 180.0);
  // Forward kinematics ran: links beyond the joint moved, and every actor follows the engine.
  QVERIFY((doc()->data().X0[wrist].translation() - wristBefore).norm() > 0.05);
  QVERIFY(actorPoseError(*m_window->scene(), m, doc()->data()) < 1e-9);
  QTRY_VERIFY(m_window->lastFrameMs() > 0);  // set when the pose has been rendered
  QTRY_VERIFY(m_window->findChild<QLabel*>("frameTimeLabel")->text().contains("ms"));  // within kFrameLabelMs
}

void TestMainWindow::sliderAndUnitsAgree() {
  QVERIFY(open(robot("ur5.urdf")));
  JointRow* row = m_window->jointsDock()->row("shoulder_lift_joint");
  QVERIFY(row);
  const JointCoordinate& c = row->coordinate();
  row->slider()->setValue(row->slider()->maximum());  // drag to the end: the upper limit
  QVERIFY(std::abs(doc()->q()[c.qIndex] - c.upper) < 1e-12);
  m_window->jointsDock()->setDegrees(false);
  QCOMPARE(row->spinBox()->suffix(), QString(" rad"));
  QVERIFY(std::abs(row->spinBox()->value() - c.upper) < 1e-4);
  m_window->jointsDock()->setDegrees(true);
  QVERIFY(std::abs(row->spinBox()->value() - c.upper * 180 / M_PI) < 1e-2);
  QVERIFY(std::abs(row->spinBox()->maximum() - c.upper * 180 / M_PI) < 1e-2);
}

void TestMainWindow::zeroHomeRandomizeStayWithinLimits() {
  QVERIFY(open(robot("panda.urdf")));  // panda has a joint whose range excludes 0
  const dyn::Model& m = doc()->model();
  const auto withinLimits = [&] {
    for (int k = 0; k < m.nq; ++k)
      if (std::isfinite(m.lowerLimit[k]) &&
          (doc()->q()[k] < m.lowerLimit[k] - 1e-12 || doc()->q()[k] > m.upperLimit[k] + 1e-12))
        return false;
    return true;
  };
  QVERIFY(withinLimits());
  const Eigen::VectorXd home = doc()->q();
  for (int i = 0; i < 20; ++i) {
    m_window->findChild<QPushButton*>("randomizeButton")->click();
    QVERIFY(withinLimits());
  }
  QVERIFY((doc()->q() - home).norm() > 1e-3);
  m_window->findChild<QToolButton*>("homeButton")->click();
  QVERIFY(doc()->q().isApprox(home));
  doc()->setJointValue(0, 0.5);
  m_window->findChild<QPushButton*>("zeroButton")->click();
  QCOMPARE(doc()->q()[0], 0.0);
  QVERIFY(withinLimits());
}

void TestMainWindow::failedLoadKeepsPreviousRobot_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("expected");  // part of the message the user must see
  const QString dir = m_tmp.path();
  writeFile(dir + "/malformed.urdf",
            "<?xml version=\"1.0\"?>\n<robot name=\"bad\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n"
            "  <joint name=\"j\" type=\"revolving\">\n    <parent link=\"a\"/>\n    <child link=\"b\"/>\n  "
            "</joint>\n</robot>\n");
  writeFile(dir + "/truncated.urdf", "<robot name=\"x\"><link name=\"a\"/><joint name=\"j\" type=\"revolute\">");
  writeFile(dir + "/notes.txt", "this is not a robot\n");
  QImage png(8, 8, QImage::Format_RGB32);
  png.fill(Qt::red);
  QVERIFY(png.save(dir + "/picture.urdf", "PNG"));  // a PNG renamed .urdf
  writeFile(dir + "/bad.dh", "garbage line\n");
  QTest::newRow("malformed URDF: file, line, element") << dir + "/malformed.urdf"
                                                       << "malformed.urdf:5: joint 'j'";
  QTest::newRow("truncated XML") << dir + "/truncated.urdf"
                                 << "truncated.urdf";
  QTest::newRow("missing file") << dir + "/does_not_exist.urdf"
                                << "file not found";
  QTest::newRow("text file") << dir + "/notes.txt"
                             << "unsupported file type";
  QTest::newRow("PNG renamed .urdf") << dir + "/picture.urdf"
                                     << "binary";
  QTest::newRow("bad DH table") << dir + "/bad.dh"
                                << "bad.dh:1";
  QTest::newRow("a folder") << dir << "folder";
}

void TestMainWindow::failedLoadKeepsPreviousRobot() {
  QFETCH(QString, file);
  QFETCH(QString, expected);
  QVERIFY(open(robot("ur5.urdf")));
  doc()->setJointValue(1, -0.7);
  const Eigen::VectorXd q = doc()->q();
  const int actors = int(m_window->scene()->geometryActors().size());
  m_errors.clear();
  QString error;
  QVERIFY(!open(file, &error));
  QVERIFY2(error.contains(expected), qPrintable(error));
  QCOMPARE(m_errors.size(), 1);  // one dialog (intercepted), with the loader's message
  QVERIFY(m_errors.first().contains(error));
  QVERIFY(m_errors.first().contains("ur5"));  // says the previous robot stays
  QVERIFY(m_window->logDock()->plainText().contains(error));
  QCOMPARE(doc()->sourceFile(), robot("ur5.urdf"));
  QCOMPARE(doc()->robotName(), QString("ur5"));
  QVERIFY(doc()->q() == q);
  QCOMPARE(int(m_window->scene()->geometryActors().size()), actors);
  QCOMPARE(int(m_window->jointsDock()->rows().size()), 6);
  QVERIFY(!recent_files::list().contains(QFileInfo(file).absoluteFilePath()));
  m_errors.clear();
}

void TestMainWindow::reloadKeepsJointValuesWhereNamesMatch() {
  // A copy we can edit between loads.
  const QString path = m_tmp.filePath("ur5_copy.urdf");
  QFile::remove(path);
  QVERIFY(QFile::copy(robot("ur5.urdf"), path));
  QVERIFY(open(path));
  const dyn::Model m0 = doc()->model();  // a copy: reload replaces the document's model
  for (int k = 0; k < m0.nq; ++k) doc()->setJointValue(k, 0.1 * (k + 1));
  const Eigen::VectorXd q = doc()->q();

  QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
  m_window->activateWindow();  // shortcuts need the active window
  QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  QTest::keyClick(m_window.get(), Qt::Key_F5);  // File > Reload
  QVERIFY(finished.wait(30000));
  QVERIFY(finished.at(0).at(0).toBool());
  QVERIFY(finished.at(0).at(2).toBool());  // was a reload
  QVERIFY(doc()->q().isApprox(q));
  QCOMPARE(m_window->jointsDock()->rows()[2]->value(), q[2]);  // the dock shows the kept values

  // Rename one joint in the file: that one starts from zero, the others keep their values.
  QFile f(path);
  QVERIFY(f.open(QIODevice::ReadOnly));
  QByteArray text = f.readAll();
  f.close();
  text.replace("\"elbow_joint\"", "\"renamed_elbow_joint\"");
  writeFile(path, text);
  QString error;
  QVERIFY2(doc()->reload(&error), qPrintable(error));
  const dyn::Model& m = doc()->model();
  const int renamed = m.jointIndex("renamed_elbow_joint");
  QVERIFY(renamed > 0);
  QCOMPARE(doc()->q()[m.joints[renamed].idx_q], 0.0);
  for (int i = 1; i <= m.N; ++i)
    if (i != renamed) QCOMPARE(doc()->q()[m.joints[i].idx_q], q[m0.joints[m0.jointIndex(m.jointNames[i])].idx_q]);
  QVERIFY(actorPoseError(*m_window->scene(), m, doc()->data()) < 1e-9);
}

void TestMainWindow::recentFilesUpdate() {
  recent_files::clear();
  QVERIFY(open(robot("ur5.urdf")));
  QVERIFY(open(robot("puma560.dh")));
  QVERIFY(open(robot("ur5.urdf")));
  const QStringList recent = recent_files::list();
  QCOMPARE(recent, QStringList({robot("ur5.urdf"), robot("puma560.dh")}));  // most recent first, no duplicates
  QMenu* menu = m_window->findChild<QMenu*>("recentMenu");
  QVERIFY(menu);
  emit menu->aboutToShow();
  QVERIFY(menu->actions().size() >= 2);
  QVERIFY(menu->actions()[0]->text().contains("ur5.urdf"));
  QVERIFY(menu->actions()[1]->text().contains("puma560.dh"));
  // Opening from the menu works like File > Open.
  QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
  menu->actions()[1]->trigger();
  QVERIFY(finished.wait(30000));
  QCOMPARE(doc()->sourceFile(), robot("puma560.dh"));
  for (int i = 0; i < 15; ++i) recent_files::add(m_tmp.filePath(QString("r%1.urdf").arg(i)));
  QCOMPARE(recent_files::list().size(), recent_files::kMaximum);
  QCOMPARE(recent_files::list().first(), m_tmp.filePath("r14.urdf"));
}

void TestMainWindow::selectionIsSharedByTreeSceneAndProperties() {
  QVERIFY(open(robot("ur5.urdf")));
  const dyn::Model& m = doc()->model();
  const int b = m.bodyIndex("forearm_link");
  QVERIFY(b > 0);
  doc()->setSelectedBody(b);  // as a 3D pick does
  QTreeWidget* tree = m_window->modelTreeDock()->tree();
  QCOMPARE(tree->currentItem()->text(ModelTreeDock::Name), QString("forearm_link"));
  QCOMPARE(m_window->scene()->selectedBody(), b);
  QVERIFY(m_window->propertiesDock()->value("Link") == "forearm_link");
  QVERIFY(m_window->propertiesDock()->value("Mass").startsWith(QString::number(m.I[b].m, 'f', 4)));
  QVERIFY(m_window->propertiesDock()->value("Joint").contains("elbow_joint"));

  // Selecting in the tree selects in the document and the scene.
  const int upper = m.bodyIndex("upper_arm_link");
  QTreeWidgetItem* item = m_window->modelTreeDock()->itemForBody(upper);
  tree->setCurrentItem(item);
  QCOMPARE(doc()->selectedBody(), upper);
  QCOMPARE(m_window->scene()->selectedBody(), upper);
  // The world position shown is the link frame's (oMf), not the canonical body frame.
  const int f = m.frameIndex("upper_arm_link");
  const Eigen::Vector3d p = doc()->data().oMf[f].translation();
  QVERIFY(m_window->propertiesDock()->value("Position (world)").startsWith(QString::number(p.x(), 'f', 4)));
  doc()->setSelectedBody(-1);
  QVERIFY(tree->selectedItems().isEmpty());
}

void TestMainWindow::clickingALinkSelectsIt() {
  QVERIFY(open(robot("humanoid.urdf")));
  m_window->scene()->setViewPreset(RobotScene::Front);
  QTest::qWait(50);
  // Project the chest's COM into the viewport and click there.
  const dyn::Model& m = doc()->model();
  const int torso = m.bodyIndex("chest");
  QVERIFY2(torso > 0, "humanoid has a chest link");
  const int f = m.frameIndex("chest");
  const Eigen::Vector3d c =
      doc()->data().oMf[f].pointToA(m.I[torso].transformToA(m.frames[f].placement.inverse()).com());
  vtkRenderer* r = m_window->viewport()->renderer();
  r->SetWorldPoint(c.x(), c.y(), c.z(), 1.0);
  r->WorldToDisplay();
  double* dp = r->GetDisplayPoint();
  const qreal dpr = m_window->viewport()->devicePixelRatioF();
  const QPoint widgetPos(qRound(dp[0] / dpr), qRound(m_window->viewport()->height() - dp[1] / dpr));
  QVERIFY(m_window->viewport()->rect().contains(widgetPos));
  doc()->setSelectedBody(-1);
  QTest::mouseClick(m_window->viewport(), Qt::LeftButton, Qt::NoModifier, widgetPos);
  QTRY_COMPARE(doc()->selectedBody(), torso);
  QCOMPARE(m_window->modelTreeDock()->tree()->currentItem()->text(ModelTreeDock::Name), QString("chest"));
}

void TestMainWindow::floatingBaseGetsPositionAndRpyEditors() {
  QAction* floating = m_window->findChild<QAction*>("floatingBaseAction");
  QVERIFY(floating);
  QVERIFY(open(robot("quadruped.urdf")));
  QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
  floating->setChecked(true);  // reloads with a free joint above the trunk
  QVERIFY(finished.wait(30000));
  const dyn::Model& m = doc()->model();
  QVERIFY(m.floatingBase);
  QCOMPARE(m.joints[1].type, dyn::JointType::Floating);
  const QString root = QString::fromStdString(m.jointNames[1]);
  for (const char* label : {"x", "y", "z", "roll", "pitch", "yaw"})
    QVERIFY2(m_window->jointsDock()->row(root, label), label);
  QCOMPARE(int(m_window->jointsDock()->rows().size()), 6 + 12);

  m_window->jointsDock()->row(root, "z")->spinBox()->setValue(0.25);
  QCOMPARE(doc()->q()[2], 0.25);
  m_window->jointsDock()->setDegrees(true);
  m_window->jointsDock()->row(root, "yaw")->spinBox()->setValue(90.0);
  m_window->jointsDock()->row(root, "roll")->spinBox()->setValue(10.0);
  const Eigen::Vector4d quat = doc()->q().segment<4>(3);
  QVERIFY(std::abs(quat.norm() - 1) < 1e-12);
  const Eigen::Vector3d rpy = quaternionToRpy(quat) * 180 / M_PI;
  QVERIFY2(std::abs(rpy.x() - 10) < 1e-6 && std::abs(rpy.y()) < 1e-6 && std::abs(rpy.z() - 90) < 1e-6,
           qPrintable(QString("%1 %2 %3").arg(rpy.x()).arg(rpy.y()).arg(rpy.z())));
  // The trunk frame now has yaw 90° in the world: its x axis points along world y.
  const Eigen::Matrix3d R = doc()->data().X0[1].rotation();
  QVERIFY(std::abs(R(1, 0) - 1) < 1e-9);
  QVERIFY(actorPoseError(*m_window->scene(), m, doc()->data()) < 1e-9);

  floating->setChecked(false);
  QVERIFY(finished.wait(30000));
  QVERIFY(!doc()->model().floatingBase);
  // The choice belongs to one robot: the next file opens on a fixed base, the menu unticked.
  floating->setChecked(true);
  QVERIFY(finished.wait(30000));
  QVERIFY(open(robot("panda.urdf")));
  QVERIFY(!doc()->model().floatingBase);
  QVERIFY(!floating->isChecked());
}

void TestMainWindow::continuousPrismaticAndSphericalEditors() {
  const QByteArray inertial =
      "<inertial><mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" "
      "iyz=\"0\"/></inertial>"
      "<visual><geometry><box size=\"0.1 0.1 0.1\"/></geometry></visual>";
  const QString path = m_tmp.filePath("mixed.urdf");
  writeFile(path,
            "<robot name=\"mixed\">\n"
            "<link name=\"base\">" +
                inertial + "</link>\n<link name=\"a\">" + inertial +
                "</link>\n"
                "<link name=\"b\">" +
                inertial + "</link>\n<link name=\"c\">" + inertial +
                "</link>\n"
                "<joint name=\"spin\" type=\"continuous\"><parent link=\"base\"/><child link=\"a\"/><axis xyz=\"0 0 "
                "1\"/></joint>\n"
                "<joint name=\"slide\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"1 0 0\"/>"
                "<limit lower=\"-0.2\" upper=\"0.3\" effort=\"10\" velocity=\"1\"/></joint>\n"
                "<joint name=\"ball\" type=\"spherical\"><parent link=\"b\"/><child link=\"c\"/>"
                "<origin xyz=\"0 0 0.2\"/></joint>\n</robot>\n");
  QString error;
  QVERIFY2(open(path, &error), qPrintable(error));
  JointsDock* dock = m_window->jointsDock();
  dock->setDegrees(true);
  QCOMPARE(int(dock->rows().size()), 1 + 1 + 3);

  JointRow* spin = dock->row("spin");
  QVERIFY(spin && spin->spinBox()->wrapping());
  QCOMPARE(spin->spinBox()->maximum(), 180.0);
  QVERIFY(doc()->setJointValue(spin->coordinate().qIndex, 4.0));  // past pi: wraps
  QVERIFY(std::abs(doc()->q()[spin->coordinate().qIndex] - (4.0 - 2 * M_PI)) < 1e-12);

  JointRow* slide = dock->row("slide");
  QVERIFY(slide && !slide->spinBox()->wrapping());
  QCOMPARE(slide->spinBox()->suffix(), QString(" m"));
  QCOMPARE(slide->spinBox()->maximum(), 0.3);
  QVERIFY(doc()->setJointValue(slide->coordinate().qIndex, 5.0));  // clamped into the limits
  QCOMPARE(doc()->q()[slide->coordinate().qIndex], 0.3);
  QCOMPARE(slide->spinBox()->value(), 0.3);

  const int ball = doc()->model().jointIndex("ball");
  QCOMPARE(doc()->model().joints[ball].type, dyn::JointType::Spherical);
  dock->row("ball", "pitch")->spinBox()->setValue(30.0);
  const Eigen::Vector4d quat = doc()->q().segment<4>(doc()->model().joints[ball].idx_q);
  QVERIFY(quat.isApprox(Eigen::Vector4d(0, std::sin(M_PI / 12), 0, std::cos(M_PI / 12)), 1e-9));
  QVERIFY(actorPoseError(*m_window->scene(), doc()->model(), doc()->data()) < 1e-9);
  // Randomize gives the ball joint a unit quaternion and keeps the slide in its limits.
  doc()->randomize();
  QVERIFY(std::abs(doc()->q().segment<4>(doc()->model().joints[ball].idx_q).norm() - 1) < 1e-12);
  const double s = doc()->q()[slide->coordinate().qIndex];
  QVERIFY(s >= -0.2 && s <= 0.3);
}

void TestMainWindow::typingInEditorsDoesNotTriggerShortcuts() {
  // 1-4 and F are camera shortcuts; typed into the filter or a spin box they are text.
  QVERIFY(open(robot("humanoid.urdf")));
  m_window->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
  auto* filter = m_window->findChild<QLineEdit*>("jointFilter");
  filter->setFocus();
  QTest::keyClicks(filter, "left_f1");
  QCOMPARE(filter->text(), QString("left_f1"));
  filter->clear();
  JointRow* row = m_window->jointsDock()->row("left_knee_joint");
  QDoubleSpinBox* spin = row->spinBox();
  spin->setFocus();
  spin->selectAll();
  QTest::keyClicks(spin, "12");
  QTest::keyClick(spin, Qt::Key_Return);
  QVERIFY2(std::abs(doc()->q()[row->coordinate().qIndex] - 12 * M_PI / 180) < 1e-9, qPrintable(spin->text()));
}

void TestMainWindow::jointFilterHidesRows() {
  QVERIFY(open(robot("humanoid.urdf")));
  JointsDock* dock = m_window->jointsDock();
  QCOMPARE(int(dock->rows().size()), 32);
  dock->setFilter("knee");
  int visible = 0;
  for (JointRow* r : dock->rows()) visible += !r->isHidden();
  QCOMPARE(visible, 2);
  dock->setFilter(QString());
  visible = 0;
  for (JointRow* r : dock->rows()) visible += !r->isHidden();
  QCOMPARE(visible, 32);
}

void TestMainWindow::presentationModeRoundTrip() {
  QVERIFY(open(robot("ur5.urdf")));
  const QFont before = QApplication::font();
  m_window->setPresentationMode(true);
  QVERIFY(QApplication::font().pointSizeF() > before.pointSizeF() ||
          QApplication::font().pixelSize() > before.pixelSize());
  QVERIFY(open(robot("panda.urdf")));  // new actors get the presentation style too; no crash
  m_window->setPresentationMode(false);
  QCOMPARE(QApplication::font(), before);
  QVERIFY(!m_window->isFullScreen());
}

void TestMainWindow::exportImageWritesPng() {
  QVERIFY(open(robot("ur5.urdf")));
  const QString path = m_tmp.filePath("export.png");
  QVERIFY(m_window->exportImage(path, QSize(640, 360)));
  QImage image(path);
  QCOMPARE(image.size(), QSize(640, 360));
  QVERIFY(distinctColors(image) > 10);
  QVERIFY(m_window->exportImage(path));  // the viewport's size
  QCOMPARE(QImage(path).size(), m_window->viewport()->size() * m_window->viewport()->devicePixelRatioF());
}

void TestMainWindow::screenshotCommandWritesPng() {
  const QString out = m_tmp.filePath("shot.png");
  const QString model = m_tmp.filePath("ur5_for_screenshot.urdf");
  QFile::remove(model);
  QVERIFY(QFile::copy(robot("ur5.urdf"), model));
  LaunchOptions o;
  QString error;
  QVERIFY(parseLaunchOptions(
      {"dynscope", model, "--screenshot", out, "--q", "0,-1.2,1.5,-0.3,1.57,0", "--size", "480x320"}, &o, &error));
  QCOMPARE(runScreenshot(o, o.model, &error), 0);
  QImage image(out);
  QCOMPARE(image.size(), QSize(480, 320));
  QVERIFY(distinctColors(image) > 10);
  // The robot is in the picture: the centre region is not just background and grid.
  QVERIFY(distinctColors(image.copy(120, 80, 240, 160)) > 10);
  // The headless path leaves the user's settings alone.
  QVERIFY(!recent_files::list().contains(model));
}

void TestMainWindow::screenshotCommandFailsOnBadModel() {
  const QString out = m_tmp.filePath("never.png");
  LaunchOptions o;
  QString error;
  QVERIFY(parseLaunchOptions({"dynscope", m_tmp.filePath("missing.urdf"), "--screenshot", out}, &o, &error));
  QCOMPARE(runScreenshot(o, o.model, &error), 1);
  QVERIFY(error.contains("file not found"));
  QVERIFY(!QFile::exists(out));
  QVERIFY(parseLaunchOptions({"dynscope", robot("ur5.urdf"), "--screenshot", out, "--q", "1,2"}, &o, &error));
  QCOMPARE(runScreenshot(o, o.model, &error), 1);
  QVERIFY(error.contains("nq = 6"));
}

void TestMainWindow::dropOpensFile() {
  QVERIFY(open(robot("ur5.urdf")));
  auto* mime = new QMimeData;
  mime->setUrls({QUrl::fromLocalFile(robot("stanford_arm.dh"))});
  const QPoint at = m_window->viewport()->geometry().center();
  QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(m_window.get(), &enter);
  QVERIFY(enter.isAccepted());
  QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
  QDropEvent drop(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(m_window.get(), &drop);
  QVERIFY(finished.wait(30000));
  QCOMPARE(doc()->sourceFile(), robot("stanford_arm.dh"));
  delete mime;
}

// Help > Keyboard and mouse (F1) lists the window's shortcuts from its actions: F11, the
// workspaces, the lecture's → among them, and the mouse.
void TestMainWindow::helpListsEveryShortcut() {
  QAction* help = m_window->findChild<QAction*>("shortcutsAction");
  QVERIFY(help);
  QCOMPARE(help->shortcut(), QKeySequence(QKeySequence::HelpContents));
  help->trigger();
  ShortcutsDialog* dialog = nullptr;
  QTRY_VERIFY((dialog = m_window->findChild<ShortcutsDialog*>()) && dialog->isVisible());
  QSet<QString> keys;
  for (int r = 0; r < dialog->table()->rowCount(); ++r) keys.insert(dialog->table()->item(r, 1)->text());
  for (const QKeySequence& k : {QKeySequence(Qt::Key_F11), QKeySequence(Qt::Key_Right),
                                QKeySequence(Qt::CTRL | Qt::Key_5), QKeySequence(Qt::Key_F5)})
    QVERIFY2(keys.contains(k.toString(QKeySequence::NativeText)), qPrintable(k.toString()));
  QVERIFY(keys.contains("Wheel, or right drag"));
  QVERIFY(dialog->table()->rowCount() > 20);
  dialog->close();
}

void TestMainWindow::layoutPersistsAcrossSessions() {
  // A second window stands in for the next session: it restores docks and view toggles.
  m_window->logDock()->hide();
  m_window->findChild<QAction*>("show_names")->setChecked(true);
  m_window->close();  // saves geometry, dock state and view settings
  {
    MainWindow next;
    next.show();
    QVERIFY(QTest::qWaitForWindowExposed(&next));
    QVERIFY(next.logDock()->isHidden());
    QVERIFY(!next.jointsDock()->isHidden());
    QVERIFY(next.findChild<QAction*>("show_names")->isChecked());
    next.logDock()->show();
    next.findChild<QAction*>("show_names")->setChecked(false);
    next.close();
  }
  m_window->show();
  m_window->logDock()->show();
  m_window->findChild<QAction*>("show_names")->setChecked(false);
  QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestMainWindow::windowGrabForInspection() {
  // Set DYNSCOPE_GRAB_DIR to keep pictures of the whole window for a human to look at.
  const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
  if (dir.isEmpty()) QSKIP("DYNSCOPE_GRAB_DIR not set");
  QVERIFY(open(robot("humanoid.urdf")));
  doc()->setSelectedBody(doc()->model().bodyIndex("left_upper_arm"));
  m_window->jointsDock()->setFilter(QString());
  QTest::qWait(100);
  QVERIFY(m_window->grab().save(dir + "/window_humanoid.png"));
  m_window->findChild<QAction*>("show_frames")->setChecked(true);
  m_window->findChild<QAction*>("show_com")->setChecked(true);
  QVERIFY(open(robot("panda.urdf")));
  doc()->randomize();
  QTest::qWait(100);
  QVERIFY(m_window->grab().save(dir + "/window_panda.png"));
  m_window->findChild<QAction*>("show_frames")->setChecked(false);
  m_window->findChild<QAction*>("show_com")->setChecked(false);

  QAction* floating = m_window->findChild<QAction*>("floatingBaseAction");
  QVERIFY(open(robot("quadruped.urdf")));
  QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
  floating->setChecked(true);
  QVERIFY(finished.wait(30000));
  doc()->setSelectedBody(1);
  QTest::qWait(100);
  QVERIFY(m_window->grab().save(dir + "/window_quadruped_floating.png"));
  floating->setChecked(false);
  QVERIFY(finished.wait(30000));

  QVERIFY(open(robot("puma560.dh")));
  m_window->setPresentationMode(true);
  QTest::qWait(300);
  QVERIFY(m_window->grab().save(dir + "/window_presentation.png"));
  m_window->setPresentationMode(false);
  QTest::qWait(100);
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
