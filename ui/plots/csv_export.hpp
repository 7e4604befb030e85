// The plots' CSV: header "t,<names>", one row per sample, every number at %.17g so that
// reading it back gives the same doubles.
#pragma once
#include <QString>
#include <QStringList>
#include <span>
#include <vector>

namespace plots {

// columns[i][k] is series i at sample k; every column has t.size() values.
bool writeCsv(const QString& path, const QString& timeName, std::span<const double> t, const QStringList& names,
              const std::vector<std::span<const double>>& columns, QString* error = nullptr);

// A header field, quoted when it holds a comma, a quote or a line break (RFC 4180).
QString csvField(const QString& text);

}  // namespace plots
