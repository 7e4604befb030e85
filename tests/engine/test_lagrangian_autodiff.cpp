// The Lagrangian formulations on Eigen's AutoDiffScalar: differentiating τ of the recursive 3x3 and 4x4 forms with
// respect to q̈ gives the joint-space inertia matrix (CRBA's M), with respect to q̇ at q̇ = 0 nothing, and with
// respect to q the central differences of the double computation; the values are the double results.
#include <QtTest>

#include "autodiff_vectors.hpp"
#include "check_close.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "dynscope/io/model_builder.hpp"
#include "random_state.hpp"
#include "random_tree.hpp"

using dyn::testing::AD;
using dyn::testing::adConst;
using dyn::testing::adVar;
using dyn::testing::jacobianOf;
using dyn::testing::values;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

// Checks one formulation `run(model, q, qd, qdd)` (templated on the scalar) on model m.
template <class Run>
void checkDerivatives(const QString& name, const dyn::Model& m, Run run) {
  const dyn::ModelTpl<AD> ma = m.cast<AD>();
  dyn::Data d(m);
  const int n = m.nv;
  const auto [q, qd, qdd] = dyn::testing::randomState(m, 17);
  // ∂τ/∂q̈ = M
  const dyn::VecX<AD> tau = run(ma, adConst(q, n), adConst(qd, n), adVar(qdd));
  const MatrixXd M = dyn::crba(m, d, q);
  CHECK_CLOSE(jacobianOf(tau, n), M, 1e-10, M.cwiseAbs().maxCoeff(), (name + ": dtau/dqdd = M").toStdString());
  const VectorXd ref = dyn::rnea(m, d, q, qd, qdd);
  CHECK_CLOSE(values(tau), ref, 1e-10, ref.cwiseAbs().maxCoeff(), (name + ": value").toStdString());
  // ∂τ/∂q̇ = 0 at q̇ = 0 (the velocity terms are quadratic)
  const dyn::VecX<AD> tau0 = run(ma, adConst(q, n), adVar(VectorXd::Zero(n)), adConst(qdd, n));
  CHECK_CLOSE(jacobianOf(tau0, n), MatrixXd::Zero(n, n), 1e-12, 1.0, (name + ": dtau/dqd at qd = 0").toStdString());
  // ∂τ/∂q = central differences of RNEA
  const dyn::VecX<AD> tauq = run(ma, adVar(q), adConst(qd, n), adConst(qdd, n));
  MatrixXd F(n, n);
  const double h = 1e-6;
  for (int k = 0; k < n; ++k) {
    VectorXd qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    const VectorXd tp = dyn::rnea(m, d, qp, qd, qdd);
    F.col(k) = (tp - dyn::rnea(m, d, qm, qd, qdd)) / (2 * h);
  }
  CHECK_CLOSE(jacobianOf(tauq, n), F, 1e-6, std::max(1.0, F.cwiseAbs().maxCoeff()), (name + ": dtau/dq").toStdString());
}

}  // namespace

class TestLagrangianAutodiff : public QObject {
  Q_OBJECT

 private slots:
  void derivatives_data() {
    QTest::addColumn<unsigned>("seed");
    QTest::addColumn<bool>("serial");
    QTest::newRow("chain") << 1u << true;
    QTest::newRow("tree") << 2u << false;
  }
  void derivatives() {
    QFETCH(unsigned, seed);
    QFETCH(bool, serial);
    using K = dyn::JointKind;
    const dyn::Model m = dyn::buildModel(dyn::testing::randomTree(seed, 8, {K::Revolute, K::Prismatic}, serial));
    checkDerivatives("lagrange-3x3", m,
                     [](const dyn::ModelTpl<AD>& ma, const auto& q, const auto& qd, const auto& qdd) {
                       dyn::RecursiveLagrangian3x3Workspace<AD> ws(ma);
                       return dyn::VecX<AD>(dyn::recursiveLagrangian3x3InverseDynamics(ma, ws, q, qd, qdd));
                     });
    if (QTest::currentTestFailed()) return;
    checkDerivatives("lagrange-4x4", m,
                     [](const dyn::ModelTpl<AD>& ma, const auto& q, const auto& qd, const auto& qdd) {
                       dyn::RecursiveLagrangian4x4Workspace<AD> ws(ma);
                       return dyn::VecX<AD>(dyn::recursiveLagrangian4x4InverseDynamics(ma, ws, q, qd, qdd));
                     });
  }
};

QTEST_APPLESS_MAIN(TestLagrangianAutodiff)
#include "test_lagrangian_autodiff.moc"
