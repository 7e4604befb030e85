// MainWindow's workspaces (window/workspaces.hpp holds the design): the Workspaces toolbar and menu
// (Ctrl+1 ... Ctrl+5), each workspace remembering the user's changes to its layout, View > Reset
// layout, and presentation mode (F11), which lays out the workspace's presentation design and gives
// back the exact layout of before when it ends.
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QLayout>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <vector>

#include "dh/dh_table_dock.hpp"
#include "document/robot_document.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/equations_dock.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "scene/trace_arrow_overlay.hpp"
#include "simulation/simulation_dock.hpp"
#include "viewport/vtk_viewport.hpp"
#include "widgets/presentation_scale.hpp"
#include "window/app_settings.hpp"
#include "window/dock_title_style.hpp"
#include "window/icons.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"
#include "window/workspaces.hpp"

void MainWindow::createWorkspaceUi() {
  if (m_settings == Settings::Persistent) {
    QSettings s(kSettingsOrganization, kSettingsApplication);
    const QString current = s.value("workspace/current").toString();
    if (workspaces::find(current)) m_workspace = current;
    // Dock sizes are kept in pixels: a layout saved on another screen (a 1920x1080 desk, then a
    // 1366x768 laptop) would give the 3D view less room than a table. There the designed layout,
    // in shares of the window, applies instead.
    if (s.value("workspace/screen").toSize() == savedScreenSize())
      for (const workspaces::Workspace& w : workspaces::all()) {
        const QByteArray state = s.value(QString("workspace/state/") + w.id).toByteArray();
        if (!state.isEmpty()) m_workspaceStates.insert(w.id, state);
      }
  }
  // In the menu bar's free right-hand end (as Blender puts its workspace tabs beside the menus): a
  // toolbar row of its own would cost the 3D view height, and beside the view tools it would
  // overflow a 1366-pixel laptop.
  m_workspaceToolBar = new QToolBar(tr("Workspaces"), menuBar());
  m_workspaceToolBar->setObjectName("workspaceToolBar");
  m_workspaceToolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  m_workspaceToolBar->setMovable(false);
  // As tall as the menu items, so that the menu bar keeps its height (no style sheet: it would pin
  // the buttons' font, and presentation mode enlarges it).
  m_workspaceToolBar->setContentsMargins(0, 0, 0, 0);
  m_workspaceToolBar->layout()->setContentsMargins(0, 0, 0, 0);
  menuBar()->setCornerWidget(m_workspaceToolBar, Qt::TopRightCorner);
  m_workspaceGroup = new QActionGroup(this);
  QMenu* menu = new QMenu(tr("&Workspace"), this);
  menu->setObjectName("workspaceMenu");
  int key = Qt::Key_1;
  for (const workspaces::Workspace& w : workspaces::all()) {
    auto* a = new QAction(tr(w.title), this);
    a->setObjectName(QString("workspace_") + w.id);
    a->setCheckable(true);
    a->setChecked(m_workspace == QLatin1String(w.id));
    a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(key++)));
    setToolTipWithShortcut(a, tr(w.purpose));
    const QString id = QString::fromLatin1(w.id);
    connect(a, &QAction::triggered, this, [this, id] { setWorkspace(id); });
    m_workspaceGroup->addAction(a);
    m_workspaceToolBar->addAction(a);
    menu->addAction(a);
    addAction(a);  // the shortcut works while the menu bar is hidden (presentation mode)
  }
  menu->addSeparator();
  QAction* reset = menu->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
  reset->setObjectName("resetLayoutAction");
  reset->setToolTip(tr("Lay the workspace out as designed again"));
  if (QMenu* view = findChild<QMenu*>("viewMenu")) {
    view->addSeparator();
    view->addMenu(menu);
    view->addAction(reset);
  }
}

const workspaces::Workspace& MainWindow::currentWorkspace() const { return *workspaces::find(m_workspace); }

bool MainWindow::setWorkspace(const QString& id) {
  const workspaces::Workspace* w = workspaces::find(id);
  if (!w) return false;
  if (QAction* a = findChild<QAction*>("workspace_" + id)) a->setChecked(true);
  if (id == m_workspace) return true;
  // The user's changes to the one left are kept (not while presenting: that layout is designed).
  if (!m_presentation) m_workspaceStates.insert(m_workspace, saveState());
  m_workspace = id;
  if (m_presentation)
    layOut(w->presenting);
  else if (!m_workspaceStates.contains(id) || !restoreState(m_workspaceStates.value(id)))
    layOut(w->desk);
  // The keys go to what the workspace is for: the Lecture's → steps through the algorithm from the
  // 3D view (it carries the inspector's keys), and no workspace leaves them on a dock it hid.
  const QWidget* focus = QApplication::focusWidget();
  if (id == QLatin1String("lecture") || !focus || !focus->isVisible()) m_viewport->setFocus(Qt::OtherFocusReason);
  statusBar()->clearMessage();  // a hint of the workspace left ("Lecture mode: → step …") is not this one's
  emit workspaceChanged(id);
  return true;
}

void MainWindow::resetLayout() {
  m_workspaceStates.remove(m_workspace);
  layOut(m_presentation ? currentWorkspace().presenting : currentWorkspace().desk);
}

void MainWindow::followRobotKind() {
  if (m_presentation) {
    if (workspaces::docksOf(this, currentWorkspace().presenting) != m_laidOut) layOut(currentWorkspace().presenting);
    return;
  }
  if (m_doc->modelKeptTree() || m_doc->lastLoadWasReload() || !m_doc->dhTable()) return;
  if (auto* dh = findChild<DhTableDock*>(); dh && dh->toggleViewAction()->isChecked()) dh->raise();
}

void MainWindow::layOut(const workspaces::Layout& layout, bool keepTabsInFront) {
  m_laidOut = workspaces::docksOf(this, layout);
  workspaces::apply(this, layout, keepTabsInFront);
  workspaces::fitSizes(this, layout);
  // Again once the docks have their new contents' sizes, and (presenting) once the full-screen
  // geometry has arrived; at the desk only once, so that a dock widened meanwhile (the joints' τ
  // column) keeps its width.
  // (A vector: the arrays behind two braced lists in a conditional die before the loop reads them,
  // which had lost these passes to "negative intervals".)
  const std::vector<int> delays = m_presentation ? std::vector<int>{0, 150, 400} : std::vector<int>{0};
  for (int ms : delays)
    QTimer::singleShot(ms, this, [this, layout, workspace = m_workspace, presenting = m_presentation] {
      if (m_workspace == workspace && m_presentation == presenting) workspaces::fitSizes(this, layout);
    });
}

QSize MainWindow::savedScreenSize() const {
  const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
  return screen ? screen->availableGeometry().size() : QSize();
}

void MainWindow::saveWorkspaceSettings() const {
  QSettings s(kSettingsOrganization, kSettingsApplication);
  s.setValue("workspace/current", m_workspace);
  s.setValue("workspace/screen", savedScreenSize());
  for (auto it = m_workspaceStates.begin(); it != m_workspaceStates.end(); ++it)
    if (it.key() != m_workspace) s.setValue("workspace/state/" + it.key(), it.value());
  s.setValue("workspace/state/" + m_workspace, saveState());
}

void MainWindow::presentOnScreenOfSize(QSize screen) {
  if (m_presentation) return;
  m_presentScreen = screen;
  setPresentationMode(true);
}

void MainWindow::setPresentationMode(bool on) {
  if (on == m_presentation) return;
  m_presentation = on;
  if (m_presentationAction && m_presentationAction->isChecked() != on) m_presentationAction->setChecked(on);
  if (on) {
    m_beforePresenting = {saveState(), geometry(), isMaximized(), m_workspace};
    // The sizes for the screen that is projected (a laptop's 768 lines fill the same wall as 1080).
    const QSize screenSize = m_presentScreen.isValid() ? m_presentScreen
                             : screen()                ? screen()->geometry().size()
                                                       : QSize(1920, 1080);
    const double scale = presentationScale(screenSize.height());
    const double factor = presentationFontFactor(scale);
    m_normalFont = QApplication::font();
    QFont big = m_normalFont;
    if (big.pointSizeF() > 0)
      big.setPointSizeF(big.pointSizeF() * factor);
    else
      big.setPixelSize(int(big.pixelSize() * factor));
    QApplication::setFont(big);
    DockTitleStyle::setFollowFont(this, true);  // the dock titles in the larger font too
    const int icon = int(24 * factor);
    for (QToolBar* bar : {m_fileToolBar, m_viewToolBar}) bar->setIconSize(QSize(icon, icon));
    m_presentationStyle.apply(m_viewport->renderer(), scale);
    m_inspectorDock->setPresentationMode(true, scale);
    m_equationsDock->setPresentationMode(true, scale);
    if (m_massDock) m_massDock->setPresentationMode(true);
    m_simulationDock->setPresentationMode(true);
    m_arrows->setPresentation(true);
    showFullScreen();
    // Without a window manager (a bare X server, Xvfb, a kiosk session) nobody honours the
    // full-screen request: cover the screen ourselves. Harmless when a window manager did it.
    if (QScreen* s = screen()) setGeometry(QRect(s->geometry().topLeft(), screenSize));
    layOut(currentWorkspace().presenting, true);
    // The joint rows in full at the larger font, once the font change has reached them.
    QMetaObject::invokeMethod(
        this,
        [this] {
          if (m_presentation && m_jointsDock->isVisible() && m_jointsDock->width() < m_jointsDock->preferredWidth())
            resizeDocks({m_jointsDock}, {std::min(m_jointsDock->preferredWidth(), width() * 40 / 100)}, Qt::Horizontal);
        },
        Qt::QueuedConnection);
  } else {
    m_presentScreen = QSize();
    QApplication::setFont(m_normalFont);
    DockTitleStyle::setFollowFont(this, false);
    for (QToolBar* bar : {m_fileToolBar, m_viewToolBar}) bar->setIconSize(QSize(24, 24));
    m_presentationStyle.restore();
    m_inspectorDock->setPresentationMode(false);
    m_equationsDock->setPresentationMode(false);
    if (m_massDock) m_massDock->setPresentationMode(false);
    m_simulationDock->setPresentationMode(false);
    m_arrows->setPresentation(false);
    const PresentationReturn back = m_beforePresenting;
    if (back.maximized) {
      showMaximized();
    } else {
      showNormal();
      setGeometry(back.geometry);
    }
    // The layout of before, exactly: docks, tabs, splitters. Once now and again when the smaller
    // font has reached every widget and the geometry has settled (the large font's minimum sizes
    // may clamp the first pass). Another workspace chosen meanwhile gets its own layout instead.
    const bool sameWorkspace = back.workspace == m_workspace;
    const auto restore = [this, back, sameWorkspace] {
      if (m_presentation) return;
      if (!back.maximized && geometry() != back.geometry) setGeometry(back.geometry);
      if (sameWorkspace) restoreState(back.state);
    };
    // The font change reaches the widgets by posted events; deliver them (and the layout requests
    // they post) now, so that the first restore already meets the normal minimum sizes and a quick
    // F11 again captures the settled layout.
    for (int round = 0; round < 3; ++round) QCoreApplication::sendPostedEvents();
    if (sameWorkspace)
      restore();
    else if (!m_workspaceStates.contains(m_workspace) || !restoreState(m_workspaceStates.value(m_workspace)))
      layOut(currentWorkspace().desk);
    for (int ms : {0, 100, 300, 700}) QTimer::singleShot(ms, this, restore);
  }
  m_viewport->update();
}
