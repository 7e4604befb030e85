// Hollerbach's Lagrangian family and the configuration-space method against our spatial RNEA (an independent
// algorithm: spatial vectors, Featherstone's recursion), on every robot in robots/ a formulation accepts and on
// random chains and trees of revolute and prismatic joints:
//  - τ of Uicker/Kahn (O(n⁴)), Waters (O(n²)), the recursive 4x4 and 3x3 forms and the configuration-space method
//    equals RNEA's to 1e-10 relative;
//  - the configuration-space tables: J = CRBA's M, G = g(q), C symmetric and equal to the Christoffel symbols
//    ½(∂J_ij/∂q_k + ∂J_ik/∂q_j - ∂J_jk/∂q_i) from central differences of CRBA; one table serves many (q̇, q̈);
//  - models a formulation cannot handle are refused naming the joint, also when a workspace built for another model
//    of the same size is called with them; wrong sizes name the argument.
#include <QtTest>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "check_close.hpp"
#include "dynscope/algorithms/bias.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/formulations/configuration_space_method.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/formulations/uicker_kahn_lagrangian.hpp"
#include "dynscope/formulations/waters_lagrangian.hpp"
#include "dynscope/io/generated_models.hpp"
#include "dynscope/io/model_builder.hpp"
#include "random_state.hpp"
#include "random_tree.hpp"

using Eigen::MatrixXd;
using Eigen::VectorXd;
using K = dyn::JointKind;

namespace {

// One formulation behind a common face: build its workspace (may throw: refusal), then run it.
struct Formulation {
  const char* name;
  std::function<std::function<VectorXd(const VectorXd&, const VectorXd&, const VectorXd&)>(const dyn::Model&)> make;
};

template <class WS, class F>
Formulation formulation(const char* name, F run) {
  return {name, [run](const dyn::Model& m) {
            auto ws = std::make_shared<WS>(m);
            return std::function<VectorXd(const VectorXd&, const VectorXd&, const VectorXd&)>(
                [&m, ws, run](const VectorXd& q, const VectorXd& qd, const VectorXd& qdd) -> VectorXd {
                  return run(m, *ws, q, qd, qdd);
                });
          }};
}

std::vector<Formulation> formulations() {
  return {
      formulation<dyn::UickerKahnWorkspace<double>>("uicker-kahn",
                                                    [](auto& m, auto& ws, auto& q, auto& qd, auto& qdd) {
                                                      return dyn::uickerKahnInverseDynamics(m, ws, q, qd, qdd);
                                                    }),
      formulation<dyn::WatersWorkspace<double>>("waters",
                                                [](auto& m, auto& ws, auto& q, auto& qd, auto& qdd) {
                                                  return dyn::watersInverseDynamics(m, ws, q, qd, qdd);
                                                }),
      formulation<dyn::RecursiveLagrangian4x4Workspace<double>>(
          "lagrange-4x4", [](auto& m, auto& ws, auto& q, auto& qd,
                             auto& qdd) { return dyn::recursiveLagrangian4x4InverseDynamics(m, ws, q, qd, qdd); }),
      formulation<dyn::RecursiveLagrangian3x3Workspace<double>>(
          "lagrange-3x3", [](auto& m, auto& ws, auto& q, auto& qd,
                             auto& qdd) { return dyn::recursiveLagrangian3x3InverseDynamics(m, ws, q, qd, qdd); }),
      formulation<dyn::ConfigurationSpaceWorkspace<double>>(
          "configuration-space", [](auto& m, auto& ws, auto& q, auto& qd,
                                    auto& qdd) { return dyn::configurationSpaceInverseDynamics(m, ws, q, qd, qdd); }),
  };
}

using dyn::testing::randomState;

// Every formulation that accepts m equals RNEA on a few random states; a refusal must name a joint that is neither
// revolute nor prismatic. Returns how many formulations accepted the model.
int compareWithRnea(const QString& label, const dyn::Model& m, int states = 3) {
  dyn::Data d(m);
  int accepted = 0;
  for (const Formulation& f : formulations()) {
    std::function<VectorXd(const VectorXd&, const VectorXd&, const VectorXd&)> run;
    try {
      run = f.make(m);
    } catch (const std::invalid_argument& e) {
      const QString msg = e.what();
      bool namesOffender = false;
      for (int i = 1; i <= m.N; ++i)
        if (m.joints[i].type != dyn::JointType::Revolute && m.joints[i].type != dyn::JointType::Prismatic)
          namesOffender |= msg.contains(QString("joint '%1'").arg(m.jointNames[i].c_str()));
      if (!namesOffender)
        QTest::qFail(qPrintable(label + " " + f.name + ": unexpected refusal: " + msg), __FILE__, __LINE__);
      continue;
    }
    ++accepted;
    for (unsigned seed = 1; seed <= unsigned(states); ++seed) {
      const auto s = randomState(m, seed, 2, 3);
      const VectorXd ref = dyn::rnea(m, d, s.q, s.qd, s.qdd);
      const VectorXd tau = run(s.q, s.qd, s.qdd);
      const QString what = QString("%1 %2 (seed %3) vs RNEA").arg(label, f.name).arg(seed);
      const QString mismatch =
          dyn::testing::closeMismatch(tau, ref, 1e-10, ref.cwiseAbs().maxCoeff(), what.toStdString());
      if (!mismatch.isEmpty()) {
        QTest::qFail(qPrintable(mismatch), __FILE__, __LINE__);
        return accepted;
      }
    }
  }
  return accepted;
}

// All five formulations accept m and agree with RNEA.
#define EXPECT_ALL_AGREE(label, model)                       \
  do {                                                       \
    const int accepted_ = compareWithRnea((label), (model)); \
    if (QTest::currentTestFailed()) return;                  \
    QCOMPARE(accepted_, 5);                                  \
  } while (false)

std::vector<std::string> robotFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(DYNSCOPE_ROBOTS_DIR)) {
    const std::string ext = e.path().extension().string();
    if (ext == ".urdf" || ext == ".dh") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

class TestLagrangianFormulations : public QObject {
  Q_OBJECT

 private slots:
  // Every robot we ship, fixed base: all five formulations accept it (only revolute/prismatic joints) and agree.
  void shippedRobots() {
    int robots = 0;
    for (const std::string& path : robotFiles()) {
      const dyn::Model m = dyn::loadModel(path);
      const QString label = QString::fromStdString(std::filesystem::path(path).filename().string());
      const int accepted = compareWithRnea(label, m);
      if (QTest::currentTestFailed()) return;
      qDebug("%s: %d dof, %d of 5 formulations agree with RNEA", qPrintable(label), m.nv, accepted);
      ++robots;
    }
    QVERIFY2(robots >= 7, "the robots/ folder should hold the 7 shipped robots");
  }

  // The URDF robots with a floating base: the four Lagrangian forms refuse, naming the floating joint; the
  // configuration-space method (only ID needed) accepts and agrees.
  void floatingBaseRobots() {
    for (const std::string& path : robotFiles()) {
      if (std::filesystem::path(path).extension() != ".urdf") continue;
      const dyn::Model m = dyn::loadModel(path, dyn::BuildOptions{.floatingBase = true});
      const int accepted = compareWithRnea(QString::fromStdString(path) + " (floating)", m, 2);
      if (QTest::currentTestFailed()) return;
      QCOMPARE(accepted, 1);  // the configuration-space method
    }
  }

  void randomChainsAndTrees() {
    const std::vector<K> kinds = {K::Revolute, K::Continuous, K::Prismatic, K::Fixed};
    for (unsigned seed = 1; seed <= 6; ++seed) {
      const dyn::Model chain = dyn::buildModel(dyn::testing::randomChain(seed, 9, kinds));
      EXPECT_ALL_AGREE(QString("random chain %1").arg(seed), chain);
      const dyn::Model tree = dyn::buildModel(dyn::testing::randomTree(seed, 12, kinds));
      bool branched = false;
      for (int i = 2; i <= tree.N; ++i) branched |= tree.parent[i] != i - 1;
      QVERIFY(branched);
      EXPECT_ALL_AGREE(QString("random tree %1").arg(seed), tree);
    }
    // only prismatic joints (no rotation at all) and the general revolute chain of the operation counts
    EXPECT_ALL_AGREE("prismatic chain", dyn::buildModel(dyn::testing::randomChain(7, 6, {K::Prismatic})));
    EXPECT_ALL_AGREE("general chain 8", dyn::generalChain(8));
  }

  // Gravity in any direction (the formulations carry g in their own way: c_i, the homogeneous gᵀ ∂W r).
  void arbitraryGravity() {
    dyn::Model m = dyn::buildModel(dyn::testing::randomTree(21, 10, {K::Revolute, K::Prismatic}));
    m.gravity.v = Eigen::Vector3d(3.0, -4.0, 7.5);
    EXPECT_ALL_AGREE("random tree, tilted gravity", m);
    m.gravity.v.setZero();
    EXPECT_ALL_AGREE("random tree, no gravity", m);
  }

  // J = M (CRBA), G = g(q), C symmetric and the Christoffel symbols of M (central differences of CRBA).
  void configurationSpaceTables() {
    for (unsigned seed : {31u, 32u}) {
      const dyn::Model m = dyn::buildModel(dyn::testing::randomTree(seed, 8, {K::Revolute, K::Prismatic, K::Fixed}));
      const int n = m.nv;
      dyn::Data d(m);
      dyn::ConfigurationSpaceWorkspace<double> ws(m);
      const auto s = randomState(m, seed, 2, 3);
      dyn::configurationSpaceTabulate(m, ws, s.q);
      const MatrixXd M = dyn::crba(m, d, s.q);
      CHECK_CLOSE(MatrixXd(ws.J), M, 1e-10, M.cwiseAbs().maxCoeff(), "J = CRBA's M");
      const VectorXd g = dyn::gravityVector(m, d, s.q);
      CHECK_CLOSE(ws.G, g, 1e-10, g.cwiseAbs().maxCoeff(), "G = g(q)");
      const double h = 1e-5;
      std::vector<MatrixXd> dM(n);  // dM[k] = ∂M/∂q_k
      for (int k = 0; k < n; ++k) {
        VectorXd qp = s.q, qm = s.q;
        qp[k] += h;
        qm[k] -= h;
        const MatrixXd Mp = dyn::crba(m, d, qp);
        dM[k] = (Mp - dyn::crba(m, d, qm)) / (2 * h);
      }
      double cmax = 0, err = 0, asym = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          for (int k = 0; k < n; ++k) {
            const double c = ws.C(i, j * n + k);
            const double christoffel = 0.5 * (dM[k](i, j) + dM[j](i, k) - dM[i](j, k));
            cmax = std::max(cmax, std::abs(c));
            err = std::max(err, std::abs(c - christoffel));
            asym = std::max(asym, std::abs(c - ws.C(i, k * n + j)));
          }
      QVERIFY2(cmax > 1e-2, "C should not vanish on a random tree");
      QVERIFY2(err < 1e-6 * std::max(1.0, cmax), qPrintable(QString("C vs Christoffel symbols: %1").arg(err)));
      QCOMPARE(asym, 0.0);
      // one table, many velocities and accelerations
      for (unsigned t = 1; t <= 4; ++t) {
        const auto o = randomState(m, 100 + t, 2, 3);
        const VectorXd ref = dyn::rnea(m, d, s.q, o.qd, o.qdd);
        CHECK_CLOSE(dyn::configurationSpaceEvaluate(m, ws, o.qd, o.qdd), ref, 1e-10, ref.cwiseAbs().maxCoeff(),
                    "evaluate from the tables of q");
      }
    }
  }

  void refusalsNameTheJoint() {
    // a random tree with one spherical joint somewhere
    dyn::RobotDescription r = dyn::testing::randomTree(41, 8, {K::Revolute, K::Prismatic});
    r.joints[3].kind = K::Spherical;
    const std::string offender = r.joints[3].name;
    const dyn::Model m = dyn::buildModel(r);
    auto expectRefusal = [&](auto makeWorkspace, const char* formulation) {
      try {
        makeWorkspace();
        QFAIL(qPrintable(QString("%1 accepted a spherical joint").arg(formulation)));
      } catch (const std::invalid_argument& e) {
        const QString msg = e.what();
        QVERIFY2(msg.contains(QString("joint '%1'").arg(offender.c_str())) && msg.contains("spherical") &&
                     msg.contains(formulation),
                 qPrintable(msg));
      }
    };
    expectRefusal([&] { dyn::UickerKahnWorkspace<double> ws(m); }, "Uicker/Kahn");
    expectRefusal([&] { dyn::WatersWorkspace<double> ws(m); }, "Waters");
    expectRefusal([&] { dyn::RecursiveLagrangian4x4Workspace<double> ws(m); }, "(4x4)");
    expectRefusal([&] { dyn::RecursiveLagrangian3x3Workspace<double> ws(m); }, "(3x3)");
    // helical and planar too
    for (K kind : {K::Helical, K::Planar}) {
      r.joints[3].kind = kind;
      const dyn::Model mk = dyn::buildModel(r);
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::RecursiveLagrangian3x3Workspace<double>{mk});
    }
  }

  // A workspace remembers the model it was built for: each call checks the tree and the joints of the model it is
  // given. Another model of the same size with a helical joint is refused naming the joint (it would otherwise be
  // taken for a prismatic one), another tree of the same size is refused naming a body whose parent differs, and a
  // revolute joint turned prismatic is computed as what it now is (the joint types are read on every call).
  void workspaceOfAnotherModel() {
    dyn::RobotDescription r = dyn::testing::randomTree(61, 8, {K::Revolute, K::Prismatic});
    const dyn::Model m = dyn::buildModel(r);
    const dyn::Model chain = dyn::buildModel(dyn::testing::randomTree(61, 8, {K::Revolute, K::Prismatic}, true));
    QCOMPARE(chain.N, m.N);
    QVERIFY(chain.parent != m.parent);
    int k = 0;  // a revolute joint in the file's order
    while (r.joints[k].kind != K::Revolute) ++k;
    const std::string offender = r.joints[k].name;
    r.joints[k].kind = K::Helical;
    const dyn::Model helical = dyn::buildModel(r);
    r.joints[k].kind = K::Prismatic;
    const dyn::Model prismatic = dyn::buildModel(r);
    QCOMPARE(helical.nv, m.nv);
    QVERIFY(helical.parent == m.parent && prismatic.parent == m.parent);
    const auto s = randomState(m, 7);
    dyn::Data d(prismatic);
    const VectorXd ref = dyn::rnea(prismatic, d, s.q, s.qd, s.qdd);
    auto message = [&](auto call) -> QString {
      try {
        call();
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
      return "no exception";
    };
    dyn::UickerKahnWorkspace<double> uk(m);
    dyn::WatersWorkspace<double> wa(m);
    dyn::RecursiveLagrangian4x4Workspace<double> r4(m);
    dyn::RecursiveLagrangian3x3Workspace<double> r3(m);
    const std::vector<std::pair<const char*, std::function<VectorXd(const dyn::Model&)>>> calls = {
        {"Uicker/Kahn", [&](const dyn::Model& x) { return dyn::uickerKahnInverseDynamics(x, uk, s.q, s.qd, s.qdd); }},
        {"Waters", [&](const dyn::Model& x) { return dyn::watersInverseDynamics(x, wa, s.q, s.qd, s.qdd); }},
        {"(4x4)",
         [&](const dyn::Model& x) { return dyn::recursiveLagrangian4x4InverseDynamics(x, r4, s.q, s.qd, s.qdd); }},
        {"(3x3)",
         [&](const dyn::Model& x) { return dyn::recursiveLagrangian3x3InverseDynamics(x, r3, s.q, s.qd, s.qdd); }},
    };
    for (const auto& entry : calls) {
      const auto& name = entry.first;  // not a structured binding: lambdas below capture it (clang 14)
      const auto& call = entry.second;
      const QString h = message([&] { call(helical); });
      QVERIFY2(h.contains(QString("joint '%1' is helical").arg(offender.c_str())) && h.contains(name), qPrintable(h));
      const QString t = message([&] { call(chain); });
      QVERIFY2(t.contains("built for another tree") && t.contains("body 'link") && t.contains(name), qPrintable(t));
      CHECK_CLOSE(call(prismatic), ref, 1e-10, ref.cwiseAbs().maxCoeff(), qPrintable(QString(name) + " prismatic"));
    }
  }

  void wrongSizesAndWorkspaces() {
    const dyn::Model m = dyn::buildModel(dyn::testing::randomTree(51, 6, {K::Revolute, K::Prismatic}));
    const dyn::Model other = dyn::buildModel(dyn::testing::randomTree(52, 8, {K::Revolute, K::Prismatic}));
    const auto s = randomState(m, 1);
    const VectorXd bad = VectorXd::Zero(m.nv + 1);
    dyn::RecursiveLagrangian3x3Workspace<double> ws3(m);
    dyn::UickerKahnWorkspace<double> wsu(m);
    dyn::ConfigurationSpaceWorkspace<double> wsc(m);
    auto message = [](auto f) -> QString {
      try {
        f();
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
      return "no exception";
    };
    QVERIFY(message([&] { dyn::recursiveLagrangian3x3InverseDynamics(m, ws3, s.q, s.qd, bad); }).startsWith("qdd has"));
    QVERIFY(message([&] { dyn::uickerKahnInverseDynamics(m, wsu, bad, s.qd, s.qdd); }).startsWith("q has"));
    QVERIFY(message([&] { dyn::configurationSpaceEvaluate(m, wsc, bad, s.qdd); }).startsWith("qd has"));
    QVERIFY(message([&] {
              dyn::recursiveLagrangian3x3InverseDynamics(other, ws3, s.q, s.qd, s.qdd);
            }).contains("workspace"));
  }
};

QTEST_APPLESS_MAIN(TestLagrangianFormulations)
#include "test_lagrangian_formulations.moc"
