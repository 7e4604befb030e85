// The equations of motion in closed form (issue 40): CRBA and RNEA run on GiNaC's expressions.
//  - the pendulum and the 2-link planar arm with symbolic parameters against their textbook closed
//    forms (the planar elbow of Spong, Hutchinson and Vidyasagar (2006), chapter 7), written out
//    here and compared as expressions: the difference simplifies to zero. c_i = l_i + c_ix is the
//    joint-to-COM distance (DH frame i is at the link's far end, so c_ix < 0);
//  - Saha's planar 3-link arm (robots/planar3.dh) and the Stanford arm (robots/stanford_arm.dh),
//    numeric and symbolic parameters (from the DH table, and from symbolicModel on the UR5's URDF):
//    M, C qd, g and tau evaluated at random states equal CRBA and RNEA on double to 1e-12;
//  - the textbook form of the Stanford arm's first three links (R R P, Spong, Hutchinson and
//    Vidyasagar (2006), chapter 7; Saha (1999), Table 3): M, g written out with sin^2 q2, and no
//    cos 2q in what is printed for the whole arm;
//  - the Lagrangian formulations (Uicker/Kahn, Hollerbach's recursive 4x4 and 3x3, Waters) on the
//    symbolic scalar, and the 3-vector Newton-Euler with numeric parameters: their tau minus RNEA's
//    simplifies to zero.
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

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

std::string readText(const std::string& path) {
  std::ifstream file(path);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}
std::string robot(const char* name) { return std::string(DYNSCOPE_ROBOTS_DIR) + "/" + name; }

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
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(dyn::parseDhTable(readText(path)));
    const double symbolic = worstError(m, dyn::equationsOfMotion(sm.model, s), s, sm.values);
    QVERIFY2(symbolic <= 1e-12, qPrintable(QString("symbolic parameters: %1").arg(symbolic)));
    qDebug() << "planar3: worst error" << numeric << "(numeric parameters)," << symbolic << "(symbolic)";
  }

  void stanfordArmNumericAndSymbolicParametersMatchCrbaAndRnea() {
    const std::string path = robot("stanford_arm.dh");
    const dyn::Model m = dyn::loadModel(path);
    const dyn::SymbolicState s = dyn::symbolicState(m.nv);
    const double numeric = worstError(m, dyn::equationsOfMotion(m.cast<dyn::Sym>(), s), s, {});
    QVERIFY2(numeric <= 1e-12, qPrintable(QString("numeric parameters: %1").arg(numeric)));
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(dyn::parseDhTable(readText(path)));
    const double symbolic = worstError(m, dyn::equationsOfMotion(sm.model, s, sm.masses()), s, sm.values);
    QVERIFY2(symbolic <= 1e-12, qPrintable(QString("symbolic parameters: %1").arg(symbolic)));
    qDebug() << "stanford arm: worst error" << numeric << "(numeric parameters)," << symbolic << "(symbolic)";
  }

  // The Stanford arm's arm (Saha's Table 3, rows 1-3: R R P) in the textbook's form: sin^2 q2 and cos^2 q2
  // where the Fourier form writes cos 2 q2, link 3's distance q3 sin q2 from the first axis.
  void stanfordArmTextbookForm() {
    std::string table = readText(robot("stanford_arm.dh"));
    table = table.substr(0, table.find("joint j4"));
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(dyn::parseDhTable(table));
    const dyn::SymbolicState s = dyn::symbolicState(3);
    const dyn::EquationsOfMotion eom = dyn::equationsOfMotion(sm.model, s, sm.masses());
    const auto P = [&](const char* name) { return ex(sm.parameter(name)); };
    const ex q2 = s.q[1], q3 = s.q[2], s2 = GiNaC::sin(q2), c2 = GiNaC::cos(q2), d2 = P("d2"), m2 = P("m2"),
             m3 = P("m3"), g = P("g");
    const ex M11 = P("I1yy") + P("I2xx") * s2 * s2 + P("I2zz") * c2 * c2 + P("I3xx") * s2 * s2 + P("I3zz") * c2 * c2 +
                   m2 * d2 * d2 + m3 * (d2 * d2 + q3 * q3 * s2 * s2);
    const ex M12 = m3 * d2 * q3 * c2, M13 = m3 * d2 * s2, M22 = P("I2yy") + P("I3yy") + m3 * q3 * q3, M33 = m3;
    QVERIFY(isZero(eom.M(0, 0).e - M11, s.q));
    QVERIFY(isZero(eom.M(0, 1).e - M12, s.q));
    QVERIFY(isZero(eom.M(0, 2).e - M13, s.q));
    QVERIFY(isZero(eom.M(1, 1).e - M22, s.q));
    QVERIFY(eom.M(1, 2).e.is_zero());
    QVERIFY(isZero(eom.M(2, 2).e - M33, s.q));
    QVERIFY(isZero(eom.g[1].e - m3 * g * q3 * s2, s.q));
    QVERIFY(isZero(eom.g[2].e + m3 * g * c2, s.q));
    QVERIFY(!isZero(eom.M(0, 0).e - (M11 - P("I2xx") * s2 * s2), s.q));  // the comparison can fail
    const std::string M11text = dyn::Sym::toString(eom.M(0, 0).e);
    QVERIFY2(M11text.find("sin(q2)^2") != std::string::npos, M11text.c_str());
    // The whole arm, wrist too: no double angle anywhere in M, c, g (and the check finds one).
    const QRegularExpression multipleAngle(R"((sin|cos)\([^()]*[0-9]\*q[0-9])");
    QVERIFY(QString("cos(q1+2*q2)").contains(multipleAngle) && !QString("2*qd1*cos(q2)").contains(multipleAngle));
    const dyn::SymbolicModel arm = dyn::symbolicDhModel(dyn::parseDhTable(readText(robot("stanford_arm.dh"))));
    const dyn::SymbolicState s6 = dyn::symbolicState(6);
    const dyn::EquationsOfMotion whole = dyn::equationsOfMotion(arm.model, s6, arm.masses());
    for (const dyn::VecX<dyn::Sym>& v : {dyn::VecX<dyn::Sym>(whole.M.reshaped()), whole.c, whole.g})
      for (const dyn::Sym& x : v) {
        const QString text = QString::fromStdString(dyn::Sym::toString(x.e));
        QVERIFY2(!text.contains(multipleAngle), qPrintable(text));
      }
    qDebug() << "M11 =" << QString::fromStdString(M11text);
    qDebug() << "stanford arm M22 =" << QString::fromStdString(dyn::Sym::toString(whole.M(1, 1).e));
  }

  void urdfSymbolicParametersMatchCrbaAndRnea() {
    const dyn::Model m = dyn::loadModel(robot("ur5.urdf"));
    const dyn::SymbolicModel sm = dyn::symbolicModel(m);
    const dyn::SymbolicState s = dyn::symbolicState(m.nv);
    const double symbolic = worstError(m, dyn::equationsOfMotion(sm.model, s, sm.masses()), s, sm.values);
    QVERIFY2(symbolic <= 1e-12, qPrintable(QString("symbolic parameters: %1").arg(symbolic)));
    // Symbols only where the model has a non-zero value; TeX names; meanings naming the link.
    std::ostringstream tex;
    tex << GiNaC::latex << ex(sm.parameter("m2"));
    QCOMPARE(QString::fromStdString(tex.str()), QString("m_{2}"));
    QVERIFY(
        std::any_of(sm.parameters.begin(), sm.parameters.end(), [](const auto& p) { return p.get_name() == "I2xx"; }));
    QVERIFY(
        std::none_of(sm.parameters.begin(), sm.parameters.end(), [](const auto& p) { return p.get_name() == "p1x"; }));
    QCOMPARE(QString::fromStdString(sm.meaning("m2")), QString("mass of link 2 (%1) [kg]").arg(m.bodyNames[2].c_str()));
    QCOMPARE(QString::fromStdString(dyn::parameterMeaning("p2z", dyn::ParameterFrames::Link)),
             QString("origin of joint 2, z in its parent link's frame [m]"));
    QCOMPARE(QString::fromStdString(dyn::parameterMeaning("c2x", dyn::ParameterFrames::Dh)),
             QString("centre of mass of link 2, x in DH frame 2 [m]"));
    QCOMPARE(QString::fromStdString(dyn::parameterMeaning("I3yz", dyn::ParameterFrames::Link)),
             QString("inertia of link 3 about its centre of mass, yz (link 3's frame axes) [kg m^2]"));
    QVERIFY(dyn::parameterMeaning("q1", dyn::ParameterFrames::Link).empty());
    // A joint other than revolute or prismatic is refused by name.
    dyn::Model planar = dyn::loadModel(robot("planar3.dh"));
    planar.joints[2].type = dyn::JointType::Spherical;
    try {
      dyn::symbolicModel(planar);
      QFAIL("a spherical joint was taken");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("joint '" + QString::fromStdString(planar.jointNames[2]) + "'"), e.what());
    }
    // A DH robot through symbolicModel: the same equations at the values as through its table.
    const dyn::Model arm = dyn::loadModel(robot("planar3.dh"));
    const dyn::SymbolicModel armModel = dyn::symbolicModel(arm);
    const dyn::SymbolicState s3 = dyn::symbolicState(3);
    const double planarError = worstError(arm, dyn::equationsOfMotion(armModel.model, s3), s3, armModel.values);
    QVERIFY2(planarError <= 1e-12, qPrintable(QString("planar3 through symbolicModel: %1").arg(planarError)));
    qDebug() << "ur5 (symbolic URDF parameters): worst error" << symbolic << "," << sm.parameters.size() << "symbols";
  }

  // Uicker/Kahn, Hollerbach's recursive 4x4 and 3x3 and Waters on the symbolic scalar (symbolic parameters),
  // Luh, Walker and Paul's 3-vector Newton-Euler with numeric ones: their tau is RNEA's.
  void lagrangianFormulationsOnTheSymbolicScalar_data() {
    QTest::addColumn<QString>("table");
    QTest::newRow("arm2") << QString(arm2);
    QTest::newRow("planar3") << QString::fromStdString(readText(robot("planar3.dh")));
  }
  void lagrangianFormulationsOnTheSymbolicScalar() {
    QFETCH(QString, table);
    const dyn::SymbolicModel sm = dyn::symbolicDhModel(dyn::parseDhTable(table.toStdString()));
    const dyn::ModelTpl<dyn::Sym>& model = sm.model;
    const dyn::SymbolicState s = dyn::symbolicState(model.nv);
    const dyn::VecX<dyn::Sym> q = s.qVec(), qd = s.qdVec(), qdd = s.qddVec();
    dyn::DataTpl<dyn::Sym> data(model);
    const dyn::VecX<dyn::Sym> tau = dyn::rnea(model, data, q, qd, qdd);
    dyn::UickerKahnWorkspace<dyn::Sym> uk(model);
    dyn::RecursiveLagrangian4x4Workspace<dyn::Sym> r4(model);
    dyn::RecursiveLagrangian3x3Workspace<dyn::Sym> r3(model);
    dyn::WatersWorkspace<dyn::Sym> waters(model);
    const std::pair<const char*, dyn::VecX<dyn::Sym>> results[] = {
        {"Uicker/Kahn", dyn::uickerKahnInverseDynamics(model, uk, q, qd, qdd)},
        {"recursive 4x4", dyn::recursiveLagrangian4x4InverseDynamics(model, r4, q, qd, qdd)},
        {"recursive 3x3", dyn::recursiveLagrangian3x3InverseDynamics(model, r3, q, qd, qdd)},
        {"Waters", dyn::watersInverseDynamics(model, waters, q, qd, qdd)}};
    for (const auto& [name, tauF] : results)
      for (int i = 0; i < model.nv; ++i)
        QVERIFY2(isZero(tauF[i].e - tau[i].e, s.q), qPrintable(QString("%1, tau%2").arg(name).arg(i + 1)));
    QVERIFY(!isZero(std::get<1>(results[0])[0].e - tau[model.nv - 1].e, s.q));  // the comparison can fail
    // The 3-vector Newton-Euler takes each link's centre of mass h/m, which Inertia::com() gives only for m > 0:
    // a symbolic mass cannot decide that (SymbolicBranch, naming it); numeric parameters run.
    try {
      dyn::NewtonEuler3WorkspaceTpl<dyn::Sym> refused(model);
      QFAIL("a symbolic mass was decided");
    } catch (const dyn::SymbolicBranch& e) {
      QVERIFY2(QString(e.what()).contains("m1"), e.what());
    }
    const dyn::ModelTpl<dyn::Sym> numeric =
        dyn::buildModel(dyn::dhTableToDescription(dyn::parseDhTable(table.toStdString()))).cast<dyn::Sym>();
    dyn::DataTpl<dyn::Sym> numericData(numeric);
    const dyn::VecX<dyn::Sym> tauNumeric = dyn::rnea(numeric, numericData, q, qd, qdd);
    dyn::NewtonEuler3WorkspaceTpl<dyn::Sym> ne3(numeric);
    const dyn::VecX<dyn::Sym> tauNe3 = dyn::newtonEuler3(numeric, ne3, q, qd, qdd);
    for (int i = 0; i < model.nv; ++i)
      QVERIFY2(isZero(tauNe3[i].e - tauNumeric[i].e, s.q), qPrintable(QString("Newton-Euler, tau%1").arg(i + 1)));
  }
};

QTEST_GUILESS_MAIN(TestSymbolicDynamics)
#include "test_symbolic_dynamics.moc"
