#include "scene/mesh_resolver.hpp"

#include "dynscope/io/mesh_path.hpp"

QString resolveMeshPath(const QString& uri, const QString& urdfFile, QString* error) {
  std::string why;
  const std::string path = dyn::resolveMeshPath(uri.toStdString(), urdfFile.toStdString(), error ? &why : nullptr);
  if (error && path.empty()) *error = QString::fromStdString(why);
  return QString::fromStdString(path);
}
