#include "lecture/katex_assets.hpp"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QUrl>

namespace katex_assets {
namespace {

QByteArray read(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The stylesheet with each font as a woff2 data URI (Chromium reads woff2; the woff and ttf
// alternatives are dropped).
QString inlinedCss() {
  QString css = QString::fromUtf8(read(QDir(directory()).filePath("katex.min.css")));
  static const QRegularExpression others(R"(,\s*url\(fonts/[^)]+\.(woff|ttf)\)\s*format\(['"]?(woff|truetype)['"]?\))");
  css.remove(others);
  static const QRegularExpression woff2(R"(url\(fonts/([^)]+\.woff2)\))");
  QString out;
  qsizetype from = 0;
  for (auto it = woff2.globalMatch(css); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    out += css.mid(from, m.capturedStart() - from);
    const QByteArray font = read(QDir(directory()).filePath("fonts/" + m.captured(1)));
    out += "url(data:font/woff2;base64," + QString::fromLatin1(font.toBase64()) + ")";
    from = m.capturedEnd();
  }
  return out + css.mid(from);
}

}  // namespace

QString directory() {
  const QString custom = qEnvironmentVariable("DYNSCOPE_KATEX_DIR");
  return custom.isEmpty() ? QStringLiteral("/usr/share/javascript/katex") : custom;
}

bool available() {
  const QDir d(directory());
  return QFile::exists(d.filePath("katex.min.js")) && QFile::exists(d.filePath("katex.min.css"));
}

QString linkedHead() {
  const QDir d(directory());
  return QString("<link rel=\"stylesheet\" href=\"%1\"><script src=\"%2\"></script>")
      .arg(QUrl::fromLocalFile(d.filePath("katex.min.css")).toString(),
           QUrl::fromLocalFile(d.filePath("katex.min.js")).toString());
}

QString inlinedHead() {
  QString js = QString::fromUtf8(read(QDir(directory()).filePath("katex.min.js")));
  js.replace("</script", "<\\/script");  // cannot end the element early
  return "<style>" + inlinedCss() + "</style><script>" + js + "</script>";
}

QString renderScript() {
  // Inline mode with \displaystyle (set by the page's TeX) rather than display mode: a long
  // equation may then break after a relation or an operator instead of running off the panel.
  return QStringLiteral(R"(<script>
function dynRender(root) {
  if (!window.katex) return 0;
  root.querySelectorAll('.tex').forEach(function (e) {
    if (e.dataset.tex !== undefined) return;
    var tex = e.textContent;
    e.dataset.tex = tex;
    katex.render(tex, e, {displayMode: false, throwOnError: false, strict: 'ignore'});
  });
  return document.querySelectorAll('.katex-error').length;
}
// Presentation mode: the whole step on screen, as large as it goes. The body is zoomed down until it
// fits the panel's height and width: to 0.8 of its size with every substitution's numbers; else with
// the values the step wrote instead (.brief) to 0.75; else the equations alone (.none: the table's
// highlighted row has the values) to 0.6, the least the back of the hall still reads; a step longer
// than that scrolls. Again when the fonts arrive and on resizing.
var dynFitOn = false;
function dynZoomToFit(b, least) {
  var d = document.documentElement;
  var fits = function () { return d.scrollHeight <= window.innerHeight + 1 && d.scrollWidth <= window.innerWidth + 1; };
  b.style.zoom = 1;
  if (fits()) return 1;
  b.style.zoom = least;
  if (!fits()) return -1;
  var lo = least, hi = 1;
  for (var i = 0; i < 8; ++i) {
    var mid = (lo + hi) / 2;
    b.style.zoom = mid;
    if (fits()) lo = mid; else hi = mid;
  }
  b.style.zoom = lo;
  return lo;
}
function dynFit() {
  var b = document.getElementById('dyn-body');
  if (!b) return 1;
  var c = document.body.classList;
  c.remove('dyn-brief', 'dyn-none');
  b.style.zoom = 1;
  if (!dynFitOn) return 1;
  var z = dynZoomToFit(b, 0.8);
  if (z >= 0 || !document.querySelector('.brief')) return z >= 0 ? z : dynZoomToFit(b, 0.6);
  c.add('dyn-brief');
  z = dynZoomToFit(b, 0.75);
  if (z >= 0) return z;
  c.remove('dyn-brief');
  c.add('dyn-none');
  return dynZoomToFit(b, 0.6);
}
// A box that must stay whole (class "shrink": a term of the equations of motion) and is wider than
// its line is scaled down to fit it (to 0.4 at least; a term is never broken).
// All sizes are read before any is set: one layout for the page, not one per box.
function dynShrink() {
  var boxes = Array.from(document.querySelectorAll('.shrink'));
  boxes.forEach(function (e) { e.style.zoom = ''; });
  var zooms = boxes.map(function (e) {
    var p = e.closest('.entry') || e.parentElement, s = getComputedStyle(p);
    var room = p.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 2;
    var width = e.getBoundingClientRect().width;
    return width > room && room > 0 ? Math.max(0.4, room / width) : 0;
  });
  boxes.forEach(function (e, k) { if (zooms[k]) e.style.zoom = zooms[k]; });
}
function dynShow(html, css, fit) {
  document.getElementById('dyn-style').textContent = css;
  document.getElementById('dyn-body').innerHTML = html;
  dynFitOn = !!fit;
  var refused = dynRender(document.body);
  dynShrink();
  dynFit();
  if (document.fonts) document.fonts.ready.then(function () { dynShrink(); dynFit(); });
  return refused;
}
window.addEventListener('resize', function () { dynShrink(); dynFit(); });
document.addEventListener('DOMContentLoaded', function () { dynRender(document.body); dynShrink(); });
</script>)");
}

}  // namespace katex_assets
