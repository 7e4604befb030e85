#include "window/screenshot_command.hpp"

#include <Eigen/Core>
#include <QApplication>
#include <QImage>

#include "document/robot_document.hpp"
#include "document/save_file.hpp"
#include "scene/robot_scene.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"

QString loadAndPose(MainWindow& window, const LaunchOptions& options, const QString& modelPath) {
  QString error;
  if (!window.document()->load(modelPath, &error)) return error;
  if (!options.hasQ) return {};
  const int nq = window.document()->model().nq;
  if (int(options.q.size()) != nq)
    return QString("--q: %1 has nq = %2, got %3 values").arg(modelPath).arg(nq).arg(options.q.size());
  if (!window.document()->setQ(Eigen::Map<const Eigen::VectorXd>(options.q.data(), Eigen::Index(options.q.size()))))
    return "--q: values must be finite";
  return {};
}

int runScreenshot(const LaunchOptions& options, const QString& modelPath, QString* error) {
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return 1;
  };
  // The real window, so the picture is what a user sees; its settings are left untouched.
  MainWindow window(MainWindow::Settings::Ephemeral);
  window.setErrorHandler([](const QString&, const QString&) {});  // reported through *error instead
  if (!options.size.isEmpty()) {
    // Let the viewport itself have the requested size when the screen allows it, so the camera fit
    // is computed for the final aspect ratio.
    window.resize(window.size() + options.size - window.viewport()->size());
  }
  window.show();
  if (const QString e = loadAndPose(window, options, modelPath); !e.isEmpty()) return fail(e);
  QApplication::processEvents();  // layout and first paint
  window.scene()->fitToRobot();   // frame the robot as posed (the load fitted the neutral pose)
  const QImage image = options.size.isEmpty()
                           ? window.viewport()->grabImage()
                           : window.viewport()->grabImage(options.size.width(), options.size.height());
  if (image.isNull()) return fail("rendering failed (no OpenGL context? run under Xvfb)");
  if (QString error; !savePngAtomically(options.screenshot, image, &error)) return fail(error);
  return 0;
}
