// Experiment kinds of the topology finder and the theorem sweeps (seed 000 §5.4, App. G,
// Tables 4/5, Figures 12/13; `collsynth prove`):
//   finder-frontier     params {"cases": [{"nodes", "degree"}], "verify_max_nodes"}: one row
//                       per frontier entry; entries up to verify_max_nodes are built
//                       (solvers/finder/finder_schedule.h) and checked by the step checker, which
//                       must reproduce the predicted T_L and T_B exactly (else Verified::kNo).
//   finder-best-per-n   params {"degree" | "degrees": [d...], "n_min", "n_max", "sizes_bytes",
//                       "alpha_us", "bandwidth_gbps", "n_chunk"}: the best frontier entry per
//                       (d, N, M) (formula rows); one task per degree and block of n_chunk
//                       consecutive N (default 0: all N in one task per degree);
//                       "directions": ["unidirectional", "bidirectional"] (optional) runs the
//                       finder once per entry (bidirectional: FinderOptions::bidirectional,
//                       Figure 13's "best bidirectional topology known") and adds the columns
//                       direction and series (the label, or "bidirectional").
//   genkautz-ratio      params {"degrees", "n_max"}: T_B(Π_{d,N}) / T_B* from the table.
//   theorem-sweeps      params {"sweeps": [names] (empty = all), "ranges": {name: "LO..HI"},
//                       "range_scale": K (default 1), "chunks": C (default 1)}: one row per
//                       sweep and chunk; K times the range (default or "ranges"), cut into C
//                       consecutive sub-ranges (one task each). Beyond a sweep's default
//                       range, a chunk whose instances outgrow a generator's limits
//                       (InputError) is a row with holds = n/a and the message in `limit`.
#include <algorithm>
#include <chrono>
#include <map>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "experiments/sweeps/sweep.h"
#include "proofs_check/step_checker.h"
#include "solvers/finder/finder.h"
#include "solvers/finder/finder_base_table.h"
#include "solvers/finder/finder_schedule.h"
#include "theory/moore_bound.h"

namespace collsynth::experiments {
namespace {

// params.degrees (each in 1..2^31-1), or `fallback` when absent.
std::vector<int> Degrees(const Params& p, const std::vector<std::int64_t>& fallback) {
  const std::vector<std::int64_t> d = p.Ints("degrees", fallback, 1, INT32_MAX);
  return std::vector<int>(d.begin(), d.end());
}

std::string Alternatives(const FinderCandidate& c) {
  std::string s;
  for (const auto& a : c.alternatives) s += (s.empty() ? "" : " | ") + a;
  return s;
}

// What lower_bound is and why it holds, in every row (no row may look optimal without
// saying by what).
const char* const kThm6Bound =
    "seed 000 Thm 6: (N-1)/N M/B, as each node receives (N-1)/N M through in-bandwidth B";

ExperimentRow FrontierRow(const FinderCandidate& c, const FinderWorkload& w) {
  ExperimentRow r;
  r.instance = c.topology;
  r.algorithm = std::string("finder:") + FinderMethodName(c.method);
  r.collective = Collective::kAllgather;
  r.nodes = c.nodes;
  r.tl = Rational(c.tl);
  r.tb = c.tb;
  r.lower_bound = BandwidthLowerBound(BigInt(c.nodes));
  r.tb_unit = "M/B";
  r.extra = {{"degree", std::to_string(c.degree)},
             {"bound_by", kThm6Bound},
             {"label", c.Label()},
             {"bw_optimal", c.bw_optimal ? "yes" : "no"},
             {"moore_optimal", c.moore_optimal ? "yes" : "no"},
             {"allreduce_us", ToString(AllreduceTime(c, w) * 1000000)},
             {"alternatives", Alternatives(c)}};
  return r;
}

std::vector<ExperimentTask> FrontierTasks(const ExperimentInput& in) {
  const Params p(in);
  if (!p.Has("cases")) throw p.Error("cases", "missing (an array of objects is required)");
  std::int64_t verify_max = p.Int("verify_max_nodes", 300);
  std::vector<ExperimentTask> tasks;
  for (const Params& c : p.Objects("cases")) {
    std::int64_t n = c.Int("nodes", 0);
    int d = static_cast<int>(c.Int("degree", 0, INT32_MIN, INT32_MAX));
    tasks.push_back(
        {"finder N=" + std::to_string(n) + " d=" + std::to_string(d), [n, d, verify_max]() {
           TopologyFinder f;
           FinderResult res = f.Find(n, d);
           std::vector<ExperimentRow> rows;
           for (const auto& c : res.frontier) {
             auto t0 = std::chrono::steady_clock::now();
             ExperimentRow r = FrontierRow(c, FinderWorkload{});
             bool buildable =
                 c.nodes <= verify_max && !(c.method == FinderMethod::kBfb && c.nodes > 300);
             if (buildable) {
               FinderSchedule s = BuildFinderSchedule(c);
               StepCheckReport rep = CheckStepSchedule(s.topology, s.schedule);
               bool same = rep.ok && rep.tl == c.tl && ShardTbToMOverB(s.topology, rep.tb) == c.tb;
               r.verified = same ? Verified::kYes : Verified::kNo;
             }
             r.wall_seconds = SecondsSince(t0);
             rows.push_back(std::move(r));
           }
           return rows;
         }});
  }
  return tasks;
}

std::vector<ExperimentTask> BestPerNTasks(const ExperimentInput& in) {
  const Params p(in);
  std::vector<int> degrees = Degrees(p, {p.Int("degree", 4, 1, INT32_MAX)});
  if (p.Has("degrees") && degrees.empty())
    throw p.Error("degrees", "must be a non-empty array of integers");
  std::int64_t lo = p.Int("n_min", 5), hi = p.Int("n_max", 2000);
  const std::int64_t chunk = p.Int("n_chunk", 0);
  if (chunk < 0) throw p.Error("n_chunk", "must be >= 0 (0: one task per degree)");
  std::vector<std::int64_t> sizes =
      p.Has("sizes_bytes") ? p.Ints("sizes_bytes") : std::vector<std::int64_t>{1 << 20};
  std::vector<bool> directions;  // bidirectional?
  const bool with_directions = p.Has("directions");
  if (with_directions) {
    const char* const kDirections =
        "must be a non-empty array of \"unidirectional\" / \"bidirectional\"";
    for (const auto& x : p.Strings("directions")) {
      if (x != "unidirectional" && x != "bidirectional") throw p.Error("directions", kDirections);
      directions.push_back(x == "bidirectional");
    }
    if (directions.empty()) throw p.Error("directions", kDirections);
  } else {
    directions.push_back(false);
  }
  FinderWorkload base;
  base.alpha = Rational(p.Int("alpha_us", 10), 1000000);
  base.bandwidth_bps = Rational(p.Int("bandwidth_gbps", 100)) * 1000000000;
  // One task per degree and block of n_chunk consecutive N (all N when n_chunk = 0): within
  // a task the engine's memo is shared across N (that is what makes it fast); blocks are
  // independent, for sharding (experiments/shards.h).
  std::vector<ExperimentTask> tasks;
  for (bool bidir : directions) {
    for (int d : degrees) {
      const std::int64_t step = chunk > 0 ? chunk : std::max<std::int64_t>(1, hi - lo + 1);
      for (std::int64_t a = lo; a <= hi; a += step) {
        const std::int64_t b = std::min(hi, a + step - 1);
        std::string label = bidir ? "bidirectional finder best per N" : "finder best per N";
        if (degrees.size() > 1 || chunk > 0) {
          label += " d=" + std::to_string(d) + " N=" + std::to_string(a) + ".." + std::to_string(b);
        }
        tasks.push_back({label, [d, a, b, sizes, base, bidir, with_directions]() {
                           FinderOptions options;
                           options.bidirectional = bidir;
                           TopologyFinder f(options);
                           std::vector<ExperimentRow> rows;
                           for (std::int64_t n = a; n <= b; ++n) {
                             auto t0 = std::chrono::steady_clock::now();
                             FinderResult res = f.Find(n, d);
                             if (res.frontier.empty()) continue;
                             for (std::int64_t m : sizes) {
                               FinderWorkload w = base;
                               w.size_bytes = Rational(m);
                               ExperimentRow r = FrontierRow(BestForWorkload(res, w), w);
                               r.algorithm = "finder-best";
                               r.extra.insert(r.extra.begin(), {"size_bytes", std::to_string(m)});
                               if (with_directions) {
                                 std::string lab;
                                 for (const auto& [k, v] : r.extra)
                                   if (k == "label") lab = v;
                                 r.extra.emplace_back("direction",
                                                      bidir ? "bidirectional" : "unidirectional");
                                 r.extra.emplace_back("series", bidir ? "bidirectional" : lab);
                               }
                               r.wall_seconds = SecondsSince(t0);
                               rows.push_back(std::move(r));
                             }
                           }
                           return rows;
                         }});
      }
    }
  }
  return tasks;
}

std::vector<ExperimentTask> GenKautzTasks(const ExperimentInput& in) {
  const Params p(in);
  std::int64_t hi = p.Int("n_max", 2000);
  const std::vector<int> degrees = Degrees(p, {2, 4, 8, 16});
  std::vector<ExperimentTask> tasks;
  for (int d : degrees) {
    tasks.push_back(
        {"genkautz d=" + std::to_string(d), [d, hi]() {
           std::vector<ExperimentRow> rows;
           for (int m = d + 2; m <= hi; ++m) {
             auto t = LookupGenKautzTable(d, m);
             if (!t) continue;
             ExperimentRow r;
             r.instance = "genkautz(" + std::to_string(d) + "," + std::to_string(m) + ")";
             r.algorithm = "bfb (table)";
             r.collective = Collective::kAllgather;
             r.nodes = m;
             r.tl = Rational(t->diameter);
             r.tb = t->tb_shard * d / m;
             r.lower_bound = BandwidthLowerBound(BigInt(m));
             r.tb_unit = "M/B";
             Rational ratio = *r.tb / *r.lower_bound;
             r.extra = {{"degree", std::to_string(d)},
                        {"bound_by", kThm6Bound},
                        {"ratio", ToString(ratio)},
                        {"ratio_decimal", std::to_string(static_cast<double>(ratio))},
                        {"moore_steps", std::to_string(MooreOptimalSteps(BigInt(m), d))}};
             rows.push_back(std::move(r));
           }
           return rows;
         }});
  }
  return tasks;
}

std::vector<ExperimentTask> SweepTasks(const ExperimentInput& in) {
  const Params p(in);
  std::vector<std::string> names = p.Strings("sweeps");
  if (names.empty()) {
    for (const auto& s : sweeps::AllSweeps()) names.push_back(s.name);
  }
  const std::int64_t scale = p.Int("range_scale", 1, 1, 1000);
  const std::int64_t chunks = p.Int("chunks", 1, 1, 100000);
  // "ranges": {"sweep": "LO..HI"} replaces a sweep's default range (before range_scale).
  std::map<std::string, sweeps::SweepRange> base;
  for (const auto& [k, v] : p.Members("ranges")) {
    const sweeps::SweepSpec* spec = sweeps::FindSweep(k);
    if (!spec) throw p.Error("ranges." + k, "unknown sweep");
    if (!v->is_string()) throw p.Error("ranges." + k, "must be \"LO..HI\"");
    try {
      base[k] = sweeps::ParseSweepRange(v->get<std::string>(), spec->default_range);
    } catch (const InputError& e) {
      throw p.Error("ranges." + k, e.problem());
    }
  }
  std::vector<ExperimentTask> tasks;
  for (const auto& name : names) {
    const sweeps::SweepSpec* spec = sweeps::FindSweep(name);
    if (!spec) throw p.Error("sweeps", "unknown sweep '" + name + "'");
    const sweeps::SweepRange from = base.count(name) ? base[name] : spec->default_range;
    // range_scale K: lo..lo + K·(hi - lo + 1) - 1, K times as many range values; chunks C:
    // C consecutive sub-ranges of (nearly) equal length, one task each (empty ones dropped).
    const sweeps::SweepRange whole{from.lo, from.lo + scale * (from.hi - from.lo + 1) - 1};
    const bool beyond_defaults = whole.hi > spec->default_range.hi;
    const std::int64_t length = whole.hi - whole.lo + 1;
    for (std::int64_t j = 0; j < chunks; ++j) {
      const sweeps::SweepRange range{whole.lo + j * length / chunks,
                                     whole.lo + (j + 1) * length / chunks - 1};
      if (range.hi < range.lo) continue;
      const std::string label =
          chunks == 1 && scale == 1 && !base.count(name)
              ? name
              : name + " " + std::to_string(range.lo) + ".." + std::to_string(range.hi);
      tasks.push_back({label, [spec, range, beyond_defaults]() {
                         auto t0 = std::chrono::steady_clock::now();
                         ExperimentRow r;
                         r.instance = spec->name;
                         r.algorithm = "sweep";
                         const std::string range_text =
                             std::to_string(range.lo) + ".." + std::to_string(range.hi);
                         sweeps::SweepReport rep;
                         try {
                           rep = spec->run(range);
                         } catch (const InputError& e) {
                           // Beyond the default ranges a family can outgrow what its
                           // generator accepts (e.g. johnson(51,3) > 20000 nodes): the
                           // chunk's row says so instead of failing the whole run.
                           if (!beyond_defaults) throw;
                           r.wall_seconds = SecondsSince(t0);
                           r.extra = {{"source", spec->source}, {"range", range_text},
                                      {"instances", ""},        {"counterexamples", ""},
                                      {"holds", "n/a"},         {"first_counterexample", ""},
                                      {"limit", e.what()}};
                           return std::vector<ExperimentRow>{r};
                         }
                         r.wall_seconds = SecondsSince(t0);
                         std::string first = rep.ok() ? ""
                                                      : rep.counterexamples[0].instance + ": " +
                                                            rep.counterexamples[0].detail;
                         r.extra = {{"source", spec->source},
                                    {"range", range_text},
                                    {"instances", std::to_string(rep.instances)},
                                    {"counterexamples", std::to_string(rep.counterexamples.size())},
                                    {"holds", rep.ok() ? "yes" : "no"},
                                    {"first_counterexample", first}};
                         return std::vector<ExperimentRow>{r};
                       }});
    }
  }
  return tasks;
}

const ExperimentKindRegistrar kFrontier("finder-frontier", &FrontierTasks,
                                        {"degree", "bound_by", "label", "bw_optimal",
                                         "moore_optimal", "allreduce_us", "alternatives"});
const ExperimentKindRegistrar kBest("finder-best-per-n", &BestPerNTasks,
                                    {"size_bytes", "degree", "bound_by", "label", "bw_optimal",
                                     "moore_optimal", "allreduce_us", "alternatives", "direction",
                                     "series"});
const ExperimentKindRegistrar kGenKautz("genkautz-ratio", &GenKautzTasks,
                                        {"degree", "bound_by", "ratio", "ratio_decimal",
                                         "moore_steps"});
const ExperimentKindRegistrar kSweeps("theorem-sweeps", &SweepTasks,
                                      {"source", "range", "instances", "counterexamples", "holds",
                                       "first_counterexample", "limit"});

}  // namespace
}  // namespace collsynth::experiments
