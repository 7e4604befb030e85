// The model checker and the fix-ups (issue 13): realistic files with the patterns of real robot
// descriptions (tests/data/model_check/) load, each with the right finding at the right line; the
// fix-ups change only what they say; what cannot be computed is still refused, naming the joint.
#include <Eigen/Eigenvalues>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/forward_dynamics_crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/fixups.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/model_check.hpp"
#include "dynscope/io/urdf_parser.hpp"
#include "dynscope/simulation/simulator.hpp"

using dyn::Finding;
using dyn::Severity;

class TestModelCheck : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void findingsAtTheirLines_data();
  void findingsAtTheirLines();
  void armHasNoOtherWarnings();
  void noiseIsNotAFinding_data();
  void noiseIsNotAFinding();
  void mergedDummyBaseIsANote();
  void placeholderLimitsAreNoLimits();
  void degenerateLimitsAndTheirFixup();
  void balanceInertiasChangesOnlyInertias();
  void massMasslessLinks();
  void balanceCannotGiveMassToAMasslessLink();
  void forwardDynamicsRefusedNamingTheJoint();
  void fixupWithNothingToDoSaysSo();
  void missingMeshes();
  void ignoredElements();
  void dhTable();
  void conditionNumberOfTwoLinkArm();
  void illConditionedArm();
  void indefiniteMassMatrix();
  void dummyBaseIsANoteNotNoise();
  void zeroMassLeafRefusedNamingTheJoint();
  void slightIndefinitenessComputes();
  void floatingRodRefusedUpToRounding();
  void roundingNegativePivotIsSingular();
  void refusedWhereThePivotTurnsNegative();
  void duplicateJointNameAtItsLine();
  void everyFindingHasALine_data();
  void everyFindingHasALine();
  void errorsStayErrors_data();
  void errorsStayErrors();
  void checkWithoutDescription();
};

namespace {

std::string dataFile(const char* name) { return std::string(DYNSCOPE_TEST_DATA_DIR) + "/model_check/" + name; }

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The 1-based line of the first `target` after the first `anchor` (of `anchor` itself when target
// is empty); -1 when absent.
int lineOf(const std::string& text, const std::string& anchor, const std::string& target = "") {
  size_t at = text.find(anchor);
  if (at != std::string::npos && !target.empty()) at = text.find(target, at);
  if (at == std::string::npos) return -1;
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

bool concerns(const Finding& f, const std::string& name) {
  return f.link == name || f.joint == name || f.element.find(name) != std::string::npos;
}

const Finding* findingOf(const std::vector<Finding>& all, const std::string& code, const std::string& name = "") {
  for (const Finding& f : all)
    if (f.code == code && (name.empty() || concerns(f, name))) return &f;
  return nullptr;
}

int countOf(const std::vector<Finding>& all, const std::string& code) {
  return int(std::count_if(all.begin(), all.end(), [&](const Finding& f) { return f.code == code; }));
}

std::string listOf(const std::vector<Finding>& all) {
  std::string s;
  for (const Finding& f : all)
    s += "\n  " + std::string(dyn::severityName(f.severity)) + " " + f.code + ": " + f.text();
  return s;
}

// A robot: a fixed base link and one revolute joint (axis z) moving link "a" with the given inertial.
std::string oneLink(const std::string& inertial) {
  return "<robot name=\"r\">\n  <link name=\"base\"/>\n  <joint name=\"j\" type=\"revolute\">\n"
         "    <parent link=\"base\"/><child link=\"a\"/><axis xyz=\"0 0 1\"/>\n"
         "    <limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>\n  </joint>\n"
         "  <link name=\"a\">\n    <inertial>\n" +
         inertial + "    </inertial>\n  </link>\n</robot>\n";
}

std::string inertiaXml(double xx, double yy, double zz, double mass = 1) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "      <mass value=\"%.17g\"/>\n      <inertia ixx=\"%.17g\" iyy=\"%.17g\" izz=\"%.17g\" ixy=\"0\" "
                "ixz=\"0\" iyz=\"0\"/>\n",
                mass, xx, yy, zz);
  return buf;
}

// The message of the ForwardDynamicsError run() throws naming body `body`; empty (with a warning
// saying what happened instead) otherwise.
template <class F>
std::string refusalOf(F&& run, int body) {
  try {
    run();
  } catch (const dyn::ForwardDynamicsError& e) {
    if (e.body() == body) return e.what();
    qWarning("refused for body %d, not %d: %s", e.body(), body, e.what());
    return {};
  }
  qWarning("not refused");
  return {};
}

dyn::Model modelOf(const std::string& xml, const dyn::BuildOptions& options = {}) {
  return dyn::buildModel(dyn::parseUrdfString(xml, "t.urdf"), options);
}

}  // namespace

void TestModelCheck::initTestCase() {
  // Meshes are looked up through these; the tests' results must not depend on the machine.
  qunsetenv("ROS_PACKAGE_PATH");
  qunsetenv("AMENT_PREFIX_PATH");
}

void TestModelCheck::findingsAtTheirLines_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("code");
  QTest::addColumn<QString>("name");  // the link or joint (or element) it concerns
  QTest::addColumn<int>("severity");
  QTest::addColumn<QString>("anchor");  // the finding's line: the first `target` after `anchor`
  QTest::addColumn<QString>("target");
  const char* file = "arm_with_warnings.urdf";
  const auto row = [&](const char* tag, const char* code, const char* name, Severity s, const char* anchor,
                       const char* target = "") {
    QTest::newRow(tag) << file << code << name << int(s) << anchor << target;
  };
  // The issue's patterns: rounding noise on a dummy base (fixed to the world: a note), a gross, a
  // small and a merged gross triangle violation, a negative principal moment.
  row("noise on the dummy base", "inertia.triangle", "base_footprint", Severity::Info, "izz=\"3e-6\"");
  row("gross (shoulder)", "inertia.triangle", "shoulder_link", Severity::Warning, "ixx=\"6.6e-4\"");
  row("small (gripper motor)", "inertia.triangle", "gripper_motor", Severity::Warning, "ixx=\"7.86e-5\"");
  row("gross (sensor mount)", "inertia.triangle", "sensor_mount", Severity::Warning, "<link name=\"sensor_mount\">",
      "<inertia ");
  row("negative moment (antenna)", "inertia.not_psd", "antenna", Severity::Warning, "ixy=\"6.3e-8\"");
  row("degenerate limits", "limits.degenerate", "wrist", Severity::Warning, "lower=\"0.5\" upper=\"0.5\"");
  row("missing limit", "limits.missing", "elbow", Severity::Warning, "<joint name=\"elbow\"");
  row("mimic", "mimic.enforced", "finger_right_joint", Severity::Info, "<joint name=\"finger_right_joint\"", "<mimic");
  row("missing mesh", "mesh.missing", "shoulder_link", Severity::Warning, "meshes/shoulder.stl");
  row("transmissions", "urdf.ignored_element", "<transmission>", Severity::Info, "<transmission ");
  row("gazebo", "urdf.ignored_element", "<gazebo>", Severity::Info, "<gazebo ");
  row("mass on the fixed base", "mass.fixed_to_world", "base_footprint", Severity::Info,
      "<link name=\"base_footprint\">", "<inertial>");
  row("cond(H)", "conditioning.cond_h", "H(q)", Severity::Info, "<joint name=\"antenna_joint\"");
  // A stage whose tool plate has inertia but no mass, on a prismatic joint.
  file = "linear_stage.urdf";
  row("zero mass on a leaf", "mass.zero_leaf", "tool_plate", Severity::Warning, "<link name=\"tool_plate\">",
      "<inertial>");
  row("zero mass between joints", "mass.zero", "turntable_link", Severity::Info, "<link name=\"turntable_link\">");
  row("zero effort and velocity", "limits.zero_effort_velocity", "turntable", Severity::Info,
      "<joint name=\"turntable\"", "<limit");
  row("limit without lower and upper", "limits.partial", "z_slide", Severity::Warning, "<joint name=\"z_slide\"",
      "<limit");
  row("limit with a lower bound only", "limits.partial", "tool_slide", Severity::Warning, "<joint name=\"tool_slide\"",
      "<limit");
  row("singular H", "conditioning.singular", "tool_slide", Severity::Warning, "<joint name=\"tool_slide\"");
  file = "massless_pan_tilt.urdf";
  row("a link that carries nothing", "links.unused", "camera_optical_frame", Severity::Info,
      "<link name=\"camera_optical_frame\"");
  file = "arm_with_encoder_disc.urdf";
  row("inertia ratio", "conditioning.inertia_ratio", "encoder_disc", Severity::Info, "<link name=\"encoder_disc\">",
      "<inertial>");
  // The issue's slight indefiniteness: -3.5e-8 beside +9.1e-8 on a tiny antenna.
  file = "rover_antenna.urdf";
  row("slightly indefinite", "inertia.not_psd", "antenna", Severity::Warning, "<link name=\"antenna\">", "<inertia ");
}

void TestModelCheck::findingsAtTheirLines() {
  QFETCH(QString, file);
  QFETCH(QString, code);
  QFETCH(QString, name);
  QFETCH(int, severity);
  QFETCH(QString, anchor);
  QFETCH(QString, target);
  const std::string path = dataFile(qPrintable(file)), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);  // loads: nothing here is an error
  const Finding* f = findingOf(model.findings, code.toStdString(), name.toStdString());
  QVERIFY2(f, qPrintable(code + " " + name + " not among:" + QString::fromStdString(listOf(model.findings))));
  QCOMPARE(int(f->severity), severity);
  QCOMPARE(f->file, path);
  const int line = lineOf(text, anchor.toStdString(), target.toStdString());
  QVERIFY(line > 0);
  QCOMPARE(f->line, line);
  QVERIFY(!f->message.empty() && !f->hint.empty());
  QVERIFY2(f->text().rfind(path + ":" + std::to_string(line) + ": ", 0) == 0, f->text().c_str());
}

void TestModelCheck::armHasNoOtherWarnings() {
  const dyn::Model model = dyn::loadModel(dataFile("arm_with_warnings.urdf"));
  const dyn::FindingCounts n = dyn::countFindings(model.findings);
  QCOMPARE(n.errors, 0);
  QVERIFY2(n.warnings == 7, listOf(model.findings).c_str());     // the seven warning rows above (mimic is a note)
  QCOMPARE(countOf(model.findings, "urdf.ignored_element"), 2);  // three transmissions are one note
  QVERIFY(findingOf(model.findings, "urdf.ignored_element", "<transmission>")->message.find("3 such elements") !=
          std::string::npos);
  // By how much: 7.86e-5 + 1.47e-4 falls 6.4e-6 short of 2.32e-4, 2.76 % of it.
  const Finding* gripper = findingOf(model.findings, "inertia.triangle", "gripper_motor");
  QVERIFY2(gripper->message.find("falls 6.4e-06 short of 0.000232 (2.76 %)") != std::string::npos,
           gripper->message.c_str());
  // The sensor mount is merged into the gripper motor's body: selecting it selects that body.
  QCOMPARE(findingOf(model.findings, "inertia.triangle", "sensor_mount")->body, model.bodyIndex("gripper_motor"));
  // The algorithms compute with the values as given: the shoulder's moments are in H.
  QCOMPARE(model.I[model.bodyIndex("shoulder_link")].m, 2.0);
}

void TestModelCheck::noiseIsNotAFinding_data() {
  QTest::addColumn<double>("a");
  QTest::addColumn<double>("b");
  QTest::addColumn<double>("c");
  QTest::addColumn<QString>("code");  // empty: no inertia finding at all
  // The threshold is 1e-9 of |a| + |b| + |c| (= 4 here).
  QTest::newRow("exact rod") << 0.0 << 1.0 << 1.0 << QString();
  QTest::newRow("triangle noise 1e-10") << 1.0 << 1.0 << 2.0 + 1e-10 << QString();
  QTest::newRow("triangle 1e-7") << 1.0 << 1.0 << 2.0 + 1e-7 << QString("inertia.triangle");
  QTest::newRow("negative noise") << -1e-10 << 2.0 << 2.0 << QString();
  QTest::newRow("negative 1e-6") << -1e-6 << 2.0 << 2.0 << QString("inertia.not_psd");
}

void TestModelCheck::noiseIsNotAFinding() {
  QFETCH(double, a);
  QFETCH(double, b);
  QFETCH(double, c);
  QFETCH(QString, code);
  const dyn::Model model = modelOf(oneLink(inertiaXml(a, b, c)));
  const int inertiaFindings = countOf(model.findings, "inertia.triangle") + countOf(model.findings, "inertia.not_psd");
  if (code.isEmpty()) {
    QCOMPARE(inertiaFindings, 0);
  } else {
    QCOMPARE(inertiaFindings, 1);
    QCOMPARE(findingOf(model.findings, code.toStdString(), "a")->severity, Severity::Warning);
  }
}

void TestModelCheck::mergedDummyBaseIsANote() {
  // With a floating base the dummy base is the root body, merged with base_link by a fixed joint:
  // the body's total inertia is physical, so the violation is a note.
  const dyn::Model model = dyn::loadModel(dataFile("arm_with_warnings.urdf"), {.floatingBase = true});
  const Finding* f = findingOf(model.findings, "inertia.triangle", "base_footprint");
  QVERIFY(f);
  QCOMPARE(f->severity, Severity::Info);
  QCOMPARE(f->body, 1);
  QVERIFY2(f->message.find("merge") != std::string::npos, f->message.c_str());
  QVERIFY(!findingOf(model.findings, "mass.fixed_to_world"));  // nothing is fixed to the world now
}

void TestModelCheck::placeholderLimitsAreNoLimits() {
  const std::string path = dataFile("double_pendulum_placeholder.urdf"), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);
  for (const char* joint : {"joint1", "joint2"}) {
    const Finding* f = findingOf(model.findings, "limits.placeholder", joint);
    QVERIFY2(f, joint);
    QCOMPARE(f->severity, Severity::Warning);
    QCOMPARE(f->line, lineOf(text, std::string("<joint name=\"") + joint + "\"", "<limit"));
    const int i = model.jointIndex(joint);
    const int qi = model.joints[i].idx_q, vi = model.joints[i].idx_v;
    QVERIFY(std::isinf(model.lowerLimit[qi]) && std::isinf(model.upperLimit[qi]));
    QVERIFY(std::isinf(model.effortLimit[vi]) && std::isinf(model.velocityLimit[vi]));
  }
  // A passive run swings through q = 0 freely: no limit springs.
  dyn::Simulator sim(model);
  QVERIFY(sim.limitDofs().empty());
  sim.reset(Eigen::Vector2d(0.6, 0), Eigen::Vector2d::Zero());
  double lowest = 1;
  for (int k = 0; k < 2000; ++k) {
    QCOMPARE(sim.step(), dyn::SimulationStatus::Ok);
    lowest = std::min(lowest, sim.q()[0]);
  }
  QVERIFY2(lowest < -0.3, qPrintable(QString::number(lowest)));
}

void TestModelCheck::degenerateLimitsAndTheirFixup() {
  const std::string path = dataFile("arm_with_warnings.urdf"), text = readText(path);
  const dyn::Model asGiven = dyn::loadModel(path);
  const int wrist = asGiven.jointIndex("wrist");
  const int qw = asGiven.joints[wrist].idx_q, vw = asGiven.joints[wrist].idx_v;
  QCOMPARE(asGiven.lowerLimit[qw], 0.5);  // taken as given: the joint cannot move
  QCOMPARE(asGiven.upperLimit[qw], 0.5);

  const dyn::Model fixed = dyn::loadModel(path, {.fixups = {dyn::Fixup::UnlimitedDegenerateLimits}});
  QVERIFY(std::isinf(fixed.lowerLimit[qw]) && std::isinf(fixed.upperLimit[qw]));
  QCOMPARE(fixed.effortLimit[vw], 5.0);  // only the range changes
  for (int k = 0; k < fixed.nq; ++k) {
    if (k == qw) continue;
    QCOMPARE(fixed.lowerLimit[k], asGiven.lowerLimit[k]);
    QCOMPARE(fixed.upperLimit[k], asGiven.upperLimit[k]);
  }
  QVERIFY(fixed.effortLimit == asGiven.effortLimit && fixed.velocityLimit == asGiven.velocityLimit);
  QVERIFY(!findingOf(fixed.findings, "limits.degenerate"));
  QCOMPARE(countOf(fixed.findings, "fixup.unlimited-degenerate-limits"), 1);
  const Finding* change = findingOf(fixed.findings, "fixup.unlimited-degenerate-limits", "wrist");
  QVERIFY(change);
  QCOMPARE(change->line, lineOf(text, "lower=\"0.5\" upper=\"0.5\""));
  QCOMPARE(change->body, wrist);
}

void TestModelCheck::balanceInertiasChangesOnlyInertias() {
  const std::string path = dataFile("arm_with_warnings.urdf");
  const dyn::RobotDescription original = dyn::parseUrdfFile(path);
  dyn::RobotDescription fixed = original;
  const std::vector<Finding> changes = dyn::applyFixup(fixed, dyn::Fixup::BalanceInertias);
  std::vector<std::string> changed;
  for (const Finding& f : changes) changed.push_back(f.link);
  std::sort(changed.begin(), changed.end());
  const std::vector<std::string> inconsistent = {"antenna", "base_footprint", "gripper_motor", "sensor_mount",
                                                 "shoulder_link"};
  QCOMPARE(changed, inconsistent);

  for (size_t l = 0; l < original.links.size(); ++l) {
    const dyn::LinkDesc &before = original.links[l], &after = fixed.links[l];
    QCOMPARE(after.name, before.name);
    QCOMPARE(after.visuals.size(), before.visuals.size());
    if (!before.inertial) {
      QVERIFY(!after.inertial);
      continue;
    }
    QCOMPARE(after.inertial->mass, before.inertial->mass);
    QCOMPARE(after.inertial->origin.xyz, before.inertial->origin.xyz);
    const dyn::Mat3<double> I0 = dyn::inertiaMatrix(*before.inertial), I1 = dyn::inertiaMatrix(*after.inertial);
    if (!std::binary_search(inconsistent.begin(), inconsistent.end(), before.name)) {
      QVERIFY2(I1 == I0, before.name.c_str());  // untouched, bit for bit
      continue;
    }
    const dyn::InertiaConsistency k0 = dyn::inertiaConsistency(I0), k1 = dyn::inertiaConsistency(I1);
    QVERIFY2(k1.physical, before.name.c_str());
    const double scale = k0.moments.cwiseAbs().sum();
    // The largest moment stays; the smaller ones only rise, just enough: a + b = c.
    QVERIFY(std::abs(k1.moments[2] - k0.moments[2]) <= 1e-12 * scale);
    QVERIFY(k1.moments[0] >= k0.moments[0] - 1e-12 * scale && k1.moments[1] >= k0.moments[1] - 1e-12 * scale);
    QVERIFY(std::abs(k1.moments[0] + k1.moments[1] - k1.moments[2]) <= 1e-12 * scale);
    // The principal axes stay: I1 is diagonal in I0's eigenvectors.
    const Eigen::SelfAdjointEigenSolver<dyn::Mat3<double>> es(I0);
    const dyn::Mat3<double> D = es.eigenvectors().transpose() * I1 * es.eigenvectors();
    QVERIFY2((D - dyn::Mat3<double>(D.diagonal().asDiagonal())).norm() <= 1e-12 * scale, before.name.c_str());
  }
  // Joints, materials and everything the model is built from besides the inertias: unchanged.
  const dyn::Model m0 = dyn::buildModel(original), m1 = dyn::buildModel(fixed);
  QVERIFY(m1.lowerLimit == m0.lowerLimit && m1.upperLimit == m0.upperLimit && m1.effortLimit == m0.effortLimit);
  for (int i = 0; i <= m0.N; ++i) {
    QVERIFY(m1.Xtree[i].E == m0.Xtree[i].E && m1.Xtree[i].r == m0.Xtree[i].r);
    QCOMPARE(m1.I[i].m, m0.I[i].m);
  }
  QCOMPARE(countOf(m1.findings, "inertia.triangle") + countOf(m1.findings, "inertia.not_psd"), 0);
  QCOMPARE(countOf(m1.findings, "fixup.balance-inertias"), 5);  // each change is listed
}

void TestModelCheck::massMasslessLinks() {
  const std::string path = dataFile("massless_pan_tilt.urdf");
  const dyn::RobotDescription original = dyn::parseUrdfFile(path);
  dyn::RobotDescription fixed = original;
  const std::vector<Finding> changes = dyn::applyFixup(fixed, dyn::Fixup::MassMasslessLinks);
  QCOMPARE(changes.size(), size_t(2));
  // 1 % of the median link mass; the link masses are 2 and 1 kg, the (upper) median 2.
  const double mass = 0.02, moment = 0.4 * mass * dyn::kFixupSphereRadius * dyn::kFixupSphereRadius;
  for (size_t l = 0; l < original.links.size(); ++l) {
    const std::string& name = original.links[l].name;
    const bool target = name == "pan_link" || name == "tilt_link";
    QCOMPARE(fixed.links[l].inertial.has_value(), target || original.links[l].inertial.has_value());
    if (!target) {
      if (original.links[l].inertial)
        QVERIFY(dyn::inertiaMatrix(*fixed.links[l].inertial) == dyn::inertiaMatrix(*original.links[l].inertial));
      continue;
    }
    QCOMPARE(fixed.links[l].inertial->mass, mass);
    QVERIFY(dyn::inertiaMatrix(*fixed.links[l].inertial).isApprox(moment * dyn::Mat3<double>::Identity()));
  }
  const dyn::Model model = dyn::buildModel(fixed);
  QVERIFY(model.immobileBodies.empty());
  QVERIFY(dyn::forwardDynamicsRefusal(model).empty());
  dyn::Data data(model);
  dyn::aba(model, data, model.neutral(), Eigen::VectorXd::Zero(model.nv), Eigen::VectorXd::Zero(model.nv));
  QVERIFY(data.qdd.allFinite());
  QVERIFY(!findingOf(model.findings, "mass.massless_subtree"));
}

// A camera head whose <inertia> is all zero but for CAD noise (1e-35), no mass: it is no inconsistent
// inertia to balance (balancing made it 1e-35 moments, and H(q) stayed singular). Balancing leaves it
// bit for bit, says it cannot give a massless link mass and names the fix-up that can; that fix-up,
// applied after, gives it mass and the note goes.
void TestModelCheck::balanceCannotGiveMassToAMasslessLink() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::string path = dir.filePath("noisy_head.urdf").toStdString();
  const std::string text = R"(<robot name="noisy_head">
  <link name="base"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="40" velocity="2"/>
  </joint>
  <link name="arm">
    <inertial>
      <origin xyz="0 0 0.2"/><mass value="2"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.01"/>
    </inertial>
  </link>
  <joint name="head_pan" type="revolute">
    <parent link="arm"/><child link="head"/><origin xyz="0 0 0.4"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="2" velocity="3"/>
  </joint>
  <link name="head">
    <inertial>
      <mass value="0"/>
      <inertia ixx="0" ixy="1e-35" ixz="0" iyy="0" iyz="0" izz="0"/>
    </inertial>
  </link>
</robot>
)";
  std::ofstream(path) << text;
  const dyn::RobotDescription original = dyn::parseUrdfFile(path);
  // The model check calls the noise no inertia finding: the massless subtree is what matters.
  const dyn::Model asWritten = dyn::loadModel(path);
  QVERIFY2(!findingOf(asWritten.findings, "inertia.not_psd", "head") &&
               !findingOf(asWritten.findings, "inertia.triangle", "head") &&
               !findingOf(asWritten.findings, "conditioning.inertia_ratio", "head"),
           listOf(asWritten.findings).c_str());
  QVERIFY(findingOf(asWritten.findings, "mass.massless_subtree", "head_pan"));
  QVERIFY(findingOf(asWritten.findings, "inertia.triangle", "arm"));  // a real one, balanced below

  dyn::RobotDescription balanced = original;
  const std::vector<Finding> changes = dyn::applyFixup(balanced, dyn::Fixup::BalanceInertias);
  QCOMPARE(changes.size(), size_t(1));  // the arm only
  QCOMPARE(changes[0].link, std::string("arm"));
  const auto head = [](const dyn::RobotDescription& r) {
    return *std::find_if(r.links.begin(), r.links.end(), [](const dyn::LinkDesc& l) { return l.name == "head"; });
  };
  QVERIFY(dyn::inertiaMatrix(*head(balanced).inertial) == dyn::inertiaMatrix(*head(original).inertial));
  QCOMPARE(head(balanced).inertial->mass, 0.0);
  const Finding* note = findingOf(balanced.findings, "fixup.balance-inertias.massless", "head");
  QVERIFY2(note, listOf(balanced.findings).c_str());
  QCOMPARE(note->severity, Severity::Info);
  QCOMPARE(note->link, std::string("head"));
  QCOMPARE(note->joint, std::string("head_pan"));
  QCOMPARE(note->line, lineOf(text, "<link name=\"head\">", "<inertia "));
  QVERIFY2(note->message.find("cannot give a massless link mass") != std::string::npos, note->message.c_str());
  QVERIFY2(note->hint.find("mass-massless-links") != std::string::npos &&
               note->hint.find("Give massless moving links a small mass") != std::string::npos,
           note->hint.c_str());
  const dyn::Model m1 = dyn::loadModel(path, {.fixups = {dyn::Fixup::BalanceInertias}});
  QVERIFY(findingOf(m1.findings, "fixup.balance-inertias.massless", "head"));
  QVERIFY(!m1.immobileBodies.empty());  // still singular: balancing is not the cure

  // The fix-up that can, in the menu's order (after balancing): mass, and no note left.
  const dyn::Model m2 = dyn::loadModel(path, {.fixups = {dyn::Fixup::BalanceInertias, dyn::Fixup::MassMasslessLinks}});
  QVERIFY(m2.immobileBodies.empty());
  QVERIFY2(!findingOf(m2.findings, "fixup.balance-inertias.massless"), listOf(m2.findings).c_str());
  QVERIFY(findingOf(m2.findings, "fixup.mass-massless-links", "head"));

  // No <inertial> at all (the pan-tilt head): nothing to balance, and each massless joint is named.
  dyn::RobotDescription panTilt = dyn::parseUrdfFile(dataFile("massless_pan_tilt.urdf"));
  QVERIFY(dyn::applyFixup(panTilt, dyn::Fixup::BalanceInertias).empty());
  QCOMPARE(countOf(panTilt.findings, "fixup.balance-inertias.massless"), 2);
  QVERIFY(findingOf(panTilt.findings, "fixup.balance-inertias.massless", "camera_pan"));
  QVERIFY(findingOf(panTilt.findings, "fixup.balance-inertias.massless", "camera_tilt"));
}

void TestModelCheck::forwardDynamicsRefusedNamingTheJoint() {
  const std::string path = dataFile("massless_pan_tilt.urdf"), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);  // loads, for viewing, kinematics and inverse dynamics
  const Finding* f = findingOf(model.findings, "mass.massless_subtree", "camera_pan");
  QVERIFY(f);
  QCOMPARE(f->severity, Severity::Warning);
  QCOMPARE(f->line, lineOf(text, "<joint name=\"camera_pan\""));
  QVERIFY2(f->message.find("'camera_tilt'") != std::string::npos, f->message.c_str());
  QCOMPARE(countOf(model.findings, "mass.massless_subtree"), 1);  // the tilt joint is named in the pan's finding

  QVERIFY(dyn::forwardDynamicsRefusal(model).find("joint 'camera_pan'") != std::string::npos);
  try {
    dyn::Simulator sim(model);
    QFAIL("the simulator accepted a joint that moves no mass");
  } catch (const std::runtime_error& e) {
    QVERIFY2(std::string(e.what()).find("joint 'camera_pan'") != std::string::npos, e.what());
  }
  dyn::Data data(model);  // inverse dynamics is fine
  dyn::rnea(model, data, model.neutral(), Eigen::VectorXd::Zero(model.nv), Eigen::VectorXd::Ones(model.nv));
  QVERIFY(data.tau.allFinite());
}

void TestModelCheck::fixupWithNothingToDoSaysSo() {
  dyn::RobotDescription robot = dyn::parseUrdfFile(dataFile("double_pendulum_placeholder.urdf"));
  const size_t before = robot.findings.size();
  // Placeholders are already read as no limit: nothing for the fix-up to change, and it says so.
  QVERIFY(dyn::applyFixup(robot, dyn::Fixup::UnlimitedDegenerateLimits).empty());
  QCOMPARE(robot.findings.size(), before + 1);
  QCOMPARE(robot.findings.back().code, std::string("fixup.unlimited-degenerate-limits"));
  QVERIFY(robot.findings.back().message.find("nothing to change") != std::string::npos);
}

void TestModelCheck::missingMeshes() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  std::filesystem::create_directories(dir.filePath("meshes").toStdString());
  std::ofstream(dir.filePath("meshes/present.stl").toStdString()) << "solid x\nendsolid x\n";
  const std::string xml = R"(<robot name="r">
  <link name="base">
    <visual><geometry><mesh filename="meshes/present.stl"/></geometry></visual>
    <visual><geometry>
      <mesh filename="meshes/absent.stl"/>
    </geometry></visual>
  </link>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/></joint>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="package://no_such_package/meshes/a.stl"/></geometry></visual>
    <visual><geometry><mesh filename="package://no_such_package/meshes/b.stl"/></geometry></visual>
    <collision><geometry><mesh filename="package://no_such_package/meshes/c.stl"/></geometry></collision>
  </link>
</robot>
)";
  const std::string path = dir.filePath("robot.urdf").toStdString();
  std::ofstream(path) << xml;
  const dyn::Model model = dyn::loadModel(path);
  QCOMPARE(countOf(model.findings, "mesh.missing"), 2);  // the absent file; the whole missing package
  const Finding* absent = findingOf(model.findings, "mesh.missing", "base");
  QVERIFY(absent);
  QCOMPARE(absent->line, lineOf(xml, "meshes/absent.stl"));
  const std::string lookedFor = dir.filePath("meshes/absent.stl").toStdString();
  QCOMPARE(absent->message, "mesh 'meshes/absent.stl' not found (looked for " + lookedFor + ")");
  const Finding* package = findingOf(model.findings, "mesh.missing", "arm");
  QVERIFY(package);
  QCOMPARE(package->line, lineOf(xml, "meshes/a.stl"));
  QVERIFY2(package->message.rfind("mesh 'package://no_such_package/meshes/a.stl': package 'no_such_package' not found",
                                  0) == 0 &&
               package->message.find("(file '") == std::string::npos,
           package->message.c_str());
  QVERIFY2(package->message.find("3 mesh references") != std::string::npos, package->message.c_str());
  QCOMPARE(package->body, 1);
  // The same check, without meshes.
  QCOMPARE(countOf(dyn::checkModel(model, nullptr, {.meshes = false}), "mesh.missing"), 0);
}

void TestModelCheck::ignoredElements() {
  const std::string xml = R"(<robot name="r">
  <link name="base"/>
  <joint name="j" type="continuous">
    <parent link="base"/><child link="a"/>
    <limit lower="-1" upper="1" effort="3" velocity="2"/>
    <calibration rising="0.1"/>
  </joint>
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <inertial><mass value="5"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <joint name="k" type="fixed"><parent link="a"/><child link="b"/></joint>
  <link name="b">
    <inertail><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertail>
  </link>
  <transmission name="t1"/>
  <transmission name="t2"/>
  <transmission name="t3"/>
  <gazebo/>
</robot>
)";
  const dyn::Model model = modelOf(xml);
  struct Expected {
    const char* code;
    const char* name;
    Severity severity;
    const char* marker;
  } expected[] = {
      {"urdf.ignored_element", "<transmission>", Severity::Info, "<transmission name=\"t1\""},
      {"urdf.ignored_element", "<gazebo>", Severity::Info, "<gazebo"},
      {"urdf.ignored_element", "<calibration>", Severity::Info, "<calibration"},
      {"urdf.repeated_element", "a", Severity::Warning, "<mass value=\"5\""},
      {"urdf.unknown_element", "b", Severity::Warning, "<inertail>"},
      {"limits.ignored", "j", Severity::Info, "<limit"},
  };
  for (const Expected& e : expected) {
    const Finding* f = findingOf(model.findings, e.code, e.name);
    QVERIFY2(f, (std::string(e.code) + " " + e.name + listOf(model.findings)).c_str());
    QCOMPARE(f->severity, e.severity);
    QCOMPARE(f->line, lineOf(xml, e.marker));
  }
  QCOMPARE(countOf(model.findings, "urdf.ignored_element"), 3);  // transmissions, gazebo, calibration
  QVERIFY(findingOf(model.findings, "urdf.ignored_element", "<transmission>")->message.find("3 such elements") !=
          std::string::npos);
  QCOMPARE(model.I[1].m, 1.0);  // the first <inertial> is the one read, and the misspelt one is lost
  QVERIFY(std::isinf(model.lowerLimit[0]));
}

void TestModelCheck::dhTable() {
  const std::string path = dataFile("planar_warnings.dh"), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);
  const Finding* triangle = findingOf(model.findings, "inertia.triangle");
  QVERIFY(triangle);
  QCOMPARE(triangle->severity, Severity::Warning);
  QCOMPARE(triangle->line, lineOf(text, "joint j2 R"));
  QCOMPARE(triangle->body, model.jointIndex("j2"));
  const Finding* placeholder = findingOf(model.findings, "limits.placeholder", "j3");
  QVERIFY(placeholder);
  QCOMPARE(placeholder->line, lineOf(text, "joint j3 R"));
  QVERIFY(std::isinf(model.lowerLimit[model.joints[model.jointIndex("j3")].idx_q]));
  QCOMPARE(model.lowerLimit[0], -170 * M_PI / 180);  // a real range stays
}

// cond(H) against the closed form: a planar 2R arm of point masses m1 at l1 and m2 at l1 + l2,
// stretched out (q = 0): H = [[m1 l1^2 + m2 (l1 + l2)^2, m2 l2 (l1 + l2)], [m2 l2 (l1 + l2), m2 l2^2]].
void TestModelCheck::conditionNumberOfTwoLinkArm() {
  const double m1 = 2, m2 = 0.5, l1 = 0.6, l2 = 0.4;
  char xml[2048];
  std::snprintf(xml, sizeof xml, R"(<robot name="planar2">
  <link name="base"/>
  <joint name="j1" type="continuous"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/></joint>
  <link name="l1"><inertial><origin xyz="%g 0 0"/><mass value="%g"/>
    <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/><origin xyz="%g 0 0"/><axis xyz="0 0 1"/></joint>
  <link name="l2"><inertial><origin xyz="%g 0 0"/><mass value="%g"/>
    <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>
</robot>
)",
                l1, m1, l1, l2, m2);
  const double a = m1 * l1 * l1 + m2 * (l1 + l2) * (l1 + l2), b = m2 * l2 * (l1 + l2), d = m2 * l2 * l2;
  const double mean = (a + d) / 2, radius = std::sqrt((a - d) * (a - d) / 4 + b * b);
  char expected[64];
  std::snprintf(expected, sizeof expected, "cond(H) = %.3g at the neutral pose", (mean + radius) / (mean - radius));
  const dyn::Model model = modelOf(xml);
  const Finding* f = findingOf(model.findings, "conditioning.cond_h");
  QVERIFY(f);
  QCOMPARE(f->severity, Severity::Info);
  QVERIFY2(f->message.find(expected) != std::string::npos, (f->message + " vs " + expected).c_str());
  QVERIFY(!findingOf(model.findings, "conditioning.mass_ratio"));  // 4:1 is no ratio to mention
}

void TestModelCheck::illConditionedArm() {
  // A 1 ng link at the end of a 1 kg one: cond(H) ~ 1e9, above the warning threshold, and the mass
  // ratio that causes it becomes a warning too, located at the light link.
  const std::string xml = R"(<robot name="r">
  <link name="base"/>
  <joint name="j1" type="continuous"><parent link="base"/><child link="heavy"/></joint>
  <link name="heavy"><inertial><origin xyz="0 0 0.5"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j2" type="continuous"><parent link="heavy"/><child link="light"/><origin xyz="0 0 1"/></joint>
  <link name="light"><inertial><origin xyz="0 0 0.5"/><mass value="1e-9"/>
    <inertia ixx="1e-11" iyy="1e-11" izz="1e-11" ixy="0" ixz="0" iyz="0"/></inertial></link>
</robot>
)";
  const dyn::Model model = modelOf(xml);
  const Finding* cond = findingOf(model.findings, "conditioning.cond_h");
  QVERIFY(cond);
  QCOMPARE(cond->severity, Severity::Warning);
  QCOMPARE(cond->joint, std::string("j2"));  // the smallest eigenvalue lies along the light link's joint
  const Finding* ratio = findingOf(model.findings, "conditioning.mass_ratio", "light");
  QVERIFY(ratio);
  QCOMPARE(ratio->severity, Severity::Warning);
  QCOMPARE(ratio->line, lineOf(xml, "<link name=\"light\"", "<inertial>"));
}

void TestModelCheck::indefiniteMassMatrix() {
  // Negative moments about the joint axis make H = Izz = -0.2 indefinite: a warning at load, and
  // forward dynamics is refused where the pivot is negative, naming the joint and pointing at the
  // inertia finding (no square root of a negative pivot, no "singular" for what is indefinite).
  const std::string xml = oneLink(inertiaXml(-0.5, -0.5, -0.2));
  const dyn::Model model = modelOf(xml);
  const Finding* psd = findingOf(model.findings, "inertia.not_psd", "a");
  QVERIFY(psd);
  const Finding* f = findingOf(model.findings, "conditioning.indefinite");
  QVERIFY2(f, listOf(model.findings).c_str());
  QCOMPARE(f->severity, Severity::Warning);
  QCOMPARE(f->joint, std::string("j"));
  const std::string pointer = "inertia.not_psd at t.urdf:" + std::to_string(lineOf(xml, "<inertia "));
  QCOMPARE(psd->line, lineOf(xml, "<inertia "));
  dyn::Data data(model);
  const Eigen::VectorXd q = model.neutral(), zero = Eigen::VectorXd::Zero(1), tau = Eigen::VectorXd::Ones(1);
  const auto refused = [&](auto&& run) {
    const std::string m = refusalOf(run, 1);
    return m.find("joint 'j' (link 'a')") != std::string::npos && m.find("-0.2, not positive") != std::string::npos &&
           m.find("not positive definite") != std::string::npos && m.find(pointer) != std::string::npos &&
           m.find("balance-inertias") != std::string::npos;
  };
  QVERIFY(refused([&] { dyn::aba(model, data, q, zero, tau); }));
  QVERIFY(refused([&] { dyn::forwardDynamicsCrba(model, data, q, zero, tau); }));
  dyn::DenocWorkspace ws(model);
  QVERIFY(refused([&] { dyn::denocForwardDynamics(model, ws, q, zero, tau); }));
  QVERIFY(refused([&] { dyn::Simulator sim(model); }));
  // Inverse dynamics computes with the values as given: tau = Izz qdd.
  QCOMPARE(dyn::rnea(model, data, q, zero, tau)[0], -0.2);
}

void TestModelCheck::dummyBaseIsANoteNotNoise() {
  // The issue's dummy base, principal moments (-1.8e-22, 1.8e-22, 3e-6): the negative moment is
  // rounding noise (far below 1e-9 of the scale: no inertia.not_psd), but 0 + 0 < 3e-6 misses the
  // triangle inequality by all of c. The link is fixed to the world, so its inertia never enters the
  // dynamics: one note, not a warning.
  const dyn::Model model = dyn::loadModel(dataFile("arm_with_warnings.urdf"));
  std::vector<const Finding*> onBase;
  for (const Finding& f : model.findings)
    if (f.link == "base_footprint" && f.code.rfind("inertia.", 0) == 0) onBase.push_back(&f);
  QCOMPARE(onBase.size(), size_t(1));
  QCOMPARE(onBase[0]->code, std::string("inertia.triangle"));
  QCOMPARE(onBase[0]->severity, Severity::Info);
  QVERIFY2(onBase[0]->message.find("(-1.8e-22, 1.8e-22, 3e-06) kg m^2") != std::string::npos &&
               onBase[0]->message.find("falls 3e-06 short of 3e-06 (100 %)") != std::string::npos,
           onBase[0]->message.c_str());
  // The same link on a joint of its own: a warning (nothing merges or fixes it).
  const dyn::Model alone = modelOf(
      oneLink("      <mass value=\"0.001\"/>\n      <inertia ixx=\"0\" ixy=\"1.8e-22\" ixz=\"0\" iyy=\"0\" iyz=\"0\" "
              "izz=\"3e-6\"/>\n"));
  QCOMPARE(findingOf(alone.findings, "inertia.triangle", "a")->severity, Severity::Warning);
  QVERIFY(!findingOf(alone.findings, "inertia.not_psd"));
  // Noise alone (off-diagonal 1.8e-22 on a physical inertia) is no finding at all.
  const dyn::Model noise = modelOf(
      oneLink("      <mass value=\"1\"/>\n      <inertia ixx=\"1e-3\" ixy=\"1.8e-22\" ixz=\"0\" iyy=\"1e-3\" iyz=\"0\" "
              "izz=\"2e-3\"/>\n"));
  QCOMPARE(countOf(noise.findings, "inertia.triangle") + countOf(noise.findings, "inertia.not_psd"), 0);
}

// A tool plate with rotational inertia but no mass on a prismatic joint: nothing resists the slide,
// D = S^T IA S = 0 there. The file loads (the checker warns); each forward-dynamics entry point refuses
// at the computation, naming the joint and its link and pointing at the finding; inverse dynamics works.
void TestModelCheck::zeroMassLeafRefusedNamingTheJoint() {
  const std::string path = dataFile("linear_stage.urdf"), text = readText(path);
  const dyn::Model model = dyn::loadModel(path);
  QVERIFY(dyn::forwardDynamicsRefusal(model).empty());  // no pre-screen: it is no massless subtree
  const int slide = model.jointIndex("tool_slide");
  const std::string pointer =
      "mass.zero_leaf at " + path + ":" + std::to_string(lineOf(text, "<link name=\"tool_plate\">", "<inertial>"));
  const auto check = [&](auto&& run) {
    const std::string m = refusalOf(run, slide);
    return m.find("joint 'tool_slide' (link 'tool_plate') is 0, not positive") != std::string::npos &&
           m.find("H(q) is singular") != std::string::npos && m.find(pointer) != std::string::npos;
  };
  dyn::Data data(model);
  const Eigen::VectorXd q = model.neutral(), zero = Eigen::VectorXd::Zero(model.nv);
  const Eigen::VectorXd tau = Eigen::VectorXd::Constant(model.nv, 0.5);
  QVERIFY(check([&] { dyn::aba(model, data, q, zero, tau); }));
  QVERIFY(check([&] { dyn::forwardDynamicsCrba(model, data, q, zero, tau); }));
  dyn::DenocWorkspace ws(model);
  QVERIFY(check([&] { dyn::denocForwardDynamics(model, ws, q, zero, tau); }));
  QVERIFY(check([&] { dyn::Simulator sim(model); }));
  QVERIFY(dyn::rnea(model, data, q, zero, zero).allFinite());
}

// Two singular H(q) that rounding leaves a few ulps above or below zero at a general pose (1e-17, or
// -9e-15 against entries of order 10), not at 0. ABA refuses both as singular, naming the root joint:
// not NaN (found by fuzz_urdf), and not "inconsistent inertias" for a negative residue.
//  * A free rod with no inertia about its axis (izz = 0, centre of mass on the axis): no inertia
//    resists a spin about it.
//  * A massless floating base carrying a rod on a hinge, whatever the rod's inertia: turning the base
//    about the hinge while the hinge turns back moves nothing (7 dofs for a body's 6).
// A thin but real rod (izz = 1e-9 kg m^2) is no rounding residue: it computes, ID(FD(tau)) = tau.
void TestModelCheck::floatingRodRefusedUpToRounding() {
  const auto inertial = [](const char* izz) {
    return std::string(R"(<inertial><origin xyz="0 0 -0.5"/><mass value="2"/>
    <inertia ixx="0.0833333" ixy="0" ixz="0" iyy="0.0833333" iyz="0" izz=")") +
           izz + "\"/></inertial>";
  };
  const auto freeRod = [&](const char* izz) {
    return modelOf("<robot name=\"rod\"><link name=\"rod\">" + inertial(izz) + "</link></robot>",
                   {.floatingBase = true});
  };
  const dyn::Model spinning = freeRod("0"), thin = freeRod("1e-9");
  const dyn::Model hinged = modelOf(R"(<robot name="rod">
  <link name="base"/>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="rod"/><origin xyz="0 0 -1"/>
    <axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="10" velocity="5"/></joint>
  <link name="rod">)" + inertial("0.0833333") +
                                        "</link>\n</robot>\n",
                                    {.floatingBase = true});
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto randomPose = [&](const dyn::Model& m) {
    Eigen::VectorXd q = m.neutral();
    q.head<3>() << 5 * u(rng), 5 * u(rng), 5 * u(rng);
    q.segment<4>(3) = Eigen::Vector4d(u(rng), u(rng), u(rng), u(rng)).normalized();
    if (m.nq > 7) q[7] = 3 * u(rng);
    return q;
  };
  for (int trial = 0; trial < 20; ++trial) {
    for (const dyn::Model* m : {&spinning, &hinged}) {
      const Eigen::VectorXd q = randomPose(*m), qd = Eigen::VectorXd::Constant(m->nv, 0.3);
      dyn::Data data(*m);
      const std::string why = refusalOf([&] { dyn::aba(*m, data, q, qd, Eigen::VectorXd::Zero(m->nv)); }, 1);
      QVERIFY2(why.find("joint 'root_joint'") != std::string::npos &&
                   why.find("H(q) is singular") != std::string::npos &&
                   why.find("(pivot 0 of its dof") != std::string::npos,
               why.c_str());
    }
    const Eigen::VectorXd q = randomPose(thin), qd = Eigen::VectorXd::Constant(thin.nv, 0.3);
    const Eigen::VectorXd tau = Eigen::VectorXd::Constant(thin.nv, 0.1);
    dyn::Data data(thin);
    const Eigen::VectorXd a = dyn::aba(thin, data, q, qd, tau);
    QVERIFY(a.allFinite());
    QVERIFY(a.norm() > 1e6);  // 0.1 N m spins 1e-9 kg m^2 up at 1e8 rad/s^2: the values as given
    // Backward error, relative to the sizes it is computed from (H's entries ~ 50, |a| ~ 1e8).
    const double residual = (dyn::rnea(thin, data, q, qd, a) - tau).norm();
    QVERIFY2(residual <= 1e-13 * 50 * a.norm(), qPrintable(QString("trial %1: %2").arg(trial).arg(residual)));
  }
}

// Two coaxial joints with a massless link between them: H(q) is singular at every pose (turning one
// joint forward and the other back moves nothing). The eliminations leave the zero pivot a few ulps
// either side of zero. Every inertia is positive semi-definite, so H cannot be indefinite: the
// refusal says singular (zero up to rounding), never "inconsistent inertias ... balance-inertias".
void TestModelCheck::roundingNegativePivotIsSingular() {
  const dyn::Model model = modelOf(R"(<robot name="coaxial">
  <link name="base"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><origin xyz="0.3 0.1 0.2" rpy="0.3 0.2 0.1"/>
    <axis xyz="0.2 0.5 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <link name="a"/>
  <joint name="j2" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0.2 0.5 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <link name="b"><inertial><origin xyz="0.4 0.2 0.1"/><mass value="3"/>
    <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial></link>
</robot>
)");
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-3, 3);
  // Each forward-dynamics path eliminates in its own order and compares its pivot with a rounding
  // floor: the residue, a few ulps either side of zero, is refused as zero (a q̈ of 1e18 came out of
  // ABA and DeNOC for a residue just above zero before they had the floor).
  dyn::DenocWorkspace ws(model);
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::VectorXd q = Eigen::Vector2d(u(rng), u(rng)), qd = Eigen::Vector2d(0.3, 0.3);
    dyn::Data data(model);
    const Eigen::VectorXd tau = Eigen::Vector2d::Zero();
    for (const std::function<void()>& run :
         {std::function<void()>([&] { dyn::forwardDynamicsCrba(model, data, q, qd, tau); }),
          std::function<void()>([&] { dyn::aba(model, data, q, qd, tau); }),
          std::function<void()>([&] { dyn::denocForwardDynamics(model, ws, q, qd, tau); })}) {
      std::string why;
      try {
        run();
      } catch (const dyn::ForwardDynamicsError& e) {
        why = e.what();
      }
      QVERIFY2(why.find("H(q) is singular") != std::string::npos && why.find("balance-inertias") == std::string::npos,
               why.empty() ? "computed instead of refusing" : why.c_str());
    }
  }
  // A residue beyond the floor, below zero: still singular, said so ("zero up to rounding").
  std::string why;
  try {
    dyn::refuseNonPositivePivot(model, 1, -1e-12, dyn::PivotSource::Ltl);
  } catch (const dyn::ForwardDynamicsError& e) {
    why = e.what();
  }
  QVERIFY2(why.find("-1e-12, not positive (zero up to rounding)") != std::string::npos &&
               why.find("H(q) is singular") != std::string::npos,
           why.c_str());
  // An inertia that is not positive semi-definite below the joint keeps the indefinite diagnosis
  // (indefiniteMassMatrix, refusedWhereThePivotTurnsNegative).
}

// The antenna's slight indefiniteness is a warning, not a refusal: the pan joint still moves the
// antenna's mass (D = Izz + m r^2 > 0), so forward dynamics and simulation run, with the values as given.
void TestModelCheck::slightIndefinitenessComputes() {
  const dyn::Model model = dyn::loadModel(dataFile("rover_antenna.urdf"));
  const Finding* f = findingOf(model.findings, "inertia.not_psd", "antenna");
  QVERIFY(f);
  QVERIFY2(f->message.find("(-3.5e-08, 9.1e-08, 1.2e-07) kg m^2, the smallest 3.5e-08 below zero") != std::string::npos,
           f->message.c_str());
  dyn::Data data(model);
  const Eigen::VectorXd q = model.neutral(), zero = Eigen::VectorXd::Zero(model.nv);
  const Eigen::VectorXd tau = Eigen::VectorXd::Constant(model.nv, 1e-3);
  const Eigen::VectorXd a = dyn::aba(model, data, q, zero, tau);
  QVERIFY(a.allFinite());
  // The values as given: FD inverts ID.
  QVERIFY((dyn::rnea(model, data, q, zero, a) - tau).norm() <= 1e-12);
  QVERIFY((dyn::forwardDynamicsCrba(model, data, q, zero, tau) - a).norm() <= 1e-9 * a.norm());
  dyn::Simulator sim(model);
  QCOMPARE(sim.advance(0.2), dyn::SimulationStatus::Ok);
}

// H(q) = diag(Izz cos^2 q2 + Iyy sin^2 q2, Ixx) for a body (Iyy = -0.5 < 0) turned by q2 about x
// under a joint about z: positive definite at q2 = 0, indefinite beyond tan^2 q2 = Izz / -Iyy. A
// simulation spinning q2 at 2 rad/s (q1 stays at rest: no coupling) stops there, naming joint j1.
void TestModelCheck::refusedWhereThePivotTurnsNegative() {
  const std::string xml = R"(<robot name="r">
  <link name="base"/>
  <joint name="j1" type="continuous"><parent link="base"/><child link="yoke"/><axis xyz="0 0 1"/></joint>
  <link name="yoke"/>
  <joint name="j2" type="continuous"><parent link="yoke"/><child link="body"/><axis xyz="1 0 0"/></joint>
  <link name="body">
    <inertial><mass value="1"/><inertia ixx="1" iyy="-0.5" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
</robot>
)";
  const dyn::Model model = modelOf(xml);
  dyn::SimulationSettings settings;
  settings.integrator = dyn::Integrator::Rk4;
  dyn::Simulator sim(model, settings);  // positive definite at the start
  sim.reset(Eigen::Vector2d::Zero(), Eigen::Vector2d(0, 2));
  QCOMPARE(sim.advance(1.0), dyn::SimulationStatus::Diverged);
  const double crossing = std::atan(std::sqrt(1 / 0.5)) / 2;
  QVERIFY2(sim.time() <= crossing && sim.time() > crossing - 2 * settings.dt, qPrintable(QString::number(sim.time())));
  const std::string& why = sim.lastError();
  QVERIFY2(why.find("the simulation stopped at t = ") == 0 &&
               why.find("joint 'j1' (link 'yoke')") != std::string::npos &&
               why.find("not positive") != std::string::npos &&
               why.find("inertia.not_psd at t.urdf:" + std::to_string(lineOf(xml, "<inertia "))) != std::string::npos,
           why.c_str());
  QVERIFY(sim.record().samples() > 0);  // the run up to there is kept
}

// A floating base adds a joint named root_joint; a file that has one too gets an error finding at
// that joint's line, and the file's joint keeps its own limits.
void TestModelCheck::duplicateJointNameAtItsLine() {
  const std::string path = dataFile("hopper_root_joint.urdf"), text = readText(path);
  QVERIFY(!findingOf(dyn::loadModel(path).findings, "names.duplicate"));
  const dyn::Model model = dyn::loadModel(path, {.floatingBase = true});
  const Finding* f = findingOf(model.findings, "names.duplicate");
  QVERIFY2(f, listOf(model.findings).c_str());
  QCOMPARE(f->severity, Severity::Error);
  QCOMPARE(f->line, lineOf(text, "<joint name=\"root_joint\""));
  QCOMPARE(f->body, model.bodyIndex("thigh"));
  QVERIFY2(f->message.find("the floating base's joint is named 'root_joint', and so is this joint") == 0,
           f->message.c_str());
  const int hip = model.joints[model.bodyIndex("thigh")].idx_q;
  QCOMPARE(model.lowerLimit[hip], -1.2);
  QCOMPARE(model.upperLimit[hip], 1.2);
  QVERIFY(model.joints[1].type == dyn::JointType::Floating);
}

// Every finding has a place to jump to: the robot file and a line, with a fixed or a floating base.
void TestModelCheck::everyFindingHasALine_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<bool>("floating");
  for (const auto& entry : std::filesystem::directory_iterator(std::string(DYNSCOPE_TEST_DATA_DIR) + "/model_check"))
    for (bool floating : {false, true}) {
      const std::string name = entry.path().filename().string();
      QTest::newRow((name + (floating ? " (floating)" : "")).c_str()) << QString::fromStdString(name) << floating;
    }
}

void TestModelCheck::everyFindingHasALine() {
  QFETCH(QString, file);
  QFETCH(bool, floating);
  const std::string path = dataFile(qPrintable(file));
  const dyn::Model model = dyn::loadModel(path, {.floatingBase = floating});
  QVERIFY(!model.findings.empty());
  for (const Finding& f : model.findings) {
    QVERIFY2(f.line > 0 && f.file == path, f.text().c_str());
    QVERIFY2(f.body >= 0 || f.code.rfind("urdf.", 0) == 0, f.text().c_str());  // ignored elements have no body
  }
}

void TestModelCheck::errorsStayErrors_data() {
  QTest::addColumn<QByteArray>("xml");
  QTest::addColumn<QByteArray>("fragment");
  const std::string j = "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>";
  QTest::newRow("broken XML") << QByteArray("<robot name=\"r\"><link name=\"a\"></robot>")
                              << QByteArray("malformed XML");
  QTest::newRow("unknown link") << QByteArray(("<robot name=\"r\"><link name=\"a\"/>" + j + "</robot>").c_str())
                                << QByteArray("'b' does not exist");
  QTest::newRow("cycle")
      << QByteArray(
             "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>"
             "<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>"
             "<joint name=\"k\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint></robot>")
      << QByteArray("cycle");
  QTest::newRow("no links") << QByteArray("<robot name=\"r\"></robot>") << QByteArray("no <link>");
  QTest::newRow("negative mass") << QByteArray(oneLink(inertiaXml(1, 1, 1, -2)).c_str()) << QByteArray("negative mass");
  QTest::newRow("NaN") << QByteArray(oneLink("      <mass value=\"nan\"/>\n").c_str())
                       << QByteArray("not a finite number");
}

void TestModelCheck::errorsStayErrors() {
  QFETCH(QByteArray, xml);
  QFETCH(QByteArray, fragment);
  try {
    modelOf(xml.toStdString());
    QFAIL("loaded");
  } catch (const dyn::LoadError& e) {
    QVERIFY2(std::string(e.what()).find(fragment.toStdString()) != std::string::npos, e.what());
    QVERIFY2(std::string(e.what()).rfind("t.urdf:", 0) == 0, e.what());
  }
}

void TestModelCheck::checkWithoutDescription() {
  // A model built elsewhere (no file, no lines): the checks that need only the model still run.
  dyn::BuildOptions quiet;
  quiet.check = false;
  const dyn::Model model = dyn::buildModel(dyn::parseUrdfFile(dataFile("arm_with_warnings.urdf")), quiet);
  QVERIFY(model.findings.empty());
  const std::vector<Finding> findings = dyn::checkModel(model);
  const Finding* shoulder = findingOf(findings, "inertia.triangle", "shoulder_link");
  QVERIFY(shoulder);
  QCOMPARE(shoulder->line, 0);
  QCOMPARE(shoulder->body, model.bodyIndex("shoulder_link"));
  QVERIFY(findingOf(findings, "limits.degenerate", "wrist"));
  QVERIFY(findingOf(findings, "mimic.enforced", "finger_right_joint"));
  QVERIFY(!findingOf(findings, "urdf.ignored_element"));  // the file's notes need the description
}

QTEST_APPLESS_MAIN(TestModelCheck)
#include "test_model_check.moc"
