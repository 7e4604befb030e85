// check: the model checker's findings as JSON (docs/model-check.md); also the findings block of info.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "commands.hpp"

namespace cli {
namespace {

void writeFinding(const dyn::Model* model, const dyn::Finding& f, JsonWriter& json) {
  json.beginObject();
  json.field("severity", dyn::severityName(f.severity));
  json.field("code", f.code);
  json.field("file", f.file);
  json.field("line", f.line);
  json.field("element", f.element);
  json.field("link", f.link);
  json.field("joint", f.joint);
  json.key("body");  // the model body to look at, by name (null when none)
  if (model && f.body >= 0 && f.body < int(model->bodyNames.size()))
    json.value(model->bodyNames[f.body]);
  else
    json.null();
  json.field("message", f.message);
  json.field("hint", f.hint);
  json.endObject();
}

// "counts" and "findings"; model (may be null) names the bodies.
void writeList(const dyn::Model* model, const std::vector<dyn::Finding>& findings, JsonWriter& json) {
  const dyn::FindingCounts n = dyn::countFindings(findings);
  json.key("counts");
  json.beginObject();
  json.field("errors", n.errors);
  json.field("warnings", n.warnings);
  json.field("infos", n.infos);
  json.endObject();
  json.key("findings");
  json.beginArray();
  for (const dyn::Finding& f : findings) writeFinding(model, f, json);
  json.endArray();
}

}  // namespace

void writeFindings(const dyn::Model& model, const std::vector<dyn::Finding>& findings, JsonWriter& json) {
  writeList(&model, findings, json);
}

int runCheck(const Options& options) {
  std::ostringstream text;
  int status = 0;
  {
    JsonWriter json(text);
    json.beginObject();
    try {
      const Session s = openSession(options);
      writeHeader(s, json);
      json.field("loaded", true);
      std::vector<std::string> fixups;
      for (dyn::Fixup f : s.fixups) fixups.emplace_back(dyn::fixupName(f));
      json.arrayField("fixups", fixups);
      writeFindings(s.model, s.model.findings, json);
      const dyn::FindingCounts n = dyn::countFindings(s.model.findings);
      status = n.errors > 0 || (options.strict && n.warnings > 0) ? 1 : 0;
    } catch (const dyn::LoadError& e) {  // a file that does not load: one error finding, for scripts
      json.field("command", commandName(options.command));
      json.field("file", options.modelPath);
      json.field("loaded", false);
      dyn::Finding f;
      f.severity = dyn::Severity::Error;
      f.code = "load.error";
      f.file = e.file();
      f.line = e.line();
      f.element = e.element();
      f.message = e.message();
      f.hint = "The file cannot be loaded: correct it at this line.";
      writeList(nullptr, {f}, json);
      std::fprintf(stderr, "dynscope-cli: error: %s\n", e.what());
      status = 1;
    }
    json.endObject();
  }
  std::cout << text.str() << '\n' << std::flush;
  return std::cout ? status : 1;
}

}  // namespace cli
