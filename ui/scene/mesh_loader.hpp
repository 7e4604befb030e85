// Reading mesh files into vtkPolyData: STL, OBJ and PLY with VTK's readers, COLLADA (.dae) and
// every other format assimp knows through assimp (node transforms applied, COLLADA <unit>
// honoured, its up_axis ignored as ROS tools do). No OpenGL: safe on a worker thread.
#pragma once
#include <QHash>
#include <QString>
#include <QStringList>
#include <functional>

#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

namespace dyn {
template <class S>
struct ModelTpl;
using Model = ModelTpl<double>;
}  // namespace dyn

struct LoadedMesh {
  vtkSmartPointer<vtkPolyData> polyData;  // triangles with point normals, unscaled (file units)
  bool hasColors = false;                 // point array "Colors" (RGB, unsigned char) from the file
  QString path;                           // the resolved file
  QString error;                          // why it could not be found or read (polyData is null then)
  bool ok() const { return polyData != nullptr; }
};

// Reads one mesh file (the format from its extension; unknown ones go to assimp).
LoadedMesh loadMeshFile(const QString& path);

// Every mesh a model references, resolved against its URDF and read once per URI.
class MeshLibrary {
 public:
  // progress(done, total) may be called from the loading thread; return false to stop early.
  static MeshLibrary load(const dyn::Model& model, const QString& sourceFile,
                          const std::function<bool(int, int)>& progress = {});
  const LoadedMesh* find(const QString& uri) const {
    auto it = meshes_.constFind(uri);
    return it == meshes_.constEnd() ? nullptr : &it.value();
  }
  void insert(const QString& uri, const LoadedMesh& mesh) { meshes_.insert(uri, mesh); }
  int size() const { return int(meshes_.size()); }
  QString sourceFile() const { return sourceFile_; }

 private:
  QHash<QString, LoadedMesh> meshes_;
  QString sourceFile_;
};
