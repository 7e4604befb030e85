// trace: an algorithm step by step (lecture mode's walk-through, headless): every step's body,
// pass, equations with their labels, the quantities it wrote and the operation count so far; the
// result under the plain command's key (CRBA's also under M).
#include <cstdio>
#include <string_view>

#include "commands.hpp"
#include "dynscope/trace/algorithm_trace.hpp"

namespace cli {
namespace {

void writeCounts(const dyn::OpTally& t, JsonWriter& json) {
  json.beginObject();
  json.field("muls", int(t.algorithm.muls));
  json.field("adds", int(t.algorithm.adds));
  json.field("functions", int(t.algorithm.functions()));
  json.key("joint_transforms");
  json.beginObject();
  json.field("muls", int(t.jointTransforms.muls));
  json.field("adds", int(t.jointTransforms.adds));
  json.field("functions", int(t.jointTransforms.functions()));
  json.endObject();
  json.endObject();
}

void writeValue(const Eigen::MatrixXd& v, JsonWriter& json) {
  if (v.size() == 1)
    json.value(v(0, 0));
  else if (v.cols() == 1)
    json.inlineArray(v.col(0));
  else
    json.matrix(v);
}

// A patch (the entries of H or L a step wrote) is printed as the whole matrix it leaves in `after`,
// the state after the step, null where not computed yet.
const dyn::TraceTerm& asWritten(const dyn::TraceTerm& t, const dyn::TraceState* after) {
  const dyn::TraceTerm* whole = t.patch && after ? after->find(t.quantity, t.index) : nullptr;
  return whole ? *whole : t;
}

void writeTerms(const Session& s, const std::vector<dyn::TraceTerm>& terms, const std::vector<int>& which,
                JsonWriter& json, const dyn::TraceState* after = nullptr) {
  json.beginArray();
  for (int k : which) {
    const dyn::TraceTerm& t = asWritten(terms[k], after);
    json.beginObject();
    json.field("quantity", t.quantity);
    json.field("symbol", dyn::plainMarkup(t.symbol));
    if (t.index >= 0) {
      json.field("body", s.model.bodyNames[t.index]);
      json.field("body_index", t.index);
    }
    json.field("kind", dyn::valueKindName(t.kind));
    if (t.frame != dyn::TraceFrame::None) json.field("coordinates", dyn::traceFrameName(t.frame));
    if (t.role != dyn::TraceRole::None) json.field("role", dyn::traceRoleName(t.role));  // what its arrow shows
    json.key("value");
    writeValue(t.value, json);
    json.endObject();
  }
  json.endArray();
}

std::vector<int> all(size_t n) {
  std::vector<int> v(n);
  for (size_t k = 0; k < n; ++k) v[k] = int(k);
  return v;
}

}  // namespace

void writeTrace(const Session& s, JsonWriter& json) {
  const dyn::TraceableAlgorithm& a = *dyn::findTraceableAlgorithm(s.options.algorithm);
  dyn::TraceInput in;
  in.q = configurationInput(s, s.options.q);
  if (a.needs != dyn::TraceNeeds::Positions) in.qd = velocityInput(s, s.options.qd, "--qd");
  if (a.needs == dyn::TraceNeeds::Accelerations) in.qdd = velocityInput(s, s.options.qdd, "--qdd");
  if (a.needs == dyn::TraceNeeds::Forces) {
    requireRegularInertia(s.model);
    in.tau = velocityInput(s, s.options.tau, "--tau");
  }
  const dyn::AlgorithmTrace trace = dyn::traceAlgorithm(s.model, a.name, in);

  json.field("algorithm", a.name);
  json.field("title", a.title);
  json.field("source", a.source);
  json.field("coordinates", a.coordinates);
  json.arrayField("q", in.q);
  if (in.qd.size()) json.arrayField("qd", in.qd);
  if (in.qdd.size()) json.arrayField("qdd", in.qdd);
  if (in.tau.size()) json.arrayField("tau_input", in.tau);
  json.key("passes");
  json.beginArray();
  for (const dyn::TracePass& p : trace.passes) {
    json.beginObject();
    json.field("name", p.name);
    json.field("reference", p.reference);
    json.field("direction", dyn::passDirectionName(p.direction));
    json.field("first_step", p.first);
    json.field("last_step", p.last);
    json.endObject();
  }
  json.endArray();
  json.key("initial");
  writeTerms(s, trace.initial, all(trace.initial.size()), json);
  json.key("steps");
  json.beginArray();
  dyn::TraceCursor cursor(trace);
  for (size_t k = 0; k < trace.steps.size(); ++k) {
    const dyn::TraceStepRecord& step = trace.steps[k];
    cursor.seek(int(k) + 1);
    json.beginObject();
    json.field("index", int(k));
    json.field("pass", trace.passes[step.pass].name);
    json.field("kind", dyn::stepKindName(step.kind));
    json.field("body", s.model.bodyNames[step.body]);
    json.field("body_index", step.body);
    if (step.dof >= 0) json.field("dof", s.vNames[step.dof]);
    json.key("equations");
    json.beginArray();
    for (const dyn::TraceLine& l : step.lines) {
      json.beginObject();
      json.field("equation", dyn::plainMarkup(l.equation));
      json.field("label", dyn::plainMarkup(l.reference));
      json.endObject();
    }
    json.endArray();
    json.key("written");
    writeTerms(s, step.terms, step.written, json, &cursor.state());
    json.key("operations_so_far");
    writeCounts(step.counts, json);
    json.endObject();
  }
  json.endArray();
  json.key("operations");
  writeCounts(trace.total, json);
  // The result. The steps may print nulls on purpose (entries of H and L not computed yet), so main()
  // does not warn about this command's nulls; a non-finite result (inputs that overflow) is reported here.
  if (a.needs == dyn::TraceNeeds::Positions) {
    json.arrayField("columns", s.vNames);
    json.key("M");  // CRBA's result, as lecture mode names it; and under the plain mass command's key
    json.matrix(trace.result);
    if (std::string_view(a.resultKey) != "M") {
      json.key(a.resultKey);
      json.matrix(trace.result);
    }
  } else {
    json.arrayField(a.resultKey, trace.result.col(0));
  }
  if (const long bad = long(trace.result.size() - trace.result.array().isFinite().count()); bad > 0)
    std::fprintf(stderr, "dynscope-cli: warning: %ld result values are NaN or infinite (printed as null)\n", bad);
}

}  // namespace cli
