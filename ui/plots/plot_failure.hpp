// The plots' setters and exports report what was wrong through an optional QString* and return false.
#pragma once
#include <QString>

inline bool plotFailure(QString* error, const QString& message) {
  if (error) *error = message;
  return false;
}
