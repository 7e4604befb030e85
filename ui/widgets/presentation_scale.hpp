// Presentation mode's sizes for the screen being projected. A projector shows a laptop's 768 lines
// on the same wall as a desktop's 1080, so a point on the laptop looks 1080/768 = 1.4 times larger
// in the hall: the sizes designed for 1920x1080 (equations at 30 pt, the application font x 1.5)
// are scaled by the screen's height / 1080, so that the back row sees the same size from either
// and the laptop's smaller screen still holds the same content. Never above 1 (a larger screen
// keeps the designed sizes), never below 0.7.
#pragma once
#include <algorithm>

inline double presentationScale(int screenHeight) { return std::clamp(screenHeight / 1080.0, 0.7, 1.0); }

// The application font's factor in presentation mode: x 1.5 at 1080 lines, at least x 1.25.
inline double presentationFontFactor(double scale) { return std::max(1.25, 1.5 * scale); }
