#include "viewport/render_scale.hpp"

namespace viewport {

namespace {
double g_scale = 1.0;  // the GUI thread renders; one frame at a time
}

double renderScale() { return g_scale; }
void setRenderScale(double scale) { g_scale = scale > 0 ? scale : 1.0; }

}  // namespace viewport
