#include "timeline/playback_clock.hpp"

#include <algorithm>
#include <cmath>

void PlaybackClock::setSampleTimes(std::vector<double> t) {
  m_t = std::move(t);
  if (m_t.empty()) m_playing = false;
  setTime(m_time);
}

void PlaybackClock::setTime(double t) {
  if (!std::isfinite(t)) return;
  m_time = std::clamp(t, startTime(), endTime());
}

int PlaybackClock::nearestSample() const {
  if (m_t.empty()) return -1;
  const auto it = std::lower_bound(m_t.begin(), m_t.end(), m_time);
  if (it == m_t.end()) return int(m_t.size()) - 1;
  const int k = int(it - m_t.begin());
  return (k > 0 && m_time - m_t[k - 1] <= *it - m_time) ? k - 1 : k;
}

void PlaybackClock::play() {
  if (m_t.size() < 2) return;
  if (m_time >= endTime()) m_time = startTime();
  m_playing = true;
}

void PlaybackClock::setSpeed(double s) {
  if (std::isfinite(s)) m_speed = std::clamp(s, kMinSpeed, kMaxSpeed);
}

bool PlaybackClock::advance(double wallSeconds) {
  if (!m_playing || m_t.size() < 2 || !(wallSeconds > 0)) return false;
  double t = m_time + wallSeconds * m_speed;
  const double t0 = startTime(), t1 = endTime();
  if (t >= t1) {
    if (m_loop)
      t = t0 + std::fmod(t - t0, t1 - t0);
    else {
      t = t1;
      m_playing = false;
    }
  }
  m_time = t;
  return true;
}

void PlaybackClock::step(int direction) {
  m_playing = false;
  if (m_t.empty() || direction == 0) return;
  const int k = nearestSample();
  int next = k;
  // From between two samples, the first step lands on the neighbour in that direction.
  if (direction > 0)
    next = m_t[k] > m_time ? k : k + 1;
  else
    next = m_t[k] < m_time ? k : k - 1;
  m_time = m_t[std::clamp(next, 0, int(m_t.size()) - 1)];
}
