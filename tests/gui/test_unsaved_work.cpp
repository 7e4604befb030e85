// Nothing is lost in the window: the title's [*] marker follows the documents (waypoints through
// the undo stack's clean state, payload, gravity, a simulation run); everything that would drop
// unsaved work asks Save / Discard / Cancel first and honours the answer; the autosave of a
// session that crashed is offered back and restores the work; the load-failure message never
// shows an empty robot name. Prompts are answered by an injected handler, and once by clicking
// the real QMessageBox. Runs under Xvfb; DYNSCOPE_SCREENSHOTS=dir saves pictures of the marker
// and of the prompt.
#include <QAbstractButton>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <fstream>

#include "document/robot_document.hpp"
#include "document/robot_loader.hpp"
#include "dynscope/dynscope.hpp"
#include "ik/ik_drag_command.hpp"
#include "project/project_file.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "trajectory/trajectory_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace {

using dyn::testing::settle;
QString robot(const char* name) { return dyn::testing::robotFile(name); }

// Records each question and gives a fixed answer.
struct Prompts {
  QStringList texts;
  QMessageBox::StandardButton answer = QMessageBox::Cancel;
  MainWindow::PromptHandler handler() {
    return [this](const QString&, const QString& text, QMessageBox::StandardButtons) {
      texts << text;
      return answer;
    };
  }
};

// The window's title as the X server has it (what a window manager draws), read with xprop:
// Qt replaces [*] by * while the window is modified. Empty when xprop is not installed.
QString serverTitle(QWidget* w) {
  QProcess p;
  p.start("xprop", {"-id", QString::number(w->window()->winId()), "_NET_WM_NAME"});
  if (!p.waitForFinished(5000) || p.exitCode() != 0) return {};
  const QString out = QString::fromUtf8(p.readAllStandardOutput());
  return out.section('"', 1, -2);
}

// The screen, with the server-side title above it (Xvfb has no window manager to draw a title bar).
void saveScreenshot(QWidget* w, const QString& name) {
  const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOTS");
  if (dir.isEmpty()) return;
  QDir().mkpath(dir);
  const QPixmap screen = w->screen()->grabWindow(0);
  QImage out(screen.width(), screen.height() + 40, QImage::Format_RGB32);
  out.fill(QColor(60, 60, 70));
  QPainter painter(&out);
  painter.drawPixmap(0, 40, screen);
  painter.setPen(Qt::white);
  QFont f = painter.font();
  f.setPixelSize(20);
  painter.setFont(f);
  painter.drawText(QRect(10, 0, out.width() - 20, 40), Qt::AlignVCenter, "title bar: " + serverTitle(w));
  painter.end();
  out.save(QDir(dir).filePath(name));
}

// A window with planar3 loaded and no unsaved work.
std::unique_ptr<MainWindow> freshWindow() {
  auto w = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
  w->setErrorHandler(
      [](const QString& title, const QString& text) { qWarning("%s: %s", qPrintable(title), qPrintable(text)); });
  w->resize(1100, 700);
  w->show();
  if (!QTest::qWaitForWindowExposed(w.get()) || !dyn::testing::openAndWait(*w, robot("planar3.dh"))) return nullptr;
  return w;
}

// Two waypoints through the dock (the undo stack), so the trajectory is unsaved work.
void addTwoWaypoints(MainWindow& w) {
  w.trajectoryDock()->addCurrentPose();
  Eigen::VectorXd q = w.document()->q();
  q[0] += 0.5;
  w.document()->setQ(q);
  w.trajectoryDock()->addCurrentPose();
  w.trajectory()->recomputeNow();
}

}  // namespace

class TestUnsavedWork : public QObject {
  Q_OBJECT

 private slots:
  void markerFollowsTheDocuments() {
    auto w = freshWindow();
    QVERIFY(w);
    QVERIFY2(w->windowTitle().contains("planar3.dh[*]"), qPrintable(w->windowTitle()));
    QVERIFY(!w->isWindowModified());
    const QString cleanTitle = serverTitle(w.get());
    addTwoWaypoints(*w);
    QVERIFY(w->isWindowModified());
    settle(200);
    saveScreenshot(w.get(), "modified-marker.png");
    // What the window manager is told: "planar3.dh* — Dynscope" (when xprop is there to ask).
    const QString title = serverTitle(w.get());
    if (!title.isEmpty()) {
      QVERIFY2(title.startsWith("planar3.dh* ") && !cleanTitle.contains('*'), qPrintable(cleanTitle + " / " + title));
    }
    // Undo back to the saved state: clean again; redo: modified.
    w->undoStack()->undo();
    w->undoStack()->undo();
    QVERIFY(!w->isWindowModified());
    w->undoStack()->redo();
    QVERIFY(w->isWindowModified());
    // Saving clears it; the edits that have no undo (payload, gravity, sample rate) set it.
    QTemporaryDir dir;
    QVERIFY(w->saveProject(dir.filePath("p.json")));
    QVERIFY(!w->isWindowModified());
    QVERIFY2(w->windowTitle().contains("p.json[*]"), qPrintable(w->windowTitle()));
    QVERIFY(w->trajectory()->setPayload(dyn::Payload{"tool", 1.5, Eigen::Vector3d(0, 0, 0.1)}));
    QVERIFY(w->isWindowModified());
    QVERIFY(w->saveProject(dir.filePath("p.json")));
    w->trajectory()->setGravity(Eigen::Vector3d(0, 0, -1.62));
    QVERIFY(w->isWindowModified());
    QVERIFY(w->saveProject(dir.filePath("p.json")));
    w->trajectory()->setSampleRate(250);
    QVERIFY(w->isWindowModified());
    // Reopening the project is the saved state.
    QVERIFY(w->saveProject(dir.filePath("p.json")));
    QSignalSpy loaded(w->document(), &RobotDocument::loadingFinished);
    QVERIFY(w->openProject(dir.filePath("p.json")));
    QVERIFY(loaded.wait(30000));
    settle();
    QVERIFY(!w->isWindowModified());
    QCOMPARE(int(w->trajectory()->waypoints().size()), 1);
  }

  // Every action that drops work asks; Cancel keeps everything as it was.
  void cancelKeepsTheWork() {
    auto w = freshWindow();
    QVERIFY(w);
    Prompts prompts;
    w->setPromptHandler(prompts.handler());
    addTwoWaypoints(*w);
    const auto waypoints = w->trajectory()->waypoints().size();
    QCOMPARE(int(waypoints), 2);

    QVERIFY(!w->close());  // the close event is ignored
    QVERIFY(w->isVisible());
    QVERIFY(!w->openFile(robot("stanford_arm.dh")));
    QVERIFY(!w->document()->isLoading());
    w->reloadFile();
    QVERIFY(!w->document()->isLoading());
    w->loadDemo(dyn::DemoTrajectory::SahaPlanar3, robot("planar3.dh"));
    QVERIFY(!w->openProject(robot("../tests/fuzz/corpus/project/waypoints.json")));
    w->simulationDock()->start();
    QVERIFY(!w->simulationDock()->runner()->isRunning());
    settle();
    QCOMPARE(prompts.texts.size(), 6);
    for (const char* action : {"closing", "opening stanford_arm.dh", "reloading planar3.dh",
                               "loading the demonstration", "opening waypoints.json", "running a simulation"})
      QVERIFY2(prompts.texts.filter(action).size() == 1,
               qPrintable(QString(action) + " in " + prompts.texts.join("|")));
    QVERIFY(prompts.texts.front().contains("Save them before"));
    // Nothing moved.
    QCOMPARE(w->trajectory()->waypoints().size(), waypoints);
    QCOMPARE(w->trajectory()->source(), TrajectoryDocument::Source::Waypoints);
    QVERIFY(w->isWindowModified());
    QCOMPARE(w->document()->robotName(), QString("planar3"));
  }

  // A clean window asks nothing.
  void cleanWindowAsksNothing() {
    auto w = freshWindow();
    QVERIFY(w);
    Prompts prompts;
    w->setPromptHandler(prompts.handler());
    QVERIFY(dyn::testing::openAndWait(*w, robot("stanford_arm.dh")));
    w->loadDemo(dyn::DemoTrajectory::SahaStanford, robot("stanford_arm.dh"));
    QVERIFY(!w->isWindowModified());  // a built-in demonstration is not the user's work yet
    QVERIFY(w->close());
    QCOMPARE(prompts.texts.size(), 0);
  }

  // Discard goes on and drops the work; Save writes the project first, then goes on.
  void discardAndSave() {
    auto w = freshWindow();
    QVERIFY(w);
    Prompts prompts;
    w->setPromptHandler(prompts.handler());
    addTwoWaypoints(*w);
    prompts.answer = QMessageBox::Discard;
    QVERIFY(dyn::testing::openAndWait(*w, robot("stanford_arm.dh")));
    QCOMPARE(prompts.texts.size(), 1);
    QVERIFY(w->trajectory()->waypoints().empty());
    QVERIFY(!w->isWindowModified());

    QTemporaryDir dir;
    QVERIFY(w->saveProject(dir.filePath("arm.json")));
    addTwoWaypoints(*w);
    prompts.answer = QMessageBox::Save;
    QVERIFY(w->close());
    QCOMPARE(prompts.texts.size(), 2);
    QVERIFY(prompts.texts.back().contains("arm.json"));
    const dyn::ProjectFile saved = dyn::readProjectFile(dir.filePath("arm.json"));
    QCOMPARE(int(saved.trajectory.waypoints.size()), 2);
  }

  // The simulation replaces the trajectory: a new run asks, a continued run does not.
  void simulationAsksBeforeReplacing() {
    auto w = freshWindow();
    QVERIFY(w);
    Prompts prompts;
    prompts.answer = QMessageBox::Discard;
    w->setPromptHandler(prompts.handler());
    addTwoWaypoints(*w);
    SimulationDock* sim = w->simulationDock();
    sim->start();
    QCOMPARE(prompts.texts.size(), 1);
    QTest::qWait(200);
    sim->pause();
    QCOMPARE(w->trajectory()->source(), TrajectoryDocument::Source::Simulation);
    QVERIFY(w->isWindowModified());  // the run is unsaved work too
    sim->start();                    // continues the paused run
    QTest::qWait(100);
    sim->pause();
    QCOMPARE(prompts.texts.size(), 1);
    QVERIFY(prompts.texts.front().contains("running a simulation"));
    // A new run over a run: asked again, and told the run is not stored in a project.
    sim->reset();
    prompts.answer = QMessageBox::Cancel;
    sim->start();
    QCOMPARE(prompts.texts.size(), 2);
    QVERIFY(prompts.texts.back().contains("Export trajectory CSV"));
    QVERIFY(!sim->runner()->isRunning());
  }

  // A project does not store the robot's pose: an IK drag (on the undo stack, as the drag
  // controller records it) is no unsaved work. The prompt names exactly what is unsaved.
  void promptNamesWhatIsUnsaved() {
    auto w = freshWindow();
    QVERIFY(w);
    Prompts prompts;  // answers Cancel: the window stays open
    w->setPromptHandler(prompts.handler());
    RobotDocument* doc = w->document();
    const Eigen::VectorXd before = doc->q();
    Eigen::VectorXd after = before;
    after[1] += 0.4;
    w->undoStack()->push(new IkDragCommand(doc, before, after, "link2"));
    QVERIFY(doc->q().isApprox(after));
    QVERIFY(!w->isWindowModified());
    QVERIFY(!w->hasUnsavedWork());
    w->undoStack()->undo();  // undoing a drag is no unsaved work either
    QVERIFY(!w->isWindowModified());
    w->undoStack()->redo();
    QVERIFY(!w->isWindowModified());
    QVERIFY(w->close());  // nothing to ask
    QCOMPARE(prompts.texts.size(), 0);
    w->show();

    // The payload alone: the prompt names it, and nothing else.
    QVERIFY(w->trajectory()->setPayload(dyn::Payload{"tool", 1.5, Eigen::Vector3d(0, 0, 0.1)}));
    QVERIFY(!w->close());
    QCOMPARE(prompts.texts.size(), 1);
    QVERIFY2(prompts.texts[0].contains("Not saved for planar3: the payload (1.5 kg on tool).") &&
                 !prompts.texts[0].contains("trajectory") && !prompts.texts[0].contains("gravity"),
             qPrintable(prompts.texts[0]));
    // Waypoints and gravity too: all three, the trajectory as the dock describes it.
    addTwoWaypoints(*w);
    w->trajectory()->setGravity(Eigen::Vector3d(0, 0, -1.62));
    QVERIFY(!w->close());
    QCOMPARE(prompts.texts.size(), 2);
    QVERIFY2(prompts.texts[1].contains("Not saved for planar3: the trajectory (2 waypoints, quintic, 100 Hz), the "
                                       "payload (1.5 kg on tool) and the gravity (0, 0, -1.62 m/s²)."),
             qPrintable(prompts.texts[1]));
    // Saved into a project: a later drag is still no unsaved work; a waypoint edit is, by name.
    QTemporaryDir dir;
    QVERIFY(w->saveProject(dir.filePath("arm.json")));
    QVERIFY(!w->isWindowModified());
    w->undoStack()->push(new IkDragCommand(doc, doc->q(), before, "link2"));
    QVERIFY(!w->isWindowModified());
    w->trajectoryDock()->addCurrentPose();
    QVERIFY(w->isWindowModified());
    QVERIFY(!w->close());
    QCOMPARE(prompts.texts.size(), 3);
    QVERIFY2(prompts.texts[2].contains("Not saved in the project arm.json: the trajectory (3 waypoints") &&
                 !prompts.texts[2].contains("payload"),
             qPrintable(prompts.texts[2]));
    w->setPromptHandler([](auto, auto, auto) { return QMessageBox::Discard; });
  }

  // A file Dynscope does not open (a text file, a picture, a folder) is refused with the loader's
  // message before anything is asked: opening it would drop nothing.
  void wrongFileTypeRefusedBeforeAsking() {
    auto w = freshWindow();
    QVERIFY(w);
    Prompts prompts;
    w->setPromptHandler(prompts.handler());
    QStringList errors;
    w->setErrorHandler([&](const QString&, const QString& text) { errors << text; });
    addTwoWaypoints(*w);
    QTemporaryDir dir;
    const QString text = dir.filePath("notes.txt"), picture = dir.filePath("photo.urdf");
    std::ofstream(text.toStdString()) << "this is not a robot\n";
    QImage png(8, 8, QImage::Format_RGB32);
    png.fill(Qt::red);
    QVERIFY(png.save(picture, "PNG"));
    QVERIFY(!robotFileTypeProblem(text).isEmpty() && !robotFileTypeProblem(picture).isEmpty());
    QVERIFY(robotFileTypeProblem(robot("stanford_arm.dh")).isEmpty() &&
            robotFileTypeProblem(robot("ur5.urdf")).isEmpty());
    for (const auto& [file, expected] :
         {std::pair{text, QString("unsupported file type '.txt'")}, std::pair{picture, QString("binary data")},
          std::pair{dir.path(), QString("is a folder")}}) {
      errors.clear();
      QString error;
      QVERIFY(!dyn::testing::openAndWait(*w, file, &error));
      QVERIFY2(prompts.texts.isEmpty(), qPrintable(file + ": asked " + prompts.texts.join("|")));
      QVERIFY2(error.contains(expected), qPrintable(error));
      QCOMPARE(errors.size(), 1);
      QVERIFY2(errors[0].contains(expected) && errors[0].contains("The previous robot (planar3) stays loaded."),
               qPrintable(errors[0]));
    }
    // Nothing was dropped; a robot file still asks first.
    QCOMPARE(int(w->trajectory()->waypoints().size()), 2);
    QVERIFY(w->isWindowModified());
    QCOMPARE(w->document()->robotName(), QString("planar3"));
    QVERIFY(!w->openFile(robot("stanford_arm.dh")));
    QCOMPARE(prompts.texts.size(), 1);
    w->setPromptHandler([](auto, auto, auto) { return QMessageBox::Discard; });
  }

  // The real dialog: Save, Discard and Cancel buttons; Cancel keeps the window open.
  void theRealMessageBox() {
    auto w = freshWindow();
    QVERIFY(w);
    w->setPromptHandler(w->messageBoxPrompt());
    addTwoWaypoints(*w);
    settle(100);
    QString seen;
    QStringList buttons;
    QTimer::singleShot(300, [&] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      seen = box->objectName() + ": " + box->text();
      for (QAbstractButton* b : box->buttons()) buttons << b->text().remove('&');
      saveScreenshot(box, "unsaved-work-prompt.png");
      box->button(QMessageBox::Cancel)->click();
    });
    QVERIFY(!w->close());
    QVERIFY2(seen.startsWith("unsavedWorkPrompt: ") && seen.contains("Save them before closing"), qPrintable(seen));
    QVERIFY2(buttons.contains("Save") && buttons.contains("Discard") && buttons.contains("Cancel"),
             qPrintable(buttons.join(", ")));
    QVERIFY(w->isVisible() && w->isWindowModified());
    w->setPromptHandler([](auto, auto, auto) { return QMessageBox::Discard; });
  }

  // Autosave, then a "crash" (a session file whose process is gone), then a new window restores it.
  void autosaveAndRestore() {
    QTemporaryDir recovery;
    auto a = freshWindow();
    QVERIFY(a);
    a->enableRecovery(recovery.path(), 60000);
    QVERIFY(!a->autosaveNow());  // nothing unsaved: no file
    QVERIFY(!QFile::exists(a->autosaveFile()));
    addTwoWaypoints(*a);
    QVERIFY(a->trajectory()->setPayload(dyn::Payload{"tool", 2.0, Eigen::Vector3d(0.1, 0, 0)}));
    QVERIFY(a->autosaveNow());
    QVERIFY(QFile::exists(a->autosaveFile()));
    // The running window's own session is not a crash: a second window offers nothing yet.
    auto b = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    Prompts prompts;
    prompts.answer = QMessageBox::Yes;
    b->setPromptHandler(prompts.handler());
    b->enableRecovery(recovery.path());
    QVERIFY(!b->offerRestore());
    QCOMPARE(prompts.texts.size(), 0);
    // A session whose process died leaves its file and no live lock.
    QVERIFY(QFile::copy(a->autosaveFile(), recovery.filePath("session-999999999.json")));
    QSignalSpy loaded(b->document(), &RobotDocument::loadingFinished);
    QVERIFY(b->offerRestore());
    QCOMPARE(prompts.texts.size(), 1);
    QVERIFY2(prompts.texts.front().contains("did not shut down cleanly"), qPrintable(prompts.texts.front()));
    QVERIFY(loaded.wait(30000));
    settle();
    QCOMPARE(b->document()->robotName(), QString("planar3"));
    QCOMPARE(int(b->trajectory()->waypoints().size()), 2);
    QVERIFY(b->trajectory()->payload() && b->trajectory()->payload()->mass == 2.0);
    QVERIFY(b->isWindowModified());                                        // restored work is still unsaved
    QVERIFY(!QFile::exists(recovery.filePath("session-999999999.json")));  // offered once
    QVERIFY(!b->offerRestore());
    // A clean close removes the window's own session file.
    const QString own = a->autosaveFile();
    a->setPromptHandler([](auto, auto, auto) { return QMessageBox::Discard; });
    QVERIFY(a->close());
    QVERIFY(!QFile::exists(own));
    // Declined: the file goes and nothing loads.
    QVERIFY(b->autosaveNow());
    QVERIFY(QFile::copy(b->autosaveFile(), recovery.filePath("session-999999998.json")));
    auto c = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    c->enableRecovery(recovery.path());
    Prompts no;
    no.answer = QMessageBox::No;
    c->setPromptHandler(no.handler());
    QVERIFY(!c->offerRestore());
    QCOMPARE(no.texts.size(), 1);
    QVERIFY(!QFile::exists(recovery.filePath("session-999999998.json")));
    b->setPromptHandler([](auto, auto, auto) { return QMessageBox::Discard; });
  }

  // What cannot be restored is kept, not lost: a crashed session whose process id this window now
  // has (a reused pid), an autosave whose robot file is gone (kept and named in the log), one whose
  // robot fails to load after the user said yes (kept for the next start).
  void recoveryKeepsWhatItCannotRestore() {
    QTemporaryDir recovery, files;
    auto a = freshWindow();
    QVERIFY(a);
    a->enableRecovery(recovery.path(), 60000);
    addTwoWaypoints(*a);
    QVERIFY(a->autosaveNow());
    QFile saved(a->autosaveFile());
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QByteArray json = saved.readAll();
    // Stored absolute, whatever the checkout and the data directory are (a relative path from a
    // temporary directory to the robots only contained the absolute one when both shared a root).
    const QByteArray robotPath = robot("planar3.dh").toUtf8();
    QVERIFY2(json.contains("\"" + robotPath + "\""), json.constData());
    const auto orphan = [&](const QString& name, QByteArray text, int minutesAgo) {
      const QString path = recovery.filePath(name);
      QFile f(path);
      if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) return QString();
      f.close();
      f.open(QIODevice::ReadWrite);
      f.setFileTime(QDateTime::currentDateTime().addSecs(-60 * minutesAgo), QFileDevice::FileModificationTime);
      return path;
    };
    // The crashed session had this very process id (old-style name, no live lock) and is the older one.
    const QString reused =
        orphan(QString("session-%1.json").arg(QCoreApplication::applicationPid()), json, /*minutesAgo=*/10);
    const QString gone = orphan("session-77-1-1.json", QByteArray(json).replace(robotPath, "/no/such/robot.dh"), 5);
    QVERIFY(!reused.isEmpty() && !gone.isEmpty());
    auto b = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    Prompts yes;
    yes.answer = QMessageBox::Yes;
    b->setPromptHandler(yes.handler());
    b->enableRecovery(recovery.path());
    QSignalSpy loaded(b->document(), &RobotDocument::loadingFinished);
    QVERIFY(b->offerRestore());
    QCOMPARE(yes.texts.size(), 1);  // the newest has no robot any more: not offered, kept
    QVERIFY(loaded.wait(30000));
    settle();
    QCOMPARE(int(b->trajectory()->waypoints().size()), 2);
    QVERIFY(!QFile::exists(reused));  // restored: its files go
    QVERIFY(QFile::exists(gone));
    QVERIFY2(b->logDock()->plainText().contains("/no/such/robot.dh"), qPrintable(b->logDock()->plainText()));
    // Accepted, but its robot no longer loads: kept, and said so.
    const QString broken = files.filePath("broken.dh");
    std::ofstream(broken.toStdString()) << "this is not a DH table\n";
    const QString failing = orphan("session-78-1-1.json", QByteArray(json).replace(robotPath, broken.toUtf8()), 1);
    auto c = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    c->setErrorHandler([](const QString&, const QString&) {});
    Prompts yesAgain;
    yesAgain.answer = QMessageBox::Yes;
    c->setPromptHandler(yesAgain.handler());
    c->enableRecovery(recovery.path());
    QSignalSpy failed(c->document(), &RobotDocument::loadingFinished);
    QVERIFY(c->offerRestore());
    QVERIFY(failed.wait(30000));
    settle();
    QCOMPARE(failed.front().front().toBool(), false);
    QVERIFY(QFile::exists(failing));
    QVERIFY2(c->logDock()->plainText().contains("was kept"), qPrintable(c->logDock()->plainText()));
    for (auto* w : {a.get(), b.get(), c.get()})
      w->setPromptHandler([](auto, auto, auto) { return QMessageBox::Discard; });
  }

  // The failure dialog of the first file of a session names no previous robot; later ones do,
  // by the file's name when the robot has none.
  void failureMessageNamesTheRobot() {
    MainWindow w(MainWindow::Settings::Ephemeral);
    QStringList errors;
    w.setErrorHandler([&](const QString&, const QString& text) { errors << text; });
    QTemporaryDir dir;
    const QString bad = dir.filePath("broken.urdf"), unnamed = dir.filePath("unnamed_arm.urdf");
    std::ofstream(bad.toStdString()) << "<robot name=\"x\"><link name=\"a\"/>";
    std::ofstream(unnamed.toStdString())
        << "<robot>\n<link name=\"a\"/><link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" "
           "ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/></inertial></link>\n<joint name=\"j\" type=\"revolute\">"
           "<parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 1\"/></joint>\n</robot>\n";
    QVERIFY(!dyn::testing::openAndWait(w, bad));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(!errors[0].contains("()") && !errors[0].contains("previous robot"), qPrintable(errors[0]));
    QVERIFY(errors[0].contains("broken.urdf"));
    QVERIFY(dyn::testing::openAndWait(w, unnamed));
    QCOMPARE(w.document()->robotName(), QString("unnamed_arm"));
    QVERIFY(!dyn::testing::openAndWait(w, bad));
    QVERIFY2(errors.back().contains("The previous robot (unnamed_arm) stays loaded."), qPrintable(errors.back()));
  }

  // --help, --version and a usage error need no display (no QApplication is created for them):
  // run with the xcb platform and no DISPLAY, which would abort a QApplication.
  void helpWithoutDisplay() {
    for (const auto& [args, code, text] : {std::tuple{QStringList{"--help"}, 0, QString("--screenshot")},
                                           std::tuple{QStringList{"--version"}, 0, QString("dynscope 0.1.0")},
                                           std::tuple{QStringList{"--no-such-option"}, 1, QString("no-such-option")}}) {
      QProcess p;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.remove("DISPLAY");
      env.remove("WAYLAND_DISPLAY");
      env.insert("QT_QPA_PLATFORM", "xcb");
      p.setProcessEnvironment(env);
      p.start(DYNSCOPE_GUI, args);
      QVERIFY(p.waitForFinished(30000));
      const QString out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
      QCOMPARE(p.exitStatus(), QProcess::NormalExit);
      QVERIFY2(p.exitCode() == code, qPrintable(args.join(' ') + ": " + out));
      QVERIFY2(out.contains(text), qPrintable(args.join(' ') + ": " + out));
    }
  }
};

QTEST_MAIN(TestUnsavedWork)
#include "test_unsaved_work.moc"
