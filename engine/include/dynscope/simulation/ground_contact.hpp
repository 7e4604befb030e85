// Ground contact for the simulation (issue 25; the reasoning is in docs/simulation.md, "Ground and
// contact"). The ground is the plane z = height of the world; the robot touches it at contact points
// taken from its collision geometry (box corners, cylinder rims, mesh support points; a sphere touches
// with its lowest point). Each point in contact is a compliant spring-damper along the normal,
// F_n = max(0, K d + C d'), d the penetration (the linear spring-dashpot, Kelvin-Voigt, model surveyed by
// Gilardi & Sharf 2002, kept from pulling), with K and C set per point from a time constant and a damping
// ratio the way MuJoCo sets its soft constraints (Todorov 2014; MuJoCo's solref): K = m / (tau^2 zeta^2),
// C = 2 m / tau for the point's effective mass m, so a finger and a torso settle alike. Friction is
// Coulomb's, F_t inside the cone |F_t| <= mu F_n, with sticking modelled by a tangential spring
// anchored where the point touched down that slips when it would leave the cone (the reset-integrator
// model of Haessig & Friedland 1991): a block on an incline below the friction angle stays put. The
// points of one shape in contact share its spring and damper by their penetration (w_j = d_j / sum d),
// so a mesh foot is not a hundred springs in parallel; symplectic Euler takes the forces at the step's
// end (linearly implicit, as MuJoCo's soft constraints: stable for any stiffness, never gaining energy).
// Simulator (simulator_contact.cpp) applies them.
#pragma once
#include <string>
#include <vector>

#include "../model/model.hpp"
#include "simulation_settings.hpp"

namespace dyn {

// A point of the robot that can touch the ground.
struct ContactPoint {
  int body = 0;                               // 1..N (points fixed to the base never move)
  Vec3<double> point = Vec3<double>::Zero();  // body coordinates; a sphere's centre
  double radius = 0;                          // > 0: a sphere, which touches with its lowest point
  int geometry = -1;                          // model.geometries index it came from
};

struct ContactPointSet {
  std::vector<ContactPoint> points;
  std::vector<std::string> notes;  // geometry that gives no points and why (a mesh that cannot be read)
};

// The contact points of the model's collision geometry (its visual geometry, said in a note, when it
// has no collision geometry at all). Boxes: 8 corners; cylinders: 12 points on each rim; spheres:
// centre and radius; meshes (STL, OBJ): their support points in 26 directions, vertices of the convex
// hull. Reads mesh files (paths resolved as the renderer does, dynscope/io/mesh_path.hpp).
ContactPointSet contactPoints(const Model& model);

// The force the ground exerts at a point of contact, for the readouts and the 3D view.
struct ContactForce {
  int point = 0;  // index into the simulator's contact points
  int body = 0;
  Vec3<double> position = Vec3<double>::Zero();  // where it acts, world (on the ground plane's side)
  Vec3<double> force = Vec3<double>::Zero();     // world (N)
  double penetration = 0;                        // m
  bool sliding = false;                          // on the friction cone's surface
};

}  // namespace dyn
