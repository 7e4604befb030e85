// Orocos KDL (Debian's generic x86-64 build) side by side with Dynscope compiled with the same
// default flags (dynscope_engine_generic, no -march=native), on the same URDFs and links:
//   kdl/RNEA/<robot>               KDL::ChainIdSolver_RNE::CartToJnt (chain root -> tip)
//   kdl/CRBA/<robot>               KDL::ChainDynParam::JntToMass     (chain root -> tip)
//   kdl/RNEA_tree/<robot>          KDL::TreeIdSolver_RNE::CartToJnt  (whole tree)
//   dynscope_generic/<ALG>/<robot> dyn::rnea / crba / aba on a model of exactly the same links
// For the serial arms the chain ends at the leaf whose path carries all of the mass (so it is the
// whole robot); for the humanoid the chain is pelvis -> left hand (torso + arm, 9 DOF), compared
// with our model of those links only ("humanoid_arm_chain"), and the tree solver with our full model.
//
//   bench_kdl --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chaindynparam.hpp>
#include <kdl/chainidsolver_recursive_newton_euler.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/jntspaceinertiamatrix.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include "dynscope/dynscope.hpp"
#include "path_description.hpp"

namespace {

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

struct KdlChain {
  KDL::Chain chain;
  std::unique_ptr<KDL::ChainIdSolver_RNE> rne;
  std::unique_ptr<KDL::ChainDynParam> dynParam;
  KDL::JntArray q, qd, qdd, tau;
  KDL::JntSpaceInertiaMatrix H;
  KDL::Wrenches fext;
};

struct KdlTree {
  KDL::Tree tree;
  std::unique_ptr<KDL::TreeIdSolver_RNE> rne;
  KDL::JntArray q, qd, qdd, tau;
  KDL::WrenchMap fext;
};

std::vector<std::unique_ptr<Ours>> ours;
std::vector<std::unique_ptr<KdlChain>> chains;
std::vector<std::unique_ptr<KdlTree>> trees;

void registerOurs(const std::string& label, Ours* o) {
  benchmark::RegisterBenchmark(("dynscope_generic/RNEA/" + label).c_str(), [o](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(dyn::rnea(o->model, o->data, o->q, o->qd, o->qdd).data());
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark(("dynscope_generic/CRBA/" + label).c_str(), [o](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(dyn::crba(o->model, o->data, o->q).data());
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark(("dynscope_generic/ABA/" + label).c_str(), [o](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(dyn::aba(o->model, o->data, o->q, o->qd, o->tau).data());
      benchmark::ClobberMemory();
    }
  });
}

void registerChain(const std::string& label, KdlChain* c) {
  benchmark::RegisterBenchmark(("kdl/RNEA/" + label).c_str(), [c](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(c->rne->CartToJnt(c->q, c->qd, c->qdd, c->fext, c->tau));
      benchmark::DoNotOptimize(c->tau.data.data());
      benchmark::ClobberMemory();
    }
  });
  benchmark::RegisterBenchmark(("kdl/CRBA/" + label).c_str(), [c](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(c->dynParam->JntToMass(c->q, c->H));
      benchmark::DoNotOptimize(c->H.data.data());
      benchmark::ClobberMemory();
    }
  });
}

void registerTree(const std::string& label, KdlTree* t) {
  benchmark::RegisterBenchmark(("kdl/RNEA_tree/" + label).c_str(), [t](benchmark::State& st) {
    for (auto _ : st) {
      benchmark::DoNotOptimize(t->rne->CartToJnt(t->q, t->qd, t->qdd, t->fext, t->tau));
      benchmark::DoNotOptimize(t->tau.data.data());
      benchmark::ClobberMemory();
    }
  });
}

KDL::JntArray kdlArray(const Eigen::VectorXd& x) {
  KDL::JntArray a(x.size());
  a.data = x;
  return a;
}

// A KDL chain root -> tip with the same state as `o` (mapped by joint name).
KdlChain* makeChain(const KDL::Tree& tree, const std::string& root, const std::string& tip, const Ours& o) {
  auto c = std::make_unique<KdlChain>();
  if (!tree.getChain(root, tip, c->chain)) return nullptr;
  const KDL::Vector g(o.model.gravity.v.x(), o.model.gravity.v.y(), o.model.gravity.v.z());
  c->rne = std::make_unique<KDL::ChainIdSolver_RNE>(c->chain, g);
  c->dynParam = std::make_unique<KDL::ChainDynParam>(c->chain, g);
  const unsigned n = c->chain.getNrOfJoints();
  c->q.resize(n); c->qd.resize(n); c->qdd.resize(n); c->tau.resize(n);
  c->H.resize(n);
  c->fext.assign(c->chain.getNrOfSegments(), KDL::Wrench::Zero());
  unsigned k = 0;
  for (const KDL::Segment& s : c->chain.segments) {
    if (s.getJoint().getType() == KDL::Joint::Fixed) continue;
    const int b = o.model.jointIndex(s.getJoint().getName());
    const int v = o.model.joints[b].idx_v;
    c->q(k) = o.q[v]; c->qd(k) = o.qd[v]; c->qdd(k) = o.qdd[v];
    ++k;
  }
  chains.push_back(std::move(c));
  return chains.back().get();
}

KdlTree* makeTree(const std::string& path, const Ours& o) {
  auto t = std::make_unique<KdlTree>();
  if (!kdl_parser::treeFromFile(path, t->tree)) return nullptr;
  const KDL::Vector g(o.model.gravity.v.x(), o.model.gravity.v.y(), o.model.gravity.v.z());
  t->rne = std::make_unique<KDL::TreeIdSolver_RNE>(t->tree, g);
  const unsigned n = t->tree.getNrOfJoints();
  t->q.resize(n); t->qd.resize(n); t->qdd.resize(n); t->tau.resize(n);
  for (const auto& [name, el] : t->tree.getSegments()) {
    const KDL::Segment& s = GetTreeElementSegment(el);
    if (s.getJoint().getType() == KDL::Joint::Fixed) continue;
    const int v = o.model.joints[o.model.jointIndex(s.getJoint().getName())].idx_v;
    const unsigned k = GetTreeElementQNr(el);
    t->q(k) = o.q[v]; t->qd(k) = o.qd[v]; t->qdd(k) = o.qdd[v];
  }
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
    KDL::Tree tree;
    if (!kdl_parser::treeFromFile(path, tree)) continue;
    ours.push_back(std::make_unique<Ours>(full));
    Ours* o = ours.back().get();
    KdlChain* c = makeChain(tree, tree.getRootSegment()->first, tip, *o);
    if (!c) continue;
    fprintf(stderr, "%s: chain %s -> %s, %u joints\n", name, tree.getRootSegment()->first.c_str(), tip.c_str(),
            c->chain.getNrOfJoints());
    registerOurs(name, o);
    registerChain(name, c);
  }
  const std::string hpath = dir + "/humanoid.urdf";
  if (std::filesystem::exists(hpath)) {
    const dyn::RobotDescription desc = dyn::parseUrdfFile(hpath);
    KDL::Tree tree;
    if (kdl_parser::treeFromFile(hpath, tree)) {
      // Whole tree: KDL's tree RNE vs our full model.
      ours.push_back(std::make_unique<Ours>(dyn::buildModel(desc)));
      Ours* o = ours.back().get();
      if (KdlTree* t = makeTree(hpath, *o)) {
        registerOurs("humanoid", o);
        registerTree("humanoid", t);
      }
      // One chain: pelvis -> left hand, vs our model of the same links.
      const std::string root = tree.getRootSegment()->first, tip = "left_hand";
      ours.push_back(std::make_unique<Ours>(dyn::buildModel(pathDescription(desc, tip))));
      Ours* oc = ours.back().get();
      if (KdlChain* c = makeChain(tree, root, tip, *oc)) {
        fprintf(stderr, "humanoid_arm_chain: %s -> %s, %u joints\n", root.c_str(), tip.c_str(), c->chain.getNrOfJoints());
        registerOurs("humanoid_arm_chain", oc);
        registerChain("humanoid_arm_chain", c);
      }
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
