#include "window/icons.hpp"

#include <QAction>
#include <QFile>
#include <QKeySequence>

// dynscope_ui is a static library: its resources are registered only when something pulls them in.
// At global scope: Q_INIT_RESOURCE declares the generated function in the enclosing namespace.
static void initIconResources() {
  static const bool done = [] {
    Q_INIT_RESOURCE(icons);
    return true;
  }();
  (void)done;
}

QIcon dynscopeIcon(const QString& name) {
  initIconResources();
  const QString path = QStringLiteral(":/icons/%1.svg").arg(name);
  return QFile::exists(path) ? QIcon(path) : QIcon();
}

void setToolTipWithShortcut(QAction* action, const QString& text) {
  const QKeySequence key = action->shortcut();
  action->setToolTip(key.isEmpty() ? text
                                   : QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
}
