#include "session/script_link.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTimer>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/io/fixups.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/model/names.hpp"
#include "session/script_arrays.hpp"
#include "session/workbench_session.hpp"
#include "trajectory/trajectory_document.hpp"

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace {

constexpr qsizetype kMaxLine = qsizetype(1) << 29;  // 512 MB: far above a 10^6 x 30 trajectory in base64

QJsonObject ok(QJsonObject fields = {}) {
  fields.insert("ok", true);
  return fields;
}

// "value": the request's numbers or names do not fit (Python raises ValueError); "file": no such
// file (FileNotFoundError); "": anything else (RuntimeError).
QJsonObject failure(const QString& message, const QString& kind = {}) {
  QJsonObject o{{"error", message}};
  if (!kind.isEmpty()) o.insert("kind", kind);
  return o;
}

QJsonArray toJson(const Eigen::VectorXd& v) {
  QJsonArray a;
  for (double x : v) a.append(x);
  return a;
}

QJsonArray toJson(const std::vector<std::string>& names) {
  QJsonArray a;
  for (const auto& n : names) a.append(QString::fromStdString(n));
  return a;
}

const QStringList kRequests{"hello", "open", "display", "play", "plot", "state", "screenshot", "close"};

}  // namespace

struct ScriptLink::Connection {
  quint64 serial = 0;  // a late reply finds its connection by this, never by an address reused since
  QLocalSocket* socket = nullptr;
  QByteArray buffer;
  bool busy = false;  // a reply is outstanding: later lines wait, so replies come in order
};

ScriptLink::ScriptLink(WorkbenchSession* session, QObject* parent) : QObject(parent), m_session(session) {}

ScriptLink::~ScriptLink() { stop(); }

QString ScriptLink::defaultSocketPath() {
  const QString chosen = qEnvironmentVariable("DYNSCOPE_SOCKET");
  if (!chosen.isEmpty()) return chosen;
  const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
  if (!runtime.isEmpty() && QFileInfo(runtime).isDir()) return QDir(runtime).filePath("dynscope.sock");
#ifdef Q_OS_UNIX
  const QString user = QString::number(::getuid());
#else
  const QString user = qEnvironmentVariable("USERNAME", "user");
#endif
  return QDir(QDir::tempPath()).filePath("dynscope-" + user + "/viewer.sock");
}

bool ScriptLink::listen(const QString& path, QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  stop();
  const QFileInfo where(path);
  if (!where.dir().exists()) {  // a folder of our own: only this user may reach the socket
    if (!QDir().mkpath(where.absolutePath())) return fail("cannot create the folder " + where.absolutePath());
    QFile::setPermissions(where.absolutePath(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  }
  // Asked before listening: with UserAccessOption Qt binds beside the path and renames over it, so
  // listen() itself would take a live window's socket away.
  if (QFileInfo::exists(path)) {
    QLocalSocket probe;
    probe.connectToServer(path);
    if (probe.waitForConnected(1000)) return fail("another Dynscope window already listens on " + path);
    QLocalServer::removeServer(path);  // a file left by a window that is gone
  }
  m_server = new QLocalServer(this);
  m_server->setSocketOptions(QLocalServer::UserAccessOption);
  connect(m_server, &QLocalServer::newConnection, this, &ScriptLink::onNewConnection);
  if (m_server->listen(path)) return true;
  const QString why = m_server->errorString();
  delete m_server;
  m_server = nullptr;
  return fail(QString("cannot listen on %1: %2").arg(path, why));
}

QString ScriptLink::socketPath() const { return m_server ? m_server->fullServerName() : QString(); }

bool ScriptLink::isListening() const { return m_server && m_server->isListening(); }

void ScriptLink::stop() {
  for (Connection* c : m_connections) {
    c->socket->disconnect(this);
    c->socket->flush();  // replies already written
    c->socket->abort();  // at once, without the event loop (the window may be quitting)
    c->socket->deleteLater();
    delete c;
  }
  m_connections.clear();
  if (m_server) {
    m_server->close();
    delete m_server;
    m_server = nullptr;
  }
}

void ScriptLink::onNewConnection() {
  while (QLocalSocket* socket = m_server->nextPendingConnection()) {
    auto* c = new Connection{++m_serial, socket};
    m_connections.push_back(c);
    emit message(tr("A script connected (%1)").arg(m_server->fullServerName()));
    connect(socket, &QLocalSocket::readyRead, this, [this, c] { readFrom(c); });
    connect(socket, &QLocalSocket::disconnected, this, [this, c] {
      std::erase(m_connections, c);
      c->socket->deleteLater();
      delete c;
    });
  }
}

void ScriptLink::readFrom(Connection* c) {
  c->buffer += c->socket->readAll();
  while (!c->busy) {
    const qsizetype end = c->buffer.indexOf('\n');
    if (end < 0) {
      if (c->buffer.size() > kMaxLine) {  // no sane request is this long: the peer is no Viewer
        c->socket->write(QJsonDocument(failure("the request is longer than 512 MB")).toJson(QJsonDocument::Compact) +
                         '\n');
        c->socket->disconnectFromServer();
      }
      return;
    }
    const QByteArray line = c->buffer.left(end);
    c->buffer.remove(0, end + 1);
    if (line.trimmed().isEmpty()) continue;
    c->busy = true;
    const quint64 serial = c->serial;
    handle(line, [this, serial](const QJsonObject& reply) {
      Connection* c = find(serial);
      if (!c) return;  // the script hung up meanwhile
      c->socket->write(QJsonDocument(reply).toJson(QJsonDocument::Compact) + '\n');
      c->socket->flush();  // now: a reply to "close" must leave before stop() cuts the connection
      c->busy = false;
      if (c->buffer.contains('\n'))
        QTimer::singleShot(0, this, [this, serial] {
          if (Connection* later = find(serial)) readFrom(later);
        });
    });
  }
}

ScriptLink::Connection* ScriptLink::find(quint64 serial) const {
  for (Connection* c : m_connections)
    if (c->serial == serial) return c;
  return nullptr;
}

void ScriptLink::handle(const QByteArray& line, Reply reply) {
  QJsonParseError parseError;
  const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
  if (!doc.isObject()) {
    reply(failure(parseError.error != QJsonParseError::NoError ? "the request is not JSON: " + parseError.errorString()
                                                               : QString("the request is not a JSON object")));
    return;
  }
  const QJsonObject request = doc.object();
  const QJsonValue id = request.value("id");
  auto answer = [reply = std::move(reply), id](QJsonObject r) {
    if (!id.isUndefined()) r.insert("id", id);
    reply(r);
  };
  dispatch(request.value("cmd").toString(), request, std::move(answer));
}

void ScriptLink::dispatch(const QString& command, const QJsonObject& request, Reply reply) {
  if (command == "hello") return reply(hello());
  if (command == "state") return reply(state());
  if (command == "open") return open(request, std::move(reply));
  if (command == "display") return reply(display(request));
  if (command == "play") return reply(play(request));
  if (command == "plot") return reply(plot(request));
  if (command == "screenshot") return screenshot(request, std::move(reply));
  if (command == "close") {
    if (!m_window.close) return reply(failure("this window cannot be closed by a script"));
    reply(ok());
    QTimer::singleShot(0, this, [this] { m_window.close(); });  // the reply leaves first
    return;
  }
  reply(failure(QString("unknown request '%1' (known: %2)").arg(command, kRequests.join(", ")), "value"));
}

QJsonObject ScriptLink::hello() const {
  return ok({{"program", "dynscope"},
             {"version", QCoreApplication::applicationVersion()},
             {"protocol", kProtocol},
             {"pid", QCoreApplication::applicationPid()}});
}

QString ScriptLink::robotLabel() const {
  const QString name = m_session->robot()->robotName();
  return name.isEmpty() ? tr("the robot") : tr("the robot %1").arg(name);
}

QJsonObject ScriptLink::modelInfo() const {
  const RobotDocument* doc = m_session->robot();
  if (!doc->hasModel()) return {{"path", ""}, {"name", ""}, {"nq", 0}, {"nv", 0}};
  const dyn::Model& m = doc->model();
  QJsonArray fixups;
  for (dyn::Fixup f : doc->loadedFixups()) fixups.append(QString::fromUtf8(dyn::fixupName(f)));
  return {{"path", doc->sourceFile()},
          {"name", doc->robotName()},
          {"nq", m.nq},
          {"nv", m.nv},
          {"floating_base", doc->loadedFloatingBase()},
          {"fixups", fixups},
          {"q_names", toJson(dyn::configurationNames(m))},
          {"v_names", toJson(dyn::velocityNames(m))}};
}

QJsonObject ScriptLink::state() const {
  const RobotDocument* doc = m_session->robot();
  const TrajectoryDocument* traj = m_session->trajectory();
  QJsonObject s = modelInfo();
  s.insert("q", toJson(doc->hasModel() ? doc->q() : Eigen::VectorXd()));
  s.insert("loading", doc->isLoading());
  s.insert("time", traj->time());
  s.insert("samples", traj->samples().samples());
  s.insert("trajectory", traj->sourceDescription());
  s.insert("playing", m_window.playing ? m_window.playing() : false);
  s.insert("workspace", m_window.workspace ? m_window.workspace() : QString());
  s.insert("plots", QJsonArray::fromStringList(m_window.plotTitles ? m_window.plotTitles() : QStringList()));
  return ok(s);
}

void ScriptLink::open(const QJsonObject& request, Reply reply) {
  RobotDocument* doc = m_session->robot();
  if (doc->isLoading()) {  // the robot of the command line, or the user's: answer once it is in
    connect(
        doc, &RobotDocument::loadingFinished, this, [this, request, reply] { open(request, reply); },
        Qt::SingleShotConnection);
    return;
  }
  const QString path = request.value("path").toString();
  if (path.isEmpty()) return reply(failure("open: no robot file given", "value"));
  const QFileInfo file(path);
  if (!file.isFile()) return reply(failure("no such file: " + path, "file"));
  const bool floating = request.value("floating_base").toBool(false);
  std::vector<dyn::Fixup> fixups;
  for (const QJsonValue& v : request.value("fixups").toArray()) {
    const auto f = dyn::fixupByName(v.toString().toStdString());
    if (!f) {
      QStringList known;
      for (dyn::Fixup k : dyn::kAllFixups) known << QString::fromUtf8(dyn::fixupName(k));
      return reply(failure(QString("unknown fix-up '%1' (known: %2)").arg(v.toString(), known.join(", ")), "value"));
    }
    fixups.push_back(*f);
  }
  const QString absolute = file.absoluteFilePath();
  if (doc->hasModel() && QFileInfo(doc->sourceFile()) == file && doc->loadedFloatingBase() == floating &&
      doc->loadedFixups() == fixups && request.value("reload").toBool(false) == false) {
    QJsonObject info = modelInfo();
    info.insert("loaded", false);  // already shown: nothing was read again
    return reply(ok(info));
  }
  doc->setFloatingBase(floating);
  doc->setFixups(fixups);
  const QMetaObject::Connection finished = connect(
      doc, &RobotDocument::loadingFinished, this,
      [this, reply, absolute](bool loaded, const QString& error) {
        if (!loaded) return reply(failure(QString("could not open %1: %2").arg(absolute, error)));
        emit message(tr("A script opened %1").arg(absolute));
        QJsonObject info = modelInfo();
        info.insert("loaded", true);
        reply(ok(info));
      },
      Qt::SingleShotConnection);
  if (!m_session->openFile(absolute)) {
    disconnect(finished);
    reply(failure(QString("the window did not open %1: another load is running, or the user chose to keep "
                          "unsaved work")
                      .arg(absolute)));
  }
}

QJsonObject ScriptLink::display(const QJsonObject& request) {
  RobotDocument* doc = m_session->robot();
  if (!doc->hasModel() || doc->isLoading()) return failure("the window has no robot open yet");
  Eigen::VectorXd q;
  QString error;
  if (!decodeScriptVector(request.value("q"), "q", &q, &error)) return failure(error, "value");
  const int nq = doc->model().nq;
  if (q.size() != nq)
    return failure(QString("q has %1 entries; %2 has nq = %3").arg(q.size()).arg(robotLabel()).arg(nq), "value");
  if (m_window.pause) m_window.pause();  // the pose shown stays until the script's next call
  if (!doc->setQ(q))
    return failure(doc->loopMessage().isEmpty() ? QString("the pose was refused") : doc->loopMessage());
  return ok({{"q", toJson(doc->q())}});
}

QJsonObject ScriptLink::play(const QJsonObject& request) {
  RobotDocument* doc = m_session->robot();
  if (!doc->hasModel() || doc->isLoading()) return failure("the window has no robot open yet");
  if (!m_window.play) return failure("this window cannot play a trajectory for a script");
  Eigen::VectorXd t;
  Eigen::MatrixXd Q;
  QString error;
  if (!decodeScriptVector(request.value("t"), "t", &t, &error)) return failure(error, "value");
  if (!decodeScriptMatrix(request.value("q"), "Q", &Q, &error)) return failure(error, "value");
  const dyn::Model& model = doc->model();
  if (Q.rows() != t.size())
    return failure(
        QString("t has %1 times but Q has %2 rows (one row of nq values per time)").arg(t.size()).arg(Q.rows()),
        "value");
  if (Q.cols() != model.nq)
    return failure(QString("Q has %1 columns; %2 has nq = %3").arg(Q.cols()).arg(robotLabel()).arg(model.nq), "value");
  if (t.size() < 2) return failure(QString("a trajectory needs at least two samples, got %1").arg(t.size()), "value");
  for (Eigen::Index k = 1; k < t.size(); ++k)
    if (!(t[k] > t[k - 1]))
      return failure(
          QString("t must increase: t[%1] = %2 is not after t[%3] = %4").arg(k).arg(t[k]).arg(k - 1).arg(t[k - 1]),
          "value");
  dyn::SampledTrajectory run;
  run.t = t;
  run.q = Q.transpose();
  try {  // q̇ and q̈ as an imported CSV gets them: the spline through the samples
    dyn::splineDerivatives(model, run.t, run.q, &run.qd, &run.qdd);
  } catch (const std::exception& e) {
    return failure(QString::fromUtf8(e.what()), "value");
  }
  TrajectoryDocument* traj = m_session->trajectory();
  // Like a demonstration, the script's trajectory is no unsaved work: the script makes it again.
  const bool wasModified = traj->isModified();
  if (!traj->setRecorded(std::move(run), tr("Python script"), &error)) return failure(error, "value");
  if (!wasModified) traj->markSaved();
  m_window.play(request.value("loop").toBool(false));
  return ok({{"samples", int(t.size())}, {"duration", t[t.size() - 1] - t[0]}});
}

QJsonObject ScriptLink::plot(const QJsonObject& request) {
  if (!m_window.plot) return failure("this window cannot show a plot for a script");
  Eigen::VectorXd t;
  Eigen::MatrixXd Y;
  QString error;
  if (!decodeScriptVector(request.value("t"), "t", &t, &error)) return failure(error, "value");
  if (!decodeScriptMatrix(request.value("y"), "Y", &Y, &error)) return failure(error, "value");
  if (Y.rows() != t.size())
    return failure(QString("t has %1 times but Y has %2 rows (one row per time)").arg(t.size()).arg(Y.rows()), "value");
  if (t.size() < 1) return failure("a plot needs at least one sample", "value");
  for (Eigen::Index k = 1; k < t.size(); ++k)
    if (t[k] < t[k - 1])
      return failure(
          QString("t must not decrease: t[%1] = %2 is before t[%3] = %4").arg(k).arg(t[k]).arg(k - 1).arg(t[k - 1]),
          "value");
  QStringList names;
  if (request.value("names").isArray()) {
    for (const QJsonValue& v : request.value("names").toArray()) names << v.toString();
    if (names.size() != Y.cols())
      return failure(QString("%1 names for the %2 columns of Y").arg(names.size()).arg(Y.cols()), "value");
  } else {
    for (Eigen::Index c = 0; c < Y.cols(); ++c) names << QString("y%1").arg(c);
  }
  QString title = request.value("title").toString().trimmed();
  if (title.isEmpty()) title = tr("script");
  const QString unit = request.value("unit").toString().trimmed();
  const QString yLabel = unit.isEmpty() ? title : QString("%1 [%2]").arg(title, unit);
  const std::vector<double> times(t.data(), t.data() + t.size());
  error = m_window.plot(title, times, Y.transpose(), names, yLabel);
  if (!error.isEmpty()) return failure(error, "value");
  return ok({{"title", title}});
}

void ScriptLink::screenshot(const QJsonObject& request, Reply reply) {
  if (!m_window.screenshot) return reply(failure("this window cannot take a screenshot for a script"));
  const QString path = request.value("path").toString();
  if (path.isEmpty()) return reply(failure("screenshot: no file name given", "value"));
  QSize size;
  if (request.contains("width") || request.contains("height")) {
    size = QSize(request.value("width").toInt(), request.value("height").toInt());
    if (size.width() < 16 || size.height() < 16 || size.width() > 16384 || size.height() > 16384)
      return reply(failure(QString("screenshot: a size of 16 to 16384 pixels each way, got %1 x %2")
                               .arg(size.width())
                               .arg(size.height()),
                           "value"));
  }
  m_window.screenshot(QFileInfo(path).absoluteFilePath(), size,
                      [reply](const QString& error) { reply(error.isEmpty() ? ok() : failure(error)); });
}
