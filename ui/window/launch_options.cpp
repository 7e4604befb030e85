#include "window/launch_options.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error) {
  QCommandLineParser parser;
  parser.setApplicationDescription("Dynscope: load, render and pose a robot (URDF or DH).");
  const QCommandLineOption help = parser.addHelpOption();
  const QCommandLineOption version = parser.addVersionOption();
  parser.addPositionalArgument("MODEL", "Robot file (.urdf, .xml, .dh); default: robots/ur5.urdf.", "[MODEL]");
  const QCommandLineOption screenshot("screenshot", "Render MODEL to a PNG and exit (works under Xvfb).", "out.png");
  const QCommandLineOption q("q", "Joint configuration, nq comma-separated values (rad, m).", "a,b,...");
  const QCommandLineOption size("size", "Image size for --screenshot, e.g. 1920x1080.", "WxH");
  parser.addOptions({screenshot, q, size});

  *out = LaunchOptions();
  const auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  if (!parser.parse(arguments)) return fail(parser.errorText());
  // QCommandLineParser's help names the executable from QCoreApplication::arguments(): only with an
  // application object (main() makes a QCoreApplication for --help, no display needed).
  if (QCoreApplication::instance()) out->helpText = parser.helpText();
  out->showHelp = parser.isSet(help);
  out->showVersion = parser.isSet(version);
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) return fail("expected at most one MODEL, got: " + positional.join(' '));
  if (!positional.isEmpty()) out->model = positional.first();
  out->screenshot = parser.value(screenshot);
  if (parser.isSet(screenshot) && out->screenshot.isEmpty()) return fail("--screenshot needs a file name");
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
