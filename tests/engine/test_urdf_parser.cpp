// Tests of the URDF reader: a valid robot read field by field, and one case per error, each
// checking that the message names the file, the line and the element.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/urdf_parser.hpp"

using dyn::JointKind;
using dyn::Shape;

// Declared before the test data: moc 6.4 misreads "//" inside multi-line raw strings as a
// comment, and would not see a class that comes after such a string.
class TestUrdfParser : public QObject {
  Q_OBJECT

 private slots:
  void validRobotStructure();
  void validRobotInertials();
  void validRobotGeometry();
  void validRobotMaterials();
  void validRobotJoints();
  void otherJointKinds();
  void numbersAccepted_data();
  void numbersAccepted();
  void repeatedIdenticalMaterial();
  void parseFile();
  void fileErrors();
  void documentErrors_data();
  void documentErrors();
  void numberErrors_data();
  void numberErrors();
  void inertialErrors_data();
  void inertialErrors();
  void inertialWarnings_data();
  void inertialWarnings();
  void geometryErrors_data();
  void geometryErrors();
  void jointErrors_data();
  void jointErrors();
  void jointWarnings_data();
  void jointWarnings();
  void treeErrors_data();
  void treeErrors();

 private:
  void runErrorCase();
};

namespace {

const char* const kFile = "t.urdf";

std::string robot(const std::string& body) { return "<robot name=\"r\">\n" + body + "</robot>\n"; }

// The 1-based line of the last occurrence of marker in text (0 for an empty marker); the last,
// so that for a duplicate definition the marker finds the second one.
int lineOf(const std::string& text, const std::string& marker) {
  if (marker.empty()) return 0;
  const size_t at = text.rfind(marker);
  if (at == std::string::npos) return -1;
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

std::optional<dyn::LoadError> errorOf(const std::string& xml) {
  try {
    dyn::parseUrdfString(xml, kFile);
  } catch (const dyn::LoadError& e) {
    return e;
  }
  return std::nullopt;
}

// Empty when parsing xml fails with a LoadError on the line of marker, naming element and
// containing fragment; otherwise what went wrong.
QString errorMismatch(const std::string& xml, const std::string& marker, const std::string& element,
                      const std::string& fragment) {
  const int line = lineOf(xml, marker);
  if (line < 0) return QString("test bug: marker not found: %1").arg(marker.c_str());
  const std::optional<dyn::LoadError> e = errorOf(xml);
  if (!e) return "no LoadError thrown";
  const std::string what = e->what();
  std::string prefix = kFile;  // "file:line: element: ", as LoadError formats it
  if (line > 0) prefix += ':' + std::to_string(line);
  prefix += ": ";
  if (!element.empty()) prefix += element + ": ";
  if (what.rfind(prefix, 0) != 0) return QString("'%1' does not start with '%2'").arg(what.c_str(), prefix.c_str());
  if (what.find(fragment) == std::string::npos)
    return QString("'%1' does not contain '%2'").arg(what.c_str(), fragment.c_str());
  if (e->line() != line || e->element() != element || e->file() != kFile)
    return QString("accessors disagree with what(): line %1, element '%2'").arg(e->line()).arg(e->element().c_str());
  return {};
}

void addErrorColumns() {
  QTest::addColumn<QByteArray>("xml");
  QTest::addColumn<QByteArray>("marker");  // text on the line the error must point at
  QTest::addColumn<QByteArray>("element");
  QTest::addColumn<QByteArray>("fragment");  // part of the message
}

void row(const char* name, const std::string& xml, const std::string& marker, const std::string& element,
         const std::string& fragment) {
  QTest::newRow(name) << QByteArray::fromStdString(xml) << QByteArray::fromStdString(marker)
                      << QByteArray::fromStdString(element) << QByteArray::fromStdString(fragment);
}

// A two-link robot whose joint body (parent/child already given) is `joint`.
std::string jointRobot(const std::string& joint, const std::string& type = "revolute") {
  return robot("  <link name=\"a\"/>\n  <link name=\"b\"/>\n  <joint name=\"j\" type=\"" + type +
               "\">\n    <parent link=\"a\"/>\n    <child link=\"b\"/>\n" + joint + "  </joint>\n");
}

// One link whose <inertial> holds `mass` and `inertia` lines.
std::string inertialRobot(const std::string& mass, const std::string& inertia) {
  return robot("  <link name=\"a\">\n    <inertial>\n" + mass + inertia + "    </inertial>\n  </link>\n");
}
const std::string kMass = "      <mass value=\"1\"/>\n";
std::string inertiaLine(const std::string& xx, const std::string& yy, const std::string& zz,
                        const std::string& xy = "0") {
  return "      <inertia ixx=\"" + xx + "\" iyy=\"" + yy + "\" izz=\"" + zz + "\" ixy=\"" + xy +
         "\" ixz=\"0\" iyz=\"0\"/>\n";
}

// One link with one visual holding `geometry` (the <geometry> contents) and `extra`.
std::string visualRobot(const std::string& geometry, const std::string& extra = "") {
  return robot("  <link name=\"a\">\n    <visual>\n      <geometry>\n        " + geometry + "\n      </geometry>\n" +
               extra + "    </visual>\n  </link>\n");
}

const char* const kValidRobot = R"(<?xml version="1.0"?>
<robot name="arm">
  <material name="blue">
    <color rgba="0 0 1 1"/>
  </material>
  <link name="base">
    <inertial>
      <origin xyz="0 0 0.1" rpy="0 0 0"/>
      <mass value="2.5"/>
      <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.25"/>
    </inertial>
    <visual name="base_vis">
      <origin xyz="0 0 0.05" rpy="0 0 1.5"/>
      <geometry><cylinder radius="0.1" length="0.2"/></geometry>
      <material name="blue"/>
    </visual>
    <collision>
      <geometry><box size="0.2 0.3 0.4"/></geometry>
    </collision>
  </link>
  <link name="upper">
    <inertial>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.02"/>
    </inertial>
    <visual>
      <geometry><mesh filename="package://arm/meshes/upper.stl" scale="0.001 0.001 0.002"/></geometry>
      <material name="red"><color rgba="1 0 0 1"/></material>
    </visual>
    <visual>
      <geometry><sphere radius="0.05"/></geometry>
      <material name="wood"><texture filename="wood.png"/></material>
    </visual>
  </link>
  <link name="tool">
    <visual>
      <geometry><box size="0.01 0.01 0.01"/></geometry>
      <material name="red"/>
    </visual>
  </link>
  <link name="finger">
    <visual>
      <geometry><sphere radius="0.01"/></geometry>
      <material name="green"/>
    </visual>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/>
    <child link="upper"/>
    <origin xyz="0 0 0.2" rpy="0.1 0.2 0.3"/>
    <axis xyz="0 0 2"/>
    <limit lower="-1.5" upper="1.5" effort="30" velocity="2"/>
    <dynamics damping="0.5" friction="0.1"/>
    <safety_controller soft_lower_limit="-1.4" soft_upper_limit="1.4" k_position="10" k_velocity="1"/>
    <calibration rising="0.0"/>
  </joint>
  <joint name="wrist" type="continuous">
    <parent link="upper"/>
    <child link="tool"/>
    <origin xyz="0.3 0 0"/>
    <axis xyz="1 1 0"/>
    <limit lower="-1" upper="1" effort="5" velocity="3"/>
  </joint>
  <joint name="slide" type="prismatic">
    <parent link="tool"/>
    <child link="finger"/>
    <mimic joint="shoulder" multiplier="0.5" offset="0.01"/>
  </joint>
  <transmission name="t1">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="shoulder"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>
    <actuator name="m1"><mechanicalReduction>50</mechanicalReduction></actuator>
  </transmission>
  <gazebo reference="upper">
    <material>Gazebo/Red</material>
    <sensor name="cam" type="camera"><update_rate>30</update_rate></sensor>
  </gazebo>
  <gazebo><plugin name="p" filename="libp.so"/></gazebo>
  <ros2_control name="hw" type="system">
    <joint name="shoulder"><command_interface name="position"/></joint>
  </ros2_control>
  <material name="green">
    <color rgba="0 1 0 0.5"/>
  </material>
</robot>
)";

}  // namespace

void TestUrdfParser::validRobotStructure() {
  const dyn::RobotDescription r = dyn::parseUrdfString(kValidRobot, "arm.urdf");
  QCOMPARE(r.name, std::string("arm"));
  QCOMPARE(r.sourceFile, std::string("arm.urdf"));
  QCOMPARE(r.links.size(), size_t(4));
  QCOMPARE(r.links[0].name, std::string("base"));
  QCOMPARE(r.links[1].name, std::string("upper"));
  QCOMPARE(r.links[2].name, std::string("tool"));
  QCOMPARE(r.links[3].name, std::string("finger"));
  QCOMPARE(r.links[0].line, 6);
  QCOMPARE(r.links[1].line, lineOf(kValidRobot, "<link name=\"upper\">"));
  // The <joint> inside <transmission> and <ros2_control> are not joints.
  QCOMPARE(r.joints.size(), size_t(3));
  QCOMPARE(r.joints[0].name, std::string("shoulder"));
  QCOMPARE(r.joints[1].name, std::string("wrist"));
  QCOMPARE(r.joints[2].name, std::string("slide"));
  QCOMPARE(r.joints[0].line, lineOf(kValidRobot, "<joint name=\"shoulder\" type"));
  QCOMPARE(r.joints[2].line, lineOf(kValidRobot, "<joint name=\"slide\""));
  QVERIFY(r.frames.empty());
}

void TestUrdfParser::validRobotInertials() {
  const dyn::RobotDescription r = dyn::parseUrdfString(kValidRobot, "arm.urdf");
  QVERIFY(r.links[0].inertial.has_value());
  const dyn::InertialDesc& in = *r.links[0].inertial;
  QCOMPARE(in.mass, 2.5);
  QCOMPARE(in.ixx, 0.1);
  QCOMPARE(in.ixy, 0.01);
  QCOMPARE(in.ixz, 0.0);
  QCOMPARE(in.iyy, 0.2);
  QCOMPARE(in.iyz, 0.0);
  QCOMPARE(in.izz, 0.25);
  QCOMPARE(in.origin.xyz, dyn::Vec3<double>(0, 0, 0.1));
  QCOMPARE(in.line, 7);
  QCOMPARE(r.links[1].inertial->mass, 1.0);
  QCOMPARE(r.links[1].inertial->izz, 0.02);
  QVERIFY(!r.links[2].inertial.has_value());
}

void TestUrdfParser::validRobotGeometry() {
  const dyn::RobotDescription r = dyn::parseUrdfString(kValidRobot, "arm.urdf");
  const dyn::LinkDesc& base = r.links[0];
  QCOMPARE(base.visuals.size(), size_t(1));
  const dyn::Geometry& v = base.visuals[0];
  QCOMPARE(v.name, std::string("base_vis"));
  QCOMPARE(v.line, lineOf(kValidRobot, "<visual name=\"base_vis\">"));
  QCOMPARE(v.origin.xyz, dyn::Vec3<double>(0, 0, 0.05));
  QCOMPARE(v.origin.rpy, dyn::Vec3<double>(0, 0, 1.5));
  QVERIFY(v.shape.kind == Shape::Kind::Cylinder);
  QCOMPARE(v.shape.radius, 0.1);
  QCOMPARE(v.shape.length, 0.2);
  QCOMPARE(base.collisions.size(), size_t(1));
  QVERIFY(base.collisions[0].shape.kind == Shape::Kind::Box);
  QCOMPARE(base.collisions[0].shape.size, dyn::Vec3<double>(0.2, 0.3, 0.4));
  QCOMPARE(base.collisions[0].line, lineOf(kValidRobot, "<collision>"));

  const dyn::LinkDesc& upper = r.links[1];
  QCOMPARE(upper.visuals.size(), size_t(2));
  QVERIFY(upper.visuals[0].shape.kind == Shape::Kind::Mesh);
  QCOMPARE(upper.visuals[0].shape.meshUri, std::string("package://arm/meshes/upper.stl"));
  QCOMPARE(upper.visuals[0].shape.scale, dyn::Vec3<double>(0.001, 0.001, 0.002));
  QVERIFY(upper.visuals[1].shape.kind == Shape::Kind::Sphere);
  QCOMPARE(upper.visuals[1].shape.radius, 0.05);
  QVERIFY(upper.collisions.empty());
}

void TestUrdfParser::validRobotMaterials() {
  const dyn::RobotDescription r = dyn::parseUrdfString(kValidRobot, "arm.urdf");
  // Only top-level materials are listed, in file order.
  QCOMPARE(r.materials.size(), size_t(2));
  QCOMPARE(r.materials[0].name, std::string("blue"));
  QCOMPARE(r.materials[1].name, std::string("green"));
  QVERIFY((r.materials[1].rgba == std::array<double, 4>{0, 1, 0, 0.5}));

  const dyn::Material& blue = r.links[0].visuals[0].material;  // by reference to the top level
  QCOMPARE(blue.name, std::string("blue"));
  QVERIFY(blue.hasColor);
  QVERIFY((blue.rgba == std::array<double, 4>{0, 0, 1, 1}));
  QVERIFY(!r.links[0].collisions[0].material.hasColor);

  const dyn::Material& red = r.links[1].visuals[0].material;  // inline colour
  QVERIFY(red.hasColor);
  QVERIFY((red.rgba == std::array<double, 4>{1, 0, 0, 1}));
  const dyn::Material& wood = r.links[1].visuals[1].material;
  QCOMPARE(wood.texture, std::string("wood.png"));
  QVERIFY(!wood.hasColor);

  // A reference to a material defined inside another link's visual.
  const dyn::Material& toolRed = r.links[2].visuals[0].material;
  QCOMPARE(toolRed.name, std::string("red"));
  QVERIFY(toolRed.hasColor);
  QVERIFY((toolRed.rgba == std::array<double, 4>{1, 0, 0, 1}));
  // A reference to a top-level material written after the links.
  QVERIFY((r.links[3].visuals[0].material.rgba == std::array<double, 4>{0, 1, 0, 0.5}));
}

void TestUrdfParser::validRobotJoints() {
  const dyn::RobotDescription r = dyn::parseUrdfString(kValidRobot, "arm.urdf");
  const dyn::JointDesc& shoulder = r.joints[0];
  QVERIFY(shoulder.kind == JointKind::Revolute);
  QCOMPARE(shoulder.parent, std::string("base"));
  QCOMPARE(shoulder.child, std::string("upper"));
  QCOMPARE(shoulder.origin.xyz, dyn::Vec3<double>(0, 0, 0.2));
  QCOMPARE(shoulder.origin.rpy, dyn::Vec3<double>(0.1, 0.2, 0.3));
  QCOMPARE(shoulder.axis, dyn::Vec3<double>(0, 0, 1));  // normalised from 0 0 2
  QVERIFY(shoulder.hasLimits);
  QCOMPARE(shoulder.lower, -1.5);
  QCOMPARE(shoulder.upper, 1.5);
  QCOMPARE(shoulder.effort, 30.0);
  QCOMPARE(shoulder.velocity, 2.0);
  QCOMPARE(shoulder.damping, 0.5);
  QCOMPARE(shoulder.friction, 0.1);
  QVERIFY(!shoulder.mimic.has_value());

  const dyn::JointDesc& wrist = r.joints[1];
  QVERIFY(wrist.kind == JointKind::Continuous);
  QCOMPARE(wrist.parent, std::string("upper"));
  QCOMPARE(wrist.child, std::string("tool"));
  QCOMPARE(wrist.origin.xyz, dyn::Vec3<double>(0.3, 0, 0));
  QCOMPARE(wrist.origin.rpy, dyn::Vec3<double>(0, 0, 0));
  QVERIFY(std::abs(wrist.axis.x() - std::sqrt(0.5)) < 1e-15);
  QVERIFY(std::abs(wrist.axis.y() - std::sqrt(0.5)) < 1e-15);
  QCOMPARE(wrist.axis.z(), 0.0);
  QVERIFY(!wrist.hasLimits);  // continuous: lower/upper are ignored
  QCOMPARE(wrist.effort, 5.0);
  QCOMPARE(wrist.velocity, 3.0);

  const dyn::JointDesc& slide = r.joints[2];
  QVERIFY(slide.kind == JointKind::Prismatic);
  QCOMPARE(slide.axis, dyn::Vec3<double>(1, 0, 0));  // the URDF default
  QVERIFY(!slide.hasLimits);                         // no <limit>: leniently unlimited
  QCOMPARE(slide.velocity, 0.0);
  QVERIFY(slide.mimic.has_value());
  QCOMPARE(slide.mimic->joint, std::string("shoulder"));
  QCOMPARE(slide.mimic->multiplier, 0.5);
  QCOMPARE(slide.mimic->offset, 0.01);
}

void TestUrdfParser::otherJointKinds() {
  const std::string xml = robot(R"(  <link name="w"/>
  <link name="a"/> <link name="b"/> <link name="c"/> <link name="d"/>
  <joint name="free" type="floating"><parent link="w"/><child link="a"/></joint>
  <joint name="ball" type="spherical"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint>
  <joint name="plane" type="planar"><parent link="b"/><child link="c"/><axis xyz="0 3 4"/></joint>
  <joint name="weld" type="fixed"><parent link="c"/><child link="d"/><limit lower="1" upper="2"/></joint>
)");
  const dyn::RobotDescription r = dyn::parseUrdfString(xml, kFile);
  QCOMPARE(r.joints.size(), size_t(4));
  QVERIFY(r.joints[0].kind == JointKind::Floating);
  QVERIFY(r.joints[1].kind == JointKind::Spherical);
  QCOMPARE(r.joints[1].axis, dyn::Vec3<double>(1, 0, 0));  // no axis used: a zero axis is ignored
  QVERIFY(r.joints[2].kind == JointKind::Planar);
  QCOMPARE(r.joints[2].axis, dyn::Vec3<double>(0, 0.6, 0.8));
  QVERIFY(r.joints[3].kind == JointKind::Fixed);
  QVERIFY(!r.joints[3].hasLimits);
}

void TestUrdfParser::numbersAccepted_data() {
  QTest::addColumn<QByteArray>("xyz");
  QTest::addColumn<double>("x");
  QTest::addColumn<double>("y");
  QTest::addColumn<double>("z");
  QTest::newRow("plain") << QByteArray("1 2 3") << 1.0 << 2.0 << 3.0;
  QTest::newRow("exponents") << QByteArray("1e-3 -2.5E2 .5") << 1e-3 << -250.0 << 0.5;
  QTest::newRow("plus sign") << QByteArray("+1 +0.5 -0") << 1.0 << 0.5 << 0.0;
  QTest::newRow("extra whitespace") << QByteArray("  1\t2\n 3  ") << 1.0 << 2.0 << 3.0;
}

void TestUrdfParser::numbersAccepted() {
  QFETCH(QByteArray, xyz);
  QFETCH(double, x);
  QFETCH(double, y);
  QFETCH(double, z);
  const dyn::RobotDescription r =
      dyn::parseUrdfString(jointRobot("    <origin xyz=\"" + xyz.toStdString() + "\"/>\n"), kFile);
  QCOMPARE(r.joints[0].origin.xyz, dyn::Vec3<double>(x, y, z));
}

void TestUrdfParser::repeatedIdenticalMaterial() {
  // xacro includes often repeat a material; an identical repeat is harmless.
  const std::string xml = robot(R"(  <material name="m"><color rgba="1 0 0 1"/></material>
  <material name="m"><color rgba="1 0 0 1"/></material>
  <link name="a"/>
)");
  QCOMPARE(dyn::parseUrdfString(xml, kFile).materials.size(), size_t(1));
}

void TestUrdfParser::parseFile() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::string path = dir.filePath("arm.urdf").toStdString();
  std::ofstream(path) << kValidRobot;
  const dyn::RobotDescription r = dyn::parseUrdfFile(path);
  QCOMPARE(r.sourceFile, path);
  QCOMPARE(r.links.size(), size_t(4));

  // Errors inside a file name that file.
  const std::string bad = dir.filePath("bad.urdf").toStdString();
  std::ofstream(bad) << robot("  <link name=\"a\"/>\n  <link/>\n");
  try {
    dyn::parseUrdfFile(bad);
    QFAIL("no LoadError thrown");
  } catch (const dyn::LoadError& e) {
    QCOMPARE(std::string(e.what()), bad + ":3: <link>: missing name attribute");
  }
}

void TestUrdfParser::fileErrors() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::string missing = dir.filePath("missing.urdf").toStdString();
  try {
    dyn::parseUrdfFile(missing);
    QFAIL("no LoadError for a missing file");
  } catch (const dyn::LoadError& e) {
    QCOMPARE(e.file(), missing);
    QCOMPARE(e.line(), 0);
    QVERIFY2(std::string(e.what()).find("cannot open file") != std::string::npos, e.what());
  }
  try {
    dyn::parseUrdfFile(dir.path().toStdString());
    QFAIL("no LoadError for a directory");
  } catch (const dyn::LoadError& e) {
    QVERIFY2(std::string(e.what()).find("is a directory") != std::string::npos, e.what());
  }
}

void TestUrdfParser::runErrorCase() {
  QFETCH(QByteArray, xml);
  QFETCH(QByteArray, marker);
  QFETCH(QByteArray, element);
  QFETCH(QByteArray, fragment);
  const QString mismatch =
      errorMismatch(xml.toStdString(), marker.toStdString(), element.toStdString(), fragment.toStdString());
  QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
}

void TestUrdfParser::documentErrors_data() {
  addErrorColumns();
  row("malformed XML", "<robot name=\"r\">\n  <link name=\"a\">\n</robot>\n", "</robot>", "",
      "malformed XML: </robot> on line 3 closes <link name='a'> opened on line 2");
  row("unquoted attribute", "<robot name=\"r\">\n\n  <link name=a/>\n</robot>\n", "<link", "", "malformed XML");
  row("empty document", "", "", "", "malformed XML: the file is empty");
  row("root not robot", "<?xml version=\"1.0\"?>\n<model name=\"r\">\n</model>\n", "<model", "<model>",
      "the root element must be <robot>");
  row("no links", "<robot name=\"r\">\n</robot>\n", "<robot", "robot 'r'", "no <link>");
  row("link without name", robot("  <link name=\"a\"/>\n  <link>\n  </link>\n"), "<link>", "<link>",
      "missing name attribute");
  row("joint without name", robot(R"(  <link name="a"/> <link name="b"/>
  <joint type="fixed">
    <parent link="a"/><child link="b"/>
  </joint>
)"),
      "<joint", "<joint>", "missing name attribute");
  row("duplicate link", robot("  <link name=\"a\"/>\n  <link name=\"b\"/>\n  <link name=\"a\"/>\n"),
      "<link name=\"a\"/>", "link 'a'", "duplicate link name (first defined on line 2)");
  row("duplicate joint", robot(R"(  <link name="a"/> <link name="b"/> <link name="c"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j" type="fixed"><parent link="b"/><child link="c"/></joint>
)"),
      "<joint name=\"j\"", "joint 'j'", "duplicate joint name (first defined on line 3)");
  // An undefined material, inverted or negative limits: warnings now (test_urdf_cosmetic.cpp).
  row("conflicting material", robot(R"(  <material name="m"><color rgba="1 0 0 1"/></material>
  <material name="m"><color rgba="0 1 0 1"/></material>
  <link name="a"/>
)"),
      "<material name=\"m\">", "material 'm'", "defined again with a different color or texture");
  row("colour out of range",
      robot("  <material name=\"m\">\n    <color rgba=\"255 0 0 1\"/>\n  </material>\n  <link name=\"a\"/>\n"),
      "<color", "material 'm'", "<color> rgba=\"255 0 0 1\": components must be in [0, 1]");
}
void TestUrdfParser::documentErrors() { runErrorCase(); }

void TestUrdfParser::numberErrors_data() {
  addErrorColumns();
  const auto origin = [](const std::string& xyz) { return jointRobot("    <origin xyz=\"" + xyz + "\"/>\n"); };
  row("nan", origin("1 nan 2"), "<origin", "joint 'j'", "<origin> xyz=\"1 nan 2\": 'nan' is not a finite number");
  row("inf", origin("1 2 -inf"), "<origin", "joint 'j'", "'-inf' is not a finite number");
  row("overflow", origin("1 2 1e999"), "<origin", "joint 'j'", "'1e999' is not a finite number");
  row("text", origin("1 two 3"), "<origin", "joint 'j'", "'two' is not a finite number");
  row("trailing text", origin("1 2 3m"), "<origin", "joint 'j'", "'3m' is not a finite number");
  row("commas", origin("1,2,3"), "<origin", "joint 'j'", "'1,2,3' is not a finite number");
  row("hex", origin("0x10 0 0"), "<origin", "joint 'j'", "'0x10' is not a finite number");
  row("too few", origin("1 2"), "<origin", "joint 'j'", "<origin> xyz=\"1 2\": expected 3 numbers, found 2");
  row("too many", origin("1 2 3 4"), "<origin", "joint 'j'", "expected 3 numbers, found 4");
  row("empty", origin(""), "<origin", "joint 'j'", "expected 3 numbers, found 0");
  row("limit inf", jointRobot("    <limit lower=\"-1\" upper=\"inf\"/>\n"), "<limit", "joint 'j'",
      "<limit> upper=\"inf\": 'inf' is not a finite number");
  row("two masses", inertialRobot("      <mass value=\"1 2\"/>\n", inertiaLine("1", "1", "1")), "<mass",
      "link 'a' <inertial>", "<mass> value=\"1 2\": expected 1 number, found 2");
  row("rgba with 3 numbers",
      visualRobot("<box size=\"1 1 1\"/>",
                  "      <material name=\"m\">\n        <color rgba=\"1 0 0\"/>\n"
                  "      </material>\n"),
      "<color", "link 'a' <visual>", "expected 4 numbers, found 3");
}
void TestUrdfParser::numberErrors() { runErrorCase(); }

void TestUrdfParser::inertialErrors_data() {
  addErrorColumns();
  const std::string ctx = "link 'a' <inertial>";
  row("negative mass", inertialRobot("      <mass value=\"-1\"/>\n", inertiaLine("1", "1", "1")), "<mass", ctx,
      "<mass> value=\"-1\": negative mass");
  row("nan izz", inertialRobot(kMass, inertiaLine("1", "1", "NaN")), "<inertia", ctx, "'NaN' is not a finite number");
  row("missing inertia attribute",
      inertialRobot(kMass, "      <inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\"/>\n"), "<inertia", ctx,
      "<inertia> has no 'iyz' attribute");
  row("missing mass", inertialRobot("", inertiaLine("1", "1", "1")), "<inertial>", ctx, "missing <mass>");
}
void TestUrdfParser::inertialErrors() { runErrorCase(); }

// Implausible but usable inertias are no longer errors (issue 13): the file loads and the model
// checker names the <inertia> line (here on a moving link, so they are warnings).
void TestUrdfParser::inertialWarnings_data() {
  QTest::addColumn<QByteArray>("inertia");
  QTest::addColumn<QByteArray>("code");
  QTest::addColumn<QByteArray>("fragment");
  QTest::newRow("negative ixx") << QByteArray::fromStdString(inertiaLine("-0.1", "1", "1"))
                                << QByteArray("inertia.not_psd") << QByteArray("(-0.1, 1, 1) kg m^2");
  QTest::newRow("not positive semi-definite") << QByteArray::fromStdString(inertiaLine("1", "1", "1", "2"))
                                              << QByteArray("inertia.not_psd") << QByteArray("(-1, 1, 3) kg m^2");
  QTest::newRow("triangle inequality") << QByteArray::fromStdString(inertiaLine("1", "1", "2.1"))
                                       << QByteArray("inertia.triangle") << QByteArray("falls 0.1 short of 2.1");
}

void TestUrdfParser::inertialWarnings() {
  QFETCH(QByteArray, inertia);
  QFETCH(QByteArray, code);
  QFETCH(QByteArray, fragment);
  // Link a on a revolute joint below a fixed base link, so its inertia enters the dynamics.
  const std::string xml = robot("  <link name=\"base\"/>\n  <joint name=\"j\" type=\"revolute\">\n"
                                "    <parent link=\"base\"/><child link=\"a\"/>\n"
                                "    <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n  </joint>\n"
                                "  <link name=\"a\">\n    <inertial>\n" +
                                kMass + inertia.toStdString() + "    </inertial>\n  </link>\n");
  QVERIFY(!errorOf(xml));
  const dyn::Model model = dyn::buildModel(dyn::parseUrdfString(xml, kFile));
  const auto f = std::find_if(model.findings.begin(), model.findings.end(),
                              [&](const dyn::Finding& x) { return x.code == code.toStdString(); });
  QVERIFY2(f != model.findings.end(), code.constData());
  QCOMPARE(f->severity, dyn::Severity::Warning);
  QCOMPARE(f->file, std::string(kFile));
  QCOMPARE(f->line, lineOf(xml, "<inertia "));
  QCOMPARE(f->element, std::string("link 'a' <inertial>"));
  QCOMPARE(f->link, std::string("a"));
  QCOMPARE(f->joint, std::string("j"));
  QCOMPARE(f->body, 1);
  QVERIFY2(f->message.find(fragment.toStdString()) != std::string::npos, f->message.c_str());
}

void TestUrdfParser::geometryErrors_data() {
  addErrorColumns();
  const std::string ctx = "link 'a' <visual>";
  row("negative box size", visualRobot("<box size=\"1 -2 1\"/>"), "<box", ctx,
      "<box> size=\"1 -2 1\": must not be negative");
  row("negative cylinder radius", visualRobot("<cylinder radius=\"-0.1\" length=\"1\"/>"), "<cylinder", ctx,
      "<cylinder> radius=\"-0.1\": must not be negative");
  row("negative cylinder length", visualRobot("<cylinder radius=\"0.1\" length=\"-1\"/>"), "<cylinder", ctx,
      "<cylinder> length=\"-1\": must not be negative");
  row("negative sphere radius", visualRobot("<sphere radius=\"-1\"/>"), "<sphere", ctx,
      "<sphere> radius=\"-1\": must not be negative");
  row("mesh without filename", visualRobot("<mesh scale=\"1 1 1\"/>"), "<mesh", ctx, "<mesh> has no filename");
  row("mesh with empty filename", visualRobot("<mesh filename=\"\"/>"), "<mesh", ctx, "<mesh> has no filename");
  row("unknown shape", visualRobot("<capsule radius=\"1\" length=\"1\"/>"), "<capsule", ctx, "unknown shape <capsule>");
  row("empty geometry", visualRobot(""), "<geometry>", ctx, "<geometry> has no shape");
  row("visual without geometry", robot("  <link name=\"a\">\n    <visual>\n    </visual>\n  </link>\n"), "<visual>",
      ctx, "missing <geometry>");
  row("collision box", robot(R"(  <link name="a">
    <collision>
      <geometry>
        <box size="1 1"/>
      </geometry>
    </collision>
  </link>
)"),
      "<box", "link 'a' <collision>", "expected 3 numbers, found 2");
}
void TestUrdfParser::geometryErrors() { runErrorCase(); }

void TestUrdfParser::jointErrors_data() {
  addErrorColumns();
  // A joint j between links a and b whose <parent>/<child> lines are `refs`.
  const auto refsRobot = [](const std::string& refs, const std::string& type = " type=\"fixed\"") {
    return robot("  <link name=\"a\"/>\n  <link name=\"b\"/>\n  <joint name=\"j\"" + type + ">\n" + refs +
                 "  </joint>\n");
  };
  row("negative damping", jointRobot("    <dynamics damping=\"-0.1\"/>\n"), "<dynamics", "joint 'j'",
      "<dynamics> damping=\"-0.1\": must not be negative");
  row("zero axis", jointRobot("    <axis xyz=\"0 0 0\"/>\n"), "<axis", "joint 'j'", "the axis must not be zero");
  row("unknown type", jointRobot("", "hinge"), "<joint", "joint 'j'", "unknown joint type 'hinge'");
  row("helical is not URDF", jointRobot("", "helical"), "<joint", "joint 'j'", "unknown joint type 'helical'");
  row("missing type", refsRobot("    <parent link=\"a\"/><child link=\"b\"/>\n", ""), "<joint", "joint 'j'",
      "missing type attribute");
  row("missing parent", refsRobot("    <child link=\"b\"/>\n"), "<joint", "joint 'j'", "missing <parent link=\"...\">");
  row("missing child", refsRobot("    <parent link=\"a\"/>\n"), "<joint", "joint 'j'", "missing <child link=\"...\">");
  row("child without link attribute", refsRobot("    <parent link=\"a\"/>\n    <child name=\"b\"/>\n"), "<child",
      "joint 'j'", "missing <child link=\"...\">");
  row("unknown parent link", refsRobot("    <parent link=\"x\"/><child link=\"b\"/>\n"), "<joint", "joint 'j'",
      "parent link 'x' does not exist");
  row("unknown child link", refsRobot("    <parent link=\"a\"/><child link=\"y\"/>\n"), "<joint", "joint 'j'",
      "child link 'y' does not exist");
}
void TestUrdfParser::jointErrors() { runErrorCase(); }

// What a file means but does not say well loads with a warning at the element's line (issue 13):
// partial <limit> elements keep the values URDF semantics give (a missing bound is 0; none at all
// is read as unlimited), and a <mimic> that names no movable joint is dropped.
void TestUrdfParser::jointWarnings_data() {
  QTest::addColumn<QByteArray>("xml");
  QTest::addColumn<QByteArray>("marker");  // on the finding's line
  QTest::addColumn<QByteArray>("code");
  QTest::addColumn<QByteArray>("fragment");
  QTest::addColumn<double>("lower");  // of joint j as loaded
  QTest::addColumn<double>("upper");
  QTest::addColumn<int>("mimics");  // relations kept
  const double inf = std::numeric_limits<double>::infinity();
  const auto add = [](const char* name, const std::string& xml, const char* marker, const char* code,
                      const char* fragment, double lower, double upper, int mimics) {
    QTest::newRow(name) << QByteArray::fromStdString(xml) << QByteArray(marker) << QByteArray(code)
                        << QByteArray(fragment) << lower << upper << mimics;
  };
  add("limit without lower and upper", jointRobot("    <limit effort=\"3\" velocity=\"2\"/>\n"), "<limit",
      "limits.partial", "the joint is taken as unlimited", -inf, inf, 0);
  add("lower alone", jointRobot("    <limit lower=\"-1\" effort=\"3\" velocity=\"2\"/>\n"), "<limit", "limits.partial",
      "URDF's default upper = 0 applies, so the range is [-1, 0]", -1, 0, 0);
  add("upper alone (prismatic)", jointRobot("    <limit upper=\"0.2\" effort=\"3\" velocity=\"2\"/>\n", "prismatic"),
      "<limit", "limits.partial", "URDF's default lower = 0 applies, so the range is [0, 0.2]", 0, 0.2, 0);
  // A second movable joint k (b -> c) to mimic; j mimics something that is not one.
  const auto mimicRobot = [](const std::string& mimic, const std::string& kType = "revolute") {
    return robot(
        "  <link name=\"a\"/>\n  <link name=\"b\"/>\n  <link name=\"c\"/>\n"
        "  <joint name=\"j\" type=\"revolute\">\n    <parent link=\"a\"/>\n    <child link=\"b\"/>\n"
        "    <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n" +
        mimic + "  </joint>\n  <joint name=\"k\" type=\"" + kType +
        "\">\n    <parent link=\"b\"/>\n    <child link=\"c\"/>\n"
        "    <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n  </joint>\n");
  };
  add("mimic of a missing joint", mimicRobot("    <mimic joint=\"nope\"/>\n"), "<mimic", "mimic.dropped",
      "mimics joint 'nope', which does not exist; the <mimic> is dropped", -1, 1, 0);
  add("mimic of a fixed joint", mimicRobot("    <mimic joint=\"k\"/>\n", "fixed"), "<mimic", "mimic.dropped",
      "mimics joint 'k', which is fixed; the <mimic> is dropped", -1, 1, 0);
  add("mimic without joint", mimicRobot("    <mimic multiplier=\"2\"/>\n"), "<mimic", "mimic.dropped",
      "<mimic> names no joint", -1, 1, 0);
  add("mimic of itself", mimicRobot("    <mimic joint=\"j\"/>\n"), "<mimic", "mimic.dropped", "joint 'j' mimics itself",
      -1, 1, 0);
  add("mimic of a planar joint", mimicRobot("    <mimic joint=\"k\"/>\n", "planar"), "<mimic", "mimic.dropped",
      "a mimic relation needs two joints of one degree of freedom each", -1, 1, 0);
  add("a kept mimic", mimicRobot("    <mimic joint=\"k\" multiplier=\"2\"/>\n"), "<mimic", "mimic.enforced",
      "follows joint 'k'", -1, 1, 1);
}

void TestUrdfParser::jointWarnings() {
  QFETCH(QByteArray, xml);
  QFETCH(QByteArray, marker);
  QFETCH(QByteArray, code);
  QFETCH(QByteArray, fragment);
  QFETCH(double, lower);
  QFETCH(double, upper);
  QFETCH(int, mimics);
  const dyn::Model model = dyn::buildModel(dyn::parseUrdfString(xml.toStdString(), kFile));  // loads
  const auto f = std::find_if(model.findings.begin(), model.findings.end(),
                              [&](const dyn::Finding& x) { return x.code == code.toStdString(); });
  QVERIFY2(f != model.findings.end(), code.constData());
  QCOMPARE(f->severity, code == "mimic.enforced" ? dyn::Severity::Info : dyn::Severity::Warning);
  QCOMPARE(f->file, std::string(kFile));
  QCOMPARE(f->line, lineOf(xml.toStdString(), marker.toStdString()));
  QCOMPARE(f->joint, std::string("j"));
  QCOMPARE(f->body, model.jointIndex("j"));
  QVERIFY2(f->message.find(fragment.toStdString()) != std::string::npos, f->message.c_str());
  QVERIFY(!f->hint.empty());
  const int q = model.joints[model.jointIndex("j")].idx_q;
  QCOMPARE(model.lowerLimit[q], lower);
  QCOMPARE(model.upperLimit[q], upper);
  QCOMPARE(int(model.mimics.size()), mimics);
}

void TestUrdfParser::treeErrors_data() {
  addErrorColumns();
  // A link may be the child of two joints (a closed loop, docs/loops.md), but a and b both lack a parent.
  row("child of two joints from two roots", robot(R"(  <link name="a"/> <link name="b"/> <link name="c"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="c"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>
)"),
      "<link name=\"a\"/> <link name=\"b\"/>", "link 'b'", "the robot has several root links ('a', 'b')");
  // No root at all: every link is some joint's child.
  row("cycle through every link", robot(R"(  <link name="a"/>
  <link name="b"/>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>
  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
)"),
      "name=\"j2\"", "joint 'j2'", "the joints form a cycle: 'j2' -> 'j1'");
  // One root, but b and c hang on each other instead of on it.
  row("cycle beside the root", robot(R"(  <link name="root"/>
  <link name="a"/> <link name="b"/> <link name="c"/>
  <joint name="j0" type="fixed"><parent link="root"/><child link="a"/></joint>
  <joint name="jb" type="fixed"><parent link="c"/><child link="b"/></joint>
  <joint name="jc" type="fixed"><parent link="b"/><child link="c"/></joint>
)"),
      "name=\"jb\"", "joint 'jb'", "the joints form a cycle: 'jb' -> 'jc'");
  row("joint to itself", robot(R"(  <link name="a"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="a"/></joint>
)"),
      "<joint", "joint 'j'", "connects link 'a' to itself");
  row("several roots", robot(R"(  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <link name="d"/>
  <joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="c"/><child link="d"/></joint>
)"),
      "name=\"c\"", "link 'c'", "the robot has several root links ('a', 'c'); all links must form one tree");
  row("lone link", robot(R"(  <link name="a"/>
  <link name="b"/>
  <link name="lone"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
)"),
      "name=\"lone\"", "link 'lone'", "several root links ('a', 'lone')");
}
void TestUrdfParser::treeErrors() { runErrorCase(); }

QTEST_APPLESS_MAIN(TestUrdfParser)
#include "test_urdf_parser.moc"
