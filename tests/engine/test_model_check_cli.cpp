// dynscope-cli check, --fix and the findings of info (issue 13): the JSON lists what the engine's
// checker finds (compared with a direct call), the exit status follows errors (and warnings with
// --strict), a file that does not load is one error finding, the fix-ups come from --fix or the
// project, and forward dynamics on a massless moving subtree is still refused, naming the joint.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QFileInfo>
#include <QtTest>
#include <string>

#include "dynscope/io/model_builder.hpp"
#include "run_cli.hpp"

namespace {

using dyn::testing::CliRun;
using dyn::testing::runCli;

// Absolute: project files written here name their robot relative to themselves.
QString data(const char* name) {
  return QFileInfo(QString(DYNSCOPE_TEST_DATA_DIR) + "/model_check/" + name).absoluteFilePath();
}

QJsonObject json(const CliRun& r) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
  if (error.error != QJsonParseError::NoError)
    qWarning("bad JSON: %s\n%s", qPrintable(error.errorString()), r.out.constData());
  return doc.object();
}

// The 1-based line of the first occurrence of marker in the file.
int lineOf(const QString& path, const QByteArray& marker) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return -1;
  const QByteArray text = f.readAll();
  const qsizetype at = text.indexOf(marker);
  return at < 0 ? -1 : 1 + int(text.left(at).count('\n'));
}

int countCode(const QJsonArray& findings, const QString& code) {
  int n = 0;
  for (const QJsonValue& f : findings) n += f.toObject()["code"].toString() == code ? 1 : 0;
  return n;
}

QJsonObject findingOf(const QJsonArray& findings, const QString& code, const QString& name) {
  for (const QJsonValue& v : findings) {
    const QJsonObject f = v.toObject();
    if (f["code"].toString() == code && (f["link"].toString() == name || f["joint"].toString() == name)) return f;
  }
  return {};
}

}  // namespace

class TestModelCheckCli : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    qputenv("ROS_PACKAGE_PATH", "");
    qputenv("AMENT_PREFIX_PATH", "");
  }

  // Every finding of the engine, in its order, with its location; warnings alone exit 0.
  void checkPrintsTheEnginesFindings() {
    const QString file = data("arm_with_warnings.urdf");
    const CliRun r = runCli({"check", file});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());  // check says it all in the JSON
    const QJsonObject j = json(r);
    QCOMPARE(j["command"].toString(), QString("check"));
    QCOMPARE(j["loaded"].toBool(), true);
    QCOMPARE(j["fixups"].toArray().size(), 0);
    const dyn::Model model = dyn::loadModel(file.toStdString());
    const QJsonArray findings = j["findings"].toArray();
    QCOMPARE(findings.size(), qsizetype(model.findings.size()));
    for (qsizetype k = 0; k < findings.size(); ++k) {
      const QJsonObject f = findings[k].toObject();
      const dyn::Finding& e = model.findings[size_t(k)];
      QCOMPARE(f["severity"].toString(), QString(dyn::severityName(e.severity)));
      QCOMPARE(f["code"].toString().toStdString(), e.code);
      QCOMPARE(f["line"].toInt(), e.line);
      QCOMPARE(f["element"].toString().toStdString(), e.element);
      QCOMPARE(f["message"].toString().toStdString(), e.message);
      QVERIFY(!f["hint"].toString().isEmpty());
      QCOMPARE(f["file"].toString(), file);
      if (e.body >= 0) QCOMPARE(f["body"].toString().toStdString(), model.bodyNames[size_t(e.body)]);
    }
    const dyn::FindingCounts n = dyn::countFindings(model.findings);
    QCOMPARE(j["counts"].toObject()["warnings"].toInt(), n.warnings);
    QCOMPARE(j["counts"].toObject()["infos"].toInt(), n.infos);
    QCOMPARE(j["counts"].toObject()["errors"].toInt(), 0);
    QCOMPARE(findingOf(findings, "inertia.triangle", "gripper_motor")["body"].toString(), QString("gripper_motor"));
  }

  void strictMakesWarningsFail() {
    CliRun r = runCli({"check", data("arm_with_warnings.urdf"), "--strict"});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY(json(r)["counts"].toObject()["warnings"].toInt() > 0);  // the JSON is still printed
    // A model with notes only passes --strict.
    r = runCli({"check", QString(DYNSCOPE_ROBOTS_DIR) + "/stanford_arm.dh", "--strict"});
    QCOMPARE(r.status, 0);
    QCOMPARE(json(r)["counts"].toObject()["warnings"].toInt(), 0);
  }

  void unloadableFileIsOneErrorFinding() {
    QTemporaryDir dir;
    const QString path = dir.filePath("broken.urdf");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "<robot name=\"r\">\n  <link name=\"a\"/>\n  <joint name=\"j\" type=\"fixed\">\n"
        "    <parent link=\"a\"/><child link=\"nowhere\"/>\n  </joint>\n</robot>\n");
    f.close();
    const CliRun r = runCli({"check", path});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("broken.urdf:3:"), r.err.constData());
    const QJsonObject j = json(r);
    QCOMPARE(j["loaded"].toBool(), false);
    const QJsonObject e = j["findings"].toArray()[0].toObject();
    QCOMPARE(e["severity"].toString(), QString("error"));
    QCOMPARE(e["code"].toString(), QString("load.error"));
    QCOMPARE(e["line"].toInt(), 3);
    QCOMPARE(e["element"].toString(), QString("joint 'j'"));
    QVERIFY(e["message"].toString().contains("'nowhere' does not exist"));
  }

  void fixChangesTheFindings() {
    const QString file = data("arm_with_warnings.urdf");
    const CliRun r = runCli({"check", file, "--fix", "balance-inertias", "--fix", "unlimited-degenerate-limits"});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    const QJsonObject j = json(r);
    QCOMPARE(j["fixups"].toArray(), (QJsonArray{"balance-inertias", "unlimited-degenerate-limits"}));
    const QJsonArray findings = j["findings"].toArray();
    QCOMPARE(countCode(findings, "inertia.triangle") + countCode(findings, "inertia.not_psd"), 0);
    QCOMPARE(countCode(findings, "limits.degenerate"), 0);
    QCOMPARE(countCode(findings, "fixup.balance-inertias"), 5);
    QCOMPARE(countCode(findings, "fixup.unlimited-degenerate-limits"), 1);
    QCOMPARE(countCode(findings, "mimic.enforced"), 1);  // what no fix-up touches stays
    // "all" is every fix-up; a name that is none is a usage error.
    QCOMPARE(json(runCli({"check", file, "--fix", "all"}))["fixups"].toArray().size(), 3);
    const CliRun bad = runCli({"check", file, "--fix", "balance"});
    QCOMPARE(bad.status, 2);
    QVERIFY2(bad.err.contains("unknown fix-up 'balance'") && bad.err.contains("balance-inertias"), bad.err.constData());
  }

  // Other commands print the warnings and errors (with file:line) and the fix-ups' changes on stderr.
  void otherCommandsWarnOnStderr() {
    const QString file = data("arm_with_warnings.urdf");
    CliRun r = runCli({"id", file});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    const QByteArray where = file.toUtf8() + ":" + QByteArray::number(lineOf(file, "<inertia ixx=\"6.6e-4\""));
    QVERIFY2(r.err.contains("dynscope-cli: warning: " + where + ": link 'shoulder_link' <inertial>"),
             r.err.constData());
    QVERIFY(!r.err.contains("transmission"));  // notes are left to check
    r = runCli({"id", file, "--fix", "balance-inertias"});
    QVERIFY2(r.err.contains("dynscope-cli: fix-up: ") && r.err.contains("(fix-up balance-inertias)"),
             r.err.constData());
    QVERIFY(!r.err.contains("triangle"));
  }

  void infoIncludesTheFindings() {
    const CliRun r = runCli({"info", data("double_pendulum_placeholder.urdf")});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    const QJsonObject j = json(r);
    QCOMPARE(countCode(j["findings"].toArray(), "limits.placeholder"), 2);
    QCOMPARE(j["counts"].toObject()["warnings"].toInt(), 2);
    // ... and the placeholders are no limits: null (unlimited) in the joint's limits.
    const QJsonObject limits = j["joints"].toArray()[0].toObject()["limits"].toObject();
    QVERIFY(limits["lower"].toArray()[0].isNull() && limits["upper"].toArray()[0].isNull());
    QVERIFY(limits["effort"].toArray()[0].isNull());
  }

  void forwardDynamicsRefusedNamingTheJoint() {
    const QString file = data("massless_pan_tilt.urdf");
    CliRun r = runCli({"fd", file});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("joint 'camera_pan' moves no mass"), r.err.constData());
    r = runCli({"check", file});
    QCOMPARE(r.status, 0);  // a warning: the file loads
    QCOMPARE(findingOf(json(r)["findings"].toArray(), "mass.massless_subtree", "camera_pan")["line"].toInt(),
             lineOf(file, "<joint name=\"camera_pan\""));
    r = runCli({"fd", file, "--fix", "mass-massless-links"});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QCOMPARE(json(r)["qdd"].toArray().size(), 4);
  }

  // A joint that moves nothing it can accelerate at this configuration (a massless tool plate on a
  // prismatic joint) loads with warnings; fd by every method and simulate refuse, naming the joint
  // and its link and pointing at the finding. A slightly indefinite inertia elsewhere computes.
  void singularPivotRefusedNamingTheJoint() {
    const QString file = data("linear_stage.urdf");
    CliRun r = runCli({"check", file});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    const QJsonArray findings = json(r)["findings"].toArray();
    const int plate = lineOf(file, "<mass value=\"0\"") - 2;  // the tool plate's <inertial>
    QCOMPARE(findingOf(findings, "mass.zero_leaf", "tool_plate")["line"].toInt(), plate);
    QCOMPARE(findingOf(findings, "limits.partial", "z_slide")["line"].toInt(), lineOf(file, "<limit effort=\"200\""));
    const QByteArray pointer = "mass.zero_leaf at " + file.toUtf8() + ":" + QByteArray::number(plate);
    for (const char* algorithm : {"aba", "crba", "denoc"}) {
      r = runCli({"fd", file, "--algorithm", algorithm});
      QVERIFY(!r.crashed);
      QCOMPARE(r.status, 1);
      QVERIFY2(r.err.contains("joint 'tool_slide' (link 'tool_plate') is 0, not positive") && r.err.contains(pointer),
               r.err.constData());
    }
    r = runCli({"simulate", file, "--duration", "0.1"});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("joint 'tool_slide' (link 'tool_plate')"), r.err.constData());

    r = runCli({"fd", data("rover_antenna.urdf")});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QVERIFY2(r.err.contains("inertia.not_psd") || r.err.contains("not positive semi-definite"), r.err.constData());
    for (const QJsonValue v : json(r)["qdd"].toArray()) QVERIFY(v.isDouble());
  }

  void projectFixupsAreApplied() {
    QTemporaryDir dir;
    const QString project = dir.filePath("p.json");
    QFile f(project);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(QJsonObject{{"format", "dynscope-project"},
                                      {"version", 1},
                                      {"robot", QJsonObject{{"path", data("massless_pan_tilt.urdf")},
                                                            {"fixups", QJsonArray{"mass-massless-links"}}}}})
                .toJson());
    f.close();
    CliRun r = runCli({"check", "--project", project});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QJsonObject j = json(r);
    QCOMPARE(j["fixups"].toArray(), QJsonArray{"mass-massless-links"});
    QCOMPARE(countCode(j["findings"].toArray(), "mass.massless_subtree"), 0);
    QCOMPARE(countCode(j["findings"].toArray(), "fixup.mass-massless-links"), 2);
    // --fix adds to the project's.
    r = runCli({"check", "--project", project, "--fix", "balance-inertias"});
    QCOMPARE(json(r)["fixups"].toArray(), (QJsonArray{"mass-massless-links", "balance-inertias"}));
  }
};

QTEST_APPLESS_MAIN(TestModelCheckCli)
#include "test_model_check_cli.moc"
