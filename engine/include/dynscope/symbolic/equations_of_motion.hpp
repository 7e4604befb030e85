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

// A model whose parameters are symbols, with the values the table gives them (for evaluation).
struct SymbolicModel {
  ModelTpl<Sym> model;
  std::vector<GiNaC::realsymbol> parameters;  // m1, l1, d1, c1x.., I1xx.., g: those non-zero in the table
  GiNaC::lst values;                          // parameter == value, for subs()
  GiNaC::realsymbol parameter(const std::string& name) const;  // std::out_of_range when absent
  std::vector<GiNaC::realsymbol> masses() const;               // m1, m2, ...: the textbook's groups
};
// A standard-DH serial chain (docs/dh-format.md, no base or tool directive) with each row's a, d,
// mass, centre of mass and inertia about it as symbols where they are non-zero, and the magnitude
// of gravity as g. The twists alpha and the offsets theta stay numbers. The same body frames and
// tree transforms as buildModel(dhTableToDescription(table)).
SymbolicModel symbolicDhModel(const DhTable& table);

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

// M(q) by CRBA and g(q) by RNEA on the symbolic scalar, not simplified: equationsReport simplifies
// them entry by entry (with progress and cancel between entries). Instantiated here once, so that
// the report's unit does not compile the algorithms on Sym again.
struct RawMassMatrixAndGravity {
  MatX<Sym> M;
  VecX<Sym> g;
};
RawMassMatrixAndGravity massMatrixAndGravity(const ModelTpl<Sym>& model, const SymbolicState& state);

// The textbook form of an expression in the joint angles `angles`: products and powers of sines
// and cosines become sines and cosines of sums of angles (cos q1 cos q2 - sin q1 sin q2 ->
// cos(q1 + q2), cos^2 + sin^2 -> 1), and the result is collected by trigonometric term and
// `groups` (masses, say), each coefficient factored. Zero exactly when the expression is
// identically zero as a trigonometric polynomial in `angles`.
GiNaC::ex simplifyTrig(const GiNaC::ex& x, const std::vector<GiNaC::realsymbol>& angles,
                       const std::vector<GiNaC::realsymbol>& groups = {});

}  // namespace dyn
