// Workspaces: named layouts of the window's docks, each designed for one task (explore a robot;
// scrub a trajectory and read its torques; simulate; study the mass matrix; teach an algorithm).
// The table in workspaces.cpp is the whole design: which docks, where, tabbed with which, and what
// share of the window each group gets, at the desk and in presentation mode (where a workspace
// shows fewer docks rather than shrinking them). Docks are named by their objectName; this file
// knows no dock class and no window class.
#pragma once
#include <QString>
#include <Qt>
#include <vector>

class QDockWidget;
class QMainWindow;

namespace workspaces {

// Docks tabbed together at one place. `across`: the area's depth, in % of the window's width
// (left/right areas) or height (bottom area); the first group of an area sets it. `along`: this
// group's share of the area's length when an area holds several groups (stacked top to bottom at
// the sides, side by side at the bottom). `under`: at the bottom, below the previous group instead
// of beside it (the timeline under the plots); then `along` of both is their share of the area's
// height. The first dock of a group is the tab in front. `tabWhenSqueezed`: when the window cannot
// give the group its readable size (a dock's readableSize, within the layout's mostForReadable), its docks
// become tabs behind the layout's first group instead of a view too small to read (the lecture's
// H on a 1366x768 laptop in presentation mode); back in place when the window has the room.
// `onlyWith`: the group is laid out only while its front dock's bool property of that name is true
// (the DH table, presenting a DH robot only); the window lays out again when it changes.
struct Group {
  Qt::DockWidgetArea area;
  std::vector<const char*> docks;
  int across = 25, along = 100;
  bool under = false;
  bool tabWhenSqueezed = false;
  const char* onlyWith = nullptr;
};

struct Layout {
  std::vector<Group> groups;
  // The most a group may take, in % of the window's width or height, to reach its docks' readable
  // size (more than its `across` share); the rest stays for the 3D view.
  int mostForReadable = 40;
};

struct Workspace {
  const char* id;       // settings key and --workspace value: "explore", "trajectory", ...
  const char* title;    // toolbar and menu text
  const char* purpose;  // tooltip: what it is for
  Layout desk;          // the normal window
  Layout presenting;    // presentation mode (F11): fewer docks, larger
};

const std::vector<Workspace>& all();
const Workspace* find(const QString& id);
// The ids, for messages ("explore, trajectory, ...").
QString idList();

// Lays the window's docks out as `layout` says: its docks placed, tabbed and shown, every other dock
// hidden in its home area (so that View > dock shows it at a sensible place). Docks missing from the
// window are skipped. Sizes are set by fitSizes(), which needs the final window size.
// `keepTabsInFront`: a group's tab that is in front now, hiding the group's first dock, stays in
// front (the same workspace laid out again, for presentation mode: the Equations of motion view).
void apply(QMainWindow* window, const Layout& layout, bool keepTabsInFront = false);
// The shares of `layout` in pixels of the window's current size.
void fitSizes(QMainWindow* window, const Layout& layout);
// The docks a layout shows, in table order.
std::vector<QDockWidget*> docksOf(QMainWindow* window, const Layout& layout);
// The layout as shown now: the docks of a group whose `onlyWith` property is false taken out.
Layout effective(QMainWindow* window, const Layout& layout);
// Whether group `k` of `layout` is tabbed behind the first group for want of room (tabWhenSqueezed).
bool isSqueezedIntoTabs(QMainWindow* window, const Layout& layout, size_t k);

}  // namespace workspaces
