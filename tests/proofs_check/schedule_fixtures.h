// Hand-built topologies and valid schedules for the checker tests, constructed here from the
// papers' descriptions (not by the producers in solvers/), so the checker is tested
// independently: seed 000 Figure 1 (K_{2,2}), unidirectional and bidirectional (Figure 11)
// rings, a 2-D torus dimension by dimension, hypercube recursive doubling and BFB, and a
// pipeline schedule on the two-cluster example of seed 004; and the expansion of a
// pipeline-symmetric schedule written from the format's definition.
#ifndef COLLSYNTH_TESTS_PROOFS_CHECK_SCHEDULE_FIXTURES_H_
#define COLLSYNTH_TESTS_PROOFS_CHECK_SCHEDULE_FIXTURES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"
#include "schedules/symmetric_pipeline_schedule.h"

namespace collsynth::testing {

inline Interval Whole() { return Interval{Rational(0), Rational(1)}; }
inline Interval Part(int i, int n) { return Interval{Rational(i, n), Rational(i + 1, n)}; }

inline StepSend Send(int source, std::vector<Interval> chunk, int from, int to, int step) {
  return StepSend{source, std::move(chunk), from, to, step};
}

// Nodes named prefix0 .. prefix{n-1}, compute.
inline Topology Nodes(int n, const std::string& prefix = "v") {
  Topology g(prefix + std::to_string(n));
  for (int i = 0; i < n; ++i) g.AddCompute(prefix + std::to_string(i));
  return g;
}

// i -> i+1 (mod n), bandwidth 1; bidirectional adds i+1 -> i.
inline Topology Ring(int n, bool bidirectional) {
  Topology g = Nodes(n);
  for (int i = 0; i < n; ++i) {
    g.AddLink(i, (i + 1) % n, Rational(1));
    if (bidirectional) g.AddLink((i + 1) % n, i, Rational(1));
  }
  return g;
}

// Unidirectional ring allgather: at step t node i forwards the shard of i-t+1 to i+1.
// T_L = n-1, T_B = n-1 shard units (= (N-1)/B with B = 1: bandwidth optimal).
inline StepSchedule RingAllgather(int n) {
  StepSchedule s;
  for (int t = 1; t < n; ++t) {
    for (int i = 0; i < n; ++i)
      s.sends.push_back(Send(((i - t + 1) % n + n) % n, {Whole()}, i, (i + 1) % n, t));
  }
  return s;
}

// Bidirectional ring BFB allgather (seed 000 App. D, Figure 11): each shard goes both ways
// half a circle; for even n the far node gets one half from each side.
// T_L = floor(n/2), T_B = (n-1)/2 shard units.
inline StepSchedule BidirectionalRingBfb(int n) {
  StepSchedule s;
  auto mod = [n](int x) { return ((x % n) + n) % n; };
  for (int v = 0; v < n; ++v) {
    for (int t = 1; t <= (n - 1) / 2; ++t) {
      s.sends.push_back(Send(v, {Whole()}, mod(v + t - 1), mod(v + t), t));
      s.sends.push_back(Send(v, {Whole()}, mod(v - t + 1), mod(v - t), t));
    }
    if (n % 2 == 0) {
      int t = n / 2;
      s.sends.push_back(Send(v, {Part(0, 2)}, mod(v + t - 1), mod(v + t), t));
      s.sends.push_back(Send(v, {Part(1, 2)}, mod(v - t + 1), mod(v - t), t));
    }
  }
  return s;
}

// K_{2,2} with parts {a, b} and {c, d}, unit duplex links (seed 000 Figure 1).
inline Topology K22() {
  Topology g("k22");
  for (const char* name : {"a", "b", "c", "d"}) g.AddCompute(name);
  for (int x : {0, 1}) {
    for (int y : {2, 3}) g.AddDuplexLink(x, y, Rational(1));
  }
  return g;
}

// Figure 1: a sends S to c and d at step 1; at step 2 c sends C1 and d sends C2 to b; the
// same broadcast from b, c, d in parallel. T_L = 2, T_B = 3/2 shard units (README errata).
inline StepSchedule K22Figure1() {
  StepSchedule s;
  // For each source: its two neighbours n1, n2 and the opposite node o of its own part.
  const int a = 0, b = 1, c = 2, d = 3;
  struct Row {
    int src, n1, n2, o;
  };
  for (Row r : {Row{a, c, d, b}, Row{b, c, d, a}, Row{c, a, b, d}, Row{d, a, b, c}}) {
    s.sends.push_back(Send(r.src, {Whole()}, r.src, r.n1, 1));
    s.sends.push_back(Send(r.src, {Whole()}, r.src, r.n2, 1));
    s.sends.push_back(Send(r.src, {Part(0, 2)}, r.n1, r.o, 2));
    s.sends.push_back(Send(r.src, {Part(1, 2)}, r.n2, r.o, 2));
  }
  return s;
}

// x-by-y torus (bidirectional unit links), node (i, j) = i + x*j named "t<i>_<j>".
inline Topology Torus(int x, int y) {
  Topology g("torus");
  for (int j = 0; j < y; ++j) {
    for (int i = 0; i < x; ++i) g.AddCompute("t" + std::to_string(i) + "_" + std::to_string(j));
  }
  for (int j = 0; j < y; ++j) {
    for (int i = 0; i < x; ++i) {
      g.AddDuplexLink(i + x * j, (i + 1) % x + x * j, Rational(1));
      g.AddDuplexLink(i + x * j, i + x * ((j + 1) % y), Rational(1));
    }
  }
  return g;
}

// Dimension by dimension: a ring allgather along +x (steps 1..x-1), then along +y every node
// forwards whole rows (steps x..x+y-2). T_L = x+y-2, T_B = (x-1) + x(y-1).
inline StepSchedule TorusDimensionByDimension(int x, int y) {
  StepSchedule s;
  auto id = [x](int i, int j) { return i + x * j; };
  for (int t = 1; t < x; ++t) {
    for (int j = 0; j < y; ++j) {
      for (int i = 0; i < x; ++i) {
        s.sends.push_back(
            Send(id(((i - t + 1) % x + x) % x, j), {Whole()}, id(i, j), id((i + 1) % x, j), t));
      }
    }
  }
  for (int t = 1; t < y; ++t) {
    for (int j = 0; j < y; ++j) {
      for (int i = 0; i < x; ++i) {
        int row = ((j - t + 1) % y + y) % y;
        for (int src = 0; src < x; ++src) {
          s.sends.push_back(Send(id(src, row), {Whole()}, id(i, j), id(i, (j + 1) % y), x - 1 + t));
        }
      }
    }
  }
  return s;
}

// dim-dimensional hypercube, unit duplex links, node v named "h<v>".
inline Topology Hypercube(int dim) {
  Topology g("hypercube");
  const int n = 1 << dim;
  for (int v = 0; v < n; ++v) g.AddCompute("h" + std::to_string(v));
  for (int v = 0; v < n; ++v) {
    for (int b = 0; b < dim; ++b) g.AddLink(v, v ^ (1 << b), Rational(1));
  }
  return g;
}

// Recursive doubling: at step t node v sends every shard it holds to v xor 2^(t-1); one send
// per (source, step, link). T_L = dim, T_B = sum_t 2^(t-1) = N-1.
inline StepSchedule HypercubeRecursiveDoubling(int dim) {
  StepSchedule s;
  const int n = 1 << dim;
  s.sends.reserve(static_cast<std::size_t>(n) * (n - 1));
  for (int t = 1; t <= dim; ++t) {
    const int bit = 1 << (t - 1);
    for (int v = 0; v < n; ++v) {
      for (int m = 0; m < bit; ++m) s.sends.push_back(Send(v ^ m, {Whole()}, v, v ^ bit, t));
    }
  }
  return s;
}

// BFB allgather on the hypercube (Def. 15): node u at distance t from s gets 1/t of s's shard
// from each of its t neighbours w at distance t-1, the piece indexed by the rank of the bit
// in which w and u differ among the bits of s xor u. BW optimal: T_B = (N-1)/dim (Thm 17).
inline StepSchedule HypercubeBfb(int dim) {
  StepSchedule s;
  const int n = 1 << dim;
  for (int src = 0; src < n; ++src) {
    for (int u = 0; u < n; ++u) {
      int diff = src ^ u;
      int t = __builtin_popcount(diff);
      if (t == 0) continue;
      int rank = 0;
      for (int b = 0; b < dim; ++b) {
        if (!(diff >> b & 1)) continue;
        s.sends.push_back(Send(src, {Part(rank, t)}, u ^ (1 << b), u, t));
        ++rank;
      }
    }
  }
  return s;
}

// Reverse schedule (seed 000 Def. 7): ((v,C),(u,w),t) -> ((v,C),(w,u),T-t+1).
inline StepSchedule Reverse(const StepSchedule& s) {
  int tmax = 0;
  for (const StepSend& e : s.sends) tmax = std::max(tmax, e.step);
  StepSchedule r = s;
  for (StepSend& e : r.sends) {
    std::swap(e.from, e.to);
    e.step = tmax - e.step + 1;
  }
  return r;
}

// Topology of experiments/topologies/two_cluster.json (seed 004 Figure 1a) rebuilt by hand:
// c11..c14 on switch s1, c21..c24 on s2 (duplex, bandwidth 10), every compute node also on the
// global switch s0 (duplex, bandwidth 1).
inline Topology TwoCluster() {
  Topology g("two_cluster");
  for (const char* name : {"c11", "c12", "c13", "c14", "c21", "c22", "c23", "c24"})
    g.AddCompute(name);
  int s1 = g.AddSwitch("s1"), s2 = g.AddSwitch("s2"), s0 = g.AddSwitch("s0");
  for (int i = 0; i < 4; ++i) {
    g.AddDuplexLink(i, s1, Rational(10));
    g.AddDuplexLink(4 + i, s2, Rational(10));
  }
  for (int i = 0; i < 8; ++i) g.AddDuplexLink(i, s0, Rational(1));
  return g;
}

// Pipeline allgather on TwoCluster with U = 1, k = 1 (seed 004 §2: 1/x* = 4/4b, U = 1/b,
// k = 1): the tree of c1r reaches its cluster mates through s1 and c2r through s0; c2r
// forwards to its mates through s2 (symmetrically for cluster 2). Loads: c1r -> s0 and
// s0 -> c2r carry 1 tree (1/1); c1r -> s1 carries 3 + 3 = 6 (6/10). Ratio = 1 = the cut
// ratio of S* = {s1, c11..c14}: |S ∩ V_c| / B+(S) = 4/4: optimal, certified.
inline PipelineSchedule TwoClusterPipeline() {
  const Topology g = TwoCluster();
  auto id = [&g](const std::string& name) { return *g.FindNode(name); };
  PipelineSchedule p;
  p.collective = Collective::kAllgather;
  p.U = Rational(1);
  p.k = 1;
  p.ratio = Rational(1);
  const char* c1[] = {"c11", "c12", "c13", "c14"};
  const char* c2[] = {"c21", "c22", "c23", "c24"};
  for (int side = 0; side < 2; ++side) {
    const char** mine = side == 0 ? c1 : c2;
    const char** other = side == 0 ? c2 : c1;
    const std::string sw = side == 0 ? "s1" : "s2", osw = side == 0 ? "s2" : "s1";
    for (int r = 0; r < 4; ++r) {
      PipelineTree t;
      t.root = id(mine[r]);
      t.multiplicity = 1;
      for (int q = 0; q < 4; ++q) {
        if (q == r) continue;
        t.edges.push_back({id(mine[r]), id(mine[q]), {{{id(mine[r]), id(sw), id(mine[q])}, 1}}});
      }
      t.edges.push_back({id(mine[r]), id(other[r]), {{{id(mine[r]), id("s0"), id(other[r])}, 1}}});
      for (int q = 0; q < 4; ++q) {
        if (q == r) continue;
        t.edges.push_back(
            {id(other[r]), id(other[q]), {{{id(other[r]), id(osw), id(other[q])}, 1}}});
      }
      p.trees.push_back(std::move(t));
    }
  }
  p.bottleneck_cut = std::vector<int>{id("s1"), id("c11"), id("c12"), id("c13"), id("c14")};
  return p;
}

// The group element Π generators[i]^e[i] of a symmetric schedule as a permutation of n nodes
// (node -> image), applied generator by generator. O(Σ e · n).
inline std::vector<int> SymmetricElementForTest(const SymmetricPipelineSchedule& s,
                                                const std::vector<std::int64_t>& e, std::size_t n) {
  std::vector<int> p(n);
  for (std::size_t v = 0; v < n; ++v) p[v] = static_cast<int>(v);
  for (std::size_t i = 0; i < e.size(); ++i) {
    for (std::int64_t t = 0; t < e[i]; ++t) {
      for (int& x : p) x = s.generators[i][x];
    }
  }
  return p;
}

// The plain schedule a symmetric one stands for, written here from the format's definition
// (docs/symmetry.md), not by the format's ExpandSymmetricPipelineSchedule: each root entry's
// element Π generators[i]^exponents[i] applied to its representative's trees, phases likewise.
// The permutations act on generators[0].size() nodes, or on `num_nodes` when a schedule (or
// phase) has no generators. O(size of the expansion + Σ exponents · N).
inline PipelineSchedule ExpandSymmetricForTest(const SymmetricPipelineSchedule& s, int num_nodes) {
  PipelineSchedule out;
  out.collective = s.collective;
  out.ratio = s.ratio;
  out.U = s.U;
  out.k = s.k;
  out.bottleneck_cut = s.bottleneck_cut;
  out.single_node_cuts = s.single_node_cuts;
  for (const SymmetricPipelineSchedule& p : s.phases)
    out.phases.push_back(ExpandSymmetricForTest(p, num_nodes));
  const std::size_t n =
      s.generators.empty() ? static_cast<std::size_t>(num_nodes) : s.generators[0].size();
  for (const SymmetricRoot& root : s.roots) {
    const std::vector<int> h = SymmetricElementForTest(s, root.exponents, n);
    for (PipelineTree t : s.representatives[root.representative].trees) {
      t.root = h[t.root];
      for (PipelineTreeEdge& e : t.edges) {
        e.from = h[e.from];
        e.to = h[e.to];
        for (PipelineRoute& r : e.routes) {
          for (int& v : r.path) v = h[v];
        }
      }
      out.trees.push_back(std::move(t));
    }
  }
  return out;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_PROOFS_CHECK_SCHEDULE_FIXTURES_H_
