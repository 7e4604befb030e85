// The trace markup as TeX for KaTeX (ui/lecture/tex_markup.cpp): accents as the papers set them
// (θ̇ is \dot{\theta}, never a combining character), bold vectors, scripts, Unicode super- and
// subscripts, prose upright; and every equation, reference and symbol of every step of every
// formulation the inspector offers, on robots with revolute and prismatic joints and a tree,
// converts without a combining character or a character the converter does not know.
#include <QtTest>
#include <set>
#include <string>

#include "dynscope/dynscope.hpp"
#include "lecture/tex_markup.hpp"

using tex_markup::toTex;

namespace {

// No combining mark and nothing outside ASCII: everything became TeX commands.
bool plainAscii(const QString& tex) {
  for (QChar c : tex)
    if (c.unicode() > 127) return false;
  return true;
}

// Braces balance: KaTeX would refuse the formula otherwise.
bool balanced(const QString& tex) {
  int depth = 0;
  for (int k = 0; k < tex.size(); ++k) {
    if (tex[k] == '\\') {
      ++k;  // \{ and \} are characters
      continue;
    }
    depth += tex[k] == '{' ? 1 : tex[k] == '}' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth == 0;
}

QString robot(const char* file) { return QDir(DYNSCOPE_ROBOTS_DIR).filePath(file); }

}  // namespace

class TestTexMarkup : public QObject {
  Q_OBJECT

 private slots:
  void accents_data() {
    QTest::addColumn<QString>("markup");
    QTest::addColumn<QString>("tex");
    QTest::newRow("theta dot") << QString("θ̇_{i}") << QString("\\dot{\\theta}_{i}");
    QTest::newRow("theta ddot") << QString("θ̈_{i}") << QString("\\ddot{\\theta}_{i}");
    QTest::newRow("q dot squared") << QString("q̇_{i}²") << QString("\\dot{q}_{i}^{2}");
    QTest::newRow("bold precomposed t dot") << QString("**ṫ**_{3}") << QString("\\dot{\\mathbf{t}}_{3}");
    QTest::newRow("bold hat psi") << QString("**ψ̂**_{i}^{T}") << QString("\\hat{\\boldsymbol{\\psi}}_{i}^{T}");
    QTest::newRow("tilde w") << QString("**w̃**_{i}") << QString("\\tilde{\\mathbf{w}}_{i}");
    QTest::newRow("bar tau") << QString("τ̄_{i}") << QString("\\bar{\\tau}_{i}");
    QTest::newRow("precomposed W ddot") << QString("Ẅ_{i−1}") << QString("\\ddot{W}_{i-1}");
    QTest::newRow("hat tau") << QString("τ̂_{i}") << QString("\\hat{\\tau}_{i}");
  }
  void accents() {
    QFETCH(QString, markup);
    QFETCH(QString, tex);
    QCOMPARE(toTex(markup), tex);
  }

  void equations_data() {
    QTest::addColumn<QString>("markup");
    QTest::addColumn<QString>("tex");
    QTest::newRow("left superscript") << QString("^{i}**X**_{λ(i)}") << QString("{}^{i}\\mathbf{X}_{\\lambda (i)}");
    QTest::newRow("DeNOC twist") << QString("**t**_{i} = **B**_{i,λ(i)} **t**_{λ(i)} + **p**_{i} θ̇_{i}")
                                 << QString(
                                        "\\mathbf{t}_{i} = \\mathbf{B}_{i,\\lambda (i)} \\mathbf{t}_{\\lambda (i)} "
                                        "+ \\mathbf{p}_{i} \\dot{\\theta}_{i}");
    QTest::newRow("unicode transpose") << QString("**p**ᵀ") << QString("\\mathbf{p}^{T}");
    QTest::newRow("lone transpose") << QString("ᵀ") << QString("{}^{T}");
    QTest::newRow("inverse") << QString("U^{−1}") << QString("U^{-1}");
    QTest::newRow("partial") << QString("∂²A_{i}/∂q_{i}²") << QString("\\partial ^{2}A_{i}/\\partial q_{i}^{2}");
    QTest::newRow("times and minus") << QString("ω × r − v") << QString("\\omega  \\times  r - v");
    QTest::newRow("prime") << QString("**a**'_{i}") << QString("\\mathbf{a}'_{i}");
    QTest::newRow("trace operator") << QString("tr(D)") << QString("\\operatorname{tr}(D)");
    QTest::newRow("wide gap") << QString("a = b   c = d") << QString("a = b\\qquad c = d");
    QTest::newRow("sum") << QString("Σ_{j} J_{ij}") << QString("\\sum _{j} J_{ij}");
    QTest::newRow("starred") << QString("^{i−1}p^{*}_{i} × r^{*}_{i}")
                             << QString("{}^{i-1}p^{*}_{i} \\times  r^{*}_{i}");
  }
  void equations() {
    QFETCH(QString, markup);
    QFETCH(QString, tex);
    QCOMPARE(toTex(markup), tex);
  }

  // Words are upright text, variables stay italic, indices of two letters stay indices.
  void prose() {
    QCOMPARE(toTex("Saha 1999, eq. 12"), QString("\\text{Saha 1999, eq. 12}"));
    const QString withVariable = toTex("the link origin O_{i} (the twist)");
    QVERIFY2(withVariable.startsWith("\\text{the link origin }O_{i}"), qPrintable(withVariable));
    QCOMPARE(toTex("I_{ii}"), QString("I_{ii}"));
    const QString mixed = toTex("[**e**_{i}; **0**] (revolute) or [**0**; **e**_{i}] (prismatic)");
    QVERIFY2(mixed.contains("\\text{revolute) or }"), qPrintable(mixed));
    QVERIFY2(mixed.contains("\\mathbf{e}_{i}"), qPrintable(mixed));
    QCOMPARE(toTex("(§3.3)"), QString("(\\S 3.3)"));
    // The article is a word, not a variable.
    const QString article = toTex("A_{i}   (a prismatic joint does not turn the link)");
    QVERIFY2(article.contains("(\\text{a prismatic joint"), qPrintable(article));
  }

  // Characters that are TeX's own are escaped; characters it does not know are reported.
  void escapesAndUnknowns() {
    QCOMPARE(toTex("50% {x}"), QString("50\\% \\{x\\}"));
    QVERIFY(tex_markup::unhandled("θ̇_{i} + **ψ̂**").isEmpty());
    QCOMPARE(tex_markup::unhandled("a ☃ b"), QString("☃"));
    QCOMPARE(tex_markup::unhandled("a\u0333"), QString(QChar(0x0333)));  // a double low line: no TeX accent here
  }

  // Every formulation's every step: the TeX is ASCII (no combining character left), the braces
  // balance, nothing unknown. On the Stanford arm (revolute and prismatic), the quadruped (a tree)
  // and the PUMA 560.
  void everyStepOfEveryFormulation() {
    std::set<QString> unknown;
    int checked = 0;
    for (const char* file : {"stanford_arm.dh", "quadruped.urdf", "puma560.dh"}) {
      const dyn::Model m = dyn::loadModel(robot(file).toStdString());
      dyn::TraceInput in;
      in.q = Eigen::VectorXd::LinSpaced(m.nq, -0.6, 0.9);
      in.qd = Eigen::VectorXd::LinSpaced(m.nv, 0.5, -0.4);
      in.qdd = Eigen::VectorXd::LinSpaced(m.nv, 1.0, -1.0);
      in.tau = Eigen::VectorXd::LinSpaced(m.nv, 2.0, -3.0);
      for (const dyn::TraceableAlgorithm& a : dyn::traceableAlgorithms()) {
        dyn::AlgorithmTrace t;
        try {
          t = dyn::traceAlgorithm(m, a.name, in);
        } catch (const std::exception& e) {
          continue;  // a formulation that refuses this robot (a joint type it lacks) shows no steps
        }
        const auto check = [&](const std::string& markup, const char* where) {
          const QString s = QString::fromStdString(markup);
          const QString tex = toTex(s);
          const QString message = QString("%1 %2 on %3: \"%4\" -> \"%5\"").arg(a.name, where, file, s, tex);
          QVERIFY2(plainAscii(tex), qPrintable(message));
          QVERIFY2(balanced(tex), qPrintable(message));
          // A star is a superscript (Hollerbach's p*_i, r*_i; Featherstone's X*): never a lone
          // multiplication sign "p ∗ i" with the subscript floating.
          QVERIFY2(tex.count('*') == tex.count("^{*}"), qPrintable(message));
          for (QChar c : tex_markup::unhandled(s)) unknown.insert(QString(c) + " in " + message);
          ++checked;
        };
        const auto lines = [&](const std::vector<dyn::TraceLine>& ls) {
          for (const dyn::TraceLine& l : ls) {
            check(l.equation, "equation");
            check(l.reference, "reference");
            for (const dyn::TraceToken& tok : l.substituted)
              if (tok.term < 0 && tok.text != "\n") check(tok.text, "operator");
          }
        };
        lines(t.start);
        for (const dyn::TraceTerm& term : t.initial) check(term.symbol, "symbol");
        for (const dyn::TraceStepRecord& step : t.steps) {
          lines(step.lines);
          for (const dyn::TraceTerm& term : step.terms) check(term.symbol, "symbol");
        }
      }
    }
    QVERIFY2(unknown.empty(), qPrintable(unknown.empty() ? QString() : *unknown.begin()));
    QVERIFY(checked > 1000);
  }

  // The DeNOC twist step labels the joint rate θ̇_i and the acceleration θ̈_i as the paper does: the
  // typesetter's input has the accents (what a lecturer saw as "θ_1" was the rendering).
  void denocLabelsTheJointRates() {
    const dyn::Model m = dyn::loadModel(robot("stanford_arm.dh").toStdString());
    dyn::TraceInput in;
    in.q = Eigen::VectorXd::Zero(m.nq);
    in.qd = Eigen::VectorXd::Constant(m.nv, 0.5);
    in.qdd = Eigen::VectorXd::Constant(m.nv, 1.0);
    const dyn::AlgorithmTrace t = dyn::traceAlgorithm(m, "denoc-id", in);
    QStringList symbols;
    for (const dyn::TraceTerm& term : t.steps.front().terms) symbols << toTex(term.symbol);
    QVERIFY2(symbols.contains("\\dot{\\theta}_{1}"), qPrintable(symbols.join(" | ")));
    QVERIFY2(symbols.contains("\\ddot{\\theta}_{1}"), qPrintable(symbols.join(" | ")));
    QVERIFY2(symbols.contains("\\dot{\\mathbf{p}}_{1} \\dot{\\theta}_{1}"), qPrintable(symbols.join(" | ")));
    const QString twist = toTex(t.steps.front().lines[1].equation);
    QVERIFY2(twist.endsWith("\\mathbf{p}_{i} \\dot{\\theta}_{i}"), qPrintable(twist));
  }
};

QTEST_GUILESS_MAIN(TestTexMarkup)
#include "test_tex_markup.moc"
