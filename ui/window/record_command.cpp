#include "window/record_command.hpp"

#include <QApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QTextStream>

#include "dynscope/trajectory/demo_trajectories.hpp"
#include "recording/recording_session.hpp"
#include "scene/robot_scene.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/screenshot_command.hpp"

namespace {
constexpr QSize kDefaultSize(1280, 720);  // 720p: sharp on a projector, small enough to mail
}

int runRecord(const LaunchOptions& options, const QString& modelPath, QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return 1;
  };
  if (!VideoEncoder::formatForPath(options.record))
    return fail(
        QString("--record: %1: unknown video format (use %2)").arg(options.record, VideoEncoder::extensionsText()));
  MainWindow window(MainWindow::Settings::Ephemeral);  // the user's layout and settings stay untouched
  window.setErrorHandler([](const QString&, const QString&) {});
  window.show();
  if (const QString e = loadAndPose(window, options, modelPath); !e.isEmpty()) return fail(e);
  // --trajectory takes a demonstration's name or a CSV file; --demo a name (as for screenshots).
  const QString wanted = options.trajectory.isEmpty() ? options.demo : options.trajectory;
  const QString option = options.trajectory.isEmpty() ? "--demo" : "--trajectory";
  if (!wanted.isEmpty()) {
    QString e;
    if (const auto demo = dyn::demoTrajectoryByName(wanted.toStdString())) {
      if (!window.trajectory()->loadDemo(*demo, &e)) return fail(option + ": " + e);
    } else if (QFileInfo(wanted).isFile() && option == "--trajectory") {
      if (!window.trajectory()->importCsv(wanted, &e)) return fail("--trajectory: " + e);
    } else {
      return fail(QString("%1: '%2' is neither a demonstration (saha-stanford, saha-planar3) nor a CSV file")
                      .arg(option, wanted));
    }
  }
  if (!window.trajectory()->hasTrajectory())
    return fail(QString("%1 has no trajectory to record: give --trajectory NAME|FILE.csv (or a project file)")
                    .arg(QFileInfo(modelPath).fileName()));
  QApplication::processEvents();  // layout and first paint
  window.scene()->fitToRobot();

  RecordingSession session({&window, window.viewport(), [&window] { return window.timelineDock(); }, {}});
  RecordingSettings settings;
  settings.path = options.record;
  settings.source = RecordingSettings::Source::Timeline;
  settings.capture = RecordingSettings::Capture::View3D;
  settings.fps = options.fps;
  settings.size = options.size.isEmpty() ? kDefaultSize : options.size;
  settings.duration = options.duration;
  bool ok = false, ended = false;
  QString message;
  QEventLoop loop;
  QObject::connect(&session, &RecordingSession::finished, &loop, [&](bool done, const QString&, const QString& m) {
    ok = done;
    ended = true;
    message = m;
    loop.quit();
  });
  if (QString e; !session.start(settings, &e)) return fail(e);
  if (!ended) loop.exec();  // (a one-frame video is finished inside start())
  if (!ok) return fail(message);
  QTextStream(stdout) << QString("dynscope: wrote %1 (%2 frames at %3 fps, %4 x %5, %6 s, %7)\n")
                             .arg(options.record)
                             .arg(session.framesWritten())
                             .arg(settings.fps)
                             .arg(session.frameSize().width())
                             .arg(session.frameSize().height())
                             .arg(session.recordedSeconds(), 0, 'f', 2)
                             .arg(session.codecName());
  return 0;
}
