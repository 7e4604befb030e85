// dynscope-cli convert end to end: the written files load and are the robot they came from
// (compared with the engine's model of the input at random states, not with stored text); a model
// DH cannot express exits with status 1 naming the joint and leaves --out untouched; usage errors
// exit with 2; the help names the options.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

#include "dynscope/dynscope.hpp"
#include "dynscope/io/dh_table.hpp"
#include "model_compare.hpp"
#include "run_cli.hpp"

using dyn::testing::runCli;

namespace {

QString robot(const QString& file) { return QString(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

std::string readFile(const QString& path) {
  std::ifstream in(path.toStdString());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

class TestConvertCli : public QObject {
  Q_OBJECT
 private slots:
  void writesTheSameRobot_data();
  void writesTheSameRobot();
  void dhConventionFromTheCommandLine();
  void refusalNamesTheJoint();
  void usageErrors();
};

void TestConvertCli::writesTheSameRobot_data() {
  QTest::addColumn<QString>("model");
  QTest::addColumn<QString>("to");
  QTest::addColumn<QString>("convention");
  QTest::addColumn<QString>("endFrame");  // the input's frame that the output calls `tool` (--to dh), or ""
  QTest::newRow("ur5 to dh") << robot("ur5.urdf") << "dh" << QString() << "tool0";
  QTest::newRow("panda to modified dh") << robot("panda.urdf") << "dh"
                                        << "modified"
                                        << "panda_hand_tcp";
  QTest::newRow("ur5 to urdf") << robot("ur5.urdf") << "urdf" << QString() << QString();
  QTest::newRow("planar3 to urdf") << robot("planar3.dh") << "urdf" << QString() << QString();
  QTest::newRow("stanford to urdf") << robot("stanford_arm.dh") << "urdf" << QString() << QString();
  QTest::newRow("puma to modified") << robot("puma560.dh") << "dh"
                                    << "modified"
                                    << "tool";
  QTest::newRow("fourbar.dh to urdf") << robot("fourbar.dh") << "urdf" << QString() << QString();
  const QString pendulum = QString(DYNSCOPE_TEST_DATA_DIR) + "/mjcf/pendulum.xml";
  QTest::newRow("mjcf pendulum to dh") << pendulum << "dh" << QString() << "pole";
  QTest::newRow("mjcf pendulum to urdf") << pendulum << "urdf" << QString() << QString();
}

void TestConvertCli::writesTheSameRobot() {
  QFETCH(QString, model);
  QFETCH(QString, to);
  QFETCH(QString, convention);
  QFETCH(QString, endFrame);
  QTemporaryDir dir;
  const QString out = dir.filePath(to == "dh" ? "out.dh" : "out.urdf");
  QStringList args{"convert", model, "--to", to, "--out", out};
  if (!convention.isEmpty()) args << "--convention" << convention;
  const auto r = runCli(args);
  QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
  QVERIFY(r.out.isEmpty());  // the file, not stdout
  const dyn::Model a = dyn::loadModel(model.toStdString()), b = dyn::loadModel(out.toStdString());
  if (to == "urdf") {  // every frame keeps its name
    std::vector<std::pair<std::string, std::string>> frames;
    for (const auto& f : a.frames) frames.emplace_back(f.name, f.name);
    const QString why = dyn::testing::compareModels(a, b, frames);
    QVERIFY2(why.isEmpty(), qPrintable(why));
  } else {
    COMPARE_MODELS(a, b, {endFrame.toStdString(), "tool"});
    const dyn::DhTable t = dyn::parseDhTable(readFile(out), out.toStdString());
    QCOMPARE(t.convention, convention == "modified" ? dyn::DhConvention::Modified : dyn::DhConvention::Standard);
  }
  QCOMPARE(b.jointNames, a.jointNames);
}

// A table converted between conventions keeps its angle unit; --gravity is written into the file.
void TestConvertCli::dhConventionFromTheCommandLine() {
  QTemporaryDir dir;
  const QString out = dir.filePath("s.dh");
  const auto r = runCli({"convert", robot("stanford_arm.dh"), "--to", "dh", "--convention", "modified", "--gravity",
                         "0,-9.81,0", "--out", out});
  QVERIFY2(r.status == 0, r.err.constData());
  const dyn::DhTable t = dyn::parseDhTable(readFile(out), "s.dh");
  QVERIFY(t.degrees);
  QCOMPARE(t.gravity, Eigen::Vector3d(0, -9.81, 0));
  dyn::Model a = dyn::loadModel(robot("stanford_arm.dh").toStdString());
  a.gravity.v = Eigen::Vector3d(0, -9.81, 0);
  COMPARE_MODELS(a, dyn::loadModel(out.toStdString()), {"tool", "tool"});
}

void TestConvertCli::refusalNamesTheJoint() {
  QTemporaryDir dir;
  const QString out = dir.filePath("keep.dh");
  {
    QFile f(out);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("previous content\n");
  }
  for (const char* file : {"quadruped.urdf", "fourbar.urdf", "humanoid.urdf"}) {
    const auto r = runCli({"convert", robot(file), "--to", "dh", "--out", out});
    QVERIFY2(!r.crashed && r.status == 1, file);
    QVERIFY2(r.err.contains("error: joint '"), r.err.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("previous content\n"));
  }
}

void TestConvertCli::usageErrors() {
  QCOMPARE(runCli({"convert", robot("ur5.urdf")}).status, 2);  // no --to
  QCOMPARE(runCli({"convert", robot("ur5.urdf"), "--to", "sdf"}).status, 2);
  QCOMPARE(runCli({"convert", robot("ur5.urdf"), "--to", "urdf", "--convention", "modified"}).status, 2);
  QCOMPARE(runCli({"convert", robot("ur5.urdf"), "--to", "dh", "--convention", "craig"}).status, 2);
  QCOMPARE(runCli({"convert", robot("ur5.urdf"), "--to", "dh", "--floating-base"}).status, 2);
  QCOMPARE(runCli({"convert", robot("missing.urdf"), "--to", "dh"}).status, 1);
  const auto help = runCli({"convert", "--help"});
  QCOMPARE(help.status, 0);
  for (const char* word : {"--to", "--convention", "--out", "docs/convert.md"}) QVERIFY2(help.out.contains(word), word);
  QVERIFY(runCli({"--help"}).out.contains("convert"));
  // Without --out: the text on stdout.
  const auto r = runCli({"convert", robot("planar3.dh"), "--to", "dh", "--convention", "modified"});
  QCOMPARE(r.status, 0);
  QVERIFY(dyn::parseDhTable(r.out.toStdString(), "stdout.dh").convention == dyn::DhConvention::Modified);
}

QTEST_APPLESS_MAIN(TestConvertCli)
#include "test_convert_cli.moc"
