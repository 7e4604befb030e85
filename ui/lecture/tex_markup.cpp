#include "lecture/tex_markup.hpp"

#include <QHash>

namespace tex_markup {
namespace {

QString greek(QChar c) {
  static const QHash<char16_t, QString> names = {
      {u'α', "alpha"},   {u'β', "beta"},    {u'γ', "gamma"},  {u'δ', "delta"},   {u'ε', "varepsilon"},
      {u'ϵ', "epsilon"}, {u'ζ', "zeta"},    {u'η', "eta"},    {u'θ', "theta"},   {u'ϑ', "vartheta"},
      {u'ι', "iota"},    {u'κ', "kappa"},   {u'λ', "lambda"}, {u'μ', "mu"},      {u'ν', "nu"},
      {u'ξ', "xi"},      {u'π', "pi"},      {u'ρ', "rho"},    {u'σ', "sigma"},   {u'ς', "varsigma"},
      {u'τ', "tau"},     {u'υ', "upsilon"}, {u'φ', "varphi"}, {u'ϕ', "phi"},     {u'χ', "chi"},
      {u'ψ', "psi"},     {u'ω', "omega"},   {u'Γ', "Gamma"},  {u'Δ', "Delta"},   {u'Θ', "Theta"},
      {u'Λ', "Lambda"},  {u'Ξ', "Xi"},      {u'Π', "Pi"},     {u'Υ', "Upsilon"}, {u'Φ', "Phi"},
      {u'Ψ', "Psi"},     {u'Ω', "Omega"},   {u'ο', "o"},      {u'Α', "A"},       {u'Β', "B"},
      {u'Ε', "E"},       {u'Ζ', "Z"},       {u'Η', "H"},      {u'Ι', "I"},       {u'Κ', "K"},
      {u'Μ', "M"},       {u'Ν', "N"},       {u'Ο', "O"},      {u'Ρ', "P"},       {u'Τ', "T"},
      {u'Χ', "X"}};
  const auto it = names.find(c.unicode());
  if (it == names.end()) return {};
  return it->size() == 1 ? *it : "\\" + *it;
}

// Operators and punctuation that are not letters.
QString symbol(QChar c) {
  static const QHash<char16_t, QString> tex = {{u'−', "-"},
                                               {u'×', "\\times "},
                                               {u'·', "\\cdot "},
                                               {u'…', "\\ldots "},
                                               {u'⋯', "\\cdots "},
                                               {u'⇒', "\\Rightarrow "},
                                               {u'←', "\\leftarrow "},
                                               {u'→', "\\rightarrow "},
                                               {u'↓', "\\downarrow "},
                                               {u'↑', "\\uparrow "},
                                               {u'≤', "\\le "},
                                               {u'≥', "\\ge "},
                                               {u'≠', "\\ne "},
                                               {u'≈', "\\approx "},
                                               {u'∂', "\\partial "},
                                               {u'Σ', "\\sum "},
                                               {u'∑', "\\sum "},
                                               {u'√', "\\surd "},
                                               {u'∈', "\\in "},
                                               {u'∞', "\\infty "},
                                               {u'±', "\\pm "},
                                               {u'′', "'"},
                                               {u'‖', "\\| "},
                                               {u'∘', "\\circ "},
                                               {u'⊗', "\\otimes "},
                                               {u'§', "\\S "},
                                               {u'–', "\\text{–}"},
                                               {u'—', "\\text{—}"},
                                               {u'#', "\\#"},
                                               {u'$', "\\$"},
                                               {u'%', "\\%"},
                                               {u'&', "\\&"},
                                               {u'~', "\\sim "},
                                               {u'\\', "\\backslash "},
                                               {u'"', "''"}};
  const auto it = tex.find(c.unicode());
  return it == tex.end() ? QString() : *it;
}

// Unicode superscripts (ᵀ, ², ⁻¹) and subscripts (₁): the script's character, or null.
QChar superscript(QChar c) {
  static const QHash<char16_t, char16_t> map = {{u'ᵀ', u'T'}, {u'ᴬ', u'A'}, {u'⁰', u'0'}, {u'¹', u'1'}, {u'²', u'2'},
                                                {u'³', u'3'}, {u'⁴', u'4'}, {u'⁵', u'5'}, {u'⁶', u'6'}, {u'⁷', u'7'},
                                                {u'⁸', u'8'}, {u'⁹', u'9'}, {u'⁻', u'−'}, {u'⁺', u'+'}, {u'ⁱ', u'i'},
                                                {u'ⁿ', u'n'}, {u'ᵃ', u'a'}, {u'ᶜ', u'c'}};
  const auto it = map.find(c.unicode());
  return it == map.end() ? QChar() : QChar(*it);
}
QChar subscript(QChar c) {
  static const QHash<char16_t, char16_t> map = {
      {u'₀', u'0'}, {u'₁', u'1'}, {u'₂', u'2'}, {u'₃', u'3'}, {u'₄', u'4'}, {u'₅', u'5'}, {u'₆', u'6'}, {u'₇', u'7'},
      {u'₈', u'8'}, {u'₉', u'9'}, {u'ᵢ', u'i'}, {u'ⱼ', u'j'}, {u'ₖ', u'k'}, {u'ₙ', u'n'}, {u'₊', u'+'}, {u'₋', u'−'}};
  const auto it = map.find(c.unicode());
  return it == map.end() ? QChar() : QChar(*it);
}

QString accent(QChar mark) {
  switch (mark.unicode()) {
    case 0x0307:
      return "dot";
    case 0x0308:
      return "ddot";
    case 0x0302:
      return "hat";
    case 0x0303:
      return "tilde";
    case 0x0304:
      return "bar";
    case 0x0305:
      return "overline";
    case 0x0301:
      return "acute";
    case 0x0300:
      return "grave";
    case 0x030C:
      return "check";
    case 0x0306:
      return "breve";
    case 0x20D7:
      return "vec";
    default:
      return {};
  }
}

bool isCombining(QChar c) { return c.category() == QChar::Mark_NonSpacing; }
bool isAsciiLetter(QChar c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAsciiDigit(QChar c) { return c >= '0' && c <= '9'; }

// Characters that may continue a run of prose ("eq. 12, Fig. 5 lines 3–9 (the walk to the root)").
bool isProse(QChar c) { return isAsciiLetter(c) || isAsciiDigit(c) || QStringLiteral(" .,;:()'-/–§").contains(c); }

// Function names set upright as operators, as the papers do.
const QStringList& operatorNames() {
  static const QStringList names = {"tr", "diag", "det", "sin", "cos", "tan", "exp", "ln", "max", "min", "rank"};
  return names;
}

class Converter {
 public:
  explicit Converter(const QString& markup) : m_s(markup.normalized(QString::NormalizationForm_D)) {}

  QString run() { return parse(false, false); }
  const QString& unknown() const { return m_unknown; }

 private:
  QChar at(int k) const { return k >= 0 && k < m_s.size() ? m_s[k] : QChar(); }

  void markUnknown(QChar c) {
    if (!m_unknown.contains(c)) m_unknown += c;
  }

  // One letter (or digit, or Greek) with its accents, bold if asked.
  QString atom(bool bold) {
    const QChar c = m_s[m_k++];
    QString t;
    const QString g = greek(c);
    if (!g.isEmpty()) {
      t = bold ? "\\boldsymbol{" + g + "}" : g + (g.startsWith('\\') ? " " : "");
    } else if (isAsciiLetter(c) || isAsciiDigit(c)) {
      t = bold ? QString("\\mathbf{%1}").arg(c) : QString(c);
    } else {
      const QString sym = symbol(c);
      if (!sym.isEmpty()) {
        t = bold ? "\\boldsymbol{" + sym.trimmed() + "}" : sym;
      } else if (c.unicode() < 128 && c.isPrint()) {
        t = c;
      } else {
        markUnknown(c);
        t = QString("\\text{%1}").arg(c);
      }
    }
    while (m_k < m_s.size() && isCombining(m_s[m_k])) {
      const QString a = accent(m_s[m_k]);
      if (a.isEmpty())
        markUnknown(m_s[m_k]);
      else
        t = "\\" + a + "{" + t.trimmed() + "}";
      ++m_k;
    }
    return t;
  }

  // A run of prose from m_k (a word of two or more letters), as \text{..}; it ends at its last
  // letter, digit or closing mark and stops before a letter that takes a script or an accent.
  QString prose() {
    int end = m_k;
    while (end < m_s.size() && isProse(m_s[end])) {
      const QChar next = at(end + 1);
      if (isAsciiLetter(m_s[end]) && !isAsciiLetter(at(end - 1)) && !isAsciiLetter(next) &&
          (next == '_' || next == '^' || isCombining(next) || next == '*' || !superscript(next).isNull()))
        break;  // a variable: "O_{i}"
      ++end;
    }
    int last = end;
    while (last > m_k && QStringLiteral(" (").contains(m_s[last - 1])) --last;
    const bool space = last < end && m_s[last] == ' ';
    QString text = m_s.mid(m_k, last - m_k);
    m_k = space ? last + 1 : last;  // the space goes inside the text
    text.replace("§", "\\S{}");
    text.replace("–", "--");  // the en dash, as TeX writes it
    return "\\text{" + text + (space ? " " : "") + "}";
  }

  // Until the end or the closing brace of a script.
  QString parse(bool inScript, bool bold) {
    QString out;
    bool base = false;  // the last thing written can carry a script
    QString attached;   // the scripts already on it ("_", "^")
    const auto script = [&](QChar kind, const QString& inner) {
      if (!base || attached.contains(kind)) out += "{}";
      out += kind + QString("{") + inner + "}";
      base = true;
      attached += kind;
    };
    const auto put = [&](const QString& t, bool isBase) {
      out += t;
      base = isBase;
      attached.clear();
    };
    while (m_k < m_s.size()) {
      const QChar c = m_s[m_k];
      if (c == '*' && at(m_k + 1) == '*') {
        bold = !bold;
        m_k += 2;
        continue;
      }
      if (c == '}' && inScript) {
        ++m_k;
        return out;
      }
      if ((c == '_' || c == '^') && m_k + 1 < m_s.size()) {
        m_k += 1;
        QString inner;
        if (m_s[m_k] == '{') {
          ++m_k;
          inner = parse(true, false);
        } else {
          inner = atom(false);
        }
        script(c, inner);
        continue;
      }
      if (!superscript(c).isNull() || !subscript(c).isNull()) {
        const bool up = !superscript(c).isNull();
        QString inner;
        for (; m_k < m_s.size(); ++m_k) {
          const QChar s = up ? superscript(m_s[m_k]) : subscript(m_s[m_k]);
          if (s.isNull()) break;
          inner += s;
        }
        script(up ? '^' : '_', Converter(inner).run());
        continue;
      }
      if (c == ' ') {
        int end = m_k;
        while (at(end) == ' ') ++end;
        const bool wordNext = isAsciiLetter(at(end)) && isAsciiLetter(at(end + 1));
        if (!inScript && end - m_k == 1 && wordNext && !out.isEmpty() && !bold) {
          ++m_k;  // a space before prose: kept inside it
          const QString p = prose();
          put("\\text{ }" + p, false);
          continue;
        }
        const bool proseNext = at(end) == '(' && isAsciiLetter(at(end + 1)) && isAsciiLetter(at(end + 2));
        if (!inScript && end - m_k >= 2)
          put("\\qquad ", false);
        else if (!inScript && proseNext)
          put("\\ ", false);  // "[**0**; **e**] (prismatic)"
        else if (!inScript)
          put(" ", false);  // "m_{i} ^{i}r_{i}": the script after a space is the next symbol's
        m_k = end;
        continue;
      }
      if (c == '{' || c == '}') {
        put(QString("\\") + c, c == '}');
        ++m_k;
        continue;
      }
      if (isAsciiLetter(c) && !inScript && !bold) {
        int end = m_k;
        while (isAsciiLetter(at(end))) ++end;
        const QString word = m_s.mid(m_k, end - m_k);
        // The article before a word is prose too: "(a prismatic joint …)", not an italic a.
        const bool article =
            word == QLatin1String("a") && at(end) == ' ' && isAsciiLetter(at(end + 1)) && isAsciiLetter(at(end + 2));
        if (article) {
          put(prose(), true);
          continue;
        }
        if (end - m_k >= 2 && !isCombining(at(end))) {
          if (operatorNames().contains(word)) {
            put("\\operatorname{" + word + "}", false);
            m_k = end;
          } else {
            put(prose(), true);
          }
          continue;
        }
      }
      const bool closing = c == ')' || c == ']' || c == '\'' || c == '|';
      const bool letter = c.isLetterOrNumber() || !greek(c).isEmpty() || c == QChar(u'∂');
      put(atom(bold), letter || closing);
    }
    return out;
  }

  QString m_s;
  int m_k = 0;
  QString m_unknown;
};

}  // namespace

QString toTex(const QString& markup) { return Converter(markup).run().trimmed(); }

QString unhandled(const QString& markup) {
  Converter c(markup);
  c.run();
  return c.unknown();
}

}  // namespace tex_markup
