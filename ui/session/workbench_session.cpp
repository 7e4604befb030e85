// The session's documents, opening robots, demonstrations and the protection of unsaved work.
#include "session/workbench_session.hpp"

#include <QFileInfo>
#include <QLockFile>
#include <QTimer>
#include <QUndoStack>

#include "document/robot_document.hpp"
#include "document/robot_loader.hpp"
#include "dynscope/io/dh_table.hpp"
#include "lecture/equations_document.hpp"
#include "lecture/lecture_document.hpp"
#include "trajectory/trajectory_document.hpp"

WorkbenchSession::WorkbenchSession(QObject* parent) : QObject(parent) {
  m_doc = new RobotDocument(this);
  m_undo = new QUndoStack(this);
  m_traj = new TrajectoryDocument(m_doc, this);
  m_traj->setUndoStack(m_undo);
  m_lecture = new LectureDocument(m_doc, m_traj, this);
  m_equations = new EquationsDocument(m_doc, this);
  m_autosaveTimer = new QTimer(this);
  connect(m_autosaveTimer, &QTimer::timeout, this, &WorkbenchSession::autosaveNow);
  connect(m_doc, &RobotDocument::loadingFinished, this, &WorkbenchSession::onLoadingFinished);
  connect(m_traj, &TrajectoryDocument::modifiedChanged, this, [this] { emit unsavedWorkChanged(hasUnsavedWork()); });
  connect(m_doc, &RobotDocument::editsChanged, this, [this] { emit unsavedWorkChanged(hasUnsavedWork()); });
  connect(m_doc, &RobotDocument::dhTableChanged, this, [this] { emit unsavedWorkChanged(hasUnsavedWork()); });
}

void WorkbenchSession::markEditsSaved() {
  m_savedEdits = m_doc->edits();
  m_savedDhTable = m_doc->dhTable() ? dyn::writeDhTable(*m_doc->dhTable()) : std::string();
  emit unsavedWorkChanged(hasUnsavedWork());
}

WorkbenchSession::~WorkbenchSession() = default;

bool WorkbenchSession::isProjectFile(const QString& path) {
  return path.endsWith(".json", Qt::CaseInsensitive) || path.endsWith(".dynscope", Qt::CaseInsensitive);
}

QString WorkbenchSession::titleFile() const { return !m_projectFile.isEmpty() ? m_projectFile : m_doc->sourceFile(); }

bool WorkbenchSession::openFile(const QString& path) {
  if (path.isEmpty()) return false;
  // A project asks in openProject; a pending project or demo has asked already. A file the loader
  // refuses by its type (a text file, a picture) drops nothing: it is refused without a question.
  if (!m_pending && !isProjectFile(path) && robotFileTypeProblem(path).isEmpty() &&
      !maybeSave(tr("opening %1").arg(QFileInfo(path).fileName())))
    return false;
  if (isProjectFile(path) && !m_pending) return openProject(path);
  // Fix-ups and a floating base belong to one robot: another file starts without them (a project
  // brings its own).
  const std::vector<dyn::Fixup> before = m_doc->fixups();
  const bool floatingBefore = m_doc->floatingBase();
  m_doc->setFixups(m_pending ? m_pending->project.fixups : std::vector<dyn::Fixup>{});
  // (A base set for this load, RobotDocument::setFloatingBase since the last one, is kept.)
  if (m_pending)
    m_doc->setFloatingBase(m_pending->project.floatingBase);
  else if (m_doc->hasModel() && m_doc->loadedFloatingBase() && !m_doc->floatingBaseAskedSinceLoad())
    m_doc->setFloatingBase(false);
  m_doc->setEditsForNextLoad(m_pending ? m_pending->project.edits : std::vector<dyn::RobotEdit>{});
  m_doc->setDhTableForNextLoad(m_pending ? m_pending->project.dhTable : std::nullopt);
  if (m_doc->floatingBase() != floatingBefore) emit floatingBaseChanged(m_doc->floatingBase());
  if (!m_doc->startLoad(path, false)) {
    m_doc->setFixups(before);
    if (m_doc->floatingBase() != floatingBefore) {
      m_doc->setFloatingBase(floatingBefore);
      emit floatingBaseChanged(floatingBefore);
    }
    say(tr("Still loading a robot; %1 not opened").arg(path), Severity::Warning);
    return false;
  }
  return true;
}

bool WorkbenchSession::reload() {
  if (m_doc->sourceFile().isEmpty()) return true;
  if (!maybeSave(tr("reloading %1").arg(QFileInfo(m_doc->sourceFile()).fileName()))) return false;
  m_doc->startLoad(m_doc->sourceFile(), true);
  return true;
}

void WorkbenchSession::onLoadingFinished(bool ok, const QString& error, bool wasReload) {
  emit loadEnded();
  if (!ok) {
    // Only when a robot was loaded before: the first file of a session has no previous robot.
    const QString previous = !m_doc->sourceFile().isEmpty()
                                 ? tr("\n\nThe previous robot (%1) stays loaded.").arg(m_doc->robotName())
                                 : QString();
    emit this->error(wasReload ? tr("Reload failed") : tr("Could not load robot"), error + previous);
    if (m_doc->hasModel() && m_doc->floatingBase() != m_doc->loadedFloatingBase()) {  // and so does its base
      m_doc->setFloatingBase(m_doc->loadedFloatingBase());
      emit floatingBaseChanged(m_doc->floatingBase());
    }
    if (m_pending && m_pending->restored)
      say(tr("The autosave %1 was kept: its robot could not be loaded. It is offered again at the next start.")
              .arg(m_pending->autosave),
          Severity::Warning);
    m_pending.reset();
    return;
  }
  if (!wasReload) markEditsSaved();  // a file's own values, or a project's edits: as on disk
  for (const QString& why : m_doc->skippedEdits())
    say(tr("An edit of the project no longer fits the robot file and was left out: %1").arg(why), Severity::Warning);
  emit robotLoaded(wasReload);
  if (!m_doc->sourceFile().isEmpty()) emit fileUsed(m_doc->sourceFile());  // (a new DH robot has no file yet)
  if (!wasReload) m_projectFile.clear();  // another robot: a new project unless one is pending
  emit titleChanged();
  applyPendingProject();
}

void WorkbenchSession::loadDemo(dyn::DemoTrajectory demo, const QString& robotFile) {
  if (!maybeSave(tr("loading the demonstration"))) return;
  QString error;
  if (m_doc->hasModel() && m_traj->loadDemo(demo, &error)) {
    m_undo->clear();
    m_traj->markSaved();  // a built-in demonstration: nothing of the user's to lose yet
    say(tr("Demonstration: %1").arg(m_traj->sourceDescription()));
    return;
  }
  // The demo needs its arm: open it, then apply the demo when it has loaded.
  if (!QFileInfo::exists(robotFile)) {
    emit this->error(tr("Demonstration"), error.isEmpty() ? tr("%1 not found").arg(robotFile) : error);
    return;
  }
  PendingProject pending;
  pending.project.robotPath = robotFile.toStdString();
  pending.project.trajectory.source = dyn::TrajectorySource::Demo;
  pending.project.trajectory.demo = dyn::demoTrajectoryName(demo);
  pending.keepProjectFile = true;
  m_pending = std::move(pending);
  if (!openFile(robotFile)) m_pending.reset();
}

bool WorkbenchSession::importTrajectory(const QString& csvPath) {
  if (!maybeSave(tr("importing %1").arg(QFileInfo(csvPath).fileName()))) return false;
  QString error;
  if (!m_traj->importCsv(csvPath, &error)) {
    emit this->error(tr("Import trajectory"), error);
    return false;
  }
  m_undo->clear();
  say(tr("Imported %1: %2 samples, %3 s")
          .arg(csvPath)
          .arg(m_traj->samples().samples())
          .arg(m_traj->samples().endTime() - m_traj->samples().startTime()));
  return true;
}

bool WorkbenchSession::clearTrajectory() {
  if (!maybeSave(tr("clearing the trajectory"))) return false;
  m_undo->clear();
  m_traj->clear();
  return true;
}

// --- Unsaved work -------------------------------------------------------------------------------

bool WorkbenchSession::hasUnsavedWork() const {
  if (m_traj->isModified() || m_doc->edits() != m_savedEdits) return true;
  if (!m_doc->dhTable()) return false;
  // A DH table made here and never saved, or changed since it was saved (or opened).
  return m_doc->sourceFile().isEmpty() || dyn::writeDhTable(*m_doc->dhTable()) != m_savedDhTable;
}

QStringList WorkbenchSession::unsavedParts() const {
  using U = TrajectoryDocument::Unsaved;
  const TrajectoryDocument::UnsavedParts u = m_traj->unsavedParts();
  QStringList parts;  // the pose is not stored in a project: never listed
  if (u.testFlag(U::Restored)) parts << tr("the work restored from an autosave");
  if (u.testFlag(U::Trajectory))
    parts << (m_traj->source() == TrajectoryDocument::Source::None
                  ? tr("the trajectory (cleared)")
                  : tr("the trajectory (%1)").arg(m_traj->sourceDescription()));
  if (u.testFlag(U::Payload))
    parts << (m_traj->payload() ? tr("the payload (%1 kg on %2)")
                                      .arg(m_traj->payload()->mass)
                                      .arg(QString::fromStdString(m_traj->payload()->link))
                                : tr("the payload (none)"));
  if (u.testFlag(U::Wrench))
    parts << (m_traj->wrench() ? tr("the external wrench (on %1)").arg(QString::fromStdString(m_traj->wrench()->link))
                               : tr("the external wrench (none)"));
  if (u.testFlag(U::Gravity)) {
    const Eigen::Vector3d g = m_traj->gravity();
    parts << tr("the gravity (%1, %2, %3 m/s²)").arg(g.x()).arg(g.y()).arg(g.z());
  }
  return parts;
}

WorkbenchSession::Answer WorkbenchSession::ask(Question question, const QString& title, const QString& text) {
  if (m_prompt) return m_prompt(question, title, text);
  return question == Question::UnsavedWork ? Answer::Discard : Answer::No;  // nobody's work at stake
}

bool WorkbenchSession::maybeSave(const QString& action) {
  if (!hasUnsavedWork()) return true;
  const QStringList parts = unsavedParts();
  const QString list =
      parts.size() > 1 ? tr("%1 and %2").arg(parts.mid(0, parts.size() - 1).join(", "), parts.last()) : parts.value(0);
  const QString what = m_projectFile.isEmpty()
                           ? tr("Not saved for %1: %2.").arg(m_doc->robotName(), list)
                           : tr("Not saved in the project %1: %2.").arg(QFileInfo(m_projectFile).fileName(), list);
  QString text = what + "\n\n" + tr("Save them before %1?").arg(action);
  if (m_traj->source() == TrajectoryDocument::Source::Simulation)
    text +=
        "\n\n" + tr("A simulation run is not stored in a project: export it with Trajectory > Export trajectory CSV.");
  switch (ask(Question::UnsavedWork, tr("Unsaved changes"), text)) {
    case Answer::Save:
      return saveProjectOrAsk();
    case Answer::Discard:
      say(tr("Discarded unsaved changes before %1").arg(action), Severity::Warning);
      return true;
    default:
      return false;
  }
}
