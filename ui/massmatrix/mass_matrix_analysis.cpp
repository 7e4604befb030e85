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

MassMatrixAnalysis analyseMassMatrix(const dyn::Model& model, dyn::Data& data, const Eigen::VectorXd& q,
                                     const MassMatrixSettings& settings) {
  MassMatrixAnalysis a;
  a.settings = settings;
  const int n = a.nv = model.nv;
  if (settings.breadthFirst) {
    a.order = dyn::breadthFirstOrder(model);
  } else {
    a.order.resize(n);
    std::iota(a.order.begin(), a.order.end(), 0);
  }
  for (int k = 0; k < n; ++k) a.dofNames.push_back(dofName(model, a.order[k]));

  const Eigen::MatrixXd H = dyn::crba(model, data, q);  // eqs. 44-48
  const dyn::SparsityPattern P = dyn::structuralPattern(model);
  const Eigen::MatrixXd Hp = dyn::permuteSymmetric(H, a.order);  // P H P^T
  a.pattern = dyn::permutePattern(P, a.order);
  a.diagonal = Hp.diagonal();
  a.structuralNonZeros = int(P.count());
  a.sparsityPercent = n > 0 ? 100.0 * (double(n) * n - a.structuralNonZeros) / (double(n) * n) : 0;

  if (n > 0 && n <= kExactSpectrumDofs) {  // H is SPD: cond(H) = ratio of its extreme eigenvalues
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
  a.sparseAlgorithm = !settings.breadthFirst && settings.form == dyn::CholeskyForm::LTL;
  if (a.sparseAlgorithm) {
    Eigen::MatrixXd L = H;
    dyn::factorLTL(model, L);
    a.values = L.triangularView<Eigen::Lower>();
  } else {
    a.values = dyn::denseCholesky(Hp, settings.form, "H(q)");
  }
  const dyn::SparsityPattern F = dyn::choleskyFillIn(P, a.order, settings.form);
  const dyn::CholeskyForm other =
      settings.form == dyn::CholeskyForm::LTL ? dyn::CholeskyForm::LLT : dyn::CholeskyForm::LTL;
  a.fillIn = int(F.count());
  a.symbolicFillIn = int(dyn::choleskyFillIn(P, a.order, other).count());
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
