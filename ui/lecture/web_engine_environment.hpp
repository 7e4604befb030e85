// What Qt WebEngine (the equation panel and the handout's PDF, typeset by KaTeX) needs from the
// process, and a wait for its asynchronous answers.
//
// Qt::AA_ShareOpenGLContexts must be set before the QApplication exists (Qt WebEngine also sets
// it from its library's constructor when it is linked; the app sets it explicitly).
// QTWEBENGINE_CHROMIUM_FLAGS, when the user has not set it, becomes "--disable-gpu" (the pages are
// static text: Chromium's GPU process gains nothing and fails under Xvfb and beside VTK's context
// on some drivers) and "--disable-renderer-backgrounding" (Chromium lowers the priority of a renderer
// with no page on screen, and the handout's PDF page never is: seen at nice 5 beside compilers),
// plus "--no-sandbox" when running as root (Chromium
// refuses its sandbox as root, as in CI and containers). A value set by the user is left as it is.
#pragma once
#include <functional>

namespace web_engine {

// Before QApplication: the attribute and the flags.
void prepareApplication();
// Before the first page (idempotent): the flags.
void prepareEnvironment();
// Processes events until done() or `timeoutMs`; false on timeout.
bool waitFor(const std::function<bool()>& done, int timeoutMs);

}  // namespace web_engine
