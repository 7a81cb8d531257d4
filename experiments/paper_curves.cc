// Experiment kinds for seed 000's theorem curves and per-workload topology tables:
//   linegraph-curve     Figure 3 / Cor 10.1 / Thm 2: T_B(L^n(G)) / T_B*(d^nN) for BW-optimal
//                       bases G, n = 0..n_max. params {"bases": [{"topology": EXPR,
//                       "label": TEXT}], "n_max": K (default 6), "build_max_nodes": B
//                       (default 600)}. Each base is built, its BFB allgather checked and
//                       required to be BW optimal (InputError otherwise); every row is the exact
//                       closed form (theory/expansion_bounds.h LineGraphBandwidthRatio), and
//                       rows with d^nN <= B are also built (line(G,n)), BFB-scheduled and
//                       checked: verified = yes exactly when the checker's T_L and T_B equal
//                       Cor 10.1's (else no, which fails the run); larger rows are formula rows.
//   model-topologies    Table 8 / Fig 8b: the topology each DNN model uses, as data, scored
//                       by the theorems. params {"alpha_us", "gbps" (per node, B = d·b),
//                       "sizes_bytes": [...], "topologies": {NAME: {"base": {"label", "nodes",
//                       "degree", "steps", "bfb" (bool: the base schedule is its optimal BFB
//                       schedule)}, "expansions": [["line"|"power", n], ...] (innermost first),
//                       "build": EXPR (optional), "paper": {"tl", "tb", "us_1MB", "table4_row"}
//                       (the paper's printed allreduce values, strings)}}, "models": [{"model",
//                       "topology": NAME}]}. A BW-optimal base (T_B = (N-1)/N, as Table 9 says
//                       of every base used) is expanded by Thm 10 / Cor 10.1 (bfb base: exact)
//                       or Thm 1 / Cor 1.1 (an upper bound) and Thm 12; rows are the allreduce
//                       (2x allgather, Table 4's convention) T_L and T_B in M/B and
//                       time_us_<bytes> = T_L α + T_B M/B. A topology with "build" is also built,
//                       its BFB allreduce checked, and verified = yes exactly when the checker's
//                       T_L and T_B equal the formula (do not exceed it when T_B is Thm 1's upper
//                       bound; else no, which fails the run). Per
//                       topology, the range of M (bytes, rounded to integers) over which it is
//                       the fastest of the table's topologies, from our values
//                       (fastest_from/to_bytes) and from the paper's printed ones
//                       (paper_fastest_from/to_bytes): which layer sizes pick it under Fig 8b's
//                       "minimum allreduce time" rule ("never": dominated; "inf": unbounded).
// Exact rationals throughout; the only floating point is the *_decimal display columns.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "graphs/metrics.h"
#include "proofs_check/step_checker.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/finder/finder_schedule.h"
#include "theory/expansion_bounds.h"
#include "theory/moore_bound.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

// The optimal BFB allgather of `g`, checked: (T_L steps, T_B in M/B).
struct Checked {
  int tl = 0;
  Rational tb;
  bool ok = false;
};
Checked CheckedBfb(const Topology& g, const std::string& expr, Collective collective) {
  BfbOptions o;
  o.collective = collective;
  o.certificates = false;
  o.file = expr;
  const StepCheckReport rep = CheckStepSchedule(g, GenerateBfbSchedule(g, o).schedule);
  return {rep.tl, ShardTbToMOverB(g, rep.tb), rep.ok};
}

// ---- linegraph-curve (Figure 3) ----

std::vector<ExperimentTask> LineGraphCurveTasks(const ExperimentInput& in) {
  const Params p(in);
  const int n_max = static_cast<int>(p.Int("n_max", 6, 0, 40));
  const std::int64_t build_max = p.Int("build_max_nodes", 600);
  const std::vector<Params> bases = p.Objects("bases");
  if (bases.empty()) throw p.Error("bases", "must be a non-empty array");
  std::vector<ExperimentTask> tasks;
  for (const Params& b : bases) {
    const std::string expr = b.Topology("topology");
    const std::string label = b.String("label", expr);
    const std::string file = b.file(), at = b.Path("topology");
    tasks.push_back(
        {label, [expr, label, file, at, n_max, build_max]() {
           const Topology g = EvaluateTopologyExpression(expr);
           const std::int64_t nodes = g.num_nodes();
           const Rational d_rat = g.OutBandwidth(0);
           if (Denominator(d_rat) != 1 || d_rat < 2)
             throw InputError(file, at, "needs an integer degree >= 2");
           const std::int64_t d = static_cast<std::int64_t>(Numerator(d_rat));
           const Checked base = CheckedBfb(g, expr, Collective::kAllgather);
           if (!base.ok || base.tb != BandwidthLowerBound(BigInt(nodes))) {
             throw InputError(file, at,
                              "its BFB allgather is not BW optimal (T_B " + ToString(base.tb) +
                                  " M/B): Cor 10.1's curve "
                                  "needs a BW-optimal base");
           }
           std::vector<ExperimentRow> rows;
           BigInt big_d = 1;
           for (int n = 0; n <= n_max; ++n, big_d *= d) {
             auto t0 = std::chrono::steady_clock::now();
             const BigInt big_n = big_d * nodes;
             const Rational ratio = LineGraphBandwidthRatio(BigInt(nodes), d, n);
             const Rational tb_star = BandwidthLowerBound(big_n);
             const std::int64_t tl = base.tl + n;  // Thm 1 (5)
             ExperimentRow r;
             r.instance = n == 0 ? expr : "line(" + expr + "," + std::to_string(n) + ")";
             r.algorithm = "bfb (Cor 10.1)";
             r.collective = Collective::kAllgather;
             r.nodes = static_cast<std::int64_t>(big_n);
             r.tl = Rational(tl);
             r.tb = ratio * tb_star;
             r.lower_bound = tb_star;
             r.tb_unit = "M/B";
             std::string checked_tl, checked_tb;
             if (big_n <= build_max) {
               const Topology l = n == 0 ? g : EvaluateTopologyExpression(r.instance);
               const Checked c = CheckedBfb(l, r.instance, Collective::kAllgather);
               checked_tl = std::to_string(c.tl);
               checked_tb = ToString(c.tb);
               r.verified = c.ok && c.tl == tl && c.tb == *r.tb ? Verified::kYes : Verified::kNo;
             }
             const Rational limit = LineGraphBandwidthRatioLimit(BigInt(nodes), d);
             r.extra = {{"series", label},
                        {"base_nodes", std::to_string(nodes)},
                        {"degree", std::to_string(d)},
                        {"n", std::to_string(n)},
                        {"ratio", ToString(ratio)},
                        {"ratio_decimal", FormatDecimal(ratio, 6)},
                        {"thm2_limit", ToString(limit)},
                        {"thm2_limit_decimal", FormatDecimal(limit, 6)},
                        {"moore_optimal", IsMooreOptimal(big_n, d, tl) ? "yes" : "no"},
                        {"checked_tl", checked_tl},
                        {"checked_tb", checked_tb}};
             r.wall_seconds = SecondsSince(t0);
             rows.push_back(std::move(r));
           }
           return rows;
         }});
  }
  return tasks;
}

// ---- model-topologies (Table 8 / Fig 8b) ----

struct Scored {
  std::string name, build, derivation;
  AllgatherPerformance perf;
  // The paper's printed values (strings as written; "" when not given).
  std::string paper_tl, paper_tb, paper_us_1mb, paper_table4_row;
  std::optional<std::pair<Rational, Rational>> paper_line;  // (tl, tb) when both are given
};

Scored ScoreTopology(const std::string& name, const Params& t) {
  const Params b = t.Object("base");
  const std::int64_t nodes = b.Int("nodes", 0), degree = b.Int("degree", 0);
  const std::int64_t steps = b.Int("steps", 0);
  if (nodes < 2 || degree < 1 || steps < 1)
    throw t.Error("base", "needs nodes >= 2, degree >= 1, steps >= 1");
  bool bfb = b.Bool("bfb", false);
  Scored s;
  s.name = name;
  s.perf = BandwidthOptimalBase(BigInt(nodes), degree, steps, b.String("label"));
  const char* const kExpansion = "each must be [\"line\"|\"power\", n >= 1]";
  if (t.Has("expansions") && !t.Raw()["expansions"].is_array())
    throw t.Error("expansions", kExpansion);
  for (const auto& e : t.Raw().value("expansions", json::array())) {
    if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_number_integer() ||
        e[1].get<std::int64_t>() < 1 || e[1].get<std::int64_t>() > INT32_MAX)
      throw t.Error("expansions", kExpansion);
    const std::string what = e[0].get<std::string>();
    const int n = e[1].get<int>();
    if (what == "line") {
      // Thm 10 / Cor 10.1 (equality) needs the base's optimal BFB schedule; otherwise
      // Thm 1 / Cor 1.1 give an upper bound.
      s.perf = bfb ? LineGraphPowerBfb(s.perf, n) : LineGraphPowerBound(s.perf, n);
    } else if (what == "power") {
      s.perf = CartesianPowerPerformance(s.perf, n);
      bfb = false;
    } else {
      throw t.Error("expansions", "unknown expansion '" + what + "'");
    }
  }
  if (t.Has("build")) s.build = t.Topology("build");
  if (t.Has("paper")) {
    const Params paper = t.Object("paper");
    s.paper_tl = paper.String("tl", "");
    s.paper_tb = paper.String("tb", "");
    s.paper_us_1mb = paper.String("us_1MB", "");
    s.paper_table4_row = paper.String("table4_row", "");
    if (paper.Has("tl") && paper.Has("tb")) s.paper_line = {paper.Exact("tl"), paper.Exact("tb")};
  }
  return s;
}

// Allreduce time T_L·α + T_B·M/B of a topology (allreduce T_L in steps, T_B in M/B).
struct Line {
  Rational tl, tb;
};
using Ranges = std::map<std::string, std::pair<std::optional<Rational>, std::optional<Rational>>>;

// The lower envelope over M >= 0: topology X is the fastest for M in [from, to] bytes (to =
// nullopt: unbounded; both nullopt: never), exactly. O(K^2) for K topologies.
Ranges FastestRanges(const std::map<std::string, Line>& lines, const Rational& alpha_us,
                     const Rational& us_per_byte) {
  Ranges out;
  for (const auto& [k, x] : lines) {
    Rational lo = 0;
    std::optional<Rational> hi;
    bool never = false;
    for (const auto& [k2, y] : lines) {
      if (k2 == k) continue;
      // t_x(M) <= t_y(M)  <=>  (tl_x - tl_y) α <= (tb_y - tb_x) M/B.
      const Rational dl = (x.tl - y.tl) * alpha_us;
      const Rational db = (y.tb - x.tb) * us_per_byte;
      if (db > 0) {
        lo = std::max(lo, Rational(dl / db));
      } else if (db < 0) {
        const Rational m = dl / db;  // M <= m
        if (!hi || m < *hi) hi = m;
      } else if (dl > 0) {
        never = true;
      }
    }
    if (never || (hi && *hi < lo)) {
      out[k] = {std::nullopt, std::nullopt};
    } else {
      out[k] = {lo, hi};
    }
  }
  return out;
}

std::pair<std::string, std::string> RangeText(const Ranges& r, const std::string& k) {
  auto it = r.find(k);
  if (it == r.end()) return {"", ""};
  if (!it->second.first) return {"never", "never"};
  return {FormatDecimal(*it->second.first, 0),
          it->second.second ? FormatDecimal(*it->second.second, 0) : "inf"};
}

std::vector<ExperimentTask> ModelTopologyTasks(const ExperimentInput& in) {
  const Params p(in);
  const Rational alpha_us = p.Exact("alpha_us"), gbps = p.Exact("gbps");
  if (gbps <= 0) throw p.Error("gbps", "must be positive");
  const std::vector<std::int64_t> sizes = p.Ints("sizes_bytes", {1 << 20}, 1, INT64_MAX);
  const Params topology_params = p.Object("topologies");
  std::map<std::string, Scored> topologies;
  for (const auto& [k, v] : p.Members("topologies"))
    topologies.emplace(k, ScoreTopology(k, topology_params.Object(k)));
  if (topologies.empty()) throw p.Error("topologies", "must be a non-empty object");
  const std::vector<Params> models = p.Objects("models");
  if (models.empty()) throw p.Error("models", "must be a non-empty array");
  const Rational us_per_byte = Rational(8) / (gbps * 1000);  // M/B in µs per byte
  std::map<std::string, Line> ours, paper;
  bool all_paper = true;
  for (const auto& [k, x] : topologies) {
    ours[k] = {Rational(AllreduceLatencySteps(x.perf)), AllreduceBandwidth(x.perf)};
    if (x.paper_line) {
      paper[k] = {x.paper_line->first, x.paper_line->second};
    } else {
      all_paper = false;
    }
  }
  const auto range = FastestRanges(ours, alpha_us, us_per_byte);
  const auto paper_range = all_paper ? FastestRanges(paper, alpha_us, us_per_byte) : Ranges{};
  std::vector<ExperimentTask> tasks;
  for (const Params& m : models) {
    const std::string model = m.String("model"), name = m.String("topology");
    auto it = topologies.find(name);
    if (it == topologies.end())
      throw m.Error("topology", "'" + name + "' is not in params.topologies");
    const Scored s = it->second;
    const auto ours_text = RangeText(range, name), paper_text = RangeText(paper_range, name);
    tasks.push_back({model, [model, s, ours_text, paper_text, sizes, alpha_us, us_per_byte]() {
                       auto t0 = std::chrono::steady_clock::now();
                       ExperimentRow r;
                       r.instance = s.name;
                       r.algorithm = s.perf.bandwidth_is_upper_bound ? "theorems (T_B upper bound)"
                                                                     : "theorems";
                       r.collective = Collective::kAllreduce;
                       r.nodes = static_cast<std::int64_t>(s.perf.nodes);
                       r.tl = Rational(AllreduceLatencySteps(s.perf));
                       r.tb = AllreduceBandwidth(s.perf);
                       r.lower_bound = 2 * BandwidthLowerBound(s.perf.nodes);
                       r.tb_unit = "M/B";
                       std::string checked_tl, checked_tb;
                       if (!s.build.empty()) {
                         const Topology g = EvaluateTopologyExpression(s.build);
                         const Checked c = CheckedBfb(g, s.build, Collective::kAllreduce);
                         checked_tl = std::to_string(c.tl);
                         checked_tb = ToString(c.tb);
                         // Exact formulas must be met exactly, upper bounds (Thm 1) not exceeded.
                         const bool agrees = s.perf.bandwidth_is_upper_bound
                                                 ? Rational(c.tl) <= *r.tl && c.tb <= *r.tb
                                                 : Rational(c.tl) == *r.tl && c.tb == *r.tb;
                         r.verified = c.ok && agrees ? Verified::kYes : Verified::kNo;
                       }
                       r.extra = {{"model", model},
                                  {"degree", std::to_string(s.perf.degree)},
                                  {"derivation", s.perf.derivation},
                                  {"build", s.build},
                                  {"checked_tl", checked_tl},
                                  {"checked_tb", checked_tb},
                                  {"paper_tl", s.paper_tl},
                                  {"paper_tb", s.paper_tb},
                                  {"paper_us_1MB", s.paper_us_1mb},
                                  {"paper_table4_row", s.paper_table4_row}};
                       for (std::int64_t m : sizes) {
                         const Rational t = *r.tl * alpha_us + *r.tb * Rational(m) * us_per_byte;
                         r.extra.emplace_back("time_us_" + std::to_string(m), FormatDecimal(t, 3));
                       }
                       r.extra.emplace_back("fastest_from_bytes", ours_text.first);
                       r.extra.emplace_back("fastest_to_bytes", ours_text.second);
                       r.extra.emplace_back("paper_fastest_from_bytes", paper_text.first);
                       r.extra.emplace_back("paper_fastest_to_bytes", paper_text.second);
                       r.wall_seconds = SecondsSince(t0);
                       return std::vector<ExperimentRow>{r};
                     }});
  }
  return tasks;
}

const ExperimentKindRegistrar kLineCurve("linegraph-curve", &LineGraphCurveTasks,
                                         {"series", "base_nodes", "degree", "n", "ratio",
                                          "ratio_decimal", "thm2_limit", "thm2_limit_decimal",
                                          "moore_optimal", "checked_tl", "checked_tb"});
const ExperimentKindRegistrar kModelTopologies(
    "model-topologies", &ModelTopologyTasks,
    {"model", "degree", "derivation", "build", "checked_tl", "checked_tb", "paper_tl", "paper_tb",
     "paper_us_1MB", "paper_table4_row", "time_us_*", "fastest_from_bytes", "fastest_to_bytes",
     "paper_fastest_from_bytes", "paper_fastest_to_bytes"});

}  // namespace
}  // namespace collsynth::experiments
