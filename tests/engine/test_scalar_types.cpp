// The same algorithm code on other scalars:
//  (a) Eigen's AutoDiffScalar<VectorXd> on model.cast<AD>(): dRNEA/dqdd = M (CRBA), dRNEA/dqd = 0
//      at qd = 0 and matches central differences elsewhere, dRNEA/dq matches central differences,
//      dABA/dtau = M^-1;
//  (b) an operation-counting scalar (tests/support/counting_scalar.hpp): same results as double,
//      and the cost of RNEA and ABA on a serial revolute chain is exactly linear in N (CRBA exactly
//      quadratic); the per-link counts are printed with qDebug.
#include <QtTest>
#include <array>
#include <cmath>
#include <filesystem>
#include <random>

#include "autodiff_vectors.hpp"
#include "counting_scalar.hpp"
#include "dynscope/dynscope.hpp"
#include "random_tree.hpp"

using dyn::testing::AD;
using dyn::testing::adConst;
using dyn::testing::adVar;
using dyn::testing::jacobianOf;
using dyn::testing::values;
using CS = dyn::testing::CountingScalar;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

using K = dyn::JointKind;

// A random tree with every joint type (multi-DOF ABA branch included).
dyn::Model allJointsTree(unsigned seed, int links) { return dyn::buildModel(dyn::testing::randomTree(seed, links)); }

// A serial chain of n revolute joints with random origins, axes and inertias.
dyn::Model serialChain(int n, unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> V(-1, 1);
  dyn::RobotDescription r;
  r.name = "chain" + std::to_string(n);
  r.sourceFile = r.name;
  for (int l = 0; l <= n; ++l) {
    dyn::LinkDesc ld;
    ld.name = "link" + std::to_string(l);
    ld.inertial = dyn::testing::randomInertial(rng);
    r.links.push_back(ld);
  }
  for (int l = 1; l <= n; ++l) {
    dyn::JointDesc jd;
    jd.name = "joint" + std::to_string(l);
    jd.kind = K::Continuous;
    jd.parent = "link" + std::to_string(l - 1);
    jd.child = "link" + std::to_string(l);
    jd.origin = dyn::testing::randomPose(rng);
    jd.axis = Eigen::Vector3d(V(rng), V(rng), V(rng)).normalized();
    r.joints.push_back(jd);
  }
  return dyn::buildModel(r);
}

struct State {
  VectorXd q, qd, qdd, tau;
};
State randomState(const dyn::Model& m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  State s;
  s.q = dyn::randomConfiguration(m, rng);
  s.qd.resize(m.nv);
  s.qdd.resize(m.nv);
  s.tau.resize(m.nv);
  for (int k = 0; k < m.nv; ++k) {
    s.qd[k] = U(rng);
    s.qdd[k] = U(rng);
    s.tau[k] = U(rng);
  }
  return s;
}

double maxAbs(const MatrixXd& a) { return a.size() ? a.cwiseAbs().maxCoeff() : 0.0; }

// The shipped robots usable here (skipped when absent).
std::vector<std::pair<QString, dyn::Model>> models() {
  std::vector<std::pair<QString, dyn::Model>> out;
  for (unsigned seed : {11u, 12u, 13u}) out.emplace_back(QString("random%1").arg(seed), allJointsTree(seed, 10));
  for (const char* f : {"panda.urdf", "ur5.urdf"}) {
    const std::string path = std::string(DYNSCOPE_ROBOTS_DIR) + "/" + f;
    if (std::filesystem::exists(path)) out.emplace_back(f, dyn::loadModel(path));
  }
  const std::string quad = std::string(DYNSCOPE_ROBOTS_DIR) + "/quadruped.urdf";
  if (std::filesystem::exists(quad))
    out.emplace_back("quadruped floating", dyn::loadModel(quad, dyn::BuildOptions{.floatingBase = true}));
  return out;
}

#define CHECK_ERR(err, tol, what)                                                                            \
  do {                                                                                                       \
    const double e_ = (err);                                                                                 \
    if (!(e_ <= (tol))) QFAIL(qPrintable(QString("%1: error %2 > %3").arg(what).arg(e_).arg(tol)));          \
  } while (false)

// Operation counts of one call on model.cast<CountingScalar>().
struct Costs {
  dyn::testing::OpCounts rnea, crba, aba;
};
Costs costsOf(const dyn::Model& m) {
  const dyn::ModelTpl<CS> mc = m.cast<CS>();
  dyn::DataTpl<CS> d(mc);
  const State s = randomState(m, 5);
  const dyn::VecX<CS> q = s.q.cast<CS>(), qd = s.qd.cast<CS>(), qdd = s.qdd.cast<CS>(), tau = s.tau.cast<CS>();
  Costs c;
  CS::reset();
  dyn::rnea(mc, d, q, qd, qdd);
  c.rnea = CS::counts();
  CS::reset();
  dyn::crba(mc, d, q);
  c.crba = CS::counts();
  CS::reset();
  dyn::aba(mc, d, q, qd, tau);
  c.aba = CS::counts();
  return c;
}

QString describe(const dyn::testing::OpCounts& c) {
  return QString("%1 mul/div, %2 add/sub, sin %3, cos %4, sqrt %5, other functions %6")
      .arg(c.muls).arg(c.adds).arg(c.sin).arg(c.cos).arg(c.sqrt).arg(c.functions() - c.sin - c.cos - c.sqrt);
}

}  // namespace

class TestScalarTypes : public QObject {
  Q_OBJECT

 private slots:
  // ---------------------------------------------------------------- (a) automatic differentiation
  void autodiffRneaByQddIsCrba() {
    for (const auto& [name, m] : models()) {
      const dyn::ModelTpl<AD> ma = m.cast<AD>();
      dyn::DataTpl<AD> da(ma);
      dyn::Data d(m);
      for (unsigned seed = 1; seed <= 3; ++seed) {
        const State s = randomState(m, seed);
        const int n = m.nv;
        const dyn::VecX<AD> tau = dyn::rnea(ma, da, adConst(s.q, n), adConst(s.qd, n), adVar(s.qdd));
        const MatrixXd dTau = jacobianOf(tau, n);
        dyn::crba(m, d, s.q);
        CHECK_ERR(maxAbs(dTau - d.M), 1e-10, name + ": d(RNEA)/d(qdd) = M");
        // the values are the double results
        dyn::rnea(m, d, s.q, s.qd, s.qdd);
        CHECK_ERR(maxAbs(values(tau) - d.tau), 1e-10 * std::max(1.0, d.tau.cwiseAbs().maxCoeff()),
                  name + ": AD value = double tau");
      }
    }
  }

  void autodiffRneaByQd() {
    for (const auto& [name, m] : models()) {
      const dyn::ModelTpl<AD> ma = m.cast<AD>();
      dyn::DataTpl<AD> da(ma);
      dyn::Data d(m);
      const int n = m.nv;
      const State s = randomState(m, 21);
      // at qd = 0 the velocity terms are quadratic in qd: their derivative vanishes
      const dyn::VecX<AD> tau0 = dyn::rnea(ma, da, adConst(s.q, n), adVar(VectorXd::Zero(n)), adConst(s.qdd, n));
      CHECK_ERR(maxAbs(jacobianOf(tau0, n)), 1e-10, name + ": d(RNEA)/d(qd) at qd = 0");
      // elsewhere: central differences
      const dyn::VecX<AD> tau = dyn::rnea(ma, da, adConst(s.q, n), adVar(s.qd), adConst(s.qdd, n));
      const MatrixXd J = jacobianOf(tau, n);
      const double h = 1e-6;
      MatrixXd F(n, n);
      for (int k = 0; k < n; ++k) {
        VectorXd qp = s.qd, qm = s.qd;
        qp[k] += h;
        qm[k] -= h;
        const VectorXd tp = dyn::rnea(m, d, s.q, qp, s.qdd);
        const VectorXd tm = dyn::rnea(m, d, s.q, qm, s.qdd);
        F.col(k) = (tp - tm) / (2 * h);
      }
      CHECK_ERR(maxAbs(J - F), 1e-6, name + ": d(RNEA)/d(qd) vs central differences");
    }
  }

  // d(tau)/dq over the raw q coordinates (quaternion components included: the engine
  // normalises inside quaternionToMatrix, so tau is a smooth function of all nq numbers).
  void autodiffRneaByQ() {
    for (const auto& [name, m] : models()) {
      const dyn::ModelTpl<AD> ma = m.cast<AD>();
      dyn::DataTpl<AD> da(ma);
      dyn::Data d(m);
      const State s = randomState(m, 31);
      const int nq = m.nq;
      const dyn::VecX<AD> tau = dyn::rnea(ma, da, adVar(s.q), adConst(s.qd, nq), adConst(s.qdd, nq));
      const MatrixXd J = jacobianOf(tau, nq);
      const double h = 1e-6;
      MatrixXd F(m.nv, nq);
      for (int k = 0; k < nq; ++k) {
        VectorXd qp = s.q, qm = s.q;
        qp[k] += h;
        qm[k] -= h;
        const VectorXd tp = dyn::rnea(m, d, qp, s.qd, s.qdd);
        const VectorXd tm = dyn::rnea(m, d, qm, s.qd, s.qdd);
        F.col(k) = (tp - tm) / (2 * h);
      }
      CHECK_ERR(maxAbs(J - F), 1e-6, name + ": d(RNEA)/d(q) vs central differences");
      QVERIFY2(maxAbs(J) > 1e-3, qPrintable(name + ": d(RNEA)/dq unexpectedly zero"));
    }
  }

  // ABA on AutoDiffScalar (the multi-DOF branch inverts SmallMat<AD>): d(qdd)/d(tau) = M^-1.
  void autodiffAbaByTau() {
    for (const auto& [name, m] : models()) {
      const dyn::ModelTpl<AD> ma = m.cast<AD>();
      dyn::DataTpl<AD> da(ma);
      dyn::Data d(m);
      const State s = randomState(m, 41);
      const int n = m.nv;
      const dyn::VecX<AD> qdd = dyn::aba(ma, da, adConst(s.q, n), adConst(s.qd, n), adVar(s.tau));
      const MatrixXd J = jacobianOf(qdd, n);
      dyn::crba(m, d, s.q);
      CHECK_ERR(maxAbs(d.M * J - MatrixXd::Identity(n, n)), 1e-10, name + ": M d(ABA)/d(tau) = 1");
      dyn::aba(m, d, s.q, s.qd, s.tau);
      CHECK_ERR(maxAbs(values(qdd) - d.qdd), 1e-10 * std::max(1.0, d.qdd.cwiseAbs().maxCoeff()),
                name + ": AD value = double qdd");
    }
  }

  // The configuration-space and rotation helpers on AD (acos, sin, cos, sqrt, atan2 found by ADL,
  // Eigen::Quaternion<AD>): d/dv difference(q, integrate(q, v, 1)) = 1, and d/d(rpy) of
  // matrixToRpy(Rz(y) Ry(p) Rx(r)) = 1 (the rotation built here from rotx/roty/rotz).
  void autodiffConfigurationAndRpy() {
    std::mt19937 rng(61);
    std::uniform_real_distribution<double> U(-1, 1);
    for (unsigned seed : {11u, 12u, 13u}) {
      const dyn::Model m = allJointsTree(seed, 10);
      const dyn::ModelTpl<AD> ma = m.cast<AD>();
      const int n = m.nv;
      const VectorXd q = dyn::randomConfiguration(m, rng);
      VectorXd v(n);
      for (int k = 0; k < n; ++k) v[k] = U(rng);
      const dyn::VecX<AD> qa = adConst(q, n), va = adVar(v);
      dyn::VecX<AD> q1(m.nq), v1(n);
      dyn::integrate(ma, qa, va, AD(1.0, VectorXd::Zero(n)), q1);
      dyn::difference(ma, qa, q1, v1);
      CHECK_ERR(maxAbs(values(v1) - v), 1e-12, QString("random%1: AD difference(integrate) value").arg(seed));
      CHECK_ERR(maxAbs(jacobianOf(v1, n) - MatrixXd::Identity(n, n)), 1e-10,
                QString("random%1: d difference(q, integrate(q, v)) / dv = 1").arg(seed));
    }
    for (int t = 0; t < 20; ++t) {
      const Eigen::Vector3d e(M_PI * U(rng), 0.49 * M_PI * U(rng), M_PI * U(rng));
      const dyn::VecX<AD> x = adVar(e);
      const dyn::Mat3<AD> R = (dyn::rotx(x[0]) * dyn::roty(x[1]) * dyn::rotz(x[2])).transpose();  // Rz Ry Rx
      const dyn::Vec3<AD> back = dyn::matrixToRpy(R);
      CHECK_ERR(maxAbs(values(back) - e), 1e-12, "AD matrixToRpy value");
      CHECK_ERR(maxAbs(jacobianOf(back, 3) - Eigen::Matrix3d::Identity()), 1e-10, "d matrixToRpy / d rpy = 1");
    }
  }

  // ---------------------------------------------------------------- (b) operation counting
  void countingScalarArithmetic() {
    CS::reset();
    CS a = 2.0, b = 3.0;
    CS c = a * b + a / b - a;  // 2 mul, 2 add
    c += a;                    // 1 add
    c *= b;                    // 1 mul
    const CS s = sin(a) + cos(b) + sqrt(b) + abs(-a) + atan2(a, b) + acos(CS(0.5));
    QCOMPARE(CS::counts().muls, 3);
    QCOMPARE(CS::counts().adds, 3 + 5);
    QCOMPARE(CS::counts().sin, 1);
    QCOMPARE(CS::counts().cos, 1);
    QCOMPARE(CS::counts().sqrt, 1);
    QCOMPARE(CS::counts().abs, 1);
    QCOMPARE(CS::counts().atan2, 1);
    QCOMPARE(CS::counts().acos, 1);
    QCOMPARE(CS::counts().negs, 1);
    QVERIFY(a < b && b > a && a <= a && a >= a && a == a && a != b);
    QCOMPARE(CS::counts().compares, 6);
    QCOMPARE(double(c), (2.0 * 3 + 2.0 / 3 - 2 + 2) * 3);
    QCOMPARE(double(s), std::sin(2.0) + std::cos(3.0) + std::sqrt(3.0) + 2.0 + std::atan2(2.0, 3.0) + std::acos(0.5));
    // Eigen: a 3x3 times 3-vector product is 9 multiplications and 6 additions
    dyn::Mat3<CS> M = dyn::Mat3<CS>::Identity();
    dyn::Vec3<CS> x(1.0, 2.0, 3.0);
    CS::reset();
    const dyn::Vec3<CS> y = M * x;
    QCOMPARE(CS::counts().muls, 9);
    QCOMPARE(CS::counts().adds, 6);
    QCOMPARE(double(y[2]), 3.0);
  }

  // The joint transforms (jcalc) are booked apart: on a revolute chain every sine and cosine is
  // there, one pair per joint, and none is left in the algorithm's own bucket; the total is unchanged.
  void countingScalarJointTransformsApart() {
    for (int n : {3, 7}) {
      const dyn::Model m = serialChain(n);
      const dyn::ModelTpl<CS> mc = m.cast<CS>();
      dyn::DataTpl<CS> d(mc);
      const State s = randomState(m, 9);
      const dyn::VecX<CS> q = s.q.cast<CS>(), qd = s.qd.cast<CS>(), qdd = s.qdd.cast<CS>(), tau = s.tau.cast<CS>();
      for (int algorithm = 0; algorithm < 3; ++algorithm) {
        CS::reset();
        if (algorithm == 0) dyn::rnea(mc, d, q, qd, qdd);
        if (algorithm == 1) dyn::crba(mc, d, q);
        if (algorithm == 2) dyn::aba(mc, d, q, qd, tau);
        const dyn::OpTally& t = CS::tally();
        QCOMPARE(t.jointTransforms.sin, std::int64_t(n));
        QCOMPARE(t.jointTransforms.cos, std::int64_t(n));
        QCOMPARE(t.algorithm.sin + t.algorithm.cos, std::int64_t(0));
        QVERIFY(t.jointTransforms.muls > 0 && t.algorithm.muls > t.jointTransforms.muls);
        QVERIFY(CS::counts() == t.algorithm + t.jointTransforms);
      }
    }
  }
  void countingScalarSameResults() {
    for (const auto& [name, m] : models()) {
      const dyn::ModelTpl<CS> mc = m.cast<CS>();
      dyn::DataTpl<CS> dc(mc);
      dyn::Data d(m);
      const State s = randomState(m, 51);
      const dyn::VecX<CS> q = s.q.cast<CS>(), qd = s.qd.cast<CS>(), qdd = s.qdd.cast<CS>(), tau = s.tau.cast<CS>();
      auto toDouble = [](const dyn::VecX<CS>& x) {
        VectorXd y(x.size());
        for (int i = 0; i < x.size(); ++i) y[i] = double(x[i]);
        return y;
      };
      // Not bitwise: the double build may use SIMD and FMA, which reassociate.
      const VectorXd tc = toDouble(dyn::rnea(mc, dc, q, qd, qdd));
      dyn::rnea(m, d, s.q, s.qd, s.qdd);
      CHECK_ERR(maxAbs(tc - d.tau), 1e-12 * std::max(1.0, d.tau.cwiseAbs().maxCoeff()), name + ": RNEA");
      const VectorXd ac = toDouble(dyn::aba(mc, dc, q, qd, tau));
      dyn::aba(m, d, s.q, s.qd, s.tau);
      CHECK_ERR(maxAbs(ac - d.qdd), 1e-10 * std::max(1.0, d.qdd.cwiseAbs().maxCoeff()), name + ": ABA");
      dyn::crba(mc, dc, q);
      dyn::crba(m, d, s.q);
      MatrixXd Mc(m.nv, m.nv);
      for (int i = 0; i < m.nv; ++i)
        for (int j = 0; j < m.nv; ++j) Mc(i, j) = double(dc.M(i, j));
      CHECK_ERR(maxAbs(Mc - d.M), 1e-12 * std::max(1.0, d.M.cwiseAbs().maxCoeff()), name + ": CRBA");
    }
  }

  // Cost on a serial chain of N general revolute joints, N = 6, 12, 24 (and 48 to confirm the fit).
  void operationCountsSerialChain() {
    const int Ns[] = {6, 12, 24, 48};
    Costs c[4];
    for (int k = 0; k < 4; ++k) c[k] = costsOf(serialChain(Ns[k]));
    // the counts do not depend on the numbers, only on the structure
    const Costs other = costsOf(serialChain(12, 99));
    QVERIFY(other.rnea == c[1].rnea && other.crba == c[1].crba && other.aba == c[1].aba);

    // per added link constant: (c12 - c6)/6 = (c24 - c12)/12 = (c48 - c24)/24
    QString failure;
    auto linear = [&](const std::array<std::int64_t, 4>& v, const char* algo, const char* what) {
      const std::int64_t d1 = v[1] - v[0], d2 = v[2] - v[1], d3 = v[3] - v[2];
      if (!(d1 * 2 == d2 && d2 * 2 == d3 && d1 % 6 == 0) && failure.isEmpty())
        failure = QString("%1 %2 count not linear in N: %3 %4 %5 %6").arg(algo, what).arg(v[0]).arg(v[1]).arg(v[2]).arg(v[3]);
      const std::int64_t perLink = d1 / 6;
      return std::make_pair(perLink, v[0] - 6 * perLink);
    };
    auto signedTerm = [](std::int64_t x) { return x < 0 ? QString("- %1").arg(-x) : QString("+ %1").arg(x); };
    auto lin = [&](const char* algo, dyn::testing::OpCounts Costs::*member) {
      auto series = [&](auto field) {
        std::array<std::int64_t, 4> v;
        for (int k = 0; k < 4; ++k) v[k] = field(c[k].*member);
        return v;
      };
      using OC = dyn::testing::OpCounts;
      const auto mul = linear(series([](const OC& o) { return o.muls; }), algo, "mul");
      const auto add = linear(series([](const OC& o) { return o.adds; }), algo, "add");
      const auto sn = linear(series([](const OC& o) { return o.sin; }), algo, "sin");
      const auto cs = linear(series([](const OC& o) { return o.cos; }), algo, "cos");
      const auto fn = linear(series([](const OC& o) { return o.functions(); }), algo, "function");
      qDebug().noquote() << QString("%1 per link: %2 mul/div + %3 add/sub (+ %4 sin, %5 cos; %6 functions in all); "
                                    "N links: (%2 N %7) mul, (%3 N %8) add")
                                .arg(algo).arg(mul.first).arg(add.first).arg(sn.first).arg(cs.first).arg(fn.first)
                                .arg(signedTerm(mul.second), signedTerm(add.second));
    };
    lin("RNEA", &Costs::rnea);
    lin("ABA", &Costs::aba);
    if (!failure.isEmpty()) QFAIL(qPrintable(failure));

    // CRBA on a chain is O(N^2): fit a N^2 + b N + c through N = 6, 12, 24, check it at N = 48.
    auto quad = [&](auto get) -> std::array<double, 3> {
      Eigen::Matrix3d A;
      Eigen::Vector3d y;
      for (int k = 0; k < 3; ++k) {
        A.row(k) << double(Ns[k]) * Ns[k], Ns[k], 1;
        y[k] = double(get(c[k]));
      }
      const Eigen::Vector3d p = A.fullPivLu().solve(y);
      return {p[0], p[1], p[2]};
    };
    auto getMul = [](const Costs& x) { return x.crba.muls; };
    auto getAdd = [](const Costs& x) { return x.crba.adds; };
    for (auto [get, what] : {std::pair<std::int64_t (*)(const Costs&), const char*>{+getMul, "mul"},
                             std::pair<std::int64_t (*)(const Costs&), const char*>{+getAdd, "add"}}) {
      const auto p = quad(get);
      const double at48 = p[0] * 48 * 48 + p[1] * 48 + p[2];
      QVERIFY2(std::abs(at48 - double(get(c[3]))) < 1e-6,
               qPrintable(QString("CRBA %1 count not quadratic in N: predicted %2, counted %3").arg(what)
                              .arg(at48).arg(get(c[3]))));
      qDebug().noquote() << QString("CRBA %1 for N links: %2 N^2 %3 N %4  (N = 6, 12, 24, 48: %5, %6, %7, %8)")
                                .arg(what).arg(p[0]).arg(signedTerm(std::llround(p[1])), signedTerm(std::llround(p[2])))
                                .arg(get(c[0])).arg(get(c[1])).arg(get(c[2]))
                                .arg(get(c[3]));
    }
    for (int k = 0; k < 3; ++k)
      qDebug().noquote() << QString("N = %1: RNEA %2 | CRBA %3 | ABA %4").arg(Ns[k]).arg(describe(c[k].rnea))
                                .arg(describe(c[k].crba)).arg(describe(c[k].aba));
  }
};

QTEST_APPLESS_MAIN(TestScalarTypes)
#include "test_scalar_types.moc"
