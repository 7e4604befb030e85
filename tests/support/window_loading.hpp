// Opens a robot in the workbench window the way File > Open does and waits until the loading
// thread has finished and the window has painted: true when it loaded. For the GUI suites.
#pragma once
#include <QCoreApplication>
#include <QDir>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

#include "document/robot_document.hpp"
#include "window/main_window.hpp"

namespace dyn::testing {

// A robot shipped in robots/, as an absolute path.
inline QString robotFile(const char* name) { return QDir(QStringLiteral(DYNSCOPE_ROBOTS_DIR)).absoluteFilePath(name); }

// Lets queued events run and the window paint.
inline void settle(int ms = 30) {
  QCoreApplication::processEvents();
  QTest::qWait(ms);
}

inline bool openAndWait(MainWindow& window, const QString& path, QString* error = nullptr, int settleMs = 30) {
  QSignalSpy finished(window.document(), &RobotDocument::loadingFinished);
  if (!window.openFile(path) || !finished.wait(30000)) return false;
  if (error) *error = finished.at(0).at(1).toString();
  QCoreApplication::processEvents();
  QTest::qWait(settleMs);  // let the viewport paint
  return finished.at(0).at(0).toBool();
}

// Shows the window at `size` and opens one of the shipped robots: true when both worked.
inline bool showWithRobot(MainWindow& window, QSize size, const char* robot) {
  window.resize(size);
  window.show();
  return QTest::qWaitForWindowExposed(&window) && openAndWait(window, robotFile(robot));
}

// Where a suite saves its pictures: $DYNSCOPE_SCREENSHOT_DIR when set (to look at), else `fallback`.
inline QString screenshotDirectory(const QTemporaryDir& fallback) {
  const QString dir = qEnvironmentVariable("DYNSCOPE_SCREENSHOT_DIR", fallback.path());
  QDir().mkpath(dir);
  return dir;
}

// A window for a suite: none of the user's settings, and every error dialog a test failure.
inline std::unique_ptr<MainWindow> strictWindow() {
  auto window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
  window->setErrorHandler([](const QString& title, const QString& text) { QFAIL(qPrintable(title + ": " + text)); });
  return window;
}

}  // namespace dyn::testing
