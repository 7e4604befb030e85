// The numbers of a script's request (session/script_link.hpp): a JSON array of numbers (or of rows
// of numbers), or, for large data, {"shape": [rows, cols], "float64": "<base64>"} holding the values
// row by row as little-endian doubles (a 10,000 x 30 trajectory is 3.2 MB of text instead of 6 MB
// of decimal numbers, and decodes without parsing a number at a time).
#pragma once
#include <Eigen/Core>
#include <QJsonValue>
#include <QString>

// `value` as a matrix of rows x cols (a flat array or a 1-D shape is one row per value, cols = 1).
// False and a plain message naming `what` ("q", "t") when it is neither form, its size is not what
// its shape says, or a value is not a finite number.
bool decodeScriptMatrix(const QJsonValue& value, const QString& what, Eigen::MatrixXd* out, QString* error);
// A vector (any matrix with one row or one column, read in order).
bool decodeScriptVector(const QJsonValue& value, const QString& what, Eigen::VectorXd* out, QString* error);
