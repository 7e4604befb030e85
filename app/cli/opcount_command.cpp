// opcount: one call of a formulation on the operation-counting scalar (dyn::CountingScalar), on the
// model or on the general N-link revolute chain, next to the count the seed paper prints for it.
#include <random>

#include "commands.hpp"

namespace cli {
namespace {

void writeFunctions(const dyn::OpCounts& c, JsonWriter& json) {
  json.key("functions");
  json.beginObject();
  json.field("sin", (long long)c.sin);
  json.field("cos", (long long)c.cos);
  json.field("sqrt", (long long)c.sqrt);
  json.field("abs", (long long)c.abs);
  json.field("atan2", (long long)c.atan2);
  json.field("acos", (long long)c.acos);
  json.field("other", (long long)c.other);
  json.endObject();
}

void writeCounts(const char* key, const dyn::OpCounts& c, JsonWriter& json) {
  json.key(key);
  json.beginObject();
  json.field("muls", (long long)c.muls);
  json.field("adds", (long long)c.adds);
  writeFunctions(c, json);
  json.endObject();
}

// Do the papers' tables describe this model: a serial chain of revolute joints?
bool serialRevoluteChain(const dyn::Model& m) {
  for (int i = 1; i <= m.N; ++i)
    if (m.parent[i] != i - 1 || m.joints[i].type != dyn::JointType::Revolute) return false;
  return true;
}

void writePaperCount(const dyn::PaperCount& p, int n, JsonWriter& json) {
  json.beginObject();
  json.field("source", p.source);
  json.field("muls_formula", p.mulsFormula);
  json.field("adds_formula", p.addsFormula);
  json.key("muls");  // the formula at this n (null where the seed's polynomial is not legible)
  if (const auto v = p.mulsAt(n))
    json.value(*v);
  else
    json.null();
  json.key("adds");
  if (const auto v = p.addsAt(n))
    json.value(*v);
  else
    json.null();
  json.key("tabulated");
  json.beginArray();
  for (const dyn::PaperCount::Value& t : p.tabulated) {
    json.beginObject();
    json.field("n", t.n);
    json.field("muls", t.muls);
    json.field("adds", t.adds);
    json.endObject();
  }
  json.endArray();
  json.field("basis", p.basis);
  json.endObject();
}

}  // namespace

void writeOperationCounts(const Session& s, JsonWriter& json) {
  const dyn::Model& model = s.model;
  // A fixed state: the counts of these branch-free formulations do not depend on it.
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> U(-1, 1);
  const Eigen::VectorXd q = dyn::randomConfiguration(model, rng);
  const Eigen::VectorXd qd = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
  const Eigen::VectorXd third = Eigen::VectorXd::NullaryExpr(model.nv, [&] { return U(rng); });
  const int n = model.nv;
  json.field("algorithm", s.options.algorithm);
  json.field("n", n);
  json.field("serial_revolute_chain", serialRevoluteChain(model));  // what the papers' formulas assume
  json.key("results");
  json.beginArray();
  for (const dyn::Formulation& f : dyn::formulations()) {
    if (f.name != s.options.algorithm) continue;
    if (s.options.problem && dyn::problemName(f.problem) != *s.options.problem) continue;
    const dyn::OpTally tally = dyn::countOperations(f, model, q, qd, third);
    json.beginObject();
    json.field("problem", dyn::problemName(f.problem));
    json.field("title", f.title);
    json.field("reference", f.reference);
    json.field("complexity", f.degree == 1 ? std::string("O(n)") : "O(n^" + std::to_string(f.degree) + ")");
    // the formulation's own arithmetic (the basis of Hollerbach's tables), the joint transforms, the off-line
    // tabulation (the configuration-space tables; zero for every other formulation), and their sum
    json.field("muls", (long long)tally.algorithm.muls);
    json.field("adds", (long long)tally.algorithm.adds);
    writeFunctions(tally.algorithm, json);
    writeCounts("joint_transforms", tally.jointTransforms, json);
    writeCounts("tabulation", tally.tabulation, json);
    writeCounts("total", tally.total(), json);
    json.key("paper");
    json.beginArray();
    for (const dyn::PaperCount& p : f.paperCounts) writePaperCount(p, n, json);
    json.endArray();
    json.endObject();
  }
  json.endArray();
}

}  // namespace cli
