// Reader of Dynscope's DH table format (docs/dh-format.md): parseDhTable + dhTableToDescription.
#include "dynscope/io/dh_parser.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/utf8.hpp"

namespace dyn {

RobotDescription parseDhString(const std::string& text, const std::string& sourceName) {
  if (const std::string binary = binaryFileProblem(text); !binary.empty()) throw LoadError(sourceName, 0, "", binary);
  return dhTableToDescription(parseDhTable(text, sourceName));
}

RobotDescription parseDhFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw LoadError(path, 0, "", "file not found");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw LoadError(path, 0, "", "cannot open the file");
  std::ostringstream ss;
  ss << f.rdbuf();
  return parseDhString(ss.str(), path);
}

}  // namespace dyn
