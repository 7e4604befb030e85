// Where the workbench keeps its settings (window layout, recent files, view toggles).
// Explicit names rather than QCoreApplication's, so tests and the screenshot path agree with the app.
#pragma once
#include <QSettings>

inline constexpr const char* kSettingsOrganization = "Dynscope";
inline constexpr const char* kSettingsApplication = "dynscope";

// QSettings is not copyable; construct in place: `QSettings s(kSettingsOrganization, kSettingsApplication)`.
