// The body an arm's tool is on, for IK and --link defaults: the end of the main chain, not a finger.
// From the base, follow the child with the most bodies below it; stop at a hand, a body (three or
// more joints from the base) whose children are at least two small subtrees (fingers: at most
// three bodies each), or at a body without children.
#pragma once
#include <vector>

#include "model.hpp"

namespace dyn {

template <class S>
int mainChainEnd(const ModelTpl<S>& m) {
  std::vector<int> below(size_t(m.N + 1), 1);  // bodies in each subtree
  for (int i = m.N; i >= 1; --i) below[size_t(m.parent[size_t(i)])] += below[size_t(i)];
  for (int b = 0, depth = 0;; ++depth) {
    int next = -1, children = 0, small = 0;
    for (int c = b + 1; c <= m.N; ++c) {
      if (m.parent[size_t(c)] != b) continue;
      ++children;
      small += below[size_t(c)] <= 3;
      if (next < 0 || below[size_t(c)] > below[size_t(next)]) next = c;
    }
    if (next < 0 || (depth >= 3 && children >= 2 && small == children)) return b;
    b = next;
  }
}

}  // namespace dyn
