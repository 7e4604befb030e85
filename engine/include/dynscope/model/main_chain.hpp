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
  std::vector<int> below(size_t(m.N + 1), 1), depth(size_t(m.N + 1), 0);  // bodies in the subtree; joints from the base
  for (int i = m.N; i >= 1; --i) below[size_t(m.parent[size_t(i)])] += below[size_t(i)];
  for (int i = 1; i <= m.N; ++i) depth[size_t(i)] = depth[size_t(m.parent[size_t(i)])] + 1;
  int b = 0;
  for (;;) {
    int next = -1, children = 0, small = 0;
    for (int c = b + 1; c <= m.N; ++c) {
      if (m.parent[size_t(c)] != b) continue;
      ++children;
      small += below[size_t(c)] <= 3;
      if (next < 0 || below[size_t(c)] > below[size_t(next)]) next = c;
    }
    if (next < 0 || (depth[size_t(b)] >= 3 && children >= 2 && small == children)) return b;
    b = next;
  }
}

// Whether body `i` is `ancestor` or below it.
template <class S>
bool inSubtree(const ModelTpl<S>& m, int i, int ancestor) {
  for (; i > ancestor; i = m.parent[size_t(i)]) {
  }
  return i == ancestor;
}

}  // namespace dyn
