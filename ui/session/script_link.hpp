// The window as a live view of a Python script (docs/python-viewer.md): a local socket on which
// `dynscope.Viewer` asks the window to open a robot, show a pose, play a trajectory, plot, report
// its state, take a screenshot or close. One JSON object per line each way; every request gets
// one reply, {"ok": true, ...} or {"error": "plain words", "kind": "value"} ("value": the request's
// numbers or names do not fit, a ValueError in Python). A connection's requests are answered in
// order; a load or a screenshot replies when done, while the window's event loop runs on: the
// script never blocks the window, and the window never holds the script longer than a reply.
//
// The link knows the documents, no widgets: what only the window can do (play on the timeline,
// show a plot, grab itself, close) it asks through the hooks the window installs (setWindow).
// handle() takes one request without a socket (the tests' way in).
#pragma once
#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

#include <Eigen/Core>

class QLocalServer;
class QLocalSocket;
class WorkbenchSession;

class ScriptLink : public QObject {
  Q_OBJECT

 public:
  static constexpr int kProtocol = 1;

  explicit ScriptLink(WorkbenchSession* session, QObject* parent = nullptr);
  ~ScriptLink() override;

  // What the window does for the link; each may be left empty (then the request says the window
  // cannot do it).
  struct Window {
    std::function<void(bool loop)> play;  // the trajectory from its start, in the Trajectory workspace
    std::function<void()> pause;          // before a pose is shown
    std::function<bool()> playing;
    std::function<QString()> workspace;
    // A plot tab titled `title` (replaced when one has that title): series x samples; error or "".
    std::function<QString(const QString& title, const std::vector<double>& t, const Eigen::MatrixXd& values,
                          const QStringList& names, const QString& yLabel)>
        plot;
    std::function<QStringList()> plotTitles;
    // The whole window to a PNG, at `size` when not empty; `done` gets the error or "".
    std::function<void(const QString& path, QSize size, std::function<void(const QString& error)> done)> screenshot;
    std::function<void()> close;  // after the reply is on its way
  };
  void setWindow(Window window) { m_window = std::move(window); }

  // Listens on `path` (a socket file). A live window already there keeps it: false and why; a file
  // left by a window that is gone is replaced.
  bool listen(const QString& path, QString* error = nullptr);
  QString socketPath() const;
  bool isListening() const;
  // Closes the server and every connection (the window is closing: scripts see it at once).
  void stop();
  // The socket a window takes when started without --listen, and where Viewer() looks first:
  // $DYNSCOPE_SOCKET, else $XDG_RUNTIME_DIR/dynscope.sock, else dynscope-<uid>/viewer.sock in the
  // temporary folder (made private to the user).
  static QString defaultSocketPath();

  using Reply = std::function<void(const QJsonObject&)>;
  // One request line; `reply` is called once, maybe later (a load, a screenshot).
  void handle(const QByteArray& line, Reply reply);

 signals:
  void message(const QString& text);  // for the window's log: a script connected, asked for what

 private:
  struct Connection;
  void onNewConnection();
  void readFrom(Connection* c);
  Connection* find(quint64 serial) const;
  void dispatch(const QString& command, const QJsonObject& request, Reply reply);

  QJsonObject hello() const;
  QJsonObject state() const;
  void open(const QJsonObject& request, Reply reply);
  QJsonObject display(const QJsonObject& request);
  QJsonObject play(const QJsonObject& request);
  QJsonObject plot(const QJsonObject& request);
  void screenshot(const QJsonObject& request, Reply reply);
  QJsonObject modelInfo() const;
  QString robotLabel() const;  // "the UR5" in messages

  WorkbenchSession* m_session;
  Window m_window;
  QLocalServer* m_server = nullptr;
  std::vector<Connection*> m_connections;
  quint64 m_serial = 0;
};
