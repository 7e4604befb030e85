// Peer oracle: Orocos KDL (Debian's build, via kdl_parser) against Dynscope's dynamics on the
// shipped fixed-base URDFs. Joints are always matched by NAME: KDL numbers the tree joints in
// its own (segment-insertion) order, which is not our depth-first body order.
//
//  * Whole tree (every robot, the model from dyn::loadModel): KDL::TreeIdSolver_RNE gives
//    tau = ID(q, qd, qdd) (vs dyn::rnea), g = ID(q, 0, 0) (vs gravityVector),
//    C qd = ID(q, qd, 0) with zero gravity (vs nonLinearEffects - gravityVector) and the columns
//    H e_j = ID(q, 0, e_j) with zero gravity (vs crba).
//  * Chains root -> tip (KDL::ChainIdSolver_RNE and KDL::ChainDynParam): for the default end
//    effector and every leaf link. A KDL chain only holds the links on the path, so it is
//    compared with our model built from the same links (a sub-description of the parsed URDF);
//    when that path carries the whole mass of the robot (serial arms) it is also compared with
//    the full model from dyn::loadModel.
// Both sides use gravity (0, 0, -9.81); the root link's inertia is ignored by both (KDL warns).
//
// KDL is reached only through kdl_bridge.hpp (the shared library dynscope_kdl_bridge, built with
// default flags): Debian's KDL is a generic x86-64 build whose JntArray / JntSpaceInertiaMatrix wrap
// Eigen objects, and this program is built with the engine's -march=native, so only std::vector
// crosses to KDL (mixing Eigen objects of the two alignments corrupts memory).
#include <QtTest>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "kdl_bridge.hpp"
#include "path_description.hpp"

namespace {

using dyn::kdl_bridge::KdlChainOracle;
using dyn::kdl_bridge::KdlTreeOracle;

constexpr double kTol = 1e-9;  // relative to the magnitude of the compared quantity
constexpr int kSamples = 20;

std::string robotPath(const char* file) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

double worstRelative = 0;  // the largest max|ours - KDL| / scale seen by the current test function

// max |a - b| <= kTol * max(1, max |b|); on failure, a message naming what and where.
QString mismatch(const Eigen::MatrixXd& ours, const Eigen::MatrixXd& kdl, const QString& what) {
  if (ours.rows() != kdl.rows() || ours.cols() != kdl.cols())
    return QString("%1: size %2x%3 vs KDL %4x%5").arg(what).arg(ours.rows()).arg(ours.cols()).arg(kdl.rows()).arg(kdl.cols());
  const double scale = std::max(1.0, kdl.cwiseAbs().maxCoeff());
  Eigen::Index r = 0, c = 0;
  const double err = (ours - kdl).cwiseAbs().maxCoeff(&r, &c);
  worstRelative = std::max(worstRelative, err / scale);
  if (err <= kTol * scale && std::isfinite(err)) return {};
  return QString("%1: max |ours - KDL| = %2 (scale %3) at (%4, %5): ours %6, KDL %7")
      .arg(what).arg(err, 0, 'g', 3).arg(scale, 0, 'g', 3).arg(r).arg(c)
      .arg(ours(r, c), 0, 'g', 12).arg(kdl(r, c), 0, 'g', 12);
}

#define EXPECT_MATCH(ours, kdl, what)                         \
  do {                                                        \
    const QString m_ = mismatch((ours), (kdl), (what));       \
    if (!m_.isEmpty()) QFAIL(qPrintable(m_));                 \
  } while (0)

// For each KDL joint index (tree q number or chain position), our dof index (by joint name; -1
// when our model has no moving joint of that name).
std::vector<int> dofMap(const std::vector<std::string>& kdlJointNames, const dyn::Model& model) {
  std::vector<int> map;
  for (const std::string& name : kdlJointNames) {
    const int body = model.jointIndex(name);
    map.push_back(body > 0 ? model.joints[body].idx_v : -1);
  }
  return map;
}

// Our vector in KDL's joint order, and a KDL result back as an Eigen vector / matrix.
std::vector<double> toKdl(const Eigen::VectorXd& x, const std::vector<int>& map) {
  std::vector<double> a(map.size());
  for (size_t k = 0; k < map.size(); ++k) a[k] = x[map[k]];
  return a;
}
Eigen::VectorXd fromKdl(const std::vector<double>& a) {
  return Eigen::Map<const Eigen::VectorXd>(a.data(), Eigen::Index(a.size()));
}
Eigen::MatrixXd fromKdlRowMajor(const std::vector<double>& a, int n) {
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(a.data(), n, n);
}
Eigen::VectorXd select(const Eigen::VectorXd& x, const std::vector<int>& map) {
  Eigen::VectorXd y(map.size());
  for (size_t k = 0; k < map.size(); ++k) y[k] = x[map[k]];
  return y;
}
Eigen::MatrixXd select(const Eigen::MatrixXd& M, const std::vector<int>& map) {
  Eigen::MatrixXd y(map.size(), map.size());
  for (size_t r = 0; r < map.size(); ++r)
    for (size_t c = 0; c < map.size(); ++c) y(r, c) = M(map[r], map[c]);
  return y;
}

// A model whose q / qd entries are all revolute-like scalars (the shipped fixed-base robots).
Eigen::VectorXd randomVector(std::mt19937& rng, int n, double range) {
  std::uniform_real_distribution<double> U(-range, range);
  Eigen::VectorXd x(n);
  for (int i = 0; i < n; ++i) x[i] = U(rng);
  return x;
}

using dyn::testing::pathDescription;

std::vector<std::string> leafLinks(const dyn::RobotDescription& desc) {
  std::set<std::string> parents;
  for (const auto& j : desc.joints) parents.insert(j.parent);
  std::vector<std::string> leaves;
  for (const auto& l : desc.links)
    if (!parents.count(l.name)) leaves.push_back(l.name);
  return leaves;
}

std::array<double, 3> kdlVector(const dyn::Vec3<double>& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace

class TestKdlOracle : public QObject {
  Q_OBJECT

 private:
  static void robotRows() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"ur5.urdf", "panda.urdf", "humanoid.urdf", "quadruped.urdf"}) QTest::newRow(f) << QString(f);
  }
  // Loads the URDF with both libraries (QSKIP when the file is missing); KDL's tree gets our
  // model's gravity (KdlTreeOracle throws when kdl_parser fails).
  static bool load(const QString& file, dyn::RobotDescription& desc, dyn::Model& model,
                   std::unique_ptr<KdlTreeOracle>& tree) {
    const std::string path = robotPath(file.toStdString().c_str());
    if (!std::filesystem::exists(path)) return false;
    desc = dyn::parseUrdfFile(path);
    model = dyn::loadModel(path);
    tree = std::make_unique<KdlTreeOracle>(path, kdlVector(model.gravity.v));
    return true;
  }

 private slots:
  void init() { worstRelative = 0; }
  void cleanup() { qInfo("worst relative difference to KDL: %.3g (tolerance %.0e)", worstRelative, kTol); }

  void gravityConvention() {
    const std::string path = robotPath("ur5.urdf");
    if (!std::filesystem::exists(path)) QSKIP("robots/ur5.urdf missing");
    const dyn::Model model = dyn::loadModel(path);
    QCOMPARE(model.gravity.v, dyn::Vec3<double>(0, 0, -9.81));
    QCOMPARE(model.gravity.w, dyn::Vec3<double>::Zero());
  }

  // The whole tree: every moving joint of our model is a KDL tree joint and vice versa.
  void treeInverseDynamics_data() { robotRows(); }
  void treeInverseDynamics() {
    QFETCH(QString, file);
    dyn::RobotDescription desc;
    dyn::Model model;
    std::unique_ptr<KdlTreeOracle> tree;
    if (!load(file, desc, model, tree)) QSKIP(qPrintable(file + " missing"));
    QVERIFY(!model.floatingBase);
    QCOMPARE(tree->joints(), model.nv);
    QCOMPARE(model.nq, model.nv);
    const std::vector<int> map = dofMap(tree->jointNames(), model);
    for (int k : map) QVERIFY2(k >= 0, "a KDL joint has no Dynscope joint of the same name");
    QCOMPARE(int(std::set<int>(map.begin(), map.end()).size()), model.nv);

    dyn::Data d(model);
    const int n = model.nv;
    std::vector<double> tauK(n);
    const std::vector<double> zero(n, 0.0);
    std::mt19937 rng(1234);
    for (int s = 0; s < kSamples; ++s) {
      const Eigen::VectorXd q = randomVector(rng, n, M_PI), qd = randomVector(rng, n, 2.0),
                            qdd = randomVector(rng, n, 3.0);
      const std::vector<double> qK = toKdl(q, map), qdK = toKdl(qd, map), qddK = toKdl(qdd, map);
      const QString at = QString("%1 sample %2").arg(file).arg(s);

      // tau = ID(q, qd, qdd)
      QCOMPARE(tree->inverseDynamics(qK, qdK, qddK, tauK), 0);
      EXPECT_MATCH(select(Eigen::VectorXd(dyn::rnea(model, d, q, qd, qdd)), map), fromKdl(tauK), "RNEA " + at);
      // g(q) = ID(q, 0, 0)
      QCOMPARE(tree->inverseDynamics(qK, zero, zero, tauK), 0);
      const Eigen::VectorXd gv = dyn::gravityVector(model, d, q);
      EXPECT_MATCH(select(gv, map), fromKdl(tauK), "gravity " + at);
      // C(q, qd) qd = ID(q, qd, 0) without gravity
      QCOMPARE(tree->inverseDynamicsNoGravity(qK, qdK, zero, tauK), 0);
      const Eigen::VectorXd nle = dyn::nonLinearEffects(model, d, q, qd);
      EXPECT_MATCH(select(Eigen::VectorXd(nle - gv), map), fromKdl(tauK), "Coriolis " + at);
      // H: column j = ID(q, 0, e_j) without gravity
      const Eigen::MatrixXd H = dyn::crba(model, d, q);
      Eigen::MatrixXd HK(n, n);
      for (int j = 0; j < n; ++j) {
        std::vector<double> e(n, 0.0);
        e[j] = 1;
        QCOMPARE(tree->inverseDynamicsNoGravity(qK, zero, e, tauK), 0);
        HK.col(j) = fromKdl(tauK);
      }
      EXPECT_MATCH(select(H, map), HK, "CRBA vs tree-RNE columns " + at);
    }
  }

  // Chains root -> tip: KDL's chain solvers vs our model of the same links.
  void chainDynamics_data() { robotRows(); }
  void chainDynamics() {
    QFETCH(QString, file);
    dyn::RobotDescription desc;
    dyn::Model full;
    std::unique_ptr<KdlTreeOracle> tree;
    if (!load(file, desc, full, tree)) QSKIP(qPrintable(file + " missing"));
    const std::string root = tree->rootSegment();
    QCOMPARE(root, full.bodyNames[0]);

    std::vector<std::string> tips{full.defaultEndEffector};
    for (const auto& l : leafLinks(desc))
      if (l != full.defaultEndEffector) tips.push_back(l);
    const bool serial = [&] {
      for (int i = 1; i <= full.N; ++i) if (full.parent[i] != i - 1) return false;
      return true;
    }();
    qInfo("%s: %s, %d DOF, default end effector '%s', %d chains", qPrintable(file), serial ? "serial" : "tree",
          full.nv, full.defaultEndEffector.c_str(), int(tips.size()));

    std::mt19937 rng(99);
    int chainsChecked = 0, fullChecked = 0;
    for (const std::string& tip : tips) {
      const std::unique_ptr<KdlChainOracle> chainPtr = tree->chain(tip);  // root -> tip, the tree's gravity
      QVERIFY2(chainPtr, tip.c_str());
      KdlChainOracle& chain = *chainPtr;
      if (chain.joints() == 0) continue;  // a fixed leaf of the root (e.g. a sensor on the pelvis)
      const dyn::Model sub = dyn::buildModel(pathDescription(desc, tip));
      QCOMPARE(chain.joints(), sub.nv);
      // Compare with the full model too when the chain carries all of the robot's mass.
      const bool compareFull = std::abs(sub.totalMass() - full.totalMass()) <= 1e-12 * full.totalMass();
      if (serial && tip == full.defaultEndEffector && !compareFull)
        qInfo("  %s: links beyond the default end effector carry mass; the full model is checked on another chain",
              tip.c_str());

      const std::vector<int> mapSub = dofMap(chain.jointNames(), sub), mapFull = dofMap(chain.jointNames(), full);
      for (int k : mapSub) QVERIFY(k >= 0);
      for (int k : mapFull) QVERIFY(k >= 0);
      const int nc = chain.joints();
      dyn::Data ds(sub), df(full);
      for (int s = 0; s < kSamples / 4; ++s) {
        // Random state of the full model; the chain and sub-model see its entries by name.
        const Eigen::VectorXd q = randomVector(rng, full.nv, M_PI), qd = randomVector(rng, full.nv, 2.0),
                              qdd = randomVector(rng, full.nv, 3.0);
        const std::vector<double> qK = toKdl(q, mapFull), qdK = toKdl(qd, mapFull), qddK = toKdl(qdd, mapFull);
        // Sub-model state: scatter the chain values into its own dof order.
        Eigen::VectorXd qs(nc), qds(nc), qdds(nc);
        for (int k = 0; k < nc; ++k) { qs[mapSub[k]] = qK[k]; qds[mapSub[k]] = qdK[k]; qdds[mapSub[k]] = qddK[k]; }

        std::vector<double> tauK, gK, cK, HKrows;
        QCOMPARE(chain.inverseDynamics(qK, qdK, qddK, tauK), 0);  // ChainIdSolver_RNE, no external wrenches
        QCOMPARE(chain.massMatrix(qK, HKrows), 0);                 // ChainDynParam::JntToMass
        QCOMPARE(chain.gravity(qK, gK), 0);                        // ChainDynParam::JntToGravity
        QCOMPARE(chain.coriolis(qK, qdK, cK), 0);                  // ChainDynParam::JntToCoriolis
        const Eigen::MatrixXd HK = fromKdlRowMajor(HKrows, nc);
        const QString at = QString("%1 chain %2 -> %3 sample %4").arg(file, root.c_str(), tip.c_str()).arg(s);

        const Eigen::VectorXd tau = dyn::rnea(sub, ds, qs, qds, qdds);
        EXPECT_MATCH(select(tau, mapSub), fromKdl(tauK), "ChainIdSolver_RNE vs rnea, " + at);
        const Eigen::MatrixXd H = dyn::crba(sub, ds, qs);
        EXPECT_MATCH(select(H, mapSub), HK, "JntToMass vs crba, " + at);
        const Eigen::VectorXd gv = dyn::gravityVector(sub, ds, qs);
        EXPECT_MATCH(select(gv, mapSub), fromKdl(gK), "JntToGravity vs gravityVector, " + at);
        const Eigen::VectorXd nle = dyn::nonLinearEffects(sub, ds, qs, qds);
        EXPECT_MATCH(select(Eigen::VectorXd(nle - gv), mapSub), fromKdl(cK),
                     "JntToCoriolis vs nonLinearEffects - gravityVector, " + at);

        if (compareFull) {  // the loaded model, states by name (other dofs of `full` are irrelevant: no mass)
          EXPECT_MATCH(select(Eigen::VectorXd(dyn::rnea(full, df, q, qd, qdd)), mapFull), fromKdl(tauK),
                       "ChainIdSolver_RNE vs rnea (loadModel), " + at);
          EXPECT_MATCH(select(dyn::crba(full, df, q), mapFull), HK, "JntToMass vs crba (loadModel), " + at);
          const Eigen::VectorXd gf = dyn::gravityVector(full, df, q);
          EXPECT_MATCH(select(gf, mapFull), fromKdl(gK), "JntToGravity vs gravityVector (loadModel), " + at);
          EXPECT_MATCH(select(Eigen::VectorXd(dyn::nonLinearEffects(full, df, q, qd) - gf), mapFull), fromKdl(cK),
                       "JntToCoriolis vs nonLinearEffects - gravityVector (loadModel), " + at);
        }
      }
      ++chainsChecked;
      if (compareFull) ++fullChecked;
    }
    qInfo("  %d chains checked, %d of them also against the full loaded model", chainsChecked, fullChecked);
    QVERIFY(chainsChecked > 0);
    if (serial) QVERIFY2(fullChecked > 0, "no chain of a serial robot carries its whole mass");
  }
};

QTEST_APPLESS_MAIN(TestKdlOracle)
#include "test_kdl_oracle.moc"
