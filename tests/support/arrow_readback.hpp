// A 3D arrow as the scene drew it, read back from its actor's user matrix (column 0 = direction x
// length, column 3 = start): what the lecture-mode suites compare with the engine's quantities.
#pragma once
#include <vtkActor.h>
#include <vtkMatrix4x4.h>

#include <Eigen/Core>

namespace dyn::testing {

struct ReadArrow {
  Eigen::Vector3d origin, axis, tip;  // axis: unit direction
  double length = 0;
};

inline ReadArrow readArrow(vtkActor* actor) {
  vtkMatrix4x4* m = actor->GetUserMatrix();
  ReadArrow a;
  a.origin = Eigen::Vector3d(m->GetElement(0, 3), m->GetElement(1, 3), m->GetElement(2, 3));
  const Eigen::Vector3d c0(m->GetElement(0, 0), m->GetElement(1, 0), m->GetElement(2, 0));
  a.length = c0.norm();
  a.axis = c0 / a.length;
  a.tip = a.origin + c0;
  return a;
}

}  // namespace dyn::testing
