// URDF (or any description) serial chain -> DH table (dynscope/io/dh_from_urdf.hpp). Real arms (the
// shipped UR5 and Panda, tests/data/convert/iiwa14.urdf from KUKA's data sheet) and random chains
// with skew, parallel, intersecting and coincident axes, prismatic and fixed joints, in both
// conventions: the table's model, and the URDF written from it, agree with the original URDF's at
// random states (every body's world inertia, the end frame, tau, H, qdd) to 1e-12; the conversion is
// idempotent (its own output converts to itself); the shipped DH tables come back as written;
// every refusal names the joint.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>
#include <stdexcept>

#include "dh_table_compare.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/io/dh_from_urdf.hpp"
#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/urdf_writer.hpp"
#include "model_compare.hpp"

using dyn::DhConvention;
using dyn::RobotDescription;
using dyn::testing::tableDifference;
using Vec3 = Eigen::Vector3d;

namespace {

constexpr double kPi = std::numbers::pi;

RobotDescription urdfThroughDh(const dyn::DhTable& t) {
  return dyn::parseUrdfString(dyn::writeUrdf(dyn::dhTableToDescription(t)), "from_dh.urdf");
}

// Random serial chain: joints of random kind (R, continuous, P) with random origins and axes, some
// pairs forced parallel, coincident or intersecting, fixed links with mass in between, inertials
// with turned frames, and a tool link at the end.
RobotDescription randomChain(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  RobotDescription r;
  r.name = "chain" + std::to_string(seed);
  r.gravity = Vec3(0.5 * U(rng), 0.5 * U(rng), -9.81);
  const auto link = [&](const std::string& name, bool mass) {
    dyn::LinkDesc l;
    l.name = name;
    if (mass) {
      dyn::InertialDesc in;
      in.mass = 0.5 + std::abs(U(rng));
      in.origin.xyz = 0.2 * Vec3(U(rng), U(rng), U(rng));
      in.origin.rpy = Vec3(U(rng), U(rng), U(rng));
      in.ixx = 0.02 + 0.01 * std::abs(U(rng)), in.iyy = 0.02 + 0.01 * std::abs(U(rng)), in.izz = 0.02;
      in.ixy = 0.002 * U(rng);
      l.inertial = in;
    }
    r.links.push_back(l);
  };
  link("root", true);
  std::string parent = "root";
  Vec3 lastAxis = Vec3::UnitZ();
  const int n = 3 + int(seed % 5);
  for (int i = 1; i <= n; ++i) {
    dyn::JointDesc j;
    j.name = "q" + std::to_string(i);
    const int kind = int(std::abs(U(rng)) * 3);
    j.kind = kind == 0 ? dyn::JointKind::Revolute : kind == 1 ? dyn::JointKind::Continuous : dyn::JointKind::Prismatic;
    j.parent = parent;
    j.child = "l" + std::to_string(i);
    j.origin.xyz = 0.4 * Vec3(U(rng), U(rng), U(rng));
    j.origin.rpy = Vec3(U(rng), U(rng), U(rng));
    j.axis = Vec3(U(rng), U(rng), U(rng)).normalized();
    const int special = (int(seed) + i) % 4;  // 0: generic skew
    if (special == 1) {  // parallel to the previous axis (in the parent's frame: no turn, same axis)
      j.origin.rpy.setZero();
      j.axis = lastAxis;
    } else if (special == 2) {  // coincident with the previous axis
      j.origin.rpy.setZero();
      j.axis = lastAxis;
      j.origin.xyz = 0.3 * lastAxis;
    } else if (special == 3) {  // intersecting the previous axis at the parent's origin
      j.origin.xyz.setZero();
    }
    lastAxis = j.axis;
    j.hasLimits = j.kind != dyn::JointKind::Continuous;
    j.lower = -1, j.upper = 1.2;
    j.velocity = 2, j.effort = 30, j.damping = 0.1 * i, j.friction = 0.05;
    j.actuated = i == 1;
    r.joints.push_back(j);
    link(j.child, i != 2);
    parent = j.child;
    if (i % 2 == 0) {  // a link with mass on a fixed joint: merged into the body
      dyn::JointDesc f;
      f.name = "fixed" + std::to_string(i);
      f.kind = dyn::JointKind::Fixed;
      f.parent = parent;
      f.child = "m" + std::to_string(i);
      f.origin.xyz = 0.2 * Vec3(U(rng), U(rng), U(rng));
      f.origin.rpy = Vec3(U(rng), U(rng), U(rng));
      r.joints.push_back(f);
      link(f.child, true);
      parent = f.child;
    }
  }
  dyn::JointDesc t;
  t.name = "tool_joint";
  t.kind = dyn::JointKind::Fixed;
  t.parent = parent;
  t.child = "tip";
  t.origin.xyz = Vec3(0.1, 0.05, 0.2);
  t.origin.rpy = Vec3(0.3, -0.2, 0.1);
  r.joints.push_back(t);
  link("tip", false);
  return r;
}

RobotDescription source(const QString& name) {
  if (name.startsWith("random:")) return randomChain(name.mid(7).toUInt());
  return dyn::loadDescription(name.toStdString());
}

}  // namespace

class TestDhFromUrdf : public QObject {
  Q_OBJECT
 private slots:
  void sameRobot_data();
  void sameRobot();
  void shippedTablesComeBack_data();
  void shippedTablesComeBack();
  void refusalsNameTheJoint_data();
  void refusalsNameTheJoint();
};

void TestDhFromUrdf::sameRobot_data() {
  QTest::addColumn<QString>("model");
  QTest::addColumn<QString>("end");  // the link that becomes the tool
  QTest::addColumn<bool>("modified");
  const QString robots(DYNSCOPE_ROBOTS_DIR), data(DYNSCOPE_TEST_DATA_DIR);
  const std::pair<QString, QString> arms[] = {{robots + "/ur5.urdf", "tool0"},
                                              {robots + "/panda.urdf", "panda_hand_tcp"},
                                              {data + "/convert/iiwa14.urdf", "iiwa_tcp"}};
  for (const auto& [file, end] : arms)
    for (bool modified : {false, true})
      QTest::newRow(qPrintable(QFileInfo(file).fileName() + (modified ? " modified" : " standard")))
          << file << end << modified;
  for (unsigned seed = 1; seed <= 12; ++seed)
    for (bool modified : {false, true})
      QTest::newRow(qPrintable(QString("random chain %1 %2").arg(seed).arg(modified ? "modified" : "standard")))
          << QString("random:%1").arg(seed) << "tip" << modified;
}

void TestDhFromUrdf::sameRobot() {
  QFETCH(QString, model);
  QFETCH(QString, end);
  QFETCH(bool, modified);
  const DhConvention convention = modified ? DhConvention::Modified : DhConvention::Standard;
  const RobotDescription d = source(model);
  std::vector<std::string> notes;
  const dyn::DhTable t = dyn::dhTableFromDescription(d, convention, &notes);
  QCOMPARE(t.convention, convention);
  for (const std::string& n : notes)  // only the ground's inertia may be left out: nothing approximated
    QVERIFY2(n.find("fixed to the ground") != std::string::npos, n.c_str());
  // Through the text, exactly.
  const dyn::DhTable written = dyn::parseDhTable(dyn::writeDhTable(t), "written.dh");
  QVERIFY2(tableDifference(written, t, 0).isEmpty(), qPrintable(tableDifference(written, t, 0)));

  const dyn::Model a = dyn::buildModel(d);
  const dyn::Model b = dyn::buildModel(dyn::dhTableToDescription(written));
  const dyn::Model c = dyn::buildModel(urdfThroughDh(written));
  COMPARE_MODELS(a, b, {end.toStdString(), "tool"});
  COMPARE_MODELS(a, c, {end.toStdString(), "tool"});
  QVERIFY(a.jointNames == b.jointNames);
  QVERIFY(a.lowerLimit == b.lowerLimit && a.upperLimit == b.upperLimit && a.velocityLimit == b.velocityLimit);
  QVERIFY(a.effortLimit == b.effortLimit && a.damping == b.damping && a.friction == b.friction);
  QCOMPARE(b.actuatedDofs(), a.actuatedDofs());

  // Idempotent: the URDF written from the table converts back to the same table.
  const dyn::DhTable again = dyn::dhTableFromDescription(urdfThroughDh(t), convention);
  const QString why = tableDifference(again, t, 1e-12);
  QVERIFY2(why.isEmpty(), qPrintable("not idempotent: " + why + "\n" + QString::fromStdString(dyn::writeDhTable(t)) +
                                     "\n" + QString::fromStdString(dyn::writeDhTable(again))));
}

void TestDhFromUrdf::shippedTablesComeBack_data() {
  QTest::addColumn<QString>("file");
  for (const char* f : {"planar3.dh", "puma560.dh", "stanford_arm.dh"})
    QTest::newRow(f) << QString(DYNSCOPE_ROBOTS_DIR) + "/" + f;
}

// DH -> URDF -> DH: the shipped tables are in the normal form the conversion produces (first row's
// constants from the world frame, a >= 0, the last frame continuing the previous x), so they come
// back as written (up to the tidying of 1e-14), in their own convention and in the other one.
void TestDhFromUrdf::shippedTablesComeBack() {
  QFETCH(QString, file);
  std::ifstream in(file.toStdString());
  std::ostringstream text;
  text << in.rdbuf();
  const dyn::DhTable t = dyn::parseDhTable(text.str(), file.toStdString());
  for (DhConvention convention : {DhConvention::Standard, DhConvention::Modified}) {
    const dyn::DhTable expected = dyn::toConvention(t, convention);
    dyn::DhTable back = dyn::dhTableFromDescription(urdfThroughDh(t), convention);
    back.degrees = t.degrees;
    back.sourceName = t.sourceName;
    const QString why = tableDifference(back, expected, 1e-12);
    QVERIFY2(why.isEmpty(), qPrintable(why + "\n" + QString::fromStdString(dyn::writeDhTable(back)) + "\nexpected\n" +
                                       QString::fromStdString(dyn::writeDhTable(expected))));
    COMPARE_MODELS(dyn::buildModel(dyn::dhTableToDescription(t)), dyn::buildModel(dyn::dhTableToDescription(back)),
                   {"tool", "tool"});
  }
}

void TestDhFromUrdf::refusalsNameTheJoint_data() {
  QTest::addColumn<QString>("model");
  QTest::addColumn<QString>("change");  // what is done to the description first
  QTest::addColumn<QString>("joint");   // the joint the message must name
  QTest::addColumn<QString>("reason");  // a word of the reason
  const QString robots(DYNSCOPE_ROBOTS_DIR);
  QTest::newRow("branch") << robots + "/quadruped.urdf"
                          << ""
                          << ""
                          << "branches";
  QTest::newRow("humanoid branch") << robots + "/humanoid.urdf"
                                   << ""
                                   << ""
                                   << "branches";
  QTest::newRow("loop joint") << robots + "/fourbar.urdf"
                              << ""
                              << ""
                              << "loop";
  QTest::newRow("cycle") << robots + "/slider_crank.urdf"
                         << ""
                         << ""
                         << "loop";
  QTest::newRow("planar") << robots + "/ur5.urdf"
                          << "planar"
                          << "elbow_joint"
                          << "planar";
  QTest::newRow("spherical") << robots + "/ur5.urdf"
                             << "spherical"
                             << "elbow_joint"
                             << "spherical";
  QTest::newRow("floating") << robots + "/ur5.urdf"
                            << "floating"
                            << "elbow_joint"
                            << "floating";
  QTest::newRow("mimic") << robots + "/ur5.urdf"
                         << "mimic"
                         << "elbow_joint"
                         << "mimic";
  QTest::newRow("armature") << robots + "/ur5.urdf"
                            << "armature"
                            << "elbow_joint"
                            << "armature";
  QTest::newRow("no movable joint") << robots + "/ur5.urdf"
                                    << "all fixed"
                                    << ""
                                    << "no revolute";
}

void TestDhFromUrdf::refusalsNameTheJoint() {
  QFETCH(QString, model);
  QFETCH(QString, change);
  QFETCH(QString, joint);
  QFETCH(QString, reason);
  RobotDescription d = dyn::loadDescription(model.toStdString());
  for (dyn::JointDesc& j : d.joints) {
    if (change == "all fixed") j.kind = dyn::JointKind::Fixed;
    if (j.name != joint.toStdString()) continue;
    if (change == "planar") j.kind = dyn::JointKind::Planar;
    if (change == "spherical") j.kind = dyn::JointKind::Spherical;
    if (change == "floating") j.kind = dyn::JointKind::Floating;
    if (change == "mimic") j.mimic = dyn::JointDesc::Mimic{"shoulder_lift_joint", 1, 0, 0};
    if (change == "armature") j.armature = 0.2;
  }
  try {
    dyn::dhTableFromDescription(d, DhConvention::Standard);
    QFAIL("converted");
  } catch (const std::invalid_argument& e) {
    const QString what = e.what();
    QVERIFY2(what.contains(reason), e.what());
    if (!joint.isEmpty()) QVERIFY2(what.startsWith("joint '" + joint + "'"), e.what());
    if (reason == "branches" || reason == "loop") {  // names a joint of the file
      QVERIFY2(what.startsWith("joint '"), e.what());
      const std::string named = what.section('\'', 1, 1).toStdString();
      const bool exists =
          std::any_of(d.joints.begin(), d.joints.end(), [&](const auto& j) { return j.name == named; }) ||
          std::any_of(d.loopJoints.begin(), d.loopJoints.end(), [&](const auto& j) { return j.name == named; });
      QVERIFY2(exists, e.what());
    }
  }
}

QTEST_APPLESS_MAIN(TestDhFromUrdf)
#include "test_dh_from_urdf.moc"
