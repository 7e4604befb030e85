// The classical formulations on Eigen's AutoDiffScalar (the same template code as on double):
// d(DeNOC ID)/d(qdd) = d(Newton-Euler)/d(qdd) = the mass matrix (CRBA), d(DeNOC FD)/d(tau) = M^-1,
// d(DeNOC ID)/d(q) matches central differences of the double version, d(C(q, qd) qd)/d(qd) at
// qd = 0 vanishes, and the values equal the double results. Models: random trees of revolute
// and prismatic joints and the Stanford arm.
#include <QtTest>
#include <cmath>
#include <random>

#include <Eigen/Core>
#include <Eigen/LU>
#include <unsupported/Eigen/AutoDiff>

#include "dynscope/algorithms/aba.hpp"
#include "dynscope/algorithms/configuration.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/rnea.hpp"
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "dynscope/formulations/denoc_generalized_inertia.hpp"
#include "dynscope/formulations/newton_euler_3vector.hpp"
#include "dynscope/io/model_builder.hpp"
#include "random_tree.hpp"

using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

dyn::VecX<AD> constant(const VectorXd& x, int n) {
  dyn::VecX<AD> y(x.size());
  for (int k = 0; k < x.size(); ++k) y[k] = AD(x[k], VectorXd::Zero(n));
  return y;
}
dyn::VecX<AD> variable(const VectorXd& x) {
  dyn::VecX<AD> y(x.size());
  for (int k = 0; k < x.size(); ++k) y[k] = AD(x[k], int(x.size()), k);
  return y;
}
MatrixXd jacobian(const dyn::VecX<AD>& y, int n) {
  MatrixXd J(y.size(), n);
  for (int i = 0; i < y.size(); ++i) {
    if (y[i].derivatives().size() != n) return MatrixXd::Constant(y.size(), n, NAN);
    J.row(i) = y[i].derivatives().transpose();
  }
  return J;
}
VectorXd values(const dyn::VecX<AD>& y) {
  VectorXd v(y.size());
  for (int i = 0; i < y.size(); ++i) v[i] = y[i].value();
  return v;
}
double err(const MatrixXd& a, const MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

std::vector<std::pair<QString, dyn::Model>> models() {
  using K = dyn::JointKind;
  std::vector<std::pair<QString, dyn::Model>> out;
  for (unsigned seed : {4u, 5u})
    out.emplace_back(QString("tree %1").arg(seed),
                     dyn::buildModel(dyn::testing::randomTree(seed, 9, {K::Revolute, K::Prismatic, K::Fixed})));
  out.emplace_back("stanford_arm", dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/stanford_arm.dh"));
  return out;
}

#define CHECK_ERR(e, tol, what) \
  QVERIFY2((e) <= (tol), qPrintable(QString("%1: error %2 > %3").arg(what).arg(e).arg(tol)))

}  // namespace

class TestFormulationAutodiff : public QObject {
  Q_OBJECT

 private slots:
  void derivatives() {
    for (const auto& [name, m] : models()) {
      const int n = m.nv;
      const dyn::ModelTpl<AD> ma = m.cast<AD>();
      dyn::DenocWorkspaceTpl<AD> wa(ma);
      dyn::NewtonEuler3WorkspaceTpl<AD> na(ma);
      dyn::Data d(m);
      dyn::DenocWorkspace ws(m);
      std::mt19937 rng(17);
      std::uniform_real_distribution<double> U(-1, 1);
      const VectorXd q = dyn::randomConfiguration(m, rng);
      const VectorXd qd = VectorXd::NullaryExpr(n, [&] { return U(rng); });
      const VectorXd qdd = VectorXd::NullaryExpr(n, [&] { return U(rng); });
      const VectorXd tau = VectorXd::NullaryExpr(n, [&] { return U(rng); });
      const MatrixXd M = dyn::crba(m, d, q);

      // d tau / d qdd = M, for both inverse-dynamics formulations; values as in double
      const dyn::VecX<AD> t1 = dyn::denocInverseDynamics(ma, wa, constant(q, n), constant(qd, n), variable(qdd));
      CHECK_ERR(err(jacobian(t1, n), M), 1e-10, name + ": d(DeNOC ID)/d(qdd) = M");
      CHECK_ERR(err(values(t1), dyn::rnea(m, d, q, qd, qdd)), 1e-12, name + ": DeNOC ID value");
      const dyn::VecX<AD> t2 = dyn::newtonEuler3(ma, na, constant(q, n), constant(qd, n), variable(qdd));
      CHECK_ERR(err(jacobian(t2, n), M), 1e-10, name + ": d(Newton-Euler)/d(qdd) = M");

      // d qdd / d tau = M^-1
      const dyn::VecX<AD> a = dyn::denocForwardDynamics(ma, wa, constant(q, n), constant(qd, n), variable(tau));
      CHECK_ERR(err(jacobian(a, n), MatrixXd(M.inverse())), 1e-9, name + ": d(DeNOC FD)/d(tau) = M^-1");
      CHECK_ERR(err(values(a), dyn::aba(m, d, q, qd, tau)), 1e-10, name + ": DeNOC FD value");

      // d tau / d q against central differences of the double version
      const dyn::VecX<AD> t3 = dyn::denocInverseDynamics(ma, wa, variable(q), constant(qd, n), constant(qdd, n));
      MatrixXd F(n, n);
      const double h = 1e-6;
      for (int k = 0; k < n; ++k) {
        VectorXd qp = q, qm = q;
        qp[k] += h;
        qm[k] -= h;
        const VectorXd tp = dyn::denocInverseDynamics(m, ws, qp, qd, qdd);
        F.col(k) = (tp - dyn::denocInverseDynamics(m, ws, qm, qd, qdd)) / (2 * h);
      }
      CHECK_ERR(err(jacobian(t3, n), F), 1e-6, name + ": d(DeNOC ID)/d(q) = central differences");

      // C(q, qd) qd is quadratic in qd: its derivative at qd = 0 vanishes
      const dyn::VecX<AD> qdv = variable(VectorXd::Zero(n));
      const dyn::MatX<AD> C0 = dyn::denocConvectiveInertia(ma, wa, constant(q, n), qdv);
      const dyn::VecX<AD> h0 = C0 * qdv;
      CHECK_ERR(jacobian(h0, n).cwiseAbs().maxCoeff(), 1e-12, name + ": d(C qd)/d(qd) at qd = 0");
      // the GIM on AD numbers equals the double one
      const dyn::MatX<AD> Ia = dyn::denocGeneralizedInertia(ma, wa, constant(q, n));
      CHECK_ERR(err(Ia.unaryExpr([](const AD& x) { return x.value(); }), M), 1e-12, name + ": GIM value");
    }
  }
};

QTEST_GUILESS_MAIN(TestFormulationAutodiff)
#include "test_formulation_autodiff.moc"
