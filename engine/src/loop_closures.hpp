// Closed kinematic loops at load time (docs/loops.md), shared by the URDF parser and the model
// builder: the spanning tree of the joint graph (review §3.4) and the loop-closure joints, actuation
// and independent coordinates of the Model. Private to the engine.
#pragma once
#include <vector>

#include "dynscope/io/load_error.hpp"
#include "dynscope/io/robot_description.hpp"
#include "dynscope/model/model.hpp"

namespace dyn {

// The spanning tree of a robot's joint graph, grown breadth-first from the root link (the one
// link that is no joint's child) along the joints' parent -> child direction, in file order: a
// joint whose child the tree already holds closes a loop and is cut. Throws LoadError (with the
// description's source file) for joints naming missing links or joining a link to itself, several
// roots, and links the root does not reach (a cycle hanging on nothing).
struct SpanningTree {
  int root = 0;                            // link index
  std::vector<std::vector<int>> children;  // per link: the tree joints whose parent it is, file order
  std::vector<int> cut;                    // joints (indices in robot.joints) that close loops, file order
};
SpanningTree spanningTree(const RobotDescription& robot);

// Adds the loop-closure joints (the cut joints and robot.loopJoints) to a model built from the
// tree, assembles it, and chooses the actuated and independent coordinates. bodyOfLink and
// linkInBody: the body each link ended in and link_X_body (fixed joints merge links).
void addLoopClosures(Model& model, const RobotDescription& robot, const SpanningTree& tree,
                     const std::vector<int>& bodyOfLink, const std::vector<Transform<double>>& linkInBody);

}  // namespace dyn
