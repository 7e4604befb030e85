// Volume, centroid and inertia of a triangle mesh (STL binary or ASCII, OBJ), for the inertia MuJoCo's
// compiler gives mesh geoms. Each triangle (a, b, c) and an apex span a tetrahedron of volume
// det[a b c]/6, whose second moment about the apex is det/120 (a a^T + b b^T + c c^T + s s^T), s = a + b + c
// (Blow and Binstock 2004, "Accurate and efficient computation of inertia tensors").
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

#include "mjcf_reader.hpp"

namespace dyn::mjcf {
namespace {

using Triangle = std::array<Eigen::Vector3d, 3>;

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

std::optional<MeshInertia> meshInertia(const std::string& path, const Eigen::Vector3d& scale, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot open '" + path + "'";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  std::vector<Triangle> triangles;
  const bool ok = ext == ".stl" ? readStl(bytes, triangles) : ext == ".obj" ? readObj(bytes, triangles) : false;
  if (!ok) {
    if (error)
      *error = ext == ".stl" || ext == ".obj" ? "cannot read the triangles of '" + path + "'"
                                              : "'" + path + "' is neither STL nor OBJ";
    return std::nullopt;
  }
  // MuJoCo's compiler ("legacy" mesh inertia, its default): tetrahedra from the area-weighted centre of
  // the faces, each counted with the absolute value of its volume. For a closed mesh that is star-shaped
  // about that centre (every convex one) this is the solid's exact inertia; for others it is MuJoCo's.
  Eigen::Vector3d apex = Eigen::Vector3d::Zero();
  double area = 0;
  for (Triangle& t : triangles) {
    for (Eigen::Vector3d& v : t) v = v.cwiseProduct(scale);
    const double a = (t[1] - t[0]).cross(t[2] - t[0]).norm() / 2;
    area += a;
    apex += a * (t[0] + t[1] + t[2]) / 3;
  }
  if (area > 0) apex /= area;
  double volume = 0;
  Eigen::Vector3d moment = Eigen::Vector3d::Zero();
  Eigen::Matrix3d C = Eigen::Matrix3d::Zero();  // second moment about the apex
  for (const Triangle& tri : triangles) {
    const Eigen::Vector3d a = tri[0] - apex, b = tri[1] - apex, c = tri[2] - apex;
    const double det = std::abs(a.dot(b.cross(c)));
    const Eigen::Vector3d s = a + b + c;
    volume += det / 6;
    moment += det / 24 * s;
    C += det / 120 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (!(volume > 0)) {
    if (error) *error = "'" + path + "' encloses no volume";
    return std::nullopt;
  }
  MeshInertia m;
  m.volume = volume;
  const Eigen::Vector3d d = moment / volume;  // the centroid from the apex
  m.centroid = apex + d;
  const Eigen::Matrix3d Cc = C - volume * d * d.transpose();  // about the centroid
  m.inertiaPerMass = (Cc.trace() * Eigen::Matrix3d::Identity() - Cc) / volume;
  return m;
}

}  // namespace dyn::mjcf
