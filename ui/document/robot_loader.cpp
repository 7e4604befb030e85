#include "document/robot_loader.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <exception>

#include "dynscope/io/model_builder.hpp"
#include "scene/mesh_loader.hpp"

// The engine reads XML as URDF or MJCF (by its root element) and anything else as a DH table, so a
// PNG or a text file would be reported as malformed; name the real problem instead.
QString robotFileTypeProblem(const QString& path) {
  if (QFileInfo(path).isDir()) return path + ": is a folder, not a robot file";
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};  // let the engine report missing/unreadable files
  const QByteArray head = f.read(512);
  if (head.contains('\0') || head.startsWith("\x89PNG"))
    return path + ": not a robot description (binary data; expected a URDF, MJCF or DH text file)";
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "urdf" || suffix == "xml" || suffix == "mjcf" || suffix == "dh") return {};
  if (head.trimmed().startsWith('<')) return {};  // URDF or MJCF content under another name
  return path + ": unsupported file type '." + suffix +
         "' (expected a URDF .urdf/.xml, a MuJoCo MJCF .xml or a DH table .dh)";
}

RobotLoadResult loadRobotFile(const QString& path, bool floatingBase, bool readMeshes,
                              const std::function<void(int, int)>& progress, const std::vector<dyn::Fixup>& fixups) {
  RobotLoadResult r;
  QElapsedTimer timer;
  timer.start();
  if (QString problem = robotFileTypeProblem(path); !problem.isEmpty()) {
    r.error = problem;
    return r;
  }
  try {
    dyn::BuildOptions options;
    options.floatingBase = floatingBase;
    options.fixups = fixups;
    r.model = std::make_shared<const dyn::Model>(dyn::loadModel(path.toStdString(), options));
    // Unreadable meshes are not errors here: the library records them and the scene draws a placeholder.
    if (readMeshes)
      r.meshes = std::make_shared<const MeshLibrary>(MeshLibrary::load(*r.model, path, [&](int done, int total) {
        if (progress) progress(done, total);
        return true;
      }));
  } catch (const dyn::LoadError& e) {
    r.error = QString::fromStdString(e.what());
  } catch (const std::exception& e) {  // anything else the parser lets through must not reach the event loop
    r.error = path + ": " + QString::fromStdString(e.what());
  }
  r.milliseconds = timer.nsecsElapsed() / 1e6;
  return r;
}
