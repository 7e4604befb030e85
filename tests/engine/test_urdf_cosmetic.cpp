// Issue 23: URDF files whose only defects are cosmetic load, each with its finding at the right
// line, and compute as the same file without the defect; truly invalid files stay errors, in plain
// words at the right line. Files: tests/data/urdf_cosmetic/.
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/io/mesh_path.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/urdf_parser.hpp"
#include "dynscope/model/data.hpp"

using dyn::Finding;
using dyn::Severity;

// Declared before the raw strings below (moc misreads "//" inside them).
class TestUrdfCosmetic : public QObject {
  Q_OBJECT

 private slots:
  void undefinedMaterial();
  void emptyTopLevelMaterial();
  void everyFindingLocated_data();
  void everyFindingLocated();
  void negativeEffortAndVelocity();
  void invertedLimits();
  void invertedAgainstDefaultBound();
  void worldParent_data();
  void worldParent();
  void explicitWorldLinkUnchanged();
  void twoRobotsOnTheWorld();
  void invalidFiles_data();
  void invalidFiles();
  void xmlErrorsInWords_data();
  void xmlErrorsInWords();
  void closedLoopsStillLoad_data();
  void closedLoopsStillLoad();
  void missingMeshInFoundPackage();
};

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string dataPath(const std::string& file) { return std::string(DYNSCOPE_TEST_DATA_DIR) + "/urdf_cosmetic/" + file; }

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The 1-based line of the n-th occurrence of marker (-1 when there is none).
int lineOf(const std::string& text, const std::string& marker, int n = 1) {
  size_t at = std::string::npos;
  for (size_t from = 0; n-- > 0; from = at + 1)
    if ((at = text.find(marker, from)) == std::string::npos) return -1;
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

// text with every `from` replaced by `to` (the test's twin without the defect).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::vector<const Finding*> findingsOf(const std::vector<Finding>& all, const std::string& code) {
  std::vector<const Finding*> out;
  for (const Finding& f : all)
    if (f.code == code) out.push_back(&f);
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A configuration, velocity and acceleration drawn at random (a floating joint's quaternion normalised).
struct State {
  Eigen::VectorXd q, qd, qdd;
};
State randomState(const dyn::Model& m, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  State s{m.neutral(), Eigen::VectorXd(m.nv), Eigen::VectorXd(m.nv)};
  for (int k = 0; k < m.nq; ++k) s.q[k] = U(rng);
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[i].type == dyn::JointType::Floating) s.q.segment<4>(m.joints[i].idx_q + 3).normalize();
  for (int k = 0; k < m.nv; ++k) s.qd[k] = U(rng), s.qdd[k] = U(rng);
  return s;
}

// Empty when RNEA gives the same torques on both models at random states (their dofs numbered alike).
QString sameInverseDynamics(const dyn::Model& a, const dyn::Model& b) {
  if (a.nq != b.nq || a.nv != b.nv)
    return QString("nq/nv differ: %1/%2 vs %3/%4").arg(a.nq).arg(a.nv).arg(b.nq).arg(b.nv);
  std::mt19937 rng(23);
  dyn::Data da(a), db(b);
  for (int sample = 0; sample < 5; ++sample) {
    const State s = randomState(a, rng);
    const Eigen::VectorXd ta = dyn::rnea(a, da, s.q, s.qd, s.qdd), tb = dyn::rnea(b, db, s.q, s.qd, s.qdd);
    const double err = (ta - tb).cwiseAbs().maxCoeff();
    if (!(err <= 1e-12 * std::max(1.0, tb.cwiseAbs().maxCoeff())))
      return QString("tau differs by %1 at sample %2").arg(err).arg(sample);
    if (!ta.allFinite()) return "tau is not finite";
  }
  return {};
}

#define CHECK_EMPTY(expr)                     \
  do {                                        \
    const QString m_ = (expr);                \
    if (!m_.isEmpty()) QFAIL(qPrintable(m_)); \
  } while (0)

std::optional<dyn::LoadError> loadErrorOf(const std::string& path) {
  try {
    dyn::loadModel(path);
  } catch (const dyn::LoadError& e) {
    return e;
  }
  return std::nullopt;
}

std::optional<dyn::LoadError> parseErrorOf(const std::string& xml) {
  try {
    dyn::parseUrdfString(xml, "t.urdf");
  } catch (const dyn::LoadError& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace

void TestUrdfCosmetic::undefinedMaterial() {
  const std::string path = dataPath("undefined_material.urdf"), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);  // loads
  const auto found = findingsOf(model.findings, "material.undefined");
  QCOMPARE(int(found.size()), 2);  // one per name: grey (twice), orange
  const auto byName = [&](const char* name) {
    const auto it = std::find_if(found.begin(), found.end(),
                                 [&](const Finding* f) { return contains(f->message, "'" + std::string(name) + "'"); });
    return it == found.end() ? nullptr : *it;
  };
  const Finding* grey = byName("grey");
  const Finding* orange = byName("orange");
  QVERIFY(grey && orange);
  QCOMPARE(grey->severity, Severity::Warning);
  QCOMPARE(grey->file, path);
  QCOMPARE(grey->line, lineOf(text, "<material name=\"grey\"/>"));  // the first reference
  QCOMPARE(grey->element, std::string("link 'base_link' <visual>"));
  QCOMPARE(grey->link, std::string("base_link"));
  QCOMPARE(grey->body, 0);
  QVERIFY2(contains(grey->message, "2 references, the first here"), grey->message.c_str());
  QVERIFY2(contains(grey->message, "default colour"), grey->message.c_str());
  QVERIFY(!grey->hint.empty());
  QCOMPARE(orange->line, lineOf(text, "<material name=\"orange\"/>"));
  QCOMPARE(orange->link, std::string("upper_arm"));
  QCOMPARE(orange->body, model.jointIndex("shoulder"));
  QVERIFY2(!contains(orange->message, "references"), orange->message.c_str());
  // The visuals keep the default colour.
  QCOMPARE(int(model.geometries.size()), 3);
  for (const dyn::GeometryObject& g : model.geometries) QVERIFY(!g.material.hasColor);
  // The same file with the materials defined: no finding, coloured visuals, the same dynamics.
  const std::string defined =
      replaced(text, "<robot name=\"undefined_material\">",
               "<robot name=\"undefined_material\"><material name=\"grey\"><color rgba=\"0.5 0.5 0.5 1\"/></material>"
               "<material name=\"orange\"><color rgba=\"1 0.5 0 1\"/></material>");
  const dyn::Model twin = dyn::buildModel(dyn::parseUrdfString(defined, path));
  QVERIFY(findingsOf(twin.findings, "material.undefined").empty());
  for (const dyn::GeometryObject& g : twin.geometries) QVERIFY(g.material.hasColor);
  CHECK_EMPTY(sameInverseDynamics(model, twin));
}

// A top-level <material name="grey"/> defines nothing: one warning at it, none at its references.
void TestUrdfCosmetic::emptyTopLevelMaterial() {
  const std::string xml = R"(<robot name="r">
  <material name="grey"/>
  <link name="a">
    <visual><geometry><box size="1 1 1"/></geometry><material name="grey"/></visual>
    <visual><geometry><sphere radius="1"/></geometry><material name="grey"/></visual>
  </link>
</robot>
)";
  const dyn::RobotDescription robot = dyn::parseUrdfString(xml, "t.urdf");
  const auto found = findingsOf(robot.findings, "material.undefined");
  QCOMPARE(int(found.size()), 1);
  QCOMPARE(found[0]->severity, Severity::Warning);
  QCOMPARE(found[0]->line, lineOf(xml, "<material name=\"grey\"/>"));
  QCOMPARE(found[0]->element, std::string("material 'grey'"));
  QVERIFY2(contains(found[0]->message, "has no <color> and no <texture>"), found[0]->message.c_str());
  for (const dyn::Geometry& g : robot.links[0].visuals) QVERIFY(!g.material.hasColor);
}

// Every finding on the files that load has the file, a line and a body to select.
void TestUrdfCosmetic::everyFindingLocated_data() {
  QTest::addColumn<QString>("file");
  for (const char* f : {"undefined_material.urdf", "negative_effort.urdf", "inverted_limits.urdf", "world_fixed.urdf",
                        "world_floating.urdf", "world_revolute.urdf"})
    QTest::newRow(f) << QString(f);
}

void TestUrdfCosmetic::everyFindingLocated() {
  QFETCH(QString, file);
  const std::string path = dataPath(file.toStdString());
  for (const bool floating : {false, true}) {
    const dyn::Model model = dyn::loadModel(path, {.floatingBase = floating});
    QVERIFY(!model.findings.empty());
    for (const Finding& f : model.findings) {
      QVERIFY2(f.line > 0 && f.file == path && f.body >= 0, f.text().c_str());
      QVERIFY2(f.severity != Severity::Error, f.text().c_str());
    }
  }
}

void TestUrdfCosmetic::negativeEffortAndVelocity() {
  const std::string path = dataPath("negative_effort.urdf"), text = readText(path);
  const dyn::RobotDescription robot = dyn::parseUrdfFile(path);
  const dyn::Model model = dyn::buildModel(robot);
  const auto found = findingsOf(model.findings, "limits.negative");
  QCOMPARE(int(found.size()), 2);
  const Finding& shoulder = *found[0];
  const Finding& elbow = *found[1];
  QCOMPARE(shoulder.severity, Severity::Warning);
  QCOMPARE(shoulder.file, path);
  QCOMPARE(shoulder.line, lineOf(text, "<limit lower=\"-3\" upper=\"3\" effort=\"-1.0\""));
  QCOMPARE(shoulder.element, std::string("joint 'shoulder' <limit>"));
  QCOMPARE(shoulder.joint, std::string("shoulder"));
  QCOMPARE(shoulder.body, model.jointIndex("shoulder"));
  QVERIFY2(contains(shoulder.message, "effort=\"-1.0\" is negative: taken as no effort limit"),
           shoulder.message.c_str());
  QCOMPARE(elbow.line, lineOf(text, "<limit lower=\"-2\" upper=\"2\" effort=\"-1\" velocity=\"-1\""));
  QCOMPARE(elbow.joint, std::string("elbow"));
  QVERIFY2(contains(elbow.message, "effort=\"-1\" and velocity=\"-1\" are negative"), elbow.message.c_str());
  QVERIFY2(contains(elbow.message, "no effort limit and no velocity limit"), elbow.message.c_str());
  // Not also reported as zero effort or velocity.
  QVERIFY(findingsOf(model.findings, "limits.zero_effort_velocity").empty());
  // The description keeps the values as written (as urdfdom does); the model has no such limits.
  QCOMPARE(robot.joints[0].effort, -1.0);
  const int s = model.joints[model.jointIndex("shoulder")].idx_v, e = model.joints[model.jointIndex("elbow")].idx_v;
  QCOMPARE(model.effortLimit[s], kInf);
  QCOMPARE(model.velocityLimit[s], 2.0);
  QCOMPARE(model.effortLimit[e], kInf);
  QCOMPARE(model.velocityLimit[e], kInf);
  QCOMPARE(model.lowerLimit[s], -3.0);  // position limits stay
  QCOMPARE(model.upperLimit[e], 2.0);
  // Like the same file that writes 0 ("not given"): the same limits and dynamics.
  const dyn::Model twin = dyn::buildModel(
      dyn::parseUrdfString(replaced(replaced(text, "effort=\"-1.0\"", "effort=\"0\""), "\"-1\"", "\"0\""), path));
  QVERIFY(findingsOf(twin.findings, "limits.negative").empty());
  QVERIFY(twin.effortLimit == model.effortLimit && twin.velocityLimit == model.velocityLimit);
  CHECK_EMPTY(sameInverseDynamics(model, twin));
}

void TestUrdfCosmetic::invertedLimits() {
  const std::string path = dataPath("inverted_limits.urdf"), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);
  const auto found = findingsOf(model.findings, "limits.inverted");
  QCOMPARE(int(found.size()), 1);
  const Finding& f = *found[0];
  QCOMPARE(f.severity, Severity::Warning);
  QCOMPARE(f.file, path);
  QCOMPARE(f.line, lineOf(text, "<limit lower=\"2.775\""));
  QCOMPARE(f.element, std::string("joint 'pan' <limit>"));
  QCOMPARE(f.joint, std::string("pan"));
  QCOMPARE(f.body, model.jointIndex("pan"));
  QVERIFY2(contains(f.message, "lower 2.775 is above upper -2.775"), f.message.c_str());
  QVERIFY2(contains(f.message, "the position limits are ignored, the joint is unlimited"), f.message.c_str());
  QVERIFY2(contains(f.hint, "the other way round (lower=\"-2.775\" upper=\"2.775\")"), f.hint.c_str());
  const int pan = model.joints[model.jointIndex("pan")].idx_q, tilt = model.joints[model.jointIndex("tilt")].idx_q;
  QCOMPARE(model.lowerLimit[pan], -kInf);
  QCOMPARE(model.upperLimit[pan], kInf);
  QCOMPARE(model.effortLimit[pan], 3.0);  // effort and velocity still apply
  QCOMPARE(model.velocityLimit[pan], 1.5);
  QCOMPARE(model.lowerLimit[tilt], -0.8);
  QCOMPARE(model.upperLimit[tilt], 0.5);
  // As the same file without lower and upper on the pan joint.
  const dyn::Model twin =
      dyn::buildModel(dyn::parseUrdfString(replaced(text, "lower=\"2.775\" upper=\"-2.775\" ", ""), path));
  QVERIFY(findingsOf(twin.findings, "limits.inverted").empty());
  QVERIFY(twin.lowerLimit == model.lowerLimit && twin.upperLimit == model.upperLimit);
  CHECK_EMPTY(sameInverseDynamics(model, twin));
}

// lower="0.5" alone is above URDF's default upper 0: one limits.inverted that says so, no limits.partial.
void TestUrdfCosmetic::invertedAgainstDefaultBound() {
  const std::string xml = R"(<robot name="r">
  <link name="a"/>
  <joint name="j" type="prismatic">
    <parent link="a"/><child link="b"/>
    <limit lower="0.5" effort="1" velocity="1"/>
  </joint>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
</robot>
)";
  const dyn::Model model = dyn::buildModel(dyn::parseUrdfString(xml, "t.urdf"));
  const auto found = findingsOf(model.findings, "limits.inverted");
  QCOMPARE(int(found.size()), 1);
  QCOMPARE(found[0]->line, lineOf(xml, "<limit"));
  QVERIFY2(contains(found[0]->message, "(upper is not given: URDF's default is 0)"), found[0]->message.c_str());
  QVERIFY(findingsOf(model.findings, "limits.partial").empty());
  QCOMPARE(model.lowerLimit[0], -kInf);
  QCOMPARE(model.upperLimit[0], kInf);
}

void TestUrdfCosmetic::worldParent_data() {
  QTest::addColumn<QString>("kind");
  QTest::addColumn<int>("nv");  // the joint to the world's dofs plus the shoulder
  QTest::newRow("fixed") << "fixed" << 1;
  QTest::newRow("floating") << "floating" << 7;
  QTest::newRow("revolute") << "revolute" << 2;
}

void TestUrdfCosmetic::worldParent() {
  QFETCH(QString, kind);
  QFETCH(int, nv);
  const std::string path = dataPath("world_" + kind.toStdString() + ".urdf"), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);
  const auto found = findingsOf(model.findings, "links.implicit_world");
  QCOMPARE(int(found.size()), 1);
  const Finding& f = *found[0];
  QCOMPARE(f.severity, Severity::Info);
  QCOMPARE(f.file, path);
  QCOMPARE(f.line, lineOf(text, "<joint name=\"to_world\""));
  QCOMPARE(f.element, std::string("joint 'to_world'"));
  QCOMPARE(f.joint, std::string("to_world"));
  QCOMPARE(f.link, std::string("base_link"));
  QVERIFY2(contains(f.message, "parent link 'world' is not defined: taken as the world"), f.message.c_str());
  QVERIFY2(contains(f.hint, "<link name=\"world\"/>"), f.hint.c_str());
  QCOMPARE(model.bodyNames[0], std::string("world"));
  QCOMPARE(model.nv, nv);
  if (kind == "floating") QCOMPARE(model.joints[1].type, dyn::JointType::Floating);
  if (kind == "revolute") QCOMPARE(model.jointNames[1], std::string("to_world"));
  // The joint's origin places the robot: base_link at (0.2, -0.1, 0.5), turned 0.3 rad about z.
  dyn::Data d(model);
  dyn::forwardKinematics(model, d, model.neutral());
  dyn::updateFrames(model, d);
  const int base = model.frameIndex("base_link");
  QVERIFY(base >= 0);
  QVERIFY((d.oMf[base].translation() - Eigen::Vector3d(0.2, -0.1, 0.5)).norm() < 1e-12);
  QVERIFY((d.oMf[base].rotation() - Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()).toRotationMatrix()).norm() <
          1e-12);
  // The same as the file with <link name="world"/> written, which has no such note.
  const std::string withWorld =
      replaced(text, "<joint name=\"to_world\"", "<link name=\"world\"/>\n  <joint name=\"to_world\"");
  const dyn::Model twin = dyn::buildModel(dyn::parseUrdfString(withWorld, path));
  QVERIFY(findingsOf(twin.findings, "links.implicit_world").empty());
  QCOMPARE(twin.bodyNames, model.bodyNames);
  CHECK_EMPTY(sameInverseDynamics(model, twin));
  for (int i = 1; i <= model.N; ++i) {
    QVERIFY((model.Xtree[i].E - twin.Xtree[i].E).norm() < 1e-15 && (model.Xtree[i].r - twin.Xtree[i].r).norm() < 1e-15);
  }
}

// A file that writes its world link (ur5.urdf) has no note; without it, the same model with one.
void TestUrdfCosmetic::explicitWorldLinkUnchanged() {
  const std::string path = std::string(DYNSCOPE_ROBOTS_DIR) + "/ur5.urdf", text = readText(path);
  const dyn::Model model = dyn::loadModel(path);
  QVERIFY(findingsOf(model.findings, "links.implicit_world").empty());
  const std::string withoutWorld = replaced(text, "<link name=\"world\"/>", "");
  QVERIFY(withoutWorld != text);
  const dyn::Model implicit = dyn::buildModel(dyn::parseUrdfString(withoutWorld, path));
  QCOMPARE(int(findingsOf(implicit.findings, "links.implicit_world").size()), 1);
  QCOMPARE(implicit.bodyNames, model.bodyNames);
  CHECK_EMPTY(sameInverseDynamics(model, implicit));
}

// Two arms fixed to the world side by side: one note naming both joints, one tree rooted at the world.
void TestUrdfCosmetic::twoRobotsOnTheWorld() {
  const std::string arm = R"(
  <joint name="mount_X" type="fixed"><parent link="world"/><child link="base_X"/><origin xyz="0 Y 0"/></joint>
  <link name="base_X"/>
  <joint name="j_X" type="revolute"><parent link="base_X"/><child link="arm_X"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="arm_X"><inertial><origin xyz="0.2 0 0"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
)";
  const std::string xml = "<robot name=\"pair\">" + replaced(replaced(arm, "X", "left"), "Y", "0.5") +
                          replaced(replaced(arm, "X", "right"), "Y", "-0.5") + "</robot>\n";
  const dyn::Model model = dyn::buildModel(dyn::parseUrdfString(xml, "t.urdf"));
  const auto found = findingsOf(model.findings, "links.implicit_world");
  QCOMPARE(int(found.size()), 1);
  QCOMPARE(found[0]->line, lineOf(xml, "mount_left"));
  QVERIFY2(contains(found[0]->message,
                    "joints 'mount_left' (fixed, link 'base_left'), 'mount_right' (fixed, link "
                    "'base_right') attach their links at their origins"),
           found[0]->message.c_str());
  QCOMPARE(model.bodyNames[0], std::string("world"));
  QCOMPARE(model.nv, 2);
  QCOMPARE(model.parent[model.jointIndex("j_left")], 0);
  QCOMPARE(model.parent[model.jointIndex("j_right")], 0);
}

void TestUrdfCosmetic::invalidFiles_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("marker");  // text on the error's line ("<end>": the file's last line)
  QTest::addColumn<int>("nth");         // which occurrence of it
  QTest::addColumn<QString>("element");
  QTest::addColumn<QString>("fragment");  // "{L}" stands for the line of `opened`
  QTest::addColumn<QString>("opened");
  QTest::newRow("empty robot") << "empty_robot.urdf"
                               << "<robot name" << 1 << "robot 'empty_robot'"
                               << "the robot has no <link>"
                               << "";
  QTest::newRow("duplicate link") << "duplicate_link.urdf"
                                  << "<link name=\"arm\"/>" << 2 << "link 'arm'"
                                  << "duplicate link name (first defined on line {L})"
                                  << "<link name=\"arm\"/>";
  QTest::newRow("missing parent") << "missing_parent.urdf"
                                  << "<joint name=\"j\"" << 1 << "joint 'j'"
                                  << "parent link 'base_lnk' does not exist"
                                  << "";
  QTest::newRow("child world") << "missing_child.urdf"
                               << "<joint name=\"j\"" << 1 << "joint 'j'"
                               << "child link 'world' does not exist"
                               << "";
  QTest::newRow("cycle") << "cycle.urdf"
                         << "<joint name=\"ja\"" << 1 << "joint 'ja'"
                         << "the joints form a cycle: 'ja' -> 'jb' (not connected to the root link)"
                         << "";
  QTest::newRow("truncated") << "truncated.urdf"
                             << "<end>" << 1 << ""
                             << "malformed XML: the file ends inside <link name='forearm'> opened on line {L}"
                             << "<link name=\"forearm\">";
  QTest::newRow("mismatched tag") << "mismatched_tag.urdf"
                                  << "</visual>" << 1 << ""
                                  << "malformed XML: </visual> on line 8 closes <geometry> opened on line {L}"
                                  << "<geometry>";
}

void TestUrdfCosmetic::invalidFiles() {
  QFETCH(QString, file);
  QFETCH(QString, marker);
  QFETCH(int, nth);
  QFETCH(QString, element);
  QFETCH(QString, fragment);
  QFETCH(QString, opened);
  const std::string path = dataPath(file.toStdString()), text = readText(path);
  QVERIFY2(!text.empty(), path.c_str());
  int line = 0;
  if (marker == "<end>") {
    const size_t last = text.find_last_not_of(" \t\r\n");
    line = 1 + int(std::count(text.begin(), text.begin() + long(last), '\n'));
  } else {
    line = lineOf(text, marker.toStdString(), nth);
  }
  QVERIFY(line > 0);
  const std::string expected = replaced(fragment.toStdString(), "{L}",
                                        std::to_string(opened.isEmpty() ? 0 : lineOf(text, opened.toStdString())));
  const std::optional<dyn::LoadError> e = loadErrorOf(path);
  QVERIFY2(e, "the file loads");
  QCOMPARE(e->file(), path);
  QCOMPARE(e->line(), line);
  QCOMPARE(e->element(), element.toStdString());
  QVERIFY2(contains(e->message(), expected),
           qPrintable(QString::fromStdString(e->message() + "\n  expected: " + expected)));
  QVERIFY2(!contains(e->what(), "XML_ERROR"), e->what());
}

void TestUrdfCosmetic::xmlErrorsInWords_data() {
  QTest::addColumn<QByteArray>("xml");
  QTest::addColumn<int>("line");
  QTest::addColumn<QByteArray>("fragment");
  QTest::newRow("ends inside a visual") << QByteArray("<robot name=\"r\">\n  <link name=\"a\">\n    <visual>\n") << 3
                                        << QByteArray(
                                               "the file ends inside <visual> opened on line 3, in <link "
                                               "name='a'> opened on line 2");
  QTest::newRow("ends in a tag") << QByteArray("<robot name=\"r\">\n  <link name=\"a\"/>\n  <joint name=\"j") << 3
                                 << QByteArray(
                                        "the file ends inside the tag <joint> opened on line 3 (in a quoted "
                                        "attribute value that never closes), inside <robot name='r'>");
  QTest::newRow("ends in a comment") << QByteArray("<robot name=\"r\">\n  <!-- a note\n  <link name=\"a\"/>\n") << 3
                                     << QByteArray("the file ends inside a comment <!-- opened on line 2");
  QTest::newRow("tag without >") << QByteArray("<robot name=\"r\">\n  <link name=\"a\"\n</robot>\n") << 3
                                 << QByteArray(
                                        "the tag <link> opened on line 2 has no '>' before the next '<' on line 3");
  QTest::newRow("stray closing tag") << QByteArray("<robot name=\"r\">\n  <link name=\"a\"/>\n  </link>\n</robot>\n")
                                     << 3
                                     << QByteArray(
                                            "</link> on line 3 closes <robot name='r'> opened on line 1 (no "
                                            "<link> is open)");
  QTest::newRow("unquoted attribute") << QByteArray("<robot name=\"r\">\n\n  <link name=a/>\n</robot>\n") << 3
                                      << QByteArray("an attribute of <link> on line 3 is malformed");
  QTest::newRow("text after the root") << QByteArray("<robot name=\"r\">\n  <link name=\"a\"/>\n</robot>\noops\n") << 4
                                       << QByteArray("text on line 4 lies outside the root element");
  QTest::newRow("not a tag") << QByteArray("<robot name=\"r\">\n  <link name=\"a\"/>\n  <1link/>\n</robot>\n") << 3
                             << QByteArray("'<1link/' on line 3 is not a tag");
}

void TestUrdfCosmetic::xmlErrorsInWords() {
  QFETCH(QByteArray, xml);
  QFETCH(int, line);
  QFETCH(QByteArray, fragment);
  const std::optional<dyn::LoadError> e = parseErrorOf(xml.toStdString());
  QVERIFY2(e, "no LoadError");
  QCOMPARE(e->line(), line);
  QVERIFY2(contains(e->message(), "malformed XML: " + fragment.toStdString()), e->what());
  QVERIFY2(!contains(e->what(), "XML_ERROR"), e->what());
}

// Cycles that hang on the root are closed loops (docs/loops.md): they still load, with loop.cut.
void TestUrdfCosmetic::closedLoopsStillLoad_data() {
  QTest::addColumn<QString>("file");
  for (const char* f : {"delta.urdf", "palletizer.urdf", "slider_crank.urdf"}) QTest::newRow(f) << QString(f);
}

void TestUrdfCosmetic::closedLoopsStillLoad() {
  QFETCH(QString, file);
  const dyn::Model model = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file.toStdString());
  QVERIFY(!findingsOf(model.findings, "loop.cut").empty());
  QVERIFY(findingsOf(model.findings, "links.implicit_world").empty());
}

// A package:// mesh whose package folder exists but not the file: which file was looked for, and where.
void TestUrdfCosmetic::missingMeshInFoundPackage() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  namespace fs = std::filesystem;
  const fs::path root(dir.path().toStdString());
  fs::create_directories(root / "my_pkg" / "meshes");
  fs::create_directories(root / "my_pkg" / "urdf");
  std::ofstream((root / "my_pkg" / "meshes" / "Arm.STL").string()) << "solid x\nendsolid x\n";
  const std::string xml = R"(<robot name="r">
  <link name="base">
    <visual><geometry>
      <mesh filename="package://my_pkg/meshes/arm.stl"/>
    </geometry></visual>
    <visual><geometry>
      <mesh filename="package://my_pkg/mesh/base.stl"/>
    </geometry></visual>
  </link>
</robot>
)";
  const std::string path = (root / "my_pkg" / "urdf" / "r.urdf").string();
  std::ofstream(path) << xml;
  qunsetenv("ROS_PACKAGE_PATH");
  qunsetenv("AMENT_PREFIX_PATH");
  const dyn::Model model = dyn::loadModel(path);
  const auto found = findingsOf(model.findings, "mesh.missing");
  QCOMPARE(int(found.size()), 2);  // one per file: the package is there
  const std::string pkg = fs::weakly_canonical(root / "my_pkg").string();
  const Finding& arm = *found[0];
  QCOMPARE(arm.line, lineOf(xml, "arm.stl"));
  QVERIFY2(contains(arm.message, "mesh 'package://my_pkg/meshes/arm.stl' not found (looked for " + pkg +
                                     "/meshes/arm.stl; package 'my_pkg' was found, at " + pkg +
                                     "; the folder has Arm.STL, whose name differs in case)"),
           arm.message.c_str());
  QVERIFY2(!contains(arm.message, "package 'my_pkg' not found"), arm.message.c_str());
  const Finding& base = *found[1];
  QCOMPARE(base.line, lineOf(xml, "base.stl"));
  QVERIFY2(contains(base.message, "looked for " + pkg + "/mesh/base.stl; package 'my_pkg' was found, at " + pkg +
                                      "; the folder " + pkg + "/mesh does not exist)"),
           base.message.c_str());
  // A package that is nowhere is still said so.
  std::string error;
  QVERIFY(dyn::resolveMeshPath("package://no_such_pkg/a.stl", path, &error).empty());
  QVERIFY2(error.rfind("package 'no_such_pkg' (file 'a.stl') not found", 0) == 0, error.c_str());
}

QTEST_APPLESS_MAIN(TestUrdfCosmetic)
#include "test_urdf_cosmetic.moc"
