// The MJCF reader (docs/mjcf.md) on the small models in tests/data/mjcf: the description and model it
// builds against values derived by hand (frames from MuJoCo's orientation rules, a capsule's inertia
// from its geom, <default> inheritance, degrees), armature in CRBA/RNEA/ABA, and its findings and
// errors. tests/oracle/test_mujoco_oracle.cpp compares the same files with MuJoCo itself.
#include <Eigen/Geometry>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <numbers>
#include <string>

#include "dynscope/dynscope.hpp"
#include "dynscope/formulations/registry.hpp"
#include "dynscope/io/mjcf_parser.hpp"

using dyn::JointKind;
using dyn::LoadError;
using dyn::RobotDescription;
using M3 = Eigen::Matrix3d;
using V3 = Eigen::Vector3d;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180;

std::string dataFile(const char* name) { return std::string(DYNSCOPE_TEST_DATA_DIR) + "/mjcf/" + name; }

// Rotation matrices written out entry by entry, independent of the reader's Eigen::Geometry code.
M3 Rx(double t) {
  M3 m;
  m << 1, 0, 0, 0, std::cos(t), -std::sin(t), 0, std::sin(t), std::cos(t);
  return m;
}
M3 Ry(double t) {
  M3 m;
  m << std::cos(t), 0, std::sin(t), 0, 1, 0, -std::sin(t), 0, std::cos(t);
  return m;
}
M3 Rz(double t) {
  M3 m;
  m << std::cos(t), -std::sin(t), 0, std::sin(t), std::cos(t), 0, 0, 0, 1;
  return m;
}

const dyn::LinkDesc& link(const RobotDescription& r, const std::string& name) {
  const auto it = std::find_if(r.links.begin(), r.links.end(), [&](const dyn::LinkDesc& l) { return l.name == name; });
  if (it == r.links.end()) throw std::runtime_error("no link " + name);
  return *it;
}
const dyn::JointDesc& joint(const RobotDescription& r, const std::string& name) {
  const auto it =
      std::find_if(r.joints.begin(), r.joints.end(), [&](const dyn::JointDesc& j) { return j.name == name; });
  if (it == r.joints.end()) throw std::runtime_error("no joint " + name);
  return *it;
}
const dyn::Finding* finding(const std::vector<dyn::Finding>& fs, const std::string& code) {
  const auto it = std::find_if(fs.begin(), fs.end(), [&](const dyn::Finding& f) { return f.code == code; });
  return it == fs.end() ? nullptr : &*it;
}
int countCode(const std::vector<dyn::Finding>& fs, const std::string& code) {
  return int(std::count_if(fs.begin(), fs.end(), [&](const dyn::Finding& f) { return f.code == code; }));
}

// World pose (rotation, position) of a model frame at q.
std::pair<M3, V3> framePose(const dyn::Model& model, const Eigen::VectorXd& q, const std::string& frame) {
  dyn::Data data(model);
  dyn::forwardKinematics(model, data, q);
  dyn::updateFrames(model, data);
  const int k = model.frameIndex(frame);
  if (k < 0) throw std::runtime_error("no frame " + frame);
  return {data.oMf[size_t(k)].E.transpose(), data.oMf[size_t(k)].r};
}

// A capsule's inertia about its centre, across its axis, derived apart from the reader's formula: a
// cylinder of length H plus two hemispheres, each of mass m_h with its own centroidal moment
// 83/320 m_h r^2 across the axis, its centroid 3r/8 beyond the cylinder's end.
double capsuleAcross(double density, double r, double halfLength) {
  const double H = 2 * halfLength;
  const double mc = density * kPi * r * r * H, mh = density * 2.0 / 3.0 * kPi * r * r * r;
  const double d = halfLength + 3 * r / 8;
  return mc * (3 * r * r + H * H) / 12 + 2 * (83.0 / 320.0 * mh * r * r + mh * d * d);
}

}  // namespace

class TestMjcfParser : public QObject {
  Q_OBJECT

 private slots:
  void pendulum() {
    const RobotDescription r = dyn::parseMjcfFile(dataFile("pendulum.xml"));
    QCOMPARE(r.name, std::string("pendulum"));
    QCOMPARE(int(r.links.size()), 2);  // world and pole
    const dyn::JointDesc& j = joint(r, "hinge");
    QCOMPARE(j.kind, JointKind::Revolute);
    QCOMPARE(j.parent, std::string("world"));
    QCOMPARE(j.child, std::string("pole"));
    QVERIFY((j.axis - V3(0, 1, 0)).norm() < 1e-15);
    QVERIFY((j.origin.xyz - V3(0, 0, 1)).norm() < 1e-15);
    QVERIFY(j.hasLimits);
    QCOMPARE(j.lower, -2.0);
    QCOMPARE(j.upper, 2.0);
    QCOMPARE(j.damping, 0.1);
    QCOMPARE(j.effort, 10.0);  // gear 2 times ctrlrange 5
    const dyn::InertialDesc& in = *link(r, "pole").inertial;
    QCOMPARE(in.mass, 2.0);
    QVERIFY((in.origin.xyz - V3(0, 0, -0.5)).norm() < 1e-15);
    QCOMPARE(in.ixx, 0.2);
    QCOMPARE(in.izz, 0.01);
    // The capsule drawn as a cylinder and two spheres, along -z from the joint.
    QCOMPARE(int(link(r, "pole").visuals.size()), 3);
    QVERIFY((link(r, "pole").visuals[0].origin.xyz - V3(0, 0, -0.5)).norm() < 1e-12);
    QCOMPARE(link(r, "pole").visuals[0].shape.length, 1.0);
    // What is not read is said: the keyframe, the light, timestep and friction.
    const dyn::Finding* key = finding(r.findings, "mjcf.keyframes");
    QVERIFY(key);
    QVERIFY(key->message.find("up") != std::string::npos);
    QCOMPARE(key->line, 16);
    QVERIFY(countCode(r.findings, "mjcf.attribute_ignored") >= 2);
    QVERIFY(finding(r.findings, "mjcf.element_ignored"));
    for (const dyn::Finding& f : r.findings) QVERIFY2(f.severity != dyn::Severity::Error, f.text().c_str());
    // Loads through loadModel by its root element; H is the pendulum's m l^2 + I_yy.
    const dyn::Model model = dyn::loadModel(dataFile("pendulum.xml"));
    QCOMPARE(model.nv, 1);
    dyn::Data data(model);
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 0.3);
    QVERIFY(std::abs(dyn::crba(model, data, q)(0, 0) - (2 * 0.25 + 0.2)) < 1e-12);
    QCOMPARE(model.effortLimit[0], 10.0);
    QCOMPARE(int(model.poses.size()), 1);  // the keyframe
    QCOMPARE(model.poses[0].name, std::string("up"));
    QCOMPARE(model.poses[0].q[0], 3.14159);
  }

  // A floating base asked for on a model with its own <freejoint> adds no second free joint (two
  // stacked ones made H singular); an info finding says so. Without one, the base floats as asked.
  void floatingBaseOnAFreeJoint() {
    const RobotDescription r = dyn::parseMjcfFile(dataFile("branched_arm.xml"));
    const dyn::Model plain = dyn::buildModel(r);
    const dyn::Model asked = dyn::buildModel(r, dyn::BuildOptions{.floatingBase = true});
    QCOMPARE(asked.nq, plain.nq);
    QCOMPARE(asked.nv, plain.nv);
    const auto floats = std::find_if(asked.findings.begin(), asked.findings.end(),
                                     [](const dyn::Finding& f) { return f.code == "base.floats"; });
    QVERIFY(floats != asked.findings.end());
    QCOMPARE(floats->joint, std::string("root"));
    QVERIFY(floats->line > 0);
    // A free body beside a static one welded to the world: still no second free joint (the static
    // body would float with it), and forward dynamics works.
    const dyn::Model beside = dyn::buildModel(dyn::parseMjcfString(R"(<mujoco><worldbody>
<body name="table" pos="0 0 0.5"><geom type="box" size="0.5 0.5 0.02"/></body>
<body name="ball" pos="0 0 1"><freejoint name="ballfree"/><geom size="0.1"/></body></worldbody></mujoco>)",
                                                                   "beside.xml"),
                                              dyn::BuildOptions{.floatingBase = true});
    QCOMPARE(beside.nv, 6);
    QVERIFY(!beside.floatingBase);
    QVERIFY(finding(beside.findings, "base.floats"));
    dyn::Data data(beside);
    const Eigen::VectorXd qdd =
        dyn::aba(beside, data, beside.home(), Eigen::VectorXd::Zero(6), Eigen::VectorXd::Zero(6));
    QVERIFY((qdd.tail<3>() - Eigen::Vector3d(0, 0, -9.81)).norm() < 1e-12);  // falls (body axes = world at home)
    const RobotDescription fixedBase = dyn::parseMjcfFile(dataFile("pendulum.xml"));
    QCOMPARE(dyn::buildModel(fixedBase, dyn::BuildOptions{.floatingBase = true}).nv, dyn::buildModel(fixedBase).nv + 6);
  }

  void framesAndAngles() {
    const RobotDescription r = dyn::parseMjcfFile(dataFile("branched_arm.xml"));
    const dyn::Model model = dyn::buildModel(r);
    QCOMPARE(model.nq, 16);  // free 7 + ball 4 + hinge + hinge, hinge, slide + hinge
    QCOMPARE(model.nv, 14);
    QCOMPARE(joint(r, "root").kind, JointKind::Floating);
    QCOMPARE(joint(r, "left_shoulder").kind, JointKind::Spherical);
    QCOMPARE(joint(r, "left_shoulder").armature, 0.01);
    QCOMPARE(joint(r, "right_extend").kind, JointKind::Prismatic);
    QCOMPARE(joint(r, "right_wrist").kind, JointKind::Continuous);
    QCOMPARE(joint(r, "left_elbow").damping, 0.05);  // from the main default
    QCOMPARE(joint(r, "root").damping, 0.0);         // <freejoint> takes no joint defaults
    // Degrees: range and ref.
    QVERIFY(std::abs(joint(r, "left_elbow").lower + kPi / 2) < 1e-15);
    QVERIFY(std::abs(joint(r, "right_pitch").upper - 120 * kDeg) < 1e-15);
    // Three joints in one body: two massless links, then the body.
    QCOMPARE(joint(r, "right_yaw").child, std::string("right_upper/right_yaw"));
    QCOMPARE(joint(r, "right_pitch").parent, std::string("right_upper/right_yaw"));
    QCOMPARE(joint(r, "right_extend").child, std::string("right_upper/right_extend"));  // ref: welded at an offset
    QCOMPARE(joint(r, "right_upper/offset").child, std::string("right_upper"));
    QCOMPARE(joint(r, "right_wrist").child, std::string("right_hand"));  // no anchor, no ref: the body's own link
    QVERIFY(!link(r, "right_upper/right_yaw").inertial);
    QVERIFY(finding(r.findings, "mjcf.joint_chain"));
    QVERIFY(finding(r.findings, "mjcf.tendon"));
    QCOMPARE(finding(r.findings, "mjcf.tendon")->severity, dyn::Severity::Warning);
    QVERIFY(finding(r.findings, "mjcf.sensor"));

    // With the free joint at the torso's written pose and every joint at its ref, each body is where
    // the file places it: quat normalised, euler zyx with moving axes, xyaxes, axisangle, zaxis.
    Eigen::VectorXd q = model.neutral();
    const Eigen::Quaterniond torso = Eigen::Quaterniond(2, 0, 0, 0.5).normalized();
    const int root = model.joints[model.jointIndex("root")].idx_q;
    q.segment<3>(root) = V3(0, 0, 1);
    q.segment<4>(root + 3) << torso.x(), torso.y(), torso.z(), torso.w();
    q[model.joints[model.jointIndex("left_elbow")].idx_q] = 15 * kDeg;
    q[model.joints[model.jointIndex("right_extend")].idx_q] = 0.02;
    const double c = 2 / std::sqrt(4.25), s = 0.5 / std::sqrt(4.25);  // cos, sin of half the torso's yaw
    const M3 Rt = Rz(2 * std::atan2(s, c));
    const V3 pt(0, 0, 1);
    const M3 Rupper = Rt * Rz(10 * kDeg) * Ry(20 * kDeg) * Rx(30 * kDeg);
    const V3 pupper = pt + Rt * V3(0, 0.2, 0);
    M3 Rxy;  // xyaxes="0 1 0 -1 0 0": x -> y, y -> -x
    Rxy << 0, -1, 0, 1, 0, 0, 0, 0, 1;
    const auto [Rl, pl] = framePose(model, q, "left_lower");
    QVERIFY2((Rl - Rupper * Rxy).norm() < 1e-12, "left_lower orientation");
    QVERIFY2((pl - (pupper + Rupper * V3(0, 0, -0.3))).norm() < 1e-12, "left_lower position");
    const M3 Rright = Rt * Rx(-30 * kDeg);
    const auto [Rh, ph] = framePose(model, q, "right_hand");
    QVERIFY2((Rh - Rright * Rx(-45 * kDeg)).norm() < 1e-12, "right_hand orientation (zaxis 0 1 1)");
    QVERIFY2((ph - (pt + Rt * V3(0, -0.2, 0) + Rright * V3(0, 0, -0.3))).norm() < 1e-12, "right_hand position");
    // A site is a frame.
    const auto [Rs, ps] = framePose(model, q, "right_tip");
    QVERIFY((ps - (ph + Rh * V3(0, 0, 0.05))).norm() < 1e-12);
    // The ball's anchor: turning the shoulder moves left_upper about the point 5 cm up its z axis.
    Eigen::VectorXd q2 = q;
    const int ball = model.joints[model.jointIndex("left_shoulder")].idx_q;
    const Eigen::Quaterniond turn(Eigen::AngleAxisd(0.7, V3(0.3, -0.2, 0.9).normalized()));
    q2.segment<4>(ball) << turn.x(), turn.y(), turn.z(), turn.w();
    const V3 anchor = pupper + Rupper * V3(0, 0, 0.05);
    const auto [Ru2, pu2] = framePose(model, q2, "left_upper");
    QVERIFY((Ru2 - Rupper * turn.toRotationMatrix()).norm() < 1e-12);
    QVERIFY((pu2 - (anchor - Ru2 * V3(0, 0, 0.05))).norm() < 1e-12);
  }

  void defaultClasses() {
    const RobotDescription r = dyn::parseMjcfFile(dataFile("defaults.xml"));
    const dyn::JointDesc& shoulder = joint(r, "shoulder");  // childclass arm: main's axis and range
    QVERIFY((shoulder.axis - V3(0, 1, 0)).norm() < 1e-15);
    QCOMPARE(shoulder.damping, 0.2);
    QCOMPARE(shoulder.armature, 0.05);
    QVERIFY(std::abs(shoulder.upper - kPi / 2) < 1e-15);
    const dyn::JointDesc& elbow = joint(r, "elbow");  // class forearm, nested in arm
    QVERIFY((elbow.axis - V3(1, 0, 0)).norm() < 1e-15);
    QCOMPARE(elbow.armature, 0.05);
    QVERIFY(std::abs(elbow.lower + 30 * kDeg) < 1e-15);
    QVERIFY(std::abs(elbow.upper - 150 * kDeg) < 1e-15);
    const dyn::JointDesc& wrist = joint(r, "wrist");  // childclass forearm, its own range
    QVERIFY((wrist.axis - V3(1, 0, 0)).norm() < 1e-15);
    QVERIFY(std::abs(wrist.upper - 10 * kDeg) < 1e-15);

    // upper: a capsule of radius 0.05 (arm) and density 800 (main) along 0.4 m, and a visual sphere
    // of mass 0 that adds nothing.
    const dyn::InertialDesc& up = *link(r, "upper").inertial;
    const double capMass = 800 * (kPi * 0.05 * 0.05 * 0.4 + 4.0 / 3.0 * kPi * std::pow(0.05, 3));
    QVERIFY(std::abs(up.mass - capMass) < 1e-12);
    QVERIFY((up.origin.xyz - V3(0, 0, -0.2)).norm() < 1e-12);
    QVERIFY(std::abs(up.ixx - capsuleAcross(800, 0.05, 0.2)) < 1e-12);
    QVERIFY(std::abs(up.iyy - capsuleAcross(800, 0.05, 0.2)) < 1e-12);
    const double capAxial = 800 * kPi * 0.05 * 0.05 * 0.4 * 0.05 * 0.05 / 2 +
                            2 * (2.0 / 5.0) * (800 * 2.0 / 3.0 * kPi * std::pow(0.05, 3)) * 0.05 * 0.05;
    QVERIFY(std::abs(up.izz - capAxial) < 1e-12);
    // lower: a cylinder (forearm) of radius 0.03, density 1200.
    const dyn::InertialDesc& low = *link(r, "lower").inertial;
    QVERIFY(std::abs(low.mass - 1200 * kPi * 0.03 * 0.03 * 0.3) < 1e-12);
    QVERIFY(std::abs(low.ixx - low.mass * (3 * 0.03 * 0.03 + 0.09) / 12) < 1e-12);
    // The visual class: drawn, not a collision; colours from the main default.
    const dyn::LinkDesc& upper = link(r, "upper");
    QCOMPARE(int(upper.visuals.size()), 4);     // capsule (3 pieces) + sphere
    QCOMPARE(int(upper.collisions.size()), 3);  // the capsule only
    QCOMPARE(upper.visuals[0].material.rgba[0], 0.8);
    // The base, welded to the world, keeps its box.
    QCOMPARE(link(r, "base").visuals[0].shape.kind, dyn::Shape::Kind::Box);
    QVERIFY((link(r, "base").visuals[0].shape.size - V3(0.2, 0.2, 0.1)).norm() < 1e-15);
  }

  void geomInertia() {
    const RobotDescription r = dyn::parseMjcfFile(dataFile("geom_inertia.xml"));
    const dyn::InertialDesc& cap = *link(r, "capsule_only").inertial;
    QVERIFY(std::abs(cap.ixx - capsuleAcross(1000, 0.05, 0.2)) < 1e-12);
    // cluster: mass from volumes (density 1000 unless given; the box's mass given).
    const double volumes = 1000 * (kPi * 0.05 * 0.05 * 0.4 + 4.0 / 3.0 * kPi * std::pow(0.05, 3)) + 1.5 +
                           2000 * kPi * 0.04 * 0.04 * 0.2 + 1000 * 4.0 / 3.0 * kPi * 0.05 * 0.08 * 0.03 +
                           1000 * 4.0 / 3.0 * kPi * std::pow(0.06, 3);
    const dyn::InertialDesc& in = *link(r, "cluster").inertial;
    QVERIFY(std::abs(in.mass - volumes) < 1e-10);
    // The centre of mass is the mass-weighted mean of the geoms' centres.
    const double mcap = 1000 * (kPi * 0.05 * 0.05 * 0.4 + 4.0 / 3.0 * kPi * std::pow(0.05, 3));
    const double mcyl = 2000 * kPi * 0.04 * 0.04 * 0.2, mell = 1000 * 4.0 / 3.0 * kPi * 0.05 * 0.08 * 0.03;
    const double mball = 1000 * 4.0 / 3.0 * kPi * std::pow(0.06, 3);
    const V3 com = (mcap * V3(0.3, 0, 0) + 1.5 * V3(0, 0.2, 0) + mcyl * V3(0, 0, 0.1) + mell * V3(-0.2, 0, 0) +
                    mball * V3(0, -0.2, 0.05)) /
                   volumes;
    QVERIFY((in.origin.xyz - com).norm() < 1e-12);
    // The keyframe: the ball's w x y z quaternion as x y z w, normalised; then the hinge.
    const dyn::Model model = dyn::buildModel(r);
    QCOMPARE(int(model.poses.size()), 1);
    const Eigen::VectorXd& q = model.poses[0].q;
    const Eigen::Vector4d quat = Eigen::Vector4d(0.2, 0.4, 0.6, 1.8) / std::sqrt(0.04 + 0.16 + 0.36 + 3.24);
    QVERIFY((q.segment<4>(model.joints[model.jointIndex("pivot")].idx_q) - quat).norm() < 1e-15);
    QCOMPARE(q[model.joints[model.jointIndex("roll")].idx_q], 0.5);
  }

  void armature() {
    const dyn::Model model = dyn::loadModel(dataFile("armature.xml"));
    QCOMPARE(model.armature.size(), Eigen::Index(3));
    QCOMPARE(model.defaultEndEffector, std::string("c"));  // the body, not its joint's link "c/j3"
    QCOMPARE(model.armature[0], 0.3);
    QCOMPARE(model.damping[0], 1.0);
    const dyn::Model bare = [&] {
      dyn::Model m = model;
      m.armature.resize(0);
      return m;
    }();
    dyn::Data data(model), bareData(bare);
    const Eigen::VectorXd q = Eigen::Vector3d(0.4, -0.3, 0.07), qd = Eigen::Vector3d(0.5, -1, 0.2),
                          qdd = Eigen::Vector3d(1, 2, -3);
    const Eigen::MatrixXd H = dyn::crba(model, data, q), H0 = dyn::crba(bare, bareData, q);
    QVERIFY(((H - H0).diagonal() - model.armature).norm() < 1e-14);
    QVERIFY(((H - H0) - Eigen::MatrixXd((H - H0).diagonal().asDiagonal())).norm() < 1e-14);
    const Eigen::VectorXd tau = dyn::rnea(model, data, q, qd, qdd);
    const Eigen::VectorXd tau0 = dyn::rnea(bare, bareData, q, qd, qdd);
    QVERIFY((tau - tau0 - model.armature.cwiseProduct(qdd)).norm() < 1e-12);
    const Eigen::VectorXd back = dyn::aba(model, data, q, qd, tau);
    QVERIFY2((back - qdd).norm() < 1e-10, "ABA inverts RNEA with armature");
    // General axes and frames: a hinge with armature passes on Ia with Ia e_z = U a / (D + a), not 0.
    {
      const dyn::Model general = dyn::loadModel(dataFile("armature_general.xml"));
      QVERIFY(general.armature.size() == 3 && general.armature.minCoeff() > 0);
      dyn::Data g(general);
      const Eigen::VectorXd t = dyn::rnea(general, g, q, qd, qdd);
      QVERIFY2((dyn::aba(general, g, q, qd, t) - qdd).norm() < 1e-12, "ABA inverts RNEA with armature, general axes");
      QVERIFY2((dyn::forwardDynamicsCrba(general, g, q, qd, t) - qdd).norm() < 1e-12, "CRBA + LTL, the same");
    }
    // The teaching formulations have no rotor inertia: each refuses the model, naming a joint with
    // armature, rather than compute an H without it; the same model without armature binds.
    int refused = 0;
    for (const dyn::Formulation& f : dyn::formulations()) {
      if (!f.revolutePrismaticOnly) continue;
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f.bind(model));
      try {
        f.bind(model);
      } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find("armature") != std::string::npos, e.what());
      }
      f.bind(bare);
      ++refused;
    }
    QVERIFY(refused >= 5);
    // ref: at q = ref the bodies are where the file puts them.
    const auto [Rb, pb] = framePose(model, Eigen::Vector3d(0, 0.5, 0.05), "c");
    QVERIFY((pb - V3(0.5, 0, 0.1)).norm() < 1e-12);
    QVERIFY((Rb - M3::Identity()).norm() < 1e-12);
    // Turning j2 turns b and c about the anchor (0.22, 0, 0.1).
    const auto [Rc, pc] = framePose(model, Eigen::Vector3d(0, 0.5 + 0.3, 0.05), "c");
    QVERIFY((Rc - Ry(0.3)).norm() < 1e-12);
    QVERIFY((pc - (V3(0.22, 0, 0.1) + Ry(0.3) * V3(0.28, 0, 0))).norm() < 1e-12);
  }

  void couplingIncludeAndFindings() {
    const RobotDescription r = dyn::parseMjcfFile(dataFile("coupling.xml"));
    const dyn::JointDesc& b = joint(r, "b");
    QVERIFY(b.mimic);
    QCOMPARE(b.mimic->joint, std::string("a"));
    QCOMPARE(b.mimic->multiplier, -1.0);
    // q_b - 0 = 0.1 - (q_a - 10 deg)
    QVERIFY(std::abs(b.mimic->offset - (0.1 + 10 * kDeg)) < 1e-15);
    const dyn::Finding* connect = finding(r.findings, "mjcf.equality_unsupported");
    QVERIFY(connect);
    QCOMPARE(connect->line, 20);
    const dyn::Finding* unknown = finding(r.findings, "mjcf.attribute_ignored");
    QVERIFY(unknown);
    QVERIFY(unknown->message.find("frobnicate") != std::string::npos);
    QCOMPARE(unknown->severity, dyn::Severity::Info);
    QCOMPARE(unknown->line, 8);
    const dyn::Finding* gizmo = finding(r.findings, "mjcf.element_ignored");
    QVERIFY(gizmo);
    QCOMPARE(gizmo->line, 15);
    // The included file's meshdir and mesh; the body has an <inertial>, so no mesh-inertia warning.
    const dyn::Geometry& mesh = link(r, "finger_a").visuals.at(0);
    QCOMPARE(mesh.shape.kind, dyn::Shape::Kind::Mesh);
    QCOMPARE(mesh.shape.meshUri, std::string("meshes/finger.stl"));
    QCOMPARE(mesh.shape.scale.x(), 0.001);
    QVERIFY(!finding(r.findings, "mjcf.mesh_inertia"));
  }

  void newerAttributes() {
    // MuJoCo 3's attributes: read where they change the model, reported (info) where they do not.
    const RobotDescription r = dyn::parseMjcfFile(dataFile("modern.xml"));
    QCOMPARE(joint(r, "shoulder").effort, 30.0);  // actuatorfrcrange from the class
    QCOMPARE(joint(r, "elbow").armature, 0.02);
    for (const char* attr : {"integrator", "kv", "gravcomp"}) {
      const auto it = std::find_if(r.findings.begin(), r.findings.end(), [&](const dyn::Finding& f) {
        return f.code == "mjcf.attribute_ignored" && f.message.find(std::string("'") + attr + "'") != std::string::npos;
      });
      QVERIFY2(it != r.findings.end(), attr);
      QCOMPARE(it->severity, dyn::Severity::Info);
    }
    for (const dyn::Finding& f : r.findings) QVERIFY2(f.severity == dyn::Severity::Info, f.text().c_str());
  }

  void compilerRulesInline() {
    // <frame> places its children; uppercase eulerseq turns about the fixed axes; inertiagrouprange
    // leaves out the geoms of other groups; autolimits="false" ignores a range without limited.
    const RobotDescription r = dyn::parseMjcfString(R"(<mujoco>
  <compiler angle="radian" eulerseq="XYZ" autolimits="false" inertiagrouprange="0 2"/>
  <worldbody>
    <frame pos="1 0 0" euler="0 0 1.5707963267948966">
      <body name="b" euler="0.1 0.2 0.3">
        <joint name="j" range="-1 1" stiffness="5"/>
        <geom type="sphere" size="0.1"/>
        <geom type="sphere" size="0.5" group="3"/>
      </body>
    </frame>
  </worldbody>
  <actuator><motor tendon="t"/></actuator>
</mujoco>)",
                                                    "inline.xml");
    const dyn::JointDesc& j = joint(r, "j");
    QVERIFY((j.origin.xyz - V3(1, 0, 0)).norm() < 1e-15);
    const M3 R = j.origin.rotation();
    QVERIFY2((R - Rz(kPi / 2) * (Rz(0.3) * Ry(0.2) * Rx(0.1))).norm() < 1e-12, "extrinsic XYZ = Rz Ry Rx");
    QVERIFY(!j.hasLimits);
    QCOMPARE(j.kind, JointKind::Continuous);
    QVERIFY(finding(r.findings, "mjcf.range_without_limited"));
    QVERIFY(!finding(r.findings, "mjcf.joint_spring"));  // a hinge's spring is applied
    QCOMPARE(j.stiffness, 5.0);
    QCOMPARE(j.springref, 0.0);
    QVERIFY(finding(r.findings, "mjcf.actuator_target"));
    QVERIFY(std::abs(link(r, "b").inertial->mass - 1000 * 4.0 / 3.0 * kPi * 0.001) < 1e-12);
    // Not UTF-8: refused, naming the line.
    try {
      dyn::parseMjcfString("<mujoco>\n<worldbody><body name=\"\xff\"/></worldbody></mujoco>", "bad.xml");
      QFAIL("no LoadError");
    } catch (const LoadError& e) {
      QCOMPARE(e.line(), 2);
    }
  }

  void setTotalMass() {
    // settotalmass="14": the masses written (3 kg base welded to the world, the arm's geoms, a 2 kg
    // hand) are scaled to sum to 14 kg, each inertia by the same factor; the ratios stay.
    const RobotDescription plain = dyn::parseMjcfString(
        R"(<mujoco><worldbody><body name="a"><joint/><inertial pos="0 0 0" mass="3" diaginertia="1 2 2.5"/>
<body name="b"><joint/><geom size="0.1"/></body></body></worldbody></mujoco>)",
        "plain.xml");
    const RobotDescription scaled = dyn::parseMjcfString(
        R"(<mujoco><compiler settotalmass="14"/><worldbody><body name="a"><joint/>
<inertial pos="0 0 0" mass="3" diaginertia="1 2 2.5"/><body name="b"><joint/><geom size="0.1"/></body></body>
</worldbody></mujoco>)",
        "scaled.xml");
    const double ma = link(plain, "a").inertial->mass, mb = link(plain, "b").inertial->mass;
    const double s = 14 / (ma + mb);
    QVERIFY(std::abs(link(scaled, "a").inertial->mass + link(scaled, "b").inertial->mass - 14) < 1e-12);
    QVERIFY(std::abs(link(scaled, "a").inertial->mass - s * 3) < 1e-12);
    QVERIFY(std::abs(link(scaled, "a").inertial->iyy - s * 2) < 1e-12);
    QVERIFY(std::abs(link(scaled, "b").inertial->ixx - s * link(plain, "b").inertial->ixx) < 1e-15);
    QVERIFY(finding(scaled.findings, "mjcf.settotalmass"));
    QVERIFY(!finding(scaled.findings, "mjcf.compiler_not_applied"));
    // boundmass, boundinertia, balanceinertia (mass_bounds.xml, also against MuJoCo): a massless body
    // gets boundmass; moments (0.1, 0.1, 0.5) violate A + B >= C and are balanced to their mean.
    const RobotDescription bounds = dyn::parseMjcfFile(dataFile("mass_bounds.xml"));
    QCOMPARE(link(bounds, "empty").inertial->mass, 0.05);
    const dyn::InertialDesc& flat = *link(bounds, "flat").inertial;
    QCOMPARE(flat.mass, 0.05);
    QVERIFY(std::abs(flat.izz - (0.1 + 0.1 + 0.5) / 3) < 1e-12 && std::abs(flat.ixy) < 1e-12);
    QVERIFY(finding(bounds.findings, "mjcf.mass_bounds"));
    // The oracle file: the model's bodies (the base is welded to the world) sum to 14 kg.
    const RobotDescription file = dyn::parseMjcfFile(dataFile("settotalmass.xml"));
    double total = 0;
    for (const dyn::LinkDesc& l : file.links) total += l.inertial ? l.inertial->mass : 0;
    QVERIFY(std::abs(total - 14) < 1e-12);
  }

  void optionFlags() {
    // <flag gravity="disable">: zero gravity; passive="disable": no damping; other flags: an info.
    const RobotDescription r = dyn::parseMjcfString(
        R"(<mujoco><option gravity="0 0 -3"><flag gravity="disable" passive="disable" warmstart="disable"/></option>
<worldbody><body><joint damping="2"/><geom size="0.1"/></body></worldbody></mujoco>)",
        "flags.xml");
    QVERIFY(r.gravity.norm() == 0);
    QCOMPARE(r.joints.front().damping, 0.0);
    QCOMPARE(countCode(r.findings, "mjcf.flag_applied"), 2);
    QVERIFY(finding(r.findings, "mjcf.element_ignored"));
    const RobotDescription on = dyn::parseMjcfString(
        R"(<mujoco><option gravity="0 0 -3"><flag gravity="enable"/></option>
<worldbody><body><joint damping="2"/><geom size="0.1"/></body></worldbody></mujoco>)",
        "flags.xml");
    QVERIFY((on.gravity - dyn::Vec3<double>(0, 0, -3)).norm() == 0);
    QCOMPARE(on.joints.front().damping, 2.0);
    // Gravity-free inverse dynamics: at rest, no torque.
    const dyn::Model model = dyn::loadModel(dataFile("gravity_flag.xml"));
    dyn::Data data(model);
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq, 0.4), z = Eigen::VectorXd::Zero(model.nv);
    QVERIFY(dyn::rnea(model, data, q, z, z).norm() == 0);
  }

  void meshInertia() {
    // A 0.2 x 0.1 x 0.4 box as an OBJ of quads (outward) and as an ASCII STL of triangles with the
    // opposite winding, centred at (0.1, 0, 0): both give the box's mass, centre and inertia.
    QTemporaryDir dir;
    const double a = 0.1, b = 0.05, c = 0.2, cx = 0.1;
    std::vector<V3> v;
    for (int i = 0; i < 8; ++i) v.emplace_back(cx + (i & 1 ? a : -a), i & 2 ? b : -b, i & 4 ? c : -c);
    const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    {
      std::ofstream obj(dir.filePath("box.obj").toStdString());
      for (const V3& p : v) obj << "v " << p.x() << ' ' << p.y() << ' ' << p.z() << "\n";
      for (const auto& q : quads)
        obj << "f " << q[0] + 1 << ' ' << q[1] + 1 << "/1 " << q[2] + 1 << ' ' << q[3] + 1 << "\n";
      std::ofstream stl(dir.filePath("box.stl").toStdString());
      stl << "solid box\n";
      for (const auto& q : quads)
        for (const auto& t : {std::array<int, 3>{q[0], q[2], q[1]}, std::array<int, 3>{q[0], q[3], q[2]}}) {
          stl << "facet normal 0 0 0\nouter loop\n";
          for (int k : t)
            stl << "vertex " << v[size_t(k)].x() << ' ' << v[size_t(k)].y() << ' ' << v[size_t(k)].z() << "\n";
          stl << "endloop\nendfacet\n";
        }
      stl << "endsolid box\n";
      std::ofstream xml(dir.filePath("m.xml").toStdString());
      xml << R"(<mujoco><asset><mesh file="box.obj"/><mesh file="box.stl" name="s"/></asset><worldbody>
  <body name="o"><joint/><geom type="mesh" mesh="box" density="500"/></body>
  <body name="s"><joint/><geom type="mesh" mesh="s" mass="2" euler="0 0 90"/></body></worldbody></mujoco>)";
    }
    const RobotDescription r = dyn::parseMjcfFile(dir.filePath("m.xml").toStdString());
    QVERIFY(!finding(r.findings, "mjcf.mesh_inertia"));
    const double m = 500 * 8 * a * b * c;
    const dyn::InertialDesc& o = *link(r, "o").inertial;
    QVERIFY(std::abs(o.mass - m) < 1e-12);
    QVERIFY((o.origin.xyz - V3(cx, 0, 0)).norm() < 1e-12);
    QVERIFY(std::abs(o.ixx - m * (b * b + c * c) / 3) < 1e-12);
    QVERIFY(std::abs(o.izz - m * (a * a + b * b) / 3) < 1e-12);
    QVERIFY(std::abs(o.ixy) < 1e-12);
    const dyn::InertialDesc& st = *link(r, "s").inertial;  // turned 90 degrees about z: x and y swap
    QVERIFY(std::abs(st.mass - 2) < 1e-12);
    QVERIFY((st.origin.xyz - V3(0, cx, 0)).norm() < 1e-12);
    QVERIFY(std::abs(st.ixx - 2 * (a * a + c * c) / 3) < 1e-12);
    QVERIFY(std::abs(st.iyy - 2 * (b * b + c * c) / 3) < 1e-12);
    // A missing file: the body lacks the mesh's share, and says so.
    const RobotDescription missing = dyn::parseMjcfString(
        R"(<mujoco><asset><mesh file="nowhere.stl"/></asset><worldbody><body><joint/><geom type="mesh" mesh="nowhere"/>
</body></worldbody></mujoco>)",
        dir.filePath("n.xml").toStdString());
    QVERIFY(finding(missing.findings, "mjcf.mesh_inertia"));
  }

  void meshInertiaRules() {
    // Closed forms for each of MuJoCo's rules, on the meshes of tests/data/mjcf/meshes: a right
    // tetrahedron with legs a, a U-shaped prism (a 3u x 3u square less a u x 2u notch, height h).
    const double a = 0.25, u = 0.0625, h = 0.125, rho = 1000;
    const auto load = [](const std::string& compiler, const std::string& meshAttr, const std::string& mesh) {
      return dyn::parseMjcfString("<mujoco><compiler meshdir=\"meshes\" " + compiler + "/><asset><mesh file=\"" + mesh +
                                      ".obj\" " + meshAttr +
                                      "/></asset><worldbody><body name=\"b\"><joint/><geom type=\"mesh\" mesh=\"" +
                                      mesh + "\"/></body></worldbody></mujoco>",
                                  dataFile("rules.xml"));
    };
    const auto mass = [](const RobotDescription& r) { return link(r, "b").inertial->mass; };
    // MuJoCo 2's default: the tetrahedron's mass from its equivalent inertia box. About its centroid
    // the second moments are V a^2 (I/20 - J/80) (J: all ones), principal V a^2 (1/80, 1/20, 1/20), so
    // the box's half-sides are sqrt(3 c_k / V) and its volume 8 a^3 sqrt(27 / 32000).
    const RobotDescription legacy = load("", "", "tetra");
    QVERIFY(std::abs(mass(legacy) - rho * 8 * a * a * a * std::sqrt(27.0 / 32000)) < 1e-12);
    QVERIFY(finding(legacy.findings, "mjcf.mesh_inertia_rule"));
    QVERIFY(finding(legacy.findings, "mjcf.mesh_inertia_rule")->message.find("MuJoCo 2.x") != std::string::npos);
    // Exact (2.x's flag, 3.3's attribute), and 3.3's legacy and convex on a convex mesh: the solid.
    const double tetra = rho * a * a * a / 6;
    for (const auto& [compiler, attr] : {std::pair<std::string, std::string>{"exactmeshinertia=\"true\"", ""},
                                         {"", "inertia=\"exact\""},
                                         {"", "inertia=\"legacy\""},
                                         {"", "inertia=\"convex\""}}) {
      const RobotDescription r = load(compiler, attr, "tetra");
      QVERIFY2(std::abs(mass(r) - tetra) < 1e-12, (compiler + attr).c_str());
      const dyn::InertialDesc& in = *link(r, "b").inertial;
      QVERIFY((in.origin.xyz - V3::Constant(a / 4)).norm() < 1e-15);
      // I = tr(C) - C with C = V a^2 (I/20 - J/80): diagonal m a^2 (1/10 - 1/80) ... per unit mass.
      QVERIFY(std::abs(in.ixx - tetra * a * a * (2.0 / 20 - 2.0 / 80)) < 1e-15);
      QVERIFY(std::abs(in.ixy - tetra * a * a / 80) < 1e-15);
    }
    // The U: exact = 7 u^2 h; convex = the 3u x 3u x h box; MuJoCo 3.3's legacy over-counts.
    const double exactU = rho * 7 * u * u * h, boxU = rho * 9 * u * u * h;
    QVERIFY(std::abs(mass(load("", "inertia=\"exact\"", "ushape")) - exactU) < 1e-12);
    const RobotDescription convex = load("", "inertia=\"convex\"", "ushape");
    QVERIFY(std::abs(mass(convex) - boxU) < 1e-12);
    QVERIFY((link(convex, "b").inertial->origin.xyz - V3(1.5 * u, 1.5 * u, h / 2)).norm() < 1e-15);
    QVERIFY(std::abs(link(convex, "b").inertial->izz - boxU * (18 * u * u) / 12) < 1e-15);
    QVERIFY(mass(load("", "inertia=\"legacy\"", "ushape")) > exactU * 1.01);
    // Shell: the surface of a cube of side s (written in the model by its corners: the hull's faces):
    // mass = density x 6 s^2, Izz = m 5 s^2 / 18.
    const double side = 0.5;
    const RobotDescription shell = dyn::parseMjcfString(
        R"(<mujoco><asset><mesh name="cube" inertia="shell" vertex="0 0 0 0.5 0 0 0 0.5 0 0.5 0.5 0
0 0 0.5 0.5 0 0.5 0 0.5 0.5 0.5 0.5 0.5 0.2 0.3 0.1"/></asset>
<worldbody><body name="b"><joint/><geom type="mesh" mesh="cube"/></body></worldbody></mujoco>)",
        "shell.xml");
    const double ms = rho * 6 * side * side;
    QVERIFY(std::abs(mass(shell) - ms) < 1e-9);
    QVERIFY(std::abs(link(shell, "b").inertial->izz - ms * 5 * side * side / 18) < 1e-12);
    QVERIFY((link(shell, "b").inertial->origin.xyz - V3::Constant(side / 2)).norm() < 1e-15);
    // A mesh written in the model by its vertices (a cube of side 0.25 and a roof apex 0.125 above
    // it; two points inside): the convex hull's solid under the exact rule, no "not defined" warning.
    const RobotDescription house = dyn::parseMjcfFile(dataFile("mesh_exact.xml"));
    QVERIFY(!finding(house.findings, "mjcf.mesh_missing"));
    QVERIFY(!finding(house.findings, "mjcf.mesh_inertia"));
    QVERIFY(finding(house.findings, "mjcf.mesh_inline"));
    const double cube = 0.25 * 0.25 * 0.25, roof = 0.25 * 0.25 * 0.125 / 3;
    QVERIFY(std::abs(link(house, "b4").inertial->mass - rho * (cube + roof)) < 1e-12);
    // ... and with its faces given: the tetrahedron of legs 0.5, 0.25, 0.125 (mass 0.7 written) plus
    // a U at density 1000.
    QVERIFY(std::abs(link(house, "b5").inertial->mass - (0.7 + exactU)) < 1e-12);
    // Bad inline meshes: refused naming the element.
    for (const char* bad : {R"(<mesh name="m" vertex="0 0 0 1 0 0 0 1 0"/>)",
                            R"(<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 4"/>)",
                            R"(<mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" inertia="solid"/>)"}) {
      try {
        dyn::parseMjcfString(std::string("<mujoco><asset>\n") + bad +
                                 "</asset><worldbody><body><joint/><geom size=\"1\"/></body></worldbody></mujoco>",
                             "bad.xml");
        QFAIL(bad);
      } catch (const LoadError& e) {
        QCOMPARE(e.line(), 2);
      }
    }
  }

  void namesShared() {
    // A body and a site (and a body and a geom) named alike: valid MJCF, at most an info; --link
    // means the body.
    const dyn::Model model = dyn::loadModel(dataFile("shared_names.xml"));
    for (const dyn::Finding& f : model.findings) QVERIFY2(f.severity != dyn::Severity::Error, f.text().c_str());
    const dyn::Finding* shared = finding(model.findings, "names.shared");
    QVERIFY(shared);
    QCOMPARE(shared->severity, dyn::Severity::Info);
    QCOMPARE(shared->line, 11);  // the site
    QCOMPARE(model.frames[size_t(model.frameIndex("hand"))].body, model.bodyIndex("hand"));
    QVERIFY(model.frames[size_t(model.frameIndex("hand"))].placement.r.norm() == 0);  // the body, not the site
    // Two sites named alike: still an error (MuJoCo refuses it too).
    const dyn::Model twice = dyn::buildModel(dyn::parseMjcfString(
        R"(<mujoco><worldbody><body name="b"><joint/><geom size="0.1"/><site name="s"/><site name="s" pos="1 0 0"/>
</body></worldbody></mujoco>)",
        "twice.xml"));
    QVERIFY(finding(twice.findings, "names.duplicate"));
    QCOMPARE(finding(twice.findings, "names.duplicate")->severity, dyn::Severity::Error);
  }

  void binaryFiles() {
    // A binary file given as a URDF, an MJCF or a DH table: "not a text file", naming the file.
    QTemporaryDir dir;
    for (const char* name : {"robot.urdf", "robot.xml", "robot.dh", "robot.mjcf"}) {
      const std::string path = dir.filePath(name).toStdString();
      {
        std::ofstream out(path, std::ios::binary);
        out << std::string(
            "<\x01\x02\x00\x7f"
            "ELF binary",
            15);
      }
      try {
        dyn::loadModel(path);
        QFAIL(name);
      } catch (const LoadError& e) {
        QCOMPARE(e.file(), path);
        QVERIFY2(std::string(e.what()).find("this is not a text file") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("\x7f") == std::string::npos, e.what());
      }
    }
  }

  void replicate() {
    // MuJoCo 3's <replicate>: replica i turned by i x euler and placed at p_i (p_0 = 0,
    // p_i+1 = p_i + R_i offset), names suffixed with sep and i; an actuator on a replicated joint acts
    // on every replica.
    const RobotDescription r = dyn::parseMjcfString(R"(<mujoco>
<worldbody>
  <body name="hub" pos="0 0 1"><joint name="spin" axis="0 0 1"/><geom size="0.1"/>
    <replicate count="3" euler="0 0 120" offset="0.5 0 0" sep="_">
      <body name="blade" pos="0.2 0 0"><joint name="pitch" axis="1 0 0"/><geom type="box" size="0.1 0.02 0.01"/>
        <site name="tip" pos="0.1 0 0"/></body>
    </replicate>
  </body>
  <replicate count="2">
    <replicate count="10" sep="-" offset="0 0.1 0"><site name="s"/></replicate>
  </replicate>
</worldbody>
<actuator><motor joint="pitch" ctrlrange="-1 1"/></actuator>
</mujoco>)",
                                                    "replicate.xml");
    const dyn::Model model = dyn::buildModel(r);
    QCOMPARE(model.nv, 4);
    Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
    V3 p = V3::Zero();
    for (int i = 0; i < 3; ++i) {
      const std::string k = std::to_string(i);
      QCOMPARE(joint(r, "pitch_" + k).effort, 1.0);
      const M3 R = Rz(2 * kPi / 3 * i);
      const auto [E, x] = framePose(model, q, "blade_" + k);
      QVERIFY2((x - (V3(0, 0, 1) + p + R * V3(0.2, 0, 0))).norm() < 1e-12, k.c_str());
      QVERIFY2((E - R).norm() < 1e-12, k.c_str());
      QVERIFY((framePose(model, q, "tip_" + k).second - (x + R * V3(0.1, 0, 0))).norm() < 1e-12);
      p += R * V3(0.5, 0, 0);
    }
    // Nested: the inner suffix first, as many digits as the count has.
    int sites = 0;
    for (const dyn::FrameDesc& f : r.frames) sites += f.name.size() == 5 && f.name[0] == 's';
    QCOMPARE(sites, 20);
    QVERIFY((framePose(model, q, "s-071").second - V3(0, 0.7, 0)).norm() < 1e-12);
    QVERIFY(model.frameIndex("s-000") >= 0);
    QVERIFY(finding(r.findings, "mjcf.replicate"));
    // <attach> is refused, naming the element and its line.
    try {
      dyn::parseMjcfString(R"(<mujoco><asset><model name="arm" file="arm.xml"/></asset><worldbody>
<body name="b"><joint/><geom size="1"/>
<attach model="arm" body="base" prefix="a-"/></body></worldbody></mujoco>)",
                           "attach.xml");
      QFAIL("no LoadError");
    } catch (const LoadError& e) {
      QCOMPARE(e.line(), 3);
      QVERIFY2(std::string(e.what()).find("<attach>") != std::string::npos, e.what());
    }
  }

  void madeNamesAvoidWrittenOnes() {
    // Unnamed bodies are named body1, body2, ... skipping the names the file writes: a body written
    // as "body2" beside unnamed ones loads (MuJoCo loads it), no duplicate.
    const dyn::Model model = dyn::buildModel(dyn::parseMjcfString(
        R"(<mujoco><worldbody><body><joint/><geom size=".1"/><body name="body2"><joint/><geom size=".1"/>
<body><joint/><geom size=".1"/><site/><site name="site4"/><site/></body></body></body></worldbody></mujoco>)",
        "names.xml"));
    QCOMPARE(model.nv, 3);
    for (const dyn::Finding& f : model.findings) QVERIFY2(f.severity != dyn::Severity::Error, f.text().c_str());
    QVERIFY(model.frameIndex("body1") >= 0 && model.frameIndex("body2") >= 0 && model.frameIndex("body3") >= 0);
  }

  void negativeJointValuesWarn() {
    // MuJoCo compiles negative damping, armature and stiffness: a warning, the values kept.
    const RobotDescription r = dyn::parseMjcfString(
        R"(<mujoco><worldbody><body><joint name="j" damping="-1" stiffness="-2" frictionloss="-0.5"/><geom size=".1"/>
</body></worldbody></mujoco>)",
        "negative.xml");
    QCOMPARE(joint(r, "j").damping, -1.0);
    QCOMPARE(joint(r, "j").stiffness, -2.0);
    QCOMPARE(finding(r.findings, "mjcf.negative_joint_value")->severity, dyn::Severity::Warning);
  }

  void emptyWorld() {
    // A world without bodies (a template a program fills): MuJoCo loads it, and so does Dynscope, as
    // an empty model with an info; its algorithms and the simulator run on zero dofs.
    const dyn::Model model = dyn::buildModel(dyn::parseMjcfString(
        "<mujoco>\n<worldbody>\n<geom type=\"plane\" size=\"1 1 0.1\"/>\n</worldbody></mujoco>", "empty.xml"));
    QCOMPARE(model.nv, 0);
    QCOMPARE(model.N, 0);
    const dyn::Finding* f = finding(model.findings, "mjcf.no_bodies");
    QVERIFY(f);
    QCOMPARE(f->severity, dyn::Severity::Info);
    QCOMPARE(f->line, 2);
    for (const dyn::Finding& g : model.findings) QVERIFY2(g.severity != dyn::Severity::Error, g.text().c_str());
    dyn::Data data(model);
    const Eigen::VectorXd z = Eigen::VectorXd::Zero(0);
    QCOMPARE(dyn::crba(model, data, z).size(), Eigen::Index(0));
    QCOMPARE(dyn::rnea(model, data, z, z, z).size(), Eigen::Index(0));
    QCOMPARE(dyn::aba(model, data, z, z, z).size(), Eigen::Index(0));
    dyn::computeEnergy(model, data, z, z);
    QCOMPARE(data.kinetic + data.potential, 0.0);
    for (const dyn::Integrator integrator :
         {dyn::Integrator::SemiImplicitEuler, dyn::Integrator::Rk4, dyn::Integrator::DormandPrince45}) {
      dyn::SimulationSettings st;
      st.integrator = integrator;
      st.dt = 1e-3;
      dyn::Simulator sim(model, st);
      sim.reset(z, z);
      QCOMPARE(sim.advance(0.05), dyn::SimulationStatus::Ok);
      QVERIFY(std::abs(sim.time() - 0.05) < 1e-12);
    }
  }

  void dispatchAndRoot() {
    QVERIFY(dyn::looksLikeMjcf("<?xml version=\"1.0\"?>\n<!-- a <robot> in a comment -->\n<mujoco model=\"x\">"));
    QVERIFY(!dyn::looksLikeMjcf("<?xml version=\"1.0\"?><robot name=\"r\"><link name=\"a\"/></robot>"));
    QVERIFY(!dyn::looksLikeMjcf("<mujocox/>"));
    // URDF files keep loading as before.
    const dyn::Model ur5 = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/ur5.urdf");
    QCOMPARE(ur5.nv, 6);
  }

  void errors_data() {
    QTest::addColumn<QString>("xml");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown class") << "<mujoco>\n<worldbody>\n<body>\n<joint class=\"nope\"/>\n<geom size=\"1\"/>\n"
                                      "</body></worldbody></mujoco>"
                                   << 4 << "class 'nope'";
    QTest::newRow("nested free joint")
        << "<mujoco><worldbody>\n<body><geom size=\"1\"/>\n<body>\n<freejoint/>\n<geom size=\"1\"/></body></body>"
           "</worldbody></mujoco>"
        << 4 << "free joint";
    QTest::newRow("bad number") << "<mujoco><worldbody>\n<body pos=\"0 x 0\"/></worldbody></mujoco>" << 2
                                << "not a finite number";
    // Found by fuzz_mjcf: a limited actuator or joint with no range anywhere (own attribute or class).
    QTest::newRow("forcelimited without forcerange")
        << "<mujoco><worldbody><body><joint name=\"j\"/><geom size=\"1\"/></body></worldbody>\n<actuator>\n"
           "<motor joint=\"j\" forcelimited=\"true\"/></actuator></mujoco>"
        << 3 << "forcelimited=\"true\" without a forcerange";
    QTest::newRow("ctrllimited in a class without ctrlrange")
        << "<mujoco><default><motor ctrllimited=\"true\"/></default>\n<worldbody><body><joint name=\"j\"/>"
           "<geom size=\"1\"/></body></worldbody><actuator>\n<motor joint=\"j\"/></actuator></mujoco>"
        << 3 << "ctrllimited=\"true\" without a ctrlrange";
    QTest::newRow("limited joint without range")
        << "<mujoco><worldbody><body>\n<joint name=\"j\" limited=\"true\"/><geom size=\"1\"/></body>"
           "</worldbody></mujoco>"
        << 2 << "limited=\"true\" without a range";
    // Found by fuzz_mjcf: an int attribute holding a huge number (casting it to int is undefined).
    QTest::newRow("huge geom group") << "<mujoco><worldbody><body>\n<geom size=\"1\" group=\"1e300\"/></body>"
                                        "</worldbody></mujoco>"
                                     << 2 << "expected whole numbers";
    QTest::newRow("fractional inertiagrouprange")
        << "<mujoco>\n<compiler inertiagrouprange=\"0 2.5\"/><worldbody><body><geom size=\"1\"/></body>"
           "</worldbody></mujoco>"
        << 2 << "expected whole numbers";
    // Syntax errors in plain words (as URDF's), at the line to look at.
    QTest::newRow("malformed") << "<mujoco>\n<worldbody>\n</mujoco>" << 3
                               << "malformed XML: </mujoco> on line 3 closes <worldbody> opened on line 2";
    QTest::newRow("bad attribute")
        << "<mujoco>\n<worldbody>\n<body>\n<joint name=\"a\" axis=0 1 0/>\n</body></worldbody></mujoco>" << 4
        << "an attribute of <joint> on line 4 is malformed";
    QTest::newRow("truncated") << "<mujoco>\n<worldbody>\n<body name=\"arm\">\n<geom size=\"1\"/>" << 4
                               << "the file ends inside <body name='arm'> opened on line 3";
    QTest::newRow("binary") << QString::fromLatin1(
                                   "\x7f"
                                   "ELF\x02\x01")
                            << 0 << "this is not a text file";
  }
  void errors() {
    QFETCH(QString, xml);
    QFETCH(int, line);
    QFETCH(QString, says);
    try {
      dyn::parseMjcfString(xml.toStdString(), "m.xml");
      QFAIL("no LoadError");
    } catch (const LoadError& e) {
      QCOMPARE(e.line(), line);
      QVERIFY2(QString(e.what()).contains(says), e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestMjcfParser)
#include "test_mjcf_parser.moc"
