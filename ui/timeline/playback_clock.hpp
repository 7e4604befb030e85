// Playback time of a trajectory: the scrubber position, play/pause, loop and speed, and stepping
// from sample to sample. Pure logic (no timer, no widgets) so that it is tested on its own; the
// timeline dock drives it from a display-rate timer with the measured wall time.
#pragma once
#include <vector>

class PlaybackClock {
 public:
  static constexpr double kMinSpeed = 0.1, kMaxSpeed = 4.0;

  // Sample times, strictly increasing (the trajectory's). Empty: nothing to play, time() = 0.
  void setSampleTimes(std::vector<double> t);
  const std::vector<double>& sampleTimes() const { return m_t; }
  bool isEmpty() const { return m_t.empty(); }
  double startTime() const { return m_t.empty() ? 0.0 : m_t.front(); }
  double endTime() const { return m_t.empty() ? 0.0 : m_t.back(); }

  double time() const { return m_time; }
  void setTime(double t);  // clamped to [start, end]
  // Index of the sample nearest to time() (-1 when empty).
  int nearestSample() const;
  int sampleCount() const { return int(m_t.size()); }

  bool isPlaying() const { return m_playing; }
  // Playing from the end restarts at the start, as media players do.
  void play();
  void pause() { m_playing = false; }
  bool loop() const { return m_loop; }
  void setLoop(bool on) { m_loop = on; }
  double speed() const { return m_speed; }
  void setSpeed(double s);  // clamped to [kMinSpeed, kMaxSpeed]

  // Advances by wallSeconds * speed while playing. At the end: wraps when looping, otherwise
  // stops on the last sample. Returns true if time() changed.
  bool advance(double wallSeconds);
  // One sample forward (+1) or back (-1) from the current time; pauses playback.
  void step(int direction);

 private:
  std::vector<double> m_t;
  double m_time = 0, m_speed = 1;
  bool m_playing = false, m_loop = false;
};
