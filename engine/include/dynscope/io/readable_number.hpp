// Numbers in messages for people: six significant digits ("t = 0.614", "1187.29"), not the shortest
// exact form the CSV and URDF writers need ("0.61399999999999999" after 614 steps of 1 ms).
#pragma once
#include <cstdio>
#include <string>

namespace dyn {

inline std::string readableNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace dyn
