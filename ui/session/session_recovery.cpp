// The session's autosave and crash recovery. Each running session holds a lock next to its session
// file; a session file whose lock nobody holds was left by a process that ended without a clean
// close, and is offered back at the next start.
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QTimer>
#include <algorithm>
#include <vector>

#include "document/robot_document.hpp"
#include "session/workbench_session.hpp"

namespace {

constexpr const char* kAutosaveOf = "autosave_of";  // view key: the project the autosave belongs to
constexpr const char* kAutosavedAt = "autosaved_at";

}  // namespace

void WorkbenchSession::enableRecovery(const QString& dir, int intervalMs) {
  m_recoveryDir = QDir(dir).absolutePath();
  QDir().mkpath(m_recoveryDir);
  // Unique per session and start: a reused process id (common in containers) or a second window of
  // the same process must not take over, and then overwrite, a crashed session's file.
  static int sessions = 0;
  m_sessionBase = QDir(m_recoveryDir)
                      .filePath(QString("session-%1-%2-%3")
                                    .arg(QCoreApplication::applicationPid())
                                    .arg(QDateTime::currentMSecsSinceEpoch())
                                    .arg(++sessions));
  m_sessionLock = std::make_unique<QLockFile>(m_sessionBase + ".lock");
  m_sessionLock->setStaleLockTime(0);  // stale only when its process is gone, however old
  if (!m_sessionLock->tryLock(0)) say(tr("Autosave: cannot lock %1").arg(m_sessionBase + ".lock"), Severity::Warning);
  m_autosaveTimer->start(intervalMs);
}

QString WorkbenchSession::autosaveFile() const { return m_sessionBase.isEmpty() ? QString() : m_sessionBase + ".json"; }

bool WorkbenchSession::autosaveNow() {
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
    say(tr("Autosave failed: %1").arg(QString::fromUtf8(e.what())), Severity::Warning);
    return false;
  }
  emit statusMessage(tr("Autosaved"), 2000);
  return true;
}

void WorkbenchSession::finishRecovery() {
  if (m_recoveryDir.isEmpty()) return;
  m_autosaveTimer->stop();
  QFile::remove(autosaveFile());
  if (m_sessionLock) m_sessionLock->unlock();
}

bool WorkbenchSession::offerRestore() {
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
    if (!probe.tryLock(0)) continue;  // a running session's file
    probe.unlock();
    orphans.push_back({f.absoluteFilePath(), lock, f.lastModified()});
  }
  if (orphans.empty()) return false;
  // Newest first, one question each: the first accepted is restored (its files go once the work is
  // back, see applyPendingProject), a declined one is removed, the rest stay for the next start.
  std::sort(orphans.begin(), orphans.end(), [](const Orphan& a, const Orphan& b) { return a.time > b.time; });
  bool restoring = false;
  std::size_t k = 0;
  for (; k < orphans.size() && !restoring; ++k) {
    const Orphan& orphan = orphans[k];
    dyn::ProjectFile project;
    try {
      project = dyn::readProjectFile(orphan.json);
    } catch (const std::exception& e) {
      say(tr("An autosave could not be read and was removed: %1").arg(QString::fromUtf8(e.what())), Severity::Warning);
      QFile::remove(orphan.json);
      QFile::remove(orphan.lock);
      continue;
    }
    const QString of = project.view.value(kAutosaveOf).toString();
    const QString robotFile = QString::fromStdString(project.robotPath);
    if (!QFileInfo::exists(robotFile)) {  // kept: the user may bring the robot back, or delete the file
      say(tr("An autosave (%1) was not offered: its robot %2 no longer exists. It is kept.")
              .arg(orphan.json, robotFile),
          Severity::Warning);
      continue;
    }
    const QString text = tr("Dynscope did not shut down cleanly. Work on %1 was autosaved at %2.\n\nRestore it?")
                             .arg(of.isEmpty() ? QFileInfo(robotFile).fileName() : QFileInfo(of).fileName(),
                                  orphan.time.toString("yyyy-MM-dd HH:mm"));
    if (ask(Question::Restore, tr("Restore unsaved work"), text) != Answer::Yes) {
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
    restoring = startPending(std::move(pending));
    if (!restoring)
      say(tr("The autosave %1 was kept: its robot could not be opened. It is offered again at the next start.")
              .arg(orphan.json),
          Severity::Warning);
  }
  if (k < orphans.size())
    say(tr("%n more autosaved session(s) kept in %1: offered at the next start.", "", int(orphans.size() - k))
            .arg(m_recoveryDir));
  return restoring;
}
