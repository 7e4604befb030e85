// A renderer drawn over a scene's (render-window layer 1, the depth buffer cleared first), with the
// scene's camera copied before each of its renders: what it shows stays visible through the robot,
// e.g. the loop-closure joints inside a piston or a parallelogram's links. Unlike the IK handle it
// belongs to the picture, so exported images keep it.
#pragma once
#include <vtkNew.h>
#include <vtkWeakPointer.h>

class vtkCallbackCommand;
class vtkObject;
class vtkRenderer;
class vtkRenderWindow;

class SceneOverlay {
 public:
  explicit SceneOverlay(vtkRenderer* scene);
  ~SceneOverlay();
  SceneOverlay(const SceneOverlay&) = delete;
  SceneOverlay& operator=(const SceneOverlay&) = delete;

  vtkRenderer* renderer() const;

 private:
  static void onStart(vtkObject*, unsigned long, void* self, void*);

  vtkRenderer* scene_;
  vtkWeakPointer<vtkRenderWindow> window_;  // the window may go first (the viewport owns it)
  vtkNew<vtkRenderer> overlay_;
  vtkNew<vtkCallbackCommand> start_;
};
