// A name as the engine's messages quote it: 'name'. Private to the engine.
#pragma once
#include <string>

namespace dyn {
inline std::string inQuotes(const std::string& name) { return "'" + name + "'"; }
}  // namespace dyn
