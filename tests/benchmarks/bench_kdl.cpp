// Orocos KDL (Debian's generic x86-64 build) side by side with Dynscope, on the same URDFs and links:
//   kdl/RNEA/<robot>               KDL::ChainIdSolver_RNE::CartToJnt (chain root -> tip)
//   kdl/CRBA/<robot>               KDL::ChainDynParam::JntToMass     (chain root -> tip)
//   kdl/RNEA_tree/<robot>          KDL::TreeIdSolver_RNE::CartToJnt  (whole tree)
//   dynscope/<ALG>/<robot>         dyn::rnea / crba / aba on a model of exactly the same links
// Our side is compiled with the engine's flags (-march=native when DYNSCOPE_NATIVE is on; the
// context line "dynscope_flags" says which): configure with -DDYNSCOPE_NATIVE=OFF to compare with
// the same default flags as KDL. KDL is reached through tests/oracle/kdl_bridge.hpp (the shared
// library dynscope_kdl_bridge, default flags): no Eigen object crosses between the two builds, and
// each timed KDL call is one solver call on arrays prepared inside that library.
// For the serial arms the chain ends at the leaf whose path carries all of the mass (so it is the
// whole robot); for the humanoid the chain is pelvis -> left hand (torso + arm, 9 DOF), compared
// with our model of those links only ("humanoid_arm_chain"), and the tree solver with our full model.
//
//   bench_kdl --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "kdl_bridge.hpp"
#include "path_description.hpp"

namespace {

using dyn::kdl_bridge::KdlChainOracle;
using dyn::kdl_bridge::KdlTreeOracle;
using dyn::testing::pathDescription;

// Our side: a model, its workspace and a random fixed state.
struct Ours {
  dyn::Model model;
  dyn::Data data;
  Eigen::VectorXd q, qd, qdd, tau;
  explicit Ours(dyn::Model m) : model(std::move(m)), data(model) {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> U(-1, 1);
    q = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 3.0 * U(rng); });
    qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 2.0 * U(rng); });
    qdd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 3.0 * U(rng); });
    tau = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return 10.0 * U(rng); });
  }
};

std::vector<std::unique_ptr<Ours>> ours;
std::vector<std::unique_ptr<KdlChainOracle>> chains;
std::vector<std::unique_ptr<KdlTreeOracle>> trees;

void registerOurs(const std::string& label, Ours* o) {
  benchmark::RegisterBenchmark(("dynscope/RNEA/" + label).c_str(), [o](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(dyn::rnea(o->model, o->data, o->q, o->qd, o->qdd).data());
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark(("dynscope/CRBA/" + label).c_str(), [o](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(dyn::crba(o->model, o->data, o->q).data());
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark(("dynscope/ABA/" + label).c_str(), [o](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(dyn::aba(o->model, o->data, o->q, o->qd, o->tau).data());
      benchmark::ClobberMemory();
    }
  });
}

// KDL's timed calls run inside dynscope_kdl_bridge on the state prepared there (the call into the
// shared library is the same kind of call as one into liborocos-kdl itself).
void registerChain(const std::string& label, KdlChainOracle* c) {
  benchmark::RegisterBenchmark(("kdl/RNEA/" + label).c_str(), [c](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(c->runPreparedInverseDynamics());
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark(("kdl/CRBA/" + label).c_str(), [c](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(c->runPreparedMassMatrix());
      benchmark::ClobberMemory();
    }
  });
}

void registerTree(const std::string& label, KdlTreeOracle* t) {
  benchmark::RegisterBenchmark(("kdl/RNEA_tree/" + label).c_str(), [t](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(t->runPreparedInverseDynamics());
      benchmark::ClobberMemory();
    }
  });
}

std::array<double, 3> kdlGravity(const Ours& o) {
  return {o.model.gravity.v.x(), o.model.gravity.v.y(), o.model.gravity.v.z()};
}

// The state of `o` in KDL's joint order (names in that order), for prepare().
void prepareByName(const std::vector<std::string>& names, const Ours& o, std::vector<double>& q,
                   std::vector<double>& qd, std::vector<double>& qdd) {
  for (const std::string& name : names) {
    const int v = o.model.joints[o.model.jointIndex(name)].idx_v;
    q.push_back(o.q[v]); qd.push_back(o.qd[v]); qdd.push_back(o.qdd[v]);
  }
}

// A KDL chain root -> tip with the same state as `o` (mapped by joint name).
KdlChainOracle* makeChain(const KdlTreeOracle& tree, const std::string& tip, const Ours& o) {
  std::unique_ptr<KdlChainOracle> c = tree.chain(tip);
  if (!c) return nullptr;
  std::vector<double> q, qd, qdd;
  prepareByName(c->jointNames(), o, q, qd, qdd);
  c->prepare(q, qd, qdd);
  chains.push_back(std::move(c));
  return chains.back().get();
}

// KDL's tree of the file with o's gravity; nullptr (and a message) when kdl_parser fails.
std::unique_ptr<KdlTreeOracle> readKdlTree(const std::string& path, const Ours& o) {
  try {
    return std::make_unique<KdlTreeOracle>(path, kdlGravity(o));
  } catch (const std::exception& e) {
    fprintf(stderr, "%s; skipped\n", e.what());
    return nullptr;
  }
}

// KDL's whole tree of the file with the same state as `o` (mapped by joint name).
KdlTreeOracle* makeTree(const std::string& path, const Ours& o) {
  std::unique_ptr<KdlTreeOracle> t = readKdlTree(path, o);
  if (!t) return nullptr;
  std::vector<double> q, qd, qdd;
  prepareByName(t->jointNames(), o, q, qd, qdd);
  t->prepare(q, qd, qdd);
  trees.push_back(std::move(t));
  return trees.back().get();
}

// The leaf link whose path from the root carries the whole mass of the robot (serial arms).
std::string fullMassLeaf(const dyn::RobotDescription& desc, const dyn::Model& full) {
  std::set<std::string> parents;
  for (const auto& j : desc.joints) parents.insert(j.parent);
  for (const auto& l : desc.links) {
    if (parents.count(l.name)) continue;
    const dyn::Model sub = dyn::buildModel(pathDescription(desc, l.name));
    if (sub.nv == full.nv && std::abs(sub.totalMass() - full.totalMass()) <= 1e-12 * full.totalMass()) return l.name;
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = DYNSCOPE_ROBOTS_DIR;
  for (const char* name : {"ur5", "panda"}) {
    const std::string path = dir + "/" + name + ".urdf";
    if (!std::filesystem::exists(path)) continue;
    const dyn::RobotDescription desc = dyn::parseUrdfFile(path);
    const dyn::Model full = dyn::buildModel(desc);
    const std::string tip = fullMassLeaf(desc, full);
    if (tip.empty()) { fprintf(stderr, "%s: no chain carries the whole mass; skipped\n", name); continue; }
    ours.push_back(std::make_unique<Ours>(full));
    Ours* o = ours.back().get();
    const std::unique_ptr<KdlTreeOracle> tree = readKdlTree(path, *o);
    if (!tree) continue;
    KdlChainOracle* c = makeChain(*tree, tip, *o);
    if (!c) continue;
    fprintf(stderr, "%s: chain %s -> %s, %d joints\n", name, tree->rootSegment().c_str(), tip.c_str(), c->joints());
    registerOurs(name, o);
    registerChain(name, c);
  }
  const std::string hpath = dir + "/humanoid.urdf";
  if (std::filesystem::exists(hpath)) {
    const dyn::RobotDescription desc = dyn::parseUrdfFile(hpath);
    // Whole tree: KDL's tree RNE vs our full model.
    ours.push_back(std::make_unique<Ours>(dyn::buildModel(desc)));
    Ours* o = ours.back().get();
    if (KdlTreeOracle* t = makeTree(hpath, *o)) {
      registerOurs("humanoid", o);
      registerTree("humanoid", t);
      // One chain: pelvis -> left hand, vs our model of the same links.
      const std::string root = t->rootSegment(), tip = "left_hand";
      ours.push_back(std::make_unique<Ours>(dyn::buildModel(pathDescription(desc, tip))));
      Ours* oc = ours.back().get();
      if (KdlChainOracle* c = makeChain(*t, tip, *oc)) {
        fprintf(stderr, "humanoid_arm_chain: %s -> %s, %d joints\n", root.c_str(), tip.c_str(), c->joints());
        registerOurs("humanoid_arm_chain", oc);
        registerChain("humanoid_arm_chain", c);
      }
    }
  }
  benchmark::AddCustomContext("dynscope_flags", DYNSCOPE_BENCH_ENGINE_FLAGS);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
