// The equations of motion as a report of strings (issue 40; docs/symbolic.md): M(q) by CRBA
// (Featherstone Part 2, eqs. 44-48) and g(q) by RNEA (Part 2, eq. 37) on the symbolic scalar, each
// entry simplified (simplifyTrig), the Christoffel symbols of the first kind from M and C(q, qd) qd
// from them (Spong, Hutchinson and Vidyasagar 2006, chapter 7: the Christoffel symbols of the first
// kind and C(q, qd) qd as their sum), and the deterministic
// printer that writes them as text, LaTeX and JSON. Code generation is in code_generation.cpp.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "dynscope/io/generated_models.hpp"
#include "dynscope/io/utf8.hpp"
#include "equations_internal.hpp"

namespace dyn {
namespace symbolic_detail {
namespace {

using GiNaC::ex;

bool isNegativeNumber(const ex& x) {
  return GiNaC::is_a<GiNaC::numeric>(x) && GiNaC::ex_to<GiNaC::numeric>(x).is_negative();
}

bool isNumber(const ex& x) { return GiNaC::is_a<GiNaC::numeric>(x); }

Printed parenthesized(const Printed& p) { return {"(" + p.text + ")", "\\left(" + p.tex + "\\right)"}; }

std::string ginacText(const ex& x, bool tex) {
  std::ostringstream out;
  if (tex) out << GiNaC::latex;
  out << x;
  return out.str();
}

// The sort key of a term: its text without sign and leading number.
std::string termKey(std::string s) {
  s.erase(0, s.find_first_not_of("- "));
  const std::size_t k = s.find_first_not_of("-+.0123456789/*() e");
  return k == std::string::npos ? "~" + s : s.substr(k);
}

int factorRank(const ex& x) {
  if (GiNaC::is_a<GiNaC::numeric>(x)) return 0;
  if (GiNaC::is_a<GiNaC::symbol>(x)) return 1;
  if (GiNaC::is_a<GiNaC::power>(x)) return GiNaC::is_a<GiNaC::symbol>(x.op(0)) ? 1 : 3;
  if (GiNaC::is_a<GiNaC::function>(x)) return 2;
  return 3;
}

struct Printer {
  bool decimals = false;

  Printed number(const GiNaC::numeric& x) const {
    if (x.is_integer() || !decimals) return {ginacText(x, false), ginacText(x, true)};
    const std::string s = shortestDecimal(x.to_double());
    return {s, s};
  }

  // A factor of a product or the base of a power: sums, products and negative numbers in parentheses.
  Printed factor(const ex& x) const {
    const bool wrap = GiNaC::is_a<GiNaC::add>(x) || GiNaC::is_a<GiNaC::mul>(x) || isNegativeNumber(x) ||
                      (isNumber(x) && !GiNaC::ex_to<GiNaC::numeric>(x).is_integer() && !decimals);
    return wrap ? parenthesized(print(x)) : print(x);
  }

  // Numeric parameters: a number times a sum is multiplied out (factoring would pull out the
  // rational content of the doubles, 1e-103 times a 90-digit integer).
  bool expandsOut(const ex& x) const {
    return decimals && GiNaC::is_a<GiNaC::mul>(x) &&
           std::any_of(x.begin(), x.end(), [](const ex& f) { return GiNaC::is_a<GiNaC::add>(f); }) &&
           std::any_of(x.begin(), x.end(),
                       [](const ex& f) { return isNumber(f) && !GiNaC::ex_to<GiNaC::numeric>(f).is_integer(); });
  }

  std::vector<std::pair<ex, Printed>> terms(ex x) const {
    if (expandsOut(x)) x = x.expand();
    std::vector<std::pair<ex, Printed>> out;
    if (!GiNaC::is_a<GiNaC::add>(x)) {
      out.emplace_back(x, print(x));
      return out;
    }
    for (const ex& t : x) out.emplace_back(t, print(t));
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      const std::string ka = termKey(a.second.text), kb = termKey(b.second.text);
      return ka != kb ? ka < kb : a.second.text < b.second.text;
    });
    return out;
  }

  Printed print(const ex& x) const {
    if (GiNaC::is_a<GiNaC::add>(x) || expandsOut(x)) {
      std::vector<Printed> p;
      for (auto& t : terms(x)) p.push_back(std::move(t.second));
      return joinTerms(p);
    }
    if (GiNaC::is_a<GiNaC::mul>(x)) {
      GiNaC::numeric coefficient = 1;
      std::vector<std::pair<int, Printed>> factors;
      for (const ex& f : x) {
        if (isNumber(f)) {
          coefficient *= GiNaC::ex_to<GiNaC::numeric>(f);
        } else if (GiNaC::is_a<GiNaC::add>(f) && print(f).text.starts_with("-")) {
          // One sign for -a (b - c) and a (c - b), which factoring gives by GiNaC's order: the sum's
          // first term positive.
          coefficient = -coefficient;
          factors.emplace_back(factorRank(f), factor(-f));
        } else {
          factors.emplace_back(factorRank(f), factor(f));
        }
      }
      std::sort(factors.begin(), factors.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.text < b.second.text;
      });
      Printed s;
      if (coefficient.is_negative()) s = {"-", "-"}, coefficient = -coefficient;
      bool first = true;
      if (coefficient != 1) {
        const Printed c = coefficient.is_integer() || decimals ? number(coefficient) : factor(coefficient);
        s.text += c.text;
        // TeX: a fraction needs no parentheses before its factors (\tfrac{1}{2} I_{2xx}, as printed).
        s.tex += coefficient.is_integer() || decimals ? c.tex
                                                      : "\\tfrac{" + ginacText(coefficient.numer(), true) + "}{" +
                                                            ginacText(coefficient.denom(), true) + "}";
        first = false;
      }
      for (const auto& f : factors) {
        s.text += (first ? "" : "*") + f.second.text;
        s.tex += (first ? "" : " ") + f.second.tex;
        first = false;
      }
      return s;
    }
    if (GiNaC::is_a<GiNaC::power>(x)) {
      const Printed base = factor(x.op(0)), e = print(x.op(1));
      const bool plain = isNumber(x.op(1)) && GiNaC::ex_to<GiNaC::numeric>(x.op(1)).is_pos_integer();
      // TeX: sin^2 q as a textbook sets it, \sin^{2}\left(q_{2}\right), not sin(q2)^2.
      if (plain && GiNaC::is_a<GiNaC::function>(x.op(0))) {
        const std::string name = GiNaC::ex_to<GiNaC::function>(x.op(0)).get_name();
        const std::string prefix = "\\" + name;
        if ((name == "sin" || name == "cos" || name == "tan") && base.tex.rfind(prefix, 0) == 0)
          return {base.text + "^" + e.text, prefix + "^{" + e.tex + "}" + base.tex.substr(prefix.size())};
      }
      return {base.text + "^" + (plain ? e.text : "(" + e.text + ")"), base.tex + "^{" + e.tex + "}"};
    }
    if (GiNaC::is_a<GiNaC::function>(x)) {
      const std::string name = GiNaC::ex_to<GiNaC::function>(x).get_name();
      Printed args;
      for (const ex& a : x) {
        const Printed p = print(a);
        args.text += (args.text.empty() ? "" : ",") + p.text;
        args.tex += (args.tex.empty() ? "" : ",") + p.tex;
      }
      const bool known = name == "sin" || name == "cos" || name == "tan" || name == "exp" || name == "log";
      return {name + "(" + args.text + ")",
              (known ? "\\" + name : "\\operatorname{" + name + "}") + "\\left(" + args.tex + "\\right)"};
    }
    if (isNumber(x)) return number(GiNaC::ex_to<GiNaC::numeric>(x));
    return {ginacText(x, false), ginacText(x, true)};  // symbols
  }
};

}  // namespace

std::string shortestDecimal(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, ec == std::errc() ? end : buf);
}

Printed printExpression(const ex& x, bool decimals) { return Printer{decimals}.print(x); }

std::vector<std::pair<ex, Printed>> printTerms(const ex& x, bool decimals) { return Printer{decimals}.terms(x); }

Printed joinTerms(const std::vector<Printed>& terms) {
  Printed s;
  for (const Printed& t : terms) {
    if (s.text.empty()) {
      s = t;
      continue;
    }
    s.text += t.text.starts_with("-") ? t.text : "+" + t.text;
    s.tex += t.tex.starts_with("-") ? " - " + t.tex.substr(1) : " + " + t.tex;
  }
  return s;
}

}  // namespace symbolic_detail

namespace {

using GiNaC::ex;
using symbolic_detail::Printed;
using symbolic_detail::shortestDecimal;

// The model's joints must be revolute or prismatic, in a tree without loops.
void requireSupported(const Model& m) {
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[i].type != JointType::Revolute && m.joints[i].type != JointType::Prismatic)
      throw EquationsUnsupported("joint '" + m.jointNames[i] + "' is " + jointTypeName(m.joints[i].type) +
                                 (m.floatingBase ? " (--floating-base)" : "") +
                                 "; the equations of motion are written for revolute and prismatic joints only");
  if (m.hasLoops())
    throw EquationsUnsupported(m.name + " has closed loops; the equations are written for open chains and trees only");
  if (m.nv == 0) throw EquationsUnsupported(m.name + " has no joints to write equations for");
}

// The symbolic model: a standard-DH table's parameters as symbols (symbolicDhModel), or the loaded
// model's numbers (model.cast<Sym>()).
struct Problem {
  ModelTpl<Sym> model;
  std::vector<GiNaC::realsymbol> parameters, groups;
  GiNaC::exmap values;
  std::vector<EquationSymbol> symbols;
};

// The parameters as symbols: a standard-DH table's (symbolicDhModel: l_i, d_i, c_i in DH frame i) when
// given, else the loaded model's own (symbolicModel: p_i, c_i in link i's frame; a URDF, an MJCF).
Problem symbolicProblem(const Model& model, const DhTable* table) {
  SymbolicModel sm;
  if (table) {
    if (table->convention != DhConvention::Standard)
      throw EquationsUnsupported("symbolic parameters are read from a standard-DH table; this one is modified DH");
    if (table->base) throw EquationsUnsupported("symbolic parameters: the table has a base directive");
    if (table->tool) throw EquationsUnsupported("symbolic parameters: the table has a tool directive");
    if (!table->loops.empty()) throw EquationsUnsupported("symbolic parameters: the table has closed loops");
    sm = symbolicDhModel(*table);
  } else {
    try {
      sm = symbolicModel(model);
    } catch (const std::invalid_argument& e) {
      throw EquationsUnsupported(e.what());
    }
  }
  Problem p{sm.model, sm.parameters, sm.masses(), {}, {}};
  for (std::size_t k = 0; k < sm.parameters.size(); ++k) {
    const auto& x = sm.parameters[k];
    p.values[x] = sm.values.op(k).op(1);
    EquationSymbol s;
    s.name = x.get_name();
    s.tex = symbolic_detail::printExpression(x, false).tex;
    s.meaning = sm.meaning(s.name);
    s.value = Sym::toDouble(sm.values.op(k).op(1));
    p.symbols.push_back(std::move(s));
  }
  return p;
}

// The model's numbers as exact decimals (exactDecimalModel; the cast is compiled there once).
Problem numericProblem(const Model& model) {
  try {
    return Problem{exactDecimalModel(model), {}, {}, {}, {}};
  } catch (const std::invalid_argument& e) {
    throw EquationsUnsupported(e.what());
  }
}

// Reports progress and honours the cancel flag between steps.
struct Steps {
  const EquationsRequest& request;
  int done = 0, total = 0;
  void next(const std::string& stage) {
    if (request.cancel && request.cancel->load()) throw EquationsCancelled();
    if (request.progress) request.progress(done, total, stage);
    ++done;
  }
};

// "12", or "1,2" when separated (more than nine joints).
std::string index(std::initializer_list<int> k, bool separated) {
  std::string s;
  for (int i : k) s += (separated && !s.empty() ? "," : "") + std::to_string(i + 1);
  return s;
}

EquationEntry makeEntry(const std::string& name, const std::string& texName, const ex& x, bool decimals,
                        const SymbolicState& state) {
  EquationEntry e;
  e.name = name;
  e.texName = texName;
  e.zero = x.is_zero();
  std::vector<Printed> printed;
  for (auto& [t, p] : symbolic_detail::printTerms(x, decimals)) {
    EquationTerm term{p.text, p.tex, {}};
    for (std::size_t k = 0; k < state.q.size(); ++k)
      if (t.has(state.q[k]) || t.has(state.qd[k]) || t.has(state.qdd[k])) term.dofs.push_back(int(k));
    printed.push_back(std::move(p));
    e.terms.push_back(std::move(term));
  }
  const Printed all = symbolic_detail::joinTerms(printed);
  e.text = all.text;
  e.tex = all.tex;
  for (const EquationTerm& t : e.terms) e.dofs.insert(e.dofs.end(), t.dofs.begin(), t.dofs.end());
  std::sort(e.dofs.begin(), e.dofs.end());
  e.dofs.erase(std::unique(e.dofs.begin(), e.dofs.end()), e.dofs.end());
  return e;
}

// The derivation's time, an upper bound from the number of joints and how many of them sit at a
// general angle to their parent (a rotation with entries other than 0 and +-1: what multiplies the
// Fourier terms). Measured (the report with its cost, 2026-12-07): the general chains (every twist
// arbitrary, full inertias; generalChain), numeric, 2.6 s at n = 4, 23 s at 5, 346 s at 6, about
// ninefold per joint; aligned chains such as the PUMA 560 and the UR5 0.6-0.7 s at n = 6 (taken as
// fourfold per joint); symbolic parameters about five times more (the PUMA 560: 2.9 s). Mixed chains
// are interpolated in the logarithm by the share of general joints.
EquationsEstimate estimate(int n, double generalShare, bool symbolic) {
  EquationsEstimate e;
  const double general = std::log(2.6) + (n - 4) * std::log(9.0), aligned = std::log(0.6) + (n - 6) * std::log(4.0);
  e.seconds = std::max(0.05, std::exp(generalShare * general + (1 - generalShare) * aligned) * (symbolic ? 5 : 1));
  e.terms = long(std::ceil(std::exp(generalShare * ((n - 1) * std::log(6.0) + std::log(12.0)) +
                                    (1 - generalShare) * ((n - 1) * std::log(3.0) + std::log(4.0)))));
  const double limit = 900;  // s: what a lecture can wait for
  e.feasible = e.seconds <= limit;
  std::ostringstream s;
  if (e.seconds < 1)
    s << "under a second";
  else if (e.seconds < 120)
    s << "at most about " << long(std::ceil(e.seconds)) << " s";
  else
    s << "at most about " << long(std::ceil(e.seconds / 60)) << " min";
  s << ", up to about " << e.terms << " terms in M";
  if (!e.feasible)
    s << ": too large to derive in reasonable time (" << n << " joints" << (symbolic ? ", symbolic parameters" : "")
      << "; the limit is " << long(limit / 60) << " min)";
  e.explanation = s.str();
  return e;
}

}  // namespace

EquationsEstimate estimateEquations(const Model& model, EquationParameters parameters) {
  // Joints at a general angle to their parent.
  int general = 0;
  for (int i = 1; i <= model.N; ++i) {
    const auto& E = model.Xtree[i].E;
    bool aligned = true;
    for (int k = 0; k < 9; ++k) {
      const double x = std::abs(E.data()[k]);
      aligned = aligned && (x < 1e-9 || std::abs(x - 1) < 1e-9);
    }
    general += !aligned;
  }
  return estimate(model.nv, model.N > 0 ? double(general) / model.N : 0, parameters == EquationParameters::Symbolic);
}

namespace symbolic_detail {
std::recursive_mutex& computerAlgebraMutex() {
  static std::recursive_mutex m;
  return m;
}
}  // namespace symbolic_detail

EquationsReport equationsReport(const Model& model, const EquationsRequest& request) {
  const std::lock_guard lock(symbolic_detail::computerAlgebraMutex());
  requireSupported(model);
  const bool symbolic = request.parameters == EquationParameters::Symbolic;
  Problem p = symbolic ? symbolicProblem(model, request.table) : numericProblem(model);
  const int n = model.nv;
  if (p.model.nv != n) throw EquationsUnsupported("the DH table and the model have different numbers of joints");

  // Dropped under the lock too (the last report's copy may go in another thread).
  std::shared_ptr<EquationsExpressions> x(new EquationsExpressions, [](EquationsExpressions* e) {
    const std::lock_guard lock(symbolic_detail::computerAlgebraMutex());
    delete e;
  });
  x->state = symbolicState(n);
  x->parameters = p.parameters;
  x->values = p.values;
  x->decimals = !symbolic;
  const SymbolicState& state = x->state;

  // Steps: M's upper triangle, g, the Christoffel symbols and c (one per i), tau, printing, the cost.
  Steps steps{request, 0, n * (n + 1) / 2 + 3 * n + 3};
  steps.next("CRBA and RNEA");

  // CRBA and RNEA on the symbolic scalar, each entry simplified into sines and cosines of sums.
  MatX<Sym> Mraw;
  VecX<Sym> graw;
  try {
    RawMassMatrixAndGravity raw = massMatrixAndGravity(p.model, state);
    Mraw = std::move(raw.M);
    graw = std::move(raw.g);
  } catch (const SymbolicBranch& e) {
    throw EquationsUnsupported(std::string("the algorithms branch on a symbolic value (") + e.what() +
                               "); try numeric parameters");
  }
  // The textbook form: collected by mass, parallel axes' angles summed (cos(q2 + q3), Craig's c23).
  const TrigForm form{p.groups, parallelAxes(p.model)};
  const auto simplified = [&](const ex& e) { return simplifyTrig(e, state.q, form); };
  x->M.assign(std::size_t(n * n), 0);
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      steps.next("M_{" + index({i, j}, n > 9) + "}");
      x->M[i * n + j] = x->M[j * n + i] = simplified(Mraw(i, j).e);
    }
  for (int i = 0; i < n; ++i) {
    steps.next("g_{" + std::to_string(i + 1) + "}");
    x->g.push_back(simplified(graw[i].e));
  }
  // Christoffel symbols of the first kind, Gamma_{i,jk} = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2
  // (Spong, Hutchinson and Vidyasagar 2006, chapter 7), j <= k (symmetric in j, k), and from them
  // c_i = sum_jk Gamma_{i,jk} qd_j qd_k. Differentiating M's short Fourier forms is far
  // cheaper than simplifying RNEA's C qd, which expands into every product of the recursion (the
  // PUMA 560: 6 s of 7); the suites check c against RNEA (test_symbolic_report, `id`).
  for (int i = 0; i < n; ++i) {
    steps.next("\\Gamma_{" + std::to_string(i + 1) + ",jk}, c_{" + std::to_string(i + 1) + "}");
    ex ci = 0;
    for (int j = 0; j < n; ++j)
      for (int k = j; k < n; ++k) {
        const ex d =
            (x->M[i * n + j].diff(state.q[k]) + x->M[i * n + k].diff(state.q[j]) - x->M[j * n + k].diff(state.q[i])) /
            2;
        const ex gamma = simplified(d);
        if (gamma.is_zero()) continue;
        ci += (j == k ? 1 : 2) * gamma * state.qd[j] * state.qd[k];
        if (!request.christoffel) continue;
        x->christoffel.push_back(gamma);
        x->christoffelIndex.push_back({i, j, k});
      }
    x->c.push_back(simplified(ci));
  }
  // tau = M qdd + c + g: sums of entries already in Fourier form, collected once more.
  for (int i = 0; i < n; ++i) {
    steps.next("\\tau_{" + std::to_string(i + 1) + "}");
    ex t = x->c[i] + x->g[i];
    for (int j = 0; j < n; ++j) t += x->M[i * n + j] * state.qdd[j];
    x->tau.push_back(simplified(t));
  }

  // The report's strings, in reading order.
  steps.next("printing");
  EquationsReport r;
  r.modelName = model.name;
  r.n = n;
  r.parameters = request.parameters;
  for (int k = 0; k < 3; ++k) r.gravity[k] = model.gravity.v[k];
  for (int k = 0; k < n; ++k) r.dofNames.push_back(model.jointNames[model.dofBody[k]]);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const std::string k = index({i, j}, false);
      r.M.push_back(makeEntry("M" + k, "M_{" + index({i, j}, n > 9) + "}", x->M[i * n + j], x->decimals, state));
    }
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i + 1);
    r.c.push_back(makeEntry("c" + k, "c_{" + k + "}", x->c[i], x->decimals, state));
    r.g.push_back(makeEntry("g" + k, "g_{" + k + "}", x->g[i], x->decimals, state));
    r.tau.push_back(makeEntry("tau" + k, "\\tau_{" + k + "}", x->tau[i], x->decimals, state));
  }
  for (std::size_t m = 0; m < x->christoffel.size(); ++m) {
    const auto [i, j, k] = x->christoffelIndex[m];
    r.christoffel.push_back(makeEntry("Gamma" + std::to_string(i + 1) + "_" + index({j, k}, n > 9),
                                      "\\Gamma_{" + std::to_string(i + 1) + "," + index({j, k}, n > 9) + "}",
                                      x->christoffel[m], x->decimals, state));
  }

  // The symbols: the state's, then the parameters.
  for (int k = 0; k < n; ++k) {
    const bool revolute = model.joints[model.dofBody[k]].type == JointType::Revolute;
    const std::string joint = "joint " + std::to_string(k + 1) + " (" + r.dofNames[k] + ")";
    const std::string unit = revolute ? " [rad" : " [m";
    const auto add = [&](const GiNaC::realsymbol& s, const std::string& what) {
      r.symbols.push_back({s.get_name(), symbolic_detail::printExpression(s, false).tex, joint + what, {}, k});
    };
    add(state.q[k], (revolute ? " angle" : " displacement") + unit + "]");
    add(state.qd[k], " velocity" + unit + "/s]");
    add(state.qdd[k], " acceleration" + unit + "/s^2]");
  }
  r.symbols.insert(r.symbols.end(), p.symbols.begin(), p.symbols.end());

  steps.next("operation count");
  r.cost = symbolic_detail::generatedCost(*x, n);
  r.expressions = x;
  return r;
}

EquationValues evaluateEquations(EquationsReport& report, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd) {
  const std::lock_guard lock(symbolic_detail::computerAlgebraMutex());
  const int n = report.n;
  if (!report.expressions) throw std::invalid_argument("evaluateEquations: the report has no expressions");
  if (q.size() != n || qd.size() != n || qdd.size() != n)
    throw std::invalid_argument("evaluateEquations: q, qd and qdd need " + std::to_string(n) + " values each");
  if (!q.allFinite() || !qd.allFinite() || !qdd.allFinite())
    throw std::invalid_argument("evaluateEquations: the state has a number that is not finite");
  const EquationsExpressions& x = *report.expressions;
  GiNaC::exmap at = x.values;
  for (int k = 0; k < n; ++k) {
    at[x.state.q[k]] = Sym::exactDecimal(q[k]);
    at[x.state.qd[k]] = Sym::exactDecimal(qd[k]);
    at[x.state.qdd[k]] = Sym::exactDecimal(qdd[k]);
  }
  const auto valueOf = [&](const ex& e) { return Sym::toDouble(e.subs(at)); };
  EquationValues v;
  v.q = q, v.qd = qd, v.qdd = qdd;
  v.M.resize(n, n);
  v.c.resize(n), v.g.resize(n), v.tau.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) v.M(i, j) = valueOf(x.M[i * n + j]);
    v.c[i] = valueOf(x.c[i]);
    v.g[i] = valueOf(x.g[i]);
    v.tau[i] = valueOf(x.tau[i]);
  }
  // The state's symbols take the values too.
  for (EquationSymbol& s : report.symbols) {
    if (s.dof < 0) continue;
    s.value = s.name.starts_with("qdd") ? qdd[s.dof] : s.name.starts_with("qd") ? qd[s.dof] : q[s.dof];
  }
  report.values = v;
  return v;
}

ClosedFormCost closedFormCost(int n) {
  if (n < 1 || n > 8) throw std::invalid_argument("closedFormCost: n must be 1..8, not " + std::to_string(n));
  EquationsRequest request;
  request.christoffel = false;
  return equationsReport(generalChain(n), request).cost;
}

// ---------------------------------------------------------------------------------------------
// The report as text, LaTeX and JSON.

namespace {

std::string jsonNumber(double x) { return std::isfinite(x) ? shortestDecimal(x) : "null"; }

std::string describe(const EquationsReport& r) {
  return r.parameters == EquationParameters::Symbolic ? "symbolic parameters (standard DH)"
                                                      : "numeric parameters (exact decimals of the model's)";
}

std::string costLine(const ClosedFormCost& c) {
  std::ostringstream s;
  s << c.multiplications << " multiplications, " << c.additions << " additions, " << c.functions
    << " sines/cosines after common-subexpression elimination (" << c.temporaries << " temporaries; without it "
    << c.multiplicationsWithoutCse << ", " << c.additionsWithoutCse << ", " << c.functionsWithoutCse << ")";
  return s.str();
}

const char* kChristoffelRule =
    "Christoffel symbols of the first kind: Gamma_i,jk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i)/2, "
    "c_i = sum over j, k of Gamma_i,jk qd_j qd_k; j <= k and non-zero only (Gamma_i,kj = Gamma_i,jk)";

std::string writeText(const EquationsReport& r, const std::string& origin) {
  const int n = r.n;
  std::ostringstream out;
  out << "# Equations of motion of " << r.modelName << " (" << origin << "), " << describe(r)
      << ":\n# tau = M(q) qdd + C(q, qd) qd + g(q); c = C(q, qd) qd; M is symmetric (Mji = Mij)\n"
      << "# tau as code: " << costLine(r.cost) << "\n";
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) out << r.M[i * n + j].name << " = " << r.M[i * n + j].text << "\n";
  for (const auto* v : {&r.c, &r.g, &r.tau})
    for (const EquationEntry& e : *v) out << e.name << " = " << e.text << "\n";
  if (!r.christoffel.empty()) {
    out << "\n# " << kChristoffelRule << "\n";
    for (const EquationEntry& e : r.christoffel) out << e.name << " = " << e.text << "\n";
  }
  out << "\n# Symbols\n";
  std::size_t width = 0;
  for (const EquationSymbol& x : r.symbols) width = std::max(width, x.name.size());
  for (const EquationSymbol& x : r.symbols)
    out << "# " << x.name << std::string(width + 2 - x.name.size(), ' ') << x.meaning
        << (x.value ? " = " + jsonNumber(*x.value) : "") << "\n";
  if (r.values) {
    const EquationValues& v = *r.values;
    out << "\n# At the state above\n";
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j) out << r.M[i * n + j].name << " = " << jsonNumber(v.M(i, j)) << "\n";
    for (const auto& [entries, values] : {std::pair{&r.c, &v.c}, {&r.g, &v.g}, {&r.tau, &v.tau}})
      for (int i = 0; i < n; ++i) out << (*entries)[i].name << " = " << jsonNumber((*values)[i]) << "\n";
  }
  return out.str();
}

std::string writeLatex(const EquationsReport& r, const std::string& origin) {
  const int n = r.n;
  std::ostringstream out;
  out << "% Equations of motion of " << r.modelName << " (" << origin << "), " << describe(r)
      << ":\n% \\tau = M(q)\\ddot{q} + C(q, \\dot{q})\\dot{q} + g(q)\n% tau as code: " << costLine(r.cost) << "\n";
  const auto column = [&](const char* name, const std::vector<EquationEntry>& v) {
    out << "\\[ " << name << " = \\begin{pmatrix}";
    for (int i = 0; i < n; ++i) out << (i ? " \\\\ " : " ") << v[i].tex;
    out << " \\end{pmatrix} \\]\n";
  };
  out << "\\[ M(q) = \\begin{pmatrix}";
  for (int i = 0; i < n; ++i) {
    out << (i ? " \\\\ " : " ");
    for (int j = 0; j < n; ++j) out << (j ? " & " : "") << r.M[i * n + j].tex;
  }
  out << " \\end{pmatrix} \\]\n";
  column("C(q, \\dot{q})\\dot{q}", r.c);
  column("g(q)", r.g);
  column("\\tau", r.tau);
  out << "% Entry by entry (M is symmetric: M_{ji} = M_{ij})\n";
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) out << "\\[ " << r.M[i * n + j].texName << " = " << r.M[i * n + j].tex << " \\]\n";
  for (const auto* v : {&r.c, &r.g, &r.tau})
    for (const EquationEntry& e : *v) out << "\\[ " << e.texName << " = " << e.tex << " \\]\n";
  if (!r.christoffel.empty()) {
    out << "% " << kChristoffelRule << "\n";
    for (const EquationEntry& e : r.christoffel) out << "\\[ " << e.texName << " = " << e.tex << " \\]\n";
  }
  out << "% Symbols\n";
  for (const EquationSymbol& x : r.symbols)
    out << "% $" << x.tex << "$: " << x.meaning << (x.value ? " = " + jsonNumber(*x.value) : "") << "\n";
  return out.str();
}

std::string writeJson(const EquationsReport& r, const std::string& origin) {
  const int n = r.n;
  std::ostringstream out;
  const auto strings = [&](const std::vector<EquationEntry>& v, bool tex) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + jsonString(tex ? v[i].tex : v[i].text);
    return s + "]";
  };
  const auto numbers = [&](const Eigen::VectorXd& v) {
    std::string s = "[";
    for (int i = 0; i < v.size(); ++i) s += (i ? ", " : "") + jsonNumber(v[i]);
    return s + "]";
  };
  out << "{\n  \"command\": \"equations\",\n  \"model\": " << jsonString(r.modelName)
      << ",\n  \"file\": " << jsonString(origin) << ",\n  \"floating_base\": false,\n  \"gravity\": ["
      << jsonNumber(r.gravity[0]) << ", " << jsonNumber(r.gravity[1]) << ", " << jsonNumber(r.gravity[2])
      << "],\n  \"parameters\": \"" << (r.parameters == EquationParameters::Symbolic ? "symbolic" : "numeric")
      << "\",\n";
  for (const bool tex : {false, true}) {
    const std::string key = tex ? "latex" : "text";
    out << "  \"" << key << "_M\": [";
    for (int i = 0; i < n; ++i)
      out << (i ? ",\n    " : "\n    ")
          << strings(std::vector<EquationEntry>(r.M.begin() + i * n, r.M.begin() + (i + 1) * n), tex);
    out << "\n  ],\n";
    out << "  \"" << key << "_c\": " << strings(r.c, tex) << ",\n";
    out << "  \"" << key << "_g\": " << strings(r.g, tex) << ",\n";
    out << "  \"" << key << "_tau\": " << strings(r.tau, tex) << ",\n";
  }
  out << "  \"christoffel\": [";
  for (std::size_t m = 0; m < r.christoffel.size(); ++m) {
    const EquationEntry& e = r.christoffel[m];
    const auto& ijk = r.expressions ? r.expressions->christoffelIndex[m] : std::array<int, 3>{};
    out << (m ? "," : "") << "\n    {\"name\": " << jsonString(e.name) << ", \"tex_name\": " << jsonString(e.texName)
        << ", \"i\": " << ijk[0] + 1 << ", \"j\": " << ijk[1] + 1 << ", \"k\": " << ijk[2] + 1
        << ", \"text\": " << jsonString(e.text) << ", \"latex\": " << jsonString(e.tex) << "}";
  }
  out << (r.christoffel.empty() ? "],\n" : "\n  ],\n");
  out << "  \"symbols\": [";
  for (std::size_t k = 0; k < r.symbols.size(); ++k) {
    const EquationSymbol& x = r.symbols[k];
    out << (k ? "," : "") << "\n    {\"name\": " << jsonString(x.name) << ", \"tex\": " << jsonString(x.tex)
        << ", \"meaning\": " << jsonString(x.meaning);
    if (x.value) out << ", \"value\": " << jsonNumber(*x.value);
    out << "}";
  }
  out << "\n  ],\n";
  const ClosedFormCost& c = r.cost;
  out << "  \"cost\": {\"multiplications\": " << c.multiplications << ", \"additions\": " << c.additions
      << ", \"functions\": " << c.functions << ", \"temporaries\": " << c.temporaries
      << ", \"without_cse\": {\"multiplications\": " << c.multiplicationsWithoutCse
      << ", \"additions\": " << c.additionsWithoutCse << ", \"functions\": " << c.functionsWithoutCse << "}}";
  if (r.values) {
    const EquationValues& v = *r.values;
    out << ",\n  \"values\": {\n    \"M\": [";
    for (int i = 0; i < n; ++i) out << (i ? ", " : "") << numbers(v.M.row(i).transpose());
    out << "],\n    \"c\": " << numbers(v.c) << ",\n    \"g\": " << numbers(v.g) << ",\n    \"tau\": " << numbers(v.tau)
        << "\n  }";
  }
  out << "\n}\n";
  return out.str();
}

}  // namespace

std::string writeEquations(const EquationsReport& report, EquationFormat format, const std::string& origin) {
  const std::lock_guard lock(symbolic_detail::computerAlgebraMutex());
  if (report.n <= 0 || int(report.M.size()) != report.n * report.n || int(report.c.size()) != report.n)
    throw std::invalid_argument("writeEquations: the report is empty or incomplete");
  switch (format) {
    case EquationFormat::Text:
      return writeText(report, origin);
    case EquationFormat::Latex:
      return writeLatex(report, origin);
    case EquationFormat::Json:
      return writeJson(report, origin);
    case EquationFormat::C:
    case EquationFormat::Python:
    case EquationFormat::Matlab:
      return symbolic_detail::generateCode(report, format, origin);
  }
  throw std::invalid_argument("writeEquations: unknown format");
}

}  // namespace dyn
