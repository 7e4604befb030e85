// The MJCF reading context: attribute lookup through <default> classes, numbers, included
// documents and grouped findings (one per kind of thing, with its first line and a count).
#include <charconv>
#include <cmath>
#include <cstring>

#include "mjcf_reader.hpp"

namespace dyn::mjcf {
namespace {

bool isXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string Reader::fileOf(const XMLElement* el) const {
  const auto it = files_.find(el ? el->GetDocument() : nullptr);
  return it == files_.end() ? mainFile_ : it->second;
}

tinyxml2::XMLDocument& Reader::addDocument(const std::string& file) {
  included_.push_back(std::make_unique<tinyxml2::XMLDocument>());
  files_[included_.back().get()] = file;
  return *included_.back();
}

void Reader::fail(const XMLElement* el, const std::string& element, const std::string& message) const {
  throw LoadError(fileOf(el), el ? el->GetLineNum() : 0, element, message);
}

const char* Reader::get(const XMLElement* el, const char* name, const std::string& tag, const std::string& childclass) {
  if (const char* own = el->Attribute(name)) {
    read_[el].insert(name);
    return own;
  }
  const char* cls = el->Attribute("class");
  const std::string className = cls ? cls : childclass.empty() ? "main" : childclass;
  const auto c = defaults.find(className);
  if (c == defaults.end()) {
    if (className == "main") return nullptr;
    fail(el, "<" + std::string(el->Name()) + ">", "class '" + className + "' is not defined by any <default>");
  }
  const auto t = c->second.byTag.find(tag);
  if (t == c->second.byTag.end()) return nullptr;
  const auto a = t->second.find(name);
  return a == t->second.end() ? nullptr : a->second.c_str();
}

std::vector<double> Reader::numbers(const XMLElement* el, const char* name, const char* value, size_t count,
                                    size_t max) const {
  const std::string where = "<" + std::string(el->Name()) + ">";
  if (!value) fail(el, where, std::string(name) + " is missing");
  std::vector<double> out;
  const char* end = value + std::strlen(value);
  for (const char* p = value;;) {
    while (p < end && isXmlSpace(*p)) ++p;
    if (p == end) break;
    const char* tokenEnd = p;
    while (tokenEnd < end && !isXmlSpace(*tokenEnd)) ++tokenEnd;
    const char* first = (*p == '+' && tokenEnd - p > 1) ? p + 1 : p;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(first, tokenEnd, v);
    if (ec != std::errc() || ptr != tokenEnd || !std::isfinite(v))
      fail(el, where,
           std::string(name) + "=\"" + value + "\": '" + std::string(p, tokenEnd) + "' is not a finite number");
    out.push_back(v);
    p = tokenEnd;
  }
  const size_t hi = max > 0 ? max : count;
  if (out.size() < count || out.size() > hi)
    fail(el, where,
         std::string(name) + "=\"" + value + "\": expected " +
             (max > 0 ? std::to_string(count) + " to " + std::to_string(max) : std::to_string(count)) +
             (hi == 1 ? " number" : " numbers") + ", found " + std::to_string(out.size()));
  return out;
}

std::vector<int> Reader::integers(const XMLElement* el, const char* name, const char* value, size_t count) const {
  std::vector<int> out;
  for (const double v : numbers(el, name, value, count)) {
    // Whole numbers only, and in int's range: a cast of 1e300 to int is undefined.
    if (v != std::floor(v) || std::abs(v) > 1e9)
      fail(el, "<" + std::string(el->Name()) + ">",
           std::string(name) + "=\"" + value + "\": expected whole numbers between -1e9 and 1e9");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

void Reader::note(Severity severity, const std::string& code, const XMLElement* el, const std::string& element,
                  const std::string& message, const std::string& hint) {
  const std::string key = code + '\n' + message;
  const auto [it, inserted] = groupIndex_.emplace(key, groups_.size());
  if (!inserted) {
    ++groups_[it->second].count;
    return;
  }
  Group g;
  g.count = 1;
  g.finding.severity = severity;
  g.finding.code = code;
  g.finding.file = fileOf(el);
  g.finding.line = el ? el->GetLineNum() : 0;
  g.finding.element = element;
  g.finding.message = message;
  g.finding.hint = hint;
  groups_.push_back(std::move(g));
}

void Reader::noteUnreadAttributes(const XMLElement* el) {
  const auto it = read_.find(el);
  for (const tinyxml2::XMLAttribute* a = el->FirstAttribute(); a; a = a->Next()) {
    const std::string name = a->Name();
    if (name == "name" || name == "class" || (it != read_.end() && it->second.count(name))) continue;
    note(Severity::Info, "mjcf.attribute_ignored", el, "<" + std::string(el->Name()) + "> " + name,
         "<" + std::string(el->Name()) + "> attribute '" + name + "' is not used by Dynscope",
         "Simulation settings (contacts, solver, rendering) and attributes of newer MuJoCo versions do not change "
         "the rigid-body model; docs/mjcf.md lists what is read.");
  }
}

void Reader::flushFindings() {
  for (Group& g : groups_) {
    if (g.count > 1) g.finding.message += " (" + std::to_string(g.count) + " times; the first is here)";
    robot_.findings.push_back(std::move(g.finding));
  }
  groups_.clear();
  groupIndex_.clear();
}

}  // namespace dyn::mjcf
