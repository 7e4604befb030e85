// Presentation mode for a projector: thicker lines and larger text in the 3D view. The scene owns
// its actors, so this scales whatever props the renderer holds and remembers the originals to undo it.
#pragma once
#include <vtkWeakPointer.h>
#include <vector>

class vtkProperty;
class vtkRenderer;
class vtkTextProperty;

class PresentationStyle {
 public:
  // Idempotent: props already scaled are left alone. `scale`: the screen's (widgets/presentation_scale.hpp).
  void apply(vtkRenderer* renderer, double scale = 1);
  void restore();

 private:
  struct LineWidth {
    vtkWeakPointer<vtkProperty> property;
    float original;
  };
  struct FontSize {
    vtkWeakPointer<vtkTextProperty> property;
    int original;
  };
  std::vector<LineWidth> m_lines;
  std::vector<FontSize> m_fonts;
};
