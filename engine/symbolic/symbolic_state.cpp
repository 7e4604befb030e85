// The joint state as symbols, for the equations of motion in closed form.
#include "dynscope/symbolic/equations_of_motion.hpp"

namespace dyn {

SymbolicState symbolicState(int nv) {
  SymbolicState s;
  for (int i = 1; i <= nv; ++i) {
    const std::string k = std::to_string(i);
    s.q.emplace_back("q" + k, "q_{" + k + "}");
    s.qd.emplace_back("qd" + k, "\\dot{q}_{" + k + "}");
    s.qdd.emplace_back("qdd" + k, "\\ddot{q}_{" + k + "}");
  }
  return s;
}

static VecX<Sym> column(const std::vector<GiNaC::realsymbol>& x) {
  VecX<Sym> v(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) v[k] = Sym(x[k]);
  return v;
}
VecX<Sym> SymbolicState::qVec() const { return column(q); }
VecX<Sym> SymbolicState::qdVec() const { return column(qd); }
VecX<Sym> SymbolicState::qddVec() const { return column(qdd); }

}  // namespace dyn
