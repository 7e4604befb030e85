#include "project/project_file.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "dynscope/trajectory/demo_trajectories.hpp"
#include "project/json_lines.hpp"

namespace dyn {
namespace {

constexpr const char* kFormat = "dynscope-project";

QString join(const QString& path, const QString& key) { return path.isEmpty() ? key : path + "." + key; }

// Reads values with their key paths, so every error can name the file, the line and the key.
class Reader {
 public:
  Reader(const QByteArray& text, const QString& file)
      : file_(file), lines_(jsonValueLines(text)), dir_(QFileInfo(file).absoluteDir()) {}

  [[noreturn]] void fail(const QString& key, const QString& message) const {
    const int line = lineOf(lines_, key);
    QString where = file_;
    if (line > 0) where += ":" + QString::number(line);
    throw ProjectError((where + ": " + (key.isEmpty() ? QString() : key + ": ") + message).toStdString());
  }
  int line(const QString& key) const { return lineOf(lines_, key); }

  void allowOnly(const QJsonObject& o, const QString& path, std::initializer_list<const char*> keys) const {
    for (auto it = o.begin(); it != o.end(); ++it) {
      bool known = false;
      for (const char* k : keys) known = known || it.key() == k;
      if (!known) {
        QStringList names;
        for (const char* k : keys) names << k;
        fail(join(path, it.key()), "unknown key (expected one of: " + names.join(", ") + ")");
      }
    }
  }
  QJsonValue required(const QJsonObject& o, const QString& path, const char* key) const {
    if (!o.contains(key)) fail(path, QString("missing key '%1'").arg(key));
    return o.value(key);
  }
  QJsonObject object(const QJsonValue& v, const QString& key) const {
    if (!v.isObject()) fail(key, "expected an object");
    return v.toObject();
  }
  QJsonArray array(const QJsonValue& v, const QString& key) const {
    if (!v.isArray()) fail(key, "expected an array");
    return v.toArray();
  }
  double number(const QJsonValue& v, const QString& key) const {
    if (!v.isDouble() || !std::isfinite(v.toDouble())) fail(key, "expected a finite number");
    return v.toDouble();
  }
  QString string(const QJsonValue& v, const QString& key) const {
    if (!v.isString() || v.toString().isEmpty()) fail(key, "expected a non-empty string");
    return v.toString();
  }
  bool boolean(const QJsonValue& v, const QString& key) const {
    if (!v.isBool()) fail(key, "expected true or false");
    return v.toBool();
  }
  Eigen::Vector3d vector3(const QJsonValue& v, const QString& key) const {
    const QJsonArray a = array(v, key);
    if (a.size() != 3) fail(key, QString("expected 3 numbers [x, y, z], got %1").arg(a.size()));
    Eigen::Vector3d x;
    for (int i = 0; i < 3; ++i) x[i] = number(a[i], key + "[" + QString::number(i) + "]");
    return x;
  }
  // A path relative to the project file's directory (or absolute), made absolute and clean. A file
  // name starting with ':' is a file here, not one of Qt's resources (which QDir takes it for).
  std::string resolve(const QString& relative, const QString& key) const {
    if (relative.contains(QChar(0))) fail(key, "a file path cannot contain a NUL character");
    const QString local = relative.startsWith(':') ? "./" + relative : relative;
    return QDir::cleanPath(dir_.absoluteFilePath(local)).toStdString();
  }

 private:
  QString file_;
  std::map<QString, int> lines_;
  QDir dir_;
};

ProjectWaypoint readWaypoint(const Reader& r, const QJsonValue& value, const QString& key) {
  const QJsonObject o = r.object(value, key);
  r.allowOnly(o, key, {"t", "q"});
  ProjectWaypoint w;
  w.line = r.line(key);
  w.t = r.number(r.required(o, key, "t"), key + ".t");
  const QString qKey = key + ".q";
  const QJsonObject q = r.object(r.required(o, key, "q"), qKey);
  for (auto it = q.begin(); it != q.end(); ++it) {
    const QString jointKey = join(qKey, it.key());
    std::vector<double> values;
    if (it.value().isArray()) {
      const QJsonArray a = it.value().toArray();
      if (a.isEmpty()) r.fail(jointKey, "expected the joint's q entries, got an empty array");
      for (int i = 0; i < a.size(); ++i) values.push_back(r.number(a[i], jointKey + "[" + QString::number(i) + "]"));
    } else {
      values.push_back(r.number(it.value(), jointKey));
    }
    w.joints[it.key().toStdString()] = values;
  }
  return w;
}

ProjectTrajectory readTrajectory(const Reader& r, const QJsonValue& value) {
  const QString key = "trajectory";
  const QJsonObject o = r.object(value, key);
  ProjectTrajectory t;
  const QString source = r.string(r.required(o, key, "source"), "trajectory.source");
  auto rate = [&] {
    if (!o.contains("sample_rate")) return t.sampleRate;
    const double hz = r.number(o["sample_rate"], "trajectory.sample_rate");
    if (!(hz > 0)) r.fail("trajectory.sample_rate", "must be positive (samples per second)");
    return hz;
  };
  if (source == "none") {
    r.allowOnly(o, key, {"source"});
  } else if (source == "waypoints") {
    r.allowOnly(o, key, {"source", "interpolation", "sample_rate", "trapezoid_fraction", "waypoints"});
    t.source = TrajectorySource::Waypoints;
    if (o.contains("interpolation")) {
      const QString name = r.string(o["interpolation"], "trajectory.interpolation");
      const auto kind = interpolationByName(name.toStdString());
      if (!kind) r.fail("trajectory.interpolation", "'" + name + "' is not quintic, trapezoidal or cubic-spline");
      t.interpolation = *kind;
    }
    t.sampleRate = rate();
    if (o.contains("trapezoid_fraction")) {
      t.trapezoidFraction = r.number(o["trapezoid_fraction"], "trajectory.trapezoid_fraction");
      if (!(t.trapezoidFraction > 0 && t.trapezoidFraction <= 0.5))
        r.fail("trajectory.trapezoid_fraction", "must be in (0, 0.5]");
    }
    const QJsonArray points = r.array(r.required(o, key, "waypoints"), "trajectory.waypoints");
    for (int i = 0; i < points.size(); ++i)
      t.waypoints.push_back(readWaypoint(r, points[i], "trajectory.waypoints[" + QString::number(i) + "]"));
  } else if (source == "csv") {
    r.allowOnly(o, key, {"source", "path"});
    t.source = TrajectorySource::Csv;
    t.csvPath = r.resolve(r.string(r.required(o, key, "path"), "trajectory.path"), "trajectory.path");
  } else if (source == "demo") {
    r.allowOnly(o, key, {"source", "demo", "sample_rate"});
    t.source = TrajectorySource::Demo;
    const QString demo = r.string(r.required(o, key, "demo"), "trajectory.demo");
    if (!demoTrajectoryByName(demo.toStdString()))
      r.fail("trajectory.demo", "'" + demo + "' is not a demo (saha-stanford, saha-planar3)");
    t.demo = demo.toStdString();
    t.sampleRate = rate();
  } else {
    r.fail("trajectory.source", "'" + source + "' is not waypoints, csv, demo or none");
  }
  return t;
}

QJsonArray toArray(const Eigen::Vector3d& v) { return QJsonArray{v.x(), v.y(), v.z()}; }

}  // namespace

const char* trajectorySourceName(TrajectorySource source) {
  switch (source) {
    case TrajectorySource::None:
      return "none";
    case TrajectorySource::Waypoints:
      return "waypoints";
    case TrajectorySource::Csv:
      return "csv";
    case TrajectorySource::Demo:
      return "demo";
  }
  return "?";
}

ProjectFile parseProject(const QByteArray& json, const QString& path) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
  if (error.error != QJsonParseError::NoError)
    throw ProjectError(
        (path + ":" + QString::number(lineAtOffset(json, error.offset)) + ": not valid JSON: " + error.errorString())
            .toStdString());
  const Reader r(json, path);
  if (!doc.isObject()) r.fail("", "expected a JSON object at the top level");
  const QJsonObject root = doc.object();
  if (root.value("format").toString() != kFormat)
    r.fail("format",
           QString("missing or wrong \"format\": this is not a Dynscope project (expected \"%1\")").arg(kFormat));
  const QJsonValue version = r.required(root, "", "version");
  if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble()) || version.toDouble() < 1)
    r.fail("version", "expected a whole number >= 1");
  if (version.toInt() > kProjectVersion)
    r.fail("version", QString("version %1 was written by a newer Dynscope; this one reads version %2")
                          .arg(version.toInt())
                          .arg(kProjectVersion));
  r.allowOnly(root, "", {"format", "version", "robot", "gravity", "payload", "wrench", "trajectory", "view"});

  ProjectFile p;
  p.file = path.toStdString();
  const QJsonObject robot = r.object(r.required(root, "", "robot"), "robot");
  r.allowOnly(robot, "robot", {"path", "floating_base", "fixups", "edits", "dh_table"});
  if (robot.contains("dh_table")) p.dhTable = r.string(robot["dh_table"], "robot.dh_table").toStdString();
  p.robotPath = r.resolve(r.string(r.required(robot, "robot", "path"), "robot.path"), "robot.path");
  if (robot.contains("floating_base")) p.floatingBase = r.boolean(robot["floating_base"], "robot.floating_base");
  if (robot.contains("fixups")) {
    const QJsonArray fixups = r.array(robot["fixups"], "robot.fixups");
    for (int i = 0; i < fixups.size(); ++i) {
      const QString key = "robot.fixups[" + QString::number(i) + "]";
      const QString name = r.string(fixups[i], key);
      const std::optional<Fixup> fixup = fixupByName(name.toStdString());
      if (!fixup) {
        QStringList known;
        for (Fixup f : kAllFixups) known << fixupName(f);
        r.fail(key, "'" + name + "' is not a fix-up (" + known.join(", ") + ")");
      }
      if (std::find(p.fixups.begin(), p.fixups.end(), *fixup) != p.fixups.end()) r.fail(key, "given twice");
      p.fixups.push_back(*fixup);
    }
  }
  if (robot.contains("edits")) {
    const QJsonArray edits = r.array(robot["edits"], "robot.edits");
    for (int i = 0; i < edits.size(); ++i) {
      const QString key = "robot.edits[" + QString::number(i) + "]";
      const QJsonObject o = r.object(edits[i], key);
      RobotEdit e;
      e.joint = o.contains("joint");
      if (e.joint == o.contains("link")) r.fail(key, "expected one of \"link\" or \"joint\"");
      r.allowOnly(o, key, {e.joint ? "joint" : "link", "field", "values"});
      e.element = r.string(o[e.joint ? "joint" : "link"], key + (e.joint ? ".joint" : ".link")).toStdString();
      const QString field = r.string(r.required(o, key, "field"), key + ".field");
      const std::optional<EditField> f = editFieldByName(field.toStdString());
      if (!f || isJointField(*f) != e.joint)
        r.fail(key + ".field", "'" + field + "' is not a field of a " + (e.joint ? "joint" : "link"));
      e.field = *f;
      const QJsonArray values = r.array(r.required(o, key, "values"), key + ".values");
      if (values.size() != editFieldSize(e.field))
        r.fail(key + ".values", QString("expected %1 numbers").arg(editFieldSize(e.field)));
      for (int k = 0; k < values.size(); ++k)  // null: infinite (no limit), the lower one negative
        e.values.push_back(values[k].isNull() ? (k == 0 ? -1.0 : 1.0) * std::numeric_limits<double>::infinity()
                                              : r.number(values[k], key + ".values[" + QString::number(k) + "]"));
      p.edits.push_back(std::move(e));
    }
  }
  if (root.contains("gravity")) p.gravity = r.vector3(root["gravity"], "gravity");
  if (root.contains("payload")) {
    const QJsonObject o = r.object(root["payload"], "payload");
    r.allowOnly(o, "payload", {"link", "mass", "com"});
    Payload pl;
    pl.link = r.string(r.required(o, "payload", "link"), "payload.link").toStdString();
    pl.mass = r.number(r.required(o, "payload", "mass"), "payload.mass");
    if (pl.mass < 0) r.fail("payload.mass", "must not be negative");
    if (o.contains("com")) pl.com = r.vector3(o["com"], "payload.com");
    p.payload = pl;
  }
  if (root.contains("wrench")) {
    const QJsonObject o = r.object(root["wrench"], "wrench");
    r.allowOnly(o, "wrench", {"link", "force", "moment", "point"});
    LinkWrench w;
    w.link = r.string(r.required(o, "wrench", "link"), "wrench.link").toStdString();
    if (o.contains("force")) w.force = r.vector3(o["force"], "wrench.force");
    if (o.contains("moment")) w.moment = r.vector3(o["moment"], "wrench.moment");
    if (o.contains("point")) w.point = r.vector3(o["point"], "wrench.point");
    p.wrench = w;
  }
  if (root.contains("trajectory")) p.trajectory = readTrajectory(r, root["trajectory"]);
  if (root.contains("view")) p.view = r.object(root["view"], "view");
  return p;
}

QByteArray serializeProject(const ProjectFile& p, const QString& path, StoredPaths paths) {
  const QDir dir = QFileInfo(path).absoluteDir();
  auto relative = [&](const std::string& file) {
    const QString absolute = QFileInfo(QString::fromStdString(file)).absoluteFilePath();
    return paths == StoredPaths::Absolute ? absolute : dir.relativeFilePath(absolute);
  };
  if (p.robotPath.empty())
    throw ProjectError(
        path.toStdString() +
        ": the robot has no file yet (a new DH table): save it first (File > Save robot as), then the project");
  QJsonObject root;
  root["format"] = kFormat;
  root["version"] = kProjectVersion;
  QJsonObject robot{{"path", relative(p.robotPath)}, {"floating_base", p.floatingBase}};
  if (!p.fixups.empty()) {
    QJsonArray fixups;
    for (Fixup f : p.fixups) fixups.append(fixupName(f));
    robot["fixups"] = fixups;
  }
  if (!p.edits.empty()) {
    QJsonArray edits;
    for (const RobotEdit& e : p.edits) {
      QJsonArray values;
      for (double v : e.values) values.append(std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null));
      edits.append(QJsonObject{{e.joint ? "joint" : "link", QString::fromStdString(e.element)},
                               {"field", QString::fromLatin1(editFieldName(e.field))},
                               {"values", values}});
    }
    robot["edits"] = edits;
  }
  if (p.dhTable) robot["dh_table"] = QString::fromStdString(*p.dhTable);
  root["robot"] = robot;
  if (p.gravity) root["gravity"] = toArray(*p.gravity);
  if (p.payload)
    root["payload"] = QJsonObject{
        {"link", QString::fromStdString(p.payload->link)}, {"mass", p.payload->mass}, {"com", toArray(p.payload->com)}};
  if (p.wrench)
    root["wrench"] = QJsonObject{{"link", QString::fromStdString(p.wrench->link)},
                                 {"force", toArray(p.wrench->force)},
                                 {"moment", toArray(p.wrench->moment)},
                                 {"point", toArray(p.wrench->point)}};
  const ProjectTrajectory& t = p.trajectory;
  QJsonObject traj{{"source", trajectorySourceName(t.source)}};
  if (t.source == TrajectorySource::Waypoints) {
    traj["interpolation"] = interpolationName(t.interpolation);
    traj["sample_rate"] = t.sampleRate;
    if (t.interpolation == Interpolation::Trapezoidal) traj["trapezoid_fraction"] = t.trapezoidFraction;
    QJsonArray points;
    for (const ProjectWaypoint& w : t.waypoints) {
      QJsonObject q;
      for (const auto& [joint, values] : w.joints) {
        if (values.size() == 1) {
          q[QString::fromStdString(joint)] = values[0];
        } else {
          QJsonArray a;
          for (double x : values) a.append(x);
          q[QString::fromStdString(joint)] = a;
        }
      }
      points.append(QJsonObject{{"t", w.t}, {"q", q}});
    }
    traj["waypoints"] = points;
  } else if (t.source == TrajectorySource::Csv) {
    traj["path"] = relative(t.csvPath);
  } else if (t.source == TrajectorySource::Demo) {
    traj["demo"] = QString::fromStdString(t.demo);
    traj["sample_rate"] = t.sampleRate;
  }
  root["trajectory"] = traj;
  if (!p.view.isEmpty()) root["view"] = p.view;
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

ProjectFile readProjectFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) throw ProjectError((path + ": cannot open: " + f.errorString()).toStdString());
  return parseProject(f.readAll(), path);
}

void writeProjectFile(const QString& path, const ProjectFile& project, StoredPaths paths) {
  // Unbuffered, and the write and flush checked: QSaveFile commits even when the buffered tail of a
  // small file could not be written (a full disk), which left a truncated project.
  const QByteArray text = serializeProject(project, path, paths);
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
    throw ProjectError((path + ": cannot write: " + f.errorString()).toStdString());
  if (f.write(text) != text.size() || !f.flush()) {
    const QString why = f.error() != QFileDevice::NoError ? f.errorString() : QString("the disk is full");
    f.cancelWriting();
    throw ProjectError((path + ": cannot write (the previous file is unchanged): " + why).toStdString());
  }
  if (!f.commit()) throw ProjectError((path + ": cannot write: " + f.errorString()).toStdString());
}

}  // namespace dyn
