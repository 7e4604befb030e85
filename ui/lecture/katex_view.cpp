#include "lecture/katex_view.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QShowEvent>
#include <QTimer>
#include <QVBoxLayout>
#include <QWebEnginePage>
#include <QWebEngineView>

#include "lecture/equation_html.hpp"
#include "lecture/katex_assets.hpp"
#include "lecture/web_engine_environment.hpp"

KatexView::KatexView(const QString& title, const QString& viewName, QWidget* parent)
    : QWidget(parent), m_name(title), m_viewName(viewName) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_resend = new QTimer(this);
  m_resend->setSingleShot(true);
  m_resend->setInterval(5000);
  connect(m_resend, &QTimer::timeout, this, [this] {
    if (isRendered()) return;
    m_sent.clear();  // the request may have been dropped: nothing would answer it
    push();
  });
}

KatexView::~KatexView() { *m_alive = false; }

void KatexView::show(const QString& body, const QString& css, bool fit) {
  m_body = body;
  m_css = css;
  m_fit = fit;
  if (isVisible()) ensureView();
  push();
}

void KatexView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (m_body.isEmpty()) return;
  ensureView();
  if (!isRendered()) QTimer::singleShot(0, this, &KatexView::push);
}

void KatexView::ensureView() {
  if (m_view) return;
  web_engine::prepareEnvironment();
  m_view = new QWebEngineView(this);
  m_view->setObjectName(m_viewName);
  m_view->setContextMenuPolicy(Qt::NoContextMenu);
  layout()->addWidget(m_view);
  connect(m_view, &QWebEngineView::loadFinished, this, [this](bool ok) {
    m_shellLoaded = ok;
    if (!ok) qWarning("%s: the equation page did not load", qPrintable(m_name));
    push();
  });
  // A renderer that died (out of memory, killed) took KaTeX and the page with it: load the shell again.
  connect(m_view->page(), &QWebEnginePage::renderProcessTerminated, this, [this, alive = m_alive] {
    if (!*alive) return;
    qWarning("%s: the equation page's renderer stopped; loading it again", qPrintable(m_name));
    m_shellLoaded = false;
    m_rendered.clear();
    m_sent.clear();
    loadShell();
  });
  loadShell();
  emit viewCreated();
}

void KatexView::loadShell() {
  if (!katex_assets::available())
    qWarning("%s: KaTeX not found in %s (Debian: libjs-katex); the equations show as TeX", qPrintable(m_name),
             qPrintable(katex_assets::directory()));
  m_sent.clear();
  m_view->setHtml(lecture_html::page(QString(), lecture_html::Style::normal()),
                  QUrl::fromLocalFile(katex_assets::directory() + "/"));
}

void KatexView::push() {
  if (!m_view || !m_shellLoaded || !isVisible() || m_body.isEmpty() || !m_sent.isEmpty()) return;
  m_resend->start();
  const QString key = m_body + m_css;
  m_sent = key;
  const QString args =
      QString::fromUtf8(QJsonDocument(QJsonArray{m_body, m_css, m_fit}).toJson(QJsonDocument::Compact));
  // The page answers later, or (Qt WebEngine 6.4) calls back with nothing while it is destroyed,
  // when this panel's members are gone: the flag tells.
  const std::shared_ptr<bool> alive = m_alive;
  m_view->page()->runJavaScript("dynShow.apply(null, " + args + ")", [this, key, alive](const QVariant& refused) {
    if (!*alive) return;
    if (m_sent == key) m_sent.clear();
    if (!refused.isValid()) return;
    if (key != m_body + m_css) return push();  // passed over: the newest body now
    m_refused = refused.toInt();
    confirmWhenFontsLoaded(key, 100);
  });
}

void KatexView::runScript(const QString& script, const std::function<void(const QVariant&)>& done) {
  if (!m_view || !m_shellLoaded) return;
  const std::shared_ptr<bool> alive = m_alive;
  m_view->page()->runJavaScript(script, [done, alive](const QVariant& v) {
    if (*alive && done) done(v);
  });
}

void KatexView::confirmWhenFontsLoaded(const QString& key, int tries) {
  // KaTeX's faces load on their first use (bold, script, ...): until they arrive the browser draws
  // those glyphs blank, so a picture taken at once would miss the bold symbols.
  const std::shared_ptr<bool> alive = m_alive;
  m_view->page()->runJavaScript("document.fonts.status", [this, key, tries, alive](const QVariant& status) {
    if (!*alive || !status.isValid()) return;
    if (status.toString() != QLatin1String("loaded") && tries > 0) {
      QTimer::singleShot(30, this, [this, key, tries] {
        if (m_view) confirmWhenFontsLoaded(key, tries - 1);
      });
      return;
    }
    if (key != m_body + m_css) return;  // a newer body is on its way
    m_rendered = key;
    emit typeset();
  });
}
