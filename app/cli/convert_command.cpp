// convert: MODEL as a URDF (dyn::writeUrdf, keeping what a URDF original has beyond the model) or as
// a DH table (dyn::dhTableFromDescription for a URDF or MJCF chain, dyn::toConvention for a table).
// docs/convert.md.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "commands.hpp"
#include "dynscope/io/atomic_file.hpp"
#include "dynscope/io/dh_from_urdf.hpp"
#include "dynscope/io/dh_table.hpp"
#include "dynscope/io/mjcf_parser.hpp"
#include "dynscope/io/urdf_writer.hpp"

namespace cli {
namespace {

void tell(const char* kind, const std::string& what) {
  std::fprintf(stderr, "dynscope-cli: %s: %s\n", kind, what.c_str());
}

}  // namespace

int runConvert(const Options& o) {
  const bool isDh = std::filesystem::path(o.modelPath).extension() == ".dh";
  dyn::RobotDescription robot = dyn::loadDescription(o.modelPath);  // LoadError: status 1
  const Eigen::Vector3d gravity =
      o.gravity ? Eigen::Vector3d((*o.gravity)[0], (*o.gravity)[1], (*o.gravity)[2]) : robot.gravity;
  robot.gravity = gravity;
  for (const std::string& name : o.fixes)
    for (dyn::Fixup f : dyn::kAllFixups)
      if (name == "all" || name == dyn::fixupName(f))
        for (const dyn::Finding& change : dyn::applyFixup(robot, f)) tell("fix-up", change.text());

  std::string text;
  if (*o.to == "urdf") {
    const std::string original = isDh ? "" : readTextFile(o.modelPath);
    for (const std::string& loss : dyn::urdfLosses(robot)) tell("warning", loss);
    if (o.out) dyn::rebaseMeshPaths(robot, *o.out);  // relative meshes still name the same files
    text = dyn::writeUrdf(robot, dyn::looksLikeMjcf(original) ? "" : original);
  } else {
    dyn::DhTable table;
    std::vector<std::string> notes;
    if (isDh && o.fixes.empty()) {  // a table to a table: only the convention changes
      table = dyn::parseDhTable(readTextFile(o.modelPath), o.modelPath);
      table.gravity = gravity;
      if (o.convention)
        table = dyn::toConvention(
            table, *o.convention == "modified" ? dyn::DhConvention::Modified : dyn::DhConvention::Standard);
    } else {
      const bool modified = o.convention ? *o.convention == "modified" : false;
      table = dyn::dhTableFromDescription(robot, modified ? dyn::DhConvention::Modified : dyn::DhConvention::Standard,
                                          &notes);
    }
    for (const std::string& n : notes) tell("note", n);
    text = dyn::writeDhTable(table);
  }
  writeOutput(o.out, [&](std::ostream& out) { out << text; });
  return 0;
}

}  // namespace cli
