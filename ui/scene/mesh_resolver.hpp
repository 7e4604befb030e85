// Where a URDF mesh reference lives on disk: the engine's dyn::resolveMeshPath
// (dynscope/io/mesh_path.hpp: package://, model://, file:// and relative paths) for QStrings,
// so the renderer and the model checker find the same files. Safe on any thread.
//
// Returns the absolute path of an existing file, or an empty string and a one-line
// explanation in *error (when error is not null).
#pragma once
#include <QString>

QString resolveMeshPath(const QString& uri, const QString& urdfFile, QString* error = nullptr);
