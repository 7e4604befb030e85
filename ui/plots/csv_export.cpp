#include "plots/csv_export.hpp"

#include <QObject>
#include <cstdio>

#include "document/save_file.hpp"

namespace plots {

QString csvField(const QString& text) {
  if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r')) return text;
  QString quoted = text;
  quoted.replace('"', "\"\"");
  return '"' + quoted + '"';
}

bool writeCsv(const QString& path, const QString& timeName, std::span<const double> t, const QStringList& names,
              const std::vector<std::span<const double>>& columns, QString* error) {
  auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  if (names.size() != qsizetype(columns.size()))
    return fail(
        QObject::tr("Cannot write %1: %2 names for %3 columns").arg(path).arg(names.size()).arg(columns.size()));
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i].size() != t.size())
      return fail(QObject::tr("Cannot write %1: column '%2' has %3 values for %4 times")
                      .arg(path, names[qsizetype(i)])
                      .arg(columns[i].size())
                      .arg(t.size()));
  QStringList header{csvField(timeName)};
  for (const QString& name : names) header << csvField(name);
  QByteArray out = header.join(',').toUtf8() + '\n';
  out.reserve(out.size() + qsizetype(t.size() * (columns.size() + 1) * 24));
  char buffer[32];
  for (std::size_t k = 0; k < t.size(); ++k) {
    std::snprintf(buffer, sizeof buffer, "%.17g", t[k]);
    out += buffer;
    for (const auto& column : columns) {
      std::snprintf(buffer, sizeof buffer, ",%.17g", column[k]);
      out += buffer;
    }
    out += '\n';
  }
  return saveFileAtomically(path, out, error);  // QSaveFile, every short write checked
}

}  // namespace plots
