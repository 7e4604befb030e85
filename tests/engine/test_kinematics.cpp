// Forward kinematics against references computed here:
//  * the DH robots robots/stanford_arm.dh and robots/puma560.dh: the world pose of every DH frame
//    "frame<i>" (and "tool", and the joint frames "link<i>") against the product of standard-DH
//    4x4 homogeneous matrices T_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i), with the parameters
//    hard-coded below from those files (and checked against the files' text, so an edited file
//    is reported rather than silently tested against stale numbers);
//  * the URDF robots: model.frames holds exactly one frame per URDF <link> (names read here
//    with QXmlStreamReader, independently of the engine's parser), and every frame's world pose
//    equals the URDF chain product Trans(xyz) Rz(yaw) Ry(pitch) Rx(roll) Rot(axis, q) computed here.
#include <QFile>
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>

#include <Eigen/Geometry>

#include "dynscope/dynscope.hpp"

using Eigen::Matrix3d;
using Eigen::Matrix4d;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

constexpr double kTol = 1e-12;
constexpr double kDeg = M_PI / 180.0;

std::string robotPath(const char* f) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + f; }

// ---- DH ---------------------------------------------------------------------------------------------
struct DhRow {
  const char* name;
  bool prismatic;
  double a, d, alphaDeg, thetaDeg;  // constants; the joint variable adds to theta (R) or d (P)
};

// robots/stanford_arm.dh (standard convention, angles in degrees)
const std::vector<DhRow> kStanford = {
    {"j1", false, 0, 0.2, -90, 0}, {"j2", false, 0, 0.1, -90, 0}, {"j3", true, 0, 0, 0, 0},
    {"j4", false, 0, 0.6, 90, 0},  {"j5", false, 0, 0, -90, 0},   {"j6", false, 0, 0, 0, 0},
};
// robots/puma560.dh (standard convention, angles in degrees)
const std::vector<DhRow> kPuma = {
    {"j1", false, 0, 0, 90, 0},          {"j2", false, 0.4318, 0, 0, 0}, {"j3", false, 0.0203, 0.15005, -90, 0},
    {"j4", false, 0, 0.4318, 90, 0},     {"j5", false, 0, 0, -90, 0},    {"j6", false, 0, 0, 0, 0},
};

Matrix4d Rz(double t) {
  Matrix4d T = Matrix4d::Identity();
  T(0, 0) = std::cos(t); T(0, 1) = -std::sin(t);
  T(1, 0) = std::sin(t); T(1, 1) = std::cos(t);
  return T;
}
Matrix4d Rx(double t) {
  Matrix4d T = Matrix4d::Identity();
  T(1, 1) = std::cos(t); T(1, 2) = -std::sin(t);
  T(2, 1) = std::sin(t); T(2, 2) = std::cos(t);
  return T;
}
Matrix4d Tz(double d) { Matrix4d T = Matrix4d::Identity(); T(2, 3) = d; return T; }
Matrix4d Tx(double a) { Matrix4d T = Matrix4d::Identity(); T(0, 3) = a; return T; }

// Standard DH: T = Rz(theta) Tz(d) Tx(a) Rx(alpha)
Matrix4d dhStandard(double theta, double d, double a, double alpha) { return Rz(theta) * Tz(d) * Tx(a) * Rx(alpha); }

// The file's joint rows must still say what the table above says.
QString tableMismatch(const std::string& path, const std::vector<DhRow>& rows) {
  QFile f(QString::fromStdString(path));
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return "cannot read " + QString::fromStdString(path);
  std::vector<std::map<QString, double>> fileRows;
  std::vector<QString> types;
  const QString text = QString::fromUtf8(f.readAll());
  for (QString line : text.split('\n')) {
    line = line.section('#', 0, 0).trimmed();
    const QStringList tok = line.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
    if (tok.size() < 3 || tok[0] != "joint") continue;
    std::map<QString, double> kv;
    for (int k = 3; k < tok.size(); ++k) {
      const QString key = tok[k].section('=', 0, 0), val = tok[k].section('=', 1);
      if (!val.contains(',')) kv[key] = val.toDouble();
    }
    fileRows.push_back(kv);
    types.push_back(tok[2]);
  }
  if (fileRows.size() != rows.size()) return QString("file has %1 joint rows, test %2").arg(fileRows.size()).arg(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    auto get = [&](const char* k) { return fileRows[i].count(k) ? fileRows[i][k] : 0.0; };
    if ((types[i] == "P") != rows[i].prismatic || get("a") != rows[i].a || get("d") != rows[i].d ||
        get("alpha") != rows[i].alphaDeg || get("theta") != rows[i].thetaDeg || get("offset") != 0)
      return QString("row %1 (%2) differs from the test's table: update the test").arg(i + 1).arg(rows[i].name);
  }
  return {};
}

QString poseError(const dyn::Transform<double>& X, const Matrix4d& T, const QString& what) {
  const double eR = (X.rotation() - T.topLeftCorner<3, 3>()).cwiseAbs().maxCoeff();
  const double ep = (X.translation() - T.topRightCorner<3, 1>()).cwiseAbs().maxCoeff();
  if (eR <= kTol && ep <= kTol) return {};
  return QString("%1: rotation error %2, position error %3").arg(what).arg(eR).arg(ep);
}

// ---- URDF ------------------------------------------------------------------------------------------
struct UrdfJoint {
  QString name, type, parent, child;
  Vector3d xyz = Vector3d::Zero(), rpy = Vector3d::Zero(), axis = Vector3d(1, 0, 0);
};
struct Urdf {
  QStringList links;
  std::vector<UrdfJoint> joints;
  QString error;
};

Vector3d vec3(const QString& s) {
  const QStringList t = s.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
  return t.size() == 3 ? Vector3d(t[0].toDouble(), t[1].toDouble(), t[2].toDouble()) : Vector3d::Constant(NAN);
}

Urdf readUrdf(const std::string& path) {
  Urdf u;
  QFile f(QString::fromStdString(path));
  if (!f.open(QIODevice::ReadOnly)) { u.error = "cannot read"; return u; }
  QXmlStreamReader xml(&f);
  int depth = 0;
  UrdfJoint* cur = nullptr;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement()) {
      ++depth;
      const auto a = xml.attributes();
      const QStringView n = xml.name();
      if (depth == 2 && n == u"link") u.links << a.value("name").toString();
      if (depth == 2 && n == u"joint") {
        u.joints.push_back(UrdfJoint{a.value("name").toString(), a.value("type").toString(), {}, {}});
        cur = &u.joints.back();
      }
      if (depth == 3 && cur) {
        if (n == u"parent") cur->parent = a.value("link").toString();
        if (n == u"child") cur->child = a.value("link").toString();
        if (n == u"origin") {
          if (a.hasAttribute("xyz")) cur->xyz = vec3(a.value("xyz").toString());
          if (a.hasAttribute("rpy")) cur->rpy = vec3(a.value("rpy").toString());
        }
        if (n == u"axis" && a.hasAttribute("xyz")) cur->axis = vec3(a.value("xyz").toString()).normalized();
      }
    }
    if (xml.isEndElement()) {
      if (depth == 2) cur = nullptr;
      --depth;
    }
  }
  if (xml.hasError()) u.error = xml.errorString();
  return u;
}

Matrix4d fromRt(const Matrix3d& R, const Vector3d& p) {
  Matrix4d T = Matrix4d::Identity();
  T.topLeftCorner<3, 3>() = R;
  T.topRightCorner<3, 1>() = p;
  return T;
}
// URDF origin: translation, then R = Rz(yaw) Ry(pitch) Rx(roll) (fixed axes x, y, z).
Matrix4d urdfOrigin(const Vector3d& xyz, const Vector3d& rpy) {
  const Matrix3d R = (Eigen::AngleAxisd(rpy.z(), Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vector3d::UnitY()) *
                      Eigen::AngleAxisd(rpy.x(), Vector3d::UnitX())).toRotationMatrix();
  return fromRt(R, xyz);
}

const char* const kUrdfs[] = {"ur5.urdf", "panda.urdf", "quadruped.urdf", "humanoid.urdf"};

}  // namespace

class TestKinematics : public QObject {
  Q_OBJECT

 private slots:
  void dhRobots_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("stanford_arm") << "stanford_arm.dh";
    QTest::newRow("puma560") << "puma560.dh";
  }
  void dhRobots() {
    QFETCH(QString, file);
    const std::string path = robotPath(file.toStdString().c_str());
    if (!std::filesystem::exists(path)) QSKIP(qPrintable(file + " not present yet"));
    const std::vector<DhRow>& rows = file.startsWith("stanford") ? kStanford : kPuma;
    const QString mismatch = tableMismatch(path, rows);
    if (!mismatch.isEmpty()) QFAIL(qPrintable(file + ": " + mismatch));

    const dyn::Model m = dyn::loadModel(path);
    QCOMPARE(m.nq, int(rows.size()));
    QCOMPARE(m.nv, int(rows.size()));
    dyn::Data d(m);
    std::vector<int> frameIdx, linkIdx, jointIdx;
    for (size_t i = 1; i <= rows.size(); ++i) {
      frameIdx.push_back(m.frameIndex("frame" + std::to_string(i)));
      linkIdx.push_back(m.frameIndex("link" + std::to_string(i)));
      jointIdx.push_back(m.jointIndex(rows[i - 1].name));
      QVERIFY2(frameIdx.back() >= 0 && linkIdx.back() >= 0 && jointIdx.back() >= 0,
               qPrintable(QString("frame%1 / link%1 / joint %2 missing").arg(i).arg(rows[i - 1].name)));
    }
    const int tool = m.frameIndex("tool");
    QVERIFY(tool >= 0);
    QVERIFY(m.frameIndex("frame6") >= 0);

    std::mt19937 rng(1);
    std::uniform_real_distribution<double> U(-M_PI, M_PI), P(0.0, 1.0);
    for (int t = 0; t < 100; ++t) {
      VectorXd q = t == 0 ? m.neutral() : (t % 2 ? dyn::randomConfiguration(m, rng) : VectorXd(m.nq));
      if (t > 0 && t % 2 == 0)  // also outside the limits: kinematics does not care
        for (size_t i = 0; i < rows.size(); ++i) q[m.joints[jointIdx[i]].idx_q] = rows[i].prismatic ? P(rng) : U(rng);
      dyn::forwardKinematics(m, d, q);
      dyn::updateFrames(m, d);
      Matrix4d T = Matrix4d::Identity();  // no `base` directive: DH frame 0 is the world
      for (size_t i = 0; i < rows.size(); ++i) {
        const DhRow& r = rows[i];
        const double qi = q[m.joints[jointIdx[i]].idx_q];
        const double theta = r.thetaDeg * kDeg + (r.prismatic ? 0.0 : qi), dd = r.d + (r.prismatic ? qi : 0.0);
        // the joint frame link<i>: DH frame i-1 turned by theta_i (R), or moved by theta_i, d_i (P)
        const Matrix4d Tjoint = r.prismatic ? Matrix4d(T * Rz(theta) * Tz(dd)) : Matrix4d(T * Rz(theta));
        T = T * dhStandard(theta, dd, r.a, r.alphaDeg * kDeg);
        QString e = poseError(d.oMf[frameIdx[i]], T, QString("%1 q#%2 frame%3").arg(file).arg(t).arg(i + 1));
        if (e.isEmpty()) e = poseError(d.oMf[linkIdx[i]], Tjoint, QString("%1 q#%2 link%3").arg(file).arg(t).arg(i + 1));
        if (!e.isEmpty()) QFAIL(qPrintable(e));
      }
      const QString e = poseError(d.oMf[tool], T, QString("%1 q#%2 tool = frame6").arg(file).arg(t));
      if (!e.isEmpty()) QFAIL(qPrintable(e));
    }
  }

  void urdfFramesAreLinks_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : kUrdfs) QTest::newRow(f) << f;
  }
  // model.frames = the URDF's links, one each, by name (ur5 is the brief's case; all shipped URDFs).
  void urdfFramesAreLinks() {
    QFETCH(QString, file);
    const std::string path = robotPath(file.toStdString().c_str());
    if (!std::filesystem::exists(path)) QSKIP(qPrintable(file + " not present yet"));
    const Urdf u = readUrdf(path);
    QVERIFY2(u.error.isEmpty(), qPrintable(u.error));
    QVERIFY(!u.links.isEmpty());
    for (bool floating : {false, true}) {
      const dyn::Model m = dyn::loadModel(path, dyn::BuildOptions{.floatingBase = floating});
      std::multiset<QString> frames;
      for (const auto& f : m.frames) frames.insert(QString::fromStdString(f.name));
      for (const QString& l : u.links)
        QVERIFY2(frames.count(l) == 1, qPrintable(QString("link '%1': %2 frames").arg(l).arg(frames.count(l))));
      QCOMPARE(int(m.frames.size()), int(u.links.size()));
      // every moving body is a link whose frame is fixed to that body (the body's own coordinates
      // need not be the link frame: placement = frame_X_body)
      for (int i = 1; i <= m.N; ++i) {
        const int k = m.frameIndex(m.bodyNames[i]);
        QVERIFY2(k >= 0, m.bodyNames[i].c_str());
        QCOMPARE(m.frames[k].body, i);
      }
    }
  }

  void urdfForwardKinematics_data() { urdfFramesAreLinks_data(); }
  // The world pose of every link frame equals the URDF chain product computed here (the root
  // link is the world frame for a fixed base).
  void urdfForwardKinematics() {
    QFETCH(QString, file);
    const std::string path = robotPath(file.toStdString().c_str());
    if (!std::filesystem::exists(path)) QSKIP(qPrintable(file + " not present yet"));
    const Urdf u = readUrdf(path);
    QVERIFY2(u.error.isEmpty(), qPrintable(u.error));
    const dyn::Model m = dyn::loadModel(path);
    dyn::Data d(m);
    std::map<QString, const UrdfJoint*> jointOfChild;
    for (const UrdfJoint& j : u.joints) jointOfChild[j.child] = &j;
    std::mt19937 rng(2);
    for (int t = 0; t < 30; ++t) {
      const VectorXd q = t == 0 ? m.neutral() : dyn::randomConfiguration(m, rng);
      dyn::forwardKinematics(m, d, q);
      dyn::updateFrames(m, d);
      std::map<QString, Matrix4d> pose;  // memoised world poses of links
      std::function<Matrix4d(const QString&)> worldOf = [&](const QString& link) -> Matrix4d {
        if (auto it = pose.find(link); it != pose.end()) return it->second;
        auto jt = jointOfChild.find(link);
        Matrix4d T = Matrix4d::Identity();
        if (jt != jointOfChild.end()) {
          const UrdfJoint& j = *jt->second;
          Matrix4d motion = Matrix4d::Identity();
          if (j.type == "revolute" || j.type == "continuous" || j.type == "prismatic") {
            const int b = m.jointIndex(j.name.toStdString());
            const double qi = b >= 0 ? q[m.joints[b].idx_q] : NAN;
            if (j.type == "prismatic") motion = fromRt(Matrix3d::Identity(), j.axis * qi);
            else motion = fromRt(Eigen::AngleAxisd(qi, j.axis).toRotationMatrix(), Vector3d::Zero());
          } else if (j.type != "fixed") {
            motion = Matrix4d::Constant(NAN);  // not in the shipped robots
          }
          T = worldOf(j.parent) * urdfOrigin(j.xyz, j.rpy) * motion;
        }
        pose[link] = T;
        return T;
      };
      for (const QString& l : u.links) {
        const int k = m.frameIndex(l.toStdString());
        QVERIFY(k >= 0);
        const QString e = poseError(d.oMf[k], worldOf(l), QString("%1 q#%2 link '%3'").arg(file).arg(t).arg(l));
        if (!e.isEmpty()) QFAIL(qPrintable(e));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestKinematics)
#include "test_kinematics.moc"
