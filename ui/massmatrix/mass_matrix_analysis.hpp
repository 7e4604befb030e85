// What the mass-matrix dock shows, computed without Qt: H(q) by CRBA, or a factor L, in the
// model's depth-first numbering or renumbered breadth-first; the branch-induced pattern
// (Featherstone Part 2, eq. 45), the fill-in of the factor, the spectrum's condition number.
// The widgets only paint this. Mimic joints (docs/mimic.md): H_y = GᵀHG on the independent
// coordinates, its pattern the one of GᵀPG (a master couples to whatever its followers do).
#pragma once
#include <Eigen/Core>
#include <string>
#include <vector>

#include "dynscope/algorithms/sparsity.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/model/mimic_coupling.hpp"

enum class MassMatrixView { H, L };

struct MassMatrixSettings {
  MassMatrixView view = MassMatrixView::H;
  bool breadthFirst = false;                        // renumber the dofs breadth-first: P H P^T
  dyn::CholeskyForm form = dyn::CholeskyForm::LTL;  // L view: L^T L (Featherstone) or L L^T (textbook)
};

// How a cell is drawn.
enum class CellKind : unsigned char {
  Value,           // a structural non-zero (however small its value)
  StructuralZero,  // zero because the two dofs lie on different branches
  FillIn,          // structurally zero in H, non-zero in the factor
  Blank,           // the upper triangle of a factor: not part of L
  Pending          // lecture mode: structurally non-zero, not computed yet by the algorithm stepped through
};

struct MassMatrixAnalysis {
  MassMatrixSettings settings;
  int nv = 0;
  std::vector<int> order;             // display position -> model dof
  std::vector<std::string> dofNames;  // per display position: joint name (+ component for multi-dof joints)
  Eigen::MatrixXd values;             // the shown matrix, display order
  std::vector<CellKind> kinds;        // nv * nv, row-major
  Eigen::VectorXd diagonal;           // diag H, display order
  dyn::SparsityPattern pattern;       // structural pattern of H, display order
  int structuralNonZeros = 0;         // of H (both triangles)
  double sparsityPercent = 0;         // structural zeros of H in % of nv^2
  int fillIn = 0;                     // strictly-lower fill entries of the factor (L view)
  int symbolicFillIn = 0;             // the same, in the other form, for comparison in the status
  double eigenMin = 0, eigenMax = 0, conditionNumber = 0;  // of H
  bool spectrumEstimated = false;  // above kExactSpectrumDofs: iterative estimates, shown with "≈"
  bool sparseAlgorithm = false;    // L computed by factorLTL (model order, L^T L)
  bool reduced = false;            // mimic joints: H_y = G^T H G on the independent coordinates

  CellKind kind(int r, int c) const { return kinds[size_t(r) * nv + c]; }
  int dof(int position) const { return order[position]; }
};

// Up to this many dofs the extreme eigenvalues of H come from the exact (O(n^3)) eigen solver.
constexpr int kExactSpectrumDofs = 200;

// Throws std::invalid_argument (from the engine) on a wrong q size or a singular H.
// With `mimic` (a coupling with followers): H_y = GᵀHG, rows and columns the independent dofs.
MassMatrixAnalysis analyseMassMatrix(const dyn::Model& model, dyn::Data& data, const Eigen::VectorXd& q,
                                     const MassMatrixSettings& settings, const dyn::MimicCoupling* mimic = nullptr);

// "left_knee_joint", or "floating_base[3]" for component 3 of a multi-dof joint.
std::string dofName(const dyn::Model& model, int dof);
