// The equations of motion as code (issue 40; docs/symbolic.md, "Code"): C, Python (only `math`) and
// MATLAB functions computing M(q), c(q, qd) = C(q, qd) qd, g(q) and tau = M qdd + c + g, after a
// common-subexpression elimination over GiNaC's expression DAG (GiNaC has none), and the cost of the
// tau code counted as Hollerbach (1980, §5, Table I) counts: multiplications and additions.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "equations_internal.hpp"

namespace dyn::symbolic_detail {
namespace {

using GiNaC::ex;
using GiNaC::numeric;

enum class Lang { C, Python, Matlab };

bool isNumber(const ex& x) { return GiNaC::is_a<numeric>(x); }
const numeric& asNumber(const ex& x) { return GiNaC::ex_to<numeric>(x); }

// x = coefficient * core, the core without a numeric factor: 2 a b and -a b share the node a b.
std::pair<numeric, ex> splitCoefficient(const ex& x) {
  if (isNumber(x)) return {asNumber(x), ex(1)};
  if (!GiNaC::is_a<GiNaC::mul>(x)) return {numeric(1), x};
  numeric c = 1;
  GiNaC::exvector factors;
  for (const ex& f : x) {
    if (isNumber(f))
      c *= asNumber(f);
    else
      factors.push_back(f);
  }
  return {c, factors.size() == 1 ? factors[0] : ex(GiNaC::mul(factors))};
}

bool trivial(const ex& core) { return isNumber(core) || GiNaC::is_a<GiNaC::symbol>(core); }

// A power with a negative integer exponent is a division: its operand is the positive power.
bool isDivision(const ex& f) {
  return GiNaC::is_a<GiNaC::power>(f) && isNumber(f.op(1)) && asNumber(f.op(1)).is_integer() &&
         asNumber(f.op(1)).is_negative();
}
ex denominator(const ex& f) { return GiNaC::pow(f.op(0), -f.op(1)); }

// A deterministic sort key (GiNaC's own order depends on memory addresses), memoized per node.
struct Keys {
  std::map<ex, std::string, GiNaC::ex_is_less> memo;
  const std::string& operator()(const ex& x) {
    const auto it = memo.find(x);
    if (it != memo.end()) return it->second;
    std::string k;
    if (isNumber(x) || GiNaC::is_a<GiNaC::symbol>(x)) {
      std::ostringstream s;
      s << x;
      k = s.str();
    } else {
      std::vector<std::string> parts;
      for (const ex& o : x) parts.push_back((*this)(o));
      if (GiNaC::is_a<GiNaC::add>(x) || GiNaC::is_a<GiNaC::mul>(x)) std::sort(parts.begin(), parts.end());
      k = GiNaC::is_a<GiNaC::add>(x)        ? "+("
          : GiNaC::is_a<GiNaC::mul>(x)      ? "*("
          : GiNaC::is_a<GiNaC::function>(x) ? GiNaC::ex_to<GiNaC::function>(x).get_name() + "("
                                            : "^(";
      for (const std::string& p : parts) k += p + ",";
      k += ")";
    }
    return memo.emplace(x, std::move(k)).first->second;
  }
};

// The operands a node's code refers to, in a deterministic order (denominators as positive powers).
std::vector<ex> children(const ex& core, Keys& keys) {
  std::vector<ex> out;
  if (GiNaC::is_a<GiNaC::power>(core)) {
    out.push_back(core.op(0));
    if (!isNumber(core.op(1))) out.push_back(core.op(1));
    return out;
  }
  for (const ex& o : core) out.push_back(GiNaC::is_a<GiNaC::mul>(core) && isDivision(o) ? denominator(o) : o);
  std::stable_sort(out.begin(), out.end(), [&](const ex& a, const ex& b) { return keys(a) < keys(b); });
  return out;
}

struct Code {
  std::string s;
  int precedence = 2;  // 0 a sum or a sign, 1 a product, 2 an atom
};
std::string wrapped(const Code& c, int need) { return c.precedence >= need ? c.s : "(" + c.s + ")"; }

// Straight-line code for a set of expressions with their common subexpressions as temporaries t1,
// t2, ...: a node referred to twice or more (as the core of its products: 2 a b and a b share a b)
// and every sine and cosine. Counts the operations of what it writes.
struct Emitter {
  Lang lang;
  const std::function<std::string(const GiNaC::symbol&)>& atom;
  bool eliminate = true;  // false: every expression written out as a tree (the cost without CSE)
  Keys keys;
  std::map<ex, int, GiNaC::ex_is_less> uses;
  std::map<ex, std::string, GiNaC::ex_is_less> names;
  std::vector<std::string> lines;
  ClosedFormCost cost;

  // First pass: how many times each node is referred to (each node's operands once).
  void count(const ex& x) {
    const ex core = splitCoefficient(x).second;
    if (trivial(core)) return;
    if (uses[core]++ > 0) return;
    for (const ex& c : children(core, keys)) count(c);
  }

  std::string literal(const numeric& c) const {
    if (!c.is_real()) throw EquationsUnsupported("the equations have a complex number; no code is written for them");
    std::string s = shortestDecimal(c.to_double());
    if (s.find_first_of(".en") == std::string::npos) s += ".0";  // 2.0: C's 1/2 would be 0
    return s;
  }

  // |x| and whether x is negative: a sum writes its negative terms as subtractions.
  std::pair<bool, Code> signedCode(const ex& x) {
    auto [c, core] = splitCoefficient(x);
    if (isNumber(core)) return {c.is_negative(), {literal(GiNaC::abs(c)), 2}};
    const bool negative = c.is_negative();
    if (negative) c = -c;
    Code body = node(core);
    if (c == 1) return {negative, body};
    ++cost.multiplications;
    return {negative, {literal(c) + "*" + wrapped(body, 1), 1}};
  }

  Code expression(const ex& x) {
    auto [negative, code] = signedCode(x);
    if (!negative) return code;
    return {"-" + wrapped(code, 1), 0};  // a change of sign: not counted
  }

  std::string function(const std::string& name) const {
    if (name == "sin" || name == "cos" || name == "tan" || name == "exp" || name == "sqrt" || name == "atan2")
      return lang == Lang::Python ? "math." + name : name;
    if (name == "log") return lang == Lang::Python ? "math.log" : "log";
    if (name == "abs") return lang == Lang::C ? "fabs" : "abs";
    throw EquationsUnsupported("the equations contain " + name + "(), which the code export does not write");
  }

  Code build(const ex& core) {
    if (GiNaC::is_a<GiNaC::add>(core)) {
      std::string s;
      bool first = true;
      for (const ex& t : children(core, keys)) {
        const auto [negative, code] = signedCode(t);
        if (first)
          s = negative ? "-" + wrapped(code, 1) : code.s;
        else
          s += (negative ? " - " : " + ") + wrapped(code, 1), ++cost.additions;
        first = false;
      }
      return {s, 0};
    }
    if (GiNaC::is_a<GiNaC::mul>(core)) {
      std::string numerator, denominators;
      std::vector<ex> factors;
      for (const ex& f : core) factors.push_back(f);
      std::stable_sort(factors.begin(), factors.end(), [&](const ex& a, const ex& b) { return keys(a) < keys(b); });
      for (const ex& f : factors) {
        if (isDivision(f)) {
          denominators += "/" + wrapped(node(denominator(f)), 2);
          ++cost.multiplications;  // a division
          continue;
        }
        if (!numerator.empty()) ++cost.multiplications;
        numerator += (numerator.empty() ? "" : "*") + wrapped(node(f), 1);
      }
      return {(numerator.empty() ? "1.0" : numerator) + denominators, 1};
    }
    if (GiNaC::is_a<GiNaC::power>(core)) {
      const ex e = core.op(1);
      if (isNumber(e) && asNumber(e).is_integer()) {
        const long k = asNumber(e).to_long();
        const std::string base = wrapped(node(core.op(0)), 2);
        if (k < 0) {  // a power in a denominator by itself: 1/(x^k)
          ++cost.multiplications;
          return {"1.0/" + wrapped(node(denominator(core)), 2), 1};
        }
        std::string s = base;
        for (long i = 1; i < k; ++i) s += "*" + base, ++cost.multiplications;  // x^k: k - 1 multiplications
        return {s, k > 1 ? 1 : 2};
      }
      ++cost.functions;
      if (isNumber(e) && asNumber(e) == numeric(1, 2)) return {function("sqrt") + "(" + node(core.op(0)).s + ")", 2};
      const std::string b = wrapped(node(core.op(0)), 2), x = wrapped(expression(e), 2);
      return {lang == Lang::C ? "pow(" + b + ", " + x + ")" : lang == Lang::Python ? b + "**" + x : b + "^" + x, 2};
    }
    if (GiNaC::is_a<GiNaC::function>(core)) {
      ++cost.functions;
      std::string args;
      for (const ex& a : core) args += (args.empty() ? "" : ", ") + expression(a).s;
      return {function(GiNaC::ex_to<GiNaC::function>(core).get_name()) + "(" + args + ")", 2};
    }
    if (GiNaC::is_a<GiNaC::symbol>(core)) return {atom(GiNaC::ex_to<GiNaC::symbol>(core)), 2};
    if (isNumber(core)) return {literal(asNumber(core)), asNumber(core).is_negative() ? 0 : 2};
    throw EquationsUnsupported("the equations contain an expression the code export does not write");
  }

  // A node's code: its temporary when it has one (defined here the first time).
  Code node(const ex& core) {
    if (trivial(core)) return build(core);
    if (!eliminate) return build(core);
    const auto named = names.find(core);
    if (named != names.end()) return {named->second, 2};
    const bool shared = uses[core] >= 2 || GiNaC::is_a<GiNaC::function>(core);
    Code code = build(core);
    if (!shared) return code;
    const std::string name = "t" + std::to_string(names.size() + 1);
    names.emplace(core, name);
    lines.push_back(declare(name, code.s));
    ++cost.temporaries;
    return {name, 2};
  }

  std::string declare(const std::string& name, const std::string& value) const {
    switch (lang) {
      case Lang::C:
        return "  const double " + name + " = " + value + ";";
      case Lang::Python:
        return "    " + name + " = " + value;
      case Lang::Matlab:
        return "  " + name + " = " + value + ";";
    }
    return "";
  }
};

std::string symbolCode(Lang lang, const EquationsExpressions& x, const GiNaC::symbol& s) {
  const auto& st = x.state;
  for (std::size_t k = 0; k < st.q.size(); ++k) {
    const char* array = s == st.q[k] ? "q" : s == st.qd[k] ? "qd" : s == st.qdd[k] ? "qdd" : nullptr;
    if (!array) continue;
    return lang == Lang::Matlab ? std::string(array) + "(" + std::to_string(k + 1) + ")"
                                : std::string(array) + "[" + std::to_string(k) + "]";
  }
  for (const auto& p : x.parameters)
    if (s == p) return p.get_name();
  throw EquationsUnsupported("the equations contain the symbol " + s.get_name() +
                             " (an unlimited or undefined number); no code is written for them");
}

// tau_i = sum_j M_ij qdd_j + c_i + g_i, with M, c and g as named values of one elimination.
struct TauCode {
  std::vector<std::string> lines, results;
};
TauCode tauCode(Emitter& e, const EquationsExpressions& x, int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = i; j < n; ++j) e.count(x.M[i * n + j]);
    e.count(x.c[i]);
    e.count(x.g[i]);
  }
  TauCode out;
  // A named value for an entry that is not an atom: M12, c1, g1.
  const auto value = [&](const std::string& name, const ex& v) -> Code {
    Code code = e.expression(v);
    if (code.precedence == 2) return code;
    e.lines.push_back(e.declare(name, code.s));
    return {name, 2};
  };
  std::vector<Code> M(std::size_t(n * n)), c(n), g(n);
  for (int i = 0; i < n; ++i) {
    for (int j = i; j < n; ++j)
      if (!x.M[i * n + j].is_zero() && !isNumber(x.M[i * n + j]))
        M[i * n + j] = M[j * n + i] = value("M" + std::to_string(i + 1) + std::to_string(j + 1), x.M[i * n + j]);
    if (!x.c[i].is_zero()) c[i] = value("c" + std::to_string(i + 1), x.c[i]);
    if (!x.g[i].is_zero()) g[i] = value("g" + std::to_string(i + 1), x.g[i]);
  }
  const std::function<std::string(const GiNaC::symbol&)>& atom = e.atom;
  for (int i = 0; i < n; ++i) {
    std::string s;
    const auto add = [&](bool negative, const std::string& term) {
      if (s.empty())
        s = negative ? "-" + term : term;
      else
        s += (negative ? " - " : " + ") + term, ++e.cost.additions;
    };
    for (int j = 0; j < n; ++j) {
      const ex& m = x.M[i * n + j];
      if (m.is_zero()) continue;
      const std::string qdd = atom(x.state.qdd[j]);
      if (isNumber(m)) {
        const numeric a = GiNaC::abs(asNumber(m));
        if (a != 1) ++e.cost.multiplications;
        add(asNumber(m).is_negative(), a == 1 ? qdd : e.literal(a) + "*" + qdd);
      } else {
        ++e.cost.multiplications;
        add(false, wrapped(M[i * n + j], 1) + "*" + qdd);
      }
    }
    if (!x.c[i].is_zero()) add(false, c[i].s);
    if (!x.g[i].is_zero()) add(false, g[i].s);
    out.results.push_back(s.empty() ? "0.0" : s);
  }
  out.lines = e.lines;
  return out;
}

// The comment at the top of every file: the model, the convention, the parameters, the cost.
std::vector<std::string> headerLines(const EquationsReport& r, const std::string& origin, Lang lang) {
  std::vector<std::string> h;
  h.push_back("Equations of motion of " + r.modelName + " (" + origin + "), " +
              (r.parameters == EquationParameters::Symbolic ? "symbolic parameters (standard DH)"
                                                            : "numeric parameters (the model's)") +
              ", written by dynscope-cli equations --format " +
              (lang == Lang::C        ? "c"
               : lang == Lang::Python ? "python"
                                      : "matlab") +
              ".");
  h.push_back("Convention: tau = M(q) qdd + C(q, qd) qd + g(q); c(q, qd) = C(q, qd) qd (Coriolis and");
  h.push_back("centrifugal terms); SI units; joint " + std::string(lang == Lang::Matlab ? "k is q(k)" : "k is q[k-1]") +
              " (" + std::to_string(r.n) + " joints:");
  std::string joints;
  for (std::size_t k = 0; k < r.dofNames.size(); ++k) joints += (k ? ", " : "") + r.dofNames[k];
  h.push_back("  " + joints + ").");
  const ClosedFormCost& c = r.cost;
  h.push_back("tau costs " + std::to_string(c.multiplications) + " multiplications, " + std::to_string(c.additions) +
              " additions and " + std::to_string(c.functions) + " sines/cosines (" + std::to_string(c.temporaries) +
              " common subexpressions; without them " + std::to_string(c.multiplicationsWithoutCse) + ", " +
              std::to_string(c.additionsWithoutCse) + ", " + std::to_string(c.functionsWithoutCse) + ").");
  bool any = false;
  for (const EquationSymbol& s : r.symbols)
    if (s.dof < 0) {
      if (!any) {
        h.push_back(lang == Lang::C ? "Parameters: the constants below, set to the model's values; edit them there."
                    : lang == Lang::Python
                        ? "Parameters: the dict `parameters` below (the model's values); change an entry "
                          "to change them."
                        : "Parameters: the function dynscope_parameters() below (the model's values).");
        any = true;
      }
      h.push_back("  " + s.name + " = " + (s.value ? shortestDecimal(*s.value) : "?") + "  " + s.meaning);
    }
  if (!any) h.push_back("The model's parameters are numbers in the expressions.");
  return h;
}

std::string commentBlock(const std::vector<std::string>& lines, Lang lang) {
  std::string s;
  if (lang == Lang::C) {
    s = "/*\n";
    for (const std::string& l : lines) s += " * " + l + "\n";
    return s + " */\n";
  }
  const char* mark = lang == Lang::Python ? "# " : "% ";
  for (const std::string& l : lines) s += mark + l + "\n";
  return s;
}

// The parameters an expression set uses, in the report's order.
std::vector<const GiNaC::realsymbol*> usedParameters(const EquationsExpressions& x, const std::vector<ex>& all) {
  std::vector<const GiNaC::realsymbol*> out;
  for (const auto& p : x.parameters)
    if (std::any_of(all.begin(), all.end(), [&](const ex& e) { return e.has(p); })) out.push_back(&p);
  return out;
}

struct Function {
  std::string name;                 // M, c, g, tau
  std::vector<std::string> inputs;  // q, qd, qdd
};

std::string writeCode(const EquationsReport& r, Lang lang, const std::string& origin) {
  const EquationsExpressions& x = *r.expressions;
  const int n = r.n;
  const std::string N = std::to_string(n);
  const std::function<std::string(const GiNaC::symbol&)> atom = [&](const GiNaC::symbol& s) {
    return symbolCode(lang, x, s);
  };
  std::ostringstream out;
  out << commentBlock(headerLines(r, origin, lang), lang);

  // Parameters at the top (C, Python) or in a function of their own (MATLAB).
  const auto valueOf = [&](const GiNaC::realsymbol& p) {
    return shortestDecimal(Sym::toDouble(x.values.count(p) ? x.values.at(p) : ex(0)));
  };
  if (lang == Lang::C) {
    out << "#include <math.h>\n\n";
    for (const auto& p : x.parameters) out << "static const double " << p.get_name() << " = " << valueOf(p) << ";\n";
    if (!x.parameters.empty()) out << "\n";
    out << "void dynscope_M(const double q[" << N << "], double out[" << n * n << "]);\n"
        << "void dynscope_c(const double q[" << N << "], const double qd[" << N << "], double out[" << N << "]);\n"
        << "void dynscope_g(const double q[" << N << "], double out[" << N << "]);\n"
        << "void dynscope_tau(const double q[" << N << "], const double qd[" << N << "], const double qdd[" << N
        << "], double out[" << N << "]);\n";
  } else if (lang == Lang::Python) {
    out << "import math\n\nparameters = {";
    for (std::size_t k = 0; k < x.parameters.size(); ++k)
      out << (k ? ", " : "") << "\"" << x.parameters[k].get_name() << "\": " << valueOf(x.parameters[k]);
    out << "}\n";
  } else {
    out << "function eq = dynscope_equations()\n"
        << "  % The functions as a struct: eq = dynscope_equations(); tau = eq.tau(q, qd, qdd) (columns).\n"
        << "  eq = struct('M', @dynscope_M, 'c', @dynscope_c, 'g', @dynscope_g, 'tau', @dynscope_tau, "
           "'parameters', @dynscope_parameters);\nend\n\n"
        << "function p = dynscope_parameters()\n  p = struct();\n";
    for (const auto& p : x.parameters) out << "  p." << p.get_name() << " = " << valueOf(p) << ";\n";
    out << "end\n";
  }

  // One function: its parameters fetched (Python, MATLAB), the temporaries, the results.
  const auto function = [&](const Function& f, const std::vector<ex>& used, const std::vector<std::string>& lines,
                            const std::vector<std::string>& results) {
    const std::vector<const GiNaC::realsymbol*> params = usedParameters(x, used);
    std::string args;
    for (const std::string& a : f.inputs) args += (args.empty() ? "" : ", ") + a;
    if (lang == Lang::C) {
      std::string cargs;
      for (const std::string& a : f.inputs) cargs += "const double " + a + "[" + N + "], ";
      out << "\nvoid dynscope_" << f.name << "(" << cargs << "double out[" << (f.name == "M" ? n * n : n) << "]) {\n";
      for (const std::string& a : f.inputs) out << "  (void)" << a << ";\n";
    } else if (lang == Lang::Python) {
      out << "\n\ndef " << f.name << "(" << args << "):\n";
      for (const auto* p : params) out << "    " << p->get_name() << " = parameters[\"" << p->get_name() << "\"]\n";
    } else {
      out << "\nfunction out = dynscope_" << f.name << "(" << args << ")\n";
      if (!params.empty()) out << "  p = dynscope_parameters();\n";
      for (const auto* p : params) out << "  " << p->get_name() << " = p." << p->get_name() << ";\n";
    }
    for (const std::string& l : lines) out << l << "\n";
    // The results.
    if (lang == Lang::C) {
      if (f.name == "M") {
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            out << "  out[" << i * n + j
                << "] = " << (j >= i ? results[i * n + j] : "out[" + std::to_string(j * n + i) + "]") << ";\n";
      } else {
        for (int i = 0; i < n; ++i) out << "  out[" << i << "] = " << results[i] << ";\n";
      }
      out << "}\n";
    } else if (lang == Lang::Python) {
      if (f.name == "M") {
        out << "    return [";
        for (int i = 0; i < n; ++i) {
          out << (i ? ",\n            [" : "[");
          for (int j = 0; j < n; ++j) out << (j ? ", " : "") << results[std::min(i, j) * n + std::max(i, j)];
          out << "]";
        }
        out << "]\n";
      } else {
        out << "    return [";
        for (int i = 0; i < n; ++i) out << (i ? ",\n            " : "") << results[i];
        out << "]\n";
      }
    } else {
      out << "  out = zeros(" << n << (f.name == "M" ? ", " + N : ", 1") << ");\n";
      for (int i = 0; i < n; ++i) {
        if (f.name == "M") {
          for (int j = 0; j < n; ++j)
            out << "  out(" << i + 1 << ", " << j + 1 << ") = "
                << (j >= i ? results[i * n + j] : "out(" + std::to_string(j + 1) + ", " + std::to_string(i + 1) + ")")
                << ";\n";
        } else {
          out << "  out(" << i + 1 << ") = " << results[i] << ";\n";
        }
      }
      out << "end\n";
    }
  };

  // M(q), c(q, qd), g(q): one elimination each.
  const auto simple = [&](const Function& f, const std::vector<ex>& v, bool upper) {
    Emitter e{lang, atom};
    for (std::size_t k = 0; k < v.size(); ++k)
      if (!upper || int(k % n) >= int(k / n)) e.count(v[k]);
    std::vector<std::string> results(v.size());
    for (std::size_t k = 0; k < v.size(); ++k)
      if (!upper || int(k % n) >= int(k / n)) results[k] = e.expression(v[k]).s;
    function(f, v, e.lines, results);
  };
  simple({"M", {"q"}}, x.M, true);
  simple({"c", {"q", "qd"}}, x.c, false);
  simple({"g", {"q"}}, x.g, false);
  Emitter e{lang, atom};
  const TauCode t = tauCode(e, x, n);
  std::vector<ex> used = x.M;
  used.insert(used.end(), x.c.begin(), x.c.end());
  used.insert(used.end(), x.g.begin(), x.g.end());
  function({"tau", {"q", "qd", "qdd"}}, used, t.lines, t.results);
  return out.str();
}

}  // namespace

ClosedFormCost generatedCost(const EquationsExpressions& x, int n) {
  const std::function<std::string(const GiNaC::symbol&)> atom = [&](const GiNaC::symbol& s) {
    return symbolCode(Lang::C, x, s);
  };
  Emitter e{Lang::C, atom};
  tauCode(e, x, n);
  Emitter tree{Lang::C, atom, false};
  tauCode(tree, x, n);
  ClosedFormCost c = e.cost;
  c.multiplicationsWithoutCse = tree.cost.multiplications;
  c.additionsWithoutCse = tree.cost.additions;
  c.functionsWithoutCse = tree.cost.functions;
  return c;
}

std::string generateCode(const EquationsReport& report, EquationFormat format, const std::string& origin) {
  if (!report.expressions) throw std::invalid_argument("writeEquations: the report has no expressions for code");
  const Lang lang = format == EquationFormat::C        ? Lang::C
                    : format == EquationFormat::Python ? Lang::Python
                                                       : Lang::Matlab;
  return writeCode(report, lang, origin);
}

}  // namespace dyn::symbolic_detail
