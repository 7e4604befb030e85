// MainWindow's model check: the Model check panel (a tab beside the log), the status bar's badge
// with the count of warnings (a click opens the panel), the Model menu with the fix-ups (checkable:
// each toggle reloads the robot with or without it, so every fix-up is reversible; the changes are
// listed in the log and the panel, and a saved project keeps them), and the load's line in the log.
#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>

#include "document/robot_document.hpp"
#include "trajectory/plots_dock.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window/model_check_dock.hpp"

namespace {

// Closed loops: which joints the load cut from the file's cycles (docs/loops.md), which loop joints
// the file wrote, and the coordinates the Joints dock lets the user move.
QString loopsLine(const dyn::Model& m) {
  QStringList cut, written, independent;
  for (const auto& J : m.loops)
    (J.cut ? cut : written) << QStringLiteral("%1 (line %2)").arg(QString::fromStdString(J.name)).arg(J.line);
  for (int v : m.independentDofs()) independent << QString::fromStdString(m.jointNames[size_t(m.dofBody[size_t(v)])]);
  independent.removeDuplicates();
  QString line = QObject::tr("Closed loops: %1 loop-closure %2")
                     .arg(m.loops.size())
                     .arg(m.loops.size() == 1 ? QObject::tr("joint") : QObject::tr("joints"));
  if (!cut.isEmpty())
    line += QObject::tr("; cut from the joint graph's cycles: %1 (the file's zero pose taken as assembled)")
                .arg(cut.join(", "));
  if (!written.isEmpty()) line += QObject::tr("; written as loop joints: %1").arg(written.join(", "));
  line += QObject::tr("; independent: %1").arg(independent.join(", "));
  return line;
}

QString countsText(const dyn::FindingCounts& n) {
  const auto count = [](int k, const char* one, const char* many) {
    return QString("%1 %2").arg(k).arg(k == 1 ? QObject::tr(one) : QObject::tr(many));
  };
  QStringList parts;
  if (n.errors) parts << count(n.errors, "error", "errors");
  if (n.warnings) parts << count(n.warnings, "warning", "warnings");
  if (n.infos) parts << count(n.infos, "note", "notes");
  return parts.join(", ");
}

// Balancing cannot give a massless link mass (engine/src/fixups.cpp notes each such link): the
// fix-up that can is named in the log, with its menu path, and on the status bar.
void offerMassForMasslessLinks(const std::vector<dyn::Finding>& findings, LogDock* log, QStatusBar* status) {
  QStringList links;
  for (const dyn::Finding& f : findings)
    if (f.code == "fixup.balance-inertias.massless") links << QString::fromStdString(f.link);
  if (links.isEmpty()) return;
  const QString action =
      MainWindow::tr("Model > Fix-ups > %1").arg(MainWindow::tr(dyn::fixupTitle(dyn::Fixup::MassMasslessLinks)));
  log->append(MainWindow::tr("Balance inertias cannot give mass to a massless link (%1): H(q) stays singular. "
                             "To give them a small mass, choose %2.")
                  .arg(links.join(", "), action),
              LogDock::Level::Warning);
  status->showMessage(MainWindow::tr("Massless links stay massless: choose %1").arg(action), 15000);
}

}  // namespace

void MainWindow::createModelCheckUi() {
  m_checkBadge = new QToolButton(this);
  m_checkBadge->setObjectName("modelCheckBadge");
  m_checkBadge->setAutoRaise(true);
  m_checkBadge->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_checkBadge->hide();
  connect(m_checkBadge, &QToolButton::clicked, this, &MainWindow::showModelCheck);
  statusBar()->insertPermanentWidget(0, m_checkBadge);

  // Model menu, after View: the panel and the fix-ups.
  QMenu* model = new QMenu(tr("&Model"), this);
  model->setObjectName("modelMenu");
  menuBar()->insertMenu(menuBar()->actions().value(3), model);  // File, Edit, View, Model, ...
  QAction* check = model->addAction(tr("Model &check…"), this, &MainWindow::showModelCheck);
  check->setObjectName("showModelCheckAction");
  check->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
  check->setToolTip(
      tr("What the model checker found in the robot: inconsistent inertias, placeholder limits, "
         "massless moving links, ..."));
  QMenu* fixups = model->addMenu(tr("&Fix-ups"));
  fixups->setObjectName("fixupsMenu");
  fixups->setToolTipsVisible(true);
  const QString tips[] = {
      tr("Raise the smallest principal moments of every inconsistent inertia just enough for the triangle "
         "inequality (docs/model-check.md)"),
      tr("Joints whose range has no width (lower = upper) become unlimited"),
      tr("Every link of a massless moving subtree gets 1 % of the median link mass, so forward dynamics can run"),
  };
  for (size_t k = 0; k < std::size(dyn::kAllFixups); ++k) {
    const dyn::Fixup f = dyn::kAllFixups[k];
    QAction* a = fixups->addAction(tr(dyn::fixupTitle(f)));
    a->setObjectName(QString("fixup_") + dyn::fixupName(f));
    a->setCheckable(true);
    a->setToolTip(tips[k]);
    connect(a, &QAction::toggled, this, [this, f](bool on) { setFixupEnabled(f, on); });
    m_fixupActions.push_back(a);
  }
  fixups->addSeparator();
  fixups->addAction(tr("&Remove all fix-ups"), this, [this] {
    for (QAction* a : m_fixupActions) a->setChecked(false);
  });
  m_checkDock->setFixupActions(fixups->actions());
  // The menu shows the fix-ups of the next load (a project brings its own; another file clears them).
  connect(m_doc, &RobotDocument::fixupsChanged, this, [this] {
    for (size_t k = 0; k < m_fixupActions.size(); ++k) {
      const QSignalBlocker block(m_fixupActions[k]);
      const auto& list = m_doc->fixups();
      m_fixupActions[k]->setChecked(std::find(list.begin(), list.end(), dyn::kAllFixups[k]) != list.end());
    }
  });

  updateModelCheckBadge();
}

void MainWindow::showModelCheck() {
  m_checkDock->show();
  m_checkDock->raise();
  m_checkDock->list()->setFocus();
}

void MainWindow::updateModelCheckBadge() {
  const dyn::FindingCounts n = dyn::countFindings(m_doc->findings());
  const int count = n.errors + n.warnings;
  m_checkBadge->setVisible(m_doc->hasModel() && count > 0);
  m_checkBadge->setIcon(style()->standardIcon(n.errors ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning));
  m_checkBadge->setText(QString::number(count));
  m_checkBadge->setToolTip(tr("Model check: %1. Click to open the panel.").arg(countsText(n)));
}

void MainWindow::logLoad(bool wasReload) {
  const dyn::Model& m = m_doc->model();
  const dyn::FindingCounts n = dyn::countFindings(m.findings);
  QString line = tr("%1 %2 from %3: %4 bodies, %5 DOF (nq %6), %7 kg, %8 ms")
                     .arg(wasReload ? tr("Reloaded") : tr("Loaded"), m_doc->robotName(), m_doc->sourceFile())
                     .arg(m.N)
                     .arg(m.nv)
                     .arg(m.nq)
                     .arg(m.totalMass(), 0, 'f', 2)
                     .arg(m_doc->lastLoadMs(), 0, 'f', 1);
  const bool warn = n.errors + n.warnings > 0;
  if (warn) line += tr("; model check: %1 (Model check panel)").arg(countsText(n));
  m_logDock->append(line, warn ? LogDock::Level::Warning : LogDock::Level::Info);
  if (warn)
    statusBar()->showMessage(tr("%1 loaded with %2: see the Model check panel")
                                 .arg(QFileInfo(m_doc->sourceFile()).fileName(), countsText({n.errors, n.warnings, 0})),
                             10000);
  for (const dyn::Finding& f : m.findings)  // every change of a fix-up, never silent
    if (f.code.rfind("fixup.", 0) == 0) m_logDock->append(tr("Fix-up: %1").arg(QString::fromStdString(f.text())));
  offerMassForMasslessLinks(m.findings, m_logDock, statusBar());
  if (m.hasLoops()) m_logDock->append(loopsLine(m));
}

void MainWindow::setFixupEnabled(dyn::Fixup fixup, bool on) {
  std::vector<dyn::Fixup> list;
  for (size_t k = 0; k < m_fixupActions.size(); ++k)  // kept in menu order, so a project stores them the same
    if (dyn::kAllFixups[k] == fixup ? on : m_fixupActions[k]->isChecked()) list.push_back(dyn::kAllFixups[k]);
  m_doc->setFixups(list);
  if (m_doc->sourceFile().isEmpty()) return;  // applies to the next robot
  m_logDock->append(
      tr("Fix-up %1 %2: reloading %3").arg(dyn::fixupName(fixup), on ? tr("on") : tr("off"), m_doc->robotName()));
  if (!m_doc->startLoad(m_doc->sourceFile(), true))
    m_logDock->append(tr("Still loading a robot: the fix-ups apply at the next reload (F5)"), LogDock::Level::Warning);
}
