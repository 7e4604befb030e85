// equations: the equations of motion in closed form (issue 40; docs/symbolic.md): M(q), C(q, qd) qd,
// g(q) and tau = M qdd + C qd + g from the engine's CRBA and RNEA run on GiNaC's expressions
// (dynscope_symbolic), as text, LaTeX or JSON. Compiled with DYNSCOPE_HAS_SYMBOLIC only when GiNaC
// was found (app/CMakeLists.txt); otherwise the command says how to get it.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "commands.hpp"

#if DYNSCOPE_HAS_SYMBOLIC
#include "dynscope/io/dh_table.hpp"
#include "dynscope/symbolic/equations_of_motion.hpp"

namespace cli {
namespace {

using GiNaC::ex;

// GiNaC orders the terms of a sum and the factors of a product by hash values that depend on where
// its type information lies in memory, so its own printer writes the same expression differently
// from run to run. This printer sorts them: terms by their text without the leading number, factors
// numbers first, then symbols and their powers, functions, sums; the same expression, the same text.
std::string print(const ex& x, bool tex);

// --parameters numeric: every non-integer number as the shortest decimal of its double (0.16, not
// 9999999999999999/62500000000000000: the model's numbers are doubles computed by the loader).
bool decimals = false;

std::string number(const GiNaC::numeric& x, bool tex) {
  if (x.is_integer() || !decimals) {
    std::ostringstream out;
    if (tex) out << GiNaC::latex;
    out << x;
    return out.str();
  }
  return formatJsonNumber(x.to_double());
}

std::string ginacText(const ex& x, bool tex) {
  std::ostringstream out;
  if (tex) out << GiNaC::latex;
  out << x;
  return out.str();
}

bool isNegativeNumber(const ex& x) {
  return GiNaC::is_a<GiNaC::numeric>(x) && GiNaC::ex_to<GiNaC::numeric>(x).is_negative();
}

std::string parenthesized(const std::string& s, bool tex) { return tex ? "\\left(" + s + "\\right)" : "(" + s + ")"; }

// A factor of a product or the base of a power: sums, products and negative numbers in parentheses.
std::string factor(const ex& x, bool tex) {
  const bool wrap = GiNaC::is_a<GiNaC::add>(x) || GiNaC::is_a<GiNaC::mul>(x) || isNegativeNumber(x) ||
                    (GiNaC::is_a<GiNaC::numeric>(x) && !GiNaC::ex_to<GiNaC::numeric>(x).is_integer() && !decimals);
  return wrap ? parenthesized(print(x, tex), tex) : print(x, tex);
}

// The sort key of a term: its text without sign and leading number.
std::string termKey(std::string s) {
  s.erase(0, s.find_first_not_of("- "));
  if (s.starts_with("\\left(\\frac{")) s.erase(0, s.find("\\right)") + 7);  // a fraction (tex)
  const std::size_t k = s.find_first_not_of("-+.0123456789/*() ");
  return k == std::string::npos ? "~" + s : s.substr(k);
}

int factorRank(const ex& x) {
  if (GiNaC::is_a<GiNaC::numeric>(x)) return 0;
  if (GiNaC::is_a<GiNaC::symbol>(x)) return 1;
  if (GiNaC::is_a<GiNaC::power>(x)) return GiNaC::is_a<GiNaC::symbol>(x.op(0)) ? 1 : 3;
  if (GiNaC::is_a<GiNaC::function>(x)) return 2;
  return 3;
}

std::string print(const ex& x, bool tex) {
  if (GiNaC::is_a<GiNaC::add>(x)) {
    std::vector<std::string> terms;
    for (const ex& t : x) terms.push_back(print(t, tex));
    std::stable_sort(terms.begin(), terms.end(), [](const std::string& a, const std::string& b) {
      const std::string ka = termKey(a), kb = termKey(b);
      return ka != kb ? ka < kb : a < b;
    });
    std::string s;
    for (const std::string& t : terms) {
      if (s.empty())
        s = t;
      else if (t.starts_with("-"))
        s += tex ? " - " + t.substr(1) : t;
      else
        s += tex ? " + " + t : "+" + t;
    }
    return s;
  }
  if (GiNaC::is_a<GiNaC::mul>(x)) {
    // Numeric parameters: a number times a sum is multiplied out (factoring would pull out the
    // rational content of the doubles, 1e-103 times a 90-digit integer).
    if (decimals && std::any_of(x.begin(), x.end(), [](const ex& f) { return GiNaC::is_a<GiNaC::add>(f); }) &&
        std::any_of(x.begin(), x.end(), [](const ex& f) {
          return GiNaC::is_a<GiNaC::numeric>(f) && !GiNaC::ex_to<GiNaC::numeric>(f).is_integer();
        }))
      return print(x.expand(), tex);
    GiNaC::numeric coefficient = 1;
    std::vector<std::pair<int, std::string>> factors;
    for (const ex& f : x) {
      if (GiNaC::is_a<GiNaC::numeric>(f)) {
        coefficient *= GiNaC::ex_to<GiNaC::numeric>(f);
      } else if (GiNaC::is_a<GiNaC::add>(f) && print(f, tex).starts_with("-")) {
        // One sign for -a (b - c) and a (c - b), which factoring gives by GiNaC's order: the sum's
        // first term positive.
        coefficient = -coefficient;
        factors.emplace_back(factorRank(f), factor(-f, tex));
      } else {
        factors.emplace_back(factorRank(f), factor(f, tex));
      }
    }
    std::sort(factors.begin(), factors.end());
    std::string s;
    if (coefficient.is_negative()) s = "-", coefficient = -coefficient;
    bool first = true;
    if (coefficient != 1) {
      s += coefficient.is_integer() || decimals ? number(coefficient, tex) : factor(coefficient, tex);
      first = false;
    }
    for (const auto& f : factors) {
      s += first ? "" : tex ? " " : "*";
      s += f.second;
      first = false;
    }
    return s;
  }
  if (GiNaC::is_a<GiNaC::power>(x)) {
    const std::string e = print(x.op(1), tex);
    if (tex) return factor(x.op(0), tex) + "^{" + e + "}";
    const bool plain = GiNaC::is_a<GiNaC::numeric>(x.op(1)) && GiNaC::ex_to<GiNaC::numeric>(x.op(1)).is_pos_integer();
    return factor(x.op(0), tex) + "^" + (plain ? e : "(" + e + ")");
  }
  if (GiNaC::is_a<GiNaC::function>(x)) {
    const std::string name = GiNaC::ex_to<GiNaC::function>(x).get_name();
    std::string args;
    for (const ex& a : x) args += (args.empty() ? "" : ",") + print(a, tex);
    if (!tex) return name + "(" + args + ")";
    return (name == "sin" || name == "cos" || name == "tan" || name == "exp" || name == "log"
                ? "\\" + name
                : "\\operatorname{" + name + "}") +
           parenthesized(args, tex);
  }
  if (GiNaC::is_a<GiNaC::numeric>(x)) return number(GiNaC::ex_to<GiNaC::numeric>(x), tex);
  return ginacText(x, tex);  // symbols
}

std::string text(const ex& x) { return print(x, false); }
std::string latex(const ex& x) { return print(x, true); }

// What a parameter symbol of symbolicDhModel stands for, from its name (l1, d1, m1, c1x, I1xx, g).
std::string meaning(const std::string& name) {
  if (name == "g") return "magnitude of gravity [m/s^2]";
  const std::size_t end = name.find_first_not_of("0123456789", 1);
  const std::string row = name.substr(1, end - 1), rest = end == std::string::npos ? "" : name.substr(end);
  switch (name[0]) {
    case 'l':
      return "link length a of row " + row + " [m]";
    case 'd':
      return "offset d of row " + row + " [m]";
    case 'm':
      return "mass of link " + row + " [kg]";
    case 'c':
      return "centre of mass of link " + row + ", " + rest + " in DH frame " + row + " [m]";
    case 'I':
      return "inertia of link " + row + " about its centre of mass, " + rest + " (DH frame " + row + " axes) [kg m^2]";
  }
  return "";
}

struct Symbols {
  std::string name, tex, meaning;
  std::optional<double> value;
};

// The symbolic model: a standard-DH table's parameters as symbols (symbolicDhModel), or the loaded
// model's numbers (model.cast<Sym>()).
struct Problem {
  dyn::ModelTpl<dyn::Sym> model;
  GiNaC::lst values;  // parameter == value
  std::vector<GiNaC::realsymbol> groups;
  std::vector<Symbols> parameters;
};

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Problem symbolicProblem(const Session& s) {
  const Options& o = s.options;
  const auto refuse = [](const std::string& why) {
    throw std::invalid_argument("equations --parameters symbolic: " + why +
                                "; --parameters numeric writes the equations with the model's numbers");
  };
  if (std::filesystem::path(s.modelPath).extension() != ".dh")
    refuse(s.modelPath + " is not a DH table: symbolic parameters are read from a standard-DH table (.dh)");
  if (!o.fixes.empty()) refuse("--fix changes the model's numbers");
  dyn::DhTable table = dyn::parseDhTable(readText(s.modelPath), s.modelPath);
  if (table.convention != dyn::DhConvention::Standard)
    refuse("the table is in the modified DH convention (convert it: dynscope-cli convert " + s.modelPath +
           " --to dh --convention standard)");
  if (table.base) refuse("the table has a base directive");
  if (table.tool) refuse("the table has a tool directive");
  if (!table.loops.empty()) refuse("the table has closed loops");
  if (o.gravity) table.gravity = Eigen::Vector3d((*o.gravity)[0], (*o.gravity)[1], (*o.gravity)[2]);
  dyn::SymbolicModel sm = dyn::symbolicDhModel(table);
  Problem p{sm.model, sm.values, sm.masses(), {}};
  for (std::size_t k = 0; k < sm.parameters.size(); ++k) {
    const auto& x = sm.parameters[k];
    std::ostringstream tex;
    tex << GiNaC::latex << ex(x);
    p.parameters.push_back({x.get_name(), tex.str(), meaning(x.get_name()), dyn::Sym::toDouble(sm.values.op(k).op(1))});
  }
  return p;
}

// The model's numbers as exact decimals (Sym), with the rounding noise of rotations taken out first:
// |x| < 1e-13 becomes 0 and |x| within 1e-13 of 1 becomes +-1 (cos(pi/2) = 6.1e-17 would otherwise be
// an exact rational that every product carries along).
Problem numericProblem(const Session& s) {
  dyn::Model m = s.model;
  const auto snap = [](auto&& values) {
    for (double& x : values.reshaped()) {
      if (std::abs(x) < 1e-13) x = 0;
      if (std::abs(std::abs(x) - 1) < 1e-13) x = x > 0 ? 1 : -1;
    }
  };
  for (int i = 1; i <= m.N; ++i) {
    snap(m.Xtree[i].E);
    snap(m.Xtree[i].r);
    snap(m.I[i].h);
    snap(m.I[i].Ibar);
    snap(m.joints[i].axis);
  }
  snap(m.gravity.v);
  snap(m.gravity.w);
  return Problem{m.cast<dyn::Sym>(), {}, {}, {}};
}

// The model's joints must be revolute or prismatic, in a tree without loops or enforced mimic joints.
void requireSupported(const Session& s) {
  const dyn::Model& m = s.model;
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[i].type != dyn::JointType::Revolute && m.joints[i].type != dyn::JointType::Prismatic)
      throw std::invalid_argument("equations: joint '" + m.jointNames[i] + "' is " +
                                  dyn::jointTypeName(m.joints[i].type) + (m.floatingBase ? " (--floating-base)" : "") +
                                  "; the equations of motion are written for revolute and prismatic joints only");
  if (m.hasLoops())
    throw std::invalid_argument("equations: " + m.name +
                                " has closed loops; the equations are written for open chains and trees only");
  if (s.mimic)
    throw std::invalid_argument("equations: " + m.name +
                                " has mimic joints; with --no-mimic the equations are written on all joints' "
                                "coordinates");
}

struct Entry {
  std::string name, latexName;
  ex value;
};

}  // namespace

int runEquations(const Options& options) {
  const Session s = openSession(options);
  requireSupported(s);
  const bool symbolic =
      options.parameters ? *options.parameters == "symbolic" : std::filesystem::path(s.modelPath).extension() == ".dh";
  const std::string format = options.format.value_or("text");
  Problem p = symbolic ? symbolicProblem(s) : numericProblem(s);
  decimals = !symbolic;
  const int n = s.model.nv;
  const dyn::SymbolicState state = dyn::symbolicState(n);
  dyn::EquationsOfMotion eom;
  try {
    eom = dyn::equationsOfMotion(p.model, state, p.groups);
  } catch (const dyn::SymbolicBranch& e) {
    throw std::runtime_error(std::string("equations: the algorithms branch on a symbolic value (") + e.what() +
                             "); try --parameters numeric");
  }

  // Entries in reading order: M (upper triangle: M is symmetric), c, g, tau.
  std::vector<Entry> entries;
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      const std::string k = std::to_string(i + 1) + std::to_string(j + 1);
      const std::string kk = n > 9 ? std::to_string(i + 1) + "," + std::to_string(j + 1) : k;
      entries.push_back({"M" + k, "M_{" + kk + "}", eom.M(i, j).e});
    }
  for (const auto& [name, v] : {std::pair{"c", &eom.c}, {"g", &eom.g}, {"tau", &eom.tau}})
    for (int i = 0; i < n; ++i)
      entries.push_back({name + std::to_string(i + 1),
                         std::string(name == std::string("tau") ? "\\tau" : name) + "_{" + std::to_string(i + 1) + "}",
                         (*v)[i].e});

  // The numbers at a state, when one is given.
  const bool atState = options.q || options.qd || options.qdd;
  GiNaC::exmap at;
  Eigen::VectorXd q, qd, qdd;
  if (atState) {
    q = configurationInput(s, options.q);
    qd = velocityInput(s, options.qd, "--qd");
    qdd = velocityInput(s, options.qdd, "--qdd");
    for (const auto& r : p.values) at[r.op(0)] = r.op(1);
    for (int k = 0; k < n; ++k) {
      at[state.q[k]] = dyn::Sym::exactDecimal(q[k]);
      at[state.qd[k]] = dyn::Sym::exactDecimal(qd[k]);
      at[state.qdd[k]] = dyn::Sym::exactDecimal(qdd[k]);
    }
  }
  const auto valueOf = [&](const ex& x) { return dyn::Sym::toDouble(x.subs(at)); };

  // The symbols: the state's, then the parameters.
  std::vector<Symbols> symbols;
  for (int k = 0; k < n; ++k) {
    const bool revolute = s.model.joints[s.model.dofBody[k]].type == dyn::JointType::Revolute;
    const std::string joint = "joint " + std::to_string(k + 1) + " (" + s.model.jointNames[s.model.dofBody[k]] + ")";
    const std::string unit = revolute ? " [rad" : " [m";
    symbols.push_back({state.q[k].get_name(), latex(state.q[k]),
                       joint + (revolute ? " angle" : " displacement") + unit + "]",
                       atState ? std::optional(q[k]) : std::nullopt});
    symbols.push_back({state.qd[k].get_name(), latex(state.qd[k]), joint + " velocity" + unit + "/s]",
                       atState ? std::optional(qd[k]) : std::nullopt});
    symbols.push_back({state.qdd[k].get_name(), latex(state.qdd[k]), joint + " acceleration" + unit + "/s^2]",
                       atState ? std::optional(qdd[k]) : std::nullopt});
  }
  symbols.insert(symbols.end(), p.parameters.begin(), p.parameters.end());

  const std::string what = std::string(symbolic ? "symbolic parameters (standard DH)"
                                                : "numeric parameters (exact "
                                                  "decimals of the model's)");
  std::ostringstream out;
  if (format == "json") {
    JsonWriter json(out);
    json.beginObject();
    writeHeader(s, json);
    json.field("parameters", symbolic ? "symbolic" : "numeric");
    const auto matrices = [&](const char* key, auto print) {
      json.key(std::string(key) + "_M");
      json.beginArray();
      for (int i = 0; i < n; ++i) {
        std::vector<std::string> row;
        for (int j = 0; j < n; ++j) row.push_back(print(eom.M(i, j).e));
        json.inlineArray(row);
      }
      json.endArray();
      for (const auto& [name, v] : {std::pair{"c", &eom.c}, {"g", &eom.g}, {"tau", &eom.tau}}) {
        std::vector<std::string> col;
        for (int i = 0; i < n; ++i) col.push_back(print((*v)[i].e));
        json.arrayField(std::string(key) + "_" + name, col);
      }
    };
    matrices("text", text);
    matrices("latex", latex);
    json.key("symbols");
    json.beginArray();
    for (const Symbols& x : symbols) {
      json.beginObject();
      json.field("name", x.name);
      json.field("tex", x.tex);
      json.field("meaning", x.meaning);
      if (x.value) json.field("value", *x.value);
      json.endObject();
    }
    json.endArray();
    if (atState) {
      json.key("values");
      json.beginObject();
      Eigen::MatrixXd M(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) M(i, j) = valueOf(eom.M(i, j).e);
      json.key("M");
      json.matrix(M);
      for (const auto& [name, v] : {std::pair{"c", &eom.c}, {"g", &eom.g}, {"tau", &eom.tau}}) {
        Eigen::VectorXd x(n);
        for (int i = 0; i < n; ++i) x[i] = valueOf((*v)[i].e);
        json.arrayField(name, x);
      }
      json.endObject();
    }
    json.endObject();
    out << '\n';
  } else if (format == "latex") {
    out << "% Equations of motion of " << s.model.name << " (" << s.modelPath << "), " << what
        << ":\n% \\tau = M(q)\\ddot{q} + C(q, \\dot{q})\\dot{q} + g(q)\n";
    const auto column = [&](const char* name, const dyn::VecX<dyn::Sym>& v) {
      out << "\\[ " << name << " = \\begin{pmatrix}";
      for (int i = 0; i < n; ++i) out << (i ? " \\\\ " : " ") << latex(v[i].e);
      out << " \\end{pmatrix} \\]\n";
    };
    out << "\\[ M(q) = \\begin{pmatrix}";
    for (int i = 0; i < n; ++i) {
      out << (i ? " \\\\ " : " ");
      for (int j = 0; j < n; ++j) out << (j ? " & " : "") << latex(eom.M(i, j).e);
    }
    out << " \\end{pmatrix} \\]\n";
    column("C(q, \\dot{q})\\dot{q}", eom.c);
    column("g(q)", eom.g);
    column("\\tau", eom.tau);
    out << "% Entry by entry (M is symmetric: M_{ji} = M_{ij})\n";
    for (const Entry& e : entries) out << "\\[ " << e.latexName << " = " << latex(e.value) << " \\]\n";
    out << "% Symbols\n";
    for (const Symbols& x : symbols)
      out << "% $" << x.tex << "$: " << x.meaning << (x.value ? " = " + formatJsonNumber(*x.value) : "") << "\n";
  } else {
    out << "# Equations of motion of " << s.model.name << " (" << s.modelPath << "), " << what
        << ":\n# tau = M(q) qdd + C(q, qd) qd + g(q); c = C(q, qd) qd; M is symmetric (Mji = Mij)\n";
    for (const Entry& e : entries) out << e.name << " = " << text(e.value) << "\n";
    out << "\n# Symbols\n";
    std::size_t width = 0;
    for (const Symbols& x : symbols) width = std::max(width, x.name.size());
    for (const Symbols& x : symbols)
      out << "# " << x.name << std::string(width + 2 - x.name.size(), ' ') << x.meaning
          << (x.value ? " = " + formatJsonNumber(*x.value) : "") << "\n";
    if (atState) {
      out << "\n# At the state above\n";
      for (const Entry& e : entries) out << e.name << " = " << formatJsonNumber(valueOf(e.value)) << "\n";
    }
  }
  writeOutput(options.out, [&](std::ostream& o) { o << out.str(); });
  return 0;
}

}  // namespace cli

#else  // no GiNaC in this build

namespace cli {

int runEquations(const Options&) {
  throw std::runtime_error(
      "equations: this build has no computer algebra (GiNaC was not found when it was configured); install "
      "it (apt-get install libginac-dev, or scripts/setup) and rebuild (cmake --build BUILD_DIR configures again)");
}

}  // namespace cli

#endif
