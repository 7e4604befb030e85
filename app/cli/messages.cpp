#include "messages.hpp"

#include <cstdio>

namespace cli {
namespace {

std::vector<std::string>& list() {
  static std::vector<std::string> all;
  return all;
}

}  // namespace

void note(const std::string& message) { std::fprintf(stderr, "dynscope-cli: note: %s\n", message.c_str()); }

void warn(const std::string& message) {
  std::fprintf(stderr, "dynscope-cli: warning: %s\n", message.c_str());
  list().push_back(message);
}

const std::vector<std::string>& warnings() { return list(); }

}  // namespace cli
