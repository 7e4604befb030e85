// The workbench session without a window or any widget (a QCoreApplication): opening robots and
// projects, the project round trip (payload, gravity, waypoints, view state given by the caller),
// the Save / Discard / Cancel protocol of unsaved work, demonstrations that open their robot, and
// the autosave offered back after a "crash". The window's suites (test_unsaved_work) check the same
// through the dialogs; here every answer and every message is the session's own.
#include <QCoreApplication>
#include <QFile>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "document/robot_document.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "session/workbench_session.hpp"
#include "trajectory/trajectory_document.hpp"
#include "trajectory/waypoint_commands.hpp"

namespace {

using S = WorkbenchSession;

QString robot(const char* name) { return QDir(QStringLiteral(DYNSCOPE_ROBOTS_DIR)).absoluteFilePath(name); }

// Waits for the load the call starts; true when it loaded.
template <class Start>
bool loadWith(S& session, Start start) {
  QSignalSpy finished(session.robot(), &RobotDocument::loadingFinished);
  if (!start() || !finished.wait(30000)) return false;
  QCoreApplication::processEvents();  // the session applies a pending project on the same signal
  return finished.at(0).at(0).toBool();
}

// Records the session's questions and answers each with `answer`.
struct Prompts {
  QStringList texts;
  QList<S::Question> questions;
  S::Answer answer = S::Answer::Cancel;
  S::Prompt prompt() {
    return [this](S::Question q, const QString&, const QString& text) {
      questions << q;
      texts << text;
      return answer;
    };
  }
};

// Writes `bytes` to `path`; true when it worked.
bool writeFile(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Two waypoints through the undo stack (as the trajectory dock adds them): unsaved work.
void addTwoWaypoints(S& s) {
  Eigen::VectorXd q = s.robot()->q();
  std::vector<dyn::Waypoint> w{{0.0, q}};
  q[0] += 0.5;
  w.push_back({1.0, q});
  s.undoStack()->push(new SetWaypointsCommand(s.trajectory(), std::move(w), "Add waypoints"));
  s.trajectory()->recomputeNow();
}

}  // namespace

class TestWorkbenchSession : public QObject {
  Q_OBJECT

 private slots:
  void runsWithoutWidgets() {
    // The point of the session: no QGuiApplication, let alone a QApplication.
    QVERIFY(QCoreApplication::instance());
    QVERIFY(!qobject_cast<QGuiApplication*>(QCoreApplication::instance()));
    S session;
    QVERIFY(session.robot() && session.trajectory() && session.lecture() && session.undoStack());
    QVERIFY(!session.hasUnsavedWork());
    QVERIFY(session.titleFile().isEmpty());
  }

  void opensARobotAndSaysSo() {
    S session;
    QSignalSpy loaded(&session, &S::robotLoaded);
    QSignalSpy used(&session, &S::fileUsed);
    QSignalSpy title(&session, &S::titleChanged);
    QVERIFY(loadWith(session, [&] { return session.openFile(robot("planar3.dh")); }));
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(loaded.at(0).at(0).toBool(), false);
    QCOMPARE(used.size(), 1);
    QCOMPARE(used.at(0).at(0).toString(), robot("planar3.dh"));
    QVERIFY(title.size() >= 1);
    QCOMPARE(QFileInfo(session.titleFile()).fileName(), QString("planar3.dh"));
    QCOMPARE(session.robot()->model().nv, 3);
  }

  void aBrokenFileIsAnErrorNamingThePreviousRobot() {
    S session;
    QVERIFY(loadWith(session, [&] { return session.openFile(robot("planar3.dh")); }));
    QTemporaryDir dir;
    const QString bad = dir.filePath("broken.urdf");
    QVERIFY(writeFile(bad, "<robot name='x'><link name='a'>"));
    QSignalSpy errors(&session, &S::error);
    QVERIFY(!loadWith(session, [&] { return session.openFile(bad); }));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.at(0).at(1).toString().contains("planar3"), qPrintable(errors.at(0).at(1).toString()));
    QCOMPARE(session.robot()->robotName(), QString("planar3"));
  }

  void projectRoundTrip() {
    QTemporaryDir dir;
    const QString project = dir.filePath("work.json");
    QJsonObject view{{"plot_tab", 2}, {"mine", "kept"}};
    {
      S a;
      a.setViewState([view] { return view; });
      QVERIFY(loadWith(a, [&] { return a.openFile(robot("planar3.dh")); }));
      addTwoWaypoints(a);
      QVERIFY(a.trajectory()->setPayload(dyn::Payload{"link3", 1.25, Eigen::Vector3d(0.1, 0, 0)}));
      a.trajectory()->setGravity(Eigen::Vector3d(0, -9.81, 0));
      QVERIFY(a.hasUnsavedWork());
      QVERIFY(a.saveProject(project));
      QVERIFY(!a.hasUnsavedWork());
      QCOMPARE(a.projectFile(), QFileInfo(project).absoluteFilePath());
      QCOMPARE(QFileInfo(a.titleFile()).fileName(), QString("work.json"));
    }
    S b;
    QSignalSpy views(&b, &S::viewStateLoaded);
    QSignalSpy applied(&b, &S::projectApplied);
    QVERIFY(loadWith(b, [&] { return b.openFile(project); }));  // a project by its suffix
    QCOMPARE(applied.size(), 1);
    QCOMPARE(int(b.trajectory()->waypoints().size()), 2);
    QVERIFY(b.trajectory()->payload());
    QCOMPARE(b.trajectory()->payload()->mass, 1.25);
    QVERIFY(b.trajectory()->gravityOverridden());
    QCOMPARE(b.trajectory()->gravity().y(), -9.81);
    QCOMPARE(views.size(), 1);
    QCOMPARE(views.at(0).at(0).toJsonObject().value("mine").toString(), QString("kept"));
    QVERIFY(!b.hasUnsavedWork());  // as on disk
    QCOMPARE(b.projectFile(), QFileInfo(project).absoluteFilePath());
  }

  void unreadableProjectIsAnError() {
    QTemporaryDir dir;
    const QString project = dir.filePath("bad.json");
    QVERIFY(writeFile(project, "{ not json"));
    S session;
    QSignalSpy errors(&session, &S::error);
    QVERIFY(!session.openProject(project));
    QCOMPARE(errors.size(), 1);
    QVERIFY(!errors.at(0).at(1).toString().isEmpty());
  }

  void unsavedWorkAsksAndHonoursTheAnswer() {
    S session;
    Prompts prompts;
    session.setPrompt(prompts.prompt());
    QVERIFY(loadWith(session, [&] { return session.openFile(robot("planar3.dh")); }));
    QVERIFY(session.maybeSave("closing"));  // nothing unsaved: no question
    QCOMPARE(prompts.texts.size(), 0);
    addTwoWaypoints(session);
    QVERIFY(session.trajectory()->setPayload(dyn::Payload{"link3", 2.0, Eigen::Vector3d::Zero()}));
    QCOMPARE(session.unsavedParts().size(), 2);  // the trajectory and the payload, by name

    // Cancel: the caller stops, nothing is lost.
    QVERIFY(!session.openFile(robot("puma560.dh")));
    QCOMPARE(prompts.texts.size(), 1);
    QCOMPARE(prompts.questions.front(), S::Question::UnsavedWork);
    QVERIFY2(prompts.texts.front().contains("payload (2 kg on link3)") &&
                 prompts.texts.front().contains("opening puma560.dh"),
             qPrintable(prompts.texts.front()));
    QVERIFY(session.hasUnsavedWork());
    QCOMPARE(session.robot()->robotName(), QString("planar3"));

    // Save without a project file: the save-as handler is asked; its refusal stops the caller.
    int saveAsCalls = 0;
    session.setSaveAs([&] {
      ++saveAsCalls;
      return false;
    });
    prompts.answer = S::Answer::Save;
    QVERIFY(!session.maybeSave("closing"));
    QCOMPARE(saveAsCalls, 1);
    QVERIFY(session.hasUnsavedWork());

    // Save with a project file saves there and lets the caller go on.
    QTemporaryDir dir;
    session.setSaveAs([&] { return session.saveProject(dir.filePath("p.json")); });
    QVERIFY(session.maybeSave("closing"));
    QVERIFY(QFile::exists(dir.filePath("p.json")));
    QVERIFY(!session.hasUnsavedWork());

    // Discard: the work goes, said in the log.
    session.trajectory()->setGravity(Eigen::Vector3d(0, 0, -1.62));
    QSignalSpy messages(&session, &S::message);
    prompts.answer = S::Answer::Discard;
    QVERIFY(session.maybeSave("clearing"));
    QVERIFY(!messages.isEmpty());
    QVERIFY(messages.last().at(0).toString().contains("Discarded"));
  }

  void wrongFileTypeRefusedWithoutAQuestion() {
    S session;
    Prompts prompts;
    session.setPrompt(prompts.prompt());
    QVERIFY(loadWith(session, [&] { return session.openFile(robot("planar3.dh")); }));
    addTwoWaypoints(session);
    QTemporaryDir dir;
    const QString text = dir.filePath("notes.txt");
    QVERIFY(writeFile(text, "hello"));
    QSignalSpy errors(&session, &S::error);
    QSignalSpy finished(session.robot(), &RobotDocument::loadingFinished);
    session.openFile(text);
    if (finished.isEmpty()) finished.wait(5000);
    QCOMPARE(prompts.texts.size(), 0);  // refused by its type: nothing was at stake
    QCOMPARE(errors.size(), 1);
    QVERIFY(session.hasUnsavedWork());
  }

  void demonstrationOpensItsRobot() {
    S session;
    QVERIFY(loadWith(session, [&] { return session.openFile(robot("ur5.urdf")); }));
    QSignalSpy finished(session.robot(), &RobotDocument::loadingFinished);
    session.loadDemo(dyn::DemoTrajectory::SahaPlanar3, robot("planar3.dh"));
    QVERIFY(finished.wait(30000));
    QCoreApplication::processEvents();
    QCOMPARE(session.robot()->robotName(), QString("planar3"));
    QCOMPARE(session.trajectory()->source(), TrajectoryDocument::Source::Demo);
    QVERIFY(session.trajectory()->hasTrajectory());
    QVERIFY(!session.hasUnsavedWork());        // a built-in demonstration is nothing of the user's
    QVERIFY(session.projectFile().isEmpty());  // and not a project of its own
    // With its robot loaded, another demonstration needs no load.
    session.loadDemo(dyn::DemoTrajectory::SahaPlanar3, robot("planar3.dh"));
    QCOMPARE(session.trajectory()->source(), TrajectoryDocument::Source::Demo);
  }

  void autosaveOfferedBackAfterACrash() {
    QTemporaryDir recovery;
    S a;
    a.enableRecovery(recovery.path(), 60000);
    QVERIFY(loadWith(a, [&] { return a.openFile(robot("planar3.dh")); }));
    QVERIFY(!a.autosaveNow());  // nothing unsaved: no file
    addTwoWaypoints(a);
    QVERIFY(a.trajectory()->setPayload(dyn::Payload{"link3", 3.0, Eigen::Vector3d::Zero()}));
    QVERIFY(a.autosaveNow());
    QVERIFY(QFile::exists(a.autosaveFile()));

    S b;
    Prompts yes;
    yes.answer = S::Answer::Yes;
    b.setPrompt(yes.prompt());
    b.enableRecovery(recovery.path());
    QVERIFY(!b.offerRestore());  // a running session's file is not a crash
    QCOMPARE(yes.texts.size(), 0);
    // A session whose process died leaves its file and no live lock.
    const QString orphan = recovery.filePath("session-999999999.json");
    QVERIFY(QFile::copy(a.autosaveFile(), orphan));
    QVERIFY(loadWith(b, [&] { return b.offerRestore(); }));
    QCOMPARE(yes.questions, QList<S::Question>{S::Question::Restore});
    QCOMPARE(b.robot()->robotName(), QString("planar3"));
    QCOMPARE(int(b.trajectory()->waypoints().size()), 2);
    QVERIFY(b.trajectory()->payload() && b.trajectory()->payload()->mass == 3.0);
    QVERIFY(b.hasUnsavedWork());  // restored work is still unsaved
    QVERIFY(!QFile::exists(orphan));

    // A clean end removes the session's own file; a declined offer removes the orphan.
    const QString own = a.autosaveFile();
    a.finishRecovery();
    QVERIFY(!QFile::exists(own));
    QVERIFY(b.autosaveNow());
    const QString declined = recovery.filePath("session-999999998.json");
    QVERIFY(QFile::copy(b.autosaveFile(), declined));
    S c;
    Prompts no;
    no.answer = S::Answer::No;
    c.setPrompt(no.prompt());
    c.enableRecovery(recovery.path());
    QVERIFY(!c.offerRestore());
    QCOMPARE(no.texts.size(), 1);
    QVERIFY(!QFile::exists(declined));
  }
};

QTEST_GUILESS_MAIN(TestWorkbenchSession)
#include "test_workbench_session.moc"
