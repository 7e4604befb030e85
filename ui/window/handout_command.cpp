#include "window/handout_command.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include "dynscope/trace/algorithm_trace.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "lecture/lecture_document.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/screenshot_command.hpp"

int runHandout(const LaunchOptions& options, const QString& modelPath, QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return 1;
  };
  const QString algorithm = options.algorithm.isEmpty() ? QStringLiteral("rnea") : options.algorithm;
  if (!dyn::findTraceableAlgorithm(algorithm.toStdString())) {
    QStringList names;
    for (const dyn::TraceableAlgorithm& a : dyn::traceableAlgorithms()) names << QString::fromUtf8(a.name);
    return fail(QString("--algorithm: unknown algorithm '%1' (known: %2)").arg(algorithm, names.join(", ")));
  }
  MainWindow window(MainWindow::Settings::Ephemeral);  // the user's layout and settings stay untouched
  QString reported;
  window.setErrorHandler([&reported](const QString&, const QString& message) { reported = message; });
  window.resize(1600, 1000);
  window.show();
  if (const QString e = loadAndPose(window, options, modelPath); !e.isEmpty()) return fail(e);
  if (!options.demo.isEmpty()) {
    const auto demo = dyn::demoTrajectoryByName(options.demo.toStdString());
    if (!demo)
      return fail(QString("--demo: unknown demonstration '%1' (known: saha-stanford, saha-planar3)").arg(options.demo));
    if (QString e; !window.trajectory()->loadDemo(*demo, &e)) return fail("--demo: " + e);
  }
  if (window.trajectory()->hasTrajectory()) {
    const std::vector<double> times = window.trajectory()->sampleTimes();
    window.timelineDock()->setTime(options.time >= 0 ? options.time : 0.5 * (times.front() + times.back()));
  }
  window.setWorkspace("lecture");
  window.lectureDocument()->setAlgorithm(algorithm);
  window.inspectorDock()->show();
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < 400) QApplication::processEvents(QEventLoop::AllEvents, 20);
  LectureDocument* lecture = window.lectureDocument();
  if (!lecture->isActive() || !lecture->hasTrace())
    return fail(QString("lecture mode could not trace %1 on %2: %3")
                    .arg(algorithm, modelPath, lecture->error().isEmpty() ? QString("no trace") : lecture->error()));
  const QSize pictures = options.size.isEmpty() ? QSize(960, 640) : options.size;
  if (!window.exportHandout(options.handout, pictures))
    return fail(reported.isEmpty() ? QString("the handout was not written") : reported);
  return 0;
}
