// The shapes and matrices every layer of the 3D scene is made of: VTK polydata for boxes, spheres,
// cylinders, arrows, the frame triad, the joint-axis arrow and the centre-of-mass marker, actors for
// them, and the conversion of the engine's transforms to VTK's row-major 4x4 matrices.
#pragma once
#include <vtkSmartPointer.h>

#include <array>

#include "dynscope/spatial/transform.hpp"

class vtkActor;
class vtkPolyData;
class vtkPolyDataAlgorithm;
class vtkTransform;

namespace scene {

using Tf = dyn::Transform<double>;
using Vec3 = dyn::Vec3<double>;
using Mat3 = dyn::Mat3<double>;

// Pose (rotation R, scaled by s, and origin p) as a row-major 4x4.
void poseToMatrix(const Mat3& R, const Vec3& p, double s, double m[16]);
// The world pose of a frame from its Plücker transform frame_X_0 (R = E^T, origin r).
void transformToMatrix(const Tf& X, double m[16]);
// The diagonal of VTK bounds (xmin, xmax, ymin, ymax, zmin, zmax).
inline double boundsDiagonal(const double b[6]) { return Vec3(b[1] - b[0], b[3] - b[2], b[5] - b[4]).norm(); }

vtkSmartPointer<vtkPolyData> output(vtkPolyDataAlgorithm* alg);  // updated, then copied
vtkSmartPointer<vtkPolyData> transformed(vtkPolyData* in, vtkTransform* t);

vtkSmartPointer<vtkPolyData> boxPoly(double x, double y, double z);
vtkSmartPointer<vtkPolyData> spherePoly(double r, int theta = 40, int phi = 24);
vtkSmartPointer<vtkPolyData> cylinderPoly(double r, double length);  // along z, as URDF's
// An arrow of unit length from the origin along +x (VTK's arrow), thicker when asked.
vtkSmartPointer<vtkPolyData> arrowPoly(double shaft, double tip, double tipLength);
vtkSmartPointer<vtkPolyData> triadPoly();      // x red, y green, z blue arrows of length 1
vtkSmartPointer<vtkPolyData> jointAxisPoly();  // a thick arrow along +z, a little behind the origin
// The classic centre-of-mass marker: a unit sphere of eight octants, alternately light and dark.
vtkSmartPointer<vtkPolyData> comMarkerPoly(const std::array<double, 3>& light, const std::array<double, 3>& dark);

// Point colours (cheaper to draw than cell colours, which OpenGL2 looks up in a texture).
void setPointColor(vtkPolyData* poly, const std::array<double, 3>& rgb);

// An actor of `poly`; pointColors: the polydata's own point colours instead of the actor's.
vtkSmartPointer<vtkActor> makeActor(vtkPolyData* poly, bool pointColors = false);

}  // namespace scene
