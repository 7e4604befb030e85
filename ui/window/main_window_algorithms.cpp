// The Algorithms dock (issue 14): a tab of the wide bottom area beside the plots (its table and
// log-log figure want width; a seventh tab on the right made that column too wide for a laptop).
// View > Algorithms (Ctrl+Shift+F, "formulations") shows and raises it; in presentation mode it
// grows to show its table and figure whole.
#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QTimer>
#include <algorithm>

#include "algorithms/algorithms_dock.hpp"
#include "trajectory/plots_dock.hpp"
#include "window/main_window.hpp"
#include "window/model_check_dock.hpp"

void MainWindow::createAlgorithmsUi() {
  // Shows and raises the dock (a toggle would hide a dock that is merely behind another tab).
  auto* show = new QAction(tr("&Algorithms"), this);
  show->setObjectName("showAlgorithmsAction");
  show->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
  show->setToolTip(tr("Formulations: choose the live inverse and forward dynamics, compare operation counts"));
  connect(show, &QAction::triggered, this, [this] {
    m_algorithmsDock->show();
    m_algorithmsDock->raise();
    // Room for the table and the figure: the bottom area takes up to 45 % of the window's height.
    const int wanted = height() * 45 / 100;
    if (m_algorithmsDock->height() < wanted) resizeDocks({m_algorithmsDock}, {wanted}, Qt::Vertical);
  });
  addAction(show);  // the shortcut works while the menu bar is hidden (presentation mode)
  if (QMenu* view = findChild<QMenu*>("viewMenu")) view->addAction(show);

  // Presentation mode (F11) enlarges every font: the dock would then scroll its figure out of view.
  // Shown while presenting (docked), it gets 66 % of the window's height, or what shows it whole if
  // that is more (at most 75 %). Leaving presentation mode gives back the whole layout of before.
  const auto grow = [this] {
    // On screen, not only "visible": a tab behind Plots or Log counts as visible to Qt.
    if (!m_presentation || m_algorithmsDock->visibleRegion().isEmpty() || m_algorithmsDock->isFloating()) return;
    const int wanted =
        std::min(std::max(m_algorithmsDock->preferredHeight(), height() * 66 / 100), height() * 75 / 100);
    if (m_algorithmsDock->height() < wanted) resizeDocks({m_algorithmsDock}, {wanted}, Qt::Vertical);
  };
  connect(m_algorithmsDock, &QDockWidget::visibilityChanged, this, [this, grow](bool visible) {
    if (!visible || !m_presentation) return;  // raised while presenting
    for (int ms : {0, 300, 700}) QTimer::singleShot(ms, this, grow);
  });
}
