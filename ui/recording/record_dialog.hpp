// File > Record video: what to capture (the 3D view or the whole window), from which clock (the
// trajectory's timeline, or live in real or simulated time), the frame rate and the file, whose
// extension chooses the format (the codec is named under it).
#pragma once
#include <QDialog>
#include <QSize>
#include <optional>

#include "recording/recording_session.hpp"

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

class RecordDialog : public QDialog {
  Q_OBJECT

 public:
  struct Offer {
    QSize viewportSize;                     // in pixels, for the "as shown" size
    QString defaultPath;                    // the file proposed
    bool hasTrajectory = false;             // else the timeline source is disabled
    bool hasSimulation = false;             // else the simulation-time source is disabled
    std::optional<RecordingSettings> last;  // the previous recording's choices, offered again
  };
  explicit RecordDialog(const Offer& offer, QWidget* parent = nullptr);

  RecordingSettings settings() const;
  // The default folder: the user's Videos, else Pictures, else home.
  static QString defaultFolder();

  // For tests.
  QLineEdit* pathEdit() const { return m_path; }
  QSpinBox* fpsBox() const { return m_fps; }
  void setSource(RecordingSettings::Source source);
  void setCapture(RecordingSettings::Capture capture);

 private:
  void browse();
  void updateFormat();

  QSize m_viewport;
  QRadioButton* m_view;
  QRadioButton* m_window;
  QRadioButton* m_timeline;
  QRadioButton* m_realTime;
  QRadioButton* m_simulation;
  QComboBox* m_size;
  QSpinBox* m_fps;
  QLineEdit* m_path;
  QLabel* m_format;
  QDialogButtonBox* m_buttons;
};
