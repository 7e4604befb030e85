// Our own toolbar and application icons (assets/icons/*.svg, compiled in through ui/icons.qrc).
#pragma once
#include <QIcon>
#include <QString>

// The icon assets/icons/<name>.svg; a null icon for an unknown name.
QIcon dynscopeIcon(const QString& name);

// "Text (Shortcut)" for a tooltip, the shortcut in the platform's notation; just the text without one.
class QAction;
void setToolTipWithShortcut(QAction* action, const QString& text);
