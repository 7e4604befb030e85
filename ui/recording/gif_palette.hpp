// A GIF's 256 colours: chosen once from a frame by Heckbert's median cut (Heckbert 1982, "Color
// image quantization for frame buffer display", SIGGRAPH, §3.2) on a 15-bit (5:5:5) histogram, plus
// a few fixed colours (black, white, the axes' red, green and blue) that a later frame may show
// although the first did not. Frames are mapped through a 32768-entry table of nearest colours with
// a 4x4 ordered (Bayer) dither: the dither depends on the pixel's position only, so a still part of
// the picture maps to the same indices in every frame and the GIF's frame differences stay small.
#pragma once
#include <QImage>
#include <array>
#include <cstdint>
#include <vector>

class GifPalette {
 public:
  static constexpr int kColours = 256;

  // Builds the palette from `image` (any format).
  void build(const QImage& image);
  bool isBuilt() const { return !m_lookup.empty(); }
  // 0xAARRGGBB, alpha 0xFF (FFmpeg's PAL8 layout).
  const std::array<uint32_t, kColours>& colours() const { return m_colours; }
  // Indices of `image` (Format_RGB32, the encoder's size) into rows of `indices` with `stride` bytes.
  void map(const QImage& image, uint8_t* indices, int stride) const;

 private:
  std::array<uint32_t, kColours> m_colours{};
  std::vector<uint8_t> m_lookup;  // 5:5:5 colour -> nearest palette index
};
