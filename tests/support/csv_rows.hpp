// Parses the CSV that dynscope-cli writes (a header row, then numbers) for the CLI suites.
#pragma once
#include <QByteArray>
#include <QList>
#include <QStringList>
#include <vector>

namespace dyn::testing {

// Rows of numbers; the header row's names go to *header.
inline std::vector<std::vector<double>> parseCsv(const QByteArray& text, QStringList* header) {
  std::vector<std::vector<double>> rows;
  const QList<QByteArray> lines = text.trimmed().split('\n');
  for (int k = 0; k < lines.size(); ++k) {
    const QList<QByteArray> fields = lines[k].trimmed().split(',');
    if (k == 0) {
      for (const auto& f : fields) *header << QString(f);
      continue;
    }
    std::vector<double> row;
    for (const auto& f : fields) row.push_back(f.toDouble());
    rows.push_back(row);
  }
  return rows;
}

}  // namespace dyn::testing
