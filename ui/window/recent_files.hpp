// The File > Recent files list, most recent first, kept in QSettings.
#pragma once
#include <QStringList>

namespace recent_files {

inline constexpr int kMaximum = 10;

QStringList list();
void add(const QString& path);  // moves an existing entry to the front
void remove(const QString& path);
void clear();

}  // namespace recent_files
