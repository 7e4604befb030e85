#include "trajectory/waypoint_commands.hpp"

#include "trajectory/trajectory_document.hpp"

SetWaypointsCommand::SetWaypointsCommand(TrajectoryDocument* doc, std::vector<dyn::Waypoint> after, const QString& text)
    : QUndoCommand(text), m_doc(doc), m_before(doc->waypoints()), m_after(std::move(after)) {}

void SetWaypointsCommand::undo() { m_doc->setWaypoints(m_before); }
void SetWaypointsCommand::redo() { m_doc->setWaypoints(m_after); }

SetInterpolationCommand::SetInterpolationCommand(TrajectoryDocument* doc, dyn::Interpolation after)
    : QUndoCommand(QObject::tr("Interpolation: %1").arg(dyn::interpolationName(after))),
      m_doc(doc),
      m_before(doc->interpolation()),
      m_after(after) {}

void SetInterpolationCommand::undo() { m_doc->setInterpolation(m_before); }
void SetInterpolationCommand::redo() { m_doc->setInterpolation(m_after); }
