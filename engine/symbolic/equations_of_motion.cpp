// M(q) by CRBA, g(q) = ID(q, 0, 0) and C(q, qd) qd = ID(q, qd, 0) - g(q) by RNEA (Featherstone
// Part 2, eq. 37), on the symbolic scalar: the engine's own algorithms, not a second derivation.
#include "dynscope/symbolic/equations_of_motion.hpp"
#include <cmath>
#include <stdexcept>
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

ModelTpl<Sym> exactDecimalModel(const Model& model) {
  const Model m = withoutRoundingNoise(model);
  for (int i = 1; i <= m.N; ++i) {
    if (!m.I[i].Ibar.allFinite() || !m.I[i].h.allFinite() || !std::isfinite(m.I[i].m) || !m.Xtree[i].E.allFinite() ||
        !m.Xtree[i].r.allFinite())
      throw std::invalid_argument("body '" + m.bodyNames[i] + "' has a number that is not finite");
  }
  return m.cast<Sym>();
}

RawMassMatrixAndGravity massMatrixAndGravity(const ModelTpl<Sym>& model, const SymbolicState& state) {
  DataTpl<Sym> data(model);
  const VecX<Sym> q = state.qVec();
  return {crba(model, data, q), gravityVector(model, data, q)};
}

}  // namespace dyn
