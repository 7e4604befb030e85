// Peer oracle: urdfdom (the ROS URDF parser, Debian's build) against Dynscope's URDF reader and
// model builder on every shipped URDF.
//
//  * Field by field: link and joint names, joint types, parent/child, origins (rotations compared as
//    matrices: an rpy triple is not unique, and urdfdom stores a quaternion), axes, limits,
//    dynamics, mimic, inertial origin, mass and inertia components, all to 1e-12.
//  * Kinematics: the world pose of every link, computed from the urdfdom model by chaining
//    joint origins and joint motions, vs our model's frames (dyn::updateFrames) at q = 0 and at
//    random q, fixed and floating base. This checks the numbering and the fixed-joint merging.
#include <QtTest>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>

#include <urdf_parser/urdf_parser.h>

#include "dynscope/dynscope.hpp"

namespace {

constexpr double kTol = 1e-12;

std::string robotPath(const QString& file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file.toStdString(); }

Eigen::Vector3d vec(const urdf::Vector3& v) { return Eigen::Vector3d(v.x, v.y, v.z); }
Eigen::Matrix3d rot(const urdf::Rotation& r) { return Eigen::Quaterniond(r.w, r.x, r.y, r.z).normalized().toRotationMatrix(); }
Eigen::Isometry3d pose(const urdf::Pose& p) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = rot(p.rotation);
  T.translation() = vec(p.position);
  return T;
}

QString near(double ours, double ref, const QString& what, double tol = kTol) {
  if (std::abs(ours - ref) <= tol * std::max(1.0, std::abs(ref))) return {};
  return QString("%1: ours %2, urdfdom %3").arg(what).arg(ours, 0, 'g', 17).arg(ref, 0, 'g', 17);
}
template <class A, class B> QString nearM(const A& ours, const B& ref, const QString& what, double tol = kTol) {
  const double err = (ours - ref).cwiseAbs().maxCoeff();
  const double scale = std::max(1.0, ref.cwiseAbs().maxCoeff());
  if (err <= tol * scale) return {};
  const Eigen::IOFormat fmt(10, 0, ", ", "; ", "", "", "[", "]");  // one line, row by row
  std::stringstream so, sr;
  so << ours.format(fmt);
  sr << ref.format(fmt);
  return QString("%1: max error %2\n  ours    %3\n  urdfdom %4").arg(what).arg(err, 0, 'g', 3)
      .arg(so.str().c_str(), sr.str().c_str());
}

#define CHECK_EMPTY(expr)                      \
  do {                                         \
    const QString m_ = (expr);                 \
    if (!m_.isEmpty()) QFAIL(qPrintable(m_));  \
  } while (0)

bool sameKind(dyn::JointKind k, int t) {
  using dyn::JointKind;
  switch (k) {
    case JointKind::Revolute: return t == urdf::Joint::REVOLUTE;
    case JointKind::Continuous: return t == urdf::Joint::CONTINUOUS;
    case JointKind::Prismatic: return t == urdf::Joint::PRISMATIC;
    case JointKind::Fixed: return t == urdf::Joint::FIXED;
    case JointKind::Planar: return t == urdf::Joint::PLANAR;
    case JointKind::Floating: return t == urdf::Joint::FLOATING;
    default: return false;  // helical, spherical: not URDF
  }
}

// World pose of every link of the urdfdom model for joint values given by name.
std::map<std::string, Eigen::Isometry3d> urdfdomLinkPoses(const urdf::ModelInterface& m,
                                                          const std::function<double(const std::string&)>& qOf,
                                                          const Eigen::Isometry3d& rootPose) {
  std::map<std::string, Eigen::Isometry3d> out;
  std::function<void(const urdf::Link&, const Eigen::Isometry3d&)> visit = [&](const urdf::Link& l,
                                                                             const Eigen::Isometry3d& T) {
    out[l.name] = T;
    for (const auto& j : l.child_joints) {
      Eigen::Isometry3d motion = Eigen::Isometry3d::Identity();
      const Eigen::Vector3d axis = vec(j->axis).normalized();
      switch (j->type) {
        case urdf::Joint::REVOLUTE:
        case urdf::Joint::CONTINUOUS: motion.linear() = Eigen::AngleAxisd(qOf(j->name), axis).toRotationMatrix(); break;
        case urdf::Joint::PRISMATIC: motion.translation() = axis * qOf(j->name); break;
        case urdf::Joint::FIXED: break;
        default: throw std::runtime_error("joint type not handled by the test: " + j->name);
      }
      visit(*m.getLink(j->child_link_name), T * pose(j->parent_to_joint_origin_transform) * motion);
    }
  };
  visit(*m.getRoot(), rootPose);
  return out;
}

}  // namespace

class TestUrdfdomOracle : public QObject {
  Q_OBJECT

 private:
  static void robotRows() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"ur5.urdf", "panda.urdf", "humanoid.urdf", "quadruped.urdf"}) QTest::newRow(f) << QString(f);
  }

 private slots:
  void description_data() { robotRows(); }
  void description() {
    QFETCH(QString, file);
    const std::string path = robotPath(file);
    if (!std::filesystem::exists(path)) QSKIP(qPrintable(file + " missing"));
    const urdf::ModelInterfaceSharedPtr ref = urdf::parseURDFFile(path);
    QVERIFY2(ref, "urdfdom failed to parse the file");
    const dyn::RobotDescription ours = dyn::parseUrdfFile(path);

    QCOMPARE(ours.name, ref->getName());
    // Names: the same sets, no duplicates on our side.
    std::set<std::string> ourLinks, refLinks, ourJoints, refJoints;
    for (const auto& l : ours.links) QVERIFY2(ourLinks.insert(l.name).second, l.name.c_str());
    for (const auto& j : ours.joints) QVERIFY2(ourJoints.insert(j.name).second, j.name.c_str());
    for (const auto& [n, l] : ref->links_) refLinks.insert(n);
    for (const auto& [n, j] : ref->joints_) refJoints.insert(n);
    QCOMPARE(ourLinks, refLinks);
    QCOMPARE(ourJoints, refJoints);

    for (const dyn::JointDesc& j : ours.joints) {
      const urdf::JointConstSharedPtr r = ref->getJoint(j.name);
      QVERIFY(r);
      const QString at = QString("%1 joint '%2'").arg(file, j.name.c_str());
      QVERIFY2(sameKind(j.kind, r->type), qPrintable(at + ": joint type differs"));
      QCOMPARE(j.parent, r->parent_link_name);
      QCOMPARE(j.child, r->child_link_name);
      CHECK_EMPTY(nearM(j.origin.xyz, vec(r->parent_to_joint_origin_transform.position), at + " origin xyz"));
      CHECK_EMPTY(nearM(j.origin.rotation(), rot(r->parent_to_joint_origin_transform.rotation), at + " origin rotation"));
      if (j.kind != dyn::JointKind::Fixed && j.kind != dyn::JointKind::Floating) {
        const Eigen::Vector3d a = vec(r->axis);
        if (std::abs(a.norm() - 1) > kTol) qInfo("%s: axis not unit in the file (|a| = %.17g); both normalise", qPrintable(at), a.norm());
        CHECK_EMPTY(nearM(j.axis, Eigen::Vector3d(a.normalized()), at + " axis"));
      }
      if (r->limits) {
        CHECK_EMPTY(near(j.effort, r->limits->effort, at + " effort limit"));
        CHECK_EMPTY(near(j.velocity, r->limits->velocity, at + " velocity limit"));
        if (j.kind == dyn::JointKind::Revolute || j.kind == dyn::JointKind::Prismatic) {
          // Ours: limited only when lower/upper are written; urdfdom then reads 0 for both.
          CHECK_EMPTY(near(j.hasLimits ? j.lower : 0.0, r->limits->lower, at + " lower limit"));
          CHECK_EMPTY(near(j.hasLimits ? j.upper : 0.0, r->limits->upper, at + " upper limit"));
        }
      } else {
        QVERIFY2(!j.hasLimits && j.effort == 0 && j.velocity == 0, qPrintable(at + ": limits without <limit>"));
      }
      CHECK_EMPTY(near(j.damping, r->dynamics ? r->dynamics->damping : 0.0, at + " damping"));
      CHECK_EMPTY(near(j.friction, r->dynamics ? r->dynamics->friction : 0.0, at + " friction"));
      QCOMPARE(bool(j.mimic), bool(r->mimic));
      if (j.mimic) {
        QCOMPARE(j.mimic->joint, r->mimic->joint_name);
        CHECK_EMPTY(near(j.mimic->multiplier, r->mimic->multiplier, at + " mimic multiplier"));
        CHECK_EMPTY(near(j.mimic->offset, r->mimic->offset, at + " mimic offset"));
      }
    }

    for (const dyn::LinkDesc& l : ours.links) {
      const urdf::LinkConstSharedPtr r = ref->getLink(l.name);
      QVERIFY(r);
      const QString at = QString("%1 link '%2'").arg(file, l.name.c_str());
      QVERIFY2(bool(l.inertial) == bool(r->inertial), qPrintable(at + ": <inertial> present on one side only"));
      if (!l.inertial) continue;
      const dyn::InertialDesc& in = *l.inertial;
      const urdf::Inertial& ri = *r->inertial;
      CHECK_EMPTY(nearM(in.origin.xyz, vec(ri.origin.position), at + " inertial origin xyz"));
      CHECK_EMPTY(nearM(in.origin.rotation(), rot(ri.origin.rotation), at + " inertial origin rotation"));
      CHECK_EMPTY(near(in.mass, ri.mass, at + " mass"));
      CHECK_EMPTY(near(in.ixx, ri.ixx, at + " ixx"));
      CHECK_EMPTY(near(in.ixy, ri.ixy, at + " ixy"));
      CHECK_EMPTY(near(in.ixz, ri.ixz, at + " ixz"));
      CHECK_EMPTY(near(in.iyy, ri.iyy, at + " iyy"));
      CHECK_EMPTY(near(in.iyz, ri.iyz, at + " iyz"));
      CHECK_EMPTY(near(in.izz, ri.izz, at + " izz"));
    }
  }

  // Issue 23: files whose only defects are cosmetic (tests/data/urdf_cosmetic/) open in both, with
  // the values as written; Dynscope says what it makes of them in findings. A parent 'world' that no
  // link defines is Drake's and Gazebo's convention, which urdfdom refuses and Dynscope reads.
  void cosmeticFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("urdfdomOpens");
    for (const char* f : {"undefined_material.urdf", "negative_effort.urdf", "inverted_limits.urdf"})
      QTest::newRow(f) << QString(f) << true;
    for (const char* f : {"world_fixed.urdf", "world_floating.urdf", "world_revolute.urdf"})
      QTest::newRow(f) << QString(f) << false;
  }
  void cosmeticFiles() {
    QFETCH(QString, file);
    QFETCH(bool, urdfdomOpens);
    const std::string path = std::string(DYNSCOPE_TEST_DATA_DIR) + "/urdf_cosmetic/" + file.toStdString();
    const dyn::RobotDescription ours = dyn::parseUrdfFile(path);
    const dyn::Model model = dyn::buildModel(ours);  // Dynscope opens every one of them
    QVERIFY(model.N > 0);
    const urdf::ModelInterfaceSharedPtr ref = urdf::parseURDFFile(path);
    QCOMPARE(bool(ref), urdfdomOpens);
    if (!ref) {
      QVERIFY(std::any_of(model.findings.begin(), model.findings.end(),
                          [](const dyn::Finding& f) { return f.code == "links.implicit_world"; }));
      return;
    }
    QCOMPARE(ours.links.size(), ref->links_.size());
    QCOMPARE(ours.joints.size(), ref->joints_.size());
    for (const dyn::JointDesc& j : ours.joints) {
      const urdf::JointConstSharedPtr r = ref->getJoint(j.name);
      QVERIFY(r);
      const QString at = QString("%1 joint '%2'").arg(file, j.name.c_str());
      QVERIFY2(sameKind(j.kind, r->type), qPrintable(at + ": joint type differs"));
      QCOMPARE(j.parent, r->parent_link_name);
      QCOMPARE(j.child, r->child_link_name);
      QVERIFY(r->limits);
      // The values as written, negative efforts and swapped bounds included.
      CHECK_EMPTY(near(j.effort, r->limits->effort, at + " effort"));
      CHECK_EMPTY(near(j.velocity, r->limits->velocity, at + " velocity"));
      CHECK_EMPTY(near(j.lower, r->limits->lower, at + " lower"));
      CHECK_EMPTY(near(j.upper, r->limits->upper, at + " upper"));
      QCOMPARE(j.hasLimits, r->limits->lower <= r->limits->upper);  // swapped bounds: no position limits
    }
    for (const dyn::LinkDesc& l : ours.links) {
      const urdf::LinkConstSharedPtr r = ref->getLink(l.name);
      QVERIFY(r);
      QCOMPARE(l.visuals.size(), r->visual_array.size());
      for (size_t k = 0; k < l.visuals.size(); ++k) {  // an undefined material: a warning and none in both
        QCOMPARE(l.visuals[k].material.name, r->visual_array[k]->material_name);
        QCOMPARE(l.visuals[k].material.hasColor, bool(r->visual_array[k]->material));
      }
    }
  }

  // World pose of every link: our model frames vs urdfdom's chained joint transforms.
  void linkPoses_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("floating");
    for (const char* f : {"ur5.urdf", "panda.urdf", "humanoid.urdf", "quadruped.urdf"}) {
      QTest::newRow(qPrintable(QString(f) + " fixed")) << QString(f) << false;
      QTest::newRow(qPrintable(QString(f) + " floating")) << QString(f) << true;
    }
  }
  void linkPoses() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const std::string path = robotPath(file);
    if (!std::filesystem::exists(path)) QSKIP(qPrintable(file + " missing"));
    const urdf::ModelInterfaceSharedPtr ref = urdf::parseURDFFile(path);
    QVERIFY(ref);
    const dyn::Model model = dyn::loadModel(path, dyn::BuildOptions{.floatingBase = floating});
    dyn::Data d(model);
    // Every URDF link is a model frame.
    for (const auto& [name, l] : ref->links_) QVERIFY2(model.frameIndex(name) >= 0, name.c_str());

    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-M_PI, M_PI);
    for (int s = 0; s < 11; ++s) {
      Eigen::VectorXd q = model.neutral();
      Eigen::Isometry3d rootPose = Eigen::Isometry3d::Identity();
      if (s > 0) {  // sample 0: q = 0
        for (int i = 1; i <= model.N; ++i) {
          const auto& J = model.joints[i];
          if (J.type == dyn::JointType::Floating) {
            std::normal_distribution<double> N01;
            const Eigen::Quaterniond qt = Eigen::Quaterniond(N01(rng), N01(rng), N01(rng), N01(rng)).normalized();
            q.segment<3>(J.idx_q) = Eigen::Vector3d(U(rng), U(rng), U(rng)) * 0.3;
            q.segment<4>(J.idx_q + 3) = qt.coeffs();  // x y z w
            rootPose.linear() = qt.toRotationMatrix();
            rootPose.translation() = q.segment<3>(J.idx_q);
          } else {
            QCOMPARE(J.nq, 1);
            q[J.idx_q] = U(rng);
          }
        }
      }
      dyn::forwardKinematics(model, d, q);
      dyn::updateFrames(model, d);
      const auto qOf = [&](const std::string& joint) {
        const int i = model.jointIndex(joint);
        if (i <= 0) throw std::runtime_error("no movable joint " + joint);
        return q[model.joints[i].idx_q];
      };
      const auto poses = urdfdomLinkPoses(*ref, qOf, rootPose);
      QCOMPARE(poses.size(), ref->links_.size());
      for (const auto& [name, T] : poses) {
        const int k = model.frameIndex(name);
        const QString at = QString("%1 (%2) sample %3 link '%4'").arg(file, floating ? "floating" : "fixed").arg(s).arg(name.c_str());
        CHECK_EMPTY(nearM(d.oMf[k].rotation(), T.linear(), at + " world rotation"));
        CHECK_EMPTY(nearM(d.oMf[k].translation(), T.translation(), at + " world position"));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestUrdfdomOracle)
#include "test_urdfdom_oracle.moc"
