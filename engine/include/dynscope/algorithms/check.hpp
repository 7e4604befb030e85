// Argument checks shared by the algorithms: a wrong vector size is a clear error, never UB.
#pragma once
#include <stdexcept>
#include <string>

namespace dyn {

inline void checkSize(const char* what, long actual, long expected) {
  if (actual != expected)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(actual) + " entries, expected " +
                                std::to_string(expected));
}

}  // namespace dyn
