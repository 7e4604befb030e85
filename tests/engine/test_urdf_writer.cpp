// The URDF writer (dynscope/io/urdf_writer.hpp): every shipped URDF and DH table, written and read
// back, is the same model (names, limits, every frame's pose, tau, H, qdd at random states, closed
// loops' assembled reference); written over the original text, what Dynscope does not model
// (gazebo, transmission, calibration, comments) stays while edits land; urdfdom's check_urdf accepts
// the files; a helical joint is refused naming it.
#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "dynscope/dynscope.hpp"
#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/urdf_writer.hpp"
#include "model_compare.hpp"

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> shipped(const char* ext) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(DYNSCOPE_ROBOTS_DIR))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// Same names, limits, mimic relations, frames (by name) and dynamics.
QString sameModel(const dyn::Model& a, const dyn::Model& b) {
  if (a.jointNames != b.jointNames) return "joint names";
  if (a.bodyNames != b.bodyNames) return "body names";
  const std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*> vectors[] = {
      {&a.lowerLimit, &b.lowerLimit},   {&a.upperLimit, &b.upperLimit}, {&a.velocityLimit, &b.velocityLimit},
      {&a.effortLimit, &b.effortLimit}, {&a.damping, &b.damping},       {&a.friction, &b.friction}};
  for (const auto& [x, y] : vectors)
    if (*x != *y) return "limits, damping or friction";
  if (a.mimics.size() != b.mimics.size()) return "mimic relations";
  for (size_t k = 0; k < a.mimics.size(); ++k)
    if (a.mimics[k].joint != b.mimics[k].joint || a.mimics[k].mimicked != b.mimics[k].mimicked ||
        a.mimics[k].multiplier != b.mimics[k].multiplier || a.mimics[k].offset != b.mimics[k].offset)
      return "mimic relations";
  std::vector<std::pair<std::string, std::string>> frames;
  for (const auto& f : a.frames) frames.emplace_back(f.name, f.name);
  if (QString why = dyn::testing::compareModels(a, b, frames); !why.isEmpty()) return why;
  if (a.hasLoops() != b.hasLoops() || a.loops.size() != b.loops.size()) return "loops";
  if (a.hasLoops())
    if (std::string d = dyn::testing::differs(b.loopReference, a.loopReference, 1e-9, "loop reference"); !d.empty())
      return QString::fromStdString(d);
  return {};
}

dyn::Model build(const dyn::RobotDescription& d) { return dyn::buildModel(d); }

}  // namespace

class TestUrdfWriter : public QObject {
  Q_OBJECT
 private slots:
  void shippedUrdfLoadsBack_data();
  void shippedUrdfLoadsBack();
  void shippedDhTablesAsUrdf_data();
  void shippedDhTablesAsUrdf();
  void unmodelledElementsKept();
  void checkUrdfAccepts_data();
  void checkUrdfAccepts();
  void refusalsAndLosses();
  void relativeMeshesFollowTheFile();
};

void TestUrdfWriter::shippedUrdfLoadsBack_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<bool>("overOriginal");
  for (const std::string& f : shipped(".urdf")) {
    QTest::newRow((f + " new").c_str()) << QString::fromStdString(f) << false;
    QTest::newRow((f + " over the original").c_str()) << QString::fromStdString(f) << true;
  }
}

void TestUrdfWriter::shippedUrdfLoadsBack() {
  QFETCH(QString, file);
  QFETCH(bool, overOriginal);
  const std::string original = readFile(file.toStdString());
  const dyn::RobotDescription d = dyn::parseUrdfString(original, file.toStdString());
  const std::string text = dyn::writeUrdf(d, overOriginal ? original : "");
  const dyn::RobotDescription back = dyn::parseUrdfString(text, file.toStdString());
  QCOMPARE(back.name, d.name);
  QCOMPARE(back.links.size(), d.links.size());
  QCOMPARE(back.joints.size(), d.joints.size());
  for (size_t l = 0; l < d.links.size(); ++l) {
    QCOMPARE(back.links[l].visuals.size(), d.links[l].visuals.size());
    QCOMPARE(back.links[l].collisions.size(), d.links[l].collisions.size());
    for (size_t v = 0; v < d.links[l].visuals.size(); ++v) {
      const dyn::Material &m = back.links[l].visuals[v].material, &n = d.links[l].visuals[v].material;
      QVERIFY2(m.name == n.name && m.rgba == n.rgba && m.hasColor == n.hasColor, d.links[l].name.c_str());
    }
  }
  const QString why = sameModel(build(d), build(back));
  QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestUrdfWriter::shippedDhTablesAsUrdf_data() {
  QTest::addColumn<QString>("file");
  for (const std::string& f : shipped(".dh")) QTest::newRow(f.c_str()) << QString::fromStdString(f);
}

// A DH table's description (frames, tool, gravity, loops, actuated joints) survives as a URDF.
void TestUrdfWriter::shippedDhTablesAsUrdf() {
  QFETCH(QString, file);
  const dyn::RobotDescription d = dyn::parseDhFile(file.toStdString());
  const dyn::RobotDescription back = dyn::parseUrdfString(dyn::writeUrdf(d), "written.urdf");
  QCOMPARE(back.gravity, d.gravity);
  const dyn::Model a = build(d), b = build(back);
  QVERIFY2(a.jointNames == b.jointNames, "joint names");
  std::vector<std::pair<std::string, std::string>> frames;
  for (const auto& f : a.frames) frames.emplace_back(f.name, f.name);
  const QString why = dyn::testing::compareModels(a, b, frames);
  QVERIFY2(why.isEmpty(), qPrintable(why));
  QCOMPARE(b.actuatedDofs(), a.actuatedDofs());
}

void TestUrdfWriter::unmodelledElementsKept() {
  const std::string original = R"(<?xml version="1.0"?>
<robot name="arm">
  <!-- a comment the writer keeps -->
  <material name="blue"><color rgba="0 0 1 1"/></material>
  <link name="base"/>
  <link name="link1">
    <inertial><origin xyz="0 0 0.1"/><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.05"/></inertial>
    <visual><geometry><box size="0.1 0.1 0.2"/></geometry><material name="blue"/></visual>
    <contact><lateral_friction value="1"/></contact>
  </link>
  <link name="link2">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <link name="camera"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="link1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
    <calibration rising="0.1"/>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="link1"/><child link="link2"/><origin xyz="0 0 0.2"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.5" effort="100" velocity="1"/>
  </joint>
  <joint name="camera_joint" type="fixed"><parent link="link2"/><child link="camera"/></joint>
  <transmission name="t1"><type>transmission_interface/SimpleTransmission</type><joint name="j1"/></transmission>
  <gazebo reference="link1"><material>Gazebo/Orange</material></gazebo>
</robot>
)";
  dyn::RobotDescription d = dyn::parseUrdfString(original, "arm.urdf");
  // Edits: a heavier link 1, a wider j1 range, the camera gone.
  d.links[1].inertial->mass = 3.5;
  d.joints[0].upper = 1.5;
  d.links.erase(d.links.begin() + 3);
  d.joints.erase(d.joints.begin() + 2);
  const std::string text = dyn::writeUrdf(d, original);
  for (const char* kept : {"<!-- a comment the writer keeps -->", "<gazebo reference=\"link1\">", "Gazebo/Orange",
                           "<transmission name=\"t1\">", "transmission_interface/SimpleTransmission",
                           "<calibration rising=\"0.1\"/>", "<lateral_friction value=\"1\"/>"})
    QVERIFY2(text.find(kept) != std::string::npos, kept);
  QVERIFY2(text.find("camera") == std::string::npos, "the removed link is still there");
  const dyn::RobotDescription back = dyn::parseUrdfString(text, "arm.urdf");
  QCOMPARE(back.links[1].inertial->mass, 3.5);
  QCOMPARE(back.joints[0].upper, 1.5);
  QCOMPARE(back.links.size(), size_t(3));
  QVERIFY2(sameModel(build(d), build(back)).isEmpty(), qPrintable(sameModel(build(d), build(back))));
  // <contact> stays inside link1, after the modelled children as in the original.
  QVERIFY(text.find("<contact>") > text.find("<box"));
}

void TestUrdfWriter::checkUrdfAccepts_data() {
  QTest::addColumn<QString>("file");
  for (const char* f :
       {"ur5.urdf", "panda.urdf", "humanoid.urdf", "quadruped.urdf", "planar3.dh", "puma560.dh", "stanford_arm.dh"})
    QTest::newRow(f) << QString(DYNSCOPE_ROBOTS_DIR) + "/" + f;
  QTest::newRow("unlimited R and P") << "unlimited";
}

void TestUrdfWriter::checkUrdfAccepts() {
  QFETCH(QString, file);
  const dyn::RobotDescription d =
      file == "unlimited"
          ? dyn::parseDhString(
                "joint j1 R a=0.5\njoint j2 P alpha=1 mass=1\njoint j3 R mass=1 com=0.1,0,0 inertia=0.01,0.01,0.01\n",
                "u.dh")
          : dyn::loadDescription(file.toStdString());
  QTemporaryDir dir;
  const QString path = dir.filePath("robot.urdf");
  {
    std::ofstream out(path.toStdString());
    out << dyn::writeUrdf(d);
  }
  // Namespace-aware readers (xmllint, ElementTree, lxml; here Qt's) accept it: our elements' prefix is declared.
  QFile written(path);
  QVERIFY(written.open(QIODevice::ReadOnly));
  QXmlStreamReader xml(&written);
  while (!xml.atEnd()) xml.readNext();
  QVERIFY2(!xml.hasError(), qPrintable(QString("line %1: %2").arg(xml.lineNumber()).arg(xml.errorString())));
  const QString checker = QStandardPaths::findExecutable("check_urdf");
  if (checker.isEmpty()) QSKIP("check_urdf (Debian's liburdfdom-tools) is not installed");
  QProcess p;
  p.start(checker, {path});
  QVERIFY(p.waitForFinished(30000));
  QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
           qPrintable(p.readAllStandardOutput() + p.readAllStandardError()));
  // And it reads back as the same model (a revolute without limits is written continuous).
  const QString why = sameModel(build(d), build(dyn::parseUrdfFile(path.toStdString())));
  QVERIFY2(why.isEmpty(), qPrintable(why));
}

void TestUrdfWriter::refusalsAndLosses() {
  dyn::RobotDescription d = dyn::parseDhString("joint screw1 R a=0.5 mass=1\njoint j2 R mass=1\n", "h.dh");
  d.joints[0].kind = dyn::JointKind::Helical;
  try {
    dyn::writeUrdf(d);
    QFAIL("a helical joint was written");
  } catch (const std::invalid_argument& e) {
    QVERIFY2(std::string(e.what()).find("joint 'screw1'") != std::string::npos, e.what());
  }
  d.joints[0].kind = dyn::JointKind::Revolute;
  QVERIFY(dyn::urdfLosses(d).empty());
  d.joints[2].armature = 0.1;
  const std::vector<std::string> losses = dyn::urdfLosses(d);
  QCOMPARE(losses.size(), size_t(1));
  QVERIFY2(losses[0].find("'" + d.joints[2].name + "'") != std::string::npos, losses[0].c_str());
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::writeUrdf(d, "<mujoco/>"));
}

// Written to another folder, a relative mesh name still resolves to the same file.
void TestUrdfWriter::relativeMeshesFollowTheFile() {
  QTemporaryDir dir;
  QVERIFY(QDir(dir.path()).mkpath("robot/meshes") && QDir(dir.path()).mkpath("out/deep"));
  for (const char* mesh : {"robot/meshes/a.stl", "robot/meshes/b.stl"})
    std::ofstream(dir.filePath(mesh).toStdString()) << "solid\n";
  const std::string source = dir.filePath("robot/arm.urdf").toStdString();
  const dyn::RobotDescription d = dyn::parseUrdfString(
      "<robot name=\"r\"><link name=\"l\"><visual><geometry><mesh filename=\"meshes/a.stl\"/></geometry></visual>"
      "<collision><geometry><mesh filename=\"file://meshes/b.stl\"/></geometry></collision>"
      "<visual><geometry><mesh filename=\"package://p/m.stl\"/></geometry></visual></link></robot>",
      source);
  const std::string target = dir.filePath("out/deep/arm.urdf").toStdString();
  dyn::RobotDescription moved = d;
  dyn::rebaseMeshPaths(moved, target);
  QCOMPARE(moved.sourceFile, target);
  const auto sameFile = [&](const dyn::Geometry& before, const dyn::Geometry& after) {
    const std::string a = dyn::resolveMeshPath(before.shape.meshUri, source);
    return !a.empty() && a == dyn::resolveMeshPath(after.shape.meshUri, target);
  };
  QVERIFY2(sameFile(d.links[0].visuals[0], moved.links[0].visuals[0]), moved.links[0].visuals[0].shape.meshUri.c_str());
  QVERIFY2(sameFile(d.links[0].collisions[0], moved.links[0].collisions[0]),
           moved.links[0].collisions[0].shape.meshUri.c_str());
  QCOMPARE(moved.links[0].visuals[0].shape.meshUri, std::string("../../robot/meshes/a.stl"));
  QCOMPARE(moved.links[0].visuals[1].shape.meshUri, std::string("package://p/m.stl"));
}

QTEST_APPLESS_MAIN(TestUrdfWriter)
#include "test_urdf_writer.moc"
