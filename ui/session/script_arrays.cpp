#include "session/script_arrays.hpp"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QtEndian>
#include <cmath>
#include <cstring>

namespace {

bool fail(QString* error, const QString& message) {
  if (error) *error = message;
  return false;
}

// {"shape": [r] or [r, c], "float64": base64}: little-endian doubles, row by row.
bool decodePacked(const QJsonObject& o, const QString& what, Eigen::MatrixXd* out, QString* error) {
  const QJsonArray shape = o.value("shape").toArray();
  if (shape.isEmpty() || shape.size() > 2)
    return fail(error, QString("%1: \"shape\" must list one or two sizes").arg(what));
  const qint64 rows = shape.at(0).toInteger(-1), cols = shape.size() == 2 ? shape.at(1).toInteger(-1) : 1;
  if (rows < 0 || cols < 0 || rows * cols > (qint64(1) << 28))
    return fail(error, QString("%1: the shape must be sizes from 0 to 2^28 values in all").arg(what));
  const QByteArray::FromBase64Result bytes =
      QByteArray::fromBase64Encoding(o.value("float64").toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
  if (!bytes) return fail(error, QString("%1: \"float64\" is not base64 text").arg(what));
  if (bytes.decoded.size() != rows * cols * qint64(sizeof(double)))
    return fail(error, QString("%1: %2 bytes of numbers, but a %3 x %4 shape needs %5")
                           .arg(what)
                           .arg(bytes.decoded.size())
                           .arg(rows)
                           .arg(cols)
                           .arg(rows * cols * qint64(sizeof(double))));
  out->resize(Eigen::Index(rows), Eigen::Index(cols));
  const char* p = bytes.decoded.constData();
  for (qint64 r = 0; r < rows; ++r)
    for (qint64 c = 0; c < cols; ++c, p += sizeof(double))
      (*out)(Eigen::Index(r), Eigen::Index(c)) = qFromLittleEndian<double>(p);
  return true;
}

// [a, b, ...] (one column) or [[a, b], [c, d], ...] (rows of equal length).
bool decodeNested(const QJsonArray& a, const QString& what, Eigen::MatrixXd* out, QString* error) {
  const bool nested = !a.isEmpty() && a.at(0).isArray();
  const qsizetype cols = nested ? a.at(0).toArray().size() : 1;
  out->resize(a.size(), cols);
  for (qsizetype r = 0; r < a.size(); ++r) {
    if (!nested) {
      if (!a.at(r).isDouble()) return fail(error, QString("%1[%2] is not a number").arg(what).arg(r));
      (*out)(r, 0) = a.at(r).toDouble();
      continue;
    }
    const QJsonArray row = a.at(r).toArray();
    if (!a.at(r).isArray() || row.size() != cols)
      return fail(error, QString("%1: row %2 has %3 values, row 0 has %4")
                             .arg(what)
                             .arg(r)
                             .arg(a.at(r).isArray() ? row.size() : 1)
                             .arg(cols));
    for (qsizetype c = 0; c < cols; ++c) {
      if (!row.at(c).isDouble()) return fail(error, QString("%1[%2][%3] is not a number").arg(what).arg(r).arg(c));
      (*out)(r, c) = row.at(c).toDouble();
    }
  }
  return true;
}

}  // namespace

bool decodeScriptMatrix(const QJsonValue& value, const QString& what, Eigen::MatrixXd* out, QString* error) {
  bool ok = false;
  if (value.isArray())
    ok = decodeNested(value.toArray(), what, out, error);
  else if (value.isObject())
    ok = decodePacked(value.toObject(), what, out, error);
  else
    return fail(error, QString("%1 is missing (expected an array of numbers)").arg(what));
  if (!ok) return false;
  for (Eigen::Index r = 0; r < out->rows(); ++r)
    for (Eigen::Index c = 0; c < out->cols(); ++c)
      if (!std::isfinite((*out)(r, c)))
        return fail(error, out->cols() == 1 ? QString("%1[%2] is not a finite number").arg(what).arg(r)
                                            : QString("%1[%2][%3] is not a finite number").arg(what).arg(r).arg(c));
  return true;
}

bool decodeScriptVector(const QJsonValue& value, const QString& what, Eigen::VectorXd* out, QString* error) {
  Eigen::MatrixXd m;
  if (!decodeScriptMatrix(value, what, &m, error)) return false;
  if (m.rows() != 1 && m.cols() != 1)
    return fail(error, QString("%1 must be a vector, got %2 x %3 values").arg(what).arg(m.rows()).arg(m.cols()));
  *out = m.rows() == 1 ? Eigen::VectorXd(m.row(0).transpose()) : Eigen::VectorXd(m.col(0));
  return true;
}
