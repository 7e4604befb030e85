// M(q) by CRBA, g(q) = ID(q, 0, 0) and C(q, qd) qd = ID(q, qd, 0) - g(q) by RNEA (Featherstone
// Part 2, eq. 37), on the symbolic scalar: the engine's own algorithms, not a second derivation.
#include "dynscope/symbolic/equations_of_motion.hpp"
#include "dynscope/algorithms/bias.hpp"
#include "dynscope/algorithms/crba.hpp"
#include "dynscope/model/data.hpp"

namespace dyn {

EquationsOfMotion equationsOfMotion(const ModelTpl<Sym>& model, const SymbolicState& state,
                                    const std::vector<GiNaC::realsymbol>& groups) {
  DataTpl<Sym> data(model);
  const VecX<Sym> q = state.qVec(), qd = state.qdVec(), qdd = state.qddVec();
  EquationsOfMotion eom;
  const TrigForm form{groups, parallelAxes(model)};  // masses; sums of angles along parallel axes
  const auto simplified = [&](const Sym& x) { return Sym(simplifyTrig(x.e, state.q, form)); };
  eom.M = crba(model, data, q).unaryExpr(simplified);
  eom.g = gravityVector(model, data, q).unaryExpr(simplified);
  const VecX<Sym> nle = nonLinearEffects(model, data, q, qd);
  eom.c = (nle - eom.g).unaryExpr(simplified);
  eom.tau = (eom.M * qdd + eom.c + eom.g).unaryExpr(simplified);
  return eom;
}

}  // namespace dyn
