// The Record action of the window (Ctrl+R: open the dialog; again: stop), the recording session it
// starts and the status bar's "● REC 00:03" while it runs (with the frames done of a timeline
// render). The window only adds the action to its menu and toolbar and shows the messages.
#pragma once
#include <QObject>
#include <QPointer>
#include <functional>
#include <optional>

#include "recording/recording_session.hpp"

class QAction;
class QMainWindow;
class QTimer;
class RecordDialog;
class RecordingIndicator;

class RecordingController : public QObject {
  Q_OBJECT

 public:
  // `baseName` names the proposed file (e.g. the robot's name).
  RecordingController(QMainWindow* window, RecordingSession::Targets targets, std::function<QString()> baseName);

  QAction* action() const { return m_action; }
  RecordingSession* session() const { return m_session; }
  RecordDialog* dialog() const;  // the last one opened, until it is deleted (tests fill it in)
  QWidget* indicator() const;    // the status bar's REC

 signals:
  void message(const QString& text);                      // a recording saved
  void error(const QString& title, const QString& text);  // one that failed

 private:
  void trigger();
  void startFromDialog();
  void updateIndicator();
  void onFinished(bool ok, const QString& path, const QString& note);

  QMainWindow* m_window;
  RecordingSession::Targets m_targets;
  std::function<QString()> m_baseName;
  RecordingSession* m_session;
  QAction* m_action;
  RecordingIndicator* m_indicator;
  QTimer* m_tick;
  QPointer<RecordDialog> m_dialog;
  std::optional<RecordingSettings> m_last;  // offered again by the next dialog
};
