// The main() of the formulation benchmarks (bench_formulations, bench_lagrangian): the robots issue 14
// names (the UR5, the Stanford arm with its prismatic joint, the 32-joint humanoid tree), each built as a
// `Robot(label, path)` and handed to `registerAll`, then Google Benchmark runs.
#pragma once
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

template <class Robot>
int runOnFormulationRobots(int argc, char** argv, void (*registerAll)(Robot*)) {
  static std::vector<std::unique_ptr<Robot>> robots;  // alive while the benchmarks run
  const std::string dir = DYNSCOPE_ROBOTS_DIR;
  const struct {
    const char* label;
    const char* file;
  } cases[] = {{"ur5", "ur5.urdf"}, {"stanford_arm", "stanford_arm.dh"}, {"humanoid", "humanoid.urdf"}};
  for (const auto& c : cases) {
    const std::string path = dir + "/" + c.file;
    if (!std::filesystem::exists(path)) {
      std::fprintf(stderr, "skipping %s: not found\n", path.c_str());
      continue;
    }
    robots.push_back(std::make_unique<Robot>(c.label, path));
  }
  for (auto& r : robots) registerAll(r.get());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
