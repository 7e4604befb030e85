// The workbench's state that is not a widget: the documents (robot, trajectory, lecture), the undo
// stack, the open project, built-in demonstrations, the protection of unsaved work and the autosave
// with crash recovery. It uses no widgets (QtCore, plus QtGui's QUndoStack), so tests drive it
// under a QCoreApplication; the window shows what it says (message, error, titleChanged) and
// answers its questions (setPrompt, setSaveAs).
//
// Files: workbench_session.cpp (documents, opening robots, demonstrations, unsaved work),
// session_project.cpp (projects: open, apply once the robot has loaded, save),
// session_recovery.cpp (autosave and the offer to restore after a crash).
#pragma once
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

#include "project/project_file.hpp"

class EquationsDocument;
class LectureDocument;
class QLockFile;
class QTimer;
class QUndoStack;
class RobotDocument;
class TrajectoryDocument;
namespace dyn {
enum class DemoTrajectory;
}

class WorkbenchSession : public QObject {
  Q_OBJECT

 public:
  explicit WorkbenchSession(QObject* parent = nullptr);
  ~WorkbenchSession() override;

  RobotDocument* robot() const { return m_doc; }
  TrajectoryDocument* trajectory() const { return m_traj; }
  LectureDocument* lecture() const { return m_lecture; }
  EquationsDocument* equations() const { return m_equations; }
  QUndoStack* undoStack() const { return m_undo; }

  // --- Questions to the user (the window answers with dialogs, tests with fixed answers) ---
  enum class Answer { Save, Discard, Cancel, Yes, No };
  enum class Question {
    UnsavedWork,  // Save / Discard / Cancel
    Restore       // Yes / No
  };
  using Prompt = std::function<Answer(Question, const QString& title, const QString& text)>;
  // Without a prompt nobody's work is at stake: unsaved work is discarded, restoring declined.
  void setPrompt(Prompt prompt) { m_prompt = std::move(prompt); }
  // "Save" when no project file is open yet: asks for one and saves (false: cancelled or failed).
  void setSaveAs(std::function<bool()> saveAs) { m_saveAs = std::move(saveAs); }
  // The window's view (camera, toggles, plot tab, time) stored in projects and autosaves.
  void setViewState(std::function<QJsonObject()> viewState) { m_viewState = std::move(viewState); }

  // --- Robots, projects and demonstrations ---
  static bool isProjectFile(const QString& path);  // .json, .dynscope
  // Starts loading a robot (off the GUI thread) or opens a project; asks before dropping unsaved
  // work. False when refused, cancelled or a load is running.
  bool openFile(const QString& path);
  // Reads the project and loads its robot; payload, gravity, trajectory and view follow once it
  // has loaded (projectApplied).
  bool openProject(const QString& path);
  bool saveProject(const QString& path);
  bool saveProjectOrAsk();  // to the open project, else through setSaveAs
  // File > Save robot as: .urdf or .dh by the suffix (session_robot_file.cpp); the robot then comes
  // from that file, its edits in it.
  bool saveRobot(const QString& path);
  QString projectFile() const { return m_projectFile; }
  // The file the window's title names: the project, else the robot.
  QString titleFile() const;
  dyn::ProjectFile currentProject() const;
  // Reloads the robot (joint values kept); false when the user cancelled.
  bool reload();
  // A built-in demonstration; opens `robotFile` first when the loaded robot does not fit it.
  void loadDemo(dyn::DemoTrajectory demo, const QString& robotFile);
  bool importTrajectory(const QString& csvPath);
  bool clearTrajectory();

  // --- Unsaved work ---
  bool hasUnsavedWork() const;
  QStringList unsavedParts() const;  // what of the work is not on disk, by name
  // Asks before `action` ("closing", ...) drops unsaved work; true when the caller may go on.
  bool maybeSave(const QString& action);

  // --- Autosave and crash recovery (session_recovery.cpp) ---
  // Every `intervalMs` the open work is written to a session file in `dir`, removed again by
  // finishRecovery() on a clean close. A session file left behind by a process that is gone means
  // a crash: offerRestore() asks whether to restore it (the newest first) and returns true when it
  // started restoring.
  void enableRecovery(const QString& dir, int intervalMs = 60000);
  bool autosaveNow();
  QString autosaveFile() const;
  bool offerRestore();
  void finishRecovery();

  enum class Severity { Info, Warning };

 signals:
  void message(const QString& text, WorkbenchSession::Severity severity);  // for the log
  void statusMessage(const QString& text, int timeoutMs);
  void error(const QString& title, const QString& text);
  void titleChanged();                // the project or robot file changed
  void floatingBaseChanged(bool on);  // a project or autosave chose the base
  void loadEnded();                   // a load finished, well or not: before anything below
  void robotLoaded(bool wasReload);   // before a pending project is applied
  void projectApplied();              // payload, gravity, trajectory and view are in place
  void viewStateLoaded(const QJsonObject& view);
  void fileUsed(const QString& path);     // a robot or project opened or saved (recent files)
  void unsavedWorkChanged(bool unsaved);  // the trajectory or the robot's edits differ from what is saved

 private:
  struct PendingProject {  // applied when its robot has loaded
    dyn::ProjectFile project;
    QString path;
    bool keepProjectFile = false;    // a demo's robot: not a project of its own
    bool restored = false;           // from an autosave: still unsaved work, saved to `path` below
    QString autosave, autosaveLock;  // restored: the session files, removed once the work is back
  };
  void onLoadingFinished(bool ok, const QString& error, bool wasReload);
  void applyPendingProject();
  bool startPending(PendingProject pending);  // sets the base, opens its robot
  Answer ask(Question question, const QString& title, const QString& text);
  void say(const QString& text, Severity severity = Severity::Info) { emit message(text, severity); }

  RobotDocument* m_doc;
  TrajectoryDocument* m_traj;
  LectureDocument* m_lecture;
  EquationsDocument* m_equations;
  QUndoStack* m_undo;
  Prompt m_prompt;
  std::function<bool()> m_saveAs;
  std::function<QJsonObject()> m_viewState;
  QString m_projectFile;                     // the open project, empty when none
  std::vector<dyn::RobotEdit> m_savedEdits;  // the robot's edits as last saved (or opened)
  std::string m_savedDhTable;                // a DH robot's table as last saved (or opened), as .dh text
  void markEditsSaved();
  std::optional<PendingProject> m_pending;
  QString m_recoveryDir;
  QString m_sessionBase;                     // this session's files without extension (.json, .lock)
  std::unique_ptr<QLockFile> m_sessionLock;  // held while this session runs: its file is not a crash
  QTimer* m_autosaveTimer;
};
