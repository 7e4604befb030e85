#include "scene/mesh_loader.hpp"

#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkExecutive.h>
#include <vtkFloatArray.h>
#include <vtkNew.h>
#include <vtkOBJReader.h>
#include <vtkPLYReader.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyDataNormals.h>
#include <vtkSTLReader.h>
#include <vtkTriangleFilter.h>
#include <vtkUnsignedCharArray.h>

#include <QFileInfo>
#include <QSet>
#include <algorithm>

#include "dynscope/model/model.hpp"
#include "scene/mesh_resolver.hpp"

namespace {

unsigned char toByte(double v) { return static_cast<unsigned char>(std::clamp(v, 0.0, 1.0) * 255.0 + 0.5); }

// assimp: every mesh of every node, vertices carried to the scene root by the node transforms.
vtkSmartPointer<vtkPolyData> readWithAssimp(const QString& path, bool* hasColors, QString* error) {
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);  // ROS meshes: Z up as written
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene = importer.ReadFile(
      path.toStdString(), aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_JoinIdenticalVertices);
  if (!scene || !scene->mRootNode || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE)) {
    *error = QStringLiteral("assimp could not read it: %1").arg(QString::fromUtf8(importer.GetErrorString()));
    return nullptr;
  }
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  vtkNew<vtkCellArray> triangles;
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetNumberOfComponents(3);
  colors->SetName("Colors");
  bool anyColor = false;

  struct Item {
    const aiNode* node;
    aiMatrix4x4 transform;
  };
  std::vector<Item> stack{{scene->mRootNode, scene->mRootNode->mTransformation}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    for (unsigned c = 0; c < it.node->mNumChildren; ++c)
      stack.push_back({it.node->mChildren[c], it.transform * it.node->mChildren[c]->mTransformation});
    for (unsigned k = 0; k < it.node->mNumMeshes; ++k) {
      const aiMesh* mesh = scene->mMeshes[it.node->mMeshes[k]];
      if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
      aiColor4D diffuse(0.7f, 0.7f, 0.7f, 1.f);
      if (mesh->mMaterialIndex < scene->mNumMaterials &&
          scene->mMaterials[mesh->mMaterialIndex]->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse) == AI_SUCCESS)
        anyColor = true;
      const bool vertexColors = mesh->HasVertexColors(0);
      anyColor = anyColor || vertexColors;
      const vtkIdType base = points->GetNumberOfPoints();
      for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        const aiVector3D p = it.transform * mesh->mVertices[v];
        points->InsertNextPoint(p.x, p.y, p.z);
        const aiColor4D& c = vertexColors ? mesh->mColors[0][v] : diffuse;
        const unsigned char rgb[3] = {toByte(c.r), toByte(c.g), toByte(c.b)};
        colors->InsertNextTypedTuple(rgb);
      }
      for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        const aiFace& face = mesh->mFaces[f];
        if (face.mNumIndices != 3) continue;
        const vtkIdType ids[3] = {base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]};
        triangles->InsertNextCell(3, ids);
      }
    }
  }
  if (triangles->GetNumberOfCells() == 0) {
    *error = QStringLiteral("the file has no triangles");
    return nullptr;
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->SetPoints(points);
  poly->SetPolys(triangles);
  if (anyColor) poly->GetPointData()->SetScalars(colors);
  *hasColors = anyColor;
  return poly;
}

// Collects VTK error messages of a reader (instead of printing them on the console).
struct ErrorCatcher {
  QString text;
  vtkNew<vtkCallbackCommand> command;
  ErrorCatcher() {
    command->SetClientData(this);
    command->SetCallback([](vtkObject*, unsigned long, void* self, void* message) {
      auto* me = static_cast<ErrorCatcher*>(self);
      if (me->text.isEmpty() && message) me->text = QString::fromLocal8Bit(static_cast<const char*>(message)).trimmed();
    });
  }
  void watch(vtkObject* o) {
    o->AddObserver(vtkCommand::ErrorEvent, command);
    o->AddObserver(vtkCommand::WarningEvent, command);
  }
};

// VTK's readers; PLY colours ("RGB"/"RGBA" or the reader's scalars) are kept.
template <class Reader>
vtkSmartPointer<vtkPolyData> readWithVtk(const QString& path, bool* hasColors, QString* error) {
  vtkNew<Reader> reader;
  ErrorCatcher errors;
  errors.watch(reader);
  errors.watch(reader->GetExecutive());
  reader->SetFileName(path.toLocal8Bit().constData());
  reader->Update();
  vtkPolyData* out = reader->GetOutput();
  if (reader->GetErrorCode() != 0 || !out || out->GetNumberOfCells() == 0) {
    *error = QStringLiteral("the %1 reader found no geometry%2")
                 .arg(QFileInfo(path).suffix().toUpper(),
                      errors.text.isEmpty() ? QStringLiteral(" (corrupt or empty file?)")
                                            : QStringLiteral(" (") + errors.text.section(": ", -1) + ")");
    return nullptr;
  }
  auto poly = vtkSmartPointer<vtkPolyData>::New();
  poly->ShallowCopy(out);
  vtkDataArray* scalars = poly->GetPointData()->GetScalars();
  if (!scalars) scalars = poly->GetPointData()->GetArray("RGB");
  if (!scalars) scalars = poly->GetPointData()->GetArray("RGBA");
  if (scalars && scalars->GetDataType() == VTK_UNSIGNED_CHAR && scalars->GetNumberOfComponents() >= 3) {
    vtkNew<vtkUnsignedCharArray> rgb;
    rgb->SetNumberOfComponents(3);
    rgb->SetNumberOfTuples(scalars->GetNumberOfTuples());
    rgb->SetName("Colors");
    for (vtkIdType i = 0; i < scalars->GetNumberOfTuples(); ++i)
      for (int c = 0; c < 3; ++c) rgb->SetTypedComponent(i, c, static_cast<unsigned char>(scalars->GetComponent(i, c)));
    poly->GetPointData()->SetScalars(rgb);
    *hasColors = true;
  } else {
    poly->GetPointData()->SetScalars(nullptr);
  }
  return poly;
}

}  // namespace

LoadedMesh loadMeshFile(const QString& path) {
  LoadedMesh result;
  result.path = path;
  if (!QFileInfo(path).isFile()) {
    result.error = QStringLiteral("file not found");
    return result;
  }
  const QString ext = QFileInfo(path).suffix().toLower();
  bool colors = false;
  vtkSmartPointer<vtkPolyData> raw;
  if (ext == "stl")
    raw = readWithVtk<vtkSTLReader>(path, &colors, &result.error);
  else if (ext == "obj")
    raw = readWithVtk<vtkOBJReader>(path, &colors, &result.error);
  else if (ext == "ply")
    raw = readWithVtk<vtkPLYReader>(path, &colors, &result.error);
  else
    raw = readWithAssimp(path, &colors, &result.error);
  if (!raw) return result;

  // Triangles only, then normals split at sharp edges (CAD parts keep their crisp edges).
  vtkNew<vtkTriangleFilter> tri;
  tri->SetInputData(raw);
  tri->PassLinesOff();
  tri->PassVertsOff();
  vtkNew<vtkPolyDataNormals> normals;
  normals->SetInputConnection(tri->GetOutputPort());
  normals->SetFeatureAngle(40.0);
  normals->SplittingOn();
  normals->ConsistencyOn();
  normals->Update();
  if (normals->GetOutput()->GetNumberOfPolys() == 0) {
    result.error = QStringLiteral("the file has no triangles");
    return result;
  }
  result.polyData = vtkSmartPointer<vtkPolyData>::New();
  result.polyData->ShallowCopy(normals->GetOutput());
  result.hasColors = colors && result.polyData->GetPointData()->GetScalars() != nullptr;
  return result;
}

MeshLibrary MeshLibrary::load(const dyn::Model& model, const QString& sourceFile,
                              const std::function<bool(int, int)>& progress) {
  MeshLibrary lib;
  lib.sourceFile_ = sourceFile;
  QStringList uris;
  QSet<QString> seen;
  for (const auto& g : model.geometries) {
    if (g.shape.kind != dyn::Shape::Kind::Mesh) continue;
    const QString uri = QString::fromStdString(g.shape.meshUri);
    if (!seen.contains(uri)) {
      seen.insert(uri);
      uris << uri;
    }
  }
  for (int i = 0; i < uris.size(); ++i) {
    if (progress && !progress(i, int(uris.size()))) break;
    QString error;
    const QString path = resolveMeshPath(uris[i], sourceFile, &error);
    LoadedMesh mesh;
    if (path.isEmpty()) {
      mesh.error = error;
    } else {
      mesh = loadMeshFile(path);
      if (!mesh.ok()) mesh.error = QStringLiteral("cannot read '%1': %2").arg(path, mesh.error);
    }
    lib.meshes_.insert(uris[i], mesh);
  }
  if (progress) progress(int(uris.size()), int(uris.size()));
  return lib;
}
