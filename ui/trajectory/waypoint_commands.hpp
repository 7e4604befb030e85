// Undoable edits of the trajectory's waypoints: each command keeps the waypoint list before and
// after (a few vectors), so every edit — add, delete, retime, reorder, interpolation — undoes the
// same way.
#pragma once
#include <QUndoCommand>
#include <vector>

#include "dynscope/trajectory/waypoint_trajectory.hpp"

class TrajectoryDocument;

class SetWaypointsCommand : public QUndoCommand {
 public:
  SetWaypointsCommand(TrajectoryDocument* doc, std::vector<dyn::Waypoint> after, const QString& text);
  void undo() override;
  void redo() override;

 private:
  TrajectoryDocument* m_doc;
  std::vector<dyn::Waypoint> m_before, m_after;
};

class SetInterpolationCommand : public QUndoCommand {
 public:
  SetInterpolationCommand(TrajectoryDocument* doc, dyn::Interpolation after);
  void undo() override;
  void redo() override;

 private:
  TrajectoryDocument* m_doc;
  dyn::Interpolation m_before, m_after;
};
