// The textbook form of a trigonometric polynomial: every sine and cosine of an integer combination
// of the angles is written with z_k = exp(i q_k) (cos x = (Z + 1/Z)/2, sin x = (Z - 1/Z)/(2i), the
// Euler-de Moivre substitution), the result expanded into a Laurent polynomial in the z_k, and each
// pair of terms Z^n, Z^-n read back as cos(n.q), sin(n.q). That Fourier form is unique, so products
// become sines and cosines of sums and every identity such as cos^2 + sin^2 = 1 cancels by itself.
#include <algorithm>
#include <map>

#include "dynscope/symbolic/equations_of_motion.hpp"

namespace dyn {
namespace {

using GiNaC::ex;

struct ToExponentials : GiNaC::map_function {
  const std::vector<GiNaC::realsymbol>& angles;
  const std::vector<GiNaC::symbol>& z;
  ToExponentials(const std::vector<GiNaC::realsymbol>& a, const std::vector<GiNaC::symbol>& zz) : angles(a), z(zz) {}

  ex operator()(const ex& x) override {
    const bool isSin = is_ex_the_function(x, GiNaC::sin), isCos = is_ex_the_function(x, GiNaC::cos);
    if (!isSin && !isCos) return x.map(*this);
    const ex arg = x.op(0).expand();
    ex Z = 1, rest = arg;
    for (std::size_t k = 0; k < angles.size(); ++k) {
      const ex n = arg.coeff(angles[k], 1);
      if (!GiNaC::is_a<GiNaC::numeric>(n) || !GiNaC::ex_to<GiNaC::numeric>(n).is_integer()) return x.map(*this);
      Z *= GiNaC::pow(z[k], n);
      rest -= n * angles[k];
    }
    rest = rest.expand();
    for (const auto& q : angles)
      if (rest.has(q)) return x.map(*this);                          // not linear in the angles: left as it is
    const ex c = (Z + 1 / Z) / 2, s = (Z - 1 / Z) / (2 * GiNaC::I);  // cos(n.q), sin(n.q)
    // sin/cos(n.q + r) by the angle-sum formulas; r (a constant offset) stays in its own sin/cos.
    return isCos ? GiNaC::cos(rest) * c - GiNaC::sin(rest) * s : GiNaC::sin(rest) * c + GiNaC::cos(rest) * s;
  }
};

// factor(c) with its sums expanded: for an irreducible polynomial GiNaC may return a partly factored
// sum ((68 + 305 q3) a + b or 305 q3 a + 68 a + b) by its address-dependent term order; expanded,
// the same coefficient is the same expression every run.
ex factored(const ex& c) {
  const ex f = GiNaC::factor(c);
  if (GiNaC::is_a<GiNaC::add>(f)) return c;  // c is expanded
  if (!GiNaC::is_a<GiNaC::mul>(f)) return f;
  bool changed = false;
  GiNaC::exvector factors;
  for (const ex& x : f) {
    ex y = x;
    if (GiNaC::is_a<GiNaC::add>(x)) y = x.expand();
    if (GiNaC::is_a<GiNaC::power>(x) && GiNaC::is_a<GiNaC::add>(x.op(0))) y = GiNaC::pow(x.op(0).expand(), x.op(1));
    changed = changed || !y.is_equal(x);
    factors.push_back(y);
  }
  return changed ? ex(GiNaC::mul(factors)) : f;
}

}  // namespace

ex simplifyTrig(const ex& x, const std::vector<GiNaC::realsymbol>& angles,
                const std::vector<GiNaC::realsymbol>& groups) {
  std::vector<GiNaC::symbol> z;
  for (const auto& q : angles) z.emplace_back("z_" + q.get_name());
  ToExponentials toExp(angles, z);
  const ex laurent = toExp(x).expand();

  // The coefficient of each monomial z^n.
  std::map<std::vector<int>, ex> coefficient;
  GiNaC::exmap atOne;
  for (const auto& zk : z) atOne[zk] = 1;
  const auto add = [&](const ex& term) {
    std::vector<int> n(z.size());
    for (std::size_t k = 0; k < z.size(); ++k) n[k] = term.degree(z[k]);
    coefficient[n] += term.subs(atOne);
  };
  if (GiNaC::is_a<GiNaC::add>(laurent))
    for (const auto& term : laurent) add(term);
  else
    add(laurent);

  // Z^n and Z^-n together: c+ Z^n + c- Z^-n = (c+ + c-) cos(n.q) + i (c+ - c-) sin(n.q), n taken with
  // its first non-zero entry positive (cos and sin of one angle, not of its negative as well).
  ex out = 0;
  const auto finish = [&](const ex& coef, const ex& trig) {
    const ex c = coef.expand();
    if (c.is_zero()) return;
    out += (groups.empty() ? factored(c) : c) * trig;
  };
  for (const auto& [n, cPlus] : coefficient) {
    const auto first = std::find_if(n.begin(), n.end(), [](int k) { return k != 0; });
    if (first == n.end()) {
      finish(cPlus, 1);
      continue;
    }
    if (*first < 0) continue;  // taken with its positive partner
    std::vector<int> minus(n.size());
    ex angle = 0;
    for (std::size_t k = 0; k < n.size(); ++k) {
      minus[k] = -n[k];
      angle += n[k] * angles[k];
    }
    const auto it = coefficient.find(minus);
    const ex cMinus = it == coefficient.end() ? ex(0) : it->second;
    finish(cPlus + cMinus, GiNaC::cos(angle));
    finish(GiNaC::I * (cPlus - cMinus), GiNaC::sin(angle));
  }
  for (const auto& [n, cMinus] : coefficient) {  // Z^-n without a Z^n partner
    const auto first = std::find_if(n.begin(), n.end(), [](int k) { return k != 0; });
    if (first == n.end() || *first > 0) continue;
    std::vector<int> plus(n.size());
    for (std::size_t k = 0; k < n.size(); ++k) plus[k] = -n[k];
    if (coefficient.count(plus)) continue;
    ex angle = 0;
    for (std::size_t k = 0; k < n.size(); ++k) angle += plus[k] * angles[k];
    finish(cMinus, GiNaC::cos(angle));
    finish(-GiNaC::I * cMinus, GiNaC::sin(angle));
  }
  if (groups.empty()) return out;
  GiNaC::lst by;
  for (const auto& s : groups) by.append(s);
  return GiNaC::collect(out, by);
}

}  // namespace dyn
