// The session's projects: robot + fix-ups + base + payload + gravity + trajectory + view, read
// and written by dynscope_project (QtCore only, shared with the CLI). Opening one loads its robot
// first; the rest is applied once the robot is there (applyPendingProject).
#include <QFile>
#include <QFileInfo>
#include <QUndoStack>
#include <stdexcept>

#include "document/robot_document.hpp"
#include "dynscope/io/dh_table.hpp"
#include "project/project_setup.hpp"
#include "session/workbench_session.hpp"

#include "dynscope/io/dh_table.hpp"
#include "trajectory/trajectory_document.hpp"

bool WorkbenchSession::openProject(const QString& path) {
  if (!m_pending && !maybeSave(tr("opening %1").arg(QFileInfo(path).fileName()))) return false;
  PendingProject pending;
  try {
    pending.project = dyn::readProjectFile(path);
  } catch (const std::exception& e) {
    emit error(tr("Could not open project"), QString::fromUtf8(e.what()));
    return false;
  }
  pending.path = QFileInfo(path).absoluteFilePath();
  return startPending(std::move(pending));
}

bool WorkbenchSession::startPending(PendingProject pending) {
  m_pending = std::move(pending);
  const bool floating = m_pending->project.floatingBase;
  if (m_doc->floatingBase() != floating) {
    m_doc->setFloatingBase(floating);
    emit floatingBaseChanged(floating);
  }
  if (!openFile(QString::fromStdString(m_pending->project.robotPath))) {
    m_pending.reset();
    return false;
  }
  return true;
}

// After the project's robot has loaded: payload, wrench, gravity, trajectory, view.
void WorkbenchSession::applyPendingProject() {
  if (!m_pending) return;
  const PendingProject pending = std::move(*m_pending);
  m_pending.reset();
  const dyn::ProjectFile& p = pending.project;
  const QString where = pending.path.isEmpty() ? QString() : QFileInfo(pending.path).fileName() + ": ";
  QString problem;
  m_undo->clear();
  m_traj->clear();
  m_traj->setGravity(p.gravity);
  if (!m_traj->setPayload(p.payload, &problem)) say(where + problem, Severity::Warning);
  if (!m_traj->setWrench(p.wrench, &problem)) say(where + problem, Severity::Warning);
  const dyn::ProjectTrajectory& t = p.trajectory;
  try {
    switch (t.source) {
      case dyn::TrajectorySource::None:
        break;
      case dyn::TrajectorySource::Waypoints:
        m_traj->setInterpolation(t.interpolation);
        m_traj->setSampleRate(t.sampleRate);
        m_traj->setWaypoints(dyn::projectWaypoints(p, m_doc->model()));
        m_traj->recomputeNow();
        m_traj->setTime(m_traj->samples().startTime());
        break;
      case dyn::TrajectorySource::Csv:
        if (!m_traj->importCsv(QString::fromStdString(t.csvPath), &problem))
          throw std::runtime_error(problem.toStdString());
        break;
      case dyn::TrajectorySource::Demo: {
        const auto demo = dyn::demoTrajectoryByName(t.demo);
        if (!demo || !m_traj->loadDemo(*demo, &problem))
          throw std::runtime_error(problem.isEmpty() ? "unknown demo " + t.demo : problem.toStdString());
        break;
      }
    }
  } catch (const std::exception& e) {
    emit error(tr("Project trajectory"), where + QString::fromUtf8(e.what()));
  }
  if (!p.view.isEmpty()) emit viewStateLoaded(p.view);
  if (pending.restored) {
    QFile::remove(pending.autosave);  // the work is back (and autosaved again by this session)
    QFile::remove(pending.autosaveLock);
    m_projectFile = pending.path;  // Save writes the project the work belonged to (none: Save asks)
    m_traj->markSaved();
    m_traj->setModified(true);  // restored, not saved
    say(tr("Restored autosaved work%1").arg(pending.path.isEmpty() ? QString() : " (" + pending.path + ")"));
  } else {
    m_traj->markSaved();  // as on disk (a project, or a demonstration's start)
    if (!pending.keepProjectFile) {
      m_projectFile = pending.path;
      say(tr("Opened project %1").arg(pending.path));
      emit fileUsed(pending.path);
    }
  }
  emit titleChanged();
  emit projectApplied();
}

dyn::ProjectFile WorkbenchSession::currentProject() const {
  dyn::ProjectFile p;
  p.robotPath = m_doc->sourceFile().toStdString();
  p.floatingBase = m_doc->floatingBase();
  p.fixups = m_doc->loadedFixups();
  p.edits = m_doc->edits();
  if (m_doc->dhTableEdited()) p.dhTable = dyn::writeDhTable(*m_doc->dhTable());
  if (m_traj->gravityOverridden()) p.gravity = m_traj->gravity();
  p.payload = m_traj->payload();
  p.wrench = m_traj->wrench();
  dyn::ProjectTrajectory& t = p.trajectory;
  switch (m_traj->source()) {
    case TrajectoryDocument::Source::None:
    case TrajectoryDocument::Source::Simulation:  // a recorded run is not stored (export it as CSV)
      t.source = dyn::TrajectorySource::None;
      break;
    case TrajectoryDocument::Source::Waypoints:
      t.source = dyn::TrajectorySource::Waypoints;
      t.interpolation = m_traj->interpolation();
      t.sampleRate = m_traj->sampleRate();
      for (const dyn::Waypoint& w : m_traj->waypoints())
        t.waypoints.push_back(dyn::makeProjectWaypoint(m_doc->model(), w.t, w.q));
      break;
    case TrajectoryDocument::Source::Csv:
      t.source = dyn::TrajectorySource::Csv;
      t.csvPath = m_traj->csvFile().toStdString();
      break;
    case TrajectoryDocument::Source::Demo:
      t.source = dyn::TrajectorySource::Demo;
      t.demo = m_traj->demo() ? dyn::demoTrajectoryName(*m_traj->demo()) : "";
      break;
  }
  if (m_viewState) p.view = m_viewState();
  return p;
}

bool WorkbenchSession::saveProject(const QString& path) {
  if (!m_doc->hasModel()) {
    emit error(tr("Save project"), tr("Load a robot first: a project stores the robot and its trajectory."));
    return false;
  }
  try {
    dyn::writeProjectFile(path, currentProject());
  } catch (const std::exception& e) {
    emit error(tr("Save project"), QString::fromUtf8(e.what()));
    return false;
  }
  m_projectFile = QFileInfo(path).absoluteFilePath();
  m_traj->markSaved();
  markEditsSaved();
  say(tr("Saved project %1").arg(m_projectFile));
  emit fileUsed(m_projectFile);
  emit titleChanged();
  return true;
}

bool WorkbenchSession::saveProjectOrAsk() {
  if (!m_projectFile.isEmpty()) return saveProject(m_projectFile);
  return m_saveAs ? m_saveAs() : false;
}
