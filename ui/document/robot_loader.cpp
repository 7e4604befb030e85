#include "document/robot_loader.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <exception>

#include "dynscope/io/dh_table.hpp"
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

std::shared_ptr<const dyn::Model> buildEditedModel(const dyn::RobotDescription& description, bool floatingBase,
                                                   const std::vector<dyn::Fixup>& fixups,
                                                   const std::vector<dyn::RobotEdit>& edits) {
  dyn::RobotDescription edited = description;
  dyn::applyEdits(edited, edits);
  dyn::BuildOptions options;
  options.floatingBase = floatingBase;
  options.fixups = fixups;
  return std::make_shared<const dyn::Model>(dyn::buildModel(edited, options));
}

RobotLoadResult loadRobotFile(const QString& path, bool floatingBase, bool readMeshes,
                              const std::function<void(int, int)>& progress, const std::vector<dyn::Fixup>& fixups,
                              const std::vector<dyn::RobotEdit>& edits) {
  RobotLoadResult r;
  QElapsedTimer timer;
  timer.start();
  if (QString problem = robotFileTypeProblem(path); !problem.isEmpty()) {
    r.error = problem;
    return r;
  }
  try {
    // A DH table is kept as a table too (the DH editor changes its rows).
    if (QFileInfo(path).suffix().toLower() == "dh") {
      QFile f(path);
      if (f.open(QIODevice::ReadOnly))
        r.dhTable = std::make_shared<const dyn::DhTable>(dyn::parseDhTable(f.readAll().toStdString(), path.toStdString()));
    }
    auto description = std::make_shared<const dyn::RobotDescription>(
        r.dhTable ? dyn::dhTableToDescription(*r.dhTable) : dyn::loadDescription(path.toStdString()));
    // Edits that no longer fit the file (it changed since they were made) are left out and named.
    std::vector<dyn::RobotEdit> fitting;
    dyn::RobotDescription probe = *description;
    for (const dyn::RobotEdit& e : edits) {
      if (const std::string why = dyn::checkEdit(probe, e); !why.empty()) {
        r.skippedEdits << QString::fromStdString(why);
        continue;
      }
      dyn::applyEdit(probe, e);
      fitting.push_back(e);
    }
    r.edits = fitting;
    r.model = buildEditedModel(*description, floatingBase, fixups, fitting);
    r.description = description;
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
