#include "lecture/equation_html.hpp"

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace lecture_html {
namespace {

// Block tints: the angular (upper) and linear (lower) halves of spatial vectors, the off-diagonal
// blocks of 6x6 matrices.
const char* kUpper = "#e8f0fc";
const char* kLower = "#fcefe2";
const char* kCross = "#eef0f0";
const char* kPlain = "#f2f2f2";
const char* kResult = "#fff4b8";  // written by the step

// Serif, as the papers set their equations; DejaVu Sans (the usual default here) puts the combining
// dot of q̇ and q̈ beside the q instead of above it.
constexpr double kRoundOff = 1e-9;

const char* kMathFamilies = "'DejaVu Serif', 'Liberation Serif', serif";

QString pt(double p) { return QString::number(p, 'f', 1) + "pt"; }

bool spatialRows(dyn::ValueKind k) {
  return k == dyn::ValueKind::Motion || k == dyn::ValueKind::Force || k == dyn::ValueKind::Subspace;
}
bool blocks(dyn::ValueKind k) { return k == dyn::ValueKind::Inertia || k == dyn::ValueKind::Transform; }

QString cellColour(const dyn::TraceTerm& t, int r, int c) {
  if (spatialRows(t.kind)) return r < 3 ? kUpper : kLower;
  if (blocks(t.kind)) return (r < 3) == (c < 3) ? (r < 3 ? kUpper : kLower) : kCross;
  return kPlain;
}

QString matrixTable(const dyn::TraceTerm& t, const Style& s, bool written) {
  const Eigen::MatrixXd& v = t.value;
  QString h = QString("<table cellspacing=\"0\" cellpadding=\"3\" style=\"font-size:%1;\">").arg(pt(s.numberPt));
  for (int r = 0; r < v.rows(); ++r) {
    h += "<tr>";
    for (int c = 0; c < v.cols(); ++c) {
      const QString colour = written && v.size() == 1 ? kResult : cellColour(t, r, c);
      // A thin gap between the 3x3 blocks.
      const QString pad = blocks(t.kind) && c == 3 ? " style=\"padding-left:8px;\"" : "";
      h += QString("<td align=\"right\" bgcolor=\"%1\"%2>%3</td>").arg(colour, pad, number(v(r, c)));
    }
    h += "</tr>";
    if ((spatialRows(t.kind) || blocks(t.kind)) && r == 2 && v.rows() == 6)
      h += QString("<tr><td colspan=\"%1\" style=\"font-size:2pt;\"></td></tr>").arg(v.cols());
  }
  return h + "</table>";
}

// The written value of the step gets a highlighted caption.
QString termHtml(const dyn::TraceTerm& t, const Style& s, bool written) {
  QString caption = markup(t.symbol);
  if (written) caption = "<b>" + caption + "</b>";
  if (t.frame == dyn::TraceFrame::World && (spatialRows(t.kind) || blocks(t.kind))) caption += " <i>(world)</i>";
  return QString(
             "<table cellspacing=\"0\" cellpadding=\"1\"><tr><td align=\"center\">%1</td></tr>"
             "<tr><td align=\"center\" style=\"font-size:%2; color:#303848;\">%3</td></tr></table>")
      .arg(matrixTable(t, s, written), pt(s.captionPt), caption);
}

QString substituted(const dyn::TraceStepRecord& step, const dyn::TraceLine& line, const Style& s) {
  if (line.substituted.empty()) return {};
  QString out;
  QString row;
  const auto flush = [&] {
    if (!row.isEmpty()) out += "<table cellspacing=\"4\" cellpadding=\"0\"><tr>" + row + "</tr></table>";
    row.clear();
  };
  for (const dyn::TraceToken& tok : line.substituted) {
    if (tok.term < 0 && tok.text == "\n") {
      flush();
      continue;
    }
    if (tok.term >= 0) {
      const bool written = std::find(step.written.begin(), step.written.end(), tok.term) != step.written.end();
      row += "<td valign=\"middle\">" + termHtml(step.terms[tok.term], s, written) + "</td>";
    } else {
      row += QString("<td valign=\"middle\" style=\"font-size:%1;\">&nbsp;%2&nbsp;</td>")
                 .arg(pt(s.equationPt), markup(tok.text));
    }
  }
  flush();
  return out;
}

QString lineHtml(const dyn::TraceStepRecord* step, const dyn::TraceLine& line, const Style& s) {
  QString h = QString("<p style=\"font-size:%1; margin-top:10px; margin-bottom:2px;\">%2</p>")
                  .arg(pt(s.equationPt), markup(line.equation));
  if (!line.reference.empty())
    h += QString("<p style=\"font-size:%1; color:#5a6270; margin-top:0px; margin-bottom:4px;\">%2</p>")
             .arg(pt(s.captionPt), markup(line.reference));
  if (step) h += substituted(*step, line, s);
  return h;
}

QString vectorRow(const QString& name, const Eigen::VectorXd& x) {
  QStringList parts;
  for (int k = 0; k < x.size(); ++k) parts << number(x[k]);
  return "<tr><td>" + name + "</td><td>[" + parts.join(", ") + "]</td></tr>";
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

QString markup(const std::string& textIn) {
  const QString text = QString::fromStdString(textIn);
  QString out;
  bool bold = false;
  for (int k = 0; k < text.size(); ++k) {
    if (text.mid(k, 2) == "**") {
      out += bold ? "</b>" : "<b>";
      bold = !bold;
      ++k;
      continue;
    }
    const QChar c = text[k];
    if ((c == '_' || c == '^') && k + 1 < text.size()) {
      const QString tag = c == '_' ? "sub" : "sup";
      QString inner;
      if (text[k + 1] == '{') {
        const int close = text.indexOf('}', k + 2);
        if (close < 0) {
          out += c;
          continue;
        }
        inner = text.mid(k + 2, close - k - 2);
        k = close;
      } else {
        inner = text[k + 1];
        ++k;
      }
      out += "<" + tag + ">" + markup(inner.toStdString()) + "</" + tag + ">";
      continue;
    }
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  if (bold) out += "</b>";
  return out;
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

QString term(const dyn::TraceTerm& t, const Style& style) { return termHtml(t, style, false); }

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

QString stepBody(const dyn::Model& model, const dyn::AlgorithmTrace& trace, int position, const Style& s) {
  const dyn::TraceableAlgorithm* a = dyn::findTraceableAlgorithm(trace.algorithm);
  const int n = int(trace.steps.size());
  QString h;
  const auto heading = [&](const QString& text) {
    h += QString("<p style=\"font-size:%1; margin-bottom:4px;\"><b>%2</b></p>").arg(pt(s.headingPt), text);
  };
  if (position <= 0) {
    heading(QObject::tr("Start · %1").arg(a ? QString::fromUtf8(a->title) : QString()));
    if (a)
      h += QString("<p style=\"font-size:%1; color:#5a6270;\">%2 · %3</p>")
               .arg(pt(s.captionPt), QString::fromUtf8(a->source), QString::fromUtf8(a->coordinates));
    h += QString("<table style=\"font-size:%1;\" cellspacing=\"2\">").arg(pt(s.numberPt));
    h += vectorRow("q", trace.input.q);
    if (a && a->needs != dyn::TraceNeeds::Positions) h += vectorRow("q̇", trace.input.qd);
    if (a && a->needs == dyn::TraceNeeds::Accelerations) h += vectorRow("q̈", trace.input.qdd);
    if (a && a->needs == dyn::TraceNeeds::Forces) h += vectorRow("τ", trace.input.tau);
    h += "</table>";
    for (const dyn::TraceLine& l : trace.start) h += lineHtml(nullptr, l, s);
    h += QString("<p style=\"font-size:%1;\">%2</p>")
             .arg(pt(s.captionPt),
                  QObject::tr("%1 steps in %2 passes. → takes the first step.").arg(n).arg(trace.passes.size()));
    return h;
  }
  const dyn::TraceStepRecord& step = trace.steps[std::min(position, n) - 1];
  const dyn::TracePass& pass = trace.passes[step.pass];
  heading(QObject::tr("Step %1 of %2 · %3").arg(std::min(position, n)).arg(n).arg(QString::fromStdString(pass.name)));
  QString who;
  if (step.dof >= 0)
    who = QObject::tr("k = %1 (dof of body %2)").arg(step.dof + 1).arg(bodyLabel(model, step.body));
  else if (dyn::isWholeStep(step.kind))
    who = QObject::tr("all dofs at once");
  else
    who = QObject::tr("i = %1,  λ(i) = %2").arg(bodyLabel(model, step.body), bodyLabel(model, model.parent[step.body]));
  h += QString("<p style=\"font-size:%1; margin-top:0px;\">%2 &nbsp;·&nbsp; <i>%3</i></p>")
           .arg(pt(s.numberPt), who, direction(pass.direction));
  for (const dyn::TraceLine& l : step.lines) h += lineHtml(&step, l, s);
  if (position >= n && a) {
    QStringList parts;
    const Eigen::MatrixXd& r = trace.result;
    if (r.cols() == 1)
      for (int k = 0; k < r.rows(); ++k) parts << number(r(k, 0));
    h += QString("<p style=\"font-size:%1; margin-top:12px;\"><b>%2</b></p>")
             .arg(pt(s.numberPt), r.cols() == 1 ? QObject::tr("Result: %1 = [%2]").arg(a->resultKey, parts.join(", "))
                                                : QObject::tr("Result: H complete (see the mass matrix dock)"));
  }
  return h;
}

QString page(const QString& body, const Style& style) {
  return QString("<html><body style=\"font-size:%1; font-family:%2;\">%3</body></html>")
      .arg(pt(style.numberPt), kMathFamilies, body);
}

}  // namespace lecture_html
