// MainWindow's side of the session (session/workbench_session.hpp): the [*] marker in the title,
// the session's questions as message boxes (Save / Discard / Cancel, restore after a crash), its
// messages in the log and its errors as dialogs. What is unsaved, when to ask, the autosave and the
// restore are the session's.
#include <QFileInfo>
#include <QSignalBlocker>
#include <QStatusBar>

#include "document/robot_document.hpp"
#include "session/workbench_session.hpp"
#include "simulation/simulation_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window/recent_files.hpp"

void MainWindow::createSafetyNet() {
  connect(m_session, &WorkbenchSession::unsavedWorkChanged, this, &QWidget::setWindowModified);
  m_simulationDock->setNewRunGuard(
      [this] { return maybeSave(tr("running a simulation, which replaces the trajectory")); });
  if (m_settings == Settings::Persistent)
    m_promptHandler = messageBoxPrompt();
  else  // nobody's session: nothing to protect
    m_promptHandler = [](const QString&, const QString&, QMessageBox::StandardButtons buttons) {
      return buttons.testFlag(QMessageBox::Discard) ? QMessageBox::Discard : QMessageBox::No;
    };
  // The session's questions through the prompt handler (a message box, or a test's answers).
  using S = WorkbenchSession;
  m_session->setPrompt([this](S::Question question, const QString& title, const QString& text) {
    const bool unsaved = question == S::Question::UnsavedWork;
    const QMessageBox::StandardButtons buttons =
        unsaved ? QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel : QMessageBox::Yes | QMessageBox::No;
    const QMessageBox::StandardButton answer =
        m_promptHandler ? m_promptHandler(title, text, buttons) : (unsaved ? QMessageBox::Cancel : QMessageBox::No);
    switch (answer) {
      case QMessageBox::Save:
        return S::Answer::Save;
      case QMessageBox::Discard:
        return S::Answer::Discard;
      case QMessageBox::Yes:
        return S::Answer::Yes;
      case QMessageBox::No:
        return S::Answer::No;
      default:
        return S::Answer::Cancel;
    }
  });
  m_session->setSaveAs([this] { return saveProjectWithDialog(); });
  m_session->setViewState([this] { return viewState(); });
  connect(m_session, &S::message, this, [this](const QString& text, S::Severity severity) {
    m_logDock->append(text, severity == S::Severity::Warning ? LogDock::Level::Warning : LogDock::Level::Info);
  });
  connect(m_session, &S::statusMessage, this,
          [this](const QString& text, int ms) { statusBar()->showMessage(text, ms); });
  connect(m_session, &S::error, this, &MainWindow::showError);
  connect(m_session, &S::titleChanged, this, &MainWindow::updateTitle);
  connect(m_session, &S::robotLoaded, this, &MainWindow::logLoad);
  connect(m_session, &S::viewStateLoaded, this, &MainWindow::applyViewState);
  connect(m_session, &S::projectApplied, this, [this] { m_viewport->update(); });
  connect(m_session, &S::fileUsed, this, [this](const QString& path) {
    if (m_settings == Settings::Persistent) recent_files::add(path);
    rebuildRecentMenu();
  });
  connect(m_session, &S::floatingBaseChanged, this, [this](bool on) {
    const QSignalBlocker block(m_floatingBaseAction);  // the session has set the base: no reload here
    m_floatingBaseAction->setChecked(on);
  });
  updateTitle();
}

void MainWindow::updateTitle() {
  // [*] is where Qt shows the modified marker (setWindowModified).
  const QString file = m_session->titleFile();
  setWindowTitle(file.isEmpty() ? tr("Dynscope[*]") : tr("%1[*] — Dynscope").arg(QFileInfo(file).fileName()));
  setWindowModified(m_session->hasUnsavedWork());
}

bool MainWindow::hasUnsavedWork() const { return m_session->hasUnsavedWork(); }

bool MainWindow::maybeSave(const QString& action) { return m_session->maybeSave(action); }

MainWindow::PromptHandler MainWindow::messageBoxPrompt() {
  return [this](const QString& title, const QString& text, QMessageBox::StandardButtons buttons) {
    QMessageBox box(QMessageBox::Warning, title, text, buttons, this);
    box.setObjectName("unsavedWorkPrompt");
    if (buttons.testFlag(QMessageBox::Save)) box.setDefaultButton(QMessageBox::Save);
    if (buttons.testFlag(QMessageBox::Cancel)) box.setEscapeButton(QMessageBox::Cancel);
    return QMessageBox::StandardButton(box.exec());
  };
}

void MainWindow::enableRecovery(const QString& dir, int intervalMs) { m_session->enableRecovery(dir, intervalMs); }

bool MainWindow::autosaveNow() { return m_session->autosaveNow(); }

QString MainWindow::autosaveFile() const { return m_session->autosaveFile(); }

bool MainWindow::offerRestore() { return m_session->offerRestore(); }
