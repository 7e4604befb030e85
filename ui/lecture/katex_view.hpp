// A panel that shows equations typeset by KaTeX in a Qt WebEngine view (the Algorithm inspector's
// equation panel, the Equations of motion view). The web view is created on the first show() while
// the panel is on screen: a panel that is never shown starts no Chromium. The page is loaded once
// with KaTeX (a shell); each show() then replaces its body and stylesheet (katex_assets'
// dynShow), a few milliseconds instead of a page load. Rendered means typeset with its fonts
// loaded: tests and screenshots wait for typeset().
#pragma once
#include <QString>
#include <QWidget>
#include <functional>
#include <memory>

class QTimer;
class QVariant;
class QWebEngineView;

class KatexView : public QWidget {
  Q_OBJECT

 public:
  // `title`: the panel's name in warnings; `viewName`: the web view's objectName.
  KatexView(const QString& title, const QString& viewName, QWidget* parent = nullptr);
  ~KatexView() override;

  // Shows `body` (HTML whose elements of class "tex" hold TeX) with the stylesheet `css`; `fit`:
  // zoomed to fit the panel (presentation mode, katex_assets::renderScript's dynFit). Kept and
  // shown once the panel is on screen when it is hidden now.
  void show(const QString& body, const QString& css, bool fit);
  // The body last passed to show() is on screen, typeset, with its fonts.
  bool isRendered() const { return m_view && !m_body.isEmpty() && m_rendered == m_body + m_css; }
  int refusedFormulas() const { return m_refused; }
  QWebEngineView* webView() const { return m_view; }
  // Creates the web view (when on screen) and shows the pending body.
  void ensureView();
  // Runs script in the page (nothing before the view exists); `done` gets its result.
  void runScript(const QString& script, const std::function<void(const QVariant&)>& done = {});

 signals:
  void typeset();  // the body passed to show() is rendered
  void viewCreated();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void loadShell();
  void push();
  // Marks `key` (body and stylesheet) rendered once the page's web fonts have loaded (`tries` more polls at most).
  void confirmWhenFontsLoaded(const QString& key, int tries);

  QString m_name, m_viewName;
  QWebEngineView* m_view = nullptr;
  std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);  // for the page's late answers
  bool m_shellLoaded = false;
  // Sends the body again while it is on screen and not yet confirmed: a busy or restarted renderer
  // may drop a request (seen on a loaded CI machine), and nothing else would ask again.
  QTimer* m_resend = nullptr;
  QString m_body, m_css, m_rendered;  // m_rendered: body + css on screen
  // Body + css sent and not yet answered. One request at a time: the answer sends the newest body,
  // so stepping fast (a held arrow key, Play, the handout's pictures) skips the bodies passed over
  // instead of queueing their typesetting in the renderer, which other pages (the PDF) share.
  QString m_sent;
  bool m_fit = false;
  int m_refused = 0;
};
