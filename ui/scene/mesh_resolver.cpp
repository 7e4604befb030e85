#include "scene/mesh_resolver.hpp"

#include <QDir>
#include <QFileInfo>
#include <QStringList>
#include <QUrl>

namespace {

bool isFile(const QString& path) {
  const QFileInfo fi(path);
  return fi.exists() && fi.isFile();
}

QString clean(const QString& path) { return QDir::cleanPath(QFileInfo(path).absoluteFilePath()); }

// A folder named `name` below `root`, at most `depth` levels down, holding `rest`.
QString findPackageBelow(const QDir& root, const QString& name, const QString& rest, int depth, int& budget) {
  if (depth < 0 || budget <= 0) return {};
  const QStringList subdirs = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks, QDir::Name);
  for (const QString& sub : subdirs) {
    if (--budget <= 0) return {};
    if (sub == name && isFile(root.filePath(sub + "/" + rest))) return root.filePath(sub + "/" + rest);
  }
  if (depth == 0) return {};
  for (const QString& sub : subdirs) {
    if (sub.startsWith('.') || sub == "build" || sub == "devel" || sub == "install" || sub == "log") continue;
    const QString found = findPackageBelow(QDir(root.filePath(sub)), name, rest, depth - 1, budget);
    if (!found.isEmpty()) return found;
  }
  return {};
}

QString resolvePackage(const QString& name, const QString& rest, const QString& urdfFile, QString* error) {
  QStringList searched;
  // 1. ROS_PACKAGE_PATH roots.
  const QString rosPath = qEnvironmentVariable("ROS_PACKAGE_PATH");
  const QStringList roots = rosPath.split(':', Qt::SkipEmptyParts);
  for (const QString& r : roots) {
    const QDir root(r);
    if (root.dirName() == name && isFile(root.filePath(rest))) return clean(root.filePath(rest));
    if (isFile(root.filePath(name + "/" + rest))) return clean(root.filePath(name + "/" + rest));
  }
  for (const QString& r : roots) {  // nested packages (catkin workspaces: src/<repo>/<package>)
    int budget = 4000;
    const QString found = findPackageBelow(QDir(r), name, rest, 3, budget);
    if (!found.isEmpty()) return clean(found);
  }
  if (!roots.isEmpty()) searched << "ROS_PACKAGE_PATH=" + rosPath;
  // 2. ROS 2 install prefixes.
  const QString amentPath = qEnvironmentVariable("AMENT_PREFIX_PATH");
  for (const QString& p : amentPath.split(':', Qt::SkipEmptyParts)) {
    const QString candidate = QDir(p).filePath("share/" + name + "/" + rest);
    if (isFile(candidate)) return clean(candidate);
  }
  if (!amentPath.isEmpty()) searched << "AMENT_PREFIX_PATH";
  // 3. Upward from the URDF's folder.
  const QString start = urdfFile.isEmpty() ? QDir::currentPath() : QFileInfo(urdfFile).absolutePath();
  QDir dir(start);
  while (true) {
    if (dir.dirName() == name && isFile(dir.filePath(rest))) return clean(dir.filePath(rest));
    if (isFile(dir.filePath(name + "/" + rest))) return clean(dir.filePath(name + "/" + rest));
    if (!dir.cdUp()) break;
  }
  searched << "upward from " + start;
  if (error)
    *error = QStringLiteral("package '%1' (file '%2') not found; searched %3")
                 .arg(name, rest, searched.join(QStringLiteral(", ")));
  return {};
}

}  // namespace

QString resolveMeshPath(const QString& uriIn, const QString& urdfFile, QString* error) {
  const QString uri = uriIn.trimmed();
  if (uri.isEmpty()) {
    if (error) *error = QStringLiteral("empty mesh file name");
    return {};
  }
  const QString baseDir = urdfFile.isEmpty() ? QDir::currentPath() : QFileInfo(urdfFile).absolutePath();
  auto existing = [&](const QString& path) -> QString {
    if (isFile(path)) return clean(path);
    if (error) *error = QStringLiteral("mesh file '%1' not found").arg(QDir::cleanPath(path));
    return {};
  };

  for (const QString& scheme : {QStringLiteral("package://"), QStringLiteral("model://")}) {
    if (!uri.startsWith(scheme, Qt::CaseInsensitive)) continue;
    const QString rest = QUrl::fromPercentEncoding(uri.mid(scheme.size()).toUtf8());
    const int slash = rest.indexOf('/');
    if (slash <= 0 || slash == rest.size() - 1) {
      if (error) *error = QStringLiteral("malformed URI '%1' (expected %2NAME/path)").arg(uri, scheme);
      return {};
    }
    return resolvePackage(rest.left(slash), rest.mid(slash + 1), urdfFile, error);
  }
  if (uri.startsWith(QStringLiteral("file://"), Qt::CaseInsensitive)) {
    const QString path = QUrl::fromPercentEncoding(uri.mid(7).toUtf8());
    return existing(QDir::isAbsolutePath(path) ? path : QDir(baseDir).filePath(path));
  }
  const int colon = uri.indexOf(QStringLiteral("://"));
  if (colon > 0) {
    if (error) *error = QStringLiteral("unsupported URI scheme in '%1'").arg(uri);
    return {};
  }
  return existing(QDir::isAbsolutePath(uri) ? uri : QDir(baseDir).filePath(uri));
}
