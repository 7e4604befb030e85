// The arrow both arrow layers draw (the trace's f, v, a and the pushes and contacts): a unit-length
// vtkArrowSource along +x (shaft radius kArrowShaft, a second head for angular quantities, the screw
// convention), turned onto a direction, scaled to a length and a thickness by the actor's matrix.
#pragma once
#include <vtkSmartPointer.h>

#include <Eigen/Core>

class vtkActor;
class vtkPolyDataMapper;
class vtkRenderer;

constexpr double kArrowShaft = 0.03;  // the unit arrow's shaft radius

vtkSmartPointer<vtkPolyDataMapper> unitArrowMapper(bool twoHeads, int shaftResolution = 16, int tipResolution = 24);

// The unit arrow from `origin` along `direction`, `length` long, `width` times as thick.
void placeArrow(vtkActor* actor, const Eigen::Vector3d& origin, const Eigen::Vector3d& direction, double length,
                double width);

// Screen pixels per metre at p's depth in the renderer's camera (0 before the view has a size): how
// long an arrow at p looks.
double pixelsPerMetreAt(vtkRenderer* renderer, const Eigen::Vector3d& p);
