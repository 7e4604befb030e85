// The workspace of the algorithms: everything they write, sized once from the Model so
// that no algorithm allocates. One Data per thread; the Model is shared read-only.
// Everything is O(N) except the dense nv x nv matrices M and L, which only CRBA and the CRBA-based
// forward dynamics use: they stay empty until one of those runs (or reserveMassMatrix() is called),
// so RNEA and ABA on a 10,000-body chain need megabytes, not gigabytes.
#pragma once
#include <vector>

#include "model.hpp"

namespace dyn {

template <class Scalar>
struct DataTpl {
  // Per body 0..N.
  std::vector<Transform<Scalar>> Xup;  // i_X_lambda(i) = XJ X_T(i)
  std::vector<Transform<Scalar>> X0;   // i_X_0: world to link-i coordinates
  std::vector<Motion<Scalar>> v, a, vJ, cJ, avp;
  std::vector<Force<Scalar>> f;
  std::vector<Inertia<Scalar>> IC;  // composite rigid-body inertias (CRBA)
  std::vector<Mat6<Scalar>> IA;     // articulated-body inertias (ABA, link coordinates; after pass 2
                                    // D_i Ia_i for a revolute joint without armature, aba.hpp)
  std::vector<Force<Scalar>> pA;    // articulated bias forces (ABA, link coordinates)
  std::vector<Force<Scalar>> fext;  // optional external forces on each body, link-i coordinates
  std::vector<Motion<Scalar>> c;    // ABA: bias accelerations c_i = cJ + v_i x vJ (link coordinates)
  // Per dof 0..nv-1.
  std::vector<Motion<Scalar>> S;       // columns of the motion subspaces, link coordinates of their body
  std::vector<Motion<Scalar>> oS;      // the columns of S in world coordinates, 0_X_i S_i (worldJointTransforms)
  std::vector<Force<Scalar>> U;        // ABA: U = IA S
  std::vector<SmallMat<Scalar>> Dinv;  // ABA: (S^T IA S)^-1 per body (not for free joints: Lfree)
  std::vector<Mat6<Scalar>> Lfree;     // ABA: a free joint's D_i = L L^T (Cholesky factor, lower)
  VecX<Scalar> u;                      // ABA: tau - S^T pA
  std::vector<Force<Scalar>> UDl;      // ABA, 1-dof joints: l_X_i^* U_i D_i^-1 (U_i D_i^-1 in the parent's coordinates)
  VecX<Scalar> qdd0;                   // ABA, 1-dof joints: D_i^-1 (u_i - U_i^T c_i), qdd_i when a_lambda(i) = 0
  VecX<Scalar> tau, qdd, nle, g;       // results
  MatX<Scalar> M;                      // joint-space inertia matrix H (empty until reserveMassMatrix)
  MatX<Scalar> L;                      // factor workspace, CRBA + L^T L (empty until reserveFactor)
  VecX<Scalar> tmp;
  Mat6X<Scalar> J;                     // Jacobian workspace (6 x nv)
  std::vector<Transform<Scalar>> oMf;  // frame_X_0 of each model frame, after updateFrames
  Vec3<Scalar> com = Vec3<Scalar>::Zero();
  Scalar kinetic = Scalar(0), potential = Scalar(0);

  DataTpl() = default;
  explicit DataTpl(const ModelTpl<Scalar>& model) {
    const int n1 = model.N + 1, nv = model.nv;
    Xup.resize(n1);
    X0.resize(n1);
    v.resize(n1);
    a.resize(n1);
    vJ.resize(n1);
    cJ.resize(n1);
    avp.resize(n1);
    f.resize(n1);
    IC.resize(n1);
    IA.resize(n1, Mat6<Scalar>::Zero());
    pA.resize(n1);
    fext.resize(n1);
    c.resize(n1);
    this->S.resize(nv);
    oS.resize(nv);
    U.resize(nv);
    Dinv.resize(n1);
    Lfree.resize(n1, Mat6<Scalar>::Zero());
    for (int i = 1; i < n1; ++i) Dinv[i] = SmallMat<Scalar>::Zero(model.joints[i].nv, model.joints[i].nv);
    u = VecX<Scalar>::Zero(nv);
    UDl.resize(nv);
    qdd0 = VecX<Scalar>::Zero(nv);
    tau = VecX<Scalar>::Zero(nv);
    qdd = VecX<Scalar>::Zero(nv);
    nle = VecX<Scalar>::Zero(nv);
    g = VecX<Scalar>::Zero(nv);
    tmp = VecX<Scalar>::Zero(nv);
    J = Mat6X<Scalar>::Zero(6, nv);
    oMf.resize(model.frames.size());
  }
  // Allocates M (zero, so that CRBA's branch-induced zeros hold) the first time; a no-op after.
  // crba() calls it: call it beforehand to keep even the first CRBA free of allocation.
  void reserveMassMatrix() {
    if (M.rows() != tau.size()) M = MatX<Scalar>::Zero(tau.size(), tau.size());
  }
  // M and the factor workspace L of the CRBA-based forward dynamics.
  void reserveFactor() {
    reserveMassMatrix();
    if (L.rows() != tau.size()) L = MatX<Scalar>::Zero(tau.size(), tau.size());
  }
  void clearExternalForces() {
    for (auto& x : fext) x.setZero();
  }
};

using Data = DataTpl<double>;

}  // namespace dyn
