#include "lecture/web_engine_environment.hpp"

#include <unistd.h>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QThread>

namespace web_engine {

void prepareEnvironment() {
  if (qEnvironmentVariableIsSet("QTWEBENGINE_CHROMIUM_FLAGS")) return;
  QByteArray flags = "--disable-gpu --disable-renderer-backgrounding";
  if (geteuid() == 0) flags += " --no-sandbox";
  qputenv("QTWEBENGINE_CHROMIUM_FLAGS", flags);
}

void prepareApplication() {
  QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
  prepareEnvironment();
}

bool waitFor(const std::function<bool()>& done, int timeoutMs) {
  const QDeadlineTimer deadline(timeoutMs);
  while (!done()) {
    if (deadline.hasExpired()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (!done()) QThread::msleep(2);
  }
  return true;
}

}  // namespace web_engine
