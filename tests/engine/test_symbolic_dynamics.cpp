// The equations of motion in closed form (issue 40): CRBA and RNEA run on GiNaC's expressions.
//  - the pendulum and the 2-link planar arm with symbolic parameters against their textbook closed
//    forms (the planar elbow of Spong, Hutchinson and Vidyasagar (2006), chapter 7), written out
//    here and compared as expressions: the difference simplifies to zero. c_i = l_i + c_ix is the
//    joint-to-COM distance (DH frame i is at the link's far end, so c_ix < 0);
//  - Saha's planar 3-link arm (robots/planar3.dh), numeric and symbolic parameters: M, C qd and g
//    evaluated at random states equal CRBA and RNEA on double to 1e-12.
#include <QtTest>
#include <fstream>
#include <random>

#include "dynscope/dynscope.hpp"
#include "dynscope/symbolic/equations_of_motion.hpp"

using GiNaC::ex;

namespace {

double valueAt(const ex& x, const GiNaC::exmap& at) { return dyn::Sym::toDouble(x.subs(at)); }

// ex == 0 as a trigonometric polynomial in the angles.
bool isZero(const ex& x, const std::vector<GiNaC::realsymbol>& angles) {
  return dyn::simplifyTrig(x, angles).is_zero();
}

const char* pendulum =
    "name pendulum\nconvention standard\ngravity 0 -9.81 0\n"
    "joint j1 R a=0.5 alpha=0 mass=1.5 com=-0.2,0,0 inertia=0,0.02,0.03\n";
const char* arm2 =
    "name arm2\nconvention standard\ngravity 0 -9.81 0\n"
    "joint j1 R a=0.4 alpha=0 mass=2 com=-0.25,0,0 inertia=0,0.02,0.03\n"
    "joint j2 R a=0.3 alpha=0 mass=1 com=-0.1,0,0 inertia=0,0.01,0.015\n";

// Evaluates M, c and g at random states against CRBA and RNEA on double; the largest error.
double worstError(const dyn::Model& m, const dyn::EquationsOfMotion& eom, const dyn::SymbolicState& s,
                  const GiNaC::lst& parameters) {
  dyn::Data d(m);
  std::mt19937 rng(40);
  std::uniform_real_distribution<double> U(-3, 3);
  double worst = 0;
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd q(m.nv), qd(m.nv), qdd(m.nv);
    GiNaC::exmap at;
    for (const auto& p : parameters) at[p.op(0)] = p.op(1);
    for (int k = 0; k < m.nv; ++k) {
      q[k] = U(rng), qd[k] = U(rng), qdd[k] = U(rng);
      at[s.q[k]] = q[k], at[s.qd[k]] = qd[k], at[s.qdd[k]] = qdd[k];
    }
    const Eigen::MatrixXd M = dyn::crba(m, d, q);
    const Eigen::VectorXd g = dyn::gravityVector(m, d, q);
    const Eigen::VectorXd c = dyn::nonLinearEffects(m, d, q, qd) - g;
    const Eigen::VectorXd tau = dyn::rnea(m, d, q, qd, qdd);
    for (int i = 0; i < m.nv; ++i) {
      for (int j = 0; j < m.nv; ++j) worst = std::max(worst, std::abs(valueAt(eom.M(i, j).e, at) - M(i, j)));
      worst = std::max(worst, std::abs(valueAt(eom.g[i].e, at) - g[i]));
      worst = std::max(worst, std::abs(valueAt(eom.c[i].e, at) - c[i]));
      worst = std::max(worst, std::abs(valueAt(eom.tau[i].e, at) - tau[i]));
    }
  }
  return worst;
}

}  // namespace

class TestSymbolicDynamics : public QObject {
  Q_OBJECT

 private slots:
  void productsBecomeSinesAndCosinesOfSums() {
    const dyn::SymbolicState s = dyn::symbolicState(2);
    const ex q1 = s.q[0], q2 = s.q[1];
    using GiNaC::cos, GiNaC::sin;
    QVERIFY(dyn::simplifyTrig(cos(q1) * cos(q2) - sin(q1) * sin(q2), s.q).is_equal(cos(q1 + q2)));
    QVERIFY(dyn::simplifyTrig(pow(cos(q2), 2) + pow(sin(q2), 2), s.q).is_equal(1));
    QVERIFY(!isZero(cos(q1) * cos(q2), s.q));  // not everything is zero
  }

  void pendulumClosedForm() {
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(dyn::parseDhTable(pendulum));
    const dyn::SymbolicState s = dyn::symbolicState(1);
    const dyn::EquationsOfMotion eom = dyn::equationsOfMotion(sm.model, s);
    const ex m1 = sm.parameter("m1"), l1 = sm.parameter("l1"), c1 = l1 + sm.parameter("c1x"), I1 = sm.parameter("I1zz"),
             g = sm.parameter("g"), q1 = s.q[0];
    QVERIFY(isZero(eom.M(0, 0).e - (m1 * c1 * c1 + I1), s.q));
    QVERIFY(isZero(eom.g[0].e - m1 * g * c1 * GiNaC::cos(q1), s.q));
    QVERIFY(eom.c[0].e.is_zero());
  }

  void twoLinkArmClosedForm() {
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(dyn::parseDhTable(arm2));
    const dyn::SymbolicState s = dyn::symbolicState(2);
    const dyn::EquationsOfMotion eom = dyn::equationsOfMotion(sm.model, s);
    const ex m1 = sm.parameter("m1"), m2 = sm.parameter("m2"), l1 = sm.parameter("l1"), c1 = l1 + sm.parameter("c1x"),
             c2 = sm.parameter("l2") + sm.parameter("c2x"), I1 = sm.parameter("I1zz"), I2 = sm.parameter("I2zz"),
             g = sm.parameter("g");
    const ex q1 = s.q[0], q2 = s.q[1], qd1 = s.qd[0], qd2 = s.qd[1];
    using GiNaC::cos, GiNaC::sin;
    const ex M11 = m1 * c1 * c1 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * cos(q2)) + I1 + I2;
    const ex M12 = m2 * (c2 * c2 + l1 * c2 * cos(q2)) + I2;
    const ex M22 = m2 * c2 * c2 + I2;
    const ex h = m2 * l1 * c2 * sin(q2);
    const ex C1 = -h * (2 * qd1 * qd2 + qd2 * qd2), C2 = h * qd1 * qd1;
    const ex G1 = (m1 * c1 + m2 * l1) * g * cos(q1) + m2 * c2 * g * cos(q1 + q2), G2 = m2 * c2 * g * cos(q1 + q2);
    QVERIFY(isZero(eom.M(0, 0).e - M11, s.q));
    QVERIFY(isZero(eom.M(0, 1).e - M12, s.q));
    QVERIFY(isZero(eom.M(1, 0).e - M12, s.q));
    QVERIFY(isZero(eom.M(1, 1).e - M22, s.q));
    QVERIFY(isZero(eom.c[0].e - C1, s.q));
    QVERIFY(isZero(eom.c[1].e - C2, s.q));
    QVERIFY(isZero(eom.g[0].e - G1, s.q));
    QVERIFY(isZero(eom.g[1].e - G2, s.q));
    QVERIFY(!isZero(eom.M(0, 0).e - M22, s.q));  // the comparison can fail
    // The textbook's grouping by mass: the same expressions.
    const dyn::EquationsOfMotion byMass = dyn::equationsOfMotion(sm.model, s, sm.masses());
    QVERIFY(isZero(byMass.M(0, 0).e - M11, s.q));
    QVERIFY(isZero(byMass.g[0].e - G1, s.q));
    qDebug() << "M11 =" << QString::fromStdString(dyn::Sym::toString(byMass.M(0, 0).e));
    qDebug() << "c1 =" << QString::fromStdString(dyn::Sym::toString(eom.c[0].e));
    qDebug() << "g1 =" << QString::fromStdString(dyn::Sym::toString(eom.g[0].e));
  }

  void planar3NumericAndSymbolicParametersMatchCrbaAndRnea() {
    const std::string path = std::string(DYNSCOPE_ROBOTS_DIR) + "/planar3.dh";
    const dyn::Model m = dyn::loadModel(path);
    const dyn::SymbolicState s = dyn::symbolicState(3);
    const double numeric = worstError(m, dyn::equationsOfMotion(m.cast<dyn::Sym>(), s), s, {});
    QVERIFY2(numeric <= 1e-12, qPrintable(QString("numeric parameters: %1").arg(numeric)));
    std::ifstream file(path);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(dyn::parseDhTable(text));
    const double symbolic = worstError(m, dyn::equationsOfMotion(sm.model, s), s, sm.values);
    QVERIFY2(symbolic <= 1e-12, qPrintable(QString("symbolic parameters: %1").arg(symbolic)));
    qDebug() << "planar3: worst error" << numeric << "(numeric parameters)," << symbolic << "(symbolic)";
  }
};

QTEST_GUILESS_MAIN(TestSymbolicDynamics)
#include "test_symbolic_dynamics.moc"
