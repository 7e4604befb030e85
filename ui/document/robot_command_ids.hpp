// QUndoCommand ids of the commands that change the robot itself (its parameters, its DH table).
// The session tracks those changes as robot edits; the trajectory document does not count them as
// unsaved trajectory work (they share the window's undo stack).
#pragma once

constexpr int kRobotEditCommandId = 2401;  // document/robot_edit_command.hpp (merges per field)
constexpr int kDhTableCommandId = 2402;    // dh/dh_table_command.hpp

inline bool changesTheRobot(int commandId) {
  return commandId == kRobotEditCommandId || commandId == kDhTableCommandId;
}
