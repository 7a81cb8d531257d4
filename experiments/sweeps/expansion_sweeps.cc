#include "experiments/sweeps/expansion_sweeps.h"

#include "experiments/sweeps/sweep_util.h"
#include "graphs/expansions.h"
#include "graphs/expression.h"
#include "solvers/bfb/schedule_expansion.h"
#include "solvers/finder/finder_bfb_value.h"
#include "theory/kautz_circulant_bounds.h"
#include "theory/moore_bound.h"

namespace collsynth::sweeps {
namespace {

std::string S(std::int64_t x) { return std::to_string(x); }

// Compares a checked expanded schedule with a prediction; exact unless `upper`.
void Compare(SweepReport* rep, const std::string& inst, const CheckedSchedule& c,
             const AllgatherPerformance& want, bool upper) {
  ++rep->instances;
  if (!c.report.ok) {
    rep->Fail(
        inst,
        "checker rejected the schedule: " + (c.report.errors.empty() ? "" : c.report.errors[0]),
        c.topology);
    return;
  }
  if (c.report.tl != want.latency_steps) {
    rep->Fail(inst, "T_L " + S(c.report.tl) + ", theorem says " + S(want.latency_steps),
              c.topology);
  }
  bool bad = upper ? c.tb > want.bandwidth : c.tb != want.bandwidth;
  if (bad) {
    rep->Fail(inst,
              "T_B " + ToString(c.tb) + " M/B, theorem says " + (upper ? "<= " : "") +
                  ToString(want.bandwidth),
              c.topology);
  }
}

// The circulant of Thm 22 with n nodes (n > 6), or C(n, {1, 2}).
std::string Circulant(std::int64_t n) {
  std::int64_t m = n > 6 ? Theorem22Offset(n) : 1;
  return "circulant(" + S(n) + "," + S(m) + "," + S(m + 1) + ")";
}

}  // namespace

SweepReport SweepLineGraphBound(const SweepRange& r, const ExpansionFormula& bound) {
  SweepReport rep;
  rep.name = "s000-thm1";
  for (std::int64_t m = std::max<std::int64_t>(r.lo, 3); m <= r.hi; ++m) {
    // A non-BFB base: the degree expansion (Def. 4) of the ring's BFB schedule.
    CheckedSchedule ring = BfbChecked("biring(2," + S(m) + ")");
    ExpandedSchedule d = DegreeExpandedSchedule(ring.topology, ring.schedule, 2);
    std::vector<std::pair<std::string, CheckedSchedule>> bases;
    bases.push_back(
        {"degree(biring(2," + S(m) + "),2)", Check(std::move(d.topology), std::move(d.schedule))});
    bases.push_back({"genkautz(2," + S(m) + ")", BfbChecked("genkautz(2," + S(m) + ")")});
    for (auto& [name, base] : bases) {
      AllgatherPerformance p = PerformanceOf(base);
      CheckedSchedule cur = base;
      int max_n = base.topology.num_nodes() * base.topology.OutDegree(0) <= 200 ? 2 : 1;
      std::string inst = name;
      for (int n = 1; n <= max_n; ++n) {
        ExpandedSchedule e = LineGraphSchedule(cur.topology, cur.schedule);
        cur = Check(std::move(e.topology), std::move(e.schedule));
        inst = "line(" + inst + ")";
        Compare(&rep, inst, cur, bound(p, n), true);
      }
    }
  }
  return rep;
}

SweepReport SweepLineGraphRatio(const SweepRange& r) {
  SweepReport rep;
  rep.name = "s000-thm2";
  for (std::int64_t m = std::max<std::int64_t>(r.lo, 5); m <= r.hi; ++m) {
    std::string expr = Circulant(m);
    CheckedSchedule base = BfbChecked(expr);
    AllgatherPerformance p = PerformanceOf(base);
    ++rep.instances;
    if (!base.report.ok || p.bandwidth != BandwidthLowerBound(p.nodes)) {
      rep.Fail(expr, "base is not BW optimal: T_B " + ToString(p.bandwidth), base.topology);
      continue;
    }
    ExpandedSchedule e = LineGraphSchedule(base.topology, base.schedule);
    CheckedSchedule l = Check(std::move(e.topology), std::move(e.schedule));
    Rational limit = LineGraphBandwidthRatioLimit(p.nodes, p.degree);
    Rational ratio = l.tb / BandwidthLowerBound(BigInt(l.topology.num_nodes()));
    ++rep.instances;
    if (!l.report.ok || ratio > limit) {
      rep.Fail("line(" + expr + ")", "T_B/T_B* = " + ToString(ratio) + " > " + ToString(limit),
               l.topology);
    }
    // Larger n by the (checked, Thm 10) formula.
    for (int n = 2; n <= 6; ++n) {
      AllgatherPerformance q = LineGraphPowerBfb(p, n);
      ++rep.instances;
      if (q.bandwidth / BandwidthLowerBound(q.nodes) > limit) {
        rep.Fail("line^" + S(n) + "(" + expr + ")", "formula ratio exceeds Thm 2's limit");
      }
    }
  }
  return rep;
}

SweepReport SweepLineGraphBfb(const SweepRange& r, const ExpansionFormula& formula) {
  SweepReport rep;
  rep.name = "s000-thm10";
  for (std::int64_t m = std::max<std::int64_t>(r.lo, 5); m <= r.hi; ++m) {
    for (const std::string& expr :
         {"genkautz(2," + S(m) + ")", "genkautz(3," + S(m) + ")", Circulant(m)}) {
      CheckedSchedule base = BfbChecked(expr);
      if (!base.report.ok) {
        rep.Fail(expr, "BFB base rejected by the checker", base.topology);
        continue;
      }
      if (base.topology.num_nodes() < 2) continue;
      AllgatherPerformance p = PerformanceOf(base);
      CheckedSchedule cur = base;
      std::string inst = expr;
      int max_n = base.topology.num_nodes() * base.topology.OutDegree(0) <= 150 ? 2 : 1;
      for (int n = 1; n <= max_n; ++n) {
        ExpandedSchedule e = LineGraphSchedule(cur.topology, cur.schedule);
        cur = Check(std::move(e.topology), std::move(e.schedule), /*check_bfb=*/true);
        inst = "line(" + inst + ")";
        Compare(&rep, inst, cur, formula(p, n), false);
        // Optimal BFB on L^n(G) itself (fast exact value): the expansion is optimal BFB.
        BfbValue v = ComputeBfbValue(cur.topology, inst);
        ++rep.instances;
        if (!v.tb || *v.tb != cur.tb || v.diameter != cur.report.tl) {
          rep.Fail(inst,
                   "expanded T_B " + ToString(cur.tb) + " but optimal BFB on L^n(G) gives " +
                       (v.tb ? ToString(*v.tb) : std::string("?")),
                   cur.topology);
        }
      }
    }
  }
  return rep;
}

SweepReport SweepDegreeExpansion(const SweepRange& r, const ExpansionFormula& formula) {
  SweepReport rep;
  rep.name = "s000-thm11";
  for (std::int64_t m = std::max<std::int64_t>(r.lo, 3); m <= r.hi; ++m) {
    std::vector<std::string> bases = {"biring(2," + S(m) + ")", "complete(" + S(m) + ")",
                                      "uniring(1," + S(m) + ")"};
    if (m >= 5) bases.push_back(Circulant(m));
    if (m % 3 == 0 && m >= 6) bases.push_back("genkautz(2," + S(m) + ")");  // no self-loops
    for (const std::string& expr : bases) {
      CheckedSchedule base = BfbChecked(expr);
      AllgatherPerformance p = PerformanceOf(base);
      for (int n = 2; n <= 3; ++n) {
        if (base.topology.num_nodes() * n * n * base.topology.OutDegree(0) > 600) continue;
        ExpandedSchedule e = DegreeExpandedSchedule(base.topology, base.schedule, n);
        CheckedSchedule c = Check(std::move(e.topology), std::move(e.schedule));
        Compare(&rep, "degree(" + expr + "," + S(n) + ")", c, formula(p, n), false);
      }
    }
  }
  return rep;
}

SweepReport SweepCartesianPower(const SweepRange& r, const ExpansionFormula& formula) {
  SweepReport rep;
  rep.name = "s000-thm12";
  for (std::int64_t m = std::max<std::int64_t>(r.lo, 3); m <= r.hi; ++m) {
    std::vector<std::string> bases = {"biring(2," + S(m) + ")", "complete(" + S(m) + ")",
                                      "uniring(1," + S(m) + ")", "genkautz(2," + S(m) + ")"};
    for (const std::string& expr : bases) {
      CheckedSchedule base = BfbChecked(expr);
      AllgatherPerformance p = PerformanceOf(base);
      for (int n = 2; n <= 3; ++n) {
        std::int64_t size = 1;
        for (int i = 0; i < n; ++i) size *= m;
        if (size > 350) continue;
        ExpandedSchedule e = CartesianPowerSchedule(base.topology, base.schedule, n);
        CheckedSchedule c = Check(std::move(e.topology), std::move(e.schedule));
        Compare(&rep, "power(" + expr + "," + S(n) + ")", c, formula(p, n), false);
      }
    }
  }
  return rep;
}

SweepReport SweepCartesianProduct(const SweepRange& r) {
  SweepReport rep;
  rep.name = "s000-thm13";
  // Simple topologies with BW-optimal BFB schedules (Table 9) and their diameters.
  std::vector<std::pair<std::string, int>> pool;
  for (std::int64_t m = std::max<std::int64_t>(r.lo, 2); m <= r.hi; ++m) {
    pool.push_back({"uniring(1," + S(m) + ")", static_cast<int>(m - 1)});
    pool.push_back({"complete(" + S(m) + ")", 1});
    if (m >= 3) pool.push_back({"biring(2," + S(m) + ")", static_cast<int>(m / 2)});
    if (m >= 2) pool.push_back({"bipartite(" + S(m) + ")", 2});
  }
  int spot = 0;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    for (std::size_t j = i; j < pool.size(); j += 3) {
      std::string expr = "product(" + pool[i].first + "," + pool[j].first + ")";
      Topology g = EvaluateTopologyExpression(expr);
      if (g.num_nodes() > 400) continue;
      ++rep.instances;
      BfbValue v = ComputeBfbValue(g, expr);
      int want_tl = pool[i].second + pool[j].second;
      if (v.diameter != want_tl || !v.bandwidth_optimal.value_or(false)) {
        rep.Fail(expr,
                 "BFB T_L " + S(v.diameter) + " (Thm 13: " + S(want_tl) + "), T_B " +
                     (v.tb ? ToString(*v.tb) : std::string("?")) + " (Thm 13: BW optimal)",
                 g);
      }
      if (spot < 4 && g.num_nodes() <= 60 && (i + j) % 5 == 0) {  // the full schedule, checked
        ++spot;
        CheckedSchedule c = BfbChecked(std::move(g));
        if (!c.report.ok || c.report.tl != want_tl ||
            c.tb != BandwidthLowerBound(BigInt(c.topology.num_nodes()))) {
          rep.Fail(expr, "checked BFB schedule disagrees with Thm 13", c.topology);
        }
      }
    }
  }
  rep.notes.push_back("spot-checked " + S(spot) +
                      " products with the full BFB schedule and the checker");
  return rep;
}

std::vector<SweepSpec> ExpansionSweeps() {
  return {
      {"s000-thm1",
       "seed 000 Thm 1 / Cor 1.1",
       "L^n: T_L + n, T_B <= T_B + d/(d-1)(1/N - 1/(d^n N))",
       "m: biring(2,m)*2 (non-BFB) and genkautz(2,m) bases",
       {3, 8},
       [](const SweepRange& r) {
         return SweepLineGraphBound(
             r, [](const AllgatherPerformance& p, int n) { return LineGraphPowerBound(p, n); });
       }},
      {"s000-thm2",
       "seed 000 Thm 2",
       "BW-optimal base: T_B(L^n)/T_B*(d^n N) <= 1 + 1/((d-1)N)",
       "m: circulant C(m, Thm 22 offsets)",
       {5, 14},
       SweepLineGraphRatio},
      {"s000-thm10",
       "seed 000 Thm 10 / Cor 10.1",
       "L^n of optimal BFB is optimal BFB, T_B = T_B + Σ 1/(d^i N)",
       "m: genkautz(2,m), genkautz(3,m), circulant(m,..)",
       {5, 12},
       [](const SweepRange& r) {
         return SweepLineGraphBfb(
             r, [](const AllgatherPerformance& p, int n) { return LineGraphPowerBfb(p, n); });
       }},
      {"s000-thm11",
       "seed 000 Thm 11",
       "G*n: T_L + 1, T_B + (n-1)/(nN)",
       "m: base size (rings, K_m, circulant, genkautz)",
       {3, 9},
       [](const SweepRange& r) {
         return SweepDegreeExpansion(r, [](const AllgatherPerformance& p, int n) {
           return DegreeExpansionPerformance(p, n);
         });
       }},
      {"s000-thm12",
       "seed 000 Thm 12",
       "G^□n: n·T_L, T_B·N/(N-1)·(N^n-1)/N^n",
       "m: base size",
       {3, 7},
       [](const SweepRange& r) {
         return SweepCartesianPower(r, [](const AllgatherPerformance& p, int n) {
           return CartesianPowerPerformance(p, n);
         });
       }},
      {"s000-thm13",
       "seed 000 Thm 13",
       "product of BW-optimal BFB factors: BFB BW optimal, T_L = Σ D(G_i)",
       "m: factor sizes",
       {2, 9},
       SweepCartesianProduct},
  };
}

}  // namespace collsynth::sweeps
