// The DH table reader (docs/dh-format.md): the description it builds, unit handling, the
// placement of every frame against an independent 4x4 DH product, and its error messages.
#include <Eigen/Geometry>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/model_builder.hpp"

using dyn::JointKind;
using dyn::LoadError;
using dyn::RobotDescription;
using Mat4 = Eigen::Matrix4d;
using V3 = Eigen::Vector3d;

namespace {

constexpr double kPi = std::numbers::pi;

// Homogeneous transforms written out entry by entry, independent of the parser's Eigen::Geometry code.
Mat4 Rx(double t) {
  Mat4 m = Mat4::Identity();
  m(1, 1) = std::cos(t), m(1, 2) = -std::sin(t);
  m(2, 1) = std::sin(t), m(2, 2) = std::cos(t);
  return m;
}
Mat4 Ry(double t) {
  Mat4 m = Mat4::Identity();
  m(0, 0) = std::cos(t), m(0, 2) = std::sin(t);
  m(2, 0) = -std::sin(t), m(2, 2) = std::cos(t);
  return m;
}
Mat4 Rz(double t) {
  Mat4 m = Mat4::Identity();
  m(0, 0) = std::cos(t), m(0, 1) = -std::sin(t);
  m(1, 0) = std::sin(t), m(1, 1) = std::cos(t);
  return m;
}
Mat4 Tx(double a) {
  Mat4 m = Mat4::Identity();
  m(0, 3) = a;
  return m;
}
Mat4 Tz(double d) {
  Mat4 m = Mat4::Identity();
  m(2, 3) = d;
  return m;
}
Mat4 Txyz(const V3& p) {
  Mat4 m = Mat4::Identity();
  m.block<3, 1>(0, 3) = p;
  return m;
}

// A URDF <origin xyz rpy>: translate, then R = Rz(yaw) Ry(pitch) Rx(roll).
Mat4 urdf(const dyn::Pose& p) { return Txyz(p.xyz) * Rz(p.rpy.z()) * Ry(p.rpy.y()) * Rx(p.rpy.x()); }
Mat4 urdf(double x, double y, double z, double roll, double pitch, double yaw) {
  dyn::Pose p;
  p.xyz = V3(x, y, z);
  p.rpy = V3(roll, pitch, yaw);
  return urdf(p);
}

std::string num(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

const dyn::JointDesc* jointNamed(const RobotDescription& r, const std::string& name) {
  for (const auto& j : r.joints)
    if (j.name == name) return &j;
  return nullptr;
}
const dyn::LinkDesc* linkNamed(const RobotDescription& r, const std::string& name) {
  for (const auto& l : r.links)
    if (l.name == name) return &l;
  return nullptr;
}

// Pose of a link in the root link, composing joint origins and, for movable joints, the
// motion q[name] about / along the joint axis (z for every DH joint).
Mat4 linkInRoot(const RobotDescription& r, const std::string& link, const std::map<std::string, double>& q = {}) {
  for (const auto& j : r.joints) {
    if (j.child != link) continue;
    const double qi = q.count(j.name) ? q.at(j.name) : 0.0;
    const Mat4 motion = j.kind == JointKind::Revolute    ? Rz(qi)
                        : j.kind == JointKind::Prismatic ? Tz(qi)
                                                         : Mat4::Identity();
    return linkInRoot(r, j.parent, q) * urdf(j.origin) * motion;
  }
  return Mat4::Identity();  // the root
}

// A link or a FrameDesc, by name.
Mat4 frameInRoot(const RobotDescription& r, const std::string& name, const std::map<std::string, double>& q = {}) {
  if (linkNamed(r, name)) return linkInRoot(r, name, q);
  for (const auto& f : r.frames)
    if (f.name == name) return linkInRoot(r, f.link, q) * urdf(f.origin);
  qFatal("no link or frame named %s", name.c_str());
  return Mat4::Identity();
}

bool near(const Mat4& a, const Mat4& b, double tol = 1e-12) { return (a - b).cwiseAbs().maxCoeff() < tol; }

std::string show(const Mat4& m) {
  std::ostringstream os;
  os << "\n" << m;
  return os.str();
}

struct DhRow {
  char type;
  double a, alpha, d, theta;
};

std::string tableText(bool modified, const std::vector<DhRow>& rows, const std::string& extra) {
  std::string s = std::string("convention ") + (modified ? "modified\n" : "standard\n") + extra;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const DhRow& r = rows[i];
    s += "joint j" + std::to_string(i + 1) + " " + r.type + " a=" + num(r.a) + " alpha=" + num(r.alpha) +
         " d=" + num(r.d) + " theta=" + num(r.theta) + "\n";
  }
  return s;
}

// (i-1)T(i) of either convention, with the joint variable q added to theta (R) or d (P).
Mat4 dhStep(bool modified, const DhRow& r, double q) {
  const double theta = r.theta + (r.type == 'R' ? q : 0), d = r.d + (r.type == 'P' ? q : 0);
  return modified ? Rx(r.alpha) * Tx(r.a) * Rz(theta) * Tz(d) : Rz(theta) * Tz(d) * Tx(r.a) * Rx(r.alpha);
}

// The LoadError that parsing text throws, if any.
std::optional<LoadError> loadError(const std::string& text, const std::string& source = "err.dh") {
  try {
    dyn::parseDhString(text, source);
  } catch (const LoadError& e) {
    return e;
  }
  return std::nullopt;
}

std::filesystem::path robotsDir() {
#ifdef DYNSCOPE_ROBOTS_DIR
  return DYNSCOPE_ROBOTS_DIR;
#else
  return std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "robots";
#endif
}

std::vector<double> rowMasses(const RobotDescription& r, int n, bool modified) {
  std::vector<double> m;
  for (int i = 1; i <= n; ++i) {
    const dyn::LinkDesc* l = linkNamed(r, (modified ? "link" : "frame") + std::to_string(i));
    m.push_back(l && l->inertial ? l->inertial->mass : -1);
  }
  return m;
}

}  // namespace

class TestDhParser : public QObject {
  Q_OBJECT

 private slots:
  void twoRowStandardTable();
  void modifiedConventionLayout();
  void degreesAreConverted();
  void chainMatchesDhProduct_data();
  void chainMatchesDhProduct();
  void conventionsDescribeTheSameArm();
  void matrixToRpyRoundTrip();
  void poseRotationIsUrdfRpy();
  void geometryForTheRenderer();
  void defaultsAndFileLoading();
  void errors_data();
  void errors();
  void inertiaWarnings_data();
  void inertiaWarnings();
  void shippedRobots();
};

void TestDhParser::twoRowStandardTable() {
  const std::string text =
      "# a comment line\n"
      "name two\n"
      "\n"
      "joint j1 R a=0.5 d=0.2 alpha=1.5 theta=0.1 lower=-1 upper=2 velocity=3 effort=4 damping=0.5 "
      "friction=0.25 mass=2 com=0.1,0.2,0.3 inertia=1,2,2.5   # trailing comment\n"
      "joint j2 P a=0.1 d=0.3 theta=0.2 mass=1 inertia=0.1,0.1,0.1,0.01,0.02,0.03\n";
  const RobotDescription r = dyn::parseDhString(text, "two.dh");
  QCOMPARE(r.name, std::string("two"));
  QCOMPARE(r.sourceFile, std::string("two.dh"));
  QVERIFY(r.gravity.isApprox(V3(0, 0, -9.81)));

  std::vector<std::string> links;
  for (const auto& l : r.links) links.push_back(l.name);
  QCOMPARE(links, (std::vector<std::string>{"base", "link1", "frame1", "link2", "frame2"}));
  QCOMPARE(r.joints.size(), std::size_t(4));

  const dyn::JointDesc& j1 = r.joints[0];
  QCOMPARE(j1.name, std::string("j1"));
  QCOMPARE(j1.kind, JointKind::Revolute);
  QCOMPARE(j1.parent, std::string("base"));
  QCOMPARE(j1.child, std::string("link1"));
  QCOMPARE(j1.line, 4);
  QVERIFY(j1.axis.isApprox(V3::UnitZ()));
  QVERIFY(j1.origin.xyz.isZero());
  QVERIFY(j1.origin.rpy.isApprox(V3(0, 0, 0.1)));  // Rz(theta): the joint turns about DH z(i-1)
  QVERIFY(j1.hasLimits);
  QCOMPARE(j1.lower, -1.0);
  QCOMPARE(j1.upper, 2.0);
  QCOMPARE(j1.velocity, 3.0);
  QCOMPARE(j1.effort, 4.0);
  QCOMPARE(j1.damping, 0.5);
  QCOMPARE(j1.friction, 0.25);

  const dyn::JointDesc& f1 = r.joints[1];
  QCOMPARE(f1.name, std::string("link1_dh_fixed"));
  QCOMPARE(f1.kind, JointKind::Fixed);
  QCOMPARE(f1.parent, std::string("link1"));
  QCOMPARE(f1.child, std::string("frame1"));
  QVERIFY(f1.origin.xyz.isApprox(V3(0.5, 0, 0.2)));  // Tz(d) Tx(a) Rx(alpha)
  QVERIFY(f1.origin.rpy.isApprox(V3(1.5, 0, 0)));

  const dyn::JointDesc& j2 = r.joints[2];
  QCOMPARE(j2.kind, JointKind::Prismatic);
  QCOMPARE(j2.parent, std::string("frame1"));
  QCOMPARE(j2.child, std::string("link2"));
  QVERIFY(j2.origin.xyz.isApprox(V3(0, 0, 0.3)));  // Rz(theta) Tz(d_const)
  QVERIFY(j2.origin.rpy.isApprox(V3(0, 0, 0.2)));
  QVERIFY(!j2.hasLimits);

  const dyn::JointDesc& f2 = r.joints[3];
  QCOMPARE(f2.name, std::string("link2_dh_fixed"));
  QVERIFY(f2.origin.xyz.isApprox(V3(0.1, 0, 0)));
  QVERIFY(f2.origin.rpy.isZero());

  // Inertials are given in DH frame i, so they sit on frame<i>, not on the joint-frame link.
  QVERIFY(!linkNamed(r, "base")->inertial);
  QVERIFY(!linkNamed(r, "link1")->inertial);
  QVERIFY(!linkNamed(r, "link2")->inertial);
  const dyn::InertialDesc& i1 = *linkNamed(r, "frame1")->inertial;
  QCOMPARE(i1.mass, 2.0);
  QVERIFY(i1.origin.xyz.isApprox(V3(0.1, 0.2, 0.3)));
  QVERIFY(i1.origin.rpy.isZero());
  QCOMPARE(i1.ixx, 1.0);
  QCOMPARE(i1.iyy, 2.0);
  QCOMPARE(i1.izz, 2.5);
  QCOMPARE(i1.ixy, 0.0);
  const dyn::InertialDesc& i2 = *linkNamed(r, "frame2")->inertial;
  QCOMPARE(i2.mass, 1.0);
  QCOMPARE(i2.ixy, 0.01);
  QCOMPARE(i2.ixz, 0.02);
  QCOMPARE(i2.iyz, 0.03);
  QCOMPARE(i2.line, 5);

  QCOMPARE(r.defaultEndEffector, std::string("frame2"));
  QCOMPARE(r.frames.size(), std::size_t(1));
  QCOMPARE(r.frames[0].name, std::string("tool"));
  QCOMPARE(r.frames[0].link, std::string("frame2"));
  QVERIFY(r.frames[0].origin.xyz.isZero() && r.frames[0].origin.rpy.isZero());
}

void TestDhParser::modifiedConventionLayout() {
  const RobotDescription r = dyn::parseDhString(
      "convention modified\nbase 0 0 0.5 0 0 0\n"
      "joint j1 R d=0.1 mass=1 com=0,0,0.05\n"
      "joint j2 R a=0.4 alpha=0.3 theta=0.2 d=0.05\n",
      "mod.dh");
  std::vector<std::string> links;
  for (const auto& l : r.links) links.push_back(l.name);
  QCOMPARE(links, (std::vector<std::string>{"base", "base_dh", "link1", "link2"}));
  const dyn::JointDesc* b = jointNamed(r, "base_fixed");
  QVERIFY(b);
  QCOMPARE(b->kind, JointKind::Fixed);
  QCOMPARE(b->parent, std::string("base"));
  QCOMPARE(b->child, std::string("base_dh"));
  QVERIFY(b->origin.xyz.isApprox(V3(0, 0, 0.5)));
  QCOMPARE(b->line, 2);
  QCOMPARE(jointNamed(r, "j1")->parent, std::string("base_dh"));
  QCOMPARE(jointNamed(r, "j2")->parent, std::string("link1"));
  QVERIFY(near(urdf(jointNamed(r, "j2")->origin), Rx(0.3) * Tx(0.4) * Rz(0.2) * Tz(0.05)));
  QVERIFY(linkNamed(r, "link1")->inertial);  // the joint frame is DH frame i
  QCOMPARE(linkNamed(r, "link1")->inertial->mass, 1.0);
  QVERIFY(!linkNamed(r, "link2")->inertial);  // no inertial keys: massless
  QCOMPARE(r.defaultEndEffector, std::string("link2"));
  std::vector<std::string> frames;
  for (const auto& f : r.frames) frames.push_back(f.name + "@" + f.link);
  QCOMPARE(frames, (std::vector<std::string>{"frame1@link1", "frame2@link2", "tool@link2"}));
}

void TestDhParser::degreesAreConverted() {
  const double r90 = kPi / 2;
  const RobotDescription r = dyn::parseDhString(
      "base 0 0 1 90 0 180       # before 'angles': the unit still applies\n"
      "tool 0 0 0.1 0 -90 0\n"
      "angles deg\n"
      "joint j1 R alpha=90 theta=45 lower=-90 upper=90 velocity=180 damping=2 friction=1 effort=5\n"
      "joint j2 P alpha=-30 theta=30 offset=0.1 lower=0 upper=0.5 velocity=0.25\n"
      "joint j3 R offset=-90 d=0.2\n");
  QVERIFY(jointNamed(r, "base_fixed")->origin.rpy.isApprox(V3(r90, 0, kPi)));
  QVERIFY(jointNamed(r, "base_fixed")->origin.xyz.isApprox(V3(0, 0, 1)));
  QCOMPARE(r.frames.back().name, std::string("tool"));
  QVERIFY(r.frames.back().origin.rpy.isApprox(V3(0, -r90, 0)));
  QVERIFY(r.frames.back().origin.xyz.isApprox(V3(0, 0, 0.1)));

  const dyn::JointDesc& j1 = *jointNamed(r, "j1");
  QVERIFY(j1.origin.rpy.isApprox(V3(0, 0, kPi / 4)));
  QVERIFY(jointNamed(r, "link1_dh_fixed")->origin.rpy.isApprox(V3(r90, 0, 0)));
  QCOMPARE(j1.lower, -r90);
  QCOMPARE(j1.upper, r90);
  QCOMPARE(j1.velocity, kPi);
  QCOMPARE(j1.damping, 2.0);  // coefficients stay SI
  QCOMPARE(j1.friction, 1.0);
  QCOMPARE(j1.effort, 5.0);

  const dyn::JointDesc& j2 = *jointNamed(r, "j2");  // prismatic: q, limits and velocity in m
  QCOMPARE(j2.lower, 0.0);
  QCOMPARE(j2.upper, 0.5);
  QCOMPARE(j2.velocity, 0.25);
  QVERIFY(j2.origin.xyz.isApprox(V3(0, 0, 0.1)));  // offset = d constant of a P joint, in m
  QVERIFY(j2.origin.rpy.isApprox(V3(0, 0, kPi / 6)));
  QVERIFY(jointNamed(r, "link2_dh_fixed")->origin.rpy.isApprox(V3(-kPi / 6, 0, 0)));

  QVERIFY(jointNamed(r, "j3")->origin.rpy.isApprox(V3(0, 0, -r90)));  // offset = theta of an R joint
}

void TestDhParser::chainMatchesDhProduct_data() {
  QTest::addColumn<bool>("modified");
  QTest::addColumn<std::vector<DhRow>>("rows");
  QTest::addColumn<bool>("withBase");

  std::mt19937 gen(20240611);
  std::uniform_real_distribution<double> len(-0.8, 0.8), ang(-kPi, kPi);
  std::vector<DhRow> random;
  for (int i = 0; i < 7; ++i) random.push_back({i % 3 == 2 ? 'P' : 'R', len(gen), ang(gen), len(gen), ang(gen)});
  // Right angles everywhere: products such as Rx(90) Rz(90) put pitch at exactly +-90 deg, where
  // roll and yaw are not separately defined; and alpha = pi gives roll = +-pi.
  const double h = kPi / 2;
  const std::vector<DhRow> square = {{'R', 0, -h, 0.2, h},    {'R', 0.3, h, 0, h}, {'P', 0, h, 0.1, -h},
                                     {'R', 0.1, -h, 0.3, -h}, {'R', 0, kPi, 0, h}, {'R', 0.2, h, 0, kPi},
                                     {'P', 0.1, -h, 0, h}};
  const std::vector<DhRow> stanford = {{'R', 0, -h, 0.2, 0}, {'R', 0, -h, 0.1, 0}, {'P', 0, 0, 0, 0},
                                       {'R', 0, h, 0.6, 0},  {'R', 0, -h, 0, 0},   {'R', 0, 0, 0, 0}};
  for (bool modified : {false, true}) {
    const char* c = modified ? "modified" : "standard";
    QTest::newRow((std::string(c) + " random").c_str()) << modified << random << false;
    QTest::newRow((std::string(c) + " random, base").c_str()) << modified << random << true;
    QTest::newRow((std::string(c) + " right angles").c_str()) << modified << square << false;
    QTest::newRow((std::string(c) + " right angles, base").c_str()) << modified << square << true;
    QTest::newRow((std::string(c) + " stanford").c_str()) << modified << stanford << false;
  }
}

void TestDhParser::chainMatchesDhProduct() {
  QFETCH(bool, modified);
  QFETCH(std::vector<DhRow>, rows);
  QFETCH(bool, withBase);
  const std::string extra = withBase ? "base 0.1 -0.2 0.3 0.4 -0.5 0.6\ntool 0.01 0.02 0.03 1.2 0.3 -2\n" : "";
  const RobotDescription r = dyn::parseDhString(tableText(modified, rows, extra));

  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(-2, 2);
  for (bool atZero : {true, false}) {
    std::map<std::string, double> q;
    std::vector<double> qs;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      qs.push_back(atZero ? 0.0 : dist(gen));
      q[std::string("j") + std::to_string(i + 1)] = qs.back();
    }
    Mat4 T = withBase ? urdf(0.1, -0.2, 0.3, 0.4, -0.5, 0.6) : Mat4::Identity();  // DH frame i
    QVERIFY2(near(frameInRoot(r, withBase ? "base_dh" : "base", q), T), "DH frame 0");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Mat4 prev = T;
      T = T * dhStep(modified, rows[i], qs[i]);
      const std::string n = std::to_string(i + 1);
      const Mat4 got = frameInRoot(r, "frame" + n, q);
      QVERIFY2(
          near(got, T),
          ("frame" + n + (atZero ? " at q = 0" : " at q != 0") + "\nexpected" + show(T) + "\ngot" + show(got)).c_str());
      // link<i> is the joint frame: z on joint axis i, which is z of DH frame i-1 (standard) or i (modified).
      const Mat4 joint = linkInRoot(r, "link" + n, q);
      if (modified) {
        QVERIFY2(near(joint, T), ("link" + n).c_str());
      } else {
        const V3 z = prev.block<3, 1>(0, 2), offAxis = joint.block<3, 1>(0, 3) - prev.block<3, 1>(0, 3);
        QVERIFY2((joint.block<3, 1>(0, 2) - z).norm() < 1e-12, ("link" + n + " axis").c_str());
        QVERIFY2(offAxis.cross(z).norm() < 1e-12, ("link" + n + " origin").c_str());
      }
    }
    const Mat4 tool = T * (withBase ? urdf(0.01, 0.02, 0.03, 1.2, 0.3, -2) : Mat4::Identity());
    QVERIFY2(near(frameInRoot(r, "tool", q), tool), "tool");
    QVERIFY(near(frameInRoot(r, r.defaultEndEffector, q), T));
  }
}

// The doc's two spellings of the planar arm put the tool and every centre of mass in the same place.
void TestDhParser::conventionsDescribeTheSameArm() {
  const RobotDescription s = dyn::parseDhString(
      "convention standard\n"
      "joint j1 R a=0.3  mass=0.5 com=-0.15,0,0  inertia=0,0.00375,0.00375\n"
      "joint j2 R a=0.25 mass=0.4 com=-0.125,0,0 inertia=0,0.0020833333333,0.0020833333333\n"
      "joint j3 R a=0.1  mass=0.2 com=-0.05,0,0  inertia=0,0.00016666666667,0.00016666666667\n");
  const RobotDescription m = dyn::parseDhString(
      "convention modified\ntool 0.1 0 0 0 0 0\n"
      "joint j1 R        mass=0.5 com=0.15,0,0  inertia=0,0.00375,0.00375\n"
      "joint j2 R a=0.3  mass=0.4 com=0.125,0,0 inertia=0,0.0020833333333,0.0020833333333\n"
      "joint j3 R a=0.25 mass=0.2 com=0.05,0,0  inertia=0,0.00016666666667,0.00016666666667\n");
  for (const std::map<std::string, double>& q :
       std::vector<std::map<std::string, double>>{{}, {{"j1", 0.7}, {"j2", -1.1}, {"j3", 2.0}}}) {
    const V3 toolS = frameInRoot(s, "tool", q).block<3, 1>(0, 3), toolM = frameInRoot(m, "tool", q).block<3, 1>(0, 3);
    QVERIFY((toolS - toolM).norm() < 1e-12);
    for (int i = 1; i <= 3; ++i) {
      auto comInRoot = [&](const RobotDescription& r, const std::string& link) {
        const dyn::LinkDesc* l = linkNamed(r, link);
        return V3((frameInRoot(r, link, q) * urdf(l->inertial->origin)).block<3, 1>(0, 3));
      };
      const V3 cs = comInRoot(s, "frame" + std::to_string(i)), cm = comInRoot(m, "link" + std::to_string(i));
      QVERIFY2((cs - cm).norm() < 1e-12, ("COM of link " + std::to_string(i)).c_str());
    }
  }
  QCOMPARE(rowMasses(s, 3, false), rowMasses(m, 3, true));
}

void TestDhParser::matrixToRpyRoundTrip() {
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> ang(-kPi, kPi), half(-kPi / 2, kPi / 2);
  for (int k = 0; k < 200; ++k) {
    const double roll = ang(gen), pitch = half(gen), yaw = ang(gen);
    const Mat4 R = urdf(0, 0, 0, roll, pitch, yaw);
    const V3 rpy = dyn::matrixToRpy<double>(R.topLeftCorner<3, 3>());
    QVERIFY(near(urdf(0, 0, 0, rpy.x(), rpy.y(), rpy.z()), R, 1e-12));
  }
  // The parser's poses round-trip through URDF rpy even at pitch = +-90 deg (checked for whole chains in
  // chainMatchesDhProduct); here one joint origin each way.
  for (double s : {1.0, -1.0}) {
    const RobotDescription r = dyn::parseDhString("convention modified\njoint j1 R alpha=" + num(s * kPi / 2) +
                                                  " theta=" + num(kPi / 2) + "\n");
    const dyn::Pose& p = r.joints[0].origin;
    QVERIFY(std::abs(std::abs(p.rpy.y()) - kPi / 2) < 1e-12);
    QVERIFY(near(urdf(p), Rx(s * kPi / 2) * Rz(kPi / 2)));
  }
}

// The model builder turns Pose::rpy into a rotation with dyn::rpyToMatrix; it must read it as URDF does.
void TestDhParser::poseRotationIsUrdfRpy() {
  dyn::Pose p;
  p.rpy = V3(0.3, -0.5, 1.1);
  const Eigen::Matrix3d expected = urdf(p).topLeftCorner<3, 3>();
  QVERIFY2(p.rotation().isApprox(expected, 1e-12), "rpyToMatrix must be URDF's Rz(yaw) Ry(pitch) Rx(roll)");
  QVERIFY(dyn::matrixToRpy<double>(p.rotation()).isApprox(p.rpy, 1e-12));
}

void TestDhParser::geometryForTheRenderer() {
  for (const char* conv : {"standard", "modified"}) {
    const RobotDescription r = dyn::parseDhString(std::string("convention ") + conv +
                                                  "\n"
                                                  "joint j1 R d=0.3 alpha=1.57\n"
                                                  "joint j2 P a=0.2 upper=0.5 lower=0\n"
                                                  "joint j3 R a=0.4 d=-0.1\n");
    std::set<std::array<double, 4>> colours;
    int rods = 0;
    for (const auto& l : r.links) {
      for (const auto& g : l.visuals) {
        QVERIFY(g.material.hasColor);
        colours.insert(g.material.rgba);
        const auto& s = g.shape;
        switch (s.kind) {
          case dyn::Shape::Kind::Cylinder:
            QVERIFY(s.radius > 0 && s.length > 0);
            break;
          case dyn::Shape::Kind::Box:
            QVERIFY((s.size.array() > 0).all());
            break;
          case dyn::Shape::Kind::Sphere:
            QVERIFY(s.radius > 0);
            break;
          default:
            QFAIL("unexpected mesh");
        }
        QVERIFY(g.origin.xyz.allFinite() && g.origin.rpy.allFinite());
        rods += g.name.ends_with("_a") || g.name.ends_with("_d");
      }
    }
    for (const char* l : {"link1", "link2", "link3"}) QVERIFY(!linkNamed(r, l)->visuals.empty());
    QVERIFY(colours.size() >= 3);
    QCOMPARE(rods, 4);  // d1, a2, a3 and d3 (the P joint's d is its moving ram)
  }
  // The rods run exactly along the DH segments: a rod along x sits at pitch +-90 deg in rpy, where a
  // careless matrix-to-rpy conversion can turn it off its line.
  for (const V3& ad : {V3(0.4, 0, 0.2), V3(-0.4, 0, -0.2), V3(0.3, 0, -0.5), V3(-1e-3, 0, 2)}) {
    const double a = ad.x(), d = ad.z();
    const RobotDescription r = dyn::parseDhString("joint j1 R a=" + num(a) + " d=" + num(d) + " alpha=0.5 theta=0.3\n");
    std::map<std::string, std::pair<V3, V3>> ends;
    for (const auto& g : linkNamed(r, "link1")->visuals) {
      const Mat4 T = urdf(g.origin);
      ends[g.name] = {(T * Eigen::Vector4d(0, 0, -g.shape.length / 2, 1)).head<3>(),
                      (T * Eigen::Vector4d(0, 0, g.shape.length / 2, 1)).head<3>()};
    }
    auto joins = [&](const std::string& rod, const V3& p, const V3& q) {
      if (!ends.count(rod)) return false;
      const auto& [e0, e1] = ends.at(rod);
      return ((e0 - p).norm() < 1e-12 && (e1 - q).norm() < 1e-12) ||
             ((e0 - q).norm() < 1e-12 && (e1 - p).norm() < 1e-12);
    };
    QVERIFY2(joins("j1_d", V3::Zero(), V3(0, 0, d)), ("d rod for a=" + num(a)).c_str());
    QVERIFY2(joins("j1_a", V3(0, 0, d), V3(a, 0, d)), ("a rod for a=" + num(a)).c_str());
  }
  // A tool offset (a modified table's last length) is joined to the last link by a rod that ends
  // at the tool ball; without an offset there is no rod.
  for (const char* conv : {"standard", "modified"})
    for (const char* tool : {"tool 0.1 0 0.05 0 0 0\n", ""}) {
      const RobotDescription r =
          dyn::parseDhString(std::string("convention ") + conv + "\n" + tool + "joint j1 R a=0.3\njoint j2 R a=0.25\n");
      const auto* last = linkNamed(r, r.defaultEndEffector);
      QVERIFY(last);
      const V3 toolAt = *tool ? V3(0.1, 0, 0.05) : V3::Zero();
      bool ball = false, rod = false;
      for (const auto& g : last->visuals) {
        const Mat4 T = urdf(g.origin);
        if (g.name == "tool") ball = (T.block<3, 1>(0, 3) - toolAt).norm() < 1e-12;
        if (g.name == "tool_rod") {
          const V3 e0 = (T * Eigen::Vector4d(0, 0, -g.shape.length / 2, 1)).head<3>(),
                   e1 = (T * Eigen::Vector4d(0, 0, g.shape.length / 2, 1)).head<3>();
          rod = (e0.norm() < 1e-12 && (e1 - toolAt).norm() < 1e-12) ||
                (e1.norm() < 1e-12 && (e0 - toolAt).norm() < 1e-12);
          QVERIFY2(*tool, "a rod without a tool offset");
        }
      }
      QVERIFY2(ball, conv);
      QVERIFY2(rod == bool(*tool), (std::string(conv) + ": the tool rod from the last frame to the ball").c_str());
    }
}

void TestDhParser::defaultsAndFileLoading() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const std::string path = dir.filePath("my_arm.dh").toStdString();
  {
    std::ofstream f(path, std::ios::binary);
    f << "\xEF\xBB\xBF# BOM and CRLF\r\njoint j1 R a=1\r\n";
  }
  const RobotDescription r = dyn::parseDhFile(path);
  QCOMPARE(r.name, std::string("my_arm"));  // the file stem
  QCOMPARE(r.sourceFile, path);
  QCOMPARE(r.joints[0].name, std::string("j1"));
  QVERIFY(jointNamed(r, "link1_dh_fixed")->origin.xyz.isApprox(V3(1, 0, 0)));

  const std::string missing = dir.filePath("nope.dh").toStdString();
  try {
    dyn::parseDhFile(missing);
    QFAIL("no error for a missing file");
  } catch (const LoadError& e) {
    QVERIFY2(std::string(e.what()).find(missing) != std::string::npos, e.what());
    QVERIFY2(std::string(e.what()).find("not found") != std::string::npos, e.what());
  }
}

void TestDhParser::errors_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<int>("line");
  QTest::addColumn<QString>("element");
  QTest::addColumn<QString>("message");
  auto add = [](const char* tag, const char* text, int line, const char* element, const char* message) {
    QTest::newRow(tag) << QString(text) << line << QString(element) << QString(message);
  };
  add("unknown directive", "name x\nwibble 3\njoint j1 R\n", 2, "directive 'wibble'", "unknown directive");
  add("directive after joint", "joint j1 R\n\ngravity 0 0 -9.81\n", 3, "directive 'gravity'", "first joint");
  add("directive twice", "angles deg\nangles rad\njoint j1 R\n", 2, "directive 'angles'", "twice");
  add("bad convention", "convention craig\njoint j1 R\n", 1, "directive 'convention'", "'craig'");
  add("bad angles", "angles grad\njoint j1 R\n", 1, "directive 'angles'", "'grad'");
  add("gravity count", "gravity 0 -9.81\njoint j1 R\n", 1, "directive 'gravity'", "got 2");
  add("gravity value", "gravity 0 0 down\njoint j1 R\n", 1, "directive 'gravity'", "'down' is not a finite");
  add("base count", "base 0 0 0 0 0\njoint j1 R\n", 1, "directive 'base'", "got 5");
  add("tool nan", "tool 0 0 nan 0 0 0\njoint j1 R\n", 1, "directive 'tool'", "'nan' is not a finite");
  add("name count", "name two words\njoint j1 R\n", 1, "directive 'name'", "got 2");
  add("bad value", "joint j1 R\njoint j2 R a=0.3x\n", 2, "joint 'j2'", "'a': '0.3x'");
  add("empty value", "joint j1 R d=\n", 1, "joint 'j1'", "'d': ''");
  add("infinite value", "\n\n\njoint j1 R\njoint j2 R mass=inf\n", 5, "joint 'j2'", "'mass': 'inf'");
  add("com count", "joint j1 R com=1,2\n", 1, "joint 'j1'", "'com' needs 3");
  add("com value", "joint j1 R com=1,,2\n", 1, "joint 'j1'", "'com': ''");
  add("inertia count", "joint j1 R inertia=1,1,1,0\n", 1, "joint 'j1'", "'inertia' needs 3");
  add("unknown key", "joint j1 R\njoint j2 P lenght=3\n", 2, "joint 'j2'", "unknown key 'lenght'");
  add("not key=value", "joint j1 R a=1 0.5\n", 1, "joint 'j1'", "key=value");
  add("duplicate key", "joint j1 R\njoint j2 R a=1 d=2 a=3\n", 2, "joint 'j2'", "duplicate key 'a'");
  add("offset and theta", "joint j1 R theta=1 offset=2\n", 1, "joint 'j1'", "'offset' and 'theta'");
  add("offset and d", "joint j1 P offset=1 d=2\n", 1, "joint 'j1'", "'d' and 'offset'");
  add("duplicate joint", "joint j1 R\njoint j2 R\njoint j1 P\n", 3, "joint 'j1'", "duplicate joint name");
  add("reserved name", "joint j1 R\njoint link1_dh_fixed R\n", 2, "joint 'link1_dh_fixed'", "reserved");
  add("reserved base", "base 0 0 0 0 0 0\njoint base_fixed R\n", 2, "joint 'base_fixed'", "reserved");
  add("unknown type", "joint j1 R\njoint j2 H a=1\n", 2, "joint 'j2'", "unknown joint type 'H'");
  add("missing type", "joint j1\n", 1, "joint 'j1'", "joint NAME TYPE");
  add("missing name", "joint R a=1\n", 1, "joint 'R'", "unknown joint type 'a=1'");
  add("key as name", "joint a=1 R\n", 1, "joint", "joint NAME TYPE");
  add("lower > upper", "joint j1 R\njoint j2 R lower=1 upper=-1\n", 2, "joint 'j2'", "'lower' (1)");
  add("only lower", "joint j1 R lower=1\n", 1, "joint 'j1'", "'lower' given without 'upper'");
  add("only upper", "joint j1 P upper=1\n", 1, "joint 'j1'", "'upper' given without 'lower'");
  add("negative mass", "joint j1 R\njoint j2 R mass=-1\n", 2, "joint 'j2'", "'mass' must not be negative");
  add("negative effort", "joint j1 R effort=-1\n", 1, "joint 'j1'", "'effort' must not be negative");
  add("no joints", "name empty\nangles deg\n", 0, "", "no joints");
}

void TestDhParser::errors() {
  QFETCH(QString, text);
  QFETCH(int, line);
  QFETCH(QString, element);
  QFETCH(QString, message);
  const std::optional<LoadError> e = loadError(text.toStdString());
  QVERIFY2(e, "no LoadError");
  const QString what = QString::fromStdString(e->what());
  QCOMPARE(e->line(), line);
  QCOMPARE(e->file(), std::string("err.dh"));
  QCOMPARE(QString::fromStdString(e->element()), element);
  const QString where = line > 0 ? QString("err.dh:%1: ").arg(line) : QString("err.dh: ");
  QVERIFY2(what.startsWith(where), qPrintable(what));
  QVERIFY2(what.contains(element), qPrintable(what));
  QVERIFY2(what.contains(message), qPrintable(what));
}

// Implausible but usable inertias load: the model checker names them with the row's line
// (issue 13); the errors above still refuse the file.
void TestDhParser::inertiaWarnings_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<int>("line");
  QTest::addColumn<QString>("code");
  QTest::addColumn<QString>("message");
  auto add = [](const char* tag, const char* text, int line, const char* code, const char* message) {
    QTest::newRow(tag) << QString(text) << line << QString(code) << QString(message);
  };
  add("inertia not PSD", "joint j1 R mass=1 inertia=-1,1,1\n", 1, "inertia.not_psd", "not positive semi-definite");
  add("inertia products", "joint j1 R mass=1 inertia=1,1,1,2,0,0\n", 1, "inertia.not_psd", "(-1, 1, 3)");
  add("inertia triangle", "joint j1 R mass=1\n# c\njoint j2 R mass=1 inertia=1,1,2.1\n", 3, "inertia.triangle",
      "falls 0.1 short of 2.1");
}

void TestDhParser::inertiaWarnings() {
  QFETCH(QString, text);
  QFETCH(int, line);
  QFETCH(QString, code);
  QFETCH(QString, message);
  QVERIFY(!loadError(text.toStdString()));
  const dyn::Model model = dyn::buildModel(dyn::parseDhString(text.toStdString(), "warn.dh"));
  const auto f = std::find_if(model.findings.begin(), model.findings.end(),
                              [&](const dyn::Finding& x) { return x.code == code.toStdString(); });
  QVERIFY2(f != model.findings.end(), qPrintable(code));
  QCOMPARE(f->severity, dyn::Severity::Warning);
  QCOMPARE(f->file, std::string("warn.dh"));
  QCOMPARE(f->line, line);
  QVERIFY2(QString::fromStdString(f->message).contains(message), f->message.c_str());
}

void TestDhParser::shippedRobots() {
  const std::filesystem::path dir = robotsDir();
  const auto stanford = dir / "stanford_arm.dh", planar = dir / "planar3.dh";
  if (!std::filesystem::exists(stanford) || !std::filesystem::exists(planar))
    QSKIP("robots/stanford_arm.dh or robots/planar3.dh is not there yet");

  // Every shipped table loads.
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".dh") {
      try {
        const RobotDescription r = dyn::parseDhFile(entry.path().string());
        QVERIFY(!r.joints.empty());
      } catch (const LoadError& e) {
        QFAIL(e.what());
      }
    }

  auto movable = [](const RobotDescription& r) {
    std::string types;
    for (const auto& j : r.joints)
      if (j.kind != JointKind::Fixed) types += j.kind == JointKind::Prismatic ? 'P' : 'R';
    return types;
  };
  auto close = [](const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::abs(a[i] - b[i]) > 1e-12) return false;
    return true;
  };

  const RobotDescription s = dyn::parseDhFile(stanford.string());
  QCOMPARE(s.name, std::string("stanford_arm"));
  QCOMPARE(movable(s), std::string("RRPRRR"));
  QVERIFY(close(rowMasses(s, 6, false), {9, 6, 4, 1, 0.6, 0.5}));
  QVERIFY(std::abs(jointNamed(s, "j1")->upper - kPi) < 1e-12);  // written in degrees

  const RobotDescription p = dyn::parseDhFile(planar.string());
  QCOMPARE(p.name, std::string("planar3"));
  QCOMPARE(movable(p), std::string("RRR"));
  QVERIFY(close(rowMasses(p, 3, false), {0.5, 0.4, 0.2}));
  QVERIFY(p.gravity.isApprox(V3(0, -9.81, 0)));
  // At q = 0 the arm lies along base x: 0.3 + 0.25 + 0.1.
  QVERIFY((frameInRoot(p, "tool").block<3, 1>(0, 3) - V3(0.65, 0, 0)).norm() < 1e-12);
}

QTEST_APPLESS_MAIN(TestDhParser)
#include "test_dh_parser.moc"
