#include "window/recent_files.hpp"

#include <QFileInfo>
#include <QSettings>

#include "window/app_settings.hpp"

namespace recent_files {

namespace {
constexpr const char* kKey = "recentFiles";

void store(const QStringList& files) {
  QSettings s(kSettingsOrganization, kSettingsApplication);
  s.setValue(kKey, files);
}
}  // namespace

QStringList list() {
  QSettings s(kSettingsOrganization, kSettingsApplication);
  return s.value(kKey).toStringList();
}

void add(const QString& path) {
  const QString file = QFileInfo(path).absoluteFilePath();
  QStringList files = list();
  files.removeAll(file);
  files.prepend(file);
  while (files.size() > kMaximum) files.removeLast();
  store(files);
}

void remove(const QString& path) {
  QStringList files = list();
  files.removeAll(QFileInfo(path).absoluteFilePath());
  store(files);
}

void clear() { store({}); }

}  // namespace recent_files
