// The link matrices shared by Hollerbach's Lagrangian family (seed hollerbach-recursive-lagrangian.txt:
// J. M. Hollerbach, "A recursive Lagrangian formulation of manipulator dynamics and a comparative study of
// dynamics formulation complexity", IEEE Trans. SMC-10(11), 1980), built from our Model:
//   A_i               4x4 homogeneous transform from link-i to parent coordinates, eqs. (1)-(2): ^{λ(i)}v = A_i ^i v
//   ∂A_i/∂q_i, ∂²A_i/∂q_i²   the derivative matrices of eq. (5)
//   R_i, p*_i         the 3x3 rotation and the offset of origin i in parent coordinates (the 3x3 formulation, Fig. 2)
//   J_i               the pseudo-inertia ∫ h* h*ᵀ dm about the link origin (Appendix A, eq. A4),
//                     whose last column holds n_i = ∫ h* dm = m_i r_i
// and the paths of a tree: on a branched tree the paper's sums over j = i..n become sums over the descendants of i,
// and its sums over k = 1..j sums over the joints on the path from the base to j.
//
// Our frames versus Kahn's (Fig. 1): in both, a joint moves about / along a z axis, but here joint i acts on the
// z axis of its own link frame i (canonical joint frames, Featherstone's rule 2), in Kahn's DH frames on z_{i-1}.
// So A_i = A_T(i) A_J(q_i) with A_T the fixed tree transform, and ∂A_i/∂q_i = A_i Q_i (Kahn: Q_i A_i), where
// Q = [e_z]x padded (revolute) or the translation generator along z (prismatic). Homogeneous coordinates are
// written (x y z 1), Kahn and Hollerbach write (1 x y z): the algebra is the same. A consequence used by the
// 3x3 formulation: the origin of frame i lies on joint i's axis, so p_i does not depend on q_i for a revolute
// joint (Appendix B, eq. B1 holds exactly).
//
// Hollerbach excludes the cost of A_j, ∂A_j/∂q_j and ∂²A_j/∂q_j² from his counts; the formulations build them
// inside OpCountScope(OpCategory::JointTransforms) so that the counting scalar books them apart.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "../algorithms/check.hpp"
#include "../model/model.hpp"
#include "joint_requirements.hpp"

namespace dyn {

template <class S>
using Mat4 = Eigen::Matrix<S, 4, 4>;
template <class S>
using Vec4 = Eigen::Matrix<S, 4, 1>;

// The paths of a tree: anc(j) = the bodies whose joints support body j, from the base's child down to j itself.
struct TreePaths {
  std::vector<int> depth;   // depth[j] = |anc(j)| (0 for the base)
  std::vector<int> offset;  // anc(j) = path[offset[j] .. offset[j] + depth[j])
  std::vector<int> path;
  int total = 0;  // Σ_j depth[j]

  TreePaths() = default;
  explicit TreePaths(const std::vector<int>& parent) {
    const int n1 = int(parent.size());
    depth.assign(n1, 0);
    offset.assign(n1, 0);
    for (int j = 1; j < n1; ++j) {
      depth[j] = depth[parent[j]] + 1;
      offset[j] = total;
      total += depth[j];
    }
    path.assign(total, 0);
    for (int j = 1; j < n1; ++j) {
      for (int a = 0; a < depth[j] - 1; ++a) path[offset[j] + a] = path[offset[parent[j]] + a];
      path[offset[j] + depth[j] - 1] = j;
    }
  }
  // The a-th body on the path to j (a = depth[j] - 1 is j itself).
  int at(int j, int a) const { return path[offset[j] + a]; }
};

// What a workspace of the family keeps of the model it was built for: the formulation's name (for the messages) and
// the tree (each body's parent; Uicker/Kahn and Waters store its paths). Every call checks the model it is given
// against it and checks that model's joints again: a workspace built for another model of the same size must neither
// walk another tree's paths nor take a helical joint for a prismatic one. O(n) comparisons, no allocation.
struct LagrangianModelShape {
  const char* formulation = "";
  std::vector<int> parent;

  LagrangianModelShape() = default;
  // Throws std::invalid_argument naming the first joint that is not revolute or prismatic.
  template <class S>
  LagrangianModelShape(const ModelTpl<S>& model, const char* name) : formulation(name), parent(model.parent) {
    requireRevolutePrismatic(model, name);
  }
};

// The checks every formulation of the family makes on each call: a workspace built for this tree, revolute/prismatic
// joints (naming the joint), argument sizes.
template <class S>
void checkLagrangianInputs(const ModelTpl<S>& model, const LagrangianModelShape& built, long nq, long nv, long na) {
  const int builtBodies = int(built.parent.size()) - 1;
  if (builtBodies != model.N)
    throw std::invalid_argument(std::string(built.formulation) + ": the workspace was built for " +
                                std::to_string(builtBodies) + " bodies, the model has " + std::to_string(model.N));
  if (built.parent != model.parent) {
    int i = 1;
    while (built.parent[i] == model.parent[i]) ++i;
    throw std::invalid_argument(std::string(built.formulation) + ": the workspace was built for another tree (body '" +
                                model.bodyNames[i] + "' has another parent there)");
  }
  requireRevolutePrismatic(model, built.formulation);
  checkSize("q", nq, model.nq);
  checkSize("qd", nv, model.nv);
  checkSize("qdd", na, model.nv);
}

// Rotation of the tree transform as columns: R_T = X_T.Eᵀ (vector-rotating, child axes in parent coordinates).
template <class S>
DYN_INLINE Vec3<S> treeAxis(const Transform<S>& XT, int k) {
  return XT.E.row(k).transpose();
}

// A_i = [R_i p_i; 0 1] (eq. 2 in our frames), ∂A_i/∂q_i = A_i Q_i and ∂²A_i/∂q_i² = A_i Q_i Q_i.
// Revolute: R_i = R_T Rz(q_i), p_i = r_T; A_i Q_i = [col 1, -col 0, 0, 0]; A_i Q_i Q_i = [-col 0, -col 1, 0, 0].
// Prismatic: R_i = R_T, p_i = r_T + z_T q_i (z_T = R_T e_z); A_i Q_i = [0, 0, 0, (z_T; 0)]; ∂²A_i/∂q_i² = 0.
template <class S>
DYN_INLINE void linkMatrices4(const JointModel<S>& J, const Transform<S>& XT, const S& qi, Mat4<S>& A, Mat4<S>& dA,
                              Mat4<S>& d2A) {
  A.template bottomRows<1>() << S(0), S(0), S(0), S(1);
  dA.setZero();
  d2A.setZero();
  if (J.type == JointType::Revolute) {
    S s, c;
    sinCos(qi, s, c);
    const Vec3<S> x = treeAxis(XT, 0), y = treeAxis(XT, 1);
    A.template block<3, 1>(0, 0) = c * x + s * y;
    A.template block<3, 1>(0, 1) = c * y - s * x;
    A.template block<3, 1>(0, 2) = treeAxis(XT, 2);
    A.template block<3, 1>(0, 3) = XT.r;
    dA.template block<3, 1>(0, 0) = A.template block<3, 1>(0, 1);
    dA.template block<3, 1>(0, 1) = -A.template block<3, 1>(0, 0);
    d2A.template block<3, 1>(0, 0) = -A.template block<3, 1>(0, 0);
    d2A.template block<3, 1>(0, 1) = -A.template block<3, 1>(0, 1);
  } else {  // prismatic (the formulations refuse every other joint)
    const Vec3<S> z = treeAxis(XT, 2);
    A.template topLeftCorner<3, 3>() = XT.E.transpose();
    A.template block<3, 1>(0, 3) = XT.r + z * qi;
    dA.template block<3, 1>(0, 3) = z;
  }
}

// The 3x3 form (Hollerbach's "A_j now represents a 3x3 rotation matrix"): R_i, ∂R_i/∂q_i, ∂²R_i/∂q_i², the offset
// p*_i of origin i from origin λ(i) in λ(i) coordinates, and ∂p*_i/∂q_i (non-zero for a prismatic joint only).
template <class S>
DYN_INLINE void linkMatrices3(const JointModel<S>& J, const Transform<S>& XT, const S& qi, Mat3<S>& R, Mat3<S>& dR,
                              Mat3<S>& d2R, Vec3<S>& pstar, Vec3<S>& dpstar) {
  if (J.type == JointType::Revolute) {
    S s, c;
    sinCos(qi, s, c);
    const Vec3<S> x = treeAxis(XT, 0), y = treeAxis(XT, 1);
    R.col(0) = c * x + s * y;
    R.col(1) = c * y - s * x;
    R.col(2) = treeAxis(XT, 2);
    dR.col(0) = R.col(1);
    dR.col(1) = -R.col(0);
    dR.col(2).setZero();
    d2R.col(0) = -R.col(0);
    d2R.col(1) = -R.col(1);
    d2R.col(2).setZero();
    pstar = XT.r;
    dpstar.setZero();
  } else {  // prismatic
    R = XT.E.transpose();
    dR.setZero();
    d2R.setZero();
    dpstar = treeAxis(XT, 2);
    pstar = XT.r + dpstar * qi;
  }
}

// J_i = ∫ h* h*ᵀ dm = [Σ n; nᵀ m] with Σ = ∫ r rᵀ dm = ½ tr(Ibar) 1 - Ibar and n = h = m c (eq. A4).
template <class S>
Mat3<S> secondMoment(const Inertia<S>& I) {
  Mat3<S> Sigma = -I.Ibar;
  const S half = S(0.5) * I.Ibar.trace();
  for (int k = 0; k < 3; ++k) Sigma(k, k) += half;
  return Sigma;
}
template <class S>
Mat4<S> pseudoInertia(const Inertia<S>& I) {
  Mat4<S> J;
  J.template topLeftCorner<3, 3>() = secondMoment(I);
  J.template block<3, 1>(0, 3) = I.h;
  J.template block<1, 3>(3, 0) = I.h.transpose();
  J(3, 3) = I.m;
  return J;
}
// m_j r_j in homogeneous coordinates: (n_j; m_j) = (h; m), the vector the gravity terms multiply.
template <class S>
Vec4<S> firstMoment4(const Inertia<S>& I) {
  Vec4<S> r;
  r << I.h, I.m;
  return r;
}
// g in homogeneous coordinates (a direction: last entry 0); the model's a_g = [0; g].
template <class S>
Vec4<S> gravity4(const ModelTpl<S>& model) {
  Vec4<S> g;
  g << model.gravity.v, S(0);
  return g;
}

// tr(X Yᵀ) = Σ X_rc Y_rc: the trace of a product without forming the product (16 or 9 multiplications).
template <class DX, class DY>
DYN_INLINE typename DX::Scalar traceOfProductTransposed(const Eigen::MatrixBase<DX>& X,
                                                        const Eigen::MatrixBase<DY>& Y) {
  return X.cwiseProduct(Y).sum();
}

}  // namespace dyn
