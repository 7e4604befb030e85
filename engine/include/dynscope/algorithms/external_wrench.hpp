// External wrenches: forces and moments from outside the robot (a hand pushing a link, a load, a
// contact) acting on its bodies. Featherstone (2010, Part 2, §"Inverse dynamics", eq. 11 and the
// Jacobian of eqs. 17-25): the RNEA takes them per body, f_i = I_i a_i + v_i x* I_i v_i - f_i^ext,
// and a force f_e on body b acts on the joints as tau_e = J_b^T f_e (virtual work), so that
// ID(q, qd, qdd, f_e) = ID(q, qd, qdd) - J_b^T f_e and H qdd + C = tau + J_b^T f_e.
//
// A wrench is given as a user gives one: a force and a moment in world axes, the force acting at a
// point fixed in the body (body coordinates: the engine's body frame has its joint axis along z; a
// URDF link's frame is the model frame of that name: wrenchOnFrame takes the point in a frame's
// coordinates). bodyForces turns the wrenches into the link-coordinate
// spatial forces rnea and aba take; it works in the body's own frame, so a robot far from the origin
// loses no digits to the lever arm of the world origin (docs/external-forces.md).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "../model/data.hpp"

namespace dyn {

template <class S>
struct ExternalWrenchTpl {
  int body = 0;                      // the body it acts on (1..N; 0, the fixed base, takes nothing)
  Vec3<S> point = Vec3<S>::Zero();   // where the force acts, body coordinates (m)
  Vec3<S> force = Vec3<S>::Zero();   // world axes (N)
  Vec3<S> moment = Vec3<S>::Zero();  // world axes (N m): a couple, besides the force's own moment
};
using ExternalWrench = ExternalWrenchTpl<double>;

// A wrench given as a user gives one, on a model frame (a URDF link, a DH frame): the point in that
// frame's coordinates, turned into its body's (frames[frame].placement = frame_X_body).
template <class S>
ExternalWrenchTpl<S> wrenchOnFrame(const ModelTpl<S>& model, int frame, const Vec3<S>& point, const Vec3<S>& force,
                                   const Vec3<S>& moment = Vec3<S>::Zero()) {
  if (frame < 0 || frame >= int(model.frames.size()))
    throw std::invalid_argument("external wrench: frame index " + std::to_string(frame) + " is not a frame of " +
                                model.name);
  const Frame<S>& F = model.frames[size_t(frame)];
  return {F.body, F.placement.pointToA(point), force, moment};
}

// "" when the wrench can be applied, else why not (a body out of range, a number that is not finite).
template <class S>
std::string wrenchProblem(const ModelTpl<S>& model, const ExternalWrenchTpl<S>& w) {
  if (w.body < 0 || w.body > model.N)
    return "external wrench on body " + std::to_string(w.body) + ": the model has bodies 0.." + std::to_string(model.N);
  if (!(w.point.allFinite() && w.force.allFinite() && w.moment.allFinite()))
    return "external wrench on '" + model.bodyNames[size_t(w.body)] + "': a value is not a finite number";
  return "";
}

// fext[i] = the sum of the wrenches on body i as a spatial force in link-i coordinates at its origin
// (the form rnea and aba take). Call forwardKinematics first (data.X0). fext is resized to N + 1 and
// zeroed; no allocation when it has that size already.
template <class S>
void bodyForces(const ModelTpl<S>& model, const DataTpl<S>& data, const std::vector<ExternalWrenchTpl<S>>& wrenches,
                std::vector<Force<S>>& fext) {
  fext.resize(size_t(model.N + 1));
  for (Force<S>& f : fext) f.setZero();
  for (const ExternalWrenchTpl<S>& w : wrenches) {
    const Mat3<S>& E = data.X0[w.body].E;  // i_R_0: world axes to body axes
    const Vec3<S> F = E * w.force;
    // n = E m + p x (E F): the moment about the body origin   (Featherstone Part 2, eq. 3's force transform)
    fext[size_t(w.body)] += Force<S>(E * w.moment + cross3(w.point, F), F);
  }
}

// tau_e = sum over the wrenches of J_b^T f_e: the joint forces the wrenches exert, column by column
// over the joints on the path from the base to b (0_S_k . 0_f_e, eq. 17). Call forwardKinematics first.
template <class S>
void wrenchJointForces(const ModelTpl<S>& model, const DataTpl<S>& data,
                       const std::vector<ExternalWrenchTpl<S>>& wrenches, VecX<S>& tauE) {
  tauE.setZero(model.nv);
  for (const ExternalWrenchTpl<S>& w : wrenches) {
    const Transform<S>& X = data.X0[w.body];
    const Vec3<S> pWorld = X.pointToA(w.point);                      // the point in world coordinates
    const Force<S> f0(w.moment + cross3(pWorld, w.force), w.force);  // at the world origin
    for (int i = w.body; i > 0; i = model.parent[i]) {               // i in kappa(b)
      const JointModel<S>& J = model.joints[i];
      for (int k = 0; k < J.nv; ++k)
        tauE[J.idx_v + k] += data.X0[i].applyInverse(data.S[J.idx_v + k]).dot(f0);  // 0_S_k^T 0_f_e
    }
  }
}

}  // namespace dyn
