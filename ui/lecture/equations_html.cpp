#include "lecture/equations_html.hpp"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <optional>

namespace equations_html {
namespace {

QString tex(const QString& t, const char* cls = "tex") {
  return QString("<span class=\"%1\">%2</span>").arg(cls, t.toHtmlEscaped());
}

// A factor times a sum, "m_{2} \left(a + b - c\right)" as the printer writes it: the factor and the
// sum's terms (with their signs), so that the sum may wrap between its terms; empty otherwise (a
// function's argument, cos\left(q_{2}\right), is not such a sum).
struct Factored {
  QString factor;
  QStringList terms;  // each with its sign, "+ b", "- c"; the first as written
};
std::optional<Factored> factoredSum(const QString& t) {
  static const QString open = "\\left(", close = "\\right)";
  if (!t.endsWith(close)) return std::nullopt;
  // The \left( that the final \right) closes.
  int depth = 0, start = -1;
  for (int k = t.size() - close.size(); k >= 0; --k) {
    if (t.mid(k, close.size()) == close) ++depth;
    if (t.mid(k, open.size()) == open && --depth == 0) {
      start = k;
      break;
    }
  }
  if (start <= 0) return std::nullopt;
  const QString factor = t.left(start).trimmed();
  static const QRegularExpression function("\\\\(sin|cos|tan|exp|log|operatorname\\{[^}]*\\})$");
  if (factor.isEmpty() || function.match(factor).hasMatch()) return std::nullopt;
  // The sum's terms at its own depth: split at " + " and " - " outside braces and parentheses.
  const QString inner = t.mid(start + open.size(), t.size() - start - open.size() - close.size());
  Factored f{factor, {}};
  int level = 0, from = 0;
  for (int k = 0; k < inner.size(); ++k) {
    const QChar ch = inner[k];
    if (ch == '{' || inner.mid(k, open.size()) == open) ++level;
    if (ch == '}' || inner.mid(k, close.size()) == close) --level;
    if (level == 0 && k > from && (inner.mid(k, 3) == " + " || inner.mid(k, 3) == " - ")) {
      f.terms << inner.mid(from, k - from).trimmed();
      from = k + 1;
    }
  }
  f.terms << inner.mid(from).trimmed();
  if (f.terms.size() < 2) return std::nullopt;
  return f;
}

// One term's boxes: a factored sum as the factor, its terms and the parentheses, each box whole
// (and shrunk to the line when wider), the line free to wrap between them; else one box.
QString termBoxes(const QString& t) {
  const std::optional<Factored> f = factoredSum(t);
  if (!f) return tex(t, "tex shrink");
  QString h = tex(f->factor + " \\bigl(", "tex shrink");
  for (int k = 0; k < f->terms.size(); ++k) {
    QString term = f->terms[k];
    QString sign = k > 0 ? "+" : "";
    if (term.startsWith('+') || term.startsWith('-')) sign = term.left(1), term = term.mid(1).trimmed();
    if (!sign.isEmpty()) h += tex(sign, "tex eqop");
    h += tex(term + (k + 1 == f->terms.size() ? " \\bigr)" : ""), "tex shrink");
  }
  return h;
}

// One entry: its name, then its terms each in a box of its own (classes d0, d1, ...: the joints
// it contains), the signs between them.
QString entry(const dyn::EquationEntry& e) {
  QString h = "<div class=\"entry\">" + tex(QString::fromStdString(e.texName) + " =", "tex lhs");
  if (e.zero || e.terms.empty()) return h + " " + tex("0", "tex") + "</div>";
  int shown = 0;
  for (const dyn::EquationTerm& t : e.terms) {
    if (shown == kMaxTermsShown) {
      h += QString("<span class=\"more\">%1</span>")
               .arg(QObject::tr("… and %1 more terms (Export has them all)").arg(e.terms.size() - shown));
      break;
    }
    QString body = QString::fromStdString(t.tex).trimmed();
    const bool minus = body.startsWith('-');
    if (minus) body = body.mid(1).trimmed();
    if (shown > 0 || minus) h += tex(minus ? "-" : "+", "tex eqop");
    QStringList classes{"eqt"};
    for (int d : t.dofs) classes << QString("d%1").arg(d);
    h += QString("<span class=\"%1\">%2</span>").arg(classes.join(' '), termBoxes(body));
    ++shown;
  }
  return h + "</div>";
}

// The entries one a line; of a symmetric n x n matrix (row-major) the upper triangle only.
QString entries(const std::vector<dyn::EquationEntry>& list, int symmetricN = 0) {
  QString h;
  for (size_t k = 0; k < list.size(); ++k)
    if (symmetricN == 0 || int(k) % symmetricN >= int(k) / symmetricN) h += entry(list[k]);
  return h;
}

// tau_i = sum_j M_ij qdd_j + c_i + g_i, as textbooks write it (the expanded tau is in the exports).
QString torques(const dyn::EquationsReport& r) {
  QString h;
  for (int i = 0; i < r.n; ++i) {
    h += "<div class=\"entry\">" + tex(QString("\\tau_{%1} =").arg(i + 1), "tex lhs");
    bool first = true;
    const auto add = [&](const dyn::EquationEntry& e, const QString& t, int extraDof) {
      if (e.zero) return;
      std::vector<int> dofs = e.dofs;
      if (extraDof >= 0 && std::find(dofs.begin(), dofs.end(), extraDof) == dofs.end()) dofs.push_back(extraDof);
      QStringList classes{"eqt"};
      for (int d : dofs) classes << QString("d%1").arg(d);
      if (!first) h += tex("+", "tex eqop");
      h += QString("<span class=\"%1\">%2</span>").arg(classes.join(' '), tex(t, "tex shrink"));
      first = false;
    };
    for (int j = 0; j < r.n; ++j) {
      const dyn::EquationEntry& m = r.M[size_t(std::min(i, j) * r.n + std::max(i, j))];
      add(m, QString("%1\\,\\ddot{q}_{%2}").arg(QString::fromStdString(m.texName)).arg(j + 1), j);
    }
    add(r.c[size_t(i)], QString::fromStdString(r.c[size_t(i)].texName), -1);
    add(r.g[size_t(i)], QString::fromStdString(r.g[size_t(i)].texName), -1);
    if (first) h += tex("0", "tex");
    h += "</div>";
  }
  return h;
}

QString section(const QString& heading, const QString& equation, const std::vector<dyn::EquationEntry>& list) {
  return QString("<h3>%1 %2</h3>").arg(heading.toHtmlEscaped(), tex(equation)) + entries(list);
}

// M(q) as a matrix of its entries' names: the shape a slide starts from (0 where an entry is zero).
QString massOverview(const dyn::EquationsReport& r) {
  QString m = "M(q) = \\begin{pmatrix}";
  for (int i = 0; i < r.n; ++i) {
    for (int j = 0; j < r.n; ++j) {
      const dyn::EquationEntry& e = r.M[size_t(std::min(i, j) * r.n + std::max(i, j))];
      m += (j ? " & " : " ") + (e.zero ? QString("0") : QString::fromStdString(e.texName));
    }
    m += i + 1 < r.n ? " \\\\" : "";
  }
  return "<div class=\"eqm\">" + tex(m + " \\end{pmatrix}", "tex shrink") + "</div>";
}

QString symbols(const dyn::EquationsReport& r) {
  QString h = QString("<h3>%1</h3><table class=\"sym\">").arg(QObject::tr("Symbols"));
  for (const dyn::EquationSymbol& s : r.symbols) {
    if (s.dof >= 0 && s.name.rfind("q", 0) == 0 && s.name.size() > 1 && s.name[1] == 'd') continue;  // q̇, q̈: as q
    h += QString("<tr><td>%1</td><td>%2</td><td class=\"v\">%3</td></tr>")
             .arg(tex(QString::fromStdString(s.tex)), QString::fromStdString(s.meaning).toHtmlEscaped(),
                  s.value ? QString::number(*s.value, 'g', 6) : QString());
  }
  return h + "</table>";
}

QString chips(const dyn::EquationsReport& r) {
  QString h = QString("<div class=\"chips\"><span class=\"hint\">%1</span>")
                  .arg(QObject::tr("Hover a joint to light its terms:"));
  for (int k = 0; k < r.n; ++k)
    h += QString(
             "<span class=\"joint j%1\" onmouseenter=\"document.body.dataset.hl='%1'\" "
             "onmouseleave=\"delete document.body.dataset.hl\">%2 <span class=\"jn\">%3</span></span>")
             .arg(k)
             .arg(tex(QString("q_{%1}").arg(k + 1)), k < int(r.dofNames.size())
                                                         ? QString::fromStdString(r.dofNames[size_t(k)]).toHtmlEscaped()
                                                         : QString());
  return h + "</div>";
}

}  // namespace

QString body(const dyn::EquationsReport& r, Section s, bool hover) {
  QString h =
      QString("<div class=\"title\">%1<br>%2</div>")
          .arg(QObject::tr("Equations of motion of %1:").arg(QString::fromStdString(r.modelName).toHtmlEscaped()),
               tex("\\tau = M(q)\\,\\ddot{q} + C(q, \\dot{q})\\,\\dot{q} + g(q)"));
  if (hover) h += chips(r);
  const bool all = s == Section::All;
  if (all || s == Section::MassMatrix)
    h += QString("<h3>%1</h3>").arg(QObject::tr("Mass matrix (symmetric)")) + massOverview(r) + entries(r.M, r.n);
  if (all || s == Section::Coriolis)
    h += section(QObject::tr("Coriolis and centrifugal terms"), "c = C(q, \\dot{q})\\,\\dot{q}", r.c);
  if (all || s == Section::Gravity) h += section(QObject::tr("Gravity"), "g(q)", r.g);
  if (all || s == Section::Torque)
    h += QString("<h3>%1 %2</h3>")
             .arg(QObject::tr("Joint forces").toHtmlEscaped(), tex("\\tau = M(q)\\,\\ddot{q} + c + g(q)")) +
         torques(r);
  if ((all || s == Section::Christoffel) && !r.christoffel.empty())
    h += section(QObject::tr("Christoffel symbols"),
                 "\\Gamma_{i,jk} = \\tfrac{1}{2}\\left(\\frac{\\partial M_{ij}}{\\partial q_k} + \\frac{\\partial "
                 "M_{ik}}{\\partial q_j} - \\frac{\\partial M_{jk}}{\\partial q_i}\\right),\\quad c_i = \\sum_{j,k} "
                 "\\Gamma_{i,jk}\\,\\dot{q}_j\\dot{q}_k",
                 r.christoffel);
  if (all || s == Section::Symbols) h += symbols(r);
  if (all)
    h += QString("<p class=\"cost\">%1</p>")
             .arg(QObject::tr("τ as generated code after common-subexpression elimination: %1 multiplications, "
                              "%2 additions, %3 sines and cosines.")
                      .arg(r.cost.multiplications)
                      .arg(r.cost.additions)
                      .arg(r.cost.functions));
  return h;
}

QString css(const dyn::EquationsReport* r, const lecture_html::Style& s) {
  const auto pt = [](double p) { return QString::number(p, 'f', 1) + "pt"; };
  // Terms never break inside; an entry wraps between them, its continuation indented.
  QString c = lecture_html::css(s) +
              QString(
                  ".title{font-size:%2;margin:4px 0 8px 0;}"
                  "h3{font-size:%3;margin:14px 0 4px 0;color:#303848;}"
                  ".eqm{font-size:%1;margin:4px 0 6px 0;}.shrink{display:inline-block;}"
                  ".entry{font-size:%1;line-height:1.9;margin:2px 0;padding-left:2.2em;text-indent:-2.2em;}"
                  ".entry .tex{white-space:nowrap;display:inline-block;text-indent:0;}"
                  ".entry .lhs{margin-right:0.35em;}.entry .eqop{margin:0 0.3em;}"
                  ".eqt{border-radius:4px;padding:2px 0;transition:background 0.1s,opacity 0.1s;}"
                  ".more{color:#5a6270;font-style:italic;margin-left:0.5em;}"
                  ".chips{font-size:%4;margin:0 0 6px 0;}.chips .hint{color:#5a6270;margin-right:0.5em;}"
                  ".joint{display:inline-block;white-space:nowrap;border:1px solid #9aa3b2;border-radius:1em;"
                  "padding:0 0.6em;margin:2px 0.3em 2px 0;cursor:default;}"
                  ".joint .jn{color:#5a6270;}"
                  "table.sym{font-size:%4;border-collapse:collapse;}table.sym td{padding:1px 0.6em 1px 0;"
                  "vertical-align:baseline;}table.sym td.v{white-space:nowrap;font-variant-numeric:tabular-nums;}"
                  ".cost{font-size:%4;color:#303848;margin-top:12px;}")
                  .arg(pt(s.equationPt), pt(s.headingPt * 1.1), pt(s.headingPt), pt(s.captionPt));
  // The lit joint: its terms highlighted, the others faded; its chip marked.
  for (int k = 0; r && k < r->n; ++k)
    c += QString(
             "body[data-hl='%1'] .eqt.d%1{background:#fff1a8;}"
             "body[data-hl='%1'] .eqt:not(.d%1){opacity:0.35;}"
             "body[data-hl='%1'] .joint.j%1{background:#fff1a8;border-color:#c9a400;}")
             .arg(k);
  return c;
}

std::optional<Section> sectionNamed(const QString& name) {
  static const std::pair<const char*, Section> names[] = {
      {"all", Section::All},         {"M", Section::MassMatrix}, {"c", Section::Coriolis},
      {"g", Section::Gravity},       {"tau", Section::Torque},   {"christoffel", Section::Christoffel},
      {"symbols", Section::Symbols},
  };
  for (const auto& [n, s] : names)
    if (name == QLatin1String(n)) return s;
  return std::nullopt;
}

QString message(const QString& text) { return "<p class=\"note\">" + text.toHtmlEscaped() + "</p>"; }

QString highlightScript(int dof) {
  return dof < 0 ? QString("delete document.body.dataset.hl") : QString("document.body.dataset.hl='%1'").arg(dof);
}

}  // namespace equations_html
