// What the loaders and the model checker (model_check.hpp) have to say about a robot that loads:
// implausible but usable values, ignored elements, fix-ups applied. Each finding has a severity, a
// stable machine-readable code (docs/model-check.md lists them all), a location (file, line,
// element, the link or joint and the model body it concerns) and a message with a hint.
// Errors that make a file unusable are not findings: they throw LoadError.
#pragma once
#include <string>
#include <vector>

namespace dyn {

enum class Severity { Info, Warning, Error };
// "info", "warning", "error"
const char* severityName(Severity severity);

struct Finding {
  Severity severity = Severity::Warning;
  std::string code;         // e.g. "inertia.triangle"
  std::string file;         // the robot file
  int line = 0;             // 0 when unknown
  std::string element;      // as LoadError names it: "link 'a' <inertial>", "joint 'j' <limit>"
  std::string link, joint;  // the link and joint it concerns (either may be empty)
  int body = -1;            // the model body to select for it (-1: none; 0: the base)
  std::string message;      // what is wrong and by how much
  std::string hint;         // what it means for the dynamics and what to do

  // "file:line: element: message", the form of a LoadError.
  std::string text() const;
};

struct FindingCounts {
  int errors = 0, warnings = 0, infos = 0;
};
FindingCounts countFindings(const std::vector<Finding>& findings);

}  // namespace dyn
