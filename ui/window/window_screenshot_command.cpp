#include "window/window_screenshot_command.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QScreen>

#include "document/robot_document.hpp"
#include "document/save_file.hpp"
#include "dynscope/trace/algorithm_trace.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/equations_dock.hpp"
#include "lecture/equations_document.hpp"
#include "lecture/lecture_document.hpp"
#include "session/workbench_session.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/screenshot_command.hpp"
#include "window/workspaces.hpp"

namespace {

// Lets posted events, timers (the layouts' second passes) and the first paints run for `ms`.
void settle(int ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) QApplication::processEvents(QEventLoop::AllEvents, 20);
}

}  // namespace

QString unknownAlgorithm(const QString& name) {
  if (dyn::findTraceableAlgorithm(name.toStdString())) return {};
  QStringList names;
  for (const dyn::TraceableAlgorithm& a : dyn::traceableAlgorithms()) names << QString::fromUtf8(a.name);
  return QString("--algorithm: unknown algorithm '%1' (known: %2)").arg(name, names.join(", "));
}

QString playDemoAt(MainWindow& window, const LaunchOptions& options) {
  if (!options.demo.isEmpty()) {
    const auto demo = dyn::demoTrajectoryByName(options.demo.toStdString());
    if (!demo)
      return QString("--demo: unknown demonstration '%1' (known: saha-stanford, saha-planar3)").arg(options.demo);
    if (QString e; !window.trajectory()->loadDemo(*demo, &e)) return "--demo: " + e;
  }
  if (window.trajectory()->hasTrajectory()) {
    const std::vector<double> times = window.trajectory()->sampleTimes();
    const double t = options.time >= 0 ? options.time : 0.5 * (times.front() + times.back());
    if (t > times.back() + 1e-12)
      return QString("--time: the trajectory ends at %1 s, asked for %2 s").arg(times.back()).arg(t);
    window.timelineDock()->setTime(t);
  }
  return {};
}

int runWindowScreenshot(const LaunchOptions& options, const QString& modelPath, QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return 1;
  };
  if (!options.workspace.isEmpty() && !workspaces::find(options.workspace))
    return fail(
        QString("--workspace: unknown workspace '%1' (known: %2)").arg(options.workspace, workspaces::idList()));
  if (!options.algorithm.isEmpty())
    if (const QString e = unknownAlgorithm(options.algorithm); !e.isEmpty()) return fail(e);
  MainWindow window(MainWindow::Settings::Ephemeral);  // the user's layout and settings stay untouched
  window.setErrorHandler([](const QString&, const QString&) {});
  const QSize size = options.size.isEmpty() ? QSize(1920, 1080) : options.size;
  window.resize(size);
  window.show();
  if (const QString e = loadAndPose(window, options, modelPath); !e.isEmpty()) return fail(e);
  if (const QString e = playDemoAt(window, options); !e.isEmpty()) return fail(e);
  // An algorithm means lecture mode; its workspace unless another was asked for.
  const QString workspace =
      !options.workspace.isEmpty() ? options.workspace : (options.algorithm.isEmpty() ? QString() : "lecture");
  if (!workspace.isEmpty()) window.setWorkspace(workspace);
  if (!options.algorithm.isEmpty()) {
    window.lectureDocument()->setAlgorithm(options.algorithm);
    window.inspectorDock()->show();
  }
  if (!options.equations.isEmpty())
    if (const QString e = window.showEquations(options.equations); !e.isEmpty()) return fail(e);
  if (options.present) {
    window.setPresentationMode(true);
    window.setGeometry(QRect(QPoint(0, 0), size));  // the "screen" of the picture
  }
  settle(600);
  LectureDocument* lecture = window.lectureDocument();
  if (!options.algorithm.isEmpty() || options.step >= 0) {
    if (!lecture->isActive() || !lecture->hasTrace())
      return fail(QString("lecture mode could not trace %1 on %2: %3")
                      .arg(lecture->algorithm(), modelPath,
                           lecture->error().isEmpty() ? QString("the inspector is not shown") : lecture->error()));
    if (options.step > lecture->stepCount())
      return fail(QString("--step: %1 has %2 steps, asked for %3")
                      .arg(lecture->algorithm())
                      .arg(lecture->stepCount())
                      .arg(options.step));
    lecture->setPosition(std::max(0, options.step));
    settle(400);
  }
  if (options.present && window.geometry() != QRect(QPoint(0, 0), size)) {
    window.setGeometry(QRect(QPoint(0, 0), size));
    settle(300);
  }
  // The equations are typeset by KaTeX in a web page, after the step is shown: wait for it (30 s:
  // Chromium starts slowly on a loaded machine).
  if (window.inspectorDock()->isVisible()) {
    QElapsedTimer typesetting;
    typesetting.start();
    while (!window.inspectorDock()->equationsRendered() && typesetting.elapsed() < 30000) settle(50);
    if (!window.inspectorDock()->equationsRendered()) return fail("the equations were not typeset within 30 s");
    settle(200);  // the page's paint
  }
  // The equations of motion: derived in their thread (the Stanford arm in about a second), then typeset.
  if (!options.equations.isEmpty()) {
    EquationsDocument* equations = window.session()->equations();
    QElapsedTimer deriving;
    deriving.start();
    while ((equations->state() == EquationsDocument::State::Empty ||
            equations->state() == EquationsDocument::State::Computing) &&
           deriving.elapsed() < 120000)
      settle(50);
    if (equations->state() == EquationsDocument::State::Computing)
      return fail("the equations took more than 2 minutes");
    QElapsedTimer typesetting;
    typesetting.start();
    while (!window.equationsDock()->isRendered() && typesetting.elapsed() < 30000) settle(50);
    if (!window.equationsDock()->isRendered()) return fail("the equations of motion were not typeset within 30 s");
    settle(200);
  }
  const QImage image = window.grab().toImage();
  if (image.isNull()) return fail("rendering failed (no OpenGL context? run under Xvfb)");
  if (QString e; !savePngAtomically(options.windowScreenshot, image, &e)) return fail(e);
  return 0;
}
