// Loop-closure joints (Featherstone and Orin 2000, §3.4): the joints of a
// closed-loop mechanism that are not in its spanning tree. Loop joint k makes a frame F1 fixed in
// its predecessor body p and a frame F2 fixed in its successor body s coincide up to the joint's
// motion. The frames are canonical like the tree's (Featherstone Part 2, rule 2): a revolute or
// prismatic loop joint acts about / along z of F1. Its constraint rows are the components of the
// relative motion v_s - v_p (in F1 coordinates, [w; v] order) that the joint does not allow.
#pragma once
#include <string>

#include "../spatial/transform.hpp"

namespace dyn {

enum class LoopJointType { Revolute, Prismatic, Spherical, Fixed };

inline const char* loopJointTypeName(LoopJointType t) {
  switch (t) {
    case LoopJointType::Revolute:
      return "revolute";
    case LoopJointType::Prismatic:
      return "prismatic";
    case LoopJointType::Spherical:
      return "spherical";
    case LoopJointType::Fixed:
      return "fixed";
  }
  return "?";
}

// Number of constraint rows: 6 minus the joint's degrees of freedom.
inline int loopJointRows(LoopJointType t) {
  switch (t) {
    case LoopJointType::Revolute:
      return 5;  // free: w_z
    case LoopJointType::Prismatic:
      return 5;  // free: v_z
    case LoopJointType::Spherical:
      return 3;  // free: w
    case LoopJointType::Fixed:
      return 6;
  }
  return 0;
}

// The component (0..5 of [w; v] in F1 coordinates) that constraint row `row` of the joint holds at zero.
inline int loopJointComponent(LoopJointType t, int row) {
  static constexpr int revolute[5] = {0, 1, 3, 4, 5}, prismatic[5] = {0, 1, 2, 3, 4};
  switch (t) {
    case LoopJointType::Revolute:
      return revolute[row];
    case LoopJointType::Prismatic:
      return prismatic[row];
    case LoopJointType::Spherical:
      return 3 + row;
    case LoopJointType::Fixed:
      return row;
  }
  return 0;
}

// Component k (0..5 of [w; v]) of a motion vector.
template <class S>
DYN_INLINE const S& motionComponent(const Motion<S>& m, int k) {
  return k < 3 ? m.w[k] : m.v[k - 3];
}

template <class S>
struct LoopJoint {
  std::string name;
  LoopJointType type = LoopJointType::Revolute;
  bool continuous = false;             // a revolute written as continuous (no limits either way)
  int predecessor = 0, successor = 0;  // bodies p and s (0 = the fixed base)
  Transform<S> Xp, Xs;                 // F1_X_p and F2_X_s: the joint frames on their bodies
  std::string link1, link2;            // the links the file names (may be merged into the bodies)
  int line = 0;                        // source line, for messages
  bool cut = false;                    // a joint of the file cut to open a cycle (else an explicit loop joint)
  int row = 0;                         // its first row in phi (rows row .. row + rows() - 1)

  int rows() const { return loopJointRows(type); }

  template <class T>
  LoopJoint<T> cast() const {
    LoopJoint<T> j;
    j.name = name;
    j.type = type;
    j.continuous = continuous;
    j.predecessor = predecessor;
    j.successor = successor;
    j.Xp = Xp.template cast<T>();
    j.Xs = Xs.template cast<T>();
    j.link1 = link1;
    j.link2 = link2;
    j.line = line;
    j.cut = cut;
    j.row = row;
    return j;
  }
};

}  // namespace dyn
