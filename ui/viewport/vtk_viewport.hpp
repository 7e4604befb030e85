// The 3D viewport: a QOpenGLWidget hosting a vtkGenericOpenGLRenderWindow (VTK's Qt module is
// built against Qt 5 on Debian, so the embedding is done here). VTK renders into its own
// framebuffer inside paintGL(); the result is blitted into the widget's framebuffer. Mouse,
// wheel and key events go to a vtkGenericRenderWindowInteractor with a trackball-camera style:
// orbit with the left button, pan with the middle button or Shift+left, zoom with the wheel
// (or the right button). A left click without drag emits clicked().
//
// Scene changes: call requestRender() (or update()). Whoever calls
// renderWindow()->GetInteractor()->Render() (RobotScene does) schedules a repaint too; direct
// renderWindow()->Render() calls work but render twice.
#pragma once
#include <QImage>
#include <QOpenGLWidget>
#include <QPoint>
#include <QSurfaceFormat>

class vtkRenderer;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;

class VtkViewport : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit VtkViewport(QWidget* parent = nullptr);
  ~VtkViewport() override;

  vtkRenderer* renderer() const;
  vtkGenericOpenGLRenderWindow* renderWindow() const;
  vtkGenericRenderWindowInteractor* interactor() const;

  // Renders the scene offscreen at width x height pixels (0 = the widget's size in device
  // pixels) and returns it (Format_RGB888), anti-aliased. Works on a hidden, never-shown
  // viewport too (its OpenGL context is created on demand) as long as there is an X display
  // (Xvfb is fine; Qt's "offscreen" platform has no QOpenGLWidget). Null image on failure.
  // See setExportQuality().
  QImage grabImage(int width = 0, int height = 0);

  // The OpenGL format VTK needs (3.2 core). The constructor applies it to the widget; an app may
  // also call QSurfaceFormat::setDefaultFormat(VtkViewport::defaultFormat()) before QApplication.
  static QSurfaceFormat defaultFormat();

  // grabImage() renders with FXAA anti-aliasing and depth-peeled translucency (default on);
  // interactive frames use neither: both are too slow in software OpenGL.
  void setExportQuality(bool on) { exportQuality_ = on; }

  // Pixels a press may move and still count as a click.
  void setClickTolerance(int pixels) { clickTolerance_ = pixels; }

  // Time the last paintGL took (VTK render + blit), in milliseconds.
  double lastRenderMs() const { return lastRenderMs_; }

 public slots:
  void requestRender();  // schedule a repaint (coalesced by Qt)

 signals:
  void clicked(QPoint pos);        // left button pressed and released without dragging (widget coords)
  void rendered(double milliseconds);  // after every paintGL

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;

  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void keyReleaseEvent(QKeyEvent* e) override;
  void enterEvent(QEnterEvent* e) override;
  void leaveEvent(QEvent* e) override;

 private:
  struct Impl;
  Impl* d_;
  int clickTolerance_ = 4;
  bool exportQuality_ = true;
  double lastRenderMs_ = 0;
  bool pressed_ = false;
  QPoint pressPos_;
  void setEventInfo(const QPointF& pos, Qt::KeyboardModifiers mods, int repeat = 0);
  void releaseVtkResources();
  friend struct ViewportCallbacks;
};
