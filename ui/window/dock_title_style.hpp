// Dock titles that follow the dock's font. QDockWidget paints its title in a font it cached when it
// was built (QApplication::font("QDockWidgetTitle")) whenever its own font is the application's
// QDockWidget font, yet sizes the title bar with its own font's metrics: presentation mode's
// larger application font (x 1.5) grew the title bars but left their text small. While
// presenting, every dock of the window gets this style, which paints the title in the dock's own
// font; afterwards the docks get the application style back, and with it the title of before.
#pragma once
#include <QProxyStyle>

class QMainWindow;

class DockTitleStyle : public QProxyStyle {
  Q_OBJECT

 public:
  DockTitleStyle();  // over the application style, whichever it is
  void drawControl(ControlElement element, const QStyleOption* option, QPainter* painter,
                   const QWidget* widget = nullptr) const override;

  // On: every dock of `window` (docked, tabbed or floating) paints its title in its own font.
  // Off: the docks use the application style again. Idempotent.
  static void setFollowFont(QMainWindow* window, bool on);
};
