// The equations of motion as code (issue 40; docs/symbolic.md, "Code"): C, Python (only `math`) and
// MATLAB functions computing M(q), c(q, qd) = C(q, qd) qd, g(q) and tau = M qdd + c + g, after a
// common-subexpression elimination over GiNaC's expression DAG (GiNaC has none), and the cost of the
// tau code counted as Hollerbach (1980, §5, Table I) counts: multiplications and additions.
#include <algorithm>
#include <functional>
#include <map>
#include <optional>
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

// A node of the code's DAG: an expression without its numeric coefficient (2 a b and -a b share the
// node a b), with every sum's sign fixed (its first term by key positive). Nodes are told apart by a
// key written from their structure, not by GiNaC's identity: factoring writes a (b - c) or -a (c - b)
// by GiNaC's address-dependent order, and a product's sums have their signs moved by GiNaC, so two
// runs must still give one node, and the same code.
struct Node {
  enum Kind { One, Symbol, Add, Mul, Power, Function } kind = One;
  ex symbol;                                              // Symbol
  std::vector<std::pair<numeric, std::string>> operands;  // Add: terms; Function: arguments (coefficient, node)
  std::vector<std::string> factors;                       // Mul: the factors' nodes (powers included)
  std::string base;                                       // Power: base^exponent, exponent an integer
  long exponent = 1;
  std::string name;  // Function: sin, cos, ..., or pow (a non-integer exponent)
  int uses = 0;
  std::string temporary;
};

struct Code {
  std::string s;
  int precedence = 2;  // 0 a sum or a sign, 1 a product, 2 an atom
};
std::string wrapped(const Code& c, int need) { return c.precedence >= need ? c.s : "(" + c.s + ")"; }

std::string numberKey(const numeric& c) {
  std::ostringstream s;
  s << c;
  return s.str();
}
std::string powerKey(const std::string& base, long k) { return "^(" + base + "," + std::to_string(k) + ")"; }

// Straight-line code for a set of expressions with their common subexpressions as temporaries t1,
// t2, ...: a node referred to twice or more and every sine and cosine. Counts the operations of what
// it writes, as Hollerbach counts (a subtraction an addition, a division a multiplication, x^k k - 1
// multiplications, a change of sign nothing).
struct Emitter {
  Lang lang;
  const std::function<std::string(const GiNaC::symbol&)>& atom;
  bool eliminate = true;  // false: every expression written out as a tree (the cost without CSE)
  std::map<std::string, Node> nodes;
  std::map<ex, std::pair<numeric, std::string>, GiNaC::ex_is_less> memo, primitiveMemo;
  std::vector<std::string> lines;
  ClosedFormCost cost;
  int temporaries = 0;

  // x = coefficient * node; the node registered under its key.
  std::pair<numeric, std::string> split(const ex& x) {
    const auto it = memo.find(x);
    if (it != memo.end()) return it->second;
    std::pair<numeric, std::string> out = splitNew(x);
    memo.emplace(x, out);
    return out;
  }

  std::string add(const std::string& key, const Node& node) {
    nodes.emplace(key, node);
    return key;
  }

  // A sum: its terms sorted by node and the sign of the first taken out; `primitive`, also their
  // content (gcd of the numerators over lcm of the denominators), so that factoring's choice between
  // 1e-19 (6.1e18 a + 1.36e18 b) and 0.61 a + 0.136 b (GiNaC's, by addresses) gives one node.
  std::pair<numeric, std::string> splitSum(const ex& x, bool primitive) {
    auto& m = primitive ? primitiveMemo : memo;
    const auto it = m.find(x);
    if (it != m.end()) return it->second;
    Node n;
    n.kind = Node::Add;
    for (const ex& t : x) n.operands.push_back(split(t));
    std::sort(n.operands.begin(), n.operands.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    numeric content = n.operands.front().first.is_negative() ? -1 : 1;
    if (primitive &&
        std::all_of(n.operands.begin(), n.operands.end(), [](const auto& o) { return o.first.is_rational(); })) {
      numeric numerators = 0, denominators = 1;
      for (const auto& o : n.operands) {
        numerators = GiNaC::gcd(numerators, o.first.numer());
        denominators = GiNaC::lcm(denominators, o.first.denom());
      }
      if (!numerators.is_zero()) content *= numerators / denominators;
    }
    std::string key = "+(";
    for (auto& [c, node] : n.operands) c /= content, key += numberKey(c) + "*" + node + ",";
    const std::pair<numeric, std::string> out{content, add(key + ")", n)};
    m.emplace(x, out);
    return out;
  }

  // base^k, k an integer, the base's number taken out (content^k).
  std::pair<numeric, std::string> splitPower(const ex& x, bool primitive) {
    const auto [cb, base] = GiNaC::is_a<GiNaC::add>(x.op(0)) ? splitSum(x.op(0), primitive) : split(x.op(0));
    const long k = asNumber(x.op(1)).to_long();
    Node n;
    n.kind = Node::Power;
    n.base = base;
    n.exponent = std::abs(k);
    const std::string positive = add(powerKey(base, n.exponent), n);  // 1 / base^-k: the positive power too
    n.exponent = k;
    return {GiNaC::ex_to<numeric>(GiNaC::pow(cb, k)), k < 0 ? add(powerKey(base, k), n) : positive};
  }

  std::pair<numeric, std::string> splitNew(const ex& x) {
    Node n;
    if (isNumber(x)) return {asNumber(x), add("1", n)};
    if (GiNaC::is_a<GiNaC::symbol>(x)) {
      n.kind = Node::Symbol;
      n.symbol = x;
      return {1, add(GiNaC::ex_to<GiNaC::symbol>(x).get_name(), n)};
    }
    if (GiNaC::is_a<GiNaC::add>(x)) return splitSum(x, false);
    if (GiNaC::is_a<GiNaC::mul>(x)) {
      numeric c = 1;
      for (const ex& f : x) {
        // A sum in a product is taken primitive, its content joining the product's number.
        const bool sum = GiNaC::is_a<GiNaC::add>(f);
        const bool sumPower = GiNaC::is_a<GiNaC::power>(f) && GiNaC::is_a<GiNaC::add>(f.op(0)) && isNumber(f.op(1)) &&
                              asNumber(f.op(1)).is_integer();
        const auto [cf, node] = sum ? splitSum(f, true) : sumPower ? splitPower(f, true) : split(f);
        c *= cf;
        if (node != "1") n.factors.push_back(node);
      }
      if (n.factors.empty()) return {c, add("1", Node{})};
      if (n.factors.size() == 1) return {c, n.factors[0]};
      std::sort(n.factors.begin(), n.factors.end());
      n.kind = Node::Mul;
      std::string key = "*(";
      for (const std::string& f : n.factors) key += f + ",";
      return {c, add(key + ")", n)};
    }
    if (GiNaC::is_a<GiNaC::power>(x) && isNumber(x.op(1)) && asNumber(x.op(1)).is_integer())
      return splitPower(x, false);
    if (GiNaC::is_a<GiNaC::power>(x)) {
      n.kind = Node::Function;
      n.name = "pow";
      n.operands = {split(x.op(0)), split(x.op(1))};
    } else if (GiNaC::is_a<GiNaC::function>(x)) {
      n.kind = Node::Function;
      n.name = GiNaC::ex_to<GiNaC::function>(x).get_name();
      for (const ex& a : x) n.operands.push_back(split(a));
    } else {
      throw EquationsUnsupported("the equations contain an expression the code export does not write");
    }
    std::string key = n.name + "(";
    for (const auto& [c, node] : n.operands) key += numberKey(c) + "*" + node + ",";
    return {1, add(key + ")", n)};
  }

  // The node a factor's code refers to: a division by base^k refers to base^k.
  std::string operand(const std::string& key) const {
    const Node& p = nodes.at(key);
    return p.kind == Node::Power && p.exponent < 0 ? powerKey(p.base, -p.exponent) : key;
  }

  // The nodes a node's code refers to.
  std::vector<std::string> children(const Node& n) const {
    std::vector<std::string> out;
    if (n.kind == Node::Add || n.kind == Node::Function)
      for (const auto& o : n.operands) out.push_back(o.second);
    if (n.kind == Node::Mul)
      for (const std::string& f : n.factors) out.push_back(operand(f));
    if (n.kind == Node::Power) out.push_back(n.exponent < 0 ? powerKey(n.base, -n.exponent) : n.base);
    return out;
  }

  // First pass: how many times each node is referred to (each node's operands once).
  void count(const ex& x) { countNode(split(x).second); }
  void countNode(const std::string& key) {
    Node& n = nodes.at(key);
    if (n.kind == Node::One || n.kind == Node::Symbol) return;
    if (n.uses++ > 0) return;
    for (const std::string& c : children(n)) countNode(c);
  }

  std::string literal(const numeric& c) const {
    if (!c.is_real()) throw EquationsUnsupported("the equations have a complex number; no code is written for them");
    std::string s = shortestDecimal(c.to_double());
    if (s.find_first_of(".en") == std::string::npos) s += ".0";  // 2.0: C's 1/2 would be 0
    return s;
  }

  // |c node| and whether it is negative: a sum writes its negative terms as subtractions.
  std::pair<bool, Code> signedCode(numeric c, const std::string& key) {
    if (key == "1") return {c.is_negative(), {literal(GiNaC::abs(c)), 2}};
    const bool negative = c.is_negative();
    if (negative) c = -c;
    Code body = node(key);
    if (c == 1) return {negative, body};
    ++cost.multiplications;
    return {negative, {literal(c) + "*" + wrapped(body, 1), 1}};
  }

  Code expression(const numeric& c, const std::string& key) {
    auto [negative, code] = signedCode(c, key);
    if (!negative) return code;
    return {"-" + wrapped(code, 1), 0};  // a change of sign: not counted
  }
  Code expression(const ex& x) {
    const auto [c, key] = split(x);
    return expression(c, key);
  }

  std::string function(const std::string& name) const {
    if (name == "sin" || name == "cos" || name == "tan" || name == "exp" || name == "sqrt" || name == "atan2")
      return lang == Lang::Python ? "math." + name : name;
    if (name == "log") return lang == Lang::Python ? "math.log" : "log";
    if (name == "abs") return lang == Lang::C ? "fabs" : "abs";
    throw EquationsUnsupported("the equations contain " + name + "(), which the code export does not write");
  }

  Code build(const Node& n) {
    switch (n.kind) {
      case Node::One:
        return {"1.0", 2};
      case Node::Symbol:
        return {atom(GiNaC::ex_to<GiNaC::symbol>(n.symbol)), 2};
      case Node::Add: {
        std::string s;
        for (const auto& [c, key] : n.operands) {
          const auto [negative, code] = signedCode(c, key);
          if (s.empty())
            s = negative ? "-" + wrapped(code, 1) : code.s;
          else
            s += (negative ? " - " : " + ") + wrapped(code, 1), ++cost.additions;
        }
        return {s, 0};
      }
      case Node::Mul: {
        std::string numerator, denominators;
        for (const std::string& f : n.factors) {
          if (operand(f) != f) {
            denominators += "/" + wrapped(node(operand(f)), 2);
            ++cost.multiplications;  // a division
            continue;
          }
          if (!numerator.empty()) ++cost.multiplications;
          numerator += (numerator.empty() ? "" : "*") + wrapped(node(f), 1);
        }
        return {(numerator.empty() ? "1.0" : numerator) + denominators, 1};
      }
      case Node::Power: {
        if (n.exponent < 0) {  // a power in a denominator by itself: 1/(x^k)
          ++cost.multiplications;
          return {"1.0/" + wrapped(node(powerKey(n.base, -n.exponent)), 2), 1};
        }
        const std::string base = wrapped(node(n.base), 2);
        std::string s = base;
        for (long i = 1; i < n.exponent; ++i) s += "*" + base, ++cost.multiplications;  // x^k: k - 1 multiplications
        return {s, n.exponent > 1 ? 1 : 2};
      }
      case Node::Function: {
        ++cost.functions;
        if (n.name == "pow") {
          const std::string b = wrapped(expression(n.operands[0].first, n.operands[0].second), 2),
                            x = wrapped(expression(n.operands[1].first, n.operands[1].second), 2);
          if (x == "0.5") return {function("sqrt") + "(" + b + ")", 2};
          return {lang == Lang::C ? "pow(" + b + ", " + x + ")" : lang == Lang::Python ? b + "**" + x : b + "^" + x, 2};
        }
        std::string args;
        for (const auto& [c, key] : n.operands) args += (args.empty() ? "" : ", ") + expression(c, key).s;
        return {function(n.name) + "(" + args + ")", 2};
      }
    }
    return {};
  }

  // A node's code: its temporary when it has one (defined here the first time).
  Code node(const std::string& key) {
    Node& n = nodes.at(key);
    if (n.kind == Node::One || n.kind == Node::Symbol || !eliminate) return build(n);
    if (!n.temporary.empty()) return {n.temporary, 2};
    const bool shared = n.uses >= 2 || n.kind == Node::Function;
    Code code = build(n);
    if (!shared) return code;
    n.temporary = "t" + std::to_string(++temporaries);
    lines.push_back(declare(n.temporary, code.s));
    ++cost.temporaries;
    return {n.temporary, 2};
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
