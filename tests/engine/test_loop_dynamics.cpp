// Closed-loop dynamics (review §3.4 and §3.5) against identities and independent references:
//  * forward dynamics by methods 1, 2, 3 (eqs. 20-22) and the global forms (eqs. 26-28) agree to 1e-9
//    on every shipped mechanism and on random closed chains, and their q̈ satisfies φ' q̈ = c;
//  * closed-loop inverse dynamics inverts them: FD(ID(q̈_y)) returns q̈ on the actuated mechanism;
//  * the four-bar's quasi-static crank torque equals dV/dθ₂ along the constraint manifold
//    (virtual work: τ δθ₂ = δV, with V from finite differences of re-assembled configurations);
//  * the global mass matrix Sᵀ I S = Hᵀ P⁻ᵀ I P⁻¹ H (eq. 29) equals CRBA's to 1e-12 on trees;
//  * a passive four-bar keeps its energy to 1e-6 over 10 s with stabilization, and |φ| < 1e-8;
//  * cycles in a URDF are cut into loop joints (one and several loops), and malformed loop
//    descriptions are refused naming the file, the line and the joint.
#include <QtTest>
#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <random>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/io/dh_parser.hpp"
#include "dynscope/io/urdf_parser.hpp"
#include "dynscope/loops/global_analysis.hpp"
#include "dynscope/loops/loop_forward_dynamics.hpp"
#include "dynscope/simulation/simulator.hpp"
#include "loop_states.hpp"
#include "random_tree.hpp"

using Eigen::VectorXd;

namespace {

double relDiff(const VectorXd& a, const VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / (1 + b.cwiseAbs().maxCoeff());
}

// q̈ by every closed-loop forward dynamics at (q, q̇, τ): methods 1-3, then the global eqs. 26-28.
std::vector<std::pair<QString, VectorXd>> allForwardDynamics(const dyn::Model& m, const VectorXd& q, const VectorXd& qd,
                                                             const VectorXd& tau) {
  std::vector<std::pair<QString, VectorXd>> out;
  dyn::Data data(m);
  dyn::LoopData ld(m);
  for (dyn::LoopMethod method : {dyn::LoopMethod::Augmented, dyn::LoopMethod::Multipliers, dyn::LoopMethod::NullSpace})
    out.emplace_back(dyn::loopMethodName(method),
                     dyn::loopForwardDynamics(m, data, ld, q, qd, tau, dyn::LoopSettings{.method = method}));
  dyn::GlobalData gd(m);
  for (dyn::GlobalFormulation f :
       {dyn::GlobalFormulation::NullSpace, dyn::GlobalFormulation::Augmented, dyn::GlobalFormulation::ConstraintForces})
    out.emplace_back(dyn::globalFormulationName(f), dyn::globalForwardDynamics(m, data, ld, gd, q, qd, tau, f));
  return out;
}

// V(q) = -Σ m_i g·c_i at an assembled q.
double potential(const dyn::Model& m, const VectorXd& q) {
  dyn::Data d(m);
  dyn::computeEnergy(m, d, q, VectorXd::Zero(m.nv));
  return d.potential;
}

// The load of `text` (a URDF, or a DH table when `file` ends in .dh) fails with an error naming the
// file, the line and the joint (when it has a name), and saying what is wrong (`fragment`).
void expectLoadError(const std::string& text, const QString& fragment, int line, const QString& joint,
                     const std::string& file = "bad.urdf") {
  try {
    dyn::buildModel(file.ends_with(".dh") ? dyn::parseDhString(text, file) : dyn::parseUrdfString(text, file));
    QFAIL(qPrintable("accepted; expected an error containing: " + fragment));
  } catch (const dyn::LoadError& e) {
    const QString what = e.what();
    QVERIFY2(what.contains(fragment), e.what());
    QVERIFY2(what.startsWith(QString::fromStdString(file) + ":" + QString::number(line) + ": "), e.what());
    QCOMPARE(e.line(), line);
    if (!joint.isEmpty())  // (a line without a name has none to give)
      QVERIFY2(what.contains("'" + joint + "'"), qPrintable("the joint '" + joint + "' is not named: " + what));
  }
}

// A three-joint planar chain as a DH table (lines 1-4), `more` lines after it (from line 5).
std::string dhChain(const std::string& more) {
  return "name chain\nconvention standard\n"
         "joint j1 R a=0.3 mass=1 com=-0.15,0,0 inertia=0.01,0.01,0.01\n"
         "joint j2 R a=0.3 mass=1 com=-0.15,0,0 inertia=0.01,0.01,0.01\n" +
         more;
}

// Three links hanging from "base" by revolute joints about y; `closing` joints are added after them.
std::string linkage(const std::string& closing) {
  std::string xml = "<robot name='r'>\n<link name='base'/>\n";
  for (const char* l : {"a", "b", "c"})
    xml += std::string("<link name='") + l +
           "'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/>"
           "</inertial></link>\n";
  xml +=
      "<joint name='ja' type='revolute'><parent link='base'/><child link='a'/><axis xyz='0 1 0'/>"
      "<limit lower='-3' upper='3' effort='1' velocity='1'/></joint>\n";
  xml +=
      "<joint name='jb' type='revolute'><parent link='a'/><child link='b'/><origin xyz='0.3 0 0'/>"
      "<axis xyz='0 1 0'/><limit lower='-3' upper='3' effort='1' velocity='1'/></joint>\n";
  xml +=
      "<joint name='jc' type='revolute'><parent link='base'/><child link='c'/><origin xyz='0.3 0 0'/>"
      "<axis xyz='0 1 0'/><limit lower='-3' upper='3' effort='1' velocity='1'/></joint>\n";
  return xml + closing + "</robot>\n";
}

}  // namespace

class TestLoopDynamics : public QObject {
  Q_OBJECT

 private slots:
  void methodsAgreeOnTheShippedMechanisms_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : dyn::testing::loopRobots()) QTest::newRow(f) << QString(f);
  }
  void methodsAgreeOnTheShippedMechanisms() {
    QFETCH(QString, file);
    const dyn::Model m = dyn::testing::loadRobot(file.toStdString());
    QVERIFY(m.hasLoops());
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> U(-1, 1);
    int states = 0;
    for (int trial = 0; trial < 12 && states < 5; ++trial) {
      VectorXd q, qd;
      if (!dyn::testing::randomAssembledState(m, rng, q, qd)) continue;
      ++states;
      const VectorXd tau = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
      const auto results = allForwardDynamics(m, q, qd, tau);
      dyn::Data data(m);
      dyn::LoopData ld(m);
      dyn::loopConstraints(m, data, ld, q, qd);  // φ', c
      for (const auto& [name, qdd] : results) {
        QVERIFY2(qdd.allFinite(), qPrintable(file + ": " + name + " is not finite"));
        const double d = relDiff(qdd, results[1].second);  // against method 2, the default
        QVERIFY2(d < 1e-9, qPrintable(QString("%1: %2 differs from method 2 by %3").arg(file, name).arg(d)));
        const double c = (ld.Jc * qdd - ld.c).cwiseAbs().maxCoeff();  // φ̈ = 0: φ' q̈ = c (eq. 17)
        QVERIFY2(c < 1e-8 * (1 + qdd.cwiseAbs().maxCoeff()),
                 qPrintable(QString("%1: %2 violates phi' qdd = c by %3").arg(file, name).arg(c)));
      }
    }
    QVERIFY2(states >= 3, qPrintable(file + ": too few assembled random states"));
  }

  // A motion the loop allows that moves no mass: a massless tassel hanging from the four-bar's coupler
  // on its own joint. M and the loop's K^T M K are singular; every method refuses, naming the tassel's
  // joint (method 2 at M = G^T G, methods 1 and 3 from the null vector of K^T M K), not NaN. With mass
  // on the tassel all three compute.
  void motionWithoutMassIsRefusedNamingTheJoint() {
    std::ifstream in(DYNSCOPE_ROBOTS_DIR "/fourbar.urdf");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto withTassel = [&](const std::string& inertial) {
      std::string t = text;
      t.insert(t.rfind("</robot>"),
               "  <joint name=\"tassel_joint\" type=\"continuous\"><parent link=\"coupler\"/><child link=\"tassel\"/>"
               "<origin xyz=\"0.175 0 0\"/><axis xyz=\"0 -1 0\"/></joint>\n  <link name=\"tassel\">" +
                   inertial + "</link>\n");
      return dyn::buildModel(dyn::parseUrdfString(t, "fourbar_tassel.urdf"));
    };
    const dyn::Model massless = withTassel("");
    const dyn::Model heavy = withTassel(
        "<inertial><origin xyz=\"0 0 -0.05\"/><mass value=\"0.1\"/>"
        "<inertia ixx=\"1e-4\" ixy=\"0\" ixz=\"0\" iyy=\"1e-4\" iyz=\"0\" izz=\"1e-5\"/></inertial>");
    const int tassel = massless.jointIndex("tassel_joint");
    QVERIFY(tassel > 0);
    const VectorXd q = massless.neutral(), qd = VectorXd::Constant(massless.nv, 0.2);
    const VectorXd tau = VectorXd::Constant(massless.nv, 0.01);
    for (const dyn::LoopMethod method :
         {dyn::LoopMethod::Augmented, dyn::LoopMethod::Multipliers, dyn::LoopMethod::NullSpace}) {
      dyn::LoopSettings settings;
      settings.method = method;
      const QString name = dyn::loopMethodName(method);
      dyn::Data data(massless);
      dyn::LoopData ld(massless);
      try {
        const VectorXd qdd = dyn::loopForwardDynamics(massless, data, ld, q, qd, tau, settings);
        QFAIL(qPrintable(name + " computed a motion without mass: " + QString::number(qdd[0])));
      } catch (const dyn::ForwardDynamicsError& e) {
        QCOMPARE(e.body(), tassel);
        QVERIFY2(std::string(e.what()).find("joint 'tassel_joint' (link 'tassel')") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("H(q) is singular") != std::string::npos, e.what());
      }
      dyn::Data hd(heavy);
      dyn::LoopData hld(heavy);
      QVERIFY2(dyn::loopForwardDynamics(heavy, hd, hld, q, qd, tau, settings).allFinite(), qPrintable(name));
    }
  }

  void methodsAgreeOnRandomClosedChains() {
    for (dyn::JointKind kind :
         {dyn::JointKind::Revolute, dyn::JointKind::Prismatic, dyn::JointKind::Spherical, dyn::JointKind::Fixed}) {
      for (unsigned seed = 1; seed <= 3; ++seed) {
        VectorXd qStar;
        const dyn::Model m = dyn::buildModel(dyn::testing::closedChain(seed, 7, kind, qStar));
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> U(-1, 1);
        const dyn::AssemblyResult a = dyn::assemble(m, qStar);
        QVERIFY2(a.converged, a.message.c_str());
        const VectorXd qd = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });  // projected by the methods' c
        const VectorXd tau = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
        const auto results = allForwardDynamics(m, a.q, qd, tau);
        for (const auto& [name, qdd] : results) {
          const double d = relDiff(qdd, results[1].second);
          QVERIFY2(d < 1e-9,
                   qPrintable(QString("chain %1 (%2): %3 differs by %4").arg(seed).arg(int(kind)).arg(name).arg(d)));
        }
      }
    }
  }

  // FD(ID(q̈_y)) = q̈ on the four-bar and the slider-crank (fully actuated by their independent joint).
  void inverseDynamicsInvertsForwardDynamics() {
    for (const char* file : {"fourbar.urdf", "slider_crank.urdf"}) {
      const dyn::Model m = dyn::testing::loadRobot(file);
      std::mt19937 rng(3);
      std::uniform_real_distribution<double> U(-1, 1);
      VectorXd q, qd;
      QVERIFY(dyn::testing::randomAssembledState(m, rng, q, qd));
      const VectorXd qddIn = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
      dyn::Data data(m);
      dyn::LoopData ld(m);
      const VectorXd tau = dyn::loopInverseDynamics(m, data, ld, q, qd, qddIn);
      QVERIFY2(ld.residual < 1e-9, qPrintable(QString("%1: residual %2").arg(file).arg(ld.residual)));
      const VectorXd qddFull = ld.qdd;  // the consistent q̈ with the independent entries given
      for (int v : m.independentDofs()) QVERIFY(std::abs(qddFull[v] - qddIn[v]) < 1e-12);
      dyn::LoopData ld2(m);
      const VectorXd qdd = dyn::loopForwardDynamics(m, data, ld2, q, qd, tau, dyn::LoopSettings{});
      QVERIFY2(relDiff(qdd, qddFull) < 1e-9,
               qPrintable(QString("%1: FD(ID) off by %2").arg(file).arg(relDiff(qdd, qddFull))));
    }
  }

  // Virtual work on the four-bar at rest: τ_crank δθ₂ = δV along φ(q) = 0.
  void fourBarQuasiStaticTorqueIsVirtualWork() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    const std::vector<int> indep = m.independentDofs();
    QCOMPARE(int(indep.size()), 1);
    const int crank = indep[0];
    for (double theta : {-0.8, 0.0, 0.5, 1.7, 3.0}) {
      VectorXd q0 = m.home();
      q0[crank] = theta;
      const dyn::AssemblyResult a = dyn::assemble(m, q0, {indep, 1e-14, 100});
      QVERIFY2(a.converged, a.message.c_str());
      dyn::Data data(m);
      dyn::LoopData ld(m);
      const VectorXd zero = VectorXd::Zero(m.nv);
      const double tau = dyn::loopInverseDynamics(m, data, ld, a.q, zero, zero)[crank];
      const double h = 1e-5;
      auto at = [&](double dt) {
        VectorXd qs = a.q;
        qs[crank] += dt;
        const dyn::AssemblyResult b = dyn::assemble(m, qs, {indep, 1e-14, 100});
        return potential(m, b.q);
      };
      const double dV = (at(h) - at(-h)) / (2 * h);
      QVERIFY2(std::abs(tau - dV) < 1e-6 * (1 + std::abs(dV)),
               qPrintable(QString("theta %1: tau %2, dV/dtheta %3").arg(theta).arg(tau).arg(dV)));
      QVERIFY(std::abs(dV) > 1e-3 || theta == 0.0);  // gravity loads the crank: the check is not 0 = 0
    }
  }

  // fourbar.dh (a DH chain closed by a loop line, plane x-y) and fourbar.urdf (a tree closed by a
  // <loop_joint>, plane x-z) describe the same mechanism: the same crank torque and acceleration.
  void dhAndUrdfFourBarsAgree() {
    const dyn::Model u = dyn::testing::loadRobot("fourbar.urdf"), d = dyn::testing::loadRobot("fourbar.dh");
    QCOMPARE(u.nv, d.nv);
    QVERIFY(u.independentDofs() == d.independentDofs());
    const int crank = u.independentDofs()[0];
    for (double theta : {-0.6, 0.3, 1.0}) {  // near home: both assemble on the open branch
      std::array<double, 2> tau{}, qdd{};
      for (int k = 0; k < 2; ++k) {
        const dyn::Model& m = k == 0 ? u : d;
        VectorXd q0 = m.home();
        q0[crank] = theta;
        const dyn::AssemblyResult a = dyn::assemble(m, q0, {m.independentDofs(), 1e-14, 100});
        QVERIFY2(a.converged, a.message.c_str());
        dyn::Data data(m);
        dyn::LoopData ld(m);
        VectorXd qd = VectorXd::Zero(m.nv);
        qd[crank] = 1.0;
        dyn::loopDependentVelocities(m, data, ld, a.q, qd);
        const VectorXd zero = VectorXd::Zero(m.nv);
        tau[size_t(k)] = dyn::loopInverseDynamics(m, data, ld, a.q, zero, zero)[crank];
        qdd[size_t(k)] = dyn::loopForwardDynamics(m, data, ld, a.q, qd, zero, dyn::LoopSettings{})[crank];
      }
      QVERIFY2(std::abs(tau[0] - tau[1]) < 1e-9, qPrintable(QString("tau %1 vs %2").arg(tau[0]).arg(tau[1])));
      QVERIFY2(std::abs(qdd[0] - qdd[1]) < 1e-8 * (1 + std::abs(qdd[0])),
               qPrintable(QString("qdd %1 vs %2").arg(qdd[0]).arg(qdd[1])));
    }
  }

  // eq. 29: M = Hᵀ P⁻ᵀ I P⁻¹ H = Sᵀ I S equals CRBA on trees.
  void globalMassMatrixEqualsCrba() {
    using K = dyn::JointKind;
    std::vector<dyn::Model> models;
    for (unsigned seed = 1; seed <= 4; ++seed)
      models.push_back(dyn::buildModel(dyn::testing::randomTree(seed, 9, {K::Revolute, K::Prismatic, K::Fixed})));
    models.push_back(dyn::testing::loadRobot("ur5.urdf"));
    std::mt19937 rng(5);
    for (const dyn::Model& m : models) {
      const VectorXd q = dyn::randomConfiguration(m, rng);
      dyn::Data data(m);
      dyn::GlobalData gd(m);
      dyn::globalMatrices(m, data, gd, q);
      const Eigen::MatrixXd M = dyn::globalMassMatrix(gd);
      const Eigen::MatrixXd viaP =
          gd.H.transpose() * gd.Pinv.transpose() * gd.I * gd.Pinv * gd.H;  // the factorization of eq. 29
      dyn::Data d2(m);
      const Eigen::MatrixXd H = dyn::crba(m, d2, q);
      const double scale = 1 + H.cwiseAbs().maxCoeff();
      QVERIFY2((M - H).cwiseAbs().maxCoeff() < 1e-12 * scale, "S^T I S differs from CRBA");
      QVERIFY2((viaP - H).cwiseAbs().maxCoeff() < 1e-12 * scale, "H^T P^-T I P^-1 H differs from CRBA");
      QVERIFY2((gd.P * gd.Pinv - Eigen::MatrixXd::Identity(gd.P.rows(), gd.P.cols())).cwiseAbs().maxCoeff() < 1e-14,
               "P^-1 is not the inverse of P");
    }
  }

  // "For trees and loops": on a tree (no loop joint) every loop method and the global forms of §3.5
  // are forward dynamics of the tree, so they must give ABA's q̈ (Featherstone's O(n) algorithm, an
  // independent derivation) on random trees with every joint type and on the UR5.
  void loopAndGlobalMethodsEqualAbaOnTrees() {
    std::vector<dyn::Model> models;
    for (unsigned seed = 1; seed <= 6; ++seed) models.push_back(dyn::buildModel(dyn::testing::randomTree(seed, 8)));
    models.push_back(dyn::testing::loadRobot("ur5.urdf"));
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> U(-1, 1);
    for (const dyn::Model& m : models) {
      QVERIFY(!m.hasLoops());
      for (int trial = 0; trial < 3; ++trial) {
        const VectorXd q = dyn::randomConfiguration(m, rng);
        const VectorXd qd = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
        const VectorXd tau = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
        dyn::Data data(m);
        const VectorXd ref = dyn::aba(m, data, q, qd, tau);
        const auto results = allForwardDynamics(m, q, qd, tau);
        QCOMPARE(int(results.size()), 6);
        for (const auto& [name, qdd] : results) {
          const double d = relDiff(qdd, ref);
          QVERIFY2(
              d < 1e-9,
              qPrintable(QString("%1: %2 differs from ABA by %3").arg(QString::fromStdString(m.name), name).arg(d)));
        }
      }
    }
  }

  // A passive four-bar swinging under gravity for 10 s: energy kept to 1e-6, |φ| below 1e-8.
  void passiveFourBarConservesEnergy() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 1e-3;
    s.recordEvery = 10;
    dyn::Simulator sim(m, s);
    VectorXd q = m.home(), qd = VectorXd::Zero(m.nv);
    qd[m.independentDofs()[0]] = 2.0;  // a push on the crank
    sim.reset(q, qd);
    QCOMPARE(int(sim.advance(10.0)), int(dyn::SimulationStatus::Ok));
    const dyn::SimulationRecord& r = sim.record();
    const double e0 = r.energy.front();
    double drift = 0, kineticSeen = 0;
    for (double e : r.energy) drift = std::max(drift, std::abs(e - e0));
    for (int k = 0; k < r.samples(); ++k)
      kineticSeen = std::max(
          kineticSeen,
          std::abs(r.energy[size_t(k)] - potential(m, Eigen::Map<const VectorXd>(&r.q[size_t(k) * m.nq], m.nq))));
    QVERIFY2(kineticSeen > 1e-2, "the mechanism did not move");
    QVERIFY2(drift < 1e-6 * (1 + std::abs(e0)), qPrintable(QString("energy drift %1 J").arg(drift)));
    QVERIFY2(r.maxConstraintError() < 1e-8, qPrintable(QString("|phi| reached %1").arg(r.maxConstraintError())));
  }

  // A projection that stops short of its tolerance is counted and its residual kept, not dropped:
  // one Newton step per projection after coarse Euler steps leaves |phi| above 1e-12 (a Newton step
  // squares the error, ~1e-4 -> ~1e-8); the default eight steps reach it.
  void projectionShortfallIsReported() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    VectorXd qd = VectorXd::Zero(m.nv);
    qd[m.independentDofs()[0]] = 5.0;
    for (int iterations : {1, 8}) {
      dyn::SimulationSettings s;
      s.dt = 1e-2;
      s.baumgarte = false;
      s.projectionIterations = iterations;
      dyn::Simulator sim(m, s);
      sim.reset(m.home(), qd);
      QCOMPARE(int(sim.advance(0.5)), int(dyn::SimulationStatus::Ok));
      const dyn::SimulationStats& st = sim.stats();
      if (iterations == 8) {
        QCOMPARE(st.projectionFailures, 0L);
        QCOMPARE(st.worstProjectionResidual, 0.0);
        continue;
      }
      QVERIFY2(st.projectionFailures > 0, "no projection fell short");
      QVERIFY(st.worstProjectionResidual > s.projectionTolerance);
      // The recorded states kept that much (the record holds the 2-norm of phi, >= its largest entry).
      QVERIFY(sim.record().maxConstraintError() > s.projectionTolerance);
      QVERIFY(sim.record().maxConstraintError() <= std::sqrt(m.constraintRows) * st.worstProjectionResidual);
    }
  }

  // Every shipped mechanism simulates: released at rest from a random assembled pose (and for the
  // delta and the palletizer, whose arms rest on nothing, with a push of the independent joints),
  // it moves under gravity for 1 s, its loops stay closed and its energy does not grow.
  void everyShippedMechanismSimulates_data() { methodsAgreeOnTheShippedMechanisms_data(); }
  void everyShippedMechanismSimulates() {
    QFETCH(QString, file);
    const dyn::Model m = dyn::testing::loadRobot(file.toStdString());
    std::mt19937 rng(2);
    VectorXd q, qd;
    QVERIFY(dyn::testing::randomAssembledState(m, rng, q, qd, 0.2, 0.5));
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 1e-3;
    dyn::Simulator sim(m, s);
    sim.reset(q, qd);
    QCOMPARE(int(sim.advance(1.0)), int(dyn::SimulationStatus::Ok));
    const dyn::SimulationRecord& r = sim.record();
    QVERIFY2(r.maxConstraintError() < 1e-8, qPrintable(QString("|phi| %1").arg(r.maxConstraintError())));
    QVERIFY2(r.maxConstraintRateError() < 1e-8, qPrintable(QString("|phi' qd| %1").arg(r.maxConstraintRateError())));
    const double e0 = r.energy.front(), grown = *std::max_element(r.energy.begin(), r.energy.end()) - e0;
    QVERIFY2(grown < 1e-5 * (1 + std::abs(e0)), qPrintable(QString("the energy grew by %1 J").arg(grown)));
    VectorXd dq(m.nv);
    dyn::difference(m, q, sim.q(), dq);
    double moved = 0;
    for (int v : m.independentDofs()) moved = std::max(moved, std::abs(dq[v]));
    QVERIFY2(moved > 1e-3, "the mechanism did not move");
    QCOMPARE(sim.stats().projectionFailures, 0L);
  }

  void cyclesAreCutIntoLoopJoints() {
    // one loop: link b is also the child of a joint from c
    const std::string one = linkage(
        "<joint name='close_bc' type='revolute'><parent link='c'/><child link='b'/><origin xyz='0 0 0'/>"
        "<axis xyz='0 1 0'/></joint>\n");
    const dyn::Model m1 = dyn::buildModel(dyn::parseUrdfString(one, "one.urdf"));
    QCOMPARE(int(m1.loops.size()), 1);
    QCOMPARE(m1.nv, 3);
    bool noted = false;
    for (const dyn::Finding& f : m1.findings) noted |= f.code == "loop.cut" && f.joint == "close_bc" && f.line > 0;
    QVERIFY2(noted, "the cut joint is not named in the load's findings");
    // two loops: another link d closes onto both a and c
    std::string two = linkage(
        "<link name='d'><inertial><mass value='1'/><inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' "
        "iyz='0'/></inertial></link>\n"
        "<joint name='jd' type='revolute'><parent link='a'/><child link='d'/><origin xyz='0.1 0 0'/>"
        "<axis xyz='0 1 0'/></joint>\n"
        "<joint name='close_cd' type='revolute'><parent link='c'/><child link='d'/><axis xyz='0 1 0'/></joint>\n"
        "<joint name='close_cb' type='revolute'><parent link='c'/><child link='b'/><axis xyz='0 1 0'/></joint>\n");
    const dyn::Model m2 = dyn::buildModel(dyn::parseUrdfString(two, "two.urdf"));
    QCOMPARE(int(m2.loops.size()), 2);
    QCOMPARE(m2.nv, 4);
    // Breadth first from base: a and c join first, then b and d through a; c's two joints reach
    // links already in the tree, so both are cut (lines 11 and 12), each named once in the findings.
    for (auto [joint, line] : {std::pair{"close_cd", 11}, {"close_cb", 12}}) {
      int found = 0;
      for (const dyn::Finding& f : m2.findings)
        if (f.code == "loop.cut" && f.joint == joint) {
          ++found;
          QCOMPARE(f.line, line);
          QCOMPARE(f.file, std::string("two.urdf"));
          QCOMPARE(int(f.severity), int(dyn::Severity::Info));
          QVERIFY2(f.message.find("cut from the spanning tree") != std::string::npos, f.message.c_str());
        }
      QVERIFY2(found == 1, joint);
      QVERIFY(m2.loopIndex(joint) >= 0 && m2.loops[size_t(m2.loopIndex(joint))].cut);
    }
    QVERIFY(m2.jointIndex("jd") > 0 && m2.jointIndex("jb") > 0);  // the tree keeps the other joints
  }

  // Every malformed loop description names the file, the line and the joint. In linkage(), the
  // closing elements start on line 9.
  void malformedLoopsAreRefusedNamingTheJoint() {
    const auto loopJoint = [](const char* l1, const char* l2) {
      return std::string("<loop_joint name='lj' type='revolute'><link1 link='") + l1 + "'/><link2 link='" + l2 +
             "'/><axis xyz='0 1 0'/></loop_joint>\n";
    };
    expectLoadError(linkage(loopJoint("b", "nowhere")), "link 'nowhere' does not exist", 9, "lj");
    expectLoadError(linkage(loopJoint("nowhere", "b")), "link 'nowhere' does not exist", 9, "lj");
    expectLoadError(linkage(loopJoint("b", "b")), "to itself", 9, "lj");
    expectLoadError(linkage("<loop_joint name='lj' type='planar'><link1 link='b'/><link2 link='c'/></loop_joint>\n"),
                    "cannot close a loop", 9, "lj");
    expectLoadError(linkage("<loop_joint name='lj' type='revolute'><link2 link='c'/></loop_joint>\n"), "link1", 9,
                    "lj");
    // A loop that cannot close: b's end and c are 10 m apart, the links 0.3 m long. Refused at load
    // (the reference configuration is assembled there), deterministically: the restarts are seeded.
    expectLoadError(linkage("<loop_joint name='lj' type='spherical'><link1 link='b' xyz='0.3 0 0'/>"
                            "<link2 link='c' xyz='10 0 0'/></loop_joint>\n"),
                    "the mechanism cannot be assembled", 9, "lj");
  }

  // A joint of the file that closes a cycle must be of a type a loop-closure joint can have.
  void cutJointOfAForbiddenTypeIsRefused() {
    for (const char* type : {"planar", "floating"})
      expectLoadError(linkage(std::string("<joint name='close_bc' type='") + type +
                              "'><parent link='c'/><child link='b'/></joint>\n"),
                      "closes a kinematic loop, but a loop-closure joint must be", 9, "close_bc");
  }

  // The .dh `loop` and `actuated` lines: each mistake named with its line (5) and loop joint.
  void malformedDhLoopLinesAreRefused() {
    const std::string dh = "bad.dh";
    expectLoadError(dhChain("loop\n"), "expected 'loop NAME", 5, "", dh);
    expectLoadError(dhChain("loop gp X link1=frame2 link2=base\n"), "unknown loop joint type 'X'", 5, "gp", dh);
    expectLoadError(dhChain("loop gp R link1=frame2\n"), "'link2' is missing", 5, "gp", dh);
    expectLoadError(dhChain("loop gp R link1=frame2 link2=frame2\n"), "to itself", 5, "gp", dh);
    expectLoadError(dhChain("loop gp R link1=frame9 link2=base\n"), "link 'frame9' does not exist", 5, "gp", dh);
    expectLoadError(dhChain("loop gp R link1=frame2 link2=base colour=red\n"), "unknown key 'colour'", 5, "gp", dh);
    expectLoadError(dhChain("loop gp R link1=frame2 link2=base axis=0,0,0\n"), "must not be zero", 5, "gp", dh);
    expectLoadError(dhChain("loop j1 R link1=frame2 link2=base\n"), "duplicate joint name", 5, "j1", dh);
    expectLoadError(dhChain("actuated\n"), "expected 'actuated JOINT", 5, "", dh);
    expectLoadError(dhChain("actuated j1 nosuch\n"), "'nosuch' is not a joint of the table", 5, "nosuch", dh);
  }
};

QTEST_GUILESS_MAIN(TestLoopDynamics)
#include "test_loop_dynamics.moc"
