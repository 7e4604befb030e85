// The window's docks as one table (dock_list.cpp): the name the workspaces place a dock by, whether
// View lists its toggle, and how it is made from the session's documents. MainWindow builds them in
// this order; its create*Ui functions then connect each dock to the window's menus, status bar and
// log. A new dock is a new row here and a place in the workspaces' table (workspaces.cpp).
#pragma once
#include <vector>

class IkDragController;
class QDockWidget;
class QWidget;
class WorkbenchSession;

namespace docks {

// What a dock may be made from: the session's documents, the IK drag controller (the IK dock shows
// and edits its targets and locks), and the window as the Qt parent. Never another dock.
struct Sources {
  WorkbenchSession* session;
  IkDragController* ik;
  QWidget* parent;
};

struct Entry {
  const char* name;  // the dock's objectName, as the workspaces and saved layouts know it
  bool inViewMenu;   // View lists its toggle (the inspector's is in the Lecture menu)
  QDockWidget* (*make)(const Sources&);
};

const std::vector<Entry>& all();

}  // namespace docks
