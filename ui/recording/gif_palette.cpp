#include "recording/gif_palette.hpp"

#include <algorithm>
#include <limits>

namespace {

constexpr int kBins = 1 << 15;  // 5 bits per channel
int channel(int key, int c) { return (key >> (10 - 5 * c)) & 31; }
int keyOf(int r, int g, int b) { return (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3); }

// Colours a robot scene shows in small areas that the first frame may lack: the axes' primaries,
// black and white (text, outlines).
constexpr uint32_t kFixed[] = {0xFF000000, 0xFFFFFFFF, 0xFFFF0000, 0xFF00FF00,
                               0xFF0000FF, 0xFFFFFF00, 0xFF00FFFF, 0xFFFF00FF};
constexpr int kFixedCount = int(std::size(kFixed));

struct Box {
  int begin, end;  // into the list of occupied bins
  long long pixels;
  int longest;  // channel of the longest side
  int length;   // its length in 5-bit steps
};

}  // namespace

void GifPalette::build(const QImage& source) {
  const QImage image = source.convertToFormat(QImage::Format_RGB32);
  std::vector<long long> count(kBins, 0), sum(3 * kBins, 0);
  for (int y = 0; y < image.height(); ++y) {
    const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    for (int x = 0; x < image.width(); ++x) {
      const int r = qRed(row[x]), g = qGreen(row[x]), b = qBlue(row[x]);
      const int k = keyOf(r, g, b);
      ++count[k];
      sum[3 * k] += r;
      sum[3 * k + 1] += g;
      sum[3 * k + 2] += b;
    }
  }
  std::vector<int> keys;
  for (int k = 0; k < kBins; ++k)
    if (count[k]) keys.push_back(k);

  const auto measure = [&](int begin, int end) {
    Box box{begin, end, 0, 0, -1};
    int lo[3] = {31, 31, 31}, hi[3] = {0, 0, 0};
    for (int i = begin; i < end; ++i) {
      box.pixels += count[keys[i]];
      for (int c = 0; c < 3; ++c) {
        lo[c] = std::min(lo[c], channel(keys[i], c));
        hi[c] = std::max(hi[c], channel(keys[i], c));
      }
    }
    for (int c = 0; c < 3; ++c)
      if (hi[c] - lo[c] > box.length) {
        box.length = hi[c] - lo[c];
        box.longest = c;
      }
    return box;
  };
  std::vector<Box> boxes;
  if (!keys.empty()) boxes.push_back(measure(0, int(keys.size())));
  // Median cut: split the box of most pixels times length at the pixels' median along its longest
  // side, until the palette is full or no box can be split.
  while (int(boxes.size()) < kColours - kFixedCount) {
    int pick = -1;
    double best = 0;
    for (int i = 0; i < int(boxes.size()); ++i) {
      const double score = double(boxes[i].pixels) * boxes[i].length;
      if (boxes[i].end - boxes[i].begin > 1 && boxes[i].length > 0 && score > best) {
        best = score;
        pick = i;
      }
    }
    if (pick < 0) break;
    const Box box = boxes[pick];
    const int c = box.longest;
    std::sort(keys.begin() + box.begin, keys.begin() + box.end,
              [c](int a, int b) { return channel(a, c) < channel(b, c); });
    long long seen = 0;
    int split = box.begin + 1;
    for (int i = box.begin; i < box.end - 1; ++i) {
      seen += count[keys[i]];
      split = i + 1;
      if (2 * seen >= box.pixels) break;
    }
    boxes[pick] = measure(box.begin, split);
    boxes.push_back(measure(split, box.end));
  }

  m_colours.fill(0xFF000000);
  int n = 0;
  for (uint32_t fixed : kFixed) m_colours[n++] = fixed;
  for (const Box& box : boxes) {  // each box's mean colour
    long long s[3] = {0, 0, 0};
    for (int i = box.begin; i < box.end; ++i)
      for (int c = 0; c < 3; ++c) s[c] += sum[3 * keys[i] + c];
    const auto mean = [&](int c) { return uint32_t((s[c] + box.pixels / 2) / std::max(1LL, box.pixels)); };
    m_colours[n++] = 0xFF000000 | mean(0) << 16 | mean(1) << 8 | mean(2);
  }

  // The nearest colour of every 5:5:5 cell's centre (green weighted most, as the eye does).
  m_lookup.assign(kBins, 0);
  for (int k = 0; k < kBins; ++k) {
    const int r = channel(k, 0) * 8 + 4, g = channel(k, 1) * 8 + 4, b = channel(k, 2) * 8 + 4;
    int best = 0, bestDistance = std::numeric_limits<int>::max();
    for (int i = 0; i < n; ++i) {
      const int dr = r - qRed(m_colours[i]), dg = g - qGreen(m_colours[i]), db = b - qBlue(m_colours[i]);
      const int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    }
    m_lookup[k] = uint8_t(best);
  }
}

void GifPalette::map(const QImage& image, uint8_t* indices, int stride) const {
  // 4x4 Bayer matrix, offsets in [-4, 3.5] of 8-bit levels: half a 5-bit step either way.
  static constexpr int kBayer[4][4] = {{0, 8, 2, 10}, {12, 4, 14, 6}, {3, 11, 1, 9}, {15, 7, 13, 5}};
  for (int y = 0; y < image.height(); ++y) {
    const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    uint8_t* out = indices + std::ptrdiff_t(y) * stride;
    for (int x = 0; x < image.width(); ++x) {
      const int d = kBayer[y & 3][x & 3] / 2 - 4;
      const auto level = [d](int v) { return std::clamp(v + d, 0, 255); };
      out[x] = m_lookup[keyOf(level(qRed(row[x])), level(qGreen(row[x])), level(qBlue(row[x])))];
    }
  }
}
