// Project files: write -> read round trips (every field, doubles bit-exact, paths stored relative
// and resolved again after the project directory moves), waypoints by joint name surviving a joint
// reorder, the trajectory and model a project describes, and error messages that name the file,
// the line and the key.
#include <signal.h>
#include <sys/resource.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <random>

#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"
#include "project/project_file.hpp"
#include "project/project_setup.hpp"

using dyn::Model;
using dyn::ProjectFile;
using Eigen::VectorXd;

namespace {

// Absolute, as a project file read back gives it (paths are stored relative to the project file).
QString robotFile(const char* name) { return QFileInfo(QString(DYNSCOPE_ROBOTS_DIR) + "/" + name).absoluteFilePath(); }

void writeText(const QString& path, const QByteArray& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

ProjectFile fullProject(const Model& m, const QString& robot) {
  ProjectFile p;
  p.robotPath = robot.toStdString();
  p.floatingBase = true;
  p.fixups = {dyn::Fixup::UnlimitedDegenerateLimits, dyn::Fixup::BalanceInertias};
  p.gravity = Eigen::Vector3d(0.1 + 0.2, -1e-300, -9.80665);
  p.payload = dyn::Payload{.link = "tool", .mass = 2.5, .com = Eigen::Vector3d(0, 1.0 / 3.0, 0.05)};
  p.trajectory.source = dyn::TrajectorySource::Waypoints;
  p.trajectory.interpolation = dyn::Interpolation::Trapezoidal;
  p.trajectory.trapezoidFraction = 0.2;
  p.trajectory.sampleRate = 250;
  std::mt19937 rng(4);
  for (double t : {0.0, 0.1 + 0.2, 1.7})
    p.trajectory.waypoints.push_back(dyn::makeProjectWaypoint(m, t, dyn::randomConfiguration(m, rng)));
  p.view = QJsonObject{{"camera", QJsonObject{{"distance", 2.25}, {"preset", "front"}}},
                       {"toggles", QJsonArray{"frames", "com"}}};
  return p;
}

void compareProjects(const ProjectFile& a, const ProjectFile& b) {
  QCOMPARE(a.robotPath, b.robotPath);
  QCOMPARE(a.floatingBase, b.floatingBase);
  QVERIFY(a.fixups == b.fixups);
  QCOMPARE(a.gravity.has_value(), b.gravity.has_value());
  if (a.gravity) QVERIFY(*a.gravity == *b.gravity);
  QCOMPARE(a.payload.has_value(), b.payload.has_value());
  if (a.payload) {
    QCOMPARE(a.payload->link, b.payload->link);
    QCOMPARE(a.payload->mass, b.payload->mass);
    QVERIFY(a.payload->com == b.payload->com);
  }
  QCOMPARE(int(a.trajectory.source), int(b.trajectory.source));
  QCOMPARE(int(a.trajectory.interpolation), int(b.trajectory.interpolation));
  QCOMPARE(a.trajectory.trapezoidFraction, b.trajectory.trapezoidFraction);
  QCOMPARE(a.trajectory.sampleRate, b.trajectory.sampleRate);
  QCOMPARE(a.trajectory.csvPath, b.trajectory.csvPath);
  QCOMPARE(a.trajectory.demo, b.trajectory.demo);
  QCOMPARE(a.trajectory.waypoints.size(), b.trajectory.waypoints.size());
  for (size_t k = 0; k < a.trajectory.waypoints.size(); ++k) {
    QCOMPARE(a.trajectory.waypoints[k].t, b.trajectory.waypoints[k].t);  // bit-exact doubles
    QVERIFY(a.trajectory.waypoints[k].joints == b.trajectory.waypoints[k].joints);
  }
  QCOMPARE(a.view, b.view);
}

// Reads text as a project and returns the error message ("" when it reads).
QString errorOf(const QByteArray& text, const QString& path = "/tmp/p.json") {
  try {
    dyn::parseProject(text, path);
  } catch (const dyn::ProjectError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestProjectFile : public QObject {
  Q_OBJECT

 private slots:
  void roundTrip() {
    QTemporaryDir dir;
    const Model m = dyn::loadModel(robotFile("stanford_arm.dh").toStdString(), {.floatingBase = true});
    const ProjectFile p = fullProject(m, robotFile("stanford_arm.dh"));
    const QString path = dir.filePath("lectures/demo.dynscope.json");
    QVERIFY(QDir().mkpath(dir.filePath("lectures")));
    dyn::writeProjectFile(path, p);
    const ProjectFile back = dyn::readProjectFile(path);
    compareProjects(back, p);
    QCOMPARE(back.file, path.toStdString());
    // The header, and the robot path stored relative to the project file.
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(json["format"].toString(), QString("dynscope-project"));
    QCOMPARE(json["version"].toInt(), 1);
    const QString stored = json["robot"].toObject()["path"].toString();
    QVERIFY2(QDir::isRelativePath(stored), qPrintable(stored));
    // Other sources.
    ProjectFile csv = p;
    csv.trajectory = {};
    csv.trajectory.source = dyn::TrajectorySource::Csv;
    csv.trajectory.csvPath = dir.filePath("data/run 1.csv").toStdString();
    dyn::writeProjectFile(path, csv);
    compareProjects(dyn::readProjectFile(path), csv);
    ProjectFile demo = p;
    demo.trajectory = {};
    demo.trajectory.source = dyn::TrajectorySource::Demo;
    demo.trajectory.demo = "saha-stanford";
    demo.trajectory.sampleRate = 20;
    demo.gravity.reset();
    demo.payload.reset();
    demo.view = {};
    dyn::writeProjectFile(path, demo);
    compareProjects(dyn::readProjectFile(path), demo);
  }

  // A project next to its robot and CSV keeps working after the whole directory moves.
  void relativePathsFollowTheProject() {
    QTemporaryDir dir;
    QVERIFY(QDir().mkpath(dir.filePath("a/robots")));
    QVERIFY(QFile::copy(robotFile("planar3.dh"), dir.filePath("a/robots/planar3.dh")));
    writeText(dir.filePath("a/q.csv"), "t,j1,j2,j3\n0,0,0,0\n1,1,1,1\n");
    ProjectFile p;
    p.robotPath = dir.filePath("a/robots/planar3.dh").toStdString();
    p.trajectory.source = dyn::TrajectorySource::Csv;
    p.trajectory.csvPath = dir.filePath("a/q.csv").toStdString();
    dyn::writeProjectFile(dir.filePath("a/p.json"), p);
    QVERIFY(QDir().rename(dir.filePath("a"), dir.filePath("b")));
    const ProjectFile moved = dyn::readProjectFile(dir.filePath("b/p.json"));
    QCOMPARE(QString::fromStdString(moved.robotPath), QDir::cleanPath(dir.filePath("b/robots/planar3.dh")));
    const Model m = dyn::loadProjectModel(moved);
    QCOMPARE(m.nv, 3);
    const dyn::SampledTrajectory s = dyn::projectTrajectory(moved, m);
    QCOMPARE(s.samples(), 2);
    QCOMPARE(s.q(2, 1), 1.0);
  }

  // An autosave stores absolute paths: it lives in the user's data directory, and its robot and CSV
  // stay where they are when the data directory moves (or is reached by another path).
  void absolutePathsStayPut() {
    QTemporaryDir files, data;
    QVERIFY(QFile::copy(robotFile("planar3.dh"), files.filePath("planar3.dh")));
    writeText(files.filePath("q.csv"), "t,j1,j2,j3\n0,0,0,0\n1,1,1,1\n");
    ProjectFile p;
    p.robotPath = files.filePath("planar3.dh").toStdString();
    p.trajectory.source = dyn::TrajectorySource::Csv;
    p.trajectory.csvPath = files.filePath("q.csv").toStdString();
    QVERIFY(QDir().mkpath(data.filePath("recovery")));
    const QString saved = data.filePath("recovery/session.json");
    dyn::writeProjectFile(saved, p, dyn::StoredPaths::Absolute);
    QFile f(saved);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(json["robot"].toObject()["path"].toString(), QFileInfo(files.filePath("planar3.dh")).absoluteFilePath());
    QCOMPARE(json["trajectory"].toObject()["path"].toString(), QFileInfo(files.filePath("q.csv")).absoluteFilePath());
    QVERIFY(QDir().rename(data.filePath("recovery"), data.filePath("moved")));
    const ProjectFile back = dyn::readProjectFile(data.filePath("moved/session.json"));
    QCOMPARE(QString::fromStdString(back.robotPath), QFileInfo(files.filePath("planar3.dh")).absoluteFilePath());
    QCOMPARE(dyn::loadProjectModel(back).nv, 3);
    QCOMPARE(dyn::projectTrajectory(back, dyn::loadProjectModel(back)).samples(), 2);
  }

  // A file name that starts with ':' is a file next to the project, not a Qt resource; the round
  // trip keeps it (found by fuzz_project). A NUL in a path is refused, naming the key.
  void oddFileNames() {
    const QString path = "/projects/p.json";
    const ProjectFile p = dyn::parseProject(
        R"({"format": "dynscope-project", "version": 1, "robot": {"path": ": m.urdf"},
            "trajectory": {"source": "csv", "path": ":q.csv"}})",
        path);
    QCOMPARE(QString::fromStdString(p.robotPath), QString("/projects/: m.urdf"));
    QCOMPARE(QString::fromStdString(p.trajectory.csvPath), QString("/projects/:q.csv"));
    const ProjectFile again = dyn::parseProject(dyn::serializeProject(p, path), path);
    QCOMPARE(again.robotPath, p.robotPath);
    QCOMPARE(again.trajectory.csvPath, p.trajectory.csvPath);
    QByteArray nul = R"({"format": "dynscope-project", "version": 1, "robot": {"path": "a.urdf"},
                         "trajectory": {"source": "csv", "path": "q.c\u0000sv"}})";
    try {
      (void)dyn::parseProject(nul, path);
      QFAIL("a NUL in a path was accepted");
    } catch (const dyn::ProjectError& e) {
      QVERIFY2(QString(e.what()).contains("p.json:2: trajectory.path") && QString(e.what()).contains("NUL"), e.what());
    }
  }

  // Waypoints are stored by joint name: reading them into a model whose joints are numbered in a
  // different order puts every value on the same joint.
  void waypointsSurviveAJointReorder() {
    const Model a = dyn::loadModel(robotFile("humanoid.urdf").toStdString(), {.floatingBase = true});
    dyn::RobotDescription d = dyn::loadDescription(robotFile("humanoid.urdf").toStdString());
    std::reverse(d.joints.begin(), d.joints.end());
    std::reverse(d.links.begin(), d.links.end());
    const Model b = dyn::buildModel(d, {.floatingBase = true});
    bool reordered = false;
    for (int i = 1; i <= a.N; ++i)
      reordered = reordered || b.joints[b.jointIndex(a.jointNames[i])].idx_q != a.joints[i].idx_q;
    QVERIFY2(reordered, "the reversed description should number the joints differently");
    std::mt19937 rng(9);
    const VectorXd qa = dyn::randomConfiguration(a, rng);
    ProjectFile p;
    p.robotPath = robotFile("humanoid.urdf").toStdString();
    p.trajectory.source = dyn::TrajectorySource::Waypoints;
    p.trajectory.waypoints = {dyn::makeProjectWaypoint(a, 0, qa), dyn::makeProjectWaypoint(a, 1, a.neutral())};
    const ProjectFile back = dyn::parseProject(dyn::serializeProject(p, "/tmp/p.json"), "/tmp/p.json");
    const std::vector<dyn::Waypoint> wa = dyn::projectWaypoints(back, a), wb = dyn::projectWaypoints(back, b);
    QVERIFY(wa[0].q == qa);
    for (int i = 1; i <= a.N; ++i) {
      const auto& Ja = a.joints[i];
      const auto& Jb = b.joints[b.jointIndex(a.jointNames[i])];
      QVERIFY(wb[0].q.segment(Jb.idx_q, Jb.nq) == qa.segment(Ja.idx_q, Ja.nq));
    }
  }

  // The fix-ups a project stores are applied when its robot loads (and listed among the findings).
  void projectFixupsAreApplied() {
    QTemporaryDir dir;
    ProjectFile p;
    p.robotPath = QString(DYNSCOPE_TEST_DATA_DIR "/model_check/massless_pan_tilt.urdf").toStdString();
    p.fixups = {dyn::Fixup::MassMasslessLinks, dyn::Fixup::BalanceInertias};
    const QString path = dir.filePath("p.json");
    dyn::writeProjectFile(path, p);
    const ProjectFile back = dyn::readProjectFile(path);
    QVERIFY(back.fixups == p.fixups);  // in their order
    const Model m = dyn::loadProjectModel(back);
    QVERIFY(m.immobileBodies.empty());
    const auto changes = std::count_if(m.findings.begin(), m.findings.end(),
                                       [](const dyn::Finding& f) { return f.code == "fixup.mass-massless-links"; });
    QCOMPARE(changes, 2);
    QVERIFY(dyn::loadModel(p.robotPath).immobileBodies.size() == 2);  // without the project's fix-ups
  }

  // The model and trajectory a project describes: gravity and payload applied, the waypoints
  // sampled as WaypointTrajectory does, the demo as demoTrajectory does.
  void projectModelAndTrajectory() {
    QTemporaryDir dir;
    const Model plain = dyn::loadModel(robotFile("stanford_arm.dh").toStdString(), {.floatingBase = true});
    ProjectFile p = fullProject(plain, robotFile("stanford_arm.dh"));
    p.file = dir.filePath("p.json").toStdString();
    const Model m = dyn::loadProjectModel(p);
    QVERIFY(m.gravity.v == *p.gravity);
    QCOMPARE(m.totalMass(), plain.totalMass() + 2.5);
    const dyn::SampledTrajectory s = dyn::projectTrajectory(p, m);
    const dyn::SampledTrajectory ref =
        dyn::WaypointTrajectory(m, dyn::projectWaypoints(p, m), dyn::Interpolation::Trapezoidal, 0.2).sample(250);
    QVERIFY(s.t == ref.t && s.q == ref.q && s.qd == ref.qd && s.qdd == ref.qdd);

    p.floatingBase = false;
    p.trajectory = {};
    p.trajectory.source = dyn::TrajectorySource::Demo;
    p.trajectory.demo = "saha-stanford";
    p.trajectory.sampleRate = 10;
    const Model fixed = dyn::loadProjectModel(p);
    const dyn::SampledTrajectory demo = dyn::projectTrajectory(p, fixed);
    QVERIFY(demo.q == dyn::demoTrajectory(fixed, dyn::DemoTrajectory::SahaStanford, 10).q);
  }

  void waypointErrorsNameTheJoint() {
    const Model m = dyn::loadModel(robotFile("planar3.dh").toStdString());
    const QByteArray text = R"({"format": "dynscope-project", "version": 1,
  "robot": {"path": "planar3.dh"},
  "trajectory": {"source": "waypoints", "waypoints": [
    {"t": 0, "q": {"j1": 0, "j2": 0, "j3": 0}},
    {"t": 1, "q": {"j1": 0, "j3": 0}},
    {"t": 2, "q": {"j1": 0, "j2": 0, "j3": 0, "elbow": 1}},
    {"t": 3, "q": {"j1": [0, 1], "j2": 0, "j3": 0}}]}})";
    ProjectFile p = dyn::parseProject(text, "/tmp/w.json");
    auto message = [&](int keep) {
      ProjectFile q = p;
      q.trajectory.waypoints = {p.trajectory.waypoints[0], p.trajectory.waypoints[keep]};
      try {
        dyn::projectWaypoints(q, m);
      } catch (const dyn::ProjectError& e) {
        return QString(e.what());
      }
      return QString();
    };
    QCOMPARE(message(1), QString("/tmp/w.json:5: waypoint 2: no value for joint 'j2'"));
    QCOMPARE(message(2), QString("/tmp/w.json:6: waypoint 2: model 'planar3' has no joint 'elbow'"));
    QCOMPARE(message(3), QString("/tmp/w.json:7: waypoint 2: joint 'j1' needs 1 number (its q entries), got 2"));
    // The engine's checks come through with the project's name.
    ProjectFile bad = p;
    bad.trajectory.waypoints = {p.trajectory.waypoints[0], p.trajectory.waypoints[0]};
    try {
      dyn::projectTrajectory(bad, m);
      QFAIL("no exception");
    } catch (const dyn::ProjectError& e) {
      QVERIFY2(QString(e.what()).startsWith("/tmp/w.json: trajectory: waypoint 2: t = 0"), e.what());
    }
  }

  void errorsNameFileLineAndKey_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    const QByteArray head = "{\"format\": \"dynscope-project\", \"version\": 1,\n";
    QTest::newRow("syntax") << head + "  \"robot\": {\"path\": \"r.urdf\"}\n  \"gravity\": [0, 0, -9.81]\n}"
                            << "/tmp/p.json:3: not valid JSON";
    QTest::newRow("not a project") << QByteArray("{\"robot\": {}}") << "/tmp/p.json:1: format: missing or wrong";
    QTest::newRow("newer version")
        << QByteArray("{\"format\": \"dynscope-project\",\n \"version\": 2, \"robot\": {\"path\": \"r\"}}")
        << "/tmp/p.json:2: version: version 2 was written by a newer Dynscope";
    QTest::newRow("unknown key") << head + "  \"robot\": {\"path\": \"r.urdf\",\n    \"floating\": true}}"
                                 << "/tmp/p.json:3: robot.floating: unknown key";
    QTest::newRow("missing robot path") << head + "  \"robot\": {}}"
                                        << "/tmp/p.json:2: robot: missing key 'path'";
    QTest::newRow("mass is text") << head +
                                         "  \"robot\": {\"path\": \"r.urdf\"},\n  \"payload\": {\"link\": \"tool\",\n"
                                         "    \"mass\": \"heavy\"}}"
                                  << "/tmp/p.json:4: payload.mass: expected a finite number";
    QTest::newRow("negative mass")
        << head + "  \"robot\": {\"path\": \"r\"}, \"payload\": {\"link\": \"t\", \"mass\": -1}}"
        << "/tmp/p.json:2: payload.mass: must not be negative";
    QTest::newRow("gravity size") << head + "  \"robot\": {\"path\": \"r\"},\n\n  \"gravity\": [0, -9.81]}"
                                  << "/tmp/p.json:4: gravity: expected 3 numbers";
    QTest::newRow("interpolation") << head +
                                          "  \"robot\": {\"path\": \"r\"},\n  \"trajectory\": {\"source\": "
                                          "\"waypoints\",\n   \"interpolation\": \"linear\", \"waypoints\": []}}"
                                   << "/tmp/p.json:4: trajectory.interpolation: 'linear' is not";
    QTest::newRow("waypoint value")
        << head +
               "  \"robot\": {\"path\": \"r\"},\n  \"trajectory\": {\"source\": \"waypoints\", \"waypoints\": [\n"
               "    {\"t\": 0, \"q\": {\"j1\": 0}},\n    {\"t\": 1, \"q\": {\"j1\":\n      \"up\"}}]}}"
        << "/tmp/p.json:6: trajectory.waypoints[1].q.j1: expected a finite number";
    QTest::newRow("demo name") << head +
                                      "  \"robot\": {\"path\": \"r\"},\n  \"trajectory\": {\"source\": \"demo\", "
                                      "\"demo\": \"puma\"}}"
                               << "/tmp/p.json:3: trajectory.demo: 'puma' is not a demo";
    QTest::newRow("unknown fix-up")
        << head + "  \"robot\": {\"path\": \"r\",\n    \"fixups\": [\"balance-inertias\", \"fix-everything\"]}}"
        << "/tmp/p.json:3: robot.fixups[1]: 'fix-everything' is not a fix-up (balance-inertias, "
           "unlimited-degenerate-limits, mass-massless-links)";
    QTest::newRow("fix-up twice")
        << head + "  \"robot\": {\"path\": \"r\",\n    \"fixups\": [\"balance-inertias\", \"balance-inertias\"]}}"
        << "/tmp/p.json:3: robot.fixups[1]: given twice";
    QTest::newRow("rate") << head +
                                 "  \"robot\": {\"path\": \"r\"},\n  \"trajectory\": {\"source\": \"demo\", "
                                 "\"demo\": \"saha-planar3\", \"sample_rate\": 0}}"
                          << "/tmp/p.json:3: trajectory.sample_rate: must be positive";
  }
  void errorsNameFileLineAndKey() {
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const QString message = errorOf(text);
    QVERIFY2(message.startsWith(expected), qPrintable("got: " + message));
  }

  // A full disk (a file-size limit standing in) while saving: the previous project stays byte for
  // byte and the error says so. (QSaveFile alone committed the truncated buffered tail.)
  void fullDiskKeepsThePreviousProject() {
    QTemporaryDir dir;
    const QString path = dir.filePath("p.json");
    ProjectFile p;
    p.robotPath = QDir(DYNSCOPE_ROBOTS_DIR).absoluteFilePath("planar3.dh").toStdString();
    p.trajectory.source = dyn::TrajectorySource::Waypoints;
    for (int k = 0; k < 40; ++k)
      p.trajectory.waypoints.push_back({double(k), {{"j1", {0.1 * k}}, {"j2", {0.0}}, {"j3", {0.0}}}});
    dyn::writeProjectFile(path, ProjectFile{.robotPath = p.robotPath});
    QFile before(path);
    QVERIFY(before.open(QIODevice::ReadOnly));
    const QByteArray old = before.readAll();
    before.close();
    rlimit saved{};
    getrlimit(RLIMIT_FSIZE, &saved);
    rlimit limited = saved;
    limited.rlim_cur = 512;  // the project is a few kB: its tail cannot be written
    auto* previous = signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &limited);
    QString message;
    try {
      dyn::writeProjectFile(path, p);
    } catch (const dyn::ProjectError& e) {
      message = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    signal(SIGXFSZ, previous);
    QVERIFY2(message.startsWith(path + ": cannot write"), qPrintable(message));
    QFile after(path);
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), old);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"p.json"});
  }

  void missingFile() {
    try {
      dyn::readProjectFile("/nonexistent/dir/p.json");
      QFAIL("no exception");
    } catch (const dyn::ProjectError& e) {
      QVERIFY2(QString(e.what()).startsWith("/nonexistent/dir/p.json: cannot open"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestProjectFile)
#include "test_project_file.moc"
