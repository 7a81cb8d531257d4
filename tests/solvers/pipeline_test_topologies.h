// Small topologies for the seed-004 pipeline tests, built directly (independent of the
// generator library so that a generator bug cannot hide a solver bug), plus seeded random
// Eulerian digraphs with switches and a brute-force evaluation of eq. (1).
#ifndef COLLSYNTH_TESTS_SOLVERS_PIPELINE_TEST_TOPOLOGIES_H_
#define COLLSYNTH_TESTS_SOLVERS_PIPELINE_TEST_TOPOLOGIES_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"

namespace collsynth::testing {

// Bidirectional ring of n compute nodes; link i <-> i+1 has bandwidth bw[i % bw.size()].
inline Topology RingTopology(int n, const std::vector<Rational>& bw) {
  Topology g("ring");
  for (int i = 0; i < n; ++i) g.AddCompute("r" + std::to_string(i));
  for (int i = 0; i < n; ++i) g.AddDuplexLink(i, (i + 1) % n, bw[i % bw.size()]);
  return g;
}

// d-dimensional torus with the given side lengths (each >= 3), unit bandwidth.
inline Topology TorusTopology(const std::vector<int>& dims) {
  Topology g("torus");
  int n = 1;
  for (int d : dims) n *= d;
  for (int i = 0; i < n; ++i) g.AddCompute("t" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    int stride = 1;
    for (int d : dims) {
      int coord = (i / stride) % d;
      int j = i - coord * stride + ((coord + 1) % d) * stride;
      g.AddDuplexLink(i, j, 1);
      stride *= d;
    }
  }
  return g;
}

inline Topology HypercubeTopology(int dim) {
  Topology g("hypercube");
  int n = 1 << dim;
  for (int i = 0; i < n; ++i) g.AddCompute("h" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    for (int b = 0; b < dim; ++b) {
      int j = i ^ (1 << b);
      if (i < j) g.AddDuplexLink(i, j, 1);
    }
  }
  return g;
}

// Seed 004 Figure 1: clusters of `size` compute nodes; local switch bandwidth `local`,
// global switch bandwidth `global`.
inline Topology TwoClusterTopology(int clusters = 2, int size = 4, Rational local = 10,
                                   Rational global = 1) {
  Topology g("two_cluster");
  for (int c = 1; c <= clusters; ++c) {
    for (int j = 1; j <= size; ++j) g.AddCompute("c" + std::to_string(c) + std::to_string(j));
  }
  for (int c = 1; c <= clusters; ++c) g.AddSwitch("s" + std::to_string(c));
  int s0 = g.AddSwitch("s0");
  for (int c = 0; c < clusters; ++c) {
    for (int j = 0; j < size; ++j) {
      int v = c * size + j;
      g.AddDuplexLink(v, clusters * size + c, local);
      g.AddDuplexLink(v, s0, global);
    }
  }
  return g;
}

// The switch-free graph G* of seed 004 Figure 2b: in each cluster a ring of bandwidth
// `local` (c_i1 -> c_i2 -> ... -> c_i1), and c_1j <-> c_2j across with bandwidth `global`.
inline Topology TwoClusterSplitTopology(Rational local = 10, Rational global = 1) {
  Topology g("two_cluster_split");
  for (int c = 1; c <= 2; ++c) {
    for (int j = 1; j <= 4; ++j) g.AddCompute("c" + std::to_string(c) + std::to_string(j));
  }
  for (int c = 0; c < 2; ++c) {
    for (int j = 0; j < 4; ++j) g.AddLink(c * 4 + j, c * 4 + (j + 1) % 4, local);
  }
  for (int j = 0; j < 4; ++j) g.AddDuplexLink(j, 4 + j, global);
  return g;
}

// DGX-1 (V100): two fully connected quads {0..3}, {4..7} plus i <-> i+4, with pairs 0-3,
// 1-2, 4-7, 5-6 and every i <-> i+4 doubled: 6 NVLinks per GPU, unit bandwidth each.
inline Topology Dgx1Topology() {
  Topology g("dgx1");
  for (int i = 0; i < 8; ++i) g.AddCompute("gpu" + std::to_string(i));
  auto links = [](int a, int b) {
    if (a / 4 == b / 4) return (a % 4 + b % 4 == 3) ? 2 : 1;
    return (a % 4 == b % 4) ? 2 : 0;
  };
  for (int a = 0; a < 8; ++a) {
    for (int b = a + 1; b < 8; ++b) {
      int m = links(a, b);
      if (m > 0) g.AddDuplexLink(a, b, m, m);
    }
  }
  return g;
}

// `boxes` boxes of `gpus` GPUs; each GPU links to its box switch (bandwidth box_bw) and to
// its own NIC (a switch, nic_bw); NIC of GPU i links to leaf switch i % leaves (nic_bw).
// 8 boxes x 8 GPUs with 2 leaves has 64 + 8 + 64 + 2 = 138 nodes.
inline Topology GpuClusterTopology(int boxes, int gpus, Rational box_bw, Rational nic_bw,
                                   int leaves) {
  Topology g("gpu_cluster");
  for (int b = 0; b < boxes; ++b) {
    for (int i = 0; i < gpus; ++i) g.AddCompute("b" + std::to_string(b) + "g" + std::to_string(i));
  }
  std::vector<int> box_sw, leaf;
  for (int b = 0; b < boxes; ++b) box_sw.push_back(g.AddSwitch("b" + std::to_string(b) + "sw"));
  for (int l = 0; l < leaves; ++l) leaf.push_back(g.AddSwitch("leaf" + std::to_string(l)));
  for (int b = 0; b < boxes; ++b) {
    for (int i = 0; i < gpus; ++i) {
      int v = b * gpus + i;
      int nic = g.AddSwitch("b" + std::to_string(b) + "nic" + std::to_string(i));
      g.AddDuplexLink(v, box_sw[b], box_bw);
      g.AddDuplexLink(v, nic, nic_bw);
      g.AddDuplexLink(nic, leaf[i % leaves], nic_bw);
    }
  }
  return g;
}

// k-ary fat-tree (k even): k^3/4 hosts, unit bandwidth.
inline Topology FatTreeTopology(int k) {
  Topology g("fattree");
  int half = k / 2;
  std::vector<int> hosts;
  for (int p = 0; p < k; ++p) {
    for (int e = 0; e < half; ++e) {
      for (int h = 0; h < half; ++h) {
        hosts.push_back(g.AddCompute("p" + std::to_string(p) + "e" + std::to_string(e) + "h" +
                                     std::to_string(h)));
      }
    }
  }
  std::vector<int> core;
  for (int c = 0; c < half * half; ++c) core.push_back(g.AddSwitch("core" + std::to_string(c)));
  int hi = 0;
  for (int p = 0; p < k; ++p) {
    std::vector<int> edge, agg;
    for (int e = 0; e < half; ++e)
      edge.push_back(g.AddSwitch("p" + std::to_string(p) + "e" + std::to_string(e)));
    for (int a = 0; a < half; ++a)
      agg.push_back(g.AddSwitch("p" + std::to_string(p) + "a" + std::to_string(a)));
    for (int e = 0; e < half; ++e) {
      for (int h = 0; h < half; ++h) g.AddDuplexLink(hosts[hi++], edge[e], 1);
      for (int a = 0; a < half; ++a) g.AddDuplexLink(edge[e], agg[a], 1);
    }
    for (int a = 0; a < half; ++a) {
      for (int c = 0; c < half; ++c) g.AddDuplexLink(agg[a], core[a * half + c], 1);
    }
  }
  return g;
}

// Random Eulerian, strongly connected digraph: a Hamiltonian cycle through every node
// plus `extra_cycles` random closed walks, each with a random integer bandwidth in
// [1, max_bw] (a sum of cycles is Eulerian). Nodes 0..compute-1 are compute nodes, the
// rest switches.
inline Topology RandomEulerianTopology(std::mt19937_64& rng, int compute, int switches,
                                       int extra_cycles, int max_bw) {
  Topology g("random");
  for (int i = 0; i < compute; ++i) g.AddCompute("c" + std::to_string(i));
  for (int i = 0; i < switches; ++i) g.AddSwitch("s" + std::to_string(i));
  int n = compute + switches;
  std::uniform_int_distribution<int> bw(1, max_bw);
  auto add_cycle = [&](std::vector<int> nodes) {
    Rational b = bw(rng);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      int a = nodes[i], c = nodes[(i + 1) % nodes.size()];
      if (a != c) g.AddLink(a, c, b);
    }
  };
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  add_cycle(perm);
  std::uniform_int_distribution<int> len(2, std::max(2, n));
  std::uniform_int_distribution<int> node(0, n - 1);
  for (int c = 0; c < extra_cycles; ++c) {
    int l = len(rng);
    std::vector<int> walk;
    for (int i = 0; i < l; ++i) {
      int v = node(rng);
      if (!walk.empty() && walk.back() == v) continue;
      walk.push_back(v);
    }
    while (walk.size() >= 2 && walk.front() == walk.back()) walk.pop_back();
    if (walk.size() >= 2) add_cycle(walk);
  }
  return g;
}

// Brute force of eq. (1): max over all S ⊂ V with S ⊉ V_c (and S ∩ V_c nonempty) of
// |S ∩ V_c| / B+(S). O(2^V · E).
inline Rational BruteForceAllgatherRatio(const Topology& g) {
  int n = g.num_nodes();
  Rational best = 0;
  for (std::uint64_t mask = 1; mask < (std::uint64_t{1} << n); ++mask) {
    int in_c = 0;
    for (int v = 0; v < n; ++v) in_c += ((mask >> v) & 1) && g.IsCompute(v);
    if (in_c == 0 || in_c == g.num_compute()) continue;
    Rational out = 0;
    for (const Link& l : g.links()) {
      if (((mask >> l.from) & 1) && !((mask >> l.to) & 1)) out += l.bandwidth;
    }
    Rational r = Rational(in_c) / out;
    if (r > best) best = r;
  }
  return best;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_SOLVERS_PIPELINE_TEST_TOPOLOGIES_H_
