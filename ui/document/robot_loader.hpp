// Parse + build of a robot file and the reading of its meshes: safe on a worker thread (no
// widgets, no OpenGL, no shared state). The scene turns the meshes into actors on the GUI thread.
#pragma once
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "dynscope/io/fixups.hpp"
#include "dynscope/io/robot_edit.hpp"
#include "dynscope/model/model.hpp"

class MeshLibrary;
namespace dyn {
struct DhTable;
}

struct RobotLoadResult {
  std::shared_ptr<const dyn::Model> model;  // null on failure
  // The file as read (no fix-ups, no edits): edits are applied over it (RobotDocument::setEdits).
  std::shared_ptr<const dyn::RobotDescription> description;
  std::shared_ptr<const dyn::DhTable> dhTable;  // a .dh file's table (null for URDF and MJCF)
  std::string fileDhText;                       // the file's own table, written out (to tell edits)
  std::vector<dyn::RobotEdit> edits;            // the edits applied
  QStringList skippedEdits;  // edits that no longer fit the file (an element renamed): why each was left out
  std::shared_ptr<const MeshLibrary> meshes;  // null when not asked for or on failure
  QString error;                              // the loader's "file:line: element: message"
  double milliseconds = 0;
};

// Why `path` is no robot file Dynscope opens (a folder, binary data, a suffix other than .urdf, .xml
// or .dh without XML content), as the loader reports it; empty when it may be one. A missing or
// unreadable file is left to the loader. Asked before anything is dropped for the file (MainWindow::
// openFile), so that a wrong file is refused without a Save / Discard question first.
QString robotFileTypeProblem(const QString& path);

// progress(done, total) reports mesh files read; it is called on the loading thread. `dhText` (a
// .dh file only): the table edited in the window, read instead of the file's (a project). The edits are
// applied to the file's description, then the fix-ups, in order; the model's findings
// (dyn::checkModel) list the fix-ups' changes.
RobotLoadResult loadRobotFile(const QString& path, bool floatingBase, bool readMeshes = false,
                              const std::function<void(int, int)>& progress = {},
                              const std::vector<dyn::Fixup>& fixups = {}, const std::vector<dyn::RobotEdit>& edits = {},
                              const std::optional<std::string>& dhText = std::nullopt);

// The model of `description` with `edits` and the fix-ups applied (the document's live editing).
// Throws std::invalid_argument (an edit that does not fit) or dyn::LoadError (the edited robot).
std::shared_ptr<const dyn::Model> buildEditedModel(const dyn::RobotDescription& description, bool floatingBase,
                                                   const std::vector<dyn::Fixup>& fixups,
                                                   const std::vector<dyn::RobotEdit>& edits);
