// Where a URDF mesh reference lives on disk, for the model checker and the renderer (which wraps
// it for Qt in ui/scene/mesh_resolver.hpp). Reads the environment and the file system only.
//
//   package://NAME/rest  - ROS_PACKAGE_PATH (':'-separated roots; a root may contain NAME, be
//                          NAME, or hold it up to three folders deep as in a catkin workspace),
//                          then AMENT_PREFIX_PATH (PREFIX/share/NAME), then upward from the URDF's
//                          folder: a folder named NAME, or an ancestor containing a folder NAME.
//   model://NAME/rest    - the same search (Gazebo style).
//   file:///abs/path     - absolute; file://rel/path and plain relative paths are relative to
//                          the URDF's folder (the current folder if urdfFile is empty).
//
// Returns the absolute, clean path of an existing file, or an empty string and a one-line
// explanation in *error (when error is not null).
#pragma once
#include <string>

namespace dyn {

std::string resolveMeshPath(const std::string& uri, const std::string& urdfFile, std::string* error = nullptr);

}  // namespace dyn
