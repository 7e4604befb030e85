// The equations of motion in closed form (issue 40; docs/benchmarks.md, docs/symbolic.md): the time of
// deriving, simplifying and writing them with the computer algebra of dynscope_symbolic. Not a timed
// test: the target (the PUMA 560 with numeric parameters in at most 10 s on the project's machine) is
// read from the numbers. Each iteration derives from scratch; one iteration is seconds long.
//
//   bench_symbolic [--benchmark_filter=puma]
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/symbolic/equations_report.hpp"

namespace {

std::string robot(const char* file) { return (std::filesystem::path(DYNSCOPE_ROBOTS_DIR) / file).string(); }

dyn::DhTable dhTable(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return dyn::parseDhTable(text.str(), path);
}

// M, C qd, g, tau and the Christoffel symbols derived and printed, then tau as C code after CSE.
void equations(benchmark::State& state, const char* file, dyn::EquationParameters parameters) {
  const dyn::Model model = dyn::loadModel(robot(file));
  const dyn::DhTable table = dhTable(robot(file));
  dyn::EquationsRequest request;
  request.parameters = parameters;
  request.table = parameters == dyn::EquationParameters::Symbolic ? &table : nullptr;
  for (auto _ : state) {
    const dyn::EquationsReport report = dyn::equationsReport(model, request);
    benchmark::DoNotOptimize(dyn::writeEquations(report, dyn::EquationFormat::C, file).size());
  }
}

void closedFormCost(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(dyn::closedFormCost(int(state.range(0))).multiplications);
}

}  // namespace

BENCHMARK_CAPTURE(equations, puma560_numeric, "puma560.dh", dyn::EquationParameters::Numeric)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(equations, puma560_symbolic, "puma560.dh", dyn::EquationParameters::Symbolic)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(equations, stanford_arm_symbolic, "stanford_arm.dh", dyn::EquationParameters::Symbolic)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK(closedFormCost)->DenseRange(2, 4)->Unit(benchmark::kSecond)->Iterations(1);

BENCHMARK_MAIN();
