// Loop-closure kinematics (review §3.4, eqs. 16-18) against independent references:
//  * the rank-revealing QR against Eigen's decompositions (rank, A P = Q R, minimum-norm solution);
//  * phi' = d phi / dq by central differences at assembled configurations, and c = -phi'dot qd by
//    differences of phi'(q + t qd) qd, for every loop-joint type on random closed chains;
//  * the four-bar's assembly against its closed-form position solution (derived below and in
//    docs/loops.md), its failure past the rocker's extreme positions, the slider-crank's piston
//    position, and the delta's plate: pure translation with every lower arm l long.
#include <QtTest>
#include <cmath>
#include <random>

#include <Eigen/QR>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/loops/loop_constraints.hpp"
#include "fourbar_closed_form.hpp"
#include "loop_states.hpp"

using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

using dyn::testing::fourBarClosedForm;
using dyn::testing::FourBarPose;
constexpr double kA = dyn::testing::kFourBarA, kB = dyn::testing::kFourBarB, kC = dyn::testing::kFourBarC,
                 kD = dyn::testing::kFourBarD;

double wrap(double a) { return std::remainder(a, 2 * M_PI); }

}  // namespace

class TestLoopKinematics : public QObject {
  Q_OBJECT

 private slots:
  void pivotedQrRevealsRank() {
    std::mt19937 rng(4);
    for (auto [m, n, r] : {std::tuple{8, 6, 6}, {18, 15, 11}, {5, 9, 3}, {6, 6, 0}, {7, 4, 1}}) {
      const MatrixXd A = r == 0 ? MatrixXd::Zero(m, n) : MatrixXd(MatrixXd::Random(m, r) * MatrixXd::Random(r, n));
      dyn::PivotedQR<double> qr(m, n);
      QCOMPARE(qr.compute(A, 1e-10), r);
      QCOMPARE(Eigen::ColPivHouseholderQR<MatrixXd>(A).rank(), long(r));
      // Q R = A P on the first r columns.
      for (int k = 0; k < r; ++k) {
        VectorXd x = VectorXd::Zero(m);
        for (int i = 0; i <= k; ++i) x[i] = qr.R(i, k);
        qr.applyQ(x);
        CHECK_CLOSE(x, A.col(qr.permutation()[size_t(k)]), 1e-12, 1 + A.norm(), "Q R e_k = A P e_k");
      }
      // For M = A^T: the minimum-norm x with M x = b (b in M's range) is the pseudo-inverse's.
      const MatrixXd M = A.transpose();
      const VectorXd b = M * VectorXd::Random(m);
      VectorXd x(m);
      qr.solveTransposedMinNorm(b, x);
      const VectorXd ref = Eigen::CompleteOrthogonalDecomposition<MatrixXd>(M).solve(b);
      CHECK_CLOSE(x, ref, 1e-10, 1 + ref.norm(), "minimum-norm solution");
    }
  }

  void jacobianIsTheDerivativeOfPhi_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("links");
    QTest::newRow("revolute") << int(dyn::JointKind::Revolute) << 6;
    QTest::newRow("prismatic") << int(dyn::JointKind::Prismatic) << 7;
    QTest::newRow("spherical") << int(dyn::JointKind::Spherical) << 5;
    QTest::newRow("fixed") << int(dyn::JointKind::Fixed) << 8;
  }
  void jacobianIsTheDerivativeOfPhi() {
    QFETCH(int, kind);
    QFETCH(int, links);
    for (unsigned seed = 1; seed <= 3; ++seed) {
      VectorXd qStar;
      const dyn::Model m = dyn::buildModel(dyn::testing::closedChain(seed, links, dyn::JointKind(kind), qStar));
      QCOMPARE(int(m.loops.size()), 1);
      dyn::Data d(m);
      dyn::LoopData ld(m);
      dyn::loopConstraints(m, d, ld, qStar);
      QVERIFY2(dyn::maxAbs(ld.phi) < 1e-12, "the chain is assembled at qStar");
      const MatrixXd J = ld.Jc;
      MatrixXd fd(m.constraintRows, m.nv);
      const double h = 1e-6;
      for (int v = 0; v < m.nv; ++v) {  // central differences of phi along each coordinate
        VectorXd qp = qStar, qm = qStar;
        qp[v] += h;
        qm[v] -= h;
        dyn::loopConstraints(m, d, ld, qp);
        const VectorXd phiP = ld.phi;
        dyn::loopConstraints(m, d, ld, qm);
        fd.col(v) = (phiP - ld.phi) / (2 * h);
      }
      CHECK_CLOSE(J, fd, 1e-8, 1, "phi' against d phi / dq");
      // The loop was closed from zero at load: the reference is assembled too.
      dyn::loopConstraints(m, d, ld, m.loopReference);
      QVERIFY(dyn::maxAbs(ld.phi) < 1e-10);
    }
  }

  void velocityProductIsTheDerivativeOfJacobianTimesVelocity_data() { jacobianIsTheDerivativeOfPhi_data(); }
  void velocityProductIsTheDerivativeOfJacobianTimesVelocity() {
    QFETCH(int, kind);
    QFETCH(int, links);
    std::mt19937 rng(7);
    for (unsigned seed = 1; seed <= 3; ++seed) {
      VectorXd qStar;
      const dyn::Model m = dyn::buildModel(dyn::testing::closedChain(seed, links, dyn::JointKind(kind), qStar));
      dyn::Data d(m);
      dyn::LoopData ld(m);
      // Anywhere, not only on the manifold: d/dt [phi'(q + t qd) qd] at t = 0 is phi'dot qd = -c.
      const VectorXd q = qStar + 0.2 * VectorXd::Random(m.nq), qd = VectorXd::Random(m.nv);
      dyn::loopConstraints(m, d, ld, q, qd);
      const VectorXd c = ld.c;
      CHECK_CLOSE(ld.phiDot, VectorXd(ld.Jc * qd), 1e-12, 1 + qd.norm(), "phidot = phi' qd");
      const double h = 1e-6;
      dyn::loopConstraints(m, d, ld, VectorXd(q + h * qd));
      const VectorXd plus = ld.Jc * qd;
      dyn::loopConstraints(m, d, ld, VectorXd(q - h * qd));
      const VectorXd minus = ld.Jc * qd;
      CHECK_CLOSE(c, VectorXd(-(plus - minus) / (2 * h)), 1e-7, 1 + c.norm(), "c = -phi'dot qd");
      // Baumgarte: c - 2 alpha phidot - beta^2 phi.
      dyn::loopConstraints(m, d, ld, q, qd, 3.0, 5.0);
      dyn::LoopData plain(m);
      dyn::loopConstraints(m, d, plain, q, qd);
      CHECK_CLOSE(ld.c, VectorXd(plain.c - 6.0 * plain.phiDot - 25.0 * plain.phi), 1e-12, 1 + c.norm(),
                  "Baumgarte terms");
    }
  }

  void rowSelectionDropsThePlanarRows() {
    // A planar loop modelled in 3D: of the revolute loop joint's 5 rows, 2 are independent (eq. 18).
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    QCOMPARE(m.constraintRows, 5);
    QCOMPARE(m.loopRank, 2);
    dyn::Data d(m);
    dyn::LoopData ld(m);
    dyn::loopConstraints(m, d, ld, m.home(), VectorXd::Zero(m.nv));
    QCOMPARE(dyn::selectLoopRows(ld), 2);
    for (int k = 0; k < 2; ++k) {  // the in-plane translations x, z of F1 (F1's x and y: its z is the axis)
      const int row = ld.rows[size_t(k)];
      QVERIFY2(row >= 2 && row <= 3, "an in-plane translation row");
    }
    const dyn::Model p = dyn::testing::loadRobot("palletizer.urdf");  // three planar loops: 6 of 15
    QCOMPARE(p.loopRank, 6);
    const dyn::Model delta = dyn::testing::loadRobot("delta.urdf");  // three spatial loops: 15 of 15
    QCOMPARE(delta.loopRank, 15);
  }

  void fourBarAssemblyMatchesTheClosedForm() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    const FourBarPose zero = fourBarClosedForm(M_PI / 3);
    dyn::Assembler assembler(m);
    VectorXd q = m.home();
    for (int k = 0; k <= 48; ++k) {  // the crank all the way round (a Grashof crank), as a slider moves it
      q[0] = 2 * M_PI * k / 48;
      const dyn::AssemblyResult& r = assembler.solve(q, {m.independentDofs(), 1e-13, 100});
      QVERIFY2(r.converged, r.message.c_str());
      QCOMPARE(r.restarts, 0);  // small moves stay on the branch
      q = r.q;
      const double theta2 = M_PI / 3 + q[0];
      const FourBarPose ref = fourBarClosedForm(theta2);
      // Joint coordinates: coupler relative to the crank, rocker relative to its zero pose.
      QVERIFY(std::abs(wrap(q[1] - ((ref.theta3 - theta2) - (zero.theta3 - M_PI / 3)))) < 1e-10);
      QVERIFY(std::abs(wrap(q[2] - (ref.theta4 - zero.theta4))) < 1e-10);
      CHECK_CLOSE(assembler.loopData().oXp[0].translation(), ref.B, 1e-12, 1, "pin B");
    }
    // A jump of half a turn from the zero pose: Newton alone may stop at a saddle of |phi|; the
    // restarts close the loop on one of the two branches (B on either circle intersection).
    VectorXd q0 = m.home();
    q0[0] = M_PI;
    const dyn::AssemblyResult& r = assembler.solve(q0, {m.independentDofs(), 1e-13, 100});
    QVERIFY2(r.converged, r.message.c_str());
    const Vector3d B = assembler.loopData().oXp[0].translation();
    const Vector3d A(kA * std::cos(M_PI / 3 + M_PI), 0, kA * std::sin(M_PI / 3 + M_PI));
    QVERIFY(std::abs((B - A).norm() - kB) < 1e-12 && std::abs((B - Vector3d(kD, 0, 0)).norm() - kC) < 1e-12);
  }

  void fourBarCannotCloseBeyondTheRockerExtremes() {
    // The rocker swings between the toggle positions (crank and coupler in line): cos(pi - theta4) =
    // (d^2 + c^2 - L^2) / (2 d c) with L = a + b and b - a.
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    const FourBarPose zero = fourBarClosedForm(M_PI / 3);
    auto extreme = [&](double L) { return M_PI - std::acos((kD * kD + kC * kC - L * L) / (2 * kD * kC)); };
    const double lo = extreme(kA + kB), hi = extreme(kB - kA);
    dyn::Assembler assembler(m);
    const std::vector<int> rocker = {2};
    for (auto [theta4, closes] :
         {std::pair{lo + 0.02, true}, {hi - 0.02, true}, {lo - 0.05, false}, {hi + 0.05, false}}) {
      VectorXd q0 = m.home();
      q0[2] = theta4 - zero.theta4;
      const dyn::AssemblyResult& r = assembler.solve(q0, {rocker, 1e-12, 200});
      QCOMPARE(r.converged, closes);
      if (closes) continue;
      QVERIFY2(r.message.find("loop joint 'coupler_rocker_joint' cannot close") != std::string::npos,
               r.message.c_str());
      QVERIFY2(r.message.find("'rocker_joint' held") != std::string::npos, r.message.c_str());
      QVERIFY(r.residual > 1e-3);
    }
  }

  void sliderCrankPistonFollowsTheClosedForm() {
    // Piston pin height z = r sin t + sqrt(l^2 - r^2 cos^2 t) on the cylinder's axis.
    const double r = 0.05, l = 0.18, t0 = M_PI / 3;
    const dyn::Model m = dyn::testing::loadRobot("slider_crank.urdf");
    const int crank = m.joints[size_t(m.jointIndex("crank_joint"))].idx_q;
    const int piston = m.joints[size_t(m.jointIndex("cylinder"))].idx_q;
    auto z = [&](double t) { return r * std::sin(t) + std::sqrt(l * l - r * r * std::cos(t) * std::cos(t)); };
    dyn::Assembler assembler(m);
    VectorXd q = m.home();
    for (int k = 0; k <= 36; ++k) {  // continuing from the last solution, as a slider would
      q[crank] = 2 * M_PI * k / 36;
      const dyn::AssemblyResult& res = assembler.solve(q, {m.independentDofs(), 1e-13, 100});
      QVERIFY2(res.converged, res.message.c_str());
      q = res.q;
      QVERIFY(std::abs(q[piston] - (z(t0 + q[crank]) - z(t0))) < 1e-11);
    }
  }

  void deltaPlateTranslatesWithEveryLowerArmItsLength() {
    // Williams (2016) parameters, as in robots/delta.urdf.
    const double sB = 0.567, sP = 0.076, L = 0.524, l = 1.244, th0 = 20 * M_PI / 180;
    const double wB = std::sqrt(3.0) / 6 * sB, wP = std::sqrt(3.0) / 6 * sP;
    const dyn::Model m = dyn::testing::loadRobot("delta.urdf");
    const int plate = m.frameIndex("plate");
    std::mt19937 rng(11);
    dyn::Data d(m);
    for (int trial = 0; trial < 20; ++trial) {
      VectorXd q, qd;
      QVERIFY(dyn::testing::randomAssembledState(m, rng, q, qd, 0.5));
      dyn::forwardKinematics(m, d, q);
      dyn::updateFrames(m, d);
      const Eigen::Matrix3d R = d.oMf[size_t(plate)].rotation();
      QVERIFY2((R - Eigen::Matrix3d::Identity()).norm() < 1e-9, "the plate does not turn");
      const Vector3d P = d.oMf[size_t(plate)].translation();
      for (int i = 0; i < 3; ++i) {  // elbow E_i from the motor angle alone; |A_i - E_i| = l
        const double psi = (-90 + 120 * i) * M_PI / 180,
                     th = th0 + q[m.joints[size_t(m.jointIndex("motor" + std::to_string(i + 1)))].idx_q];
        const Vector3d r(std::cos(psi), std::sin(psi), 0),
            E = (wB + L * std::cos(th)) * r + Vector3d(0, 0, -L * std::sin(th));
        QVERIFY(std::abs((P + wP * r - E).norm() - l) < 1e-10);
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestLoopKinematics)
#include "test_loop_kinematics.moc"
