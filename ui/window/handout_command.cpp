#include "window/handout_command.hpp"

#include <QApplication>
#include <QElapsedTimer>

#include "lecture/equations_document.hpp"
#include "lecture/lecture_document.hpp"
#include "session/workbench_session.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/screenshot_command.hpp"
#include "window/window_screenshot_command.hpp"

int runHandout(const LaunchOptions& options, const QString& modelPath, QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return 1;
  };
  const QString algorithm = options.algorithm.isEmpty() ? QStringLiteral("rnea") : options.algorithm;
  if (const QString e = unknownAlgorithm(algorithm); !e.isEmpty()) return fail(e);
  MainWindow window(MainWindow::Settings::Ephemeral);  // the user's layout and settings stay untouched
  QString reported;
  window.setErrorHandler([&reported](const QString&, const QString& message) { reported = message; });
  window.resize(1600, 1000);
  window.show();
  if (const QString e = loadAndPose(window, options, modelPath); !e.isEmpty()) return fail(e);
  if (const QString e = playDemoAt(window, options); !e.isEmpty()) return fail(e);
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
  // --equations: the handout ends with the robot's equations of motion (derived here, in their thread).
  if (!options.equations.isEmpty()) {
    EquationsDocument* equations = window.session()->equations();
    equations->compute();
    t.restart();
    while (equations->state() == EquationsDocument::State::Computing && t.elapsed() < 300000)
      QApplication::processEvents(QEventLoop::AllEvents, 50);
    if (equations->state() != EquationsDocument::State::Ready)
      return fail(QString("the equations of motion of %1: %2")
                      .arg(modelPath, equations->message().isEmpty() ? QString("not derived") : equations->message()));
  }
  const QSize pictures = options.size.isEmpty() ? QSize(960, 640) : options.size;
  if (!window.exportHandout(options.handout, pictures))
    return fail(reported.isEmpty() ? QString("the handout was not written") : reported);
  return 0;
}
