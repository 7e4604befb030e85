// File > Export image: at the viewport's size or a chosen resolution (e.g. 1920 x 1080 for slides).
#pragma once
#include <QDialog>
#include <QSize>

class QRadioButton;
class QSpinBox;

class ExportImageDialog : public QDialog {
  Q_OBJECT

 public:
  ExportImageDialog(const QSize& viewportSize, QWidget* parent = nullptr);
  QSize chosenSize() const;  // the viewport's size when "viewport size" is chosen

 private:
  QSize m_viewport;
  QRadioButton* m_useViewport;
  QSpinBox* m_width;
  QSpinBox* m_height;
};
