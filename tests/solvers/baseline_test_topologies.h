// Small topologies for the baseline and expansion tests that the generators do not provide
// (meshes, a digraph that is not reverse-symmetric), hand-built rings so the tests do not
// depend on generator naming, and the checker call the tests share.
#ifndef COLLSYNTH_TESTS_SOLVERS_BASELINE_TEST_TOPOLOGIES_H_
#define COLLSYNTH_TESTS_SOLVERS_BASELINE_TEST_TOPOLOGIES_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphs/topology.h"
#include "proofs_check/step_checker.h"

namespace collsynth::testing {

// rows × cols mesh (no wrap-around), duplex unit links, nodes "t{r}_{c}" in row-major order.
inline Topology Mesh(int rows, int cols) {
  Topology g("mesh(" + std::to_string(rows) + "," + std::to_string(cols) + ")");
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) g.AddCompute("t" + std::to_string(r) + "_" + std::to_string(c));
  }
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int v = r * cols + c;
      if (c + 1 < cols) g.AddDuplexLink(v, v + 1, 1);
      if (r + 1 < rows) g.AddDuplexLink(v, v + cols, 1);
    }
  }
  return g;
}

// Directed ring 0 -> 1 -> ... -> n-1 -> 0, bandwidth b, nodes named "0".."n-1".
inline Topology DirectedRing(int n, const Rational& b = 1) {
  Topology g("ring(" + std::to_string(n) + ")");
  for (int i = 0; i < n; ++i) g.AddCompute(std::to_string(i));
  for (int i = 0; i < n; ++i) g.AddLink(i, (i + 1) % n, b);
  return g;
}

// Bidirectional ring with nodes in a scrambled id order (tests must infer the ring).
inline Topology ScrambledBiRing(int n) {
  Topology g("scrambled-biring");
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = (i * 3 + 1) % n;  // n coprime with 3
  for (int i = 0; i < n; ++i) g.AddCompute("r" + std::to_string(i));
  for (int i = 0; i < n; ++i) g.AddDuplexLink(perm[i], perm[(i + 1) % n], 1);
  return g;
}

// A strongly connected digraph without opposite links whose (out, in)-degree multiset
// {(2,1),(2,1),(1,3),(1,1),(1,1)} differs from its transpose's, so it is not reverse-symmetric.
inline Topology NotReverseSymmetric() {
  Topology g("asym5");
  for (const char* n : {"A", "B", "C", "D", "E"}) g.AddCompute(n);
  auto id = [&](const char* n) { return *g.FindNode(n); };
  for (auto [a, b] : std::vector<std::pair<const char*, const char*>>{
           {"A", "C"}, {"A", "B"}, {"B", "C"}, {"B", "D"}, {"D", "C"}, {"C", "E"}, {"E", "A"}}) {
    g.AddLink(id(a), id(b), 1);
  }
  return g;
}

// Checks s on g without optional conditions (a failure is a test failure), then fills the
// report's bandwidth_optimal (Thm 7) and bfb (Def. 15, allgather only) flags from a second,
// stricter run, which fails when they do not hold.
inline StepCheckReport CheckWithFlags(const Topology& g, const StepSchedule& s) {
  StepCheckReport r = CheckStepSchedule(g, s);
  EXPECT_TRUE(r.ok) << g.name() << ": " << (r.errors.empty() ? "" : r.errors[0]);
  StepCheckOptions strict;
  strict.check_bandwidth_optimal = true;
  strict.check_bfb = s.collective == Collective::kAllgather;
  StepCheckReport flags = CheckStepSchedule(g, s, strict);
  r.bandwidth_optimal = flags.bandwidth_optimal.value_or(false);
  r.bfb = flags.bfb.value_or(false);
  return r;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_SOLVERS_BASELINE_TEST_TOPOLOGIES_H_
