// dynscope: the Qt 6 / VTK workbench. `dynscope [MODEL] [--screenshot out.png] [--q a,b,...] [--size WxH]`.
#include <QApplication>
#include <QDir>
#include <QSurfaceFormat>
#include <QTextStream>

#include "viewport/vtk_viewport.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/screenshot_command.hpp"

#ifndef DYNSCOPE_ROBOTS_DIR
#define DYNSCOPE_ROBOTS_DIR "robots"
#endif

int main(int argc, char** argv) {
  // VTK's OpenGL2 backend needs a 3.2 core context; request it before any GL widget exists.
  QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat());

  QApplication app(argc, argv);
  QApplication::setOrganizationName("Dynscope");
  QApplication::setApplicationName("dynscope");
  QApplication::setApplicationVersion("0.1.0");

  LaunchOptions options;
  QString error;
  QTextStream err(stderr);
  if (!parseLaunchOptions(QApplication::arguments(), &options, &error)) {
    err << "dynscope: " << error << "\n";
    return 1;
  }
  if (options.showHelp) {
    QTextStream(stdout) << options.helpText;
    return 0;
  }
  if (options.showVersion) {
    QTextStream(stdout) << "dynscope " << QApplication::applicationVersion() << "\n";
    return 0;
  }
  const QString robotsDir = QStringLiteral(DYNSCOPE_ROBOTS_DIR);
  const QString model = options.model.isEmpty() ? QDir(robotsDir).filePath("ur5.urdf") : options.model;

  if (!options.screenshot.isEmpty()) {
    const int code = runScreenshot(options, model, &error);
    if (code != 0) err << "dynscope: " << error << "\n";
    return code;
  }

  MainWindow window;
  window.setDefaultDirectory(robotsDir);
  window.show();
  window.openFile(model);
  return app.exec();
}
