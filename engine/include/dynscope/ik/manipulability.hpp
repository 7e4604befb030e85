// Manipulability of a frame (Yoshikawa): the SVD of the linear part Jv (3 x nv, world axes,
// velocity of the frame origin) of its Jacobian. The velocity ellipsoid {Jv qd : |qd| <= 1} has
// semi-axes sigma_k along the left singular vectors u_k; the force ellipsoid {f : |Jv^T f| <= 1}
// has semi-axes 1/sigma_k along the same directions. The smallest singular value is the distance
// to a (positional) singularity. Computed from the 3x3 (and 6x6) eigenproblems of J J^T, so no
// allocation.
#pragma once
#include "../model/data.hpp"

namespace dyn {

struct Manipulability {
  Vec3<double> center = Vec3<double>::Zero();          // frame origin in world coordinates
  Vec3<double> singularValues = Vec3<double>::Zero();  // sigma_1 >= sigma_2 >= sigma_3 >= 0 of Jv
  Mat3<double> axes = Mat3<double>::Identity();        // column k: unit direction u_k (world) of sigma_k
  Vec3<double> velocityRadii = Vec3<double>::Zero();   // = singularValues (m/s per unit |qd|)
  Vec3<double> forceRadii = Vec3<double>::Zero();      // 1 / sigma_k (N per unit |tau|); inf at a singularity
  double minSingularValue = 0;                         // sigma_3 of Jv: distance to a positional singularity
  double fullMinSingularValue = 0;  // the 6th singular value of the full 6 x nv Jacobian (0 when nv < 6)
  double measure = 0;               // Yoshikawa's w = sqrt(det(Jv Jv^T)) = sigma_1 sigma_2 sigma_3
};

// At configuration q (runs forwardKinematics into data). Throws for a bad frame index or q size.
Manipulability manipulability(const Model& model, Data& data, const VecX<double>& q, int frame);

}  // namespace dyn
