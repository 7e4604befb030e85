// The textbook form of a trigonometric polynomial in the joint angles, the shortest of three canonical
// forms (docs/symbolic.md, "Textbook forms"):
//  - the product form: a polynomial in C_k = cos q_k and S_k = sin q_k, reduced modulo C_k^2 + S_k^2 = 1
//    by C^2 -> 1 - S^2 or S^2 -> 1 - C^2, per angle whichever leaves fewer terms (the Stanford arm's
//    sin^2 q2 where a Fourier series writes cos 2 q2);
//  - the same in absolute angles u_k = u_p +- q_k along parallel axes (cos(q2 + q3) as one atom, c23);
//  - the Fourier form: z_k = exp(i q_k) substituted (cos x = (Z + 1/Z)/2, sin x = (Z - 1/Z)/(2i), the
//    Euler-de Moivre substitution), the Laurent polynomial's pairs Z^n, Z^-n read back as cos(n.q),
//    sin(n.q): products become sines and cosines of sums (the planar arm's cos q2, cos(q1 + q2)).
// Each is unique for a given expression, so an expression is identically zero exactly when its form is
// 0. The entry is then collected by groups (masses) and trigonometric term, common factors pulled out,
// and squares completed where that shortens a coefficient (l1^2 + 2 l1 c1x + c1x^2 -> (l1 + c1x)^2).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "dynscope/symbolic/equations_of_motion.hpp"

namespace dyn {
namespace {

using GiNaC::ex;
using Terms = std::map<ex, GiNaC::exvector, GiNaC::ex_is_less>;  // trigonometric monomial -> its coefficient's terms

ex sum(const GiNaC::exvector& terms) { return ex(GiNaC::add(terms)); }

long termCount(const ex& x) {
  if (GiNaC::is_a<GiNaC::add>(x)) return long(x.nops());
  return x.is_zero() ? 0 : 1;
}

// sin/cos(n.q + r) with integer n: n and r, or false when the argument is not of that form.
bool integerCombination(const ex& arg, const std::vector<GiNaC::realsymbol>& angles, std::vector<int>& n, ex& rest) {
  const ex a = arg.expand();
  rest = a;
  n.assign(angles.size(), 0);
  for (std::size_t k = 0; k < angles.size(); ++k) {
    const ex c = a.coeff(angles[k], 1);
    if (!GiNaC::is_a<GiNaC::numeric>(c) || !GiNaC::ex_to<GiNaC::numeric>(c).is_integer()) return false;
    n[k] = GiNaC::ex_to<GiNaC::numeric>(c).to_int();
    rest -= c * angles[k];
  }
  rest = rest.expand();
  for (const auto& q : angles)
    if (rest.has(q)) return false;  // not linear in the angles: left as it is
  return true;
}

// c^d -> c^(d mod 2) (1 - s^2)^(d div 2) in every term of the expanded P (c^2 + s^2 = 1).
ex reduce(const ex& P, const ex& c, const ex& s) {
  GiNaC::exvector out;
  const auto one = [&](const ex& t) {
    const int d = t.degree(c);
    out.push_back(d < 2 ? t : t.coeff(c, d) * GiNaC::pow(c, d % 2) * GiNaC::pow(1 - s * s, d / 2));
  };
  if (GiNaC::is_a<GiNaC::add>(P))
    for (const ex& t : P) one(t);
  else
    one(P);
  return ex(GiNaC::add(out)).expand();
}

// x as a polynomial in C_k = cos q_k, S_k = sin q_k reduced by C_k^2 -> 1 - S_k^2, built bottom-up (each product
// reduced as it is formed, so that the terms that C^2 + S^2 = 1 cancels never pile up); sin/cos(n.q + r) from
// exp(i n.q) = prod_k (C_k + i S_k)^n_k. Shared subexpressions are converted once.
struct ProductExpander {
  const std::vector<GiNaC::realsymbol>& angles;
  const std::vector<GiNaC::realsymbol>&C, &S;
  std::map<ex, ex, GiNaC::ex_is_less> done;

  ex reduced(const ex& P) {
    ex out = P.expand();
    for (std::size_t k = 0; k < C.size(); ++k)
      if (out.has(C[k])) out = reduce(out, C[k], S[k]);
    return out;
  }
  ex trig(const ex& x, bool isCos) {
    std::vector<int> n;
    ex rest;
    if (!integerCombination(x.op(0), angles, n, rest)) return x;
    if (std::all_of(n.begin(), n.end(), [](int k) { return k == 0; })) return x;
    ex E = 1;
    for (std::size_t k = 0; k < angles.size(); ++k)
      for (int j = 0; j < std::abs(n[k]); ++j) E = reduced(E * (C[k] + (n[k] > 0 ? 1 : -1) * GiNaC::I * S[k]));
    const ex c = E.real_part(), s = E.imag_part();  // cos(n.q), sin(n.q)
    return isCos ? GiNaC::cos(rest) * c - GiNaC::sin(rest) * s : GiNaC::sin(rest) * c + GiNaC::cos(rest) * s;
  }
  ex operator()(const ex& x) {
    if (GiNaC::is_a<GiNaC::symbol>(x) || GiNaC::is_a<GiNaC::numeric>(x)) return x;
    const auto it = done.find(x);
    if (it != done.end()) return it->second;
    ex out = x;
    if (is_ex_the_function(x, GiNaC::sin) || is_ex_the_function(x, GiNaC::cos)) {
      out = trig(x, is_ex_the_function(x, GiNaC::cos));
    } else if (GiNaC::is_a<GiNaC::add>(x)) {
      GiNaC::exvector terms;
      for (const ex& t : x) terms.push_back((*this)(t));
      out = ex(GiNaC::add(terms)).expand();
    } else if (GiNaC::is_a<GiNaC::mul>(x)) {
      out = 1;
      for (const ex& f : x) out = reduced(out * (*this)(f));
    } else if (GiNaC::is_a<GiNaC::power>(x) && GiNaC::is_a<GiNaC::numeric>(x.op(1)) &&
               GiNaC::ex_to<GiNaC::numeric>(x.op(1)).is_pos_integer()) {
      const ex base = (*this)(x.op(0));
      out = 1;
      for (int j = GiNaC::ex_to<GiNaC::numeric>(x.op(1)).to_int(); j > 0; --j) out = reduced(out * base);
    } else if (x.nops() > 0) {  // a quotient, a root, another function: its operands converted, itself kept
      struct Operands : GiNaC::map_function {
        ProductExpander& self;
        explicit Operands(ProductExpander& e) : self(e) {}
        ex operator()(const ex& y) override { return self(y); }
      } operands(*this);
      out = x.map(operands);
    }
    done.emplace(x, out);
    return out;
  }
};

// P reduced by C_k^2 -> 1 - S_k^2, then per angle switched to S_k^2 -> 1 - C_k^2 where that leaves fewer terms.
ex reduceShortest(ex P, const std::vector<GiNaC::realsymbol>& C, const std::vector<GiNaC::realsymbol>& S) {
  std::vector<std::size_t> used;
  for (std::size_t k = 0; k < C.size(); ++k)
    if (P.has(C[k]) || P.has(S[k])) used.push_back(k);
  for (std::size_t k : used) P = reduce(P, C[k], S[k]);
  for (std::size_t k : used) {
    const ex Q = reduce(P, S[k], C[k]);
    if (termCount(Q) < termCount(P)) P = Q;
  }
  return P;
}

// The terms of the expanded P by their monomial in `atoms` (powers of the C_k, S_k).
Terms splitByAtoms(const ex& P, const std::set<ex, GiNaC::ex_is_less>& atoms) {
  const auto isAtom = [&](const ex& f) {
    return atoms.count(f) || (GiNaC::is_a<GiNaC::power>(f) && atoms.count(f.op(0)));
  };
  Terms terms;
  const auto one = [&](const ex& t) {
    ex key = 1, coef = 1;
    if (GiNaC::is_a<GiNaC::mul>(t)) {
      for (const ex& f : t) (isAtom(f) ? key : coef) *= f;
    } else {
      (isAtom(t) ? key : coef) = t;
    }
    terms[key].push_back(coef);
  };
  if (GiNaC::is_a<GiNaC::add>(P))
    for (const ex& t : P) one(t);
  else if (!P.is_zero())
    one(P);
  return terms;
}

// The symbols of x.
void symbolsOf(const ex& x, std::set<ex, GiNaC::ex_is_less>& out) {
  if (GiNaC::is_a<GiNaC::symbol>(x)) out.insert(x);
  for (std::size_t k = 0; k < x.nops(); ++k) symbolsOf(x.op(k), out);
}

// Completes squares where that shortens the polynomial A: p^2 + 2 p r + r^2 + ... -> w^2 + ... with w = p +- r,
// tried for the pairs of symbols whose squares and product all occur; back maps each w to its sum.
ex completeSquares(ex A, GiNaC::exmap& back) {
  for (int round = 0; round < 8; ++round) {
    std::set<ex, GiNaC::ex_is_less> symbolSet;
    symbolsOf(A, symbolSet);
    std::vector<ex> symbols(symbolSet.begin(), symbolSet.end());
    std::sort(symbols.begin(), symbols.end(), [](const ex& a, const ex& b) {  // by name: the same every run
      return GiNaC::ex_to<GiNaC::symbol>(a).get_name() < GiNaC::ex_to<GiNaC::symbol>(b).get_name();
    });
    bool shorter = false;
    for (std::size_t i = 0; i < symbols.size() && !shorter; ++i) {
      const ex& p = symbols[i];
      if (A.degree(p) < 2) continue;
      for (std::size_t j = i + 1; j < symbols.size() && !shorter; ++j) {
        const ex& r = symbols[j];
        if (A.degree(r) < 2 || A.coeff(p, 1).coeff(r, 1).is_zero()) continue;
        for (int sign : {1, -1}) {
          const GiNaC::symbol w("~w" + std::to_string(back.size()));  // sorts after the parameters
          const ex B = A.subs(r == sign * (w - p)).expand();          // w = p + sign r
          if (termCount(B) < termCount(A)) {
            A = B;
            back[w] = p + sign * r;
            shorter = true;
            break;
          }
        }
      }
    }
    if (!shorter) break;
  }
  return A;
}

// +1 or -1: the sign of the term of the expanded A whose monomial (its symbols' names and degrees) comes first.
int leadingSign(const ex& A) {
  std::string firstKey;
  int sign = 1;
  GiNaC::exvector terms;
  if (GiNaC::is_a<GiNaC::add>(A))
    terms.assign(A.begin(), A.end());
  else
    terms.push_back(A);  // a single term
  for (const ex& t : terms) {
    std::set<ex, GiNaC::ex_is_less> symbols;
    symbolsOf(t, symbols);
    std::vector<std::string> parts;
    for (const ex& x : symbols)
      parts.push_back(GiNaC::ex_to<GiNaC::symbol>(x).get_name() + "^" + std::to_string(t.degree(x)));
    std::sort(parts.begin(), parts.end());
    std::string key;
    for (const auto& part : parts) key += part + "*";
    GiNaC::numeric c = 1;
    if (GiNaC::is_a<GiNaC::mul>(t)) {
      for (const ex& f : t)
        if (GiNaC::is_a<GiNaC::numeric>(f)) c *= GiNaC::ex_to<GiNaC::numeric>(f);
    } else if (GiNaC::is_a<GiNaC::numeric>(t)) {
      c = GiNaC::ex_to<GiNaC::numeric>(t);
    }
    if (firstKey.empty() || key < firstKey) firstKey = key, sign = c.is_negative() ? -1 : 1;
  }
  return sign;
}

// GiNaC's factorization written the same way every run: it orders variables by hash values, which depend on
// memory addresses, so each factor that is a sum is multiplied out and its sign fixed by leadingSign.
ex canonicalFactors(const ex& f) {
  GiNaC::exvector factors;
  if (GiNaC::is_a<GiNaC::mul>(f))
    factors.assign(f.begin(), f.end());
  else
    factors.push_back(f);
  ex out = 1;
  for (const ex& g : factors) {
    const bool isPower = GiNaC::is_a<GiNaC::power>(g) && GiNaC::is_a<GiNaC::add>(g.op(0));
    const ex base = isPower ? g.op(0) : g;
    if (!GiNaC::is_a<GiNaC::add>(base)) {
      out *= g;
      continue;
    }
    const ex expanded = base.expand();
    const int sign = GiNaC::is_a<GiNaC::add>(expanded) ? leadingSign(expanded) : 1;
    const ex exponent = isPower ? g.op(1) : ex(1);
    out *= GiNaC::pow(sign * expanded, exponent) * GiNaC::pow(sign, exponent);
  }
  return out;
}

// (c3y - d3)^2 -> c3y^2 - 2 c3y d3 + d3^2: a power of a sum whose terms' signs differ is multiplied out. GiNaC
// evaluates (a + b)^n to make its first term in hash order (memory addresses) positive, so such a square would
// print as (c3y - d3)^2 in one run and (-c3y + d3)^2 in another; a sum of like signs is the same every run.
struct MixedPowersExpanded : GiNaC::map_function {
  static bool negative(const ex& t) {
    const ex c = GiNaC::is_a<GiNaC::mul>(t) ? t.op(t.nops() - 1) : t;  // a mul's number is its last operand
    return GiNaC::is_a<GiNaC::numeric>(c) && GiNaC::ex_to<GiNaC::numeric>(c).is_negative();
  }
  ex operator()(const ex& x) override {
    const ex y = x.map(*this);
    if (!GiNaC::is_a<GiNaC::power>(y) || !GiNaC::is_a<GiNaC::add>(y.op(0)) || !y.op(1).info(GiNaC::info_flags::posint))
      return y;
    const ex& base = y.op(0);
    const bool mixed =
        std::any_of(base.begin(), base.end(), negative) && !std::all_of(base.begin(), base.end(), negative);
    return mixed ? y.expand() : y;
  }
};

// A coefficient as a textbook writes it: squares completed, then factored.
ex polish(const ex& P) {
  const ex A = P.expand();
  if (GiNaC::is_a<GiNaC::numeric>(A) || GiNaC::is_a<GiNaC::symbol>(A)) return A;
  GiNaC::exmap back;
  ex out = canonicalFactors(GiNaC::factor(completeSquares(A, back)));
  for (std::size_t k = 0; k <= back.size() && !back.empty(); ++k) out = out.subs(back);  // nested sums
  MixedPowersExpanded mixedPowers;
  return mixedPowers(out);
}

// sum_key coef * key with the coefficients' common factor (not a number) pulled out.
ex sumWithCommonFactor(const Terms& terms) {
  std::vector<std::pair<ex, ex>> kept;
  for (const auto& [key, coef] : terms) {
    const ex c = sum(coef).expand();
    if (!c.is_zero()) kept.emplace_back(key, c);
  }
  if (kept.empty()) return 0;
  if (kept.size() == 1) return polish(kept[0].second) * kept[0].first;
  ex common = kept[0].second;
  for (std::size_t k = 1; k < kept.size() && !GiNaC::is_a<GiNaC::numeric>(common); ++k)
    common = GiNaC::gcd(common, kept[k].second);
  common = common.expand();  // its sign fixed (GiNaC's gcd may return either), as leadingSign does
  if (!GiNaC::is_a<GiNaC::numeric>(common)) common = leadingSign(common) * common;
  std::vector<ex> quotients;
  for (const auto& [key, coef] : kept) {
    ex quotient;
    if (GiNaC::is_a<GiNaC::numeric>(common) || !GiNaC::divide(coef, common, quotient)) break;
    quotients.push_back(quotient);
  }
  GiNaC::exvector inner;
  const bool pulled = quotients.size() == kept.size();
  for (std::size_t k = 0; k < kept.size(); ++k)
    inner.push_back(polish(pulled ? quotients[k] : kept[k].second) * kept[k].first);
  return pulled ? polish(common) * sum(inner) : sum(inner);
}

// The terms collected by the first group symbol each contains (a mass), then by trigonometric term.
ex present(const Terms& terms, const std::vector<GiNaC::realsymbol>& groups) {
  std::vector<Terms> byGroup(groups.size() + 1);
  for (const auto& [trig, coef] : terms) {
    const ex c = sum(coef).expand();
    const ex& key = trig;
    const auto one = [&](const ex& t) {
      for (std::size_t g = 0; g < groups.size(); ++g) {
        const int d = t.degree(groups[g]);
        if (d > 0) {
          byGroup[g][key].push_back(t.coeff(groups[g], d) * GiNaC::pow(groups[g], d - 1));
          return;
        }
      }
      byGroup[groups.size()][key].push_back(t);
    };
    if (GiNaC::is_a<GiNaC::add>(c))
      for (const ex& t : c) one(t);
    else if (!c.is_zero())
      one(c);
  }
  ex out = 0;
  for (std::size_t g = 0; g <= groups.size(); ++g)
    out += (g < groups.size() ? ex(groups[g]) : ex(1)) * sumWithCommonFactor(byGroup[g]);
  return out;
}

}  // namespace

std::vector<std::pair<int, int>> parallelAxes(const ModelTpl<Sym>& model) {
  std::vector<std::pair<int, int>> out(model.nv, {-1, 1});
  // A number, or NaN when the entry is symbolic.
  const auto value = [](const Sym& x) {
    try {
      return Sym::toDouble(x.e);
    } catch (const SymbolicBranch&) {
      return std::nan("");
    }
  };
  const auto alongZ = [&](const JointModel<Sym>& J) {
    return J.type == JointType::Revolute && value(J.axis.x()) == 0 && value(J.axis.y()) == 0 && value(J.axis.z()) == 1;
  };
  for (int i = 1; i <= model.N; ++i) {
    const int p = model.parent[i];
    if (p == 0 || !alongZ(model.joints[i]) || !alongZ(model.joints[p])) continue;
    const auto& E = model.Xtree[i].E;  // row 2: the child's z axis in parent coordinates
    const double zx = value(E(2, 0)), zy = value(E(2, 1)), zz = value(E(2, 2));
    if (std::abs(zx) < 1e-12 && std::abs(zy) < 1e-12 && std::abs(std::abs(zz) - 1) < 1e-12)
      out[model.joints[i].idx_v] = {model.joints[p].idx_v, zz > 0 ? 1 : -1};
  }
  return out;
}

ex simplifyTrig(const ex& x, const std::vector<GiNaC::realsymbol>& angles,
                const std::vector<GiNaC::realsymbol>& groups) {
  return simplifyTrig(x, angles, TrigForm{groups, {}});
}

ex simplifyTrig(const ex& x, const std::vector<GiNaC::realsymbol>& angles, const TrigForm& form) {
  // Product form in the joint angles: C_k = cos q_k, S_k = sin q_k.
  std::vector<GiNaC::realsymbol> C, S, Cu, Su;
  for (const auto& q : angles) {
    C.emplace_back("C_" + q.get_name()), S.emplace_back("S_" + q.get_name());
    Cu.emplace_back("Cu_" + q.get_name()), Su.emplace_back("Su_" + q.get_name());
  }
  ProductExpander toProducts{angles, C, S, {}};
  const ex Pq = reduceShortest(toProducts(x), C, S);

  // Fourier form: the coefficient of each monomial z^n of the Laurent polynomial, z_k = exp(i q_k).
  std::vector<GiNaC::symbol> z;
  GiNaC::exmap toZ;
  for (std::size_t k = 0; k < angles.size(); ++k) {
    z.emplace_back("z_" + angles[k].get_name());
    toZ[C[k]] = (z[k] + 1 / z[k]) / 2, toZ[S[k]] = (z[k] - 1 / z[k]) / (2 * GiNaC::I);
  }
  const ex laurent = Pq.subs(toZ).expand();
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
  Terms fourier;
  long fourierTerms = 0;
  bool multipleAngle = false;
  const auto finish = [&](const ex& coef, const ex& trig, const std::vector<int>& n) {
    const ex c = coef.expand();
    if (c.is_zero()) return;
    fourier[trig].push_back(c);
    fourierTerms += termCount(c);
    multipleAngle = multipleAngle || std::any_of(n.begin(), n.end(), [](int k) { return std::abs(k) > 1; });
  };
  for (const auto& [n, cPlus] : coefficient) {
    const auto first = std::find_if(n.begin(), n.end(), [](int k) { return k != 0; });
    if (first == n.end()) {
      finish(cPlus, 1, n);
      continue;
    }
    if (*first < 0) {
      std::vector<int> plus(n.size());
      for (std::size_t k = 0; k < n.size(); ++k) plus[k] = -n[k];
      if (coefficient.count(plus)) continue;  // taken with its positive partner
      ex angle = 0;
      for (std::size_t k = 0; k < n.size(); ++k) angle += plus[k] * angles[k];
      finish(cPlus, GiNaC::cos(angle), n);  // Z^-n without a Z^n partner
      finish(-GiNaC::I * cPlus, GiNaC::sin(angle), n);
      continue;
    }
    std::vector<int> minus(n.size());
    ex angle = 0;
    for (std::size_t k = 0; k < n.size(); ++k) {
      minus[k] = -n[k];
      angle += n[k] * angles[k];
    }
    const auto it = coefficient.find(minus);
    const ex cMinus = it == coefficient.end() ? ex(0) : it->second;
    finish(cPlus + cMinus, GiNaC::cos(angle), n);
    finish(GiNaC::I * (cPlus - cMinus), GiNaC::sin(angle), n);
  }

  // ... and in the absolute angles u_k = u_p + s q_k along parallel axes (cos(q1 + q2) as c12):
  // cos q_k = Cu_k Cu_p + Su_k Su_p, sin q_k = s (Su_k Cu_p - Cu_k Su_p).
  std::vector<ex> u(angles.size());
  GiNaC::exmap toAbsolute, qTrig, uTrig;
  bool anyParallel = false;
  for (std::size_t k = 0; k < angles.size(); ++k) {
    const bool along = k < form.parallel.size() && form.parallel[k].first >= 0;
    u[k] = along ? u[form.parallel[k].first] + form.parallel[k].second * angles[k] : ex(angles[k]);
    const int p = along ? form.parallel[k].first : -1, sign = along ? form.parallel[k].second : 1;
    toAbsolute[C[k]] = along ? Cu[k] * Cu[p] + Su[k] * Su[p] : ex(Cu[k]);
    toAbsolute[S[k]] = along ? sign * (Su[k] * Cu[p] - Cu[k] * Su[p]) : ex(Su[k]);
    qTrig[C[k]] = GiNaC::cos(angles[k]), qTrig[S[k]] = GiNaC::sin(angles[k]);
    uTrig[Cu[k]] = GiNaC::cos(u[k]), uTrig[Su[k]] = GiNaC::sin(u[k]);
    anyParallel = anyParallel || along;
  }
  const ex Pu = anyParallel ? reduceShortest(Pq.subs(toAbsolute).expand(), Cu, Su) : Pq;

  // The Fourier form when it has no multiple angle and no more terms, else the shorter product form.
  const long nq = termCount(Pq), nu = termCount(Pu);
  if (!multipleAngle && fourierTerms <= std::min(nq, nu)) return present(fourier, form.groups);
  const bool absolute = nu < nq;
  std::set<ex, GiNaC::ex_is_less> atoms;
  for (std::size_t k = 0; k < angles.size(); ++k) {
    atoms.insert(absolute ? Cu[k] : C[k]);
    atoms.insert(absolute ? Su[k] : S[k]);
  }
  // Each parameter-and-velocity monomial with its own choice per angle: I2xx sin^2 q2 + I2zz cos^2 q2, not
  // (I2xx - I2zz) sin^2 q2 + I2zz (the same value; only the zero test needs the one canonical form above).
  const std::vector<GiNaC::realsymbol>&Ca = absolute ? Cu : C, &Sa = absolute ? Su : S;
  std::map<ex, GiNaC::exvector, GiNaC::ex_is_less> byMonomial;
  for (const auto& [trig, coef] : splitByAtoms(absolute ? Pu : Pq, atoms))
    for (const ex& c : coef) {
      const ex numeric = GiNaC::is_a<GiNaC::mul>(c) ? c.op(c.nops() - 1) : c;  // a mul's number is its last operand
      const bool hasNumber = GiNaC::is_a<GiNaC::numeric>(numeric);
      byMonomial[hasNumber ? c / numeric : c].push_back(hasNumber ? numeric * trig : trig);
    }
  GiNaC::exvector perMonomial;
  for (const auto& [monomial, trigs] : byMonomial) {  // (a single term has nothing to choose)
    const ex t = sum(trigs).expand();
    perMonomial.push_back(monomial * (termCount(t) > 1 ? reduceShortest(t, Ca, Sa) : t));
  }
  return present(splitByAtoms(sum(perMonomial).expand(), atoms), form.groups).subs(absolute ? uTrig : qTrig);
}

}  // namespace dyn
