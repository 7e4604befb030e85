// Colour arithmetic for the scene's aids: the distance of two colours as the eye sees it (CIE76
// ΔE*ab in CIELAB, sRGB with the D65 white), the contrast ratio of text (WCAG 2.1, 1.4.3), the
// highlight colour of a selected body (one that stands out against every colour of its links), and
// a colour's shade that is readable on a given backing.
#pragma once
#include <array>
#include <vector>

namespace scene {

using Rgb = std::array<double, 3>;  // sRGB, 0..1

double deltaE(const Rgb& a, const Rgb& b);
double relativeLuminance(const Rgb& c);
double contrastRatio(const Rgb& a, const Rgb& b);  // 1 .. 21

// The scene's orange when it differs from every link colour by at least kHighlightDeltaE, else the
// candidate (orange, blue, magenta, green) whose smallest difference from them is largest.
constexpr double kHighlightDeltaE = 50;
Rgb highlightFor(const std::vector<Rgb>& linkColours);
constexpr Rgb kHighlightOrange{1.0, 0.62, 0.05};

// `c` darkened (on a light backing) or lightened (on a dark one), keeping its hue, until its
// contrast ratio with `backing` is at least `ratio`.
Rgb readableOn(const Rgb& c, const Rgb& backing, double ratio);

// What a backing of colour `panel` and opacity `alpha` looks like over `behind`.
Rgb over(const Rgb& panel, double alpha, const Rgb& behind);

}  // namespace scene
