#include "window/launch_options.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error) {
  QCommandLineParser parser;
  parser.setApplicationDescription("Dynscope: load, render and pose a robot (URDF, MuJoCo MJCF or DH).");
  const QCommandLineOption help = parser.addHelpOption();
  const QCommandLineOption version = parser.addVersionOption();
  parser.addPositionalArgument("MODEL", "Robot file (.urdf, .xml, .dh); default: robots/ur5.urdf.", "[MODEL]");
  const QCommandLineOption screenshot("screenshot", "Render MODEL to a PNG and exit (works under Xvfb).", "out.png");
  const QCommandLineOption q("q", "Joint configuration, nq comma-separated values (rad, m).", "a,b,...");
  const QCommandLineOption size(
      "size", "Image size for --screenshot and --record, window size for --window-screenshot, e.g. 1920x1080.", "WxH");
  const QCommandLineOption windowShot(
      "window-screenshot", "Render the whole window (docks, equations, plots) to a PNG and exit (Xvfb).", "out.png");
  const QCommandLineOption workspace(
      "workspace", "Open in a workspace: explore, trajectory, simulate, massmatrix or lecture.", "ID");
  const QCommandLineOption algorithm(
      "algorithm",
      "Lecture mode: step through this algorithm (rnea, crba, aba, denoc-id, ...; see dynscope-cli trace).", "NAME");
  const QCommandLineOption step("step", "Lecture mode: show the algorithm after N steps (default: its start).", "N");
  const QCommandLineOption present("present", "Presentation mode (F11): full screen, larger fonts.");
  const QCommandLineOption demo(
      "demo", "--window-screenshot: play a built-in demonstration (saha-stanford, saha-planar3).", "NAME");
  const QCommandLineOption time("time", "--window-screenshot: the trajectory's time shown, s (default: its middle).",
                                "T");
  const QCommandLineOption record(
      "record", "Render the trajectory's timeline to a video (.mp4 H.264, .webm VP9, .gif) and exit (Xvfb).",
      "out.mp4");
  const QCommandLineOption trajectory(
      "trajectory", "The trajectory to load: a demonstration's name (as --demo) or a CSV file (t, q columns).",
      "NAME|FILE");
  const QCommandLineOption fps("fps", "--record: frames per second (default 30); frame k shows time k/fps.", "N");
  const QCommandLineOption duration("duration",
                                    "--record: seconds of video (default: the whole trajectory, start to end).", "S");
  const QCommandLineOption handout(
      "handout",
      "Write the lecture handout of --algorithm (default rnea) on MODEL, every step with its equations, numbers and "
      "a picture (--size: the pictures'), to an HTML page or a PDF, and exit (Xvfb).",
      "out.html|out.pdf");
  const QCommandLineOption equations(
      "equations",
      "Lecture mode: the robot's equations of motion in closed form, showing PART: all, M, c (the Coriolis and "
      "centrifugal terms), g, tau, christoffel or symbols. With --handout: the handout ends with them.",
      "PART");
  const QCommandLineOption listen(
      "listen",
      "Answer Python scripts (dynscope.Viewer) on this local socket; it must not be taken by another window. "
      "Without it the window takes the default socket when it is free.",
      "PATH");
  parser.addOptions({screenshot, q, size, windowShot, workspace, algorithm, step, present, demo, time, record,
                     trajectory, fps, duration, handout, equations, listen});

  *out = LaunchOptions();
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  if (!parser.parse(arguments)) return fail(parser.errorText());
  // QCommandLineParser's help names the executable from QCoreApplication::arguments(): only with an
  // application object (main() makes a QCoreApplication for --help, no display needed).
  if (QCoreApplication::instance()) out->helpText = parser.helpText();
  out->showHelp = parser.isSet(help) || parser.isSet("help-all");  // Qt 6 lists --help-all with --help
  out->showVersion = parser.isSet(version);
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) return fail("expected at most one MODEL, got: " + positional.join(' '));
  if (!positional.isEmpty()) out->model = positional.first();
  out->screenshot = parser.value(screenshot);
  if (parser.isSet(screenshot) && out->screenshot.isEmpty()) return fail("--screenshot needs a file name");
  out->windowScreenshot = parser.value(windowShot);
  if (parser.isSet(windowShot) && out->windowScreenshot.isEmpty()) return fail("--window-screenshot needs a file name");
  if (parser.isSet(screenshot) && parser.isSet(windowShot))
    return fail("--screenshot (the 3D view) and --window-screenshot (the window) exclude each other");
  out->record = parser.value(record);
  if (parser.isSet(record) && out->record.isEmpty()) return fail("--record needs a file name");
  if (parser.isSet(record) && (parser.isSet(screenshot) || parser.isSet(windowShot)))
    return fail("--record and the screenshot options exclude each other");
  out->handout = parser.value(handout);
  if (parser.isSet(handout)) {
    if (out->handout.isEmpty()) return fail("--handout needs a file name");
    const QString lower = out->handout.toLower();
    if (!lower.endsWith(".html") && !lower.endsWith(".htm") && !lower.endsWith(".pdf"))
      return fail("--handout: the file must end in .html or .pdf, got '" + out->handout + "'");
    if (parser.isSet(screenshot) || parser.isSet(windowShot) || parser.isSet(record))
      return fail("--handout and the screenshot or --record options exclude each other");
  }
  out->listen = parser.value(listen);
  if (parser.isSet(listen) && out->listen.isEmpty()) return fail("--listen needs a socket path");
  if (parser.isSet(listen) &&
      (parser.isSet(screenshot) || parser.isSet(windowShot) || parser.isSet(record) || parser.isSet(handout)))
    return fail("--listen is for the window on screen, not with the screenshot, --record or --handout options");
  out->trajectory = parser.value(trajectory);
  if (parser.isSet(fps)) {
    bool ok = false;
    out->fps = parser.value(fps).toInt(&ok);
    if (!ok || out->fps < 1 || out->fps > 120)
      return fail("--fps: expected 1 to 120 frames per second, got '" + parser.value(fps) + "'");
  }
  if (parser.isSet(duration)) {
    bool ok = false;
    out->duration = parser.value(duration).toDouble(&ok);
    if (!ok || !(out->duration > 0) || out->duration > 3600)
      return fail("--duration: expected seconds > 0 (at most 3600), got '" + parser.value(duration) + "'");
  }
  out->equations = parser.value(equations);
  if (parser.isSet(equations) &&
      !QStringList{"all", "M", "c", "g", "tau", "christoffel", "symbols"}.contains(out->equations))
    return fail("--equations: expected all, M, c, g, tau, christoffel or symbols, got '" + out->equations + "'");
  out->workspace = parser.value(workspace);
  out->algorithm = parser.value(algorithm);
  out->present = parser.isSet(present);
  out->demo = parser.value(demo);
  if (parser.isSet(time)) {
    bool ok = false;
    out->time = parser.value(time).toDouble(&ok);
    if (!ok || out->time < 0) return fail("--time: expected a time >= 0 in seconds, got '" + parser.value(time) + "'");
  }
  if (parser.isSet(step)) {
    bool ok = false;
    out->step = parser.value(step).toInt(&ok);
    if (!ok || out->step < 0) return fail("--step: expected a number of steps >= 0, got '" + parser.value(step) + "'");
  }
  if (parser.isSet(q)) {
    out->hasQ = true;
    const QString text = parser.value(q).trimmed();
    for (const QString& part : text.split(',', Qt::SkipEmptyParts)) {
      bool ok = false;
      const double v = part.trimmed().toDouble(&ok);
      if (!ok) return fail("--q: '" + part.trimmed() + "' is not a number");
      out->q.push_back(v);
    }
  }
  if (parser.isSet(size)) {
    const QRegularExpressionMatch m =
        QRegularExpression("^\\s*(\\d+)\\s*[xX×]\\s*(\\d+)\\s*$").match(parser.value(size));
    const int w = m.hasMatch() ? m.captured(1).toInt() : 0, h = m.hasMatch() ? m.captured(2).toInt() : 0;
    if (w < 16 || h < 16 || w > 16384 || h > 16384)
      return fail("--size: expected WxH such as 1280x720, got '" + parser.value(size) + "'");
    out->size = QSize(w, h);
  }
  return true;
}
