// Triangles of a mesh file (STL binary or ASCII, OBJ), in the file's units and axes: for the mesh
// inertia of MJCF geoms and the contact points of mesh collision geometry. Internal to the engine.
#pragma once
#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

namespace dyn {

using Triangle = std::array<Eigen::Vector3d, 3>;

// False with a one-line reason in *error when the file cannot be opened, is neither STL nor OBJ
// (by its extension), or holds no triangles.
bool readTriangleMesh(const std::string& path, std::vector<Triangle>& triangles, std::string* error);

}  // namespace dyn
