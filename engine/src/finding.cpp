#include "dynscope/io/finding.hpp"

#include "dynscope/io/load_error.hpp"

namespace dyn {

const char* severityName(Severity severity) {
  switch (severity) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "?";
}

std::string Finding::text() const { return LoadError::format(file, line, element, message); }

FindingCounts countFindings(const std::vector<Finding>& findings) {
  FindingCounts c;
  for (const Finding& f : findings) {
    if (f.severity == Severity::Error) ++c.errors;
    if (f.severity == Severity::Warning) ++c.warnings;
    if (f.severity == Severity::Info) ++c.infos;
  }
  return c;
}

}  // namespace dyn
