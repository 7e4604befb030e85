// The Algorithms dock (issue 14): beside the mass-matrix and IK docks, View > Algorithms
// (Ctrl+Shift+F, "formulations") shows and raises it.
#include <QAction>
#include <QMenu>
#include <QMenuBar>

#include "algorithms/algorithms_dock.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"

void MainWindow::createAlgorithmsUi() {
  m_algorithmsDock = new AlgorithmsDock(m_traj, this);
  addDockWidget(Qt::RightDockWidgetArea, m_algorithmsDock);
  tabifyDockWidget(m_massDock, m_algorithmsDock);
  m_jointsDock->raise();
  // Shows and raises the dock (a toggle would hide a dock that is merely behind another tab).
  auto* show = new QAction(tr("&Algorithms"), this);
  show->setObjectName("showAlgorithmsAction");
  show->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
  show->setToolTip(tr("Formulations: choose the live inverse and forward dynamics, compare operation counts"));
  connect(show, &QAction::triggered, this, [this] {
    m_algorithmsDock->show();
    m_algorithmsDock->raise();
  });
  addAction(show);  // the shortcut works while the menu bar is hidden (presentation mode)
  if (QMenu* view = qobject_cast<QMenu*>(menuBar()->actions().value(2)->menu())) view->addAction(show);
}
