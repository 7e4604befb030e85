// MainWindow's protection of unsaved work: the [*] marker in the title, the Save / Discard / Cancel
// prompt before anything drops work, the autosave of the open work every minute and the offer to
// restore it after a crash. The documents say what is unsaved (TrajectoryDocument::unsavedParts, with
// the undo stack's clean state); the window decides when to ask.
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLockFile>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>

#include "document/robot_document.hpp"
#include "project/project_file.hpp"
#include "simulation/simulation_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"

namespace {

constexpr const char* kAutosaveOf = "autosave_of";  // view key: the project the autosave belongs to
constexpr const char* kAutosavedAt = "autosaved_at";

// What of the work a project stores is unsaved, by name (the pose is not stored: never listed).
QStringList unsavedWorkParts(const TrajectoryDocument& traj) {
  using U = TrajectoryDocument::Unsaved;
  const TrajectoryDocument::UnsavedParts u = traj.unsavedParts();
  QStringList parts;
  if (u.testFlag(U::Restored)) parts << MainWindow::tr("the work restored from an autosave");
  if (u.testFlag(U::Trajectory))
    parts << (traj.source() == TrajectoryDocument::Source::None
                  ? MainWindow::tr("the trajectory (cleared)")
                  : MainWindow::tr("the trajectory (%1)").arg(traj.sourceDescription()));
  if (u.testFlag(U::Payload))
    parts << (traj.payload() ? MainWindow::tr("the payload (%1 kg on %2)")
                                   .arg(traj.payload()->mass)
                                   .arg(QString::fromStdString(traj.payload()->link))
                             : MainWindow::tr("the payload (none)"));
  if (u.testFlag(U::Gravity)) {
    const Eigen::Vector3d g = traj.gravity();
    parts << MainWindow::tr("the gravity (%1, %2, %3 m/s²)").arg(g.x()).arg(g.y()).arg(g.z());
  }
  return parts;
}

}  // namespace

void MainWindow::createSafetyNet() {
  m_traj->setUndoStack(m_undo);
  connect(m_traj, &TrajectoryDocument::modifiedChanged, this, &QWidget::setWindowModified);
  m_simulationDock->setNewRunGuard(
      [this] { return maybeSave(tr("running a simulation, which replaces the trajectory")); });
  if (m_settings == Settings::Persistent)
    m_promptHandler = messageBoxPrompt();
  else  // nobody's session: nothing to protect
    m_promptHandler = [](const QString&, const QString&, QMessageBox::StandardButtons buttons) {
      return buttons.testFlag(QMessageBox::Discard) ? QMessageBox::Discard : QMessageBox::No;
    };
  m_autosaveTimer = new QTimer(this);
  connect(m_autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveNow);
  updateTitle();
}

void MainWindow::updateTitle() {
  // [*] is where Qt shows the modified marker (setWindowModified).
  const QString file = !m_projectFile.isEmpty() ? m_projectFile : m_doc->sourceFile();
  setWindowTitle(file.isEmpty() ? tr("Dynscope[*]") : tr("%1[*] — Dynscope").arg(QFileInfo(file).fileName()));
  setWindowModified(m_traj->isModified());
}

bool MainWindow::hasUnsavedWork() const { return m_traj->isModified(); }

MainWindow::PromptHandler MainWindow::messageBoxPrompt() {
  return [this](const QString& title, const QString& text, QMessageBox::StandardButtons buttons) {
    QMessageBox box(QMessageBox::Warning, title, text, buttons, this);
    box.setObjectName("unsavedWorkPrompt");
    if (buttons.testFlag(QMessageBox::Save)) box.setDefaultButton(QMessageBox::Save);
    if (buttons.testFlag(QMessageBox::Cancel)) box.setEscapeButton(QMessageBox::Cancel);
    return QMessageBox::StandardButton(box.exec());
  };
}

QMessageBox::StandardButton MainWindow::ask(const QString& title, const QString& text,
                                            QMessageBox::StandardButtons buttons) {
  return m_promptHandler ? m_promptHandler(title, text, buttons) : QMessageBox::Cancel;
}

bool MainWindow::maybeSave(const QString& action) {
  if (!hasUnsavedWork()) return true;
  const QStringList parts = unsavedWorkParts(*m_traj);
  const QString list =
      parts.size() > 1 ? tr("%1 and %2").arg(parts.mid(0, parts.size() - 1).join(", "), parts.last()) : parts.value(0);
  const QString what = m_projectFile.isEmpty()
                           ? tr("Not saved for %1: %2.").arg(m_doc->robotName(), list)
                           : tr("Not saved in the project %1: %2.").arg(QFileInfo(m_projectFile).fileName(), list);
  QString text = what + "\n\n" + tr("Save them before %1?").arg(action);
  if (m_traj->source() == TrajectoryDocument::Source::Simulation)
    text +=
        "\n\n" + tr("A simulation run is not stored in a project: export it with Trajectory > Export trajectory CSV.");
  switch (ask(tr("Unsaved changes"), text, QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel)) {
    case QMessageBox::Save:
      return m_projectFile.isEmpty() ? saveProjectWithDialog() : saveProject(m_projectFile);
    case QMessageBox::Discard:
      m_logDock->append(tr("Discarded unsaved changes before %1").arg(action), LogDock::Level::Warning);
      return true;
    default:
      return false;
  }
}

void MainWindow::enableRecovery(const QString& dir, int intervalMs) {
  m_recoveryDir = QDir(dir).absolutePath();
  QDir().mkpath(m_recoveryDir);
  // Unique per window and start: a reused process id (common in containers) or a second window of
  // the same process must not take over, and then overwrite, a crashed session's file.
  static int windows = 0;
  m_sessionBase = QDir(m_recoveryDir)
                      .filePath(QString("session-%1-%2-%3")
                                    .arg(QCoreApplication::applicationPid())
                                    .arg(QDateTime::currentMSecsSinceEpoch())
                                    .arg(++windows));
  m_sessionLock = std::make_unique<QLockFile>(m_sessionBase + ".lock");
  m_sessionLock->setStaleLockTime(0);  // stale only when its process is gone, however old
  if (!m_sessionLock->tryLock(0))
    m_logDock->append(tr("Autosave: cannot lock %1").arg(m_sessionBase + ".lock"), LogDock::Level::Warning);
  m_autosaveTimer->start(intervalMs);
}

QString MainWindow::autosaveFile() const { return m_sessionBase.isEmpty() ? QString() : m_sessionBase + ".json"; }

bool MainWindow::autosaveNow() {
  const QString file = autosaveFile();
  if (file.isEmpty()) return false;
  if (!hasUnsavedWork() || m_doc->sourceFile().isEmpty()) {  // nothing that is not on disk already
    QFile::remove(file);
    return false;
  }
  dyn::ProjectFile p = currentProject();
  p.view[kAutosaveOf] = m_projectFile;
  p.view[kAutosavedAt] = QDateTime::currentDateTime().toString(Qt::ISODate);
  try {
    dyn::writeProjectFile(file, p, dyn::StoredPaths::Absolute);
  } catch (const std::exception& e) {
    m_logDock->append(tr("Autosave failed: %1").arg(QString::fromUtf8(e.what())), LogDock::Level::Warning);
    return false;
  }
  statusBar()->showMessage(tr("Autosaved"), 2000);
  return true;
}

void MainWindow::finishRecovery() {
  if (m_recoveryDir.isEmpty()) return;
  m_autosaveTimer->stop();
  QFile::remove(autosaveFile());
  if (m_sessionLock) m_sessionLock->unlock();
}

bool MainWindow::offerRestore() {
  if (m_recoveryDir.isEmpty()) return false;
  // Session files whose lock nobody holds: their process ended without a clean close.
  struct Orphan {
    QString json, lock;
    QDateTime time;
  };
  std::vector<Orphan> orphans;
  const QDir dir(m_recoveryDir);
  for (const QFileInfo& f : dir.entryInfoList({"session-*.json"}, QDir::Files)) {
    if (f.absoluteFilePath() == QFileInfo(autosaveFile()).absoluteFilePath()) continue;
    const QString lock = f.absolutePath() + "/" + f.completeBaseName() + ".lock";
    QLockFile probe(lock);
    probe.setStaleLockTime(0);
    if (!probe.tryLock(0)) continue;  // a running window's session
    probe.unlock();
    orphans.push_back({f.absoluteFilePath(), lock, f.lastModified()});
  }
  if (orphans.empty()) return false;
  // Newest first, one question each: the first accepted is restored (its files go once the work is
  // back on screen, see applyPendingProject), a declined one is removed, the rest stay for the next start.
  std::sort(orphans.begin(), orphans.end(), [](const Orphan& a, const Orphan& b) { return a.time > b.time; });
  bool restoring = false;
  std::size_t k = 0;
  for (; k < orphans.size() && !restoring; ++k) {
    const Orphan& orphan = orphans[k];
    dyn::ProjectFile project;
    try {
      project = dyn::readProjectFile(orphan.json);
    } catch (const std::exception& e) {
      m_logDock->append(tr("An autosave could not be read and was removed: %1").arg(QString::fromUtf8(e.what())),
                        LogDock::Level::Warning);
      QFile::remove(orphan.json);
      QFile::remove(orphan.lock);
      continue;
    }
    const QString of = project.view.value(kAutosaveOf).toString();
    const QString robotFile = QString::fromStdString(project.robotPath);
    if (!QFileInfo::exists(robotFile)) {  // kept: the user may bring the robot back, or delete the file
      m_logDock->append(tr("An autosave (%1) was not offered: its robot %2 no longer exists. It is kept.")
                            .arg(orphan.json, robotFile),
                        LogDock::Level::Warning);
      continue;
    }
    const QString text = tr("Dynscope did not shut down cleanly. Work on %1 was autosaved at %2.\n\nRestore it?")
                             .arg(of.isEmpty() ? QFileInfo(robotFile).fileName() : QFileInfo(of).fileName(),
                                  orphan.time.toString("yyyy-MM-dd HH:mm"));
    if (ask(tr("Restore unsaved work"), text, QMessageBox::Yes | QMessageBox::No) != QMessageBox::Yes) {
      QFile::remove(orphan.json);  // declined: offered once
      QFile::remove(orphan.lock);
      continue;
    }
    PendingProject pending;
    pending.project = std::move(project);
    pending.path = of;  // saving goes to the project the work belonged to (none: Save asks)
    pending.restored = true;
    pending.autosave = orphan.json;
    pending.autosaveLock = orphan.lock;
    m_pending = pending;
    const bool floating = m_pending->project.floatingBase;
    {
      const QSignalBlocker block(m_floatingBaseAction);  // no reload of the current robot
      m_floatingBaseAction->setChecked(floating);
    }
    m_doc->setFloatingBase(floating);
    restoring = openFile(QString::fromStdString(m_pending->project.robotPath));
    if (!restoring) {
      m_pending.reset();
      m_logDock->append(tr("The autosave %1 was kept: its robot could not be opened. It is offered again at the "
                           "next start.")
                            .arg(orphan.json),
                        LogDock::Level::Warning);
    }
  }
  if (k < orphans.size())
    m_logDock->append(
        tr("%n more autosaved session(s) kept in %1: offered at the next start.", "", int(orphans.size() - k))
            .arg(m_recoveryDir));
  return restoring;
}
