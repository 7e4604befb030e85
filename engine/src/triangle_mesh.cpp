#include "triangle_mesh.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace dyn {
namespace {

bool readStl(const std::string& bytes, std::vector<Triangle>& out) {
  if (bytes.size() >= 84) {
    std::uint32_t n = 0;
    std::memcpy(&n, bytes.data() + 80, 4);
    if (bytes.size() == 84 + 50 * size_t(n)) {  // binary
      for (size_t t = 0; t < n; ++t) {
        Triangle tri;
        for (int v = 0; v < 3; ++v) {
          float xyz[3];
          std::memcpy(xyz, bytes.data() + 84 + 50 * t + 12 + 12 * size_t(v), 12);
          tri[size_t(v)] = Eigen::Vector3d(xyz[0], xyz[1], xyz[2]);
        }
        out.push_back(tri);
      }
      return true;
    }
  }
  std::istringstream in(bytes);  // ASCII: "vertex x y z" three per facet
  std::string word;
  Triangle tri;
  int k = 0;
  while (in >> word)
    if (word == "vertex") {
      double x, y, z;
      if (!(in >> x >> y >> z)) return false;
      tri[size_t(k++)] = Eigen::Vector3d(x, y, z);
      if (k == 3) {
        out.push_back(tri);
        k = 0;
      }
    }
  return !out.empty();
}

bool readObj(const std::string& bytes, std::vector<Triangle>& out) {
  std::istringstream in(bytes);
  std::vector<Eigen::Vector3d> vertices;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string tag;
    ls >> tag;
    if (tag == "v") {
      double x, y, z;
      if (!(ls >> x >> y >> z)) return false;
      vertices.emplace_back(x, y, z);
    } else if (tag == "f") {  // "f 1 2 3", "f 1/1/1 2/2/2 ...", negative = from the end; fans
      std::vector<int> face;
      std::string item;
      while (ls >> item) {
        const int i = std::atoi(item.c_str());
        const int index = i < 0 ? int(vertices.size()) + i : i - 1;
        if (index < 0 || index >= int(vertices.size())) return false;
        face.push_back(index);
      }
      for (size_t k = 2; k < face.size(); ++k)
        out.push_back({vertices[size_t(face[0])], vertices[size_t(face[k - 1])], vertices[size_t(face[k])]});
    }
  }
  return !out.empty();
}

}  // namespace

bool readTriangleMesh(const std::string& path, std::vector<Triangle>& triangles, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot open '" + path + "'";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  const bool ok = ext == ".stl" ? readStl(bytes, triangles) : ext == ".obj" ? readObj(bytes, triangles) : false;
  if (!ok && error)
    *error = ext == ".stl" || ext == ".obj" ? "cannot read the triangles of '" + path + "'"
                                            : "'" + path + "' is neither STL nor OBJ";
  return ok;
}

}  // namespace dyn
