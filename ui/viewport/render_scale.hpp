// The share of the view's pixels the frame being rendered uses: 1, or less while a software-GL
// view moves (VtkViewport's adaptive quality draws into a smaller part of its framebuffer and
// scales it up). Whatever is sized in pixels on screen (the IK handle, arrows' shortest length,
// legends) divides the renderer's size by it, or it would grow by 1/scale on every moving frame
// and shrink back on the still one.
#pragma once

namespace viewport {

double renderScale();
void setRenderScale(double scale);  // VtkViewport::paintGL, around the render

}  // namespace viewport
