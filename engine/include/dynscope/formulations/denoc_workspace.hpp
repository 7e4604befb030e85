// The workspace of Saha's DeNOC algorithms (denoc_inverse_dynamics.hpp, denoc_generalized_inertia.hpp,
// denoc_forward_dynamics.hpp): every vector and matrix they write, sized once from the Model so that
// no call allocates. Names follow S. K. Saha, "Dynamics of Serial Multibody Systems Using the
// Decoupled Natural Orthogonal Complement Matrices", ASME J. Appl. Mech. 66 (1999).
//
// Where the quantities live. Saha's paper refers the twist t_i and the mass matrix M_i of link i to
// its mass centre C_i; we refer them to the origin O_i of link i's frame, as Saha's textbook does
// (Introduction to Robotics, ch. 9, where the twist propagation matrix B_ij is written A_ij). O_i is
// on joint i's axis (our frames are canonical: z = the joint axis), so
//   t_i = [w_i; o_i'] (angular velocity; velocity of the point O_i), p_i = [e_i; 0] (revolute) or
//   [0; e_i] (prismatic) with e_i = z, M_i = [I_i  m_i d_i x; -m_i d_i x  m_i 1] (I_i about O_i,
//   d_i = O_i -> C_i): the spatial inertia model.I[i]; and the gyroscopic term M_i' t_i of eq. 7
//   becomes W_i M_i E_i t_i with W_i = diag(w_i x, w_i x), E_i = diag(1, O).
// This works for massless links (no mass centre) and makes p_i free of d_i. Every 6-vector of link i
// is stored in link-i coordinates; B_{i,l} for the parent l = lambda(i) is applied through the joint
// transform A[i] = (E, r): E rotates parent coordinates into link-i coordinates and r = O_l -> O_i in
// parent coordinates (the Plücker transform i_X_l; twists carry over as motion vectors, wrenches back
// as force vectors).
#pragma once
#include <vector>

#include "../model/model.hpp"
#include "joint_requirements.hpp"

namespace dyn {

template <class S>
using Mat63 = Eigen::Matrix<S, 6, 3>;

template <class S>
struct DenocWorkspaceTpl {
  int N = 0, nv = 0;
  // Per body 0..N (entry 0 = the fixed base).
  std::vector<Transform<S>> A;     // joint transform of link i: the coordinate form of B_{i,lambda(i)}
  std::vector<Motion<S>> t, tdot;  // twist t_i and twist rate t_i' at O_i (eq. 1, 12)
  std::vector<Force<S>> w;         // wrench w_i (eq. 7), then the composite wrench w~_i (eq. 30)
  std::vector<Inertia<S>> Mtilde;  // mass matrix of composite body i, M~_i (eq. 23b)
  std::vector<Mat63<S>> Z;         // C matrix: composite convective terms acting on an axis (eqs. 25-29)
  std::vector<Motion<S>> y;        // C matrix: t_i x p_i = p_i' + B_i' p_i terms of joint i
  std::vector<Mat6<S>> Mhat;       // articulated-body mass matrix M^_i (App. B, eq. 50)
  std::vector<Force<S>> psiHat;    // psi^_i = M^_i p_i / m^_i (eqs. 47-48)
  std::vector<Force<S>> eta;       // forward dynamics step 1: eta_i (eq. 35)
  std::vector<Motion<S>> mu;       // forward dynamics step 3: mu_i (eq. 37)
  // Per degree of freedom 0..nv-1.
  VecX<S> tau, qdd, phi, mhat, tauHat, tauBar, zero;
  MatX<S> I, C;  // the generalized inertia matrix (GIM, eq. 24) and convective inertia matrix (eq. 29)

  DenocWorkspaceTpl() = default;
  // Throws std::invalid_argument naming the first joint that is not revolute or prismatic.
  explicit DenocWorkspaceTpl(const ModelTpl<S>& model) {
    requireRevolutePrismatic(model, "the DeNOC formulation");
    N = model.N;
    nv = model.nv;
    const int n1 = N + 1;
    A.resize(n1);
    t.resize(n1);
    tdot.resize(n1);
    w.resize(n1);
    Mtilde.resize(n1);
    Z.resize(n1, Mat63<S>::Zero());
    y.resize(n1);
    Mhat.resize(n1, Mat6<S>::Zero());
    psiHat.resize(n1);
    eta.resize(n1);
    mu.resize(n1);
    for (VecX<S>* v : {&tau, &qdd, &phi, &mhat, &tauHat, &tauBar, &zero}) *v = VecX<S>::Zero(nv);
    I = MatX<S>::Zero(nv, nv);  // structural zeros (branches) are never written
    C = MatX<S>::Zero(nv, nv);
  }
};

using DenocWorkspace = DenocWorkspaceTpl<double>;

// The joint-rate propagation vector p_i (eqs. 13, 15) in link-i coordinates: [e; 0] for a revolute
// joint, [0; e] for a prismatic one, e = z.
template <class S>
DYN_INLINE Motion<S> jointRateVector(const JointModel<S>& J) {
  const Vec3<S> e(S(0), S(0), S(1));
  return J.type == JointType::Revolute ? Motion<S>(e, Vec3<S>::Zero()) : Motion<S>(Vec3<S>::Zero(), e);
}

// p_i^T w: the component of a wrench (force vector) along joint i.
template <class S>
DYN_INLINE S jointComponent(const JointModel<S>& J, const Force<S>& w) {
  return J.type == JointType::Revolute ? w.n.z() : w.f.z();
}

// x += p_i a: adds a joint rate (or acceleration) to a twist (or twist rate).
template <class S>
DYN_INLINE void addJointRate(const JointModel<S>& J, Motion<S>& x, const S& a) {
  if (J.type == JointType::Revolute)
    x.w.z() += a;
  else
    x.v.z() += a;
}

// Throws unless the workspace was built for a model of this size.
template <class S>
void checkDenocWorkspace(const ModelTpl<S>& model, const DenocWorkspaceTpl<S>& ws) {
  if (ws.N != model.N || ws.nv != model.nv)
    throw std::invalid_argument("the DeNOC workspace was built for another model (" + std::to_string(ws.N) +
                                " bodies, this one has " + std::to_string(model.N) + ")");
}

}  // namespace dyn
