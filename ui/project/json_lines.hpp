// Where each value of a JSON text starts: QJsonDocument keeps no positions, so error messages
// about a well-formed document find the line of the offending key here.
#pragma once
#include <QByteArray>
#include <QString>
#include <map>

namespace dyn {

// Line (1-based) of every value, by path: "robot.path", "trajectory.waypoints[2].q.j1". The text
// must be valid JSON (parse it with QJsonDocument first); keys with escapes are matched raw.
std::map<QString, int> jsonValueLines(const QByteArray& text);

// The line of a path, or of its nearest enclosing path that has one; 0 when none is known.
int lineOf(const std::map<QString, int>& lines, QString path);

// Line (1-based) of a byte offset, e.g. QJsonParseError::offset.
int lineAtOffset(const QByteArray& text, qsizetype offset);

}  // namespace dyn
