#include "graphs/generators/switch_topologies.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

void RequireAtLeast(std::int64_t value, std::int64_t lo, const std::string& param,
                    const std::string& family) {
  if (value < lo) {
    throw std::invalid_argument(family + ": parameter " + param + " = " + std::to_string(value) +
                                " must be at least " + std::to_string(lo));
  }
}

void RequirePositive(const Rational& value, const std::string& param, const std::string& family) {
  if (value <= 0) {
    throw std::invalid_argument(family + ": parameter " + param + " = " + ToString(value) +
                                " must be positive");
  }
}

std::string S(std::int64_t v) { return std::to_string(v); }

}  // namespace

Topology TwoCluster(std::int64_t clusters, std::int64_t size, const Rational& local_bw,
                    const Rational& global_bw) {
  const std::string family = "twocluster";
  RequireAtLeast(clusters, 1, "clusters", family);
  RequireAtLeast(size, 1, "size", family);
  RequirePositive(local_bw, "local_bw", family);
  RequirePositive(global_bw, "global_bw", family);
  BigInt n = BigInt(clusters) * size;
  CheckTopologySize(n + clusters + 1, n * 4, family);

  Topology g("twocluster(" + S(clusters) + "," + S(size) + "," + ToString(local_bw) + "," +
             ToString(global_bw) + ")");
  const bool short_names = clusters <= 9 && size <= 9;
  std::vector<int> compute;
  compute.reserve(static_cast<std::size_t>(clusters * size));
  for (std::int64_t i = 1; i <= clusters; ++i) {
    for (std::int64_t j = 1; j <= size; ++j) {
      compute.push_back(g.AddCompute(short_names ? "c" + S(i) + S(j) : "c" + S(i) + "_" + S(j)));
    }
  }
  std::vector<int> local;
  for (std::int64_t i = 1; i <= clusters; ++i) local.push_back(g.AddSwitch("s" + S(i)));
  const int global = g.AddSwitch("s0");
  for (std::int64_t i = 0; i < clusters; ++i) {
    for (std::int64_t j = 0; j < size; ++j) {
      g.AddDuplexLink(compute[static_cast<std::size_t>(i * size + j)],
                      local[static_cast<std::size_t>(i)], local_bw);
    }
  }
  for (int c : compute) g.AddDuplexLink(c, global, global_bw);
  return g;
}

Topology FatTree(std::int64_t k) {
  const std::string family = "fattree";
  RequireAtLeast(k, 2, "k", family);
  if (k % 2 != 0) throw std::invalid_argument("fattree: parameter k = " + S(k) + " must be even");
  BigInt bk = k;
  BigInt hosts = bk * bk * bk / 4;
  BigInt switches = bk * bk + bk * bk / 4;  // k pods × k switches + (k/2)^2 cores
  // Duplex links: hosts-edge k^3/4, edge-agg k^3/4, agg-core k^3/4; two directed each.
  CheckTopologySize(hosts + switches, hosts * 6, family);

  const std::int64_t half = k / 2;
  Topology g("fattree(" + S(k) + ")");
  for (std::int64_t p = 0; p < k; ++p) {
    for (std::int64_t e = 0; e < half; ++e) {
      for (std::int64_t h = 0; h < half; ++h) g.AddCompute("p" + S(p) + "e" + S(e) + "h" + S(h));
    }
  }
  std::vector<int> edge, agg, core;
  for (std::int64_t p = 0; p < k; ++p) {
    for (std::int64_t e = 0; e < half; ++e) edge.push_back(g.AddSwitch("p" + S(p) + "e" + S(e)));
  }
  for (std::int64_t p = 0; p < k; ++p) {
    for (std::int64_t a = 0; a < half; ++a) agg.push_back(g.AddSwitch("p" + S(p) + "a" + S(a)));
  }
  for (std::int64_t c = 0; c < half * half; ++c) core.push_back(g.AddSwitch("core" + S(c)));
  const Rational one(1);
  int host = 0;
  for (std::int64_t p = 0; p < k; ++p) {
    for (std::int64_t e = 0; e < half; ++e) {
      int sw = edge[static_cast<std::size_t>(p * half + e)];
      for (std::int64_t h = 0; h < half; ++h) g.AddDuplexLink(host++, sw, one);
      for (std::int64_t a = 0; a < half; ++a)
        g.AddDuplexLink(sw, agg[static_cast<std::size_t>(p * half + a)], one);
    }
  }
  for (std::int64_t p = 0; p < k; ++p) {
    for (std::int64_t a = 0; a < half; ++a) {
      for (std::int64_t j = 0; j < half; ++j) {
        g.AddDuplexLink(agg[static_cast<std::size_t>(p * half + a)],
                        core[static_cast<std::size_t>(a * half + j)], one);
      }
    }
  }
  return g;
}

Topology Dragonfly(std::int64_t a, std::int64_t p, std::int64_t h) {
  const std::string family = "dragonfly";
  RequireAtLeast(a, 1, "a", family);
  RequireAtLeast(p, 1, "p", family);
  RequireAtLeast(h, 1, "h", family);
  BigInt groups = BigInt(a) * h + 1;
  BigInt routers = groups * a;
  BigInt terminals = routers * p;
  // Directed links: terminals 2·routers·p, local 2·C(a,2)·groups, global 2·C(groups,2).
  BigInt links = 2 * terminals + groups * a * (a - 1) + groups * (groups - 1);
  CheckTopologySize(routers + terminals, links, family);

  const std::int64_t g_count = a * h + 1;
  Topology g("dragonfly(" + S(a) + "," + S(p) + "," + S(h) + ")");
  for (std::int64_t G = 0; G < g_count; ++G) {
    for (std::int64_t r = 0; r < a; ++r) {
      for (std::int64_t t = 0; t < p; ++t) g.AddCompute("g" + S(G) + "r" + S(r) + "t" + S(t));
    }
  }
  std::vector<int> router;
  for (std::int64_t G = 0; G < g_count; ++G) {
    for (std::int64_t r = 0; r < a; ++r) router.push_back(g.AddSwitch("g" + S(G) + "r" + S(r)));
  }
  auto R = [&](std::int64_t G, std::int64_t r) {
    return router[static_cast<std::size_t>(G * a + r)];
  };
  const Rational one(1);
  int term = 0;
  for (std::int64_t G = 0; G < g_count; ++G) {
    for (std::int64_t r = 0; r < a; ++r) {
      for (std::int64_t t = 0; t < p; ++t) g.AddDuplexLink(term++, R(G, r), one);
    }
  }
  for (std::int64_t G = 0; G < g_count; ++G) {
    for (std::int64_t r = 0; r < a; ++r) {
      for (std::int64_t s = r + 1; s < a; ++s) g.AddDuplexLink(R(G, r), R(G, s), one);
    }
  }
  // Global links: port o of group G goes to group (G + o + 1) mod g on port g - 2 - o.
  for (std::int64_t G = 0; G < g_count; ++G) {
    for (std::int64_t o = 0; o < a * h; ++o) {
      std::int64_t target = (G + o + 1) % g_count;
      if (target < G) continue;  // added from the other end
      std::int64_t back = g_count - 2 - o;
      g.AddDuplexLink(R(G, o / h), R(target, back / h), one);
    }
  }
  return g;
}

Topology GpuBoxes(std::int64_t boxes, std::int64_t gpus, const Rational& box_bw,
                  const Rational& nic_bw, std::int64_t r) {
  const std::string family = "gpuboxes";
  RequireAtLeast(boxes, 1, "boxes", family);
  RequireAtLeast(gpus, 1, "g", family);
  RequireAtLeast(r, 1, "r", family);
  if (r > gpus) {
    throw std::invalid_argument("gpuboxes: parameter r = " + S(r) +
                                " (rails) must be at most g = " + S(gpus) + " (GPUs per box)");
  }
  RequirePositive(box_bw, "B_box", family);
  RequirePositive(nic_bw, "B_nic", family);
  BigInt n = BigInt(boxes) * gpus;
  CheckTopologySize(n + boxes + r, n * 4, family);

  Topology g("gpuboxes(" + S(boxes) + "," + S(gpus) + "," + ToString(box_bw) + "," +
             ToString(nic_bw) + "," + S(r) + ")");
  for (std::int64_t b = 0; b < boxes; ++b) {
    for (std::int64_t i = 0; i < gpus; ++i) g.AddCompute("b" + S(b) + "g" + S(i));
  }
  std::vector<int> box_switch, rail;
  for (std::int64_t b = 0; b < boxes; ++b) box_switch.push_back(g.AddSwitch("b" + S(b) + "sw"));
  for (std::int64_t j = 0; j < r; ++j) rail.push_back(g.AddSwitch("rail" + S(j)));
  int gpu = 0;
  for (std::int64_t b = 0; b < boxes; ++b) {
    for (std::int64_t i = 0; i < gpus; ++i, ++gpu) {
      g.AddDuplexLink(gpu, box_switch[static_cast<std::size_t>(b)], box_bw);
      g.AddDuplexLink(gpu, rail[static_cast<std::size_t>(i % r)], nic_bw);
    }
  }
  return g;
}

int Dgx1NvLinks(int i, int j) {
  // Row i: NVLinks from GPU i to GPUs 0..7 (DGX-1 with Tesla V100, `nvidia-smi topo -m`).
  static constexpr int kLinks[8][8] = {
      {0, 1, 1, 2, 2, 0, 0, 0},  //
      {1, 0, 2, 1, 0, 2, 0, 0},  //
      {1, 2, 0, 2, 0, 0, 1, 0},  //
      {2, 1, 2, 0, 0, 0, 0, 1},  //
      {2, 0, 0, 0, 0, 1, 1, 2},  //
      {0, 2, 0, 0, 1, 0, 2, 1},  //
      {0, 0, 1, 0, 1, 2, 0, 2},  //
      {0, 0, 0, 1, 2, 1, 2, 0},
  };
  if (i < 0 || i > 7 || j < 0 || j > 7) return 0;
  return kLinks[i][j];
}

Topology Dgx1(std::int64_t boxes, const Rational& nic_bw) {
  const std::string family = "dgx1";
  RequireAtLeast(boxes, 1, "boxes", family);
  RequirePositive(nic_bw, "nic_bw", family);
  BigInt b_count = boxes;
  CheckTopologySize(b_count * 8 + 1, b_count * (24 + 16), family);

  Topology g(nic_bw == 1 ? "dgx1(" + S(boxes) + ")"
                         : "dgx1(" + S(boxes) + "," + ToString(nic_bw) + ")");
  for (std::int64_t b = 0; b < boxes; ++b) {
    for (int i = 0; i < 8; ++i) g.AddCompute("b" + S(b) + "g" + S(i));
  }
  for (std::int64_t b = 0; b < boxes; ++b) {
    const int base = static_cast<int>(b * 8);
    for (int i = 0; i < 8; ++i) {
      for (int j = i + 1; j < 8; ++j) {
        if (int m = Dgx1NvLinks(i, j); m > 0) g.AddDuplexLink(base + i, base + j, Rational(m), m);
      }
    }
  }
  if (boxes > 1) {
    const int sw = g.AddSwitch("sw");
    for (std::int64_t v = 0; v < boxes * 8; ++v) g.AddDuplexLink(static_cast<int>(v), sw, nic_bw);
  }
  return g;
}

}  // namespace collsynth
