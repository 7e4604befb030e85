#include "dynscope/io/mesh_path.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <vector>

namespace dyn {
namespace {

namespace fs = std::filesystem;

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::string clean(const fs::path& p) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(p, ec);
  return (ec ? p : absolute).lexically_normal().string();
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         });
}

// %XX escapes decoded (as URIs write spaces and other characters); anything else kept.
std::string percentDecoded(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += char(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> splitPath(const char* value) {
  std::vector<std::string> out;
  if (!value) return out;
  std::string_view s(value);
  for (size_t start = 0; start <= s.size();) {
    const size_t colon = std::min(s.find(':', start), s.size());
    if (colon > start) out.emplace_back(s.substr(start, colon - start));
    start = colon + 1;
  }
  return out;
}

fs::path baseFolder(const std::string& urdfFile) {
  std::error_code ec;
  if (urdfFile.empty()) return fs::current_path(ec);
  return fs::absolute(fs::path(urdfFile), ec).parent_path();
}

bool isFolder(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// A folder named `name` below `root`, at most `depth` levels down, holding `rest`. The first folder
// of that name met, whether or not it holds `rest`, goes to *seen when that is empty.
std::string findPackageBelow(const fs::path& root, const std::string& name, const std::string& rest, int depth,
                             int& budget, std::string* seen) {
  if (depth < 0 || budget <= 0) return {};
  std::vector<fs::path> subdirs;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    if (it->is_directory(e2) && !it->is_symlink(e2)) subdirs.push_back(it->path());
  }
  std::sort(subdirs.begin(), subdirs.end());
  for (const fs::path& sub : subdirs) {
    if (--budget <= 0) return {};
    if (sub.filename() != name) continue;
    if (isFile(sub / rest)) return (sub / rest).string();
    if (seen->empty()) *seen = clean(sub);
  }
  if (depth == 0) return {};
  for (const fs::path& sub : subdirs) {
    const std::string n = sub.filename().string();
    if (n.starts_with('.') || n == "build" || n == "devel" || n == "install" || n == "log") continue;
    const std::string found = findPackageBelow(sub, name, rest, depth - 1, budget, seen);
    if (!found.empty()) return found;
  }
  return {};
}

// What a missing file's folder says about it: that it does not exist, or that it holds the file
// under another case (an Arm.STL written arm.stl works on Windows only).
std::string whyMissing(const fs::path& file) {
  const fs::path folder = file.parent_path();
  if (!isFolder(folder)) return "; the folder " + folder.string() + " does not exist";
  const auto lower = [](std::string t) {
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return t;
  };
  const std::string wanted = lower(file.filename().string());
  std::error_code ec;
  int budget = 10000;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end && --budget > 0; it.increment(ec))
    if (lower(it->path().filename().string()) == wanted)
      return "; the folder has " + it->path().filename().string() + ", whose name differs in case";
  return "";
}

// The package's folder is the first one found in the search order; a package found without the
// file is a missing file (with the path looked for), not a missing package (issue 23).
std::string resolvePackage(const std::string& name, const std::string& rest, const std::string& urdfFile,
                           std::string* error) {
  std::vector<std::string> searched;
  std::string packageDir;  // the first folder found for the package, whatever it holds
  const auto seen = [&](const fs::path& dir) {
    if (packageDir.empty() && isFolder(dir)) packageDir = clean(dir);
  };
  // 1. ROS_PACKAGE_PATH roots.
  const char* rosPath = std::getenv("ROS_PACKAGE_PATH");
  const std::vector<std::string> roots = splitPath(rosPath);
  for (const std::string& r : roots) {
    const fs::path root(r);
    if (root.filename() == name && isFile(root / rest)) return clean(root / rest);
    if (isFile(root / name / rest)) return clean(root / name / rest);
    if (root.filename() == name) seen(root);
    seen(root / name);
  }
  for (const std::string& r : roots) {  // nested packages (catkin workspaces: src/<repo>/<package>)
    int budget = 4000;
    const std::string found = findPackageBelow(fs::path(r), name, rest, 3, budget, &packageDir);
    if (!found.empty()) return clean(found);
  }
  if (!roots.empty()) searched.push_back(std::string("ROS_PACKAGE_PATH=") + rosPath);
  // 2. ROS 2 install prefixes.
  const std::vector<std::string> prefixes = splitPath(std::getenv("AMENT_PREFIX_PATH"));
  for (const std::string& p : prefixes) {
    const fs::path candidate = fs::path(p) / "share" / name / rest;
    if (isFile(candidate)) return clean(candidate);
    seen(fs::path(p) / "share" / name);
  }
  if (!prefixes.empty()) searched.push_back("AMENT_PREFIX_PATH");
  // 3. Upward from the URDF's folder.
  const fs::path start = baseFolder(urdfFile);
  for (fs::path dir = start;; dir = dir.parent_path()) {
    if (dir.filename() == name && isFile(dir / rest)) return clean(dir / rest);
    if (isFile(dir / name / rest)) return clean(dir / name / rest);
    if (dir.filename() == name) seen(dir);
    seen(dir / name);
    if (dir == dir.parent_path() || dir.empty()) break;
  }
  searched.push_back("upward from " + start.string());
  if (!error) return {};
  if (!packageDir.empty()) {
    const fs::path looked = (fs::path(packageDir) / rest).lexically_normal();
    *error = "mesh file '" + looked.string() + "' not found (package '" + name + "' was found, at " + packageDir +
             whyMissing(looked) + ")";
    return {};
  }
  *error = "package '" + name + "' (file '" + rest + "') not found; searched ";
  for (size_t k = 0; k < searched.size(); ++k) *error += (k ? ", " : "") + searched[k];
  return {};
}

}  // namespace

std::string resolveMeshPath(const std::string& uriIn, const std::string& urdfFile, std::string* error) {
  const size_t first = uriIn.find_first_not_of(" \t\r\n");
  const std::string uri =
      first == std::string::npos ? "" : uriIn.substr(first, uriIn.find_last_not_of(" \t\r\n") - first + 1);
  if (uri.empty()) {
    if (error) *error = "empty mesh file name";
    return {};
  }
  const fs::path baseDir = baseFolder(urdfFile);
  auto existing = [&](const fs::path& path) -> std::string {
    if (isFile(path)) return clean(path);
    if (error) {
      const std::string why = whyMissing(path.lexically_normal());
      *error = "mesh file '" + path.lexically_normal().string() + "' not found" +
               (why.empty() ? "" : " (" + why.substr(2) + ")");
    }
    return {};
  };
  for (const std::string_view scheme : {std::string_view("package://"), std::string_view("model://")}) {
    if (!startsWithNoCase(uri, scheme)) continue;
    const std::string rest = percentDecoded(std::string_view(uri).substr(scheme.size()));
    const size_t slash = rest.find('/');
    if (slash == std::string::npos || slash == 0 || slash == rest.size() - 1) {
      if (error) *error = "malformed URI '" + uri + "' (expected " + std::string(scheme) + "NAME/path)";
      return {};
    }
    return resolvePackage(rest.substr(0, slash), rest.substr(slash + 1), urdfFile, error);
  }
  if (startsWithNoCase(uri, "file://")) {
    const fs::path path(percentDecoded(std::string_view(uri).substr(7)));
    return existing(path.is_absolute() ? path : baseDir / path);
  }
  if (uri.find("://") != std::string::npos && uri.find("://") > 0) {
    if (error) *error = "unsupported URI scheme in '" + uri + "'";
    return {};
  }
  const fs::path path(uri);
  return existing(path.is_absolute() ? path : baseDir / path);
}

}  // namespace dyn
