// dynscope: the Qt 6 / VTK workbench. `dynscope [MODEL] [--workspace ID] [--present]`, or headless pictures:
// `--screenshot out.png` (the 3D view) and `--window-screenshot out.png` (the whole window); a video of the
// trajectory: `--record out.mp4`; the lecture handout: `--handout out.html|out.pdf`; `dynscope --help`.
// The window answers Python scripts (dynscope.Viewer) on a local socket: `--listen PATH`, else the
// default one when no other window has it (docs/python-viewer.md).
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStringList>
#include <QSurfaceFormat>
#include <QTextStream>
#include <QTimer>

#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/lecture_document.hpp"
#include "lecture/web_engine_environment.hpp"
#include "session/script_link.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/handout_command.hpp"
#include "window/launch_options.hpp"
#include "window/main_window.hpp"
#include "window/record_command.hpp"
#include "window/screenshot_command.hpp"
#include "window/window_screenshot_command.hpp"
#include "window/workspaces.hpp"

namespace {
constexpr const char* kVersion = DYNSCOPE_VERSION;  // project(VERSION) in CMakeLists.txt

// The sample robots' folder, found at run time (no path is compiled in, so that the compiler cache
// serves every checkout): $DYNSCOPE_ROBOTS_DIR; installed, <prefix>/share/dynscope/robots beside
// <prefix>/bin; in a build tree, the checkout's robots/ named by the dynscope-robots-dir file CMake
// writes next to the program (app/CMakeLists.txt), else the first robots/ur5.urdf found walking up
// from the program's folder. Nothing found: the installed place, so that messages name it.
QString robotsDirectory() {
  const QString variable = qEnvironmentVariable("DYNSCOPE_ROBOTS_DIR");
  if (!variable.isEmpty()) return variable;
  const QDir exe(QCoreApplication::applicationDirPath());
  const QString installed = QDir::cleanPath(exe.filePath("../share/dynscope/robots"));
  if (QFileInfo(installed).isDir()) return installed;
  QFile pointer(exe.filePath("dynscope-robots-dir"));
  if (pointer.open(QIODevice::ReadOnly | QIODevice::Text)) {
    const QString source = QString::fromUtf8(pointer.readAll()).trimmed();
    if (!source.isEmpty() && QFileInfo(source).isDir()) return source;
  }
  for (QDir dir = exe;;) {
    if (QFileInfo::exists(dir.filePath("robots/ur5.urdf"))) return dir.filePath("robots");
    if (!dir.cdUp()) break;
  }
  return installed;
}
}  // namespace

int main(int argc, char** argv) {
  // The command line first, without a display: --help, --version and usage errors must work on a
  // server or in a script, where QApplication would stop at "could not connect to display". They
  // are answered with QtCore alone, before any QApplication exists.
  QStringList arguments;
  for (int k = 0; k < argc; ++k) arguments << QString::fromLocal8Bit(argv[k]);
  LaunchOptions options;
  QString error;
  QTextStream err(stderr);
  if (!parseLaunchOptions(arguments, &options, &error) || options.showHelp || options.showVersion) {
    QCoreApplication core(argc, argv);
    QCoreApplication::setApplicationName("dynscope");
    QCoreApplication::setApplicationVersion(kVersion);
    if (!parseLaunchOptions(QCoreApplication::arguments(), &options, &error)) {
      err << "dynscope: " << error << "\n";
      return 1;
    }
    if (options.showHelp)
      QTextStream(stdout) << options.helpText;
    else
      QTextStream(stdout) << "dynscope " << kVersion << "\n";
    return 0;
  }

  // VTK's OpenGL2 backend needs a 3.2 core context; request it before any GL widget exists.
  QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat());
  // The lecture mode's equations (Qt WebEngine): shared GL contexts and Chromium's flags, before
  // the application exists (lecture/web_engine_environment.hpp).
  web_engine::prepareApplication();
  QApplication app(argc, argv);
  QApplication::setOrganizationName("Dynscope");
  QApplication::setApplicationName("dynscope");
  QApplication::setApplicationVersion(kVersion);

  const QString robotsDir = robotsDirectory();
  const QString model = options.model.isEmpty() ? QDir(robotsDir).filePath("ur5.urdf") : options.model;

  if (!options.screenshot.isEmpty() || !options.windowScreenshot.isEmpty()) {
    const int code = options.screenshot.isEmpty() ? runWindowScreenshot(options, model, &error)
                                                  : runScreenshot(options, model, &error);
    if (code != 0) err << "dynscope: " << error << "\n";
    return code;
  }
  if (!options.handout.isEmpty()) {  // the lecture handout to a file, without a window on screen
    const int code = runHandout(options, model, &error);
    if (code != 0) err << "dynscope: " << error << "\n";
    return code;
  }
  if (!options.record.isEmpty()) {  // the trajectory's timeline to a video, offscreen
    const int code = runRecord(options, model, &error);
    if (code != 0) err << "dynscope: " << error << "\n";
    return code;
  }
  if (!options.workspace.isEmpty() && !workspaces::find(options.workspace)) {
    err << "dynscope: --workspace: unknown workspace '" << options.workspace << "' (known: " << workspaces::idList()
        << ")\n";
    return 1;
  }

  MainWindow window;
  window.setDefaultDirectory(robotsDir);
  // Autosave every minute; work left by a session that crashed is offered back first.
  window.enableRecovery(QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath("autosave"));
  if (!options.workspace.isEmpty()) window.setWorkspace(options.workspace);
  if (!options.algorithm.isEmpty()) {  // lecture mode on that algorithm (an unknown name keeps the default)
    window.lectureDocument()->setAlgorithm(options.algorithm);
    if (options.workspace.isEmpty()) window.setWorkspace("lecture");
    window.inspectorDock()->show();
  }
  if (!options.equations.isEmpty()) window.showEquations(options.equations);
  // Python scripts: --listen's socket (a Viewer started this window and waits on it), else the
  // default one, which the first window takes and the others leave to it.
  ScriptLink link(window.session());
  window.connectScriptLink(&link);
  if (!options.listen.isEmpty()) {
    if (!link.listen(options.listen, &error)) {
      err << "dynscope: --listen: " << error << "\n";
      return 1;
    }
  } else {
    link.listen(ScriptLink::defaultSocketPath());  // taken: scripts reach the window that has it
  }
  // Scripts see the window close at once (their next call raises), not when the process is gone.
  QObject::connect(&app, &QGuiApplication::lastWindowClosed, &link, &ScriptLink::stop);
  window.show();
  QTimer::singleShot(0, &window, [&window, model, options] {
    // A window a script started does not offer to restore a crashed session (a modal question in
    // the script's way); the next window the user opens does.
    if (!options.listen.isEmpty() || !window.offerRestore()) window.openFile(model);
    if (options.present) window.setPresentationMode(true);
  });
  return app.exec();
}
