// Every file the window writes goes through QSaveFile: the data is written to a temporary file and
// renamed over the target only when all of it was written, so a failed export (disk full, no
// permission, a crash half-way) leaves the old file intact. The error text names the file and why.
#pragma once
#include <QByteArray>
#include <QString>

class QImage;

// Writes `bytes` to `path` atomically; on failure returns false and sets *error (when given).
bool saveFileAtomically(const QString& path, const QByteArray& bytes, QString* error = nullptr);
// The image as PNG, atomically.
bool savePngAtomically(const QString& path, const QImage& image, QString* error = nullptr);
