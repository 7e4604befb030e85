// The engine's trace markup (algorithm_trace.hpp: **bold**, _{sub}, ^{sup}, Unicode with combining
// accents) as TeX for KaTeX, so that θ̇ is typeset as the papers set it (\dot{\theta}), not as a
// combining character that the font may place beside the letter or drop. Qt Core only.
//
// Letters are math italic, **x** bold upright (\mathbf; Greek \boldsymbol), accents from the
// combining marks (U+0307 \dot, U+0308 \ddot, U+0302 \hat, U+0303 \tilde, U+0304 \bar; precomposed
// letters such as ṫ are decomposed first), Unicode super- and subscripts (ᵀ, ², ⁻¹) as ^{..} and
// _{..}; words of two or more letters outside scripts ("revolute", "eq. 12", "Saha 1999") as upright
// text, function names (tr, diag) as operators; two or more spaces as a wide gap.
#pragma once
#include <QString>
#include <string>

namespace tex_markup {

QString toTex(const QString& markup);
inline QString toTex(const std::string& markup) { return toTex(QString::fromStdString(markup)); }
inline QString toTex(const char* markup) { return toTex(QString::fromUtf8(markup)); }

// The characters of `markup` that toTex does not know (it passes them through as text), each once:
// empty for everything the engine writes (the tests walk every step of every formulation).
QString unhandled(const QString& markup);

}  // namespace tex_markup
