#include "lecture/equation_html.hpp"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>
#include <algorithm>
#include <cmath>

#include "lecture/katex_assets.hpp"
#include "lecture/tex_markup.hpp"

namespace lecture_html {
namespace {

constexpr double kRoundOff = 1e-9;

QString pt(double p) { return QString::number(p, 'f', 1) + "pt"; }

bool spatialRows(dyn::ValueKind k) {
  return k == dyn::ValueKind::Motion || k == dyn::ValueKind::Force || k == dyn::ValueKind::Subspace;
}
bool blocks(dyn::ValueKind k) { return k == dyn::ValueKind::Inertia || k == dyn::ValueKind::Transform; }

// Block tints (classes of css()): the angular (upper) and linear (lower) halves of spatial vectors,
// the off-diagonal blocks of 6x6 matrices, plain entries, the value written by the step.
const char* cellClass(const dyn::TraceTerm& t, int r, int c) {
  if (spatialRows(t.kind)) return r < 3 ? "u" : "l";
  if (blocks(t.kind)) return (r < 3) == (c < 3) ? (r < 3 ? "u" : "l") : "x";
  return "p";
}

QString matrixTable(const dyn::TraceTerm& t, bool written) {
  const Eigen::MatrixXd& v = t.value;
  QString h = v.size() == 1 ? "<table class=\"m s\">" : "<table class=\"m\">";  // a scalar: no brackets
  for (int r = 0; r < v.rows(); ++r) {
    // A thin gap between the halves of a 6-vector and between the 3x3 blocks.
    const bool gap = (spatialRows(t.kind) || blocks(t.kind)) && r == 3 && v.rows() == 6;
    h += gap ? "<tr class=\"g\">" : "<tr>";
    for (int c = 0; c < v.cols(); ++c) {
      QString cls = written && v.size() == 1 ? "w" : cellClass(t, r, c);
      if (blocks(t.kind) && c == 3) cls += " c3";
      h += QString("<td class=\"%1\">%2</td>").arg(cls, number(v(r, c)));
    }
    h += "</tr>";
  }
  return h + "</table>";
}

// The written value of the step gets a highlighted caption.
QString termHtml(const dyn::TraceTerm& t, bool written) {
  QString caption = math(t.symbol);
  if (t.frame == dyn::TraceFrame::World && (spatialRows(t.kind) || blocks(t.kind)))
    caption += " <i>(" + QObject::tr("world") + ")</i>";
  return QString("<div class=\"term\">%1<div class=\"cap%2\">%3</div></div>")
      .arg(matrixTable(t, written), written ? " w" : "", caption);
}

QString substituted(const dyn::TraceStepRecord& step, const dyn::TraceLine& line) {
  if (line.substituted.empty()) return {};
  QString out, row;
  const auto flush = [&] {
    if (!row.isEmpty()) out += "<div class=\"row\">" + row + "</div>";
    row.clear();
  };
  qsizetype lastTerm = -1;  // where the last term starts in `row`
  for (const dyn::TraceToken& tok : line.substituted) {
    if (tok.term < 0 && tok.text == "\n") {
      flush();
      lastTerm = -1;
    } else if (tok.term >= 0) {
      const bool written = std::find(step.written.begin(), step.written.end(), tok.term) != step.written.end();
      lastTerm = row.size();
      row += termHtml(step.terms[tok.term], written);
    } else {
      // A lone superscript (the ᵀ of pᵀ w̃) stands at the top of the term before it, in one box with
      // it: a line or a page never parts them.
      const bool sup = tex_markup::toTex(tok.text).startsWith("{}^");
      const QString op = QString("<div class=\"op%1\">").arg(sup ? " sup" : "") + math(tok.text, true) + "</div>";
      if (sup && lastTerm >= 0) {
        row = row.left(lastTerm) + "<div class=\"tsup\">" + row.mid(lastTerm) + op + "</div>";
        lastTerm = -1;
      } else {
        row += op;
      }
    }
  }
  flush();
  return out;
}

// A word of prose: letters, digits and punctuation, not a single letter (a variable).
bool plainWord(const QString& w) {
  int letters = 0;
  for (QChar c : w) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
      ++letters;
    else if (!(c >= '0' && c <= '9') && !QStringLiteral(".,;:()'-/–§").contains(c))
      return false;
  }
  return letters != 1 || w == "a";  // the article; a single letter else is a variable
}

// A reference ("Saha 1999, eq. 12 (ṗ_{i} = Ω_{i} p_{i})"): the words as text that wraps, the
// symbols typeset.
QString prose(const std::string& markup) {
  QStringList out;
  QString previous;
  for (const QString& w : QString::fromStdString(markup).split(' ')) {
    // A possessive ("eq. 56's", "joint i's") is the word's and an apostrophe, not a prime.
    const bool possessive = w.size() > 2 && w.endsWith(QLatin1String("'s"));
    const QString stem = possessive ? w.chopped(2) : w;
    // A part's name ("Appendix B", "Part 2") and an equation's label ("eq. B5") are upright, as the
    // papers print them.
    static const QRegularExpression label("^[A-Z][0-9]+[a-z]?[.,;:)]*$");
    static const QStringList parts{"appendix", "part", "section", "chapter", "table"};
    const bool named = parts.contains(previous.toLower()) || label.match(stem).hasMatch();
    out << (named || plainWord(stem) ? stem.toHtmlEscaped() : math(stem.toStdString())) + (possessive ? "’s" : "");
    previous = stem;
  }
  // A word joiner after the dash of a range ("lines 9–10", "eqs. 46–48"): a narrow panel wraps the
  // reference between words, never inside a range.
  static const QRegularExpression range("(\\d)\u2013(\\d)");
  return out.join(' ').replace(range, QStringLiteral("\\1\u2013\u2060\\2"));
}

// An equation line: its formulas (separated in the markup by wide gaps) may wrap between them; its
// reference below it or (`beside`) at the right of it where the line has room, as a paper numbers
// its equations; then its numbers when `step` is given.
QString lineHtml(const dyn::TraceStepRecord* step, const dyn::TraceLine& line, bool beside = false) {
  static const QRegularExpression gap(" {2,}");
  QString h = beside ? "<div class=\"eqr\"><div class=\"eq\">" : "<div class=\"eq\">";
  for (const QString& part : QString::fromStdString(line.equation).split(gap, Qt::SkipEmptyParts))
    h += math(part.toStdString(), true);
  h += "</div>";
  if (!line.reference.empty()) h += "<div class=\"ref\">" + prose(line.reference) + "</div>";
  if (beside) h += "</div>";
  if (step) h += substituted(*step, line);
  return h;
}

// A vector of the inputs: up to 8 entries on a line; a longer one (a humanoid's 32 joints) as rows of 8
// in aligned columns, a matrix that never runs off the panel's edge (presenting zooms it to fit).
QString vectorRow(const char* symbol, const Eigen::VectorXd& x) {
  QStringList parts;
  for (int k = 0; k < x.size(); ++k) parts << number(x[k]);
  if (x.size() <= 8) return "<tr><td>" + math(symbol) + "</td><td class=\"v\">[" + parts.join(", ") + "]</td></tr>";
  if (x.isZero(0))  // a robot at rest: one line, not four rows of zeros
    return "<tr><td>" + math(symbol) + "</td><td class=\"v\">" + QObject::tr("0 (all %1 entries)").arg(x.size()) +
           "</td></tr>";
  QString cells;
  for (const QString& p : parts) cells += "<span>" + p + "</span>";
  return "<tr><td>" + math(symbol) + "</td><td class=\"v\"><div class=\"vg\">" + cells + "</div></td></tr>";
}

QString direction(dyn::TracePass::Direction d) {
  switch (d) {
    case dyn::TracePass::Direction::Outward:
      return QObject::tr("outward: from the base to the tips ↓");
    case dyn::TracePass::Direction::Inward:
      return QObject::tr("inward: from the tips to the base ↑");
    case dyn::TracePass::Direction::None:
      break;
  }
  return QObject::tr("the whole vector at once");
}

}  // namespace

QString math(const std::string& markup, bool display) {
  const QString tex = tex_markup::toTex(markup);
  return QString("<span class=\"tex\">%1</span>").arg((display ? "\\displaystyle " + tex : tex).toHtmlEscaped());
}

QString number(double x) {
  if (std::isnan(x)) return "·";
  // Round-off (cos(π/2) = 6e-17 in a rotation, 5e-20 in H) reads as noise on the board: 0. Every
  // quantity shown is in SI units, where 1e-9 is far below anything physical in a robot.
  if (std::abs(x) < kRoundOff) return "0";
  QString s = QString::number(x, 'g', 4);
  if (s.startsWith('-')) s = QString(QChar(0x2212)) + s.mid(1);
  return s;
}

QString term(const dyn::TraceTerm& t, const Style&) { return termHtml(t, false); }

QString bodyLabel(const dyn::Model& model, int body) {
  if (body < 0 || body >= int(model.bodyNames.size())) return QString::number(body);
  return QString("%1 (%2)").arg(body).arg(QString::fromStdString(model.bodyNames[body]).toHtmlEscaped());
}

QString countsLine(const dyn::AlgorithmTrace& trace, int position) {
  const dyn::OpTally none;
  const dyn::OpTally& t = position > 0 && position <= int(trace.steps.size()) ? trace.steps[position - 1].counts : none;
  return QObject::tr(
             "Operations so far: %1 × and %2 + (joint transforms apart: %3 ×, %4 +, %5 sin/cos) — of %6 × "
             "and %7 + in the whole run")
      .arg(t.algorithm.muls)
      .arg(t.algorithm.adds)
      .arg(t.jointTransforms.muls)
      .arg(t.jointTransforms.adds)
      .arg(t.jointTransforms.sin + t.jointTransforms.cos)
      .arg(trace.total.algorithm.muls)
      .arg(trace.total.algorithm.adds);
}

QString stepBody(const dyn::Model& model, const dyn::AlgorithmTrace& trace, int position, const Style& style) {
  const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(trace.algorithm);
  const int n = int(trace.steps.size());
  QString h;
  const auto heading = [&](const QString& text) { h += "<div class=\"h\">" + text + "</div>"; };
  if (position <= 0) {
    heading(QObject::tr("Start · %1").arg(a ? QString::fromUtf8(a->title) : QString()));
    if (a)
      h += QString("<div class=\"ref\">%1 · %2</div>")
               .arg(QString::fromUtf8(a->source), QString::fromUtf8(a->coordinates));
    h += "<table class=\"inputs\">";
    h += vectorRow("q", trace.input.q);
    if (a && a->needs != dyn::TraceNeeds::Positions) h += vectorRow("q̇", trace.input.qd);
    if (a && a->needs == dyn::TraceNeeds::Accelerations) h += vectorRow("q̈", trace.input.qdd);
    if (a && a->needs == dyn::TraceNeeds::Forces) h += vectorRow("τ", trace.input.tau);
    h += "</table>";
    for (const dyn::TraceLine& l : trace.start) h += lineHtml(nullptr, l);
    h += "<p class=\"ref\">" +
         (style.screenHints ? QObject::tr("%1 steps in %2 passes. → takes the first step.")
                            : QObject::tr("%1 steps in %2 passes."))
             .arg(n)
             .arg(trace.passes.size()) +
         "</p>";
    return h;
  }
  const dyn::TraceStepRecord& step = trace.steps[std::min(position, n) - 1];
  const dyn::TracePass& pass = trace.passes[step.pass];
  QString who;
  if (step.dof >= 0)
    who = "<span class=\"nw\">" +
          QObject::tr("%1 (dof of body %2)")
              .arg(math("k = " + std::to_string(step.dof + 1)), bodyLabel(model, step.body)) +
          "</span>";
  else if (dyn::isWholeStep(step.kind))
    who = QObject::tr("all dofs at once");
  else
    // Each "symbol = value (name)" whole: a narrow panel wraps between them, never inside one.
    who = QString("<span class=\"nw\">%1 %2,</span> &nbsp; <span class=\"nw\">%3 %4</span>")
              .arg(math("i ="), bodyLabel(model, step.body), math("λ(i) ="), bodyLabel(model, model.parent[step.body]));
  if (style.compactHeading) {
    const QString arrow = pass.direction == dyn::TracePass::Direction::Outward  ? " ↓"
                          : pass.direction == dyn::TracePass::Direction::Inward ? " ↑"
                                                                                : "";
    heading(QObject::tr("Step %1 / %2").arg(std::min(position, n)).arg(n) + " &nbsp;·&nbsp; " + who + arrow);
    h += "<div class=\"pass\">" + QString::fromStdString(pass.name).toHtmlEscaped() + "</div>";
  } else {
    heading(QObject::tr("Step %1 of %2 · %3").arg(std::min(position, n)).arg(n).arg(QString::fromStdString(pass.name)));
    h += QString("<div class=\"who\">%1 &nbsp;·&nbsp; <i>%2</i></div>").arg(who, direction(pass.direction));
  }
  if (style.equationsFirst && step.lines.size() > 1) {
    QString numbers;
    for (const dyn::TraceLine& l : step.lines) {
      h += lineHtml(nullptr, l, true);
      if (const QString s = substituted(step, l); !s.isEmpty()) numbers += "<div class=\"sub\">" + s + "</div>";
    }
    // Side by side as the width allows (a panel is wider than tall when presenting). Presenting, a step
    // too long for the panel shows the values it wrote instead (.brief; dynFit chooses).
    if (!numbers.isEmpty()) {
      h += "<div class=\"full\"><div class=\"nums\">" + QObject::tr("With this step's numbers") +
           "</div><div class=\"subs\">" + numbers + "</div></div>";
      QString written;
      for (int w : step.written) written += termHtml(step.terms[size_t(w)], true);
      if (!written.isEmpty())
        h += "<div class=\"brief\"><div class=\"nums\">" + QObject::tr("What this step wrote") +
             "</div><div class=\"row\">" + written + "</div></div><div class=\"none\"><div class=\"nums\">" +
             QObject::tr("What this step wrote: the highlighted row of the table below") + "</div></div>";
    }
  } else {
    for (const dyn::TraceLine& l : step.lines) h += lineHtml(&step, l);
  }
  if (position >= n && a) {
    QStringList parts;
    const Eigen::MatrixXd& r = trace.result;
    if (r.cols() == 1)
      for (int k = 0; k < r.rows(); ++k) parts << number(r(k, 0));
    h += QString("<div class=\"result\">%1</div>")
             .arg(r.cols() == 1 ? QObject::tr("Result: %1 = [%2]").arg(a->resultKey, parts.join(", "))
                                : QObject::tr("Result: H complete (see the mass matrix dock)"));
  }
  return h;
}

QString css(const Style& s) {
  // Numbers in tabular figures that never wrap; a row of terms wraps between whole terms.
  return QString(
             "body{font-family:'DejaVu Serif','Liberation Serif',serif;font-size:%1;color:#1c2230;margin:6px 10px;}"
             ".katex{font-size:1.05em;}"
             ".h{font-size:%2;font-weight:bold;margin:2px 0 4px 0;}"
             ".who{margin:0 0 4px 0;}"
             ".nw{white-space:nowrap;}"
             ".eq{font-size:%3;margin:12px 0 2px 0;line-height:1.5;}"
             ".eq .tex{margin-right:1.2em;display:inline-block;white-space:nowrap;}"
             ".ref{font-size:%4;color:#5a6270;margin:0 0 6px 0;}"
             ".pass{font-size:%4;color:#303848;font-style:italic;margin:-2px 0 2px 0;}"
             ".nums{font-size:%4;color:#303848;border-top:1px solid #c8ccd4;margin:10px 0 2px 0;padding-top:4px;}"
             ".sub{margin:0 0 10px 0;}"
             ".subs{display:flex;flex-wrap:wrap;align-items:flex-start;column-gap:2.5em;}.subs .sub{flex:none;}"
             "div.brief,div.none{display:none;}body.dyn-brief div.full,body.dyn-none div.full{display:none;}"
             "body.dyn-brief div.brief,body.dyn-none div.none{display:block;}"
             ".brief .row{column-gap:1.2em;}"
             ".eqr{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;column-gap:1em;"
             "margin:6px 0 0 0;}"
             ".eqr .eq{margin:0;}.eqr .ref{margin:0 0 2px auto;}"
             ".row{display:flex;flex-wrap:wrap;align-items:center;column-gap:0.35em;row-gap:0.4em;margin:4px 0;}"
             ".term{display:flex;flex-direction:column;align-items:center;flex:none;}"
             ".op{font-size:%3;flex:none;white-space:nowrap;}"
             ".op.sup{align-self:flex-start;margin-left:-0.3em;}"
             ".tsup{display:flex;flex:none;align-items:center;}.tsup .op.sup{margin-left:0.05em;}"
             "table.m{border-collapse:separate;border-spacing:0;font-size:%1;font-variant-numeric:tabular-nums;"
             "border-left:2px solid #58606e;border-right:2px solid #58606e;border-radius:4px;padding:1px;}"
             "table.m.s{border:none;}"
             "table.m td{white-space:nowrap;text-align:right;padding:1px 0.35em;}"
             "table.m tr.g td{border-top:0.25em solid white;}"
             "table.m td.c3{border-left:0.4em solid white;}"
             "td.u{background:#e8f0fc;}td.l{background:#fcefe2;}td.x{background:#eef0f0;}td.p{background:#f2f2f2;}"
             "td.w{background:#fff4b8;}"
             ".cap{font-size:%4;color:#303848;white-space:nowrap;margin-top:2px;padding:0 3px;}"
             ".cap.w{background:#fff4b8;border-radius:3px;}"
             "table.inputs{width:100%;}table.inputs td{white-space:nowrap;padding:1px 0.4em;"
             "font-variant-numeric:tabular-nums;vertical-align:top;}table.inputs td.v{width:100%;}"
             ".vg{display:inline-grid;grid-template-columns:repeat(8,max-content);column-gap:1em;"
             "border-left:2px solid #58606e;border-right:2px solid #58606e;border-radius:4px;padding:0 0.3em;}"
             ".vg span{text-align:right;white-space:nowrap;}"
             ".result{font-weight:bold;margin-top:12px;}"
             ".note{color:#303848;}")
      .arg(pt(s.numberPt), pt(s.headingPt), pt(s.equationPt), pt(s.captionPt));
}

QString page(const QString& body, const Style& style, bool inlineKatex, const QString& title, const QString& extraCss) {
  return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">" +
         (title.isEmpty() ? QString() : "<title>" + title.toHtmlEscaped() + "</title>") +
         (inlineKatex ? katex_assets::inlinedHead() : katex_assets::linkedHead()) + "<style id=\"dyn-style\">" +
         css(style) + "</style>" + (extraCss.isEmpty() ? QString() : "<style>" + extraCss + "</style>") +
         katex_assets::renderScript() + "</head><body><div id=\"dyn-body\">" + body + "</div></body></html>\n";
}

}  // namespace lecture_html
