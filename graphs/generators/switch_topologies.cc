#include "graphs/generators/switch_topologies.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphs/generators/family_args.h"
#include "graphs/generators/generator_parts.h"

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
  // Cluster rotation (hosts and cluster switches; s0 fixed) and host rotation in every
  // cluster: Z_C x Z_size, acting regularly on the hosts (one element per host).
  const int hosts = static_cast<int>(clusters * size), cl = static_cast<int>(clusters),
            sz = static_cast<int>(size);
  SetAutomorphisms(
      g, {[hosts, cl, sz](int v) {
            if (v < hosts) return (v / sz + 1) % cl * sz + v % sz;
            if (v < hosts + cl) return hosts + (v - hosts + 1) % cl;
            return v;
          },
          [hosts, sz](int v) { return v < hosts ? v / sz * sz + (v % sz + 1) % sz : v; }});
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
  // Node order: hosts (p, e, h) at (p·half + e)·half + h, edge switches at H + p·half + e,
  // aggregation switches at H + k·half + p·half + a, cores at H + 2·k·half + a·half + j.
  // Generators: pod rotation; host rotation under every edge switch; edge-switch rotation in
  // every pod (hosts move along); aggregation index a -> a+1 in every pod with the core groups;
  // core rotation within every core group. The first three generate Z_k x Z_{k/2} x Z_{k/2},
  // which acts regularly on the hosts; the last two fix every host.
  const int kk = static_cast<int>(k), hf = static_cast<int>(half), hosts_n = kk * hf * hf;
  const int edge0 = hosts_n, agg0 = hosts_n + kk * hf, core0 = hosts_n + 2 * kk * hf;
  SetAutomorphisms(g, {[=](int v) {
                         if (v < edge0) return (v + hf * hf) % hosts_n;
                         if (v < agg0) return edge0 + (v - edge0 + hf) % (kk * hf);
                         if (v < core0) return agg0 + (v - agg0 + hf) % (kk * hf);
                         return v;
                       },
                       [=](int v) { return v < edge0 ? v / hf * hf + (v % hf + 1) % hf : v; },
                       [=](int v) {
                         if (v < edge0) {  // host (p, e, h): e -> e+1 in its pod
                           const int pod = v / (hf * hf), rest = v % (hf * hf);
                           return pod * hf * hf + (rest + hf) % (hf * hf);
                         }
                         if (v < agg0) {
                           const int pod = (v - edge0) / hf, e = (v - edge0) % hf;
                           return edge0 + pod * hf + (e + 1) % hf;
                         }
                         return v;
                       },
                       [=](int v) {
                         if (v >= agg0 && v < core0) {
                           const int p = (v - agg0) / hf, a = (v - agg0) % hf;
                           return agg0 + p * hf + (a + 1) % hf;
                         }
                         if (v >= core0) {
                           const int a = (v - core0) / hf, j = (v - core0) % hf;
                           return core0 + (a + 1) % hf * hf + j;
                         }
                         return v;
                       },
                       [=](int v) {
                         if (v < core0) return v;
                         const int a = (v - core0) / hf, j = (v - core0) % hf;
                         return core0 + a * hf + (j + 1) % hf;
                       }});
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
  // Terminal (G, r, t) at (G·a + r)·p + t, router (G, r) at T + G·a + r. Generators: group
  // rotation G -> G+1 (global port o always leads o+1 groups on); the reflection G -> -G,
  // r -> a-1-r (port o becomes port g-2-o, the other end of the same link); terminal rotation
  // under every router.
  const int A = static_cast<int>(a), P = static_cast<int>(p), NG = static_cast<int>(g_count),
            T = NG * A * P;
  SetAutomorphisms(g, {[=](int v) {
                         if (v < T) return (v + A * P) % T;
                         return T + (v - T + A) % (NG * A);
                       },
                       [=](int v) {
                         if (v < T) {
                           const int G = v / (A * P), r = v / P % A, t = v % P;
                           return ((NG - G) % NG * A + (A - 1 - r)) * P + t;
                         }
                         const int G = (v - T) / A, r = (v - T) % A;
                         return T + (NG - G) % NG * A + (A - 1 - r);
                       },
                       [=](int v) { return v < T ? v / P * P + (v % P + 1) % P : v; }});
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
  // GPU (b, i) at b·g + i, box switch b at n + b, rail j at n + boxes + j. Generators: box
  // rotation; rail rotation (GPU j + t·r -> j' + t·r, rail j -> j') within each class of rails
  // with the same number of GPUs per box (rails 0..g mod r - 1 carry one GPU more when r does
  // not divide g); rotation of the GPUs of each rail within every box. GPU orbits: 1 when r divides
  // g, else 2.
  const int B = static_cast<int>(boxes), G = static_cast<int>(gpus), Rr = static_cast<int>(r),
            N = B * G, extra = G % Rr;
  auto next_rail = [=](int j) {
    if (extra == 0) return (j + 1) % Rr;
    if (j < extra) return (j + 1) % extra;
    return extra + (j - extra + 1) % (Rr - extra);
  };
  auto per_rail = [=](int j) { return G / Rr + (j < extra ? 1 : 0); };
  SetAutomorphisms(g, {[=](int v) {
                         if (v < N) return (v + G) % N;
                         if (v < N + B) return N + (v - N + 1) % B;
                         return v;
                       },
                       [=](int v) {
                         if (v < N) return v / G * G + next_rail(v % G % Rr) + v % G / Rr * Rr;
                         if (v < N + B) return v;
                         return N + B + next_rail(v - N - B);
                       },
                       [=](int v) {
                         if (v >= N) return v;
                         const int i = v % G, j = i % Rr, t = i / Rr;
                         return v / G * G + j + (t + 1) % per_rail(j) * Rr;
                       }});
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
  // Box rotation (the switch fixed) and, in every box, GPU i -> i xor 1 and i -> i xor 4
  // (both keep the NVLink counts of Dgx1NvLinks).
  const int N = static_cast<int>(boxes * 8);
  SetAutomorphisms(
      g, {[N](int v) { return v < N ? (v + 8) % N : v; }, [N](int v) { return v < N ? v ^ 1 : v; },
          [N](int v) { return v < N ? v ^ 4 : v; }});
  return g;
}

}  // namespace collsynth
