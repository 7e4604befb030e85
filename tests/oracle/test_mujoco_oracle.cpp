// Peer oracle: MuJoCo itself (Debian's libmujoco 2.2.2) against Dynscope's MJCF import, on the models
// of tests/data/mjcf. Both load the same file; at random states they must agree to 1e-9 on
//  * every body's world pose (MuJoCo's xpos, xmat; Dynscope's frame named after the body),
//  * the joint-space inertia matrix H(q) (mj_fullM of qM after mj_forward; Dynscope's crba), armature
//    included,
//  * inverse dynamics (mj_inverse with the constraint solver and passive forces disabled, so
//    qfrc_inverse = M qacc + bias; Dynscope's rnea),
//  * the passive forces of hinges and slides (qfrc_passive: springs -stiffness (q - springref) and
//    damping; Dynscope's Model::stiffness, springref, damping, as the simulator applies them).
// The files cover the compiler rules (settotalmass, boundmass/boundinertia/balanceinertia, the gravity
// flag, mesh inertia under MuJoCo 2's default and exact rules, meshes written in the model) and a body
// and a site sharing a name.
// Joints are matched by name. Coordinates: hinge and slide positions are MuJoCo's qpos in both (the
// reader places a body where the file does at q = ref); quaternions are w x y z in MuJoCo, x y z w in
// Dynscope. A free joint's qvel is (linear velocity of the body origin in world coordinates, angular
// velocity in body coordinates); Dynscope's is the spatial velocity [w; v] in body coordinates, so
// v = T qvel with T = [0 I; R^T 0], qdd = T qacc - [0; w x v], and MuJoCo's H and tau are T^T H T and
// T^T tau (the same kinetic energy and power).
// MuJoCo stores each body's inertia diagonalised (principal moments and a quaternion from mju_eig3),
// which keeps a general inertia tensor to about 1e-7 relative. So the inertias are compared on their
// own (mass and centre to 1e-9, the rotational inertia to kInertiaTol), and H and tau to 1e-9 on our
// model with MuJoCo's compiled inertias put in (the kinematics, armature and the algorithms), and to
// kInertiaTol with our own inertias.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "dynscope/dynscope.hpp"

#ifdef DYNSCOPE_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

constexpr double kTol = 1e-9;         // relative to max(1, the largest entry compared)
constexpr double kInertiaTol = 1e-6;  // relative: MuJoCo's principal-axis round-off (see above)
constexpr int kStates = 10;

std::string dataFile(const QString& name) {
  return std::string(DYNSCOPE_TEST_DATA_DIR) + "/mjcf/" + name.toStdString();
}

// max |a - b| <= tol * max(floor, max |b|); on failure, a message naming what and where.
QString mismatch(const Eigen::MatrixXd& ours, const Eigen::MatrixXd& mj, const QString& what, double tol = kTol,
                 double floor = 1.0) {
  if (ours.rows() != mj.rows() || ours.cols() != mj.cols())
    return QString("%1: size %2x%3 vs MuJoCo %4x%5")
        .arg(what)
        .arg(ours.rows())
        .arg(ours.cols())
        .arg(mj.rows())
        .arg(mj.cols());
  const double scale = std::max(floor, mj.cwiseAbs().maxCoeff());
  Eigen::Index r = 0, c = 0;
  const double err = (ours - mj).cwiseAbs().maxCoeff(&r, &c);
  if (err <= tol * scale && std::isfinite(err)) return {};
  return QString("%1: max |ours - MuJoCo| = %2 (scale %3) at (%4, %5): ours %6, MuJoCo %7")
      .arg(what)
      .arg(err, 0, 'g', 3)
      .arg(scale, 0, 'g', 3)
      .arg(r)
      .arg(c)
      .arg(ours(r, c), 0, 'g', 12)
      .arg(mj(r, c), 0, 'g', 12);
}

#ifdef DYNSCOPE_HAVE_MUJOCO
// Loads a model into MuJoCo 2.2.2, dropping one by one the attributes it does not know or whose value
// it does not accept (MuJoCo 3's implicitfast, actuatorfrcrange, kv, ...), from a copy of the file
// beside it (so that meshes resolve), removed after loading. Only the file's own lines are edited: an
// attribute in an <include>d file cannot be dropped. dropped: "line: attribute" of each.
mjModel* loadDropping(const std::string& path, QStringList& dropped, QString& error) {
  QFile in(QString::fromStdString(path));
  if (!in.open(QIODevice::ReadOnly)) {
    error = "cannot read " + in.fileName();
    return nullptr;
  }
  QStringList lines = QString::fromUtf8(in.readAll()).split('\n');
  std::string file = path;
  const QFileInfo info(QString::fromStdString(path));
  const QString copy = info.dir().filePath("." + info.completeBaseName() + ".mujoco-2.2.2.xml");
  struct Remove {
    QString path;
    ~Remove() { QFile::remove(path); }
  } removeCopy{copy};
  const QRegularExpression unknown("(attribute|keyword): '([^']+)'.*line (\\d+)",
                                   QRegularExpression::DotMatchesEverythingOption);
  for (int attempt = 0; attempt < 40; ++attempt) {
    char text[1000] = "";
    if (mjModel* m = mj_loadXML(file.c_str(), nullptr, text, sizeof text)) return m;
    error = text;
    const QRegularExpressionMatch match = unknown.match(error);
    if (!match.hasMatch()) return nullptr;
    const int line = match.captured(3).toInt() - 1;
    if (line < 0 || line >= lines.size()) return nullptr;
    // An unknown attribute by its name; an unknown keyword by the attribute that has it as its value.
    const QString pattern = match.captured(1) == "attribute"
                                ? QString("\\s+%1=\"[^\"]*\"").arg(QRegularExpression::escape(match.captured(2)))
                                : QString("\\s+[a-z_]+=\"%1\"").arg(QRegularExpression::escape(match.captured(2)));
    const QString before = lines[line];
    lines[line].remove(QRegularExpression(pattern));
    if (lines[line] == before) return nullptr;
    dropped << QString("%1: %2").arg(line + 1).arg(match.captured(2));
    file = copy.toStdString();
    QFile out(QString::fromStdString(file));
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) return nullptr;
    out.write(lines.join('\n').toUtf8());
  }
  return nullptr;
}

// Our model with MuJoCo's compiled body inertias in place of ours: each MuJoCo body's (mass, ipos,
// iquat, principal moments) carried into the Dynscope body its link is fixed to (several links share
// a body where joints are welded or chained), as buildModel carries an <inertial>.
dyn::Model withMujocoInertias(const dyn::Model& model, const mjModel* m) {
  dyn::Model out = model;
  for (auto& I : out.I) I = dyn::Inertia<double>::Zero();
  for (int b = 1; b < m->nbody; ++b) {
    const int f = model.frameIndex(mj_id2name(m, mjOBJ_BODY, b));
    const dyn::Frame<double>& frame = model.frames[size_t(f)];
    if (frame.body == 0) continue;  // welded to the world: its mass never moves
    const double* q = m->body_iquat + 4 * b;
    const Eigen::Matrix3d R = Eigen::Quaterniond(q[0], q[1], q[2], q[3]).toRotationMatrix();
    const Eigen::Vector3d c = Eigen::Map<const Eigen::Vector3d>(m->body_ipos + 3 * b);
    const Eigen::Matrix3d D = Eigen::Map<const Eigen::Vector3d>(m->body_inertia + 3 * b).asDiagonal();
    const dyn::Inertia<double> principal = dyn::Inertia<double>::mcI(m->body_mass[b], Eigen::Vector3d::Zero(), D);
    out.I[size_t(frame.body)] +=
        principal.transformToA(dyn::Transform<double>::fromPose(R, c)).transformToA(frame.placement);
  }
  return out;
}
#endif

}  // namespace

class TestMujocoOracle : public QObject {
  Q_OBJECT

 private slots:
  void compare_data() {
    QTest::addColumn<QString>("file");
    // The tolerance of the bodies' masses and first moments: 1e-9, but MuJoCo keeps mesh vertices in
    // single precision (its mesh volumes and centres agree to about 1e-8), so kInertiaTol for meshes.
    QTest::addColumn<double>("massTol");
    for (const char* f :
         {"pendulum.xml", "armature.xml", "defaults.xml", "geom_inertia.xml", "branched_arm.xml", "modern.xml",
          "settotalmass.xml", "gravity_flag.xml", "springs.xml", "shared_names.xml", "mass_bounds.xml"})
      QTest::newRow(f) << QString::fromStdString(dataFile(f)) << kTol;
    for (const char* f : {"mesh_legacy.xml", "mesh_exact.xml"})
      QTest::newRow(f) << QString::fromStdString(dataFile(f)) << kInertiaTol;
    // More models to compare (e.g. MuJoCo Menagerie's robot files), ':'-separated.
    for (const QString& f : qEnvironmentVariable("DYNSCOPE_MJCF_ORACLE_FILES").split(':', Qt::SkipEmptyParts))
      QTest::newRow(qPrintable(f)) << f << kInertiaTol;
  }

  void compare() {
#ifndef DYNSCOPE_HAVE_MUJOCO
    QSKIP("libmujoco was not found at configure time (scripts/setup installs libmujoco-dev)");
#else
    QFETCH(QString, file);
    QFETCH(double, massTol);
    const std::string path = file.toStdString();
    QStringList dropped;
    QString error;
    mjModel* m = loadDropping(path, dropped, error);
    QVERIFY2(m, qPrintable(error));
    if (!dropped.isEmpty()) qInfo("dropped for MuJoCo 2.2.2: %s", qPrintable(dropped.join(", ")));
    if (file.endsWith("/modern.xml")) QVERIFY2(dropped.size() >= 5, "the MuJoCo 3 model needs the dropping it tests");
    m->opt.disableflags |= mjDSBL_CONSTRAINT | mjDSBL_PASSIVE;  // qfrc_inverse = M qacc + bias
    mjData* d = mj_makeData(m);
    const dyn::Model model = dyn::loadModel(path);
    QCOMPARE(model.nv, m->nv);
    QCOMPARE(model.nq, m->nq);
    QVERIFY(m->nv > 0);

    // Joints by name: MuJoCo's and ours.
    struct Pair {
      int type, qadr, vadr;  // MuJoCo
      int iq, iv;            // Dynscope
    };
    std::vector<Pair> pairs;
    int movable = 0;
    for (int i = 1; i <= model.N; ++i) movable += model.joints[i].nv > 0;
    for (int j = 0; j < m->njnt; ++j) {
      // An unnamed joint is named after its body: "body/joint", or "body/jointK" when the body has several.
      const char* named = mj_id2name(m, mjOBJ_JOINT, j);
      const int body = m->jnt_bodyid[j];
      const std::string name =
          named ? std::string(named)
                : std::string(mj_id2name(m, mjOBJ_BODY, body)) + "/joint" +
                      (m->body_jntnum[body] > 1 ? std::to_string(j - m->body_jntadr[body] + 1) : std::string());
      const int i = model.jointIndex(name);
      QVERIFY2(i > 0, name.c_str());
      pairs.push_back(
          {m->jnt_type[j], m->jnt_qposadr[j], m->jnt_dofadr[j], model.joints[i].idx_q, model.joints[i].idx_v});
    }
    QCOMPARE(int(pairs.size()), movable);

    // The inertias: ours against MuJoCo's compiler, body by body.
    const dyn::Model mjInertias = withMujocoInertias(model, m);
    for (int i = 1; i <= model.N; ++i) {
      const dyn::Inertia<double>&a = model.I[size_t(i)], &b = mjInertias.I[size_t(i)];
      const QString where = QString("body '%1'").arg(QString::fromStdString(model.bodyNames[size_t(i)]));
      QString bad =
          mismatch(Eigen::VectorXd::Constant(1, a.m), Eigen::VectorXd::Constant(1, b.m), where + " mass", massTol);
      QVERIFY2(bad.isEmpty(), qPrintable(bad));
      bad = mismatch(a.h, b.h, where + " first moment (m c)", massTol);
      QVERIFY2(bad.isEmpty(), qPrintable(bad));
      bad = mismatch(a.Ibar, b.Ibar, where + " rotational inertia", kInertiaTol, 0.0);
      QVERIFY2(bad.isEmpty(), qPrintable(bad));
    }
    dyn::Data mjData(mjInertias);

    std::mt19937 rng(23);
    std::uniform_real_distribution<double> U(-1, 1);
    std::normal_distribution<double> N(0, 1);
    dyn::Data data(model);
    for (int s = 0; s < kStates; ++s) {
      Eigen::VectorXd q(model.nq), v(model.nv), qdd(model.nv);
      Eigen::MatrixXd T = Eigen::MatrixXd::Zero(model.nv, model.nv);  // v = T qvel
      for (int k = 0; k < m->nv; ++k) {
        d->qvel[k] = N(rng);
        d->qacc[k] = N(rng);
      }
      for (const Pair& p : pairs) {
        if (p.type == mjJNT_HINGE || p.type == mjJNT_SLIDE) {
          d->qpos[p.qadr] = p.type == mjJNT_HINGE ? 1.5 * U(rng) : 0.1 * U(rng);
          q[p.iq] = d->qpos[p.qadr];
          T(p.iv, p.vadr) = 1;
          continue;
        }
        const int at = p.type == mjJNT_FREE ? 3 : 0;  // the quaternion's place in qpos
        Eigen::Quaterniond quat(N(rng), N(rng), N(rng), N(rng));
        quat.normalize();
        d->qpos[p.qadr + at] = quat.w();
        d->qpos[p.qadr + at + 1] = quat.x();
        d->qpos[p.qadr + at + 2] = quat.y();
        d->qpos[p.qadr + at + 3] = quat.z();
        q.segment<4>(p.iq + at) << quat.x(), quat.y(), quat.z(), quat.w();
        if (p.type == mjJNT_BALL) {
          T.block<3, 3>(p.iv, p.vadr).setIdentity();
          continue;
        }
        for (int k = 0; k < 3; ++k) d->qpos[p.qadr + k] = q[p.iq + k] = U(rng);
        T.block<3, 3>(p.iv, p.vadr + 3).setIdentity();                          // w = the local angular velocity
        T.block<3, 3>(p.iv + 3, p.vadr) = quat.toRotationMatrix().transpose();  // v = R^T (linear, world)
      }
      const Eigen::Map<Eigen::VectorXd> qvel(d->qvel, m->nv);
      Eigen::VectorXd qacc = Eigen::Map<Eigen::VectorXd>(d->qacc, m->nv);
      v = T * qvel;
      qdd = T * qacc;
      for (const Pair& p : pairs)
        if (p.type == mjJNT_FREE)  // d/dt (R v_b) = R (vdot_b + w x v_b)
          qdd.segment<3>(p.iv + 3) -= v.segment<3>(p.iv).cross(v.segment<3>(p.iv + 3));

      mj_forward(m, d);  // kinematics, qM, qfrc_bias (and a qacc of its own, replaced below)
      Eigen::MatrixXd Hmj(m->nv, m->nv);
      mj_fullM(m, Hmj.data(), d->qM);  // symmetric: row- and column-major agree
      for (int k = 0; k < m->nv; ++k) d->qacc[k] = qacc[k];
      mj_inverse(m, d);
      const Eigen::VectorXd taumj = Eigen::Map<Eigen::VectorXd>(d->qfrc_inverse, m->nv);

      // Passive forces of hinges and slides: MuJoCo's qfrc_passive (springs and damping) against
      // -stiffness (q - springref) - damping qd from our model (the simulator's passive torque).
      const int flags = m->opt.disableflags;
      m->opt.disableflags &= ~mjDSBL_PASSIVE;
      mj_forward(m, d);
      m->opt.disableflags = flags;
      for (const Pair& p : pairs) {
        if (p.type != mjJNT_HINGE && p.type != mjJNT_SLIDE) continue;
        const bool spring = model.stiffness.size() == model.nv;
        const double k = spring ? model.stiffness[p.iv] : 0, ref = spring ? model.springref[p.iv] : 0;
        const double ours = -k * (q[p.iq] - ref) - model.damping[p.iv] * v[p.iv];
        const QString bad =
            mismatch(Eigen::VectorXd::Constant(1, ours), Eigen::VectorXd::Constant(1, d->qfrc_passive[p.vadr]),
                     QString("state %1, passive force of dof %2").arg(s).arg(p.vadr));
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
      }

      // Body poses.
      dyn::forwardKinematics(model, data, q);
      dyn::updateFrames(model, data);
      for (int b = 1; b < m->nbody; ++b) {
        const char* name = mj_id2name(m, mjOBJ_BODY, b);
        const int f = name ? model.frameIndex(name) : -1;
        QVERIFY2(f >= 0, name ? name : "an unnamed body");
        const dyn::Transform<double>& X = data.oMf[size_t(f)];
        const Eigen::Matrix3d Rmj = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> >(d->xmat + 9 * b);
        const Eigen::Vector3d pmj = Eigen::Map<const Eigen::Vector3d>(d->xpos + 3 * b);
        const QString where = QString("state %1, body %2").arg(s).arg(name);
        QString bad = mismatch(X.r, pmj, where + " position");
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        bad = mismatch(X.E.transpose(), Rmj, where + " orientation");
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
      }
      // With MuJoCo's inertias to 1e-9; with ours to MuJoCo's inertia round-off.
      for (const auto& [ours, tol, label] :
           {std::tuple(&mjInertias, kTol, "MuJoCo's inertias"), std::tuple(&model, kInertiaTol, "our inertias")}) {
        dyn::Data& dd = ours == &model ? data : mjData;
        const Eigen::MatrixXd H = dyn::crba(*ours, dd, q);
        QString bad = mismatch(T.transpose() * H * T, Hmj, QString("state %1, %2: H").arg(s).arg(label), tol);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        const Eigen::VectorXd tau = dyn::rnea(*ours, dd, q, v, qdd);
        bad = mismatch(T.transpose() * tau, taumj, QString("state %1, %2: inverse dynamics").arg(s).arg(label), tol);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
      }
    }
    // Keyframes: our named poses put every body where MuJoCo's key does; and the model's home
    // (key -1 here) where MuJoCo's qpos0 does (free bodies at their written pose, hinges at ref).
    QCOMPARE(int(model.poses.size()), m->nkey);
    for (int k = -1; k < m->nkey; ++k) {
      for (int i = 0; i < m->nq; ++i) d->qpos[i] = k < 0 ? m->qpos0[i] : m->key_qpos[k * m->nq + i];
      mj_kinematics(m, d);
      dyn::forwardKinematics(model, data, k < 0 ? model.home() : model.poses[size_t(k)].q);
      dyn::updateFrames(model, data);
      for (int b = 1; b < m->nbody; ++b) {
        const int f = model.frameIndex(mj_id2name(m, mjOBJ_BODY, b));
        const QString bad = mismatch(data.oMf[size_t(f)].r, Eigen::Map<const Eigen::Vector3d>(d->xpos + 3 * b),
                                     QString("key %1, body %2").arg(k).arg(mj_id2name(m, mjOBJ_BODY, b)));
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
      }
    }
    mj_deleteData(d);
    mj_deleteModel(m);
#endif
  }
};

QTEST_APPLESS_MAIN(TestMujocoOracle)
#include "test_mujoco_oracle.moc"
