// Recording in the window, as a lecturer does it: File > Record video (Ctrl+R) on a UR5 with a
// 2 s trajectory, the dialog filled in, the timeline rendered to a file, which is then decoded
// again (FFmpeg, tests/support/decoded_video.hpp): fps x duration frames (+ the end pose), the
// size, the poses in order. A live recording stopped with Ctrl+R; the whole window; the REC
// indicator on the lecture hall's screens; an unwritable file; and `dynscope --record`.
// Runs under Xvfb.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <cmath>
#include <memory>

#include "decoded_video.hpp"
#include "document/robot_document.hpp"
#include "lecture_hall_sizes.hpp"
#include "recording/record_dialog.hpp"
#include "recording/recording_controller.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/record_command.hpp"
#include "window_loading.hpp"

namespace {

using dyn::testing::settle;

// Mean absolute difference of two pictures' channels (0 = identical, 255 = inverse).
double meanDifference(const QImage& a, const QImage& b) {
  const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
  if (x.size() != y.size()) return 255;
  double sum = 0;
  for (int r = 0; r < x.height(); ++r) {
    const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(r));
    const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(r));
    for (int c = 0; c < x.width(); ++c)
      sum += std::abs(qRed(p[c]) - qRed(q[c])) + std::abs(qGreen(p[c]) - qGreen(q[c])) +
             std::abs(qBlue(p[c]) - qBlue(q[c]));
  }
  return sum / (3.0 * x.width() * x.height());
}

}  // namespace

class TestRecordingWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QStringList m_errors;
  static constexpr double kSeconds = 2.0;  // the trajectory's length

  RecordingController* controller() const { return m_window->findChild<RecordingController*>(); }
  QAction* recordAction() const { return m_window->findChild<QAction*>("recordAction"); }

  // Ctrl+R's action opens the dialog; it is filled in and accepted.
  bool startFromDialog(const QString& path, RecordingSettings::Source source, RecordingSettings::Capture capture,
                       int fps) {
    recordAction()->trigger();
    RecordDialog* dialog = controller()->dialog();
    if (!dialog || !dialog->isVisible()) return false;
    dialog->pathEdit()->setText(path);
    dialog->fpsBox()->setValue(fps);
    dialog->setSource(source);
    dialog->setCapture(capture);
    dialog->accept();
    return true;
  }

  bool waitUntilFinished(int ms = 120000) {
    QSignalSpy finished(controller()->session(), &RecordingSession::finished);
    if (!controller()->session()->isRecording()) return true;
    return finished.wait(ms) && finished.at(0).at(0).toBool();
  }

 private slots:
  void initTestCase() {
    m_window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    m_window->setErrorHandler([this](const QString& title, const QString& text) { m_errors << title + ": " + text; });
    QVERIFY(dyn::testing::showWithRobot(*m_window, QSize(1280, 800), "ur5.urdf"));
    const int nq = m_window->document()->model().nq;
    Eigen::VectorXd q1 = Eigen::VectorXd::Constant(nq, 0.8);
    m_window->trajectory()->setWaypoints({{0.0, Eigen::VectorXd::Zero(nq)}, {kSeconds, q1}});
    m_window->trajectory()->recomputeNow();
    settle();
    QVERIFY(m_window->trajectory()->hasTrajectory());
    QCOMPARE(m_window->timelineDock()->clock().endTime(), kSeconds);
    QVERIFY(recordAction());
    QCOMPARE(recordAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
  }

  void init() { m_errors.clear(); }

  void recordActionIsInTheFileMenuNextToExport() {
    bool found = false;
    for (QObject* o : recordAction()->associatedObjects())
      if (auto* menu = qobject_cast<QMenu*>(o))
        found = found || menu->actions().contains(m_window->findChild<QAction*>("exportAction"));
    QVERIFY2(found, "the Record action is not in the menu of Export image");
  }

  void dialogOffersTheSourcesAndNamesTheCodec() {
    recordAction()->trigger();
    RecordDialog* dialog = controller()->dialog();
    QVERIFY(dialog && dialog->isVisible());
    QTest::qWait(100);
    dialog->grab().save(dyn::testing::screenshotDirectory(m_tmp) + "/recording-dialog.png");
    // Fits the laptop's screen.
    QVERIFY(dialog->width() <= 1366 && dialog->height() <= 768);
    // A default file in the user's Videos (or Pictures) folder named after the robot, as MP4.
    const QString path = dialog->pathEdit()->text();
    QVERIFY2(path.startsWith(RecordDialog::defaultFolder()) && QFileInfo(path).fileName().startsWith("ur5") &&
                 path.endsWith(".mp4"),
             qPrintable(path));
    QCOMPARE(dialog->fpsBox()->value(), 30);
    const auto settings = dialog->settings();
    QCOMPARE(settings.source, RecordingSettings::Source::Timeline);  // there is a trajectory
    QCOMPARE(settings.capture, RecordingSettings::Capture::View3D);
    auto* label = dialog->findChild<QLabel*>("formatLabel");
    QVERIFY(label->text().contains("H.264"));
    dialog->pathEdit()->setText(m_tmp.filePath("x.webm"));
    QVERIFY(label->text().contains("VP9"));
    dialog->pathEdit()->setText(m_tmp.filePath("x.avi"));
    QVERIFY(label->text().contains("Unknown format"));
    QVERIFY(!dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
    // No simulation was set up: that source is offered disabled.
    QVERIFY(!dialog->findChild<QRadioButton*>("sourceSimulation")->isEnabled());
    dialog->reject();
    settle();
    QVERIFY(!controller()->dialog());
    QVERIFY(!controller()->session()->isRecording());
  }

  void timelineToMp4() {
    const QString path = m_tmp.filePath("timeline.mp4");
    const int fps = 10;
    m_window->timelineDock()->setTime(0.7);  // where the lecturer was: put back afterwards
    QVERIFY(startFromDialog(path, RecordingSettings::Source::Timeline, RecordingSettings::Capture::View3D, fps));
    QVERIFY2(m_errors.isEmpty(), qPrintable(m_errors.join('\n')));
    QVERIFY(controller()->session()->isRecording());
    QVERIFY(controller()->indicator()->isVisible());
    QVERIFY(recordAction()->text().contains("Stop"));
    // Half-way: the indicator counts the frames of the render.
    QTRY_VERIFY_WITH_TIMEOUT(controller()->session()->framesWritten() >= 10, 60000);
    QVERIFY2(controller()->indicator()->accessibleName().contains(" / 21"),
             qPrintable(controller()->indicator()->accessibleName()));
    m_window->grab().save(dyn::testing::screenshotDirectory(m_tmp) + "/recording-timeline-progress.png");
    QVERIFY(waitUntilFinished());
    QVERIFY(!controller()->indicator()->isVisible());
    QVERIFY(!recordAction()->text().contains("Stop"));
    QCOMPARE(m_window->timelineDock()->time(), 0.7);

    const int frames = int(std::lround(kSeconds * fps)) + 1;  // both ends of the trajectory
    const auto video = dyn::testing::decodeVideo(path, {0, frames - 1});
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.codec, QString("h264"));
    QVERIFY2(std::abs(video.frames - kSeconds * fps) <= 1, qPrintable(QString::number(video.frames)));
    QCOMPARE(video.frames, frames);
    // The 3D view as shown, cut to even numbers for H.264's 4:2:0 chroma.
    const QSize shown = m_window->viewport()->size() * m_window->viewport()->devicePixelRatioF();
    QCOMPARE(QSize(video.width, video.height), QSize(shown.width() & ~1, shown.height() & ~1));
    QVERIFY(std::abs(video.streamEndSeconds - double(frames) / fps) < 0.05);

    // The first frame is the start pose, the last the end pose: compared with the view rendered there.
    const auto rendered = [this, &video](double t) {
      m_window->timelineDock()->setTime(t);
      return m_window->viewport()->grabImage().copy(0, 0, video.width, video.height);
    };
    const QImage start = rendered(0.0), end = rendered(kSeconds);
    const double firstToStart = meanDifference(video.images.at(0), start),
                 firstToEnd = meanDifference(video.images.at(0), end),
                 lastToEnd = meanDifference(video.images.at(frames - 1), end);
    QVERIFY2(
        firstToStart < 3 && lastToEnd < 3 && firstToEnd > 2 * std::max(firstToStart, lastToEnd),
        qPrintable(
            QString("first-start %1, last-end %2, first-end %3").arg(firstToStart).arg(lastToEnd).arg(firstToEnd)));
  }

  void wholeWindowToGif() {
    const QString path = m_tmp.filePath("window.gif");
    QVERIFY(startFromDialog(path, RecordingSettings::Source::Timeline, RecordingSettings::Capture::Window, 5));
    QWidget* rec = controller()->indicator();
    QVERIFY(rec->isVisible());
    const QPoint pillPoint =
        rec->mapTo(m_window.get(), QPoint(rec->height() * 2 / 5, rec->height() / 2)) * m_window->devicePixelRatioF();
    QVERIFY(waitUntilFinished());
    QVERIFY2(m_errors.isEmpty(), qPrintable(m_errors.join('\n')));
    const auto video = dyn::testing::decodeVideo(path);
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.frames, int(std::lround(kSeconds * 5)) + 1);
    const QSize window = m_window->size() * m_window->devicePixelRatioF();
    QCOMPARE(QSize(video.width, video.height), window);  // a GIF keeps odd sizes
    // The REC indicator paints nothing into the frames: the lecturer's video shows the status bar.
    const QImage frame = dyn::testing::decodeVideo(path, {3}).images.at(3);
    frame.save(dyn::testing::screenshotDirectory(m_tmp) + "/recording-window-gif-frame3.png");
    const QRgb inVideo = frame.pixel(pillPoint);
    QVERIFY2(!(qRed(inVideo) > 150 && qGreen(inVideo) < 60), qPrintable(QString::number(inVideo, 16)));
  }

  void liveRecordingStopsOnCtrlR() {
    const QString path = m_tmp.filePath("live.webm");
    QVERIFY(startFromDialog(path, RecordingSettings::Source::RealTime, RecordingSettings::Capture::View3D, 10));
    QVERIFY(controller()->session()->isRecording());
    QElapsedTimer wall;
    wall.start();
    QTest::qWait(1500);
    QVERIFY(controller()->indicator()->isVisible());
    const QString text = controller()->indicator()->accessibleName();
    QVERIFY2(QRegularExpression("REC\\s+00:0[1-3]$").match(text).hasMatch(), qPrintable(text));
    QSignalSpy finished(controller()->session(), &RecordingSession::finished);
    recordAction()->trigger();  // Ctrl+R again: stop
    const double seconds = wall.elapsed() / 1000.0;
    QCOMPARE(finished.count(), 1);
    QVERIFY(finished.at(0).at(0).toBool());
    const auto video = dyn::testing::decodeVideo(path);
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.codec, QString("vp9"));
    // Ctrl+R at once again opens a new dialog (the last one may not be deleted yet).
    recordAction()->trigger();
    RecordDialog* again = controller()->dialog();
    QVERIFY(again && again->isVisible());
    // ... offering the last choices again under a new name in the same folder and format.
    const QString proposed = again->pathEdit()->text();
    QVERIFY2(proposed != path && QFileInfo(proposed).absolutePath() == QFileInfo(path).absolutePath() &&
                 proposed.endsWith(".webm"),
             qPrintable(proposed));
    QCOMPARE(again->settings().source, RecordingSettings::Source::RealTime);
    QCOMPARE(again->fpsBox()->value(), 10);
    again->reject();
    // Real time: the video lasts as long as the recording (a slow frame is repeated, never skipped).
    QVERIFY2(std::abs(video.frames / 10.0 - seconds) < 0.35,
             qPrintable(QString("%1 frames for %2 s").arg(video.frames).arg(seconds)));
  }

  void closingTheWindowKeepsTheRecording() {
    // The window's session goes with the window: a recording still running is finished, not lost.
    const QString path = m_tmp.filePath("closed.mp4");
    auto session = std::make_unique<RecordingSession>(RecordingSession::Targets{m_window.get(), m_window->viewport()});
    RecordingSettings settings;
    settings.path = path;
    settings.source = RecordingSettings::Source::RealTime;
    settings.fps = 10;
    QString error;
    QVERIFY2(session->start(settings, &error), qPrintable(error));
    QTest::qWait(500);
    session.reset();
    const auto video = dyn::testing::decodeVideo(path);
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QVERIFY(video.frames >= 3);
    QVERIFY(!QFileInfo::exists(path + ".part"));
  }

  void indicatorIsReadableInTheLectureHall_data() { dyn::testing::addLectureHallRows(true); }
  void indicatorIsReadableInTheLectureHall() {
    QFETCH(QSize, size);
    QFETCH(bool, present);
    DYNSCOPE_SKIP_UNLESS_SCREEN_HOLDS(size);
    m_window->resize(size);
    if (present) m_window->setPresentationMode(true);
    settle(300);
    const QString path = m_tmp.filePath("hall.mp4");
    QVERIFY(startFromDialog(path, RecordingSettings::Source::RealTime, RecordingSettings::Capture::View3D, 10));
    QTest::qWait(1200);
    QWidget* rec = controller()->indicator();
    QVERIFY(rec->isVisible());
    const QRect inWindow(rec->mapTo(m_window.get(), QPoint(0, 0)), rec->size());
    QVERIFY2(m_window->rect().contains(inWindow), "the REC indicator is cut off");
    QVERIFY2(rec->width() >= rec->sizeHint().width(), "the REC indicator is squeezed");
    // From the back of the hall: at least the status bar's text height.
    QVERIFY(rec->height() >= m_window->statusBar()->fontMetrics().height());
    const QImage shot = m_window->grab().toImage();
    const QString dir = dyn::testing::screenshotDirectory(m_tmp);
    shot.save(
        QString("%1/recording-%2x%3%4.png").arg(dir).arg(size.width()).arg(size.height()).arg(present ? "-F11" : ""));
    // On screen: the red pill (left of the text).
    const QRgb pill = shot.pixel(rec->mapTo(m_window.get(), QPoint(rec->height() * 2 / 5, rec->height() / 2)) *
                                 m_window->devicePixelRatioF());
    QVERIFY2(qRed(pill) > 150 && qGreen(pill) < 60, qPrintable(QString::number(pill, 16)));
    recordAction()->trigger();
    QVERIFY(!controller()->session()->isRecording());
    if (present) m_window->setPresentationMode(false);
    settle(300);
  }

  void unwritableFileIsAnError() {
    m_window->timelineDock()->setTime(1.3);
    QVERIFY(startFromDialog("/proc/dynscope-no.mp4", RecordingSettings::Source::Timeline,
                            RecordingSettings::Capture::View3D, 10));
    QVERIFY(!controller()->session()->isRecording());
    QCOMPARE(m_errors.size(), 1);
    QVERIFY2(m_errors.first().contains("cannot write /proc/dynscope-no.mp4"), qPrintable(m_errors.first()));
    QVERIFY(!QFileInfo::exists("/proc/dynscope-no.mp4"));
    QCOMPARE(m_window->timelineDock()->time(), 1.3);  // put back
  }

  void recordCommand() {
    // The trajectory as a CSV file, then `dynscope ur5.urdf --record ... --trajectory it.csv`.
    const QString csv = m_tmp.filePath("trajectory.csv");
    QVERIFY(m_window->trajectory()->exportCsv(csv));
    const QString path = m_tmp.filePath("command.mp4");
    LaunchOptions options;
    QString error;
    QVERIFY2(parseLaunchOptions({"dynscope", dyn::testing::robotFile("ur5.urdf"), "--record", path, "--trajectory", csv,
                                 "--fps", "12", "--size", "320x240", "--duration", "1.5"},
                                &options, &error),
             qPrintable(error));
    QCOMPARE(options.fps, 12);
    QCOMPARE(options.duration, 1.5);
    QCOMPARE(runRecord(options, options.model, &error), 0);
    const auto video = dyn::testing::decodeVideo(path);
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.frames, 18);  // 12 fps x 1.5 s
    QCOMPARE(QSize(video.width, video.height), QSize(320, 240));
    QVERIFY(std::abs(video.streamEndSeconds - 1.5) < 0.05);
  }

  void dynscopeRecordsFromTheCommandLine() {
    // The program itself, through main(): listed in --help, and a demonstration to a GIF.
    QProcess help;
    help.start(DYNSCOPE_GUI, {"--help"});
    QVERIFY(help.waitForFinished(30000));
    const QString text = QString::fromUtf8(help.readAllStandardOutput());
    for (const char* option : {"--record", "--trajectory", "--fps", "--duration"})
      QVERIFY2(text.contains(option), option);
    const QString path = m_tmp.filePath("stanford.gif");
    QProcess run;
    run.start(DYNSCOPE_GUI, {dyn::testing::robotFile("stanford_arm.dh"), "--record", path, "--trajectory",
                             "saha-stanford", "--fps", "5", "--size", "160x120", "--duration", "1"});
    QVERIFY(run.waitForFinished(120000));
    QVERIFY2(run.exitCode() == 0, run.readAllStandardError().constData());
    QVERIFY2(run.readAllStandardOutput().contains("5 frames"), "the summary line names the frames");
    const auto video = dyn::testing::decodeVideo(path);
    QCOMPARE(video.codec, QString("gif"));
    QCOMPARE(video.frames, 5);
    QCOMPARE(QSize(video.width, video.height), QSize(160, 120));
    // A failure: exit code 1 and the reason.
    QProcess bad;
    bad.start(DYNSCOPE_GUI, {dyn::testing::robotFile("ur5.urdf"), "--record", m_tmp.filePath("x.mp4")});
    QVERIFY(bad.waitForFinished(120000));
    QCOMPARE(bad.exitCode(), 1);
    QVERIFY(bad.readAllStandardError().contains("no trajectory"));
  }

  void recordCommandErrors() {
    LaunchOptions options;
    QString error;
    QVERIFY(!parseLaunchOptions({"dynscope", "--record", "x.mp4", "--fps", "0"}, &options, &error));
    QVERIFY(error.contains("--fps"));
    QVERIFY(!parseLaunchOptions({"dynscope", "--record", "x.mp4", "--duration", "-2"}, &options, &error));
    QVERIFY(error.contains("--duration"));
    QVERIFY(parseLaunchOptions({"dynscope", "--record", m_tmp.filePath("none.mp4")}, &options, &error));
    QCOMPARE(runRecord(options, dyn::testing::robotFile("ur5.urdf"), &error), 1);
    QVERIFY2(error.contains("no trajectory"), qPrintable(error));
    QVERIFY(parseLaunchOptions({"dynscope", "--record", m_tmp.filePath("x.avi")}, &options, &error));
    QCOMPARE(runRecord(options, dyn::testing::robotFile("ur5.urdf"), &error), 1);
    QVERIFY2(error.contains("unknown video format"), qPrintable(error));
    QVERIFY(parseLaunchOptions({"dynscope", "--record", m_tmp.filePath("y.mp4"), "--trajectory", "no-such"}, &options,
                               &error));
    QCOMPARE(runRecord(options, dyn::testing::robotFile("ur5.urdf"), &error), 1);
    QVERIFY2(error.contains("neither a demonstration"), qPrintable(error));
    QVERIFY(!QFileInfo::exists(m_tmp.filePath("none.mp4")));
  }

  // Last: pausing a run makes it the trajectory.
  void simulationTimeSource() {
    SimulationDock* sim = m_window->simulationDock();
    sim->start();
    QTRY_VERIFY_WITH_TIMEOUT(sim->runner()->snapshot().t > 0, 5000);
    const QString path = m_tmp.filePath("simulation.mp4");
    const int fps = 20;
    const double t0 = sim->runner()->snapshot().t;
    QVERIFY(startFromDialog(path, RecordingSettings::Source::SimulationTime, RecordingSettings::Capture::View3D, fps));
    QVERIFY2(m_errors.isEmpty(), qPrintable(m_errors.join('\n')));
    QVERIFY(controller()->session()->isRecording());
    QTest::qWait(1500);
    sim->pause();
    const double simulated = sim->runner()->snapshot().t - t0;
    QTest::qWait(200);
    // A paused simulation's clock stands still: no more frames.
    const int frames = controller()->session()->framesWritten();
    QTest::qWait(400);
    QCOMPARE(controller()->session()->framesWritten(), frames);
    recordAction()->trigger();
    QVERIFY(!controller()->session()->isRecording());
    const auto video = dyn::testing::decodeVideo(path);
    QVERIFY2(video.error.isEmpty(), qPrintable(video.error));
    QCOMPARE(video.frames, frames);
    // One frame per 1/fps of simulated time (the start read a moment before the recording's).
    QVERIFY2(std::abs(video.frames - (std::floor(simulated * fps) + 1)) <= 2,
             qPrintable(QString("%1 frames for %2 simulated s").arg(video.frames).arg(simulated)));
  }

  void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestRecordingWindow)
#include "test_recording_window.moc"
