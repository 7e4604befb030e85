// Identities every correct rigid-body dynamics implementation satisfies, checked on every
// shipped robot (fixed base; the quadruped and the humanoid also floating) and on seeded random
// trees with every joint type, at random states. Each test is data-driven, one row per robot.
#include <Eigen/Dense>
#include <QDir>
#include <QtTest>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "model_rows.hpp"
#include "random_tree.hpp"

using dyn::Data;
using dyn::Model;
using dyn::ReferenceFrame;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

constexpr int kStates = 6;  // random states per robot and test

using dyn::testing::modelFor;
void addModelRows() { dyn::testing::addShippedRobotRows(20); }

struct State {
  VectorXd q, qd, qdd, tau;
};
std::vector<State> randomStates(const Model& model, unsigned seed, int count = kStates) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  auto vec = [&](int n) {
    VectorXd v(n);
    for (int i = 0; i < n; ++i) v[i] = U(rng);
    return v;
  };
  std::vector<State> s;
  for (int k = 0; k < count; ++k) {
    State st;
    st.q = dyn::randomConfiguration(model, rng);
    st.qd = vec(model.nv);
    st.qdd = vec(model.nv);
    st.tau = vec(model.nv);
    s.push_back(st);
  }
  return s;
}

// The model frames to test: all of them when few, otherwise an even sample (always the last).
std::vector<int> sampleFrames(const Model& model, int max = 8) {
  std::vector<int> out;
  const int n = int(model.frames.size());
  if (n <= max) {
    for (int k = 0; k < n; ++k) out.push_back(k);
  } else {
    for (int k = 0; k < max; ++k) out.push_back(int((long)k * (n - 1) / (max - 1)));
  }
  return out;
}

// Largest absolute entry (0 for an empty matrix).
double maxAbs(const MatrixXd& a) { return a.size() ? a.cwiseAbs().maxCoeff() : 0.0; }

// ---- Hand-made inertia merging for the fixed-joint test (parallel-axis theorem) ------------
// A rigid piece described in the coordinates of one link: mass, COM, rotational inertia about
// the COM in that link's axes.
struct Piece {
  double m = 0;
  Vector3d c = Vector3d::Zero();
  Eigen::Matrix3d Ic = Eigen::Matrix3d::Zero();
};

// An InertialDesc as a Piece in its link's coordinates: COM at origin.xyz, inertia R Ic R^T.
Piece pieceOf(const dyn::InertialDesc& in) {
  Eigen::Matrix3d I;
  I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  const Eigen::Matrix3d R = in.origin.rotation();
  return {in.mass, in.origin.xyz, R * I * R.transpose()};
}

// A piece given in a child frame placed by pose (R, p) in the parent: c -> p + R c, Ic -> R Ic R^T.
Piece toParent(const Piece& x, const Eigen::Matrix3d& R, const Vector3d& p) {
  return {x.m, p + R * x.c, R * x.Ic * R.transpose()};
}

// Sum of pieces: total mass, mass-weighted COM, and each piece's inertia shifted to the common COM
// by the parallel-axis theorem I += m (|d|^2 1 - d d^T), d = c_k - c.
dyn::InertialDesc combine(const std::vector<Piece>& pieces) {
  double m = 0;
  Vector3d mc = Vector3d::Zero();
  for (const Piece& p : pieces) {
    m += p.m;
    mc += p.m * p.c;
  }
  const Vector3d c = mc / m;
  Eigen::Matrix3d I = Eigen::Matrix3d::Zero();
  for (const Piece& p : pieces) {
    const Vector3d d = p.c - c;
    I += p.Ic + p.m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  }
  dyn::InertialDesc out;
  out.mass = m;
  out.origin.xyz = c;  // rpy = 0: inertia in link axes
  out.ixx = I(0, 0);
  out.iyy = I(1, 1);
  out.izz = I(2, 2);
  out.ixy = I(0, 1);
  out.ixz = I(0, 2);
  out.iyz = I(1, 2);
  return out;
}

dyn::RobotDescription descriptionFor(const QString& source) {
  if (source.startsWith("random:")) {
    const QStringList p = source.split(':');
    return dyn::testing::randomTree(p[1].toUInt(), p[2].toInt());
  }
  return dyn::loadDescription(source.toStdString());
}

}  // namespace

class TestIdentities : public QObject {
  Q_OBJECT

 private slots:
  void inverseOfForwardDynamics_data() { addModelRows(); }
  void inverseOfForwardDynamics();
  void crbaColumnsFromRnea_data() { addModelRows(); }
  void crbaColumnsFromRnea();
  void massMatrixSymmetricPositiveDefinite_data() { addModelRows(); }
  void massMatrixSymmetricPositiveDefinite();
  void abaEqualsCrbaCholesky_data() { addModelRows(); }
  void abaEqualsCrbaCholesky();
  void structuralZeros_data() { addModelRows(); }
  void structuralZeros();
  void sparseLTL_data() { addModelRows(); }
  void sparseLTL();
  void energyBalance_data() { addModelRows(); }
  void energyBalance();
  void jacobianFiniteDifferences_data() { addModelRows(); }
  void jacobianFiniteDifferences();
  void jacobianReferenceFrames_data() { addModelRows(); }
  void jacobianReferenceFrames();
  void velocityProduct_data() { addModelRows(); }
  void velocityProduct();
  void fixedJointMerging_data() { addModelRows(); }
  void fixedJointMerging();
  void generalChainAndJointRequirements();
};

// ID(FD(tau)) = tau, for FD = ABA and FD = CRBA + sparse L^T L. Scale: the size of the terms
// of M qdd + C = tau.
void TestIdentities::inverseOfForwardDynamics() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Data d(model);
  for (const State& s : randomStates(model, 1)) {
    const MatrixXd M = dyn::crba(model, d, s.q);
    const VectorXd nle = dyn::nonLinearEffects(model, d, s.q, s.qd);
    const VectorXd qddAba = dyn::aba(model, d, s.q, s.qd, s.tau);
    const double scale1 = s.tau.norm() + nle.norm() + M.norm() * qddAba.norm();
    CHECK_CLOSE(VectorXd(dyn::rnea(model, d, s.q, s.qd, qddAba)), s.tau, 1e-10, scale1, "rnea(aba(tau)) vs tau");
    const VectorXd qddCrba = dyn::forwardDynamicsCrba(model, d, s.q, s.qd, s.tau);
    const double scale2 = s.tau.norm() + nle.norm() + M.norm() * qddCrba.norm();
    CHECK_CLOSE(VectorXd(dyn::rnea(model, d, s.q, s.qd, qddCrba)), s.tau, 1e-10, scale2,
                "rnea(forwardDynamicsCrba(tau)) vs tau");
    // And the other way round: FD(ID(qdd)) = qdd.
    const VectorXd tau = dyn::rnea(model, d, s.q, s.qd, s.qdd);
    const Eigen::SelfAdjointEigenSolver<MatrixXd> es(M);
    const double cond = es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();
    // forward error of a backward-stable solve: ~ cond(M) * unit roundoff (floor 1e-12)
    const double tolF = std::max(1e-12, 1e-14 * cond);
    CHECK_CLOSE(VectorXd(dyn::aba(model, d, s.q, s.qd, tau)), s.qdd, tolF, 1 + s.qdd.norm(), "aba(rnea(qdd)) vs qdd");
    CHECK_CLOSE(VectorXd(dyn::forwardDynamicsCrba(model, d, s.q, s.qd, tau)), s.qdd, tolF, 1 + s.qdd.norm(),
                "forwardDynamicsCrba(rnea(qdd)) vs qdd");
  }
}

// Column j of H is ID(q, 0, e_j) - ID(q, 0, 0) (Part 2, eq. 37 with qd = 0).
void TestIdentities::crbaColumnsFromRnea() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Data d(model), d2(model);
  const VectorXd zero = VectorXd::Zero(model.nv);
  for (const State& s : randomStates(model, 2)) {
    const MatrixXd M = dyn::crba(model, d, s.q);
    const VectorXd g = dyn::rnea(model, d2, s.q, zero, zero);
    MatrixXd Mref(model.nv, model.nv);
    for (int j = 0; j < model.nv; ++j) {
      VectorXd e = zero;
      e[j] = 1;
      Mref.col(j) = dyn::rnea(model, d2, s.q, zero, e) - g;
    }
    CHECK_CLOSE(M, Mref, 1e-12, maxAbs(M) + maxAbs(g), "crba vs rnea(q, 0, e_j) - rnea(q, 0, 0)");
  }
}

// H is symmetric and positive definite: Cholesky succeeds and the smallest eigenvalue is positive
// (robustly: above 1e-12 of the largest).
void TestIdentities::massMatrixSymmetricPositiveDefinite() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  if (model.nv == 0) QSKIP("no degrees of freedom");
  Data d(model);
  for (const State& s : randomStates(model, 3)) {
    const MatrixXd M = dyn::crba(model, d, s.q);
    CHECK_CLOSE(M, MatrixXd(M.transpose()), 1e-15, maxAbs(M), "M - M^T");
    Eigen::LLT<MatrixXd> llt(M);
    QVERIFY2(llt.info() == Eigen::Success, "LLT of M failed");
    const Eigen::SelfAdjointEigenSolver<MatrixXd> es(M);
    const double lmin = es.eigenvalues().minCoeff(), lmax = es.eigenvalues().maxCoeff();
    QVERIFY2(lmin > 1e-12 * lmax, qPrintable(QString("eigenvalues of M in [%1, %2]").arg(lmin).arg(lmax)));
  }
}

// ABA = CRBA + dense Cholesky: qdd = H^-1 (tau - C). Both are backward stable, so they agree to
// ~ cond(H) eps; 1e-9 relative (the robots here have cond(H) < 1e6).
void TestIdentities::abaEqualsCrbaCholesky() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Data d(model);
  for (const State& s : randomStates(model, 4)) {
    const MatrixXd M = dyn::crba(model, d, s.q);
    const VectorXd nle = dyn::nonLinearEffects(model, d, s.q, s.qd);
    const VectorXd ref = M.llt().solve(s.tau - nle);
    CHECK_CLOSE(VectorXd(dyn::aba(model, d, s.q, s.qd, s.tau)), ref, 1e-9, 1e-3 + ref.norm(), "aba vs CRBA + LLT");
  }
}

// Branch-induced sparsity (Part 2, eq. 45): H_ij = 0 exactly when neither dof's body is an
// ancestor of the other; the RNEA columns agree (zero up to roundoff) there.
void TestIdentities::structuralZeros() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Data d(model);
  const VectorXd zero = VectorXd::Zero(model.nv);
  for (const State& s : randomStates(model, 5)) {
    // Run the other algorithms on the same Data first: none may disturb the zeros of M.
    dyn::forwardDynamicsCrba(model, d, s.q, s.qd, s.tau);
    dyn::aba(model, d, s.q, s.qd, s.tau);
    const MatrixXd M = dyn::crba(model, d, s.q);
    const VectorXd g = dyn::rnea(model, d, s.q, zero, zero);
    for (int j = 0; j < model.nv; ++j) {
      VectorXd e = zero;
      e[j] = 1;
      const VectorXd col = dyn::rnea(model, d, s.q, zero, e) - g;
      for (int i = 0; i < model.nv; ++i) {
        const int bi = model.dofBody[i], bj = model.dofBody[j];
        if (model.isAncestor(bi, bj) || model.isAncestor(bj, bi)) continue;
        if (M(i, j) != 0.0)
          QFAIL(qPrintable(QString("M(%1,%2) = %3 but bodies %4 and %5 are on different branches")
                               .arg(i)
                               .arg(j)
                               .arg(M(i, j))
                               .arg(bi)
                               .arg(bj)));
        if (std::abs(col[i]) > 1e-12 * (maxAbs(M) + maxAbs(g)))
          QFAIL(qPrintable(QString("rnea column %1 has %2 at row %3 (different branches)").arg(j).arg(col[i]).arg(i)));
      }
    }
  }
}

// H = L^T L from factorLTL (no fill-in: L_ij = 0 off the ancestor pattern), and solveLTL solves
// like a dense solver: small residual, and the forward error of a backward-stable solve.
void TestIdentities::sparseLTL() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  if (model.nv == 0) QSKIP("no degrees of freedom");
  Data d(model);
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> U(-1, 1);
  for (const State& s : randomStates(model, 6)) {
    const MatrixXd M = dyn::crba(model, d, s.q);
    MatrixXd F = M;
    dyn::factorLTL(model, F);
    const MatrixXd L = F.triangularView<Eigen::Lower>();
    for (int i = 0; i < model.nv; ++i)
      for (int j = 0; j < i; ++j) {
        bool anc = false;
        for (int k = model.dofParent[i]; k >= 0; k = model.dofParent[k]) anc |= k == j;
        if (!anc && L(i, j) != 0.0) QFAIL(qPrintable(QString("fill-in: L(%1,%2) = %3").arg(i).arg(j).arg(L(i, j))));
      }
    CHECK_CLOSE(MatrixXd(L.transpose() * L), M, 1e-12, maxAbs(M), "L^T L vs M");
    VectorXd b(model.nv);
    for (int i = 0; i < model.nv; ++i) b[i] = U(rng);
    VectorXd x = b;
    dyn::solveLTL(model, F, x);
    CHECK_CLOSE(VectorXd(M * x), b, 1e-12, M.norm() * x.norm() + b.norm(), "residual of solveLTL");
    const VectorXd xd = M.llt().solve(b);
    const Eigen::SelfAdjointEigenSolver<MatrixXd> es(M);
    const double cond = es.eigenvalues().maxCoeff() / es.eigenvalues().minCoeff();
    CHECK_CLOSE(x, xd, std::max(1e-12, 1e-14 * cond), xd.norm(), "solveLTL vs dense LLT");
  }
}

// Power balance: along the motion qdd = FD(q, qd, tau), d/dt (T + V) = tau . qd. The energies at
// t = +-h come from q(+-h) = integrate(q, +-h qd + h^2/2 qdd, 1) and qd(+-h) = qd +- h qdd
// (second-order accurate on the joint manifolds too), central difference with h = 1e-5.
// Scale: the power of the individual terms, |qd| (|tau| + |C|).
void TestIdentities::energyBalance() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Data d(model);
  const double h = 1e-5;
  for (const State& s : randomStates(model, 7)) {
    const VectorXd qdd = dyn::aba(model, d, s.q, s.qd, s.tau);
    const VectorXd nle = dyn::nonLinearEffects(model, d, s.q, s.qd);
    double E[2];
    for (int k = 0; k < 2; ++k) {
      const double t = k == 0 ? h : -h;
      VectorXd q1(model.nq);
      dyn::integrate(model, s.q, VectorXd(s.qd * t + 0.5 * qdd * h * h), 1.0, q1);
      dyn::computeEnergy(model, d, q1, VectorXd(s.qd + t * qdd));
      E[k] = d.kinetic + d.potential;
    }
    const double dEdt = (E[0] - E[1]) / (2 * h), power = s.tau.dot(s.qd);
    const double scale = s.qd.norm() * (s.tau.norm() + nle.norm()) + 1e-12;
    QVERIFY2(
        std::abs(dEdt - power) <= 1e-6 * scale,
        qPrintable(
            QString("dE/dt = %1, tau.qd = %2 (scale %3)").arg(dEdt, 0, 'g', 15).arg(power, 0, 'g', 15).arg(scale)));
  }
}

// The LocalWorldAligned Jacobian column k is the derivative of the frame's world pose along
// dof k: q(+-h) = integrate(q, +-h e_k); angular part log(R+ R-^T) / 2h (world axes), linear
// part (p+ - p-) / 2h; central differences, h = 1e-6, O(h^2) truncation.
void TestIdentities::jacobianFiniteDifferences() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Data d(model), dp(model), dm(model);
  const double h = 1e-6;
  for (const State& s : randomStates(model, 8, 2)) {
    const std::vector<int> frames = sampleFrames(model);
    std::vector<MatrixXd> Jfd(frames.size(), MatrixXd::Zero(6, model.nv));
    for (int k = 0; k < model.nv; ++k) {
      VectorXd e = VectorXd::Zero(model.nv), qp(model.nq), qm(model.nq);
      e[k] = 1;
      dyn::integrate(model, s.q, e, h, qp);
      dyn::integrate(model, s.q, e, -h, qm);
      dyn::forwardKinematics(model, dp, qp);
      dyn::updateFrames(model, dp);
      dyn::forwardKinematics(model, dm, qm);
      dyn::updateFrames(model, dm);
      for (size_t n = 0; n < frames.size(); ++n) {
        const int f = frames[n];
        const Eigen::Matrix3d Rp = dp.oMf[f].rotation(), Rm = dm.oMf[f].rotation();
        Jfd[n].col(k).head<3>() = dyn::logSO3<double>(Rp * Rm.transpose()) / (2 * h);
        Jfd[n].col(k).tail<3>() = (dp.oMf[f].translation() - dm.oMf[f].translation()) / (2 * h);
      }
    }
    for (size_t n = 0; n < frames.size(); ++n) {
      const MatrixXd J = dyn::frameJacobian(model, d, s.q, frames[n], ReferenceFrame::LocalWorldAligned);
      CHECK_CLOSE(J, Jfd[n], 1e-6, 1 + maxAbs(J),
                  "LocalWorldAligned Jacobian vs finite differences, frame " + model.frames[frames[n]].name);
    }
  }
}

// A Jacobian transforms like a motion vector (Part 2, eq. 25: B_J = B_X_A A_J):
// Local = frame_X_0 World, LocalWorldAligned = xlt(p_frame) World.
void TestIdentities::jacobianReferenceFrames() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Data d(model);
  for (const State& s : randomStates(model, 9, 2)) {
    for (int f = 0; f < int(model.frames.size()); ++f) {
      const MatrixXd Jw = dyn::frameJacobian(model, d, s.q, f, ReferenceFrame::World);
      const MatrixXd Jl = dyn::frameJacobian(model, d, s.q, f, ReferenceFrame::Local);
      const MatrixXd Ja = dyn::frameJacobian(model, d, s.q, f, ReferenceFrame::LocalWorldAligned);
      dyn::updateFrames(model, d);
      const dyn::Transform<double> X = d.oMf[f];                                      // frame_X_0
      const dyn::Transform<double> A = dyn::Transform<double>::xlt(X.translation());  // aligned_X_0
      MatrixXd Jl2(6, model.nv), Ja2(6, model.nv);
      for (int k = 0; k < model.nv; ++k) {
        const auto m = dyn::Motion<double>::fromVector(Jw.col(k));
        Jl2.col(k) = X.apply(m).toVector();
        Ja2.col(k) = A.apply(m).toVector();
      }
      const double scale = 1 + maxAbs(Jw);
      CHECK_CLOSE(Jl, Jl2, 1e-12, scale, "Local vs frame_X_0 World, frame " + model.frames[f].name);
      CHECK_CLOSE(Ja, Ja2, 1e-12, scale, "LocalWorldAligned vs xlt(p) World, frame " + model.frames[f].name);
    }
  }
}

// Body accelerations (Part 2, eq. 33): a = J qdd + a_vp. RNEA's a_i (with gravity off, and with
// gravity on against a_vp that carries -a_g) against the Local Jacobian and
// velocityProductAcceleration; and a_vp = Jdot qd with Jdot from central differences of the World
// Jacobian along q(+-h) = integrate(q, +-h qd) (the spatial acceleration is the time derivative
// of the spatial velocity in fixed coordinates).
void TestIdentities::velocityProduct() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const Model model = modelFor(source, floating);
  Model noG = model;
  noG.gravity = dyn::Motion<double>::Zero();
  Data d(model), dv(model), dj(model);
  const double h = 1e-6;
  for (const State& s : randomStates(model, 10, 2)) {
    for (int withGravity = 0; withGravity < 2; ++withGravity) {
      const Model& m = withGravity ? model : noG;
      dyn::rnea(m, d, s.q, s.qd, s.qdd);
      dyn::velocityProductAcceleration(m, dv, s.q, s.qd, withGravity);
      for (int f : sampleFrames(m)) {
        const dyn::Frame<double>& F = m.frames[f];
        const MatrixXd J = dyn::frameJacobian(m, dj, s.q, f, ReferenceFrame::Local);
        const VectorXd a = F.placement.apply(d.a[F.body]).toVector();
        const VectorXd ref = J * s.qdd + dyn::frameVelocityProduct(m, dv, f).toVector();
        CHECK_CLOSE(
            a, ref, 1e-12, 1 + a.norm() + maxAbs(J) * s.qdd.norm(),
            std::string(withGravity ? "with" : "without") + " gravity: rnea a vs J qdd + a_vp, frame " + F.name);
      }
    }
    // a_vp = Jdot qd (no gravity), by finite differences of the World Jacobian.
    dyn::velocityProductAcceleration(noG, dv, s.q, s.qd, false);
    VectorXd qp(model.nq), qm(model.nq);
    dyn::integrate(model, s.q, s.qd, h, qp);
    dyn::integrate(model, s.q, s.qd, -h, qm);
    dyn::forwardKinematics(model, d, s.q);
    dyn::updateFrames(model, d);
    for (int f : sampleFrames(model)) {
      const MatrixXd Jp = dyn::frameJacobian(model, dj, qp, f, ReferenceFrame::World);
      const MatrixXd Jm = dyn::frameJacobian(model, dj, qm, f, ReferenceFrame::World);
      const VectorXd JdotQd = (Jp - Jm) * s.qd / (2 * h);                                       // 0_Jdot qd
      const VectorXd ref = d.oMf[f].apply(dyn::Motion<double>::fromVector(JdotQd)).toVector();  // frame coordinates
      const VectorXd avp = dyn::frameVelocityProduct(noG, dv, f).toVector();
      CHECK_CLOSE(avp, ref, 1e-6, 1 + avp.norm(),
                  "a_vp vs Jdot qd (finite differences), frame " + model.frames[f].name);
    }
  }
}

// Merging fixed joints leaves the dynamics unchanged: a chain of two extra massive links hung by
// fixed joints from some links must give the same M, tau and qdd as the description in which
// their inertias were added to the parent link by hand (parallel-axis theorem above).
void TestIdentities::fixedJointMerging() {
  QFETCH(QString, source);
  QFETCH(bool, floating);
  const dyn::RobotDescription base = descriptionFor(source);
  std::mt19937 rng(12);
  dyn::RobotDescription withExtra = base, combined = base;
  // Every third link, and at least one, gets a two-link appendage.
  for (size_t li = 0; li < base.links.size(); li += 3) {
    const std::string parent = base.links[li].name;
    const std::string e1 = "extra_a_" + parent, e2 = "extra_b_" + parent;
    dyn::LinkDesc l1, l2;
    l1.name = e1;
    l1.inertial = dyn::testing::randomInertial(rng);
    l2.name = e2;
    l2.inertial = dyn::testing::randomInertial(rng);
    dyn::JointDesc j1, j2;
    j1.name = "fix_" + e1;
    j1.kind = dyn::JointKind::Fixed;
    j1.parent = parent;
    j1.child = e1;
    j1.origin = dyn::testing::randomPose(rng);
    j2.name = "fix_" + e2;
    j2.kind = dyn::JointKind::Fixed;
    j2.parent = e1;
    j2.child = e2;
    j2.origin = dyn::testing::randomPose(rng);
    withExtra.links.push_back(l1);
    withExtra.links.push_back(l2);
    withExtra.joints.push_back(j1);
    withExtra.joints.push_back(j2);
    // By hand: l2 into l1's coordinates, then both into the parent's.
    const Eigen::Matrix3d R1 = j1.origin.rotation(), R2 = j2.origin.rotation();
    const Piece p2in1 = toParent(pieceOf(*l2.inertial), R2, j2.origin.xyz);
    std::vector<Piece> pieces = {toParent(pieceOf(*l1.inertial), R1, j1.origin.xyz),
                                 toParent(p2in1, R1, j1.origin.xyz)};
    if (base.links[li].inertial && base.links[li].inertial->mass > 0)
      pieces.push_back(pieceOf(*base.links[li].inertial));
    combined.links[li].inertial = combine(pieces);
  }
  const Model m1 = dyn::buildModel(withExtra, {.floatingBase = floating});
  const Model m2 = dyn::buildModel(combined, {.floatingBase = floating});
  QCOMPARE(m1.nq, m2.nq);
  QCOMPARE(m1.nv, m2.nv);
  QCOMPARE(m1.N, m2.N);
  Data d1(m1), d2(m2);
  for (const State& s : randomStates(m1, 13)) {
    const MatrixXd M1 = dyn::crba(m1, d1, s.q), M2 = dyn::crba(m2, d2, s.q);
    CHECK_CLOSE(M1, M2, 1e-12, maxAbs(M2), "M with fixed links vs hand-combined inertia");
    const VectorXd t1 = dyn::rnea(m1, d1, s.q, s.qd, s.qdd), t2 = dyn::rnea(m2, d2, s.q, s.qd, s.qdd);
    CHECK_CLOSE(t1, t2, 1e-12, 1 + t2.norm(), "tau with fixed links vs hand-combined inertia");
    const VectorXd a1 = dyn::aba(m1, d1, s.q, s.qd, s.tau), a2 = dyn::aba(m2, d2, s.q, s.qd, s.tau);
    CHECK_CLOSE(a1, a2, 1e-9, 1 + a2.norm(), "qdd with fixed links vs hand-combined inertia");
  }
}

// The generated general chain (operation counts) is what it says: n revolute bodies in a row with
// non-zero offsets and full inertias, the same robot for the same seed; the classical formulations'
// joint check names the first joint it cannot handle.
void TestIdentities::generalChainAndJointRequirements() {
  for (int n : {1, 6, 30}) {
    const Model m = dyn::generalChain(n);
    QCOMPARE(m.N, n);
    QCOMPARE(m.nv, n);
    for (int i = 1; i <= n; ++i) {
      QCOMPARE(m.parent[i], i - 1);
      QVERIFY(m.joints[i].type == dyn::JointType::Revolute);
      QVERIFY(m.Xtree[i].r.norm() > 0.1);
      QVERIFY(m.I[i].m > 0 && std::abs(m.I[i].Ibar(0, 1)) > 0);
    }
    dyn::requireRevolutePrismatic(m, "test");  // must not throw
    const Model again = dyn::generalChain(n);
    QCOMPARE(again.Xtree[n].r, m.Xtree[n].r);
    QVERIFY(dyn::generalChain(n, 2).Xtree[n].r != m.Xtree[n].r);
  }
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::generalChain(0));
  dyn::RobotDescription r = dyn::testing::randomTree(5, 4, {dyn::JointKind::Revolute});
  r.joints[2].kind = dyn::JointKind::Spherical;
  const Model tree = dyn::buildModel(r);
  try {
    dyn::requireRevolutePrismatic(tree, "DeNOC inverse dynamics");
    QFAIL("a spherical joint was accepted");
  } catch (const std::invalid_argument& e) {
    const QString what = e.what();
    QVERIFY2(what.contains("DeNOC inverse dynamics") &&
                 what.contains("'" + QString::fromStdString(r.joints[2].name) + "'") && what.contains("spherical"),
             qPrintable(what));
  }
  const Model floating =
      dyn::buildModel(dyn::testing::randomTree(5, 3, {dyn::JointKind::Revolute}), {.floatingBase = true});
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dyn::requireRevolutePrismatic(floating, "x"));
}

QTEST_APPLESS_MAIN(TestIdentities)
#include "test_identities.moc"
