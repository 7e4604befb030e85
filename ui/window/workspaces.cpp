#include "window/workspaces.hpp"

#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QStatusBar>
#include <QStringList>
#include <QVariant>
#include <algorithm>
#include <map>
#include <set>

namespace workspaces {
namespace {

constexpr Qt::DockWidgetArea L = Qt::LeftDockWidgetArea, R = Qt::RightDockWidgetArea, B = Qt::BottomDockWidgetArea;

// The design. Sizes were chosen on a 1920x1080 projector and checked on a 1366x768 laptop
// (tests/gui/test_workspaces.cpp): the 3D view stays the largest part at the desk; presenting
// keeps only what the task needs, at a size read from the back of the hall.
const std::vector<Workspace> kWorkspaces = {
    {"explore",
     "Explore",
     "Explore a robot: the 3D view, its model tree, joints, properties and the model check",
     {{{L, {"modelTreeDock"}, 22, 58},
       {L, {"propertiesDock"}, 22, 42},
       {R, {"jointsDock", "ikDock"}, 27},
       {B, {"modelCheckDock", "logDock", "dhTableDock"}, 20}}},
     {{{L, {"propertiesDock", "modelTreeDock"}, 24},
       {R, {"jointsDock"}, 30},
       {B, {"dhTableDock"}, 24, 100, false, false, "hasTable"}}}},
    {"trajectory",
     "Trajectory",
     "Scrub a trajectory and read its torques: the 3D view, the timeline and large plots",
     {{{R, {"trajectoryDock", "jointsDock"}, 26},
       {B, {"plotsDock", "logDock"}, 42, 86},
       {B, {"timelineDock"}, 42, 14, true}}},
     // (Half the height if the plots need it: a laptop's 768 lines in the larger font.)
     {{{B, {"plotsDock"}, 36, 86}, {B, {"timelineDock"}, 36, 14, true}}, 50}},
    {"simulate",
     "Simulate",
     "Run forward dynamics: the simulation's settings, the 3D view and its plots",
     {{{R, {"simulationDock", "jointsDock"}, 27},
       {B, {"plotsDock", "logDock"}, 38, 86},
       {B, {"timelineDock"}, 38, 14, true}}},
     {{{R, {"simulationDock"}, 32}, {B, {"plotsDock"}, 40}}}},
    {"massmatrix",
     "Mass matrix",
     "The joint-space inertia matrix H(q): its sparsity, spectrum and the 6N view",
     {{{L, {"jointsDock", "modelTreeDock"}, 20}, {R, {"massMatrixDock"}, 42}}},
     {{{R, {"massMatrixDock"}, 55}}}},
    {"lecture",
     "Lecture",
     "Teach an algorithm: a large 3D view beside its equations (or the equations of motion), the per-body table "
     "and H filling in",
     {{{R, {"algorithmInspectorDock", "equationsDock"}, 44, 56},
       {R, {"massMatrixDock", "jointsDock"}, 44, 44, false, true},  // a tab on a laptop
       {B, {"algorithmsDock", "plotsDock", "logDock"}, 26}}},
     {{{R, {"algorithmInspectorDock", "equationsDock"}, 58}, {B, {"massMatrixDock"}, 30, 100, false, true}}}},
};

QDockWidget* dockNamed(QMainWindow* window, const char* name) {
  return window->findChild<QDockWidget*>(QString::fromLatin1(name), Qt::FindDirectChildrenOnly);
}

// Where a dock lives when a workspace does not show it: its area in the first workspace that has it.
Qt::DockWidgetArea homeArea(const QString& name) {
  for (const Workspace& w : kWorkspaces)
    for (const Group& g : w.desk.groups)
      for (const char* d : g.docks)
        if (name == QLatin1String(d)) return g.area;
  return R;
}

// The size a dock says it is readable at (its Q_PROPERTY readableSize; plots, matrices, figures), or
// empty. A layout gives a dock at least that, up to its mostForReadable share of the window.
QSize readableSize(const QDockWidget* d) {
  const QVariant v = d->property("readableSize");
  return v.isValid() ? v.toSize() : QSize();
}

// A squeezable group's front dock and the size it must be given to be readable, in px across its
// area (height at the bottom, width at the sides); 0 when it has no readable size.
int readableDepth(QDockWidget* d, const Group& g) {
  const QSize r = readableSize(d);
  if (!r.isValid()) return 0;
  return g.area == Qt::BottomDockWidgetArea ? r.height() : r.width();
}

bool roomFor(QMainWindow* window, QDockWidget* d, const Group& g, int mostForReadable) {
  const int extent = g.area == Qt::BottomDockWidgetArea ? window->height() : window->width();
  if (readableDepth(d, g) > extent * std::max(g.across, mostForReadable) / 100) return false;
  if (g.area == Qt::BottomDockWidgetArea) return true;
  // Stacked at a side: its share of the side's height (below the toolbars, above the status bar).
  const QSize r = readableSize(d);
  const QWidget* central = window->centralWidget();
  const QStatusBar* status = window->findChild<QStatusBar*>(QString(), Qt::FindDirectChildrenOnly);
  const int side =
      window->height() - (central ? central->y() : 0) - (status && status->isVisible() ? status->height() : 0);
  return !r.isValid() || r.height() <= side * std::max(g.along, mostForReadable) / 100;
}

// On screen: shown and not behind another tab (a dock behind a tab may still say isVisible()).
bool onScreen(const QDockWidget* d) { return d->isVisible() && !d->visibleRegion().isEmpty(); }

Qt::Orientation stacking(const Group& g) {
  if (g.area == B) return g.under ? Qt::Vertical : Qt::Horizontal;
  return Qt::Vertical;
}

}  // namespace

const std::vector<Workspace>& all() { return kWorkspaces; }

const Workspace* find(const QString& id) {
  for (const Workspace& w : kWorkspaces)
    if (id == QLatin1String(w.id)) return &w;
  return nullptr;
}

QString idList() {
  QStringList ids;
  for (const Workspace& w : kWorkspaces) ids << QString::fromLatin1(w.id);
  return ids.join(", ");
}

Layout effective(QMainWindow* window, const Layout& layout) {
  Layout out = layout;
  for (Group& g : out.groups)
    if (g.onlyWith && !g.docks.empty())
      if (QDockWidget* d = dockNamed(window, g.docks.front()); d && !d->property(g.onlyWith).toBool()) g.docks.clear();
  return out;
}

std::vector<QDockWidget*> docksOf(QMainWindow* window, const Layout& layout_) {
  const Layout layout = effective(window, layout_);
  std::vector<QDockWidget*> out;
  for (const Group& g : layout.groups)
    for (const char* name : g.docks)
      if (QDockWidget* d = dockNamed(window, name)) out.push_back(d);
  return out;
}

void apply(QMainWindow* window, const Layout& layout_, bool keepTabsInFront) {
  const Layout layout = effective(window, layout_);
  const std::vector<QDockWidget*> shown = docksOf(window, layout);
  const QList<QDockWidget*> docks = window->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly);
  // The tabs in front now (keepTabsInFront); else each group's first dock comes forward.
  std::set<QDockWidget*> inFront;
  for (QDockWidget* d : docks)
    if (keepTabsInFront && onScreen(d)) inFront.insert(d);
  // Every dock out of the layout first: re-adding is the only way Qt places a dock anew.
  for (QDockWidget* d : docks) {
    d->setFloating(false);
    window->removeDockWidget(d);
  }
  // The groups' front docks first, then their tabs: splitting a dock that is already tabbed would
  // add a tab instead of a split (the timeline under the plots).
  std::vector<QDockWidget*> fronts(layout.groups.size(), nullptr);
  std::map<Qt::DockWidgetArea, QDockWidget*> areaFront;  // the first group placed in each area
  for (size_t k = 0; k < layout.groups.size(); ++k) {
    const Group& g = layout.groups[k];
    QDockWidget* d = nullptr;
    for (const char* name : g.docks)
      if ((d = dockNamed(window, name))) break;
    if (!d) continue;
    QDockWidget* above = k > 0 ? fronts[k - 1] : nullptr;
    if (g.under && above && window->dockWidgetArea(above) == g.area)
      window->splitDockWidget(above, d, Qt::Vertical);
    else
      window->addDockWidget(g.area, d, stacking(g));
    areaFront.emplace(g.area, d);
    fronts[k] = d;
    d->show();
  }
  for (size_t k = 0; k < layout.groups.size(); ++k) {
    if (!fronts[k]) continue;
    for (const char* name : layout.groups[k].docks) {
      QDockWidget* d = dockNamed(window, name);
      if (!d || d == fronts[k]) continue;
      window->tabifyDockWidget(fronts[k], d);
      d->show();
    }
  }
  // The rest, hidden: a tab of the first group of their home area when it has one (View > dock then
  // brings it forward there), else at the end of that area.
  for (QDockWidget* d : docks) {
    if (std::find(shown.begin(), shown.end(), d) != shown.end()) continue;
    const Qt::DockWidgetArea area = homeArea(d->objectName());
    if (auto it = areaFront.find(area); it != areaFront.end())
      window->tabifyDockWidget(it->second, d);
    else
      window->addDockWidget(area, d);
    d->hide();
  }
  // The front tabs: the tab bars exist once the layout has run.
  if (window->layout()) window->layout()->activate();
  for (size_t k = 0; k < layout.groups.size(); ++k) {
    if (!fronts[k]) continue;
    QDockWidget* front = fronts[k];
    for (const char* name : layout.groups[k].docks)
      if (QDockWidget* d = dockNamed(window, name);
          d && d != fronts[k] && inFront.count(d) && !inFront.count(fronts[k]))
        front = d;
    front->raise();
  }
}

bool isSqueezedIntoTabs(QMainWindow* window, const Layout& layout, size_t k) {
  if (k == 0 || k >= layout.groups.size() || !layout.groups[k].tabWhenSqueezed) return false;
  QDockWidget* d = layout.groups[k].docks.empty() ? nullptr : dockNamed(window, layout.groups[k].docks.front());
  QDockWidget* first = layout.groups[0].docks.empty() ? nullptr : dockNamed(window, layout.groups[0].docks.front());
  return d && first && window->tabifiedDockWidgets(first).contains(d);
}

void fitSizes(QMainWindow* window, const Layout& layout_) {
  // Groups that cannot be readable at this size go behind the first group's tab, and come back
  // when they can (the window's size is only final here: presentation mode's full screen arrives late).
  Layout layout = effective(window, layout_);
  QDockWidget* first = layout.groups.empty() || layout.groups[0].docks.empty()
                           ? nullptr
                           : dockNamed(window, layout.groups[0].docks.front());
  // The first group's tab in front (the Equations of motion view may be, instead of its first dock)
  // stays in front of the docks squeezed in behind it.
  QDockWidget* firstShown = first;
  for (const char* name : layout.groups.empty() ? std::vector<const char*>{} : layout.groups[0].docks)
    if (QDockWidget* d = dockNamed(window, name); first && d && onScreen(d) && !onScreen(first)) firstShown = d;
  for (size_t k = 1; k < layout.groups.size() && first; ++k) {
    const Group& g = layout.groups[k];
    QDockWidget* d = g.docks.empty() ? nullptr : dockNamed(window, g.docks.front());
    if (!g.tabWhenSqueezed || !d) continue;
    const bool tabbed = isSqueezedIntoTabs(window, layout_, k);
    const bool room = roomFor(window, d, g, layout.mostForReadable);
    if (!room && !tabbed) {
      for (const char* name : g.docks)
        if (QDockWidget* t = dockNamed(window, name)) window->tabifyDockWidget(first, t);
      firstShown->raise();
    } else if (room && tabbed) {
      window->addDockWidget(g.area, d, stacking(g));
      for (const char* name : g.docks)
        if (QDockWidget* t = dockNamed(window, name); t && t != d) window->tabifyDockWidget(d, t);
      d->show();
      d->raise();
      firstShown->raise();
    }
    if (!room) layout.groups[k].docks.clear();  // no size of its own
  }
  const int W = window->width(), H = window->height();
  QList<QDockWidget*> side, bottom, vertical, horizontal;
  QList<int> sideSizes, bottomSizes, vSizes, hSizes;
  std::map<Qt::DockWidgetArea, int> depth;  // px
  std::set<Qt::DockWidgetArea> seen;
  const auto& groups = layout.groups;
  // Each area's depth: the design's share, more where a group would be below its readable size.
  for (size_t k = 0; k < groups.size(); ++k) {
    const Group& g = groups[k];
    QDockWidget* d = g.docks.empty() ? nullptr : dockNamed(window, g.docks.front());
    if (!d) continue;
    const bool isBottom = g.area == B;
    const int extent = isBottom ? H : W;
    int wanted = extent * g.across / 100;
    if (const QSize r = readableSize(d); r.isValid()) {
      const bool stacked = isBottom && (g.under || (k + 1 < groups.size() && groups[k + 1].under));
      const int need = isBottom ? (stacked ? r.height() * 100 / std::max(1, g.along) : r.height()) : r.width();
      wanted = std::max(wanted, std::min(need, extent * std::max(g.across, layout.mostForReadable) / 100));
    }
    depth[g.area] = std::max(depth[g.area], wanted);
  }
  for (size_t k = 0; k < groups.size(); ++k) {
    const Group& g = groups[k];
    QDockWidget* d = g.docks.empty() ? nullptr : dockNamed(window, g.docks.front());
    if (!d) continue;
    const bool isBottom = g.area == B;
    if (seen.insert(g.area).second) {  // the area's first group sets its depth
      (isBottom ? bottom : side) << d;
      (isBottom ? bottomSizes : sideSizes) << depth[g.area];
    }
    // A bottom group stacked with the one below or above it shares the area's height.
    const bool stacked = isBottom && (g.under || (k + 1 < groups.size() && groups[k + 1].under));
    if (stacked) {
      vertical << d;
      vSizes << depth[g.area] * g.along / 100;
    } else if (g.along < 100) {
      (isBottom ? horizontal : vertical) << d;
      int share = (isBottom ? W : H) * g.along / 100;
      if (const QSize r = readableSize(d); r.isValid() && !isBottom)  // stacked at the side: its height
        share = std::max(share, std::min(r.height(), H * std::max(g.along, layout.mostForReadable) / 100));
      (isBottom ? hSizes : vSizes) << share;
    }
  }
  if (!side.isEmpty()) window->resizeDocks(side, sideSizes, Qt::Horizontal);
  if (!bottom.isEmpty()) window->resizeDocks(bottom, bottomSizes, Qt::Vertical);
  if (!vertical.isEmpty()) window->resizeDocks(vertical, vSizes, Qt::Vertical);
  if (!horizontal.isEmpty()) window->resizeDocks(horizontal, hSizes, Qt::Horizontal);
}

}  // namespace workspaces
