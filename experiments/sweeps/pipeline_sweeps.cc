#include "experiments/sweeps/pipeline_sweeps.h"

#include <algorithm>
#include <random>

#include "graphs/expression.h"
#include "proofs_check/pipeline_checker.h"
#include "solvers/pipeline/allgather_optimum.h"
#include "solvers/pipeline/collective_bounds.h"
#include "solvers/pipeline/edge_splitting.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace collsynth::sweeps {
namespace {

std::string S(std::int64_t x) { return std::to_string(x); }

std::string Label(const Topology& g) { return g.name(); }

// max over S ⊂ V, S ⊉ V_c, S ∩ V_c ≠ ∅ of |S ∩ V_c| / B+(S), by enumeration.
Rational BruteForceRatio(const Topology& g) {
  const int n = g.num_nodes();
  Rational best = 0;
  for (std::uint32_t s = 1; s < (1u << n); ++s) {
    int in_c = 0, all_c = 0;
    for (int v = 0; v < n; ++v) {
      if (!g.IsCompute(v)) continue;
      ++all_c;
      in_c += s >> v & 1;
    }
    if (in_c == 0 || in_c == all_c) continue;
    Rational out = 0;
    for (const Link& l : g.links()) {
      if ((s >> l.from & 1) && !(s >> l.to & 1)) out += l.bandwidth;
    }
    if (out > 0) best = std::max(best, Rational(in_c) / out);
  }
  return best;
}

}  // namespace

Topology RandomEulerianTopology(std::int64_t i) {
  std::mt19937_64 rng(0x5eed0004ULL + static_cast<std::uint64_t>(i));
  int c = 3 + static_cast<int>(rng() % 4), s = static_cast<int>(rng() % 3);
  Topology g("random-eulerian(" + S(i) + ")");
  for (int v = 0; v < c; ++v) g.AddCompute("c" + S(v));
  for (int v = 0; v < s; ++v) g.AddSwitch("s" + S(v));
  const int n = c + s;
  // A duplex spanning path keeps it connected; duplex links keep it Eulerian.
  std::vector<int> order(n);
  for (int v = 0; v < n; ++v) order[v] = v;
  std::shuffle(order.begin(), order.end(), rng);
  for (int v = 0; v + 1 < n; ++v)
    g.AddDuplexLink(order[v], order[v + 1], Rational(1 + static_cast<int>(rng() % 3)));
  int extra = static_cast<int>(rng() % (n + 1));
  for (int k = 0; k < extra; ++k) {
    int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
    if (a != b) g.AddDuplexLink(a, b, Rational(1 + static_cast<int>(rng() % 3)));
  }
  return g;
}

SweepReport SweepPipelineTheorem1(const SweepRange& r,
                                  const std::function<Rational(const Topology&)>& ratio_fn) {
  SweepReport rep;
  rep.name = "s004-thm1";
  for (std::int64_t i = r.lo; i <= r.hi; ++i) {
    Topology g = RandomEulerianTopology(i);
    Rational want = BruteForceRatio(g);
    Rational got = ratio_fn(g);
    ++rep.instances;
    if (got != want)
      rep.Fail(Label(g),
               "flow ratio " + ToString(got) + ", brute-force max cut ratio " + ToString(want), g);
    // The oracle itself: feasible at ratio*, infeasible just below.
    if (!AllgatherRatioFeasible(g, want) || AllgatherRatioFeasible(g, want * Rational(999, 1000))) {
      rep.Fail(Label(g), "Thm 1's flow test is not tight at ratio* = " + ToString(want), g);
    }
  }
  return rep;
}

SweepReport SweepPipelineTheorem5(const SweepRange& r) {
  SweepReport rep;
  rep.name = "s004-thm5";
  for (std::int64_t i = r.lo; i <= r.hi; ++i) {
    Topology g = RandomEulerianTopology(i);
    AllgatherOptimum opt = ComputeAllgatherOptimum(g);
    // Trees exist iff min_v F(s, v; D_k) >= N·k on D = G({U·b_e}).
    CapacityGraph d = ScaledCapacityGraph(g, opt.U);
    std::vector<BigInt> src(g.num_nodes(), 0);
    for (int v : g.ComputeNodes()) src[v] = opt.k;
    BigInt conn = MinSourceConnectivity(g, d, src);
    BigInt need = opt.k * g.num_compute();
    PipelineOptions o;
    PipelineBuildResult b = BuildPipelineSchedule(g, o);
    PipelineCheckReport c = CheckPipelineSchedule(g, b.schedule);
    ++rep.instances;
    if (conn < need)
      rep.Fail(Label(g), "min_v F = " + ToString(conn) + " < N·k = " + ToString(need), g);
    if (!c.ok || c.ratio != opt.ratio) {
      rep.Fail(Label(g),
               "tree family rejected or not optimal: checker ratio " + ToString(c.ratio) + " vs " +
                   ToString(opt.ratio),
               g);
    }
  }
  return rep;
}

Topology RandomDirectedEulerianTopology(std::int64_t i) {
  std::mt19937_64 rng(0x5eed0005ULL + static_cast<std::uint64_t>(i));
  int c = 2 + static_cast<int>(rng() % 3), s = 1 + static_cast<int>(rng() % 3);
  Topology g("random-directed-eulerian(" + S(i) + ")");
  for (int v = 0; v < c; ++v) g.AddCompute("c" + S(v));
  for (int v = 0; v < s; ++v) g.AddSwitch("s" + S(v));
  const int n = c + s;
  auto cycle = [&](std::vector<int> walk) {  // a closed walk, one bandwidth: Eulerian
    Rational bw(2 + static_cast<int>(rng() % 6));
    for (std::size_t j = 0; j < walk.size(); ++j) {
      int a = walk[j], b = walk[(j + 1) % walk.size()];
      if (a != b) g.AddLink(a, b, bw);
    }
  };
  std::vector<int> order(n);
  for (int v = 0; v < n; ++v) order[v] = v;
  std::shuffle(order.begin(), order.end(), rng);
  cycle(order);  // a Hamiltonian cycle: strongly connected
  int extra = static_cast<int>(rng() % 4);
  for (int k = 0; k < extra; ++k) {
    std::vector<int> walk(2 + rng() % (n - 1));
    for (int& v : walk) v = static_cast<int>(rng() % n);
    cycle(walk);
  }
  return g;
}

void CheckTheorem5Floor(const Topology& g, TreeModel model, SweepReport* report, int* non_eulerian,
                        int* skipped) {
  SweepReport& rep = *report;
  const bool routed = model == TreeModel::kRouted;
  constexpr std::int64_t kBudget = 2000000;
  TreePackingBruteForce bf(g, model);
  for (std::int64_t k = 1; k <= 2; ++k) {
    Rational u = FixedKMinimalU(g, BigInt(k));
    std::vector<BigInt> balance(g.num_nodes(), 0);
    for (const Link& l : g.links()) {
      balance[l.from] += Floor(u * l.bandwidth);
      balance[l.to] -= Floor(u * l.bandwidth);
    }
    bool eulerian =
        std::all_of(balance.begin(), balance.end(), [](const BigInt& b) { return b == 0; });
    std::optional<bool> at = bf.Fits(BigInt(k), u, kBudget);
    Rational below = 0;  // the largest breakpoint of ⌊U·b_e⌋ below U*
    for (const Link& l : g.links())
      below = std::max(below, Rational(Ceil(u * l.bandwidth) - 1) / l.bandwidth);
    std::optional<bool> under =
        below > 0 ? bf.Fits(BigInt(k), below, kBudget) : std::optional<bool>(false);
    if (!at || !under) {
      ++*skipped;
      continue;
    }
    ++rep.instances;
    *non_eulerian += !eulerian;
    if (*under) rep.Fail(Label(g) + " k=" + S(k), "a packing fits below U* = " + ToString(u), g);
    if (!*at) {
      std::string sw;
      for (int v = 0; v < g.num_nodes(); ++v) {
        if (g.IsSwitch(v) && balance[v] != 0) {
          sw += (sw.empty() ? "" : ", ") + g.node(v).name + " out - in = " + ToString(balance[v]);
        }
      }
      rep.Fail(Label(g) + " k=" + S(k),
               "min_v F(s,v;D_k) >= N·k at U* = " + ToString(u) + " but no packing of " + S(k) +
                   (routed ? " routed" : " Steiner") + " trees per root in G({⌊U*·b_e⌋})" +
                   (eulerian ? " (Eulerian)" : " (not Eulerian: " + sw + ")"),
               g);
    }
  }
}

SweepReport SweepPipelineTheorem5Floor(const SweepRange& r, TreeModel model) {
  SweepReport rep;
  rep.name = model == TreeModel::kRouted ? "s004-thm5-floor-routed" : "s004-thm5-floor-steiner";
  int non_eulerian = 0, skipped = 0;
  for (std::int64_t i = r.lo; i <= r.hi; ++i) {
    CheckTheorem5Floor(RandomDirectedEulerianTopology(i), model, &rep, &non_eulerian, &skipped);
  }
  rep.notes.push_back(S(non_eulerian) + " of the floor graphs were not Eulerian");
  if (skipped) rep.notes.push_back(S(skipped) + " skipped (search budget)");
  return rep;
}

SweepReport SweepPipelineTheorem8(const SweepRange& r) {
  SweepReport rep;
  rep.name = "s004-thm8";
  for (std::int64_t i = r.lo; i <= r.hi; ++i) {
    Topology g = RandomEulerianTopology(i);
    if (g.num_switches() == 0) continue;
    AllgatherOptimum opt = ComputeAllgatherOptimum(g);
    CapacityGraph d = ScaledCapacityGraph(g, opt.U);
    std::vector<BigInt> src(g.num_nodes(), 0);
    for (int v : g.ComputeNodes()) src[v] = opt.k;
    BigInt need = opt.k * g.num_compute();
    SplitResult s = SplitOffSwitches(g, d, src, need);
    ++rep.instances;
    bool switch_left = false;
    for (const auto& [e, cap] : s.direct.capacity)
      switch_left |= g.IsSwitch(e.first) || g.IsSwitch(e.second);
    BigInt after = MinSourceConnectivity(g, s.direct, src);
    if (switch_left || after < need || s.preserved_connectivity < need) {
      rep.Fail(Label(g),
               "after splitting: min_v F = " + ToString(after) + " (need " + ToString(need) + ")" +
                   (switch_left ? ", a switch arc is left" : ""),
               g);
    }
  }
  return rep;
}

SweepReport SweepPipelineTheorem10(const SweepRange& r) {
  SweepReport rep;
  rep.name = "s004-thm10";
  for (std::int64_t i = r.lo; i <= r.hi; ++i) {
    std::mt19937_64 rng(0x7e10ULL + static_cast<std::uint64_t>(i));
    int n = 3 + static_cast<int>(rng() % 4);
    Topology g("random-digraph(" + S(i) + ")");
    for (int v = 0; v < n; ++v) g.AddCompute("c" + S(v));
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        if (a != b && rng() % 3 != 0) g.AddLink(a, b, Rational(1 + static_cast<int>(rng() % 3)));
      }
    }
    CapacityGraph d = ScaledCapacityGraph(g, 1);
    for (std::int64_t k = 1; k <= 4; ++k) {
      bool cut_ok = true;
      for (std::uint32_t s = 1; s + 1 < (1u << n); ++s) {
        BigInt out = 0;
        int size = 0;
        for (int v = 0; v < n; ++v) size += s >> v & 1;
        for (const auto& [e, cap] : d.capacity)
          if ((s >> e.first & 1) && !(s >> e.second & 1)) out += cap;
        if (out < BigInt(size) * k) cut_ok = false;
      }
      std::vector<BigInt> src(n, BigInt(k));
      bool flow_ok = MinSourceConnectivity(g, d, src) >= BigInt(n) * k;
      ++rep.instances;
      if (cut_ok != flow_ok) {
        rep.Fail(Label(g) + " k=" + S(k),
                 std::string("cut condition ") + (cut_ok ? "holds" : "fails") +
                     " but flow condition " + (flow_ok ? "holds" : "fails"),
                 g);
      }
    }
  }
  return rep;
}

SweepReport SweepPipelineTheorem15(const SweepRange& r) {
  SweepReport rep;
  rep.name = "s004-thm15";
  for (std::int64_t i = r.lo; i <= r.hi; ++i) {
    Topology g = RandomEulerianTopology(i);
    AllgatherOptimum opt = ComputeAllgatherOptimum(g);
    Rational min_b = g.link(0).bandwidth;
    for (const Link& l : g.links()) min_b = std::min(min_b, Rational(l.bandwidth / l.multiplicity));
    for (std::int64_t k = 1; k <= 3; ++k) {
      Rational u = FixedKMinimalU(g, BigInt(k));
      Rational bound = opt.ratio + 1 / (k * min_b);
      ++rep.instances;
      if (u / k > bound || u / k < opt.ratio) {
        rep.Fail(Label(g) + " k=" + S(k),
                 "U*/k = " + ToString(u / k) + " outside [ratio*, " + ToString(bound) + "]", g);
      }
    }
  }
  return rep;
}

SweepReport SweepPipelineTheorem19(const SweepRange& r) {
  SweepReport rep;
  rep.name = "s004-thm19";
  int applicable = 0;
  std::vector<Topology> instances;
  for (std::int64_t i = r.lo; i <= r.hi; ++i) {
    instances.push_back(RandomEulerianTopology(i));
    // Seed 004 Figure 1's family, where (a) applies: two clusters behind a global switch.
    std::int64_t size = 1 + i % 4, local = 1 + i % 3, global = 1 + (i / 3) % 3;
    instances.push_back(EvaluateTopologyExpression("twocluster(2," + S(size) + "," + S(local) +
                                                   "," + S(global) + ")"));
  }
  for (const Topology& g : instances) {
    AllgatherOptimum opt = ComputeAllgatherOptimum(g);
    AllreduceBounds b = ComputeAllreduceBounds(g, opt);
    ++rep.instances;
    if (b.rs_ag_ratio < b.lower_bound)
      rep.Fail(Label(g), "RS+AG " + ToString(b.rs_ag_ratio) + " below the lower bound", g);
    if (b.theorem19_a || b.theorem19_b) {
      ++applicable;
      if (b.rs_ag_ratio != b.lower_bound) {
        rep.Fail(Label(g),
                 std::string("Thm 19 (") + (b.theorem19_a ? "a" : "b") + ") applies but RS+AG = " +
                     ToString(b.rs_ag_ratio) + " > lower bound " + ToString(b.lower_bound),
                 g);
      }
    }
  }
  rep.notes.push_back(S(applicable) + " instances satisfied (a) or (b)");
  return rep;
}

std::vector<SweepSpec> PipelineSweeps() {
  return {
      {"s004-thm1",
       "seed 004 Thm 1",
       "min_v F(s,v;G_x) >= N x iff 1/x >= max_S |S∩V_c|/B+(S) (ratio* = brute force)",
       "instance indices (seeded random Eulerian topologies)",
       {1, 40},
       [](const SweepRange& r) {
         return SweepPipelineTheorem1(
             r, [](const Topology& g) { return ComputeAllgatherOptimum(g).ratio; });
       }},
      {"s004-thm5",
       "seed 004 Thm 5",
       "k edge-disjoint out-trees per root iff min_v F(s,v;D_k) >= N k",
       "instance indices",
       {1, 25},
       SweepPipelineTheorem5},
      {"s004-thm5-floor-steiner",
       "seed 004 Thm 5 on §2.4's G({⌊U*·b_e⌋})",
       "min_v F(s,v;D_k) >= N k => k Steiner out-trees per root (may branch at a switch), brute "
       "force",
       "instance indices (random directed Eulerian, <= 7 nodes), k = 1, 2",
       {1, 420},
       [](const SweepRange& r) { return SweepPipelineTheorem5Floor(r, TreeModel::kSteiner); }},
      {"s004-thm5-floor-routed",
       "seed 004 Thm 5 on §2.4's G({⌊U*·b_e⌋}), routed trees",
       "min_v F(s,v;D_k) >= N k => k routed trees per root (switches forward, never replicate), "
       "brute force",
       "instance indices (random directed Eulerian, <= 7 nodes), k = 1, 2",
       {1, 420},
       [](const SweepRange& r) { return SweepPipelineTheorem5Floor(r, TreeModel::kRouted); }},
      {"s004-thm8",
       "seed 004 Thm 8",
       "maximal split-off amounts keep min_v F(s,v;D_k) >= N k",
       "instance indices",
       {1, 25},
       SweepPipelineTheorem8},
      {"s004-thm10",
       "seed 004 Thm 10",
       "switchless: c(S, S̄) >= |S| k for all S iff min_v F(s,v;D_k) >= N k",
       "instance indices (random digraphs), k = 1..4",
       {1, 40},
       SweepPipelineTheorem10},
      {"s004-thm15",
       "seed 004 Thm 15",
       "fixed k: U*/k <= ratio* + 1/(k min b_e)",
       "instance indices, k = 1..3",
       {1, 25},
       SweepPipelineTheorem15},
      {"s004-thm19",
       "seed 004 Thm 19",
       "(a) |S*∩V_c| = N/2 or (b) S*∩V_c = {v'} with max μ => RS+AG optimal",
       "instance indices",
       {1, 40},
       SweepPipelineTheorem19},
  };
}

}  // namespace collsynth::sweeps
