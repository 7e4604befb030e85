#include "window/presentation_style.hpp"

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkBillboardTextActor3D.h>
#include <vtkProp.h>
#include <vtkPropCollection.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <algorithm>

namespace {
constexpr float kLineFactor = 2.5f;
constexpr double kFontFactor = 1.6;  // at 1080 lines
}  // namespace

void PresentationStyle::apply(vtkRenderer* renderer, double scale) {
  const double fontFactor = std::max(1.2, kFontFactor * scale);
  if (!renderer) return;
  const auto seen = [](const auto& list, const auto* p) {
    return std::any_of(list.begin(), list.end(), [p](const auto& e) { return e.property.GetPointer() == p; });
  };
  vtkPropCollection* props = renderer->GetViewProps();
  props->InitTraversal();
  while (vtkProp* prop = props->GetNextProp()) {
    if (auto* actor = vtkActor::SafeDownCast(prop)) {
      vtkProperty* p = actor->GetProperty();
      if (p && !seen(m_lines, p)) {
        m_lines.push_back({p, p->GetLineWidth()});
        p->SetLineWidth(std::max(2.0f, p->GetLineWidth() * kLineFactor));
      }
    }
    vtkTextProperty* text = nullptr;
    if (auto* t = vtkTextActor::SafeDownCast(prop)) text = t->GetTextProperty();
    if (auto* t = vtkBillboardTextActor3D::SafeDownCast(prop)) text = t->GetTextProperty();
    if (text && !seen(m_fonts, text)) {
      m_fonts.push_back({text, text->GetFontSize()});
      text->SetFontSize(int(text->GetFontSize() * fontFactor));
    }
  }
}

void PresentationStyle::restore() {
  for (auto& e : m_lines)
    if (e.property) e.property->SetLineWidth(e.original);
  for (auto& e : m_fonts)
    if (e.property) e.property->SetFontSize(e.original);
  m_lines.clear();
  m_fonts.clear();
}
