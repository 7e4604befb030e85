#include "massmatrix/mass_matrix_analysis.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numeric>

#include "dynscope/algorithms/crba.hpp"
#include "dynscope/algorithms/ltl.hpp"
#include "dynscope/algorithms/mass_matrix_spectrum.hpp"

std::string dofName(const dyn::Model& model, int dof) {
  const int body = model.dofBody[dof];
  const dyn::JointModel<double>& j = model.joints[body];
  std::string name = model.jointNames[body];
  if (j.nv > 1) {  // appended piecewise: GCC 12 warns (-Wrestrict) on "[" + std::string
    name += '[';
    name += std::to_string(dof - j.idx_v);
    name += ']';
  }
  return name;
}

namespace {

// The independent coordinates' H_y = GᵀHG and pattern GᵀPG (entries of G: one per row).
void reduceToIndependent(const dyn::MimicCoupling& c, Eigen::MatrixXd& H, dyn::SparsityPattern& P) {
  Eigen::MatrixXd Hy(c.ny, c.ny);
  dyn::reduceMassMatrix(c, H, Hy);
  dyn::SparsityPattern Py = dyn::SparsityPattern::Constant(c.ny, c.ny, false);
  for (int j = 0; j < c.nv; ++j)
    for (int i = 0; i < c.nv; ++i)
      if (P(i, j)) Py(c.column[size_t(i)], c.column[size_t(j)]) = true;
  H = std::move(Hy);
  P = std::move(Py);
}

}  // namespace

MassMatrixAnalysis analyseMassMatrix(const dyn::Model& model, dyn::Data& data, const Eigen::VectorXd& q,
                                     const MassMatrixSettings& settings, const dyn::MimicCoupling* mimic) {
  MassMatrixAnalysis a;
  a.settings = settings;
  a.reduced = mimic && mimic->active();
  const int n = a.nv = a.reduced ? mimic->ny : model.nv;
  // Display position -> model dof; (reduced) the position in y of each model dof.
  std::vector<int> modelOrder = settings.breadthFirst ? dyn::breadthFirstOrder(model) : std::vector<int>();
  if (!settings.breadthFirst) {
    modelOrder.resize(size_t(model.nv));
    std::iota(modelOrder.begin(), modelOrder.end(), 0);
  }
  std::vector<int> order;  // display position -> row of H (or H_y)
  for (int dof : modelOrder) {
    if (a.reduced && mimic->isFollower(model.dofBody[size_t(dof)])) continue;
    a.order.push_back(dof);
    order.push_back(a.reduced ? mimic->column[size_t(dof)] : dof);
  }
  for (int k = 0; k < n; ++k) a.dofNames.push_back(dofName(model, a.order[k]));

  Eigen::MatrixXd H = dyn::crba(model, data, q);  // eqs. 44-48
  dyn::SparsityPattern P = dyn::structuralPattern(model);
  if (a.reduced) reduceToIndependent(*mimic, H, P);
  const Eigen::MatrixXd Hp = dyn::permuteSymmetric(H, order);  // P H P^T
  a.pattern = dyn::permutePattern(P, order);
  a.diagonal = Hp.diagonal();
  a.structuralNonZeros = int(P.count());
  a.sparsityPercent = n > 0 ? 100.0 * (double(n) * n - a.structuralNonZeros) / (double(n) * n) : 0;

  // H is SPD: cond(H) = ratio of its extreme eigenvalues (H_y: always the dense solver, the
  // recursive estimate below applies H, not GᵀHG).
  if (n > 0 && (n <= kExactSpectrumDofs || a.reduced)) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(H, Eigen::EigenvaluesOnly);
    a.eigenMin = eig.eigenvalues()[0];
    a.eigenMax = eig.eigenvalues()[n - 1];
  } else if (n > 0) {  // O(n) per step (RNEA applies H, ABA its inverse): no O(n^3) solver or factor
    const dyn::MassMatrixSpectrum s = dyn::massMatrixSpectrum(model, data, q);
    a.eigenMin = s.lambdaMin;
    a.eigenMax = s.lambdaMax;
    a.spectrumEstimated = true;
  }
  if (n > 0) a.conditionNumber = a.eigenMin > 0 ? a.eigenMax / a.eigenMin : std::numeric_limits<double>::infinity();

  a.kinds.assign(size_t(n) * n, CellKind::Value);
  if (settings.view == MassMatrixView::H) {
    a.values = Hp;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (!a.pattern(r, c)) a.kinds[size_t(r) * n + c] = CellKind::StructuralZero;
    return a;
  }

  // L view. Model order with L^T L: Featherstone's sparse factorisation, which visits ancestor
  // pairs only. Anything else: the dense factor of P H P^T, whose fill the pattern predicts.
  a.sparseAlgorithm = !a.reduced && !settings.breadthFirst && settings.form == dyn::CholeskyForm::LTL;
  if (a.sparseAlgorithm) {
    Eigen::MatrixXd L = H;
    dyn::factorLTL(model, L);
    a.values = L.triangularView<Eigen::Lower>();
  } else {
    a.values = dyn::denseCholesky(Hp, settings.form, "H(q)");
  }
  const dyn::SparsityPattern F = dyn::choleskyFillIn(P, order, settings.form);
  const dyn::CholeskyForm other =
      settings.form == dyn::CholeskyForm::LTL ? dyn::CholeskyForm::LLT : dyn::CholeskyForm::LTL;
  a.fillIn = int(F.count());
  a.symbolicFillIn = int(dyn::choleskyFillIn(P, order, other).count());
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      CellKind& k = a.kinds[size_t(r) * n + c];
      if (c > r)
        k = CellKind::Blank;
      else if (F(r, c))
        k = CellKind::FillIn;
      else if (!a.pattern(r, c))
        k = CellKind::StructuralZero;
    }
  return a;
}
