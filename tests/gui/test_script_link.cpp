// The script link (ui/session/script_link.hpp, issue 39): the window driven by a Python script's
// requests. Requests go in through handle(), without a socket: open the UR5 (answered once it has
// loaded), poses reported back, sizes and numbers refused with plain messages, a trajectory played
// on the timeline in the Trajectory workspace, a plot tab, the state, a window picture, unknown and
// malformed requests. Then over a real local socket: replies in order, a second window refused the
// same socket, a socket file left by a crash taken over, and "close" answered before the window goes.
#include <QtTest>

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTabWidget>
#include <QTemporaryDir>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "document/robot_document.hpp"
#include "plots/time_series_plot.hpp"
#include "session/script_link.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/plots_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace {

QByteArray line(const QJsonObject& request) { return QJsonDocument(request).toJson(QJsonDocument::Compact); }

// base64 little-endian doubles, row by row, as dynscope.Viewer sends large arrays.
QJsonObject packed(const Eigen::MatrixXd& rowsByCols) {
  QByteArray bytes;
  for (Eigen::Index r = 0; r < rowsByCols.rows(); ++r)
    for (Eigen::Index c = 0; c < rowsByCols.cols(); ++c) {
      const double x = rowsByCols(r, c);
      bytes.append(reinterpret_cast<const char*>(&x), sizeof x);  // the suites run on little-endian machines
    }
  return {{"shape", QJsonArray{int(rowsByCols.rows()), int(rowsByCols.cols())}},
          {"float64", QString::fromLatin1(bytes.toBase64())}};
}

QJsonArray list(std::initializer_list<double> values) {
  QJsonArray a;
  for (double v : values) a.append(v);
  return a;
}

}  // namespace

class TestScriptLink : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  std::unique_ptr<ScriptLink> m_link;
  QTemporaryDir m_tmp;

  // One request through handle(), waiting (with the event loop running) for its reply.
  QJsonObject ask(const QJsonObject& request, int timeoutMs = 30000) {
    std::optional<QJsonObject> reply;
    m_link->handle(line(request), [&](const QJsonObject& r) { reply = r; });
    (void)QTest::qWaitFor([&] { return reply.has_value(); }, timeoutMs);
    return reply.value_or(QJsonObject{{"error", "no reply within the time"}});
  }

 private slots:
  void initTestCase() {
    m_window = dyn::testing::strictWindow();
    m_window->resize(1366, 768);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_link = std::make_unique<ScriptLink>(m_window->session());
    m_window->connectScriptLink(m_link.get());
  }

  void cleanupTestCase() {
    m_link.reset();
    m_window.reset();
  }

  void helloNamesTheProgram() {
    const QJsonObject r = ask({{"cmd", "hello"}, {"id", 7}});
    QVERIFY(r.value("ok").toBool());
    QCOMPARE(r.value("program").toString(), QString("dynscope"));
    QCOMPARE(r.value("protocol").toInt(), ScriptLink::kProtocol);
    QCOMPARE(r.value("id").toInt(), 7);  // the reply names its request
  }

  void opensTheUr5OnceLoaded() {
    const QString ur5 = dyn::testing::robotFile("ur5.urdf");
    QJsonObject r = ask({{"cmd", "open"}, {"path", ur5}});
    QVERIFY2(r.value("ok").toBool(), qPrintable(r.value("error").toString()));
    QCOMPARE(r.value("nq").toInt(), 6);
    QCOMPARE(r.value("name").toString(), QString("ur5"));
    QVERIFY(r.value("loaded").toBool());
    QCOMPARE(m_window->document()->sourceFile(), ur5);
    r = ask({{"cmd", "open"}, {"path", ur5}});
    QVERIFY(r.value("ok").toBool());
    QVERIFY(!r.value("loaded").toBool());  // already shown: not read again
    r = ask({{"cmd", "open"}, {"path", m_tmp.filePath("missing.urdf")}});
    QCOMPARE(r.value("kind").toString(), QString("file"));
    QVERIFY(r.value("error").toString().startsWith("no such file"));
    r = ask({{"cmd", "open"}, {"path", ur5}, {"fixups", QJsonArray{"make-it-nice"}}});
    QCOMPARE(r.value("kind").toString(), QString("value"));
    QVERIFY(r.value("error").toString().contains("unknown fix-up 'make-it-nice' (known: "));
  }

  void displaysPosesAndReportsThem() {
    const QJsonArray q = list({0.1, -1.2, 1.4, -0.3, 1.57, 0.2});
    QJsonObject r = ask({{"cmd", "display"}, {"q", q}});
    QVERIFY2(r.value("ok").toBool(), qPrintable(r.value("error").toString()));
    for (int k = 0; k < 6; ++k) QCOMPARE(m_window->document()->q()[k], q.at(k).toDouble());
    Eigen::MatrixXd packedQ(1, 6);
    packedQ << -0.5, -1.0, 1.0, 0.0, 0.5, 1.0;
    r = ask({{"cmd", "display"}, {"q", packed(packedQ)}});
    QVERIFY(r.value("ok").toBool());
    const QJsonArray shown = ask({{"cmd", "state"}}).value("q").toArray();
    QCOMPARE(shown.size(), 6);
    for (int k = 0; k < 6; ++k) QCOMPARE(shown.at(k).toDouble(), packedQ(0, k));
  }

  void refusesWhatDoesNotFitInPlainWords() {
    QJsonObject r = ask({{"cmd", "display"}, {"q", list({0, 0, 0, 0, 0})}});
    QCOMPARE(r.value("error").toString(), QString("q has 5 entries; the robot ur5 has nq = 6"));
    QCOMPARE(r.value("kind").toString(), QString("value"));
    r = ask({{"cmd", "display"}, {"q", QJsonArray{0, 0, "x", 0, 0, 0}}});
    QCOMPARE(r.value("error").toString(), QString("q[2] is not a number"));
    Eigen::MatrixXd nan = Eigen::MatrixXd::Zero(1, 6);
    nan(0, 3) = NAN;
    r = ask({{"cmd", "display"}, {"q", packed(nan)}});
    QCOMPARE(r.value("error").toString(), QString("q[0][3] is not a finite number"));
    QJsonObject shortData = packed(Eigen::MatrixXd::Zero(1, 6));
    shortData["shape"] = QJsonArray{1, 7};
    r = ask({{"cmd", "display"}, {"q", shortData}});
    QVERIFY(r.value("error").toString().contains("a 1 x 7 shape needs 56"));
    r = ask({{"cmd", "play"}, {"t", list({0, 1})}, {"q", packed(Eigen::MatrixXd::Zero(2, 4))}});
    QCOMPARE(r.value("error").toString(), QString("Q has 4 columns; the robot ur5 has nq = 6"));
    r = ask({{"cmd", "play"}, {"t", list({0, 1, 1})}, {"q", packed(Eigen::MatrixXd::Zero(3, 6))}});
    QCOMPARE(r.value("error").toString(), QString("t must increase: t[2] = 1 is not after t[1] = 1"));
    r = ask({{"cmd", "fly"}});
    QVERIFY(r.value("error").toString().startsWith("unknown request 'fly' (known: hello, open"));
    std::optional<QJsonObject> reply;
    m_link->handle("{not json", [&](const QJsonObject& o) { reply = o; });
    QVERIFY(reply && reply->value("error").toString().startsWith("the request is not JSON"));
    m_link->handle("[1, 2]", [&](const QJsonObject& o) { reply = o; });
    QCOMPARE(reply->value("error").toString(), QString("the request is not a JSON object"));
  }

  void playsATrajectoryOnTheTimeline() {
    const int n = 201;
    Eigen::MatrixXd t(n, 1), Q(n, 6);
    for (int k = 0; k < n; ++k) {
      t(k, 0) = 0.01 * k;
      for (int j = 0; j < 6; ++j) Q(k, j) = 0.5 * std::sin((j + 1) * t(k, 0));
    }
    const QJsonObject r = ask({{"cmd", "play"}, {"t", packed(t)}, {"q", packed(Q)}, {"loop", true}});
    QVERIFY2(r.value("ok").toBool(), qPrintable(r.value("error").toString()));
    QCOMPARE(r.value("samples").toInt(), n);
    TrajectoryDocument* traj = m_window->trajectory();
    QCOMPARE(traj->samples().samples(), n);
    QCOMPARE(traj->sourceDescription(), QString("Python script"));
    QVERIFY(!traj->isModified());  // the script makes it again: closing asks nothing
    QCOMPARE(m_window->workspace(), QString("trajectory"));
    QVERIFY(m_window->timelineDock()->isPlaying());
    QVERIFY(m_window->timelineDock()->clock().loop());
    QTRY_VERIFY(traj->time() > 0.05);
    const QJsonObject s = ask({{"cmd", "state"}});
    QVERIFY(s.value("playing").toBool());
    QCOMPARE(s.value("samples").toInt(), n);
    // A pose shown afterwards stops the playback, so that it stays.
    QVERIFY(ask({{"cmd", "display"}, {"q", list({0, 0, 0, 0, 0, 0})}}).value("ok").toBool());
    QVERIFY(!m_window->timelineDock()->isPlaying());
  }

  void plotsInATabOfItsOwn() {
    const int n = 101;
    Eigen::MatrixXd t(n, 1), y(n, 2);
    for (int k = 0; k < n; ++k) {
      t(k, 0) = 0.02 * k;
      y(k, 0) = std::sin(t(k, 0));
      y(k, 1) = std::cos(t(k, 0));
    }
    QJsonObject r = ask({{"cmd", "plot"},
                         {"t", packed(t)},
                         {"y", packed(y)},
                         {"names", QJsonArray{"sin", "cos"}},
                         {"title", "waves"},
                         {"unit", "m"}});
    QVERIFY2(r.value("ok").toBool(), qPrintable(r.value("error").toString()));
    PlotsDock* plots = m_window->plotsDock();
    QCOMPARE(plots->scriptPlotTitles(), QStringList{"waves"});
    QCOMPARE(plots->tabs()->tabText(plots->tabs()->currentIndex()), QString("waves"));
    auto* plot = qobject_cast<TimeSeriesPlot*>(plots->currentPlot());
    QVERIFY(plot);
    QCOMPARE(plot->seriesNames(), (QStringList{"sin", "cos"}));
    QCOMPARE(plot->sampleCount(), n);
    // The same title again refills that tab; names left out are y0, y1, ...
    r = ask({{"cmd", "plot"}, {"t", packed(t)}, {"y", packed(y.leftCols(1))}, {"title", "waves"}});
    QVERIFY(r.value("ok").toBool());
    QCOMPARE(plots->scriptPlotTitles(), QStringList{"waves"});
    QCOMPARE(plot->seriesNames(), QStringList{"y0"});
    r = ask({{"cmd", "plot"}, {"t", packed(t)}, {"y", packed(y)}, {"names", QJsonArray{"one"}}});
    QCOMPARE(r.value("error").toString(), QString("1 names for the 2 columns of Y"));
    QCOMPARE(ask({{"cmd", "state"}}).value("plots").toArray(), QJsonArray{"waves"});
  }

  void savesAPictureOfTheWindow() {
    const QString file = m_tmp.filePath("window.png");
    QJsonObject r = ask({{"cmd", "screenshot"}, {"path", file}, {"width", 1366}, {"height", 768}});
    QVERIFY2(r.value("ok").toBool(), qPrintable(r.value("error").toString()));
    QImage image(file);
    QCOMPARE(image.size(), QSize(1366, 768));
    r = ask({{"cmd", "screenshot"}, {"path", file}, {"width", 2}, {"height", 768}});
    QVERIFY(r.value("error").toString().contains("16 to 16384 pixels"));
    r = ask({{"cmd", "screenshot"}, {"path", m_tmp.filePath("no/such/folder/x.png")}});
    QVERIFY(!r.value("error").toString().isEmpty());
  }

  void answersOnALocalSocketInOrder() {
    const QString path = m_tmp.filePath("link.sock");
    QString error;
    QVERIFY2(m_link->listen(path, &error), qPrintable(error));
    ScriptLink second(m_window->session());  // a second window leaves the socket to the first
    QVERIFY(!second.listen(path, &error));
    QCOMPARE(error, "another Dynscope window already listens on " + path);

    QLocalSocket socket;
    socket.connectToServer(path);
    QVERIFY(socket.waitForConnected(5000));
    // Three requests in one write: three replies, in order.
    socket.write(line({{"cmd", "hello"}, {"id", 1}}) + "\n" + line({{"cmd", "state"}, {"id", 2}}) + "\n" +
                 line({{"cmd", "nothing"}, {"id", 3}}) + "\n");
    QByteArray received;
    QTRY_VERIFY_WITH_TIMEOUT((received += socket.readAll()).count('\n') == 3, 10000);
    const QList<QByteArray> replies = received.trimmed().split('\n');
    for (int k = 0; k < 3; ++k) QCOMPARE(QJsonDocument::fromJson(replies[k]).object().value("id").toInt(), k + 1);
    QVERIFY(QJsonDocument::fromJson(replies[2]).object().contains("error"));
    m_link->stop();  // the window closing: the script sees the end at once
    QTRY_VERIFY_WITH_TIMEOUT(socket.state() == QLocalSocket::UnconnectedState, 5000);
  }

  void takesOverASocketLeftByACrash() {
    // A socket file nobody answers on: bound, never listened on, closed (as a killed window leaves it).
    const QString path = m_tmp.filePath("stale.sock");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const QByteArray name = QFile::encodeName(path);
    std::memcpy(address.sun_path, name.constData(), std::size_t(name.size()));
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    ::close(fd);
    QVERIFY(QFileInfo::exists(path));
    QString error;
    QVERIFY2(m_link->listen(path, &error), qPrintable(error));
    QVERIFY(m_link->isListening());
    m_link->stop();
  }
};

QTEST_MAIN(TestScriptLink)
#include "test_script_link.moc"
