// equations: the equations of motion in closed form (issue 40; docs/symbolic.md): M(q), C(q, qd) qd,
// g(q), tau = M qdd + C qd + g and the Christoffel symbols from the engine's CRBA and RNEA run on
// GiNaC's expressions, as text, LaTeX, JSON or C/Python/MATLAB code. A thin layer over
// dyn::equationsReport and dyn::writeEquations (dynscope_symbolic; its header includes no GiNaC).
// Compiled with DYNSCOPE_HAS_SYMBOLIC only when GiNaC was found (app/CMakeLists.txt); otherwise the
// command says how to get it.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "commands.hpp"

#if DYNSCOPE_HAS_SYMBOLIC
#include "dynscope/symbolic/equations_report.hpp"

namespace cli {
namespace {

// --parameters symbolic on a DH table: the standard-DH table the symbols are read from, refused with
// the way out. (Other files: the model's own parameters, symbolicModel.)
dyn::DhTable symbolicTable(const Session& s) {
  const Options& o = s.options;
  const auto refuse = [](const std::string& why) {
    throw std::invalid_argument("equations --parameters symbolic: " + why +
                                "; --parameters numeric writes the equations with the model's numbers");
  };
  if (!o.fixes.empty()) refuse("--fix changes the model's numbers");
  dyn::DhTable table = dyn::parseDhTable(readTextFile(s.modelPath), s.modelPath);
  if (table.convention != dyn::DhConvention::Standard)
    refuse("the table is in the modified DH convention (convert it: dynscope-cli convert " + s.modelPath +
           " --to dh --convention standard)");
  if (table.base) refuse("the table has a base directive");
  if (table.tool) refuse("the table has a tool directive");
  if (!table.loops.empty()) refuse("the table has closed loops");
  if (o.gravity) table.gravity = Eigen::Vector3d((*o.gravity)[0], (*o.gravity)[1], (*o.gravity)[2]);
  return table;
}

dyn::EquationFormat formatOf(const std::string& name) {
  if (name == "latex") return dyn::EquationFormat::Latex;
  if (name == "json") return dyn::EquationFormat::Json;
  if (name == "c") return dyn::EquationFormat::C;
  if (name == "python") return dyn::EquationFormat::Python;
  if (name == "matlab") return dyn::EquationFormat::Matlab;
  return dyn::EquationFormat::Text;
}

}  // namespace

// Options -> EquationsRequest -> equationsReport -> writeEquations -> --out or stdout.
int runEquations(const Options& options) {
  const Session s = openSession(options);
  if (s.mimic)
    throw std::invalid_argument("equations: " + s.model.name +
                                " has mimic joints; with --no-mimic the equations are written on all joints' "
                                "coordinates");
  const bool symbolic =
      options.parameters ? *options.parameters == "symbolic" : std::filesystem::path(s.modelPath).extension() == ".dh";
  const dyn::EquationFormat format = formatOf(options.format.value_or("text"));
  std::optional<dyn::DhTable> table;
  dyn::EquationsRequest request;
  request.parameters = symbolic ? dyn::EquationParameters::Symbolic : dyn::EquationParameters::Numeric;
  // Code computes tau from M, c and g; the Christoffel symbols are for reading.
  request.christoffel = format == dyn::EquationFormat::Text || format == dyn::EquationFormat::Latex ||
                        format == dyn::EquationFormat::Json;
  // --progress: each step on stderr with the seconds since the start (what a long derivation spends).
  const auto start = std::chrono::steady_clock::now();
  if (options.progress)
    request.progress = [&](int done, int total, const std::string& stage) {
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "equations: %d/%d %.2f s %s\n", done, total, t, stage.c_str());
    };
  dyn::EquationsReport report;
  try {
    if (symbolic && std::filesystem::path(s.modelPath).extension() == ".dh") table = symbolicTable(s);
    request.table = table ? &*table : nullptr;
    report = dyn::equationsReport(s.model, request);
  } catch (const dyn::EquationsUnsupported& e) {
    throw std::invalid_argument(std::string("equations: ") + e.what());
  }

  // The numbers at a state, when one is given.
  if (options.q || options.qd || options.qdd)
    dyn::evaluateEquations(report, configurationInput(s, options.q), velocityInput(s, options.qd, "--qd"),
                           velocityInput(s, options.qdd, "--qdd"));
  std::string text;
  try {
    text = dyn::writeEquations(report, format, s.modelPath);
  } catch (const dyn::EquationsUnsupported& e) {
    throw std::invalid_argument(std::string("equations: ") + e.what());
  }
  writeOutput(options.out, [&](std::ostream& o) { o << text; });
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
