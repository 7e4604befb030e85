// Symbolic equations of motion (issue 40): M(q) from CRBA (Featherstone Part 2, eqs. 44-48), g(q)
// and C(q, qd) qd from RNEA (Part 2, eq. 37), run on the computer-algebra scalar Sym, then written
// the way a textbook writes them. Built only when GiNaC is found (target dynscope_symbolic).
#pragma once
#include <string>
#include <vector>

#include "../io/dh_table.hpp"
#include "../model/model.hpp"
#include "symbolic_scalar.hpp"

namespace dyn {

// The state as symbols q_i, qd_i, qdd_i (TeX: q_{i}, \dot{q}_{i}, \ddot{q}_{i}), i = 1..nv.
struct SymbolicState {
  std::vector<GiNaC::realsymbol> q, qd, qdd;
  VecX<Sym> qVec() const;
  VecX<Sym> qdVec() const;
  VecX<Sym> qddVec() const;
};
SymbolicState symbolicState(int nv);

// The frames a parameter's components are taken in: a standard-DH table's frame i (symbolicDhModel)
// or link i's own frame (symbolicModel on a URDF or any loaded model).
enum class ParameterFrames { Dh, Link };
// What a parameter symbol stands for, with its unit, from its name: l1, d1 (a DH row's a and d),
// p1x (joint 1's origin in its parent link's frame), m1, c1x (centre of mass), I1xx (inertia about
// it), g. "" for a name of no parameter. For example "mass of link 2 [kg]".
std::string parameterMeaning(const std::string& name, ParameterFrames frames);

// A model whose parameters are symbols, with the values the table gives them (for evaluation).
struct SymbolicModel {
  ModelTpl<Sym> model;
  std::vector<GiNaC::realsymbol> parameters;  // m1, l1, d1, c1x.., I1xx.., g: those non-zero in the table
  GiNaC::lst values;                          // parameter == value, for subs()
  ParameterFrames frames = ParameterFrames::Dh;
  GiNaC::realsymbol parameter(const std::string& name) const;  // std::out_of_range when absent
  std::vector<GiNaC::realsymbol> masses() const;               // m1, m2, ...: the textbook's groups
  // parameterMeaning in this model's frames, naming the link (and joint) for a loaded model:
  // "mass of link 2 (upper_arm_link) [kg]".
  std::string meaning(const std::string& name) const;
};
// A standard-DH serial chain (docs/dh-format.md, no base or tool directive) with each row's a, d,
// mass, centre of mass and inertia about it as symbols where they are non-zero, and the magnitude
// of gravity as g. The twists alpha and the offsets theta stay numbers. The same body frames and
// tree transforms as buildModel(dhTableToDescription(table)).
SymbolicModel symbolicDhModel(const DhTable& table);
// Any loaded model (URDF, MJCF, DH) of revolute and prismatic joints with its inertial parameters
// and joint origins as symbols where non-zero: for body i (the model's order, 1-based) the mass m_i,
// the centre of mass c_i{x,y,z} in link i's frame, the inertia about it I_i{xx,yy,zz,xy,xz,yz} (link
// i's axes), the translation p_i{x,y,z} of joint i's origin in its parent link's frame (a URDF
// joint's origin xyz), and the magnitude g of gravity. Rotations, joint axes and gravity's direction
// stay numbers, rounding noise snapped first (|x| < 1e-13 -> 0, within 1e-13 of +-1 -> +-1). The
// same model as `model` at the values. std::invalid_argument naming the first other joint.
SymbolicModel symbolicModel(const Model& model);

struct EquationsOfMotion {
  MatX<Sym> M;    // M(q)
  VecX<Sym> c;    // C(q, qd) qd: Coriolis and centrifugal terms
  VecX<Sym> g;    // g(q)
  VecX<Sym> tau;  // M qdd + c + g
};
// From CRBA, gravityVector and nonLinearEffects on the model, each entry simplified (simplifyTrig,
// collected by `groups` when given: the masses, as a textbook writes m1 c1^2 + m2 (...)).
EquationsOfMotion equationsOfMotion(const ModelTpl<Sym>& model, const SymbolicState& state,
                                    const std::vector<GiNaC::realsymbol>& groups = {});

// The model with its numbers as exact decimals (Sym), the rounding noise of rotations taken out
// first: |x| < 1e-13 becomes 0 and |x| within 1e-13 of 1 becomes +-1 (cos(pi/2) = 6.1e-17 would
// otherwise be an exact rational that every product carries along). EquationsUnsupported-free:
// std::invalid_argument naming the body when a number is not finite.
ModelTpl<Sym> exactDecimalModel(const Model& model);
// The model with that rounding noise taken out (of the tree transforms, inertias, joint axes and
// gravity), for exactDecimalModel and symbolicModel alike.
Model withoutRoundingNoise(const Model& model);

// M(q) by CRBA and g(q) by RNEA on the symbolic scalar, not simplified: equationsReport simplifies
// them entry by entry (with progress and cancel between entries). Instantiated here once, so that
// the report's unit does not compile the algorithms on Sym again.
struct RawMassMatrixAndGravity {
  MatX<Sym> M;
  VecX<Sym> g;
};
RawMassMatrixAndGravity massMatrixAndGravity(const ModelTpl<Sym>& model, const SymbolicState& state);

// The textbook form of an expression in the joint angles `angles` (docs/symbolic.md, "Textbook
// forms"): of three canonical forms, the one with fewest terms: the product form (a polynomial in
// sin and cos of single angles reduced by cos^2 = 1 - sin^2 or sin^2 = 1 - cos^2, whichever leaves
// fewer terms, per angle: the Stanford arm's sin^2 q2), the same in the sums q_p + q_k along
// parallel axes (cos(q2 + q3)), and the Fourier form (products become sines and cosines of sums:
// cos q1 cos q2 - sin q1 sin q2 -> cos(q1 + q2)), the last only without a multiple angle such as
// cos(2 q2). Then collected by `groups` (masses, say) and trigonometric term, each parameter with
// its own sin^2/cos^2, common factors pulled out and squares completed ((l1 + c1x)^2). Zero exactly
// when the expression is identically zero as a trigonometric polynomial in `angles`.
struct TrigForm {
  std::vector<GiNaC::realsymbol> groups;  // collected by these first (the masses)
  // parallel[k] = {p, s}: joint k turns about joint p's axis (s = +1) or its opposite (s = -1), so
  // the product form uses the absolute angle u_k = u_p + s q_k (cos(q1+q2), as c12 in a textbook);
  // p = -1 (or a shorter vector): u_k = q_k.
  std::vector<std::pair<int, int>> parallel;
};
GiNaC::ex simplifyTrig(const GiNaC::ex& x, const std::vector<GiNaC::realsymbol>& angles,
                       const std::vector<GiNaC::realsymbol>& groups = {});
GiNaC::ex simplifyTrig(const GiNaC::ex& x, const std::vector<GiNaC::realsymbol>& angles, const TrigForm& form);
// Which revolute joints of the model turn about their parent's (revolute) axis, for TrigForm::parallel:
// the tree rotation's z column is +-z (numeric rotations; a symbolic one is not parallel).
std::vector<std::pair<int, int>> parallelAxes(const ModelTpl<Sym>& model);

}  // namespace dyn
