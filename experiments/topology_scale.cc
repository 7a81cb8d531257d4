// Experiment kinds of seed 003 (PolarStar) that need no schedule: formula and structure
// rows, Verified::kNotApplicable.
//   diameter3-scale  params {"radix_min", "radix_max", "families": [names] (default all of
//                    theory/diameter3_scale.h), "paper_ratios": {"bundlefly": "1.3", ...}}:
//                    one task per family; one row per radix where the family has a design
//                    (the largest, theory/diameter3_scale.h) with its Moore-bound efficiency
//                    and the exact ratio PolarStar / family, then one row "geomean[lo,hi]"
//                    with the geometric mean of those ratios (exact, floored to 3 decimals)
//                    and whether it rounds to the paper's printed value.
//   topology-table   params {"rows": [{"label", "topology", "endpoints_per_router",
//                    "paper": {"routers", "radix", "endpoints"}}]}:
//                    builds each `topo gen` expression and measures routers (switches, or
//                    every node of a direct topology), network radix (the most router-to-router
//                    ports of any router), endpoints (compute nodes of a switch topology, else
//                    routers · endpoints_per_router) and the diameter between routers that
//                    carry endpoints (BFS over routers); compares with the paper's values and
//                    the node count with the family's closed form (EstimateTopologyExpressionSize).
#include <chrono>
#include <map>
#include <optional>
#include <queue>

#include "core/input_error.h"
#include "core/stopwatch.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expression.h"
#include "theory/diameter3_scale.h"
#include "theory/polarstar_bounds.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

// x rounded half away from zero to 6 decimals, exactly (x >= 0).
std::string Decimal6(const Rational& x) {
  BigInt scaled = (Numerator(x) * 2000000 + Denominator(x)) / (Denominator(x) * 2);
  std::string frac = ToString(BigInt(scaled % 1000000));
  return ToString(BigInt(scaled / 1000000)) + "." + std::string(6 - frac.size(), '0') + frac;
}

// "1.3" -> (13, 1): digits after the point (at most 2); nullopt when `s` is not such a decimal.
std::optional<std::pair<BigInt, int>> ParsePaperValue(const std::string& s) {
  const auto dot = s.find('.');
  const std::string digits = dot == std::string::npos ? s : s.substr(0, dot) + s.substr(dot + 1);
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(s.size() - dot - 1);
  if (digits.empty() || decimals > 2 || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::pair<BigInt, int>{BigInt(digits), decimals};
}

// The family called `name`; InputError at `key` of p when there is none.
Diameter3Family FamilyByName(const std::string& name, const Params& p, const std::string& key) {
  for (Diameter3Family f : AllDiameter3Families()) {
    if (Diameter3FamilyName(f) == name) return f;
  }
  throw p.Error(key, "unknown family '" + name + "'");
}

std::vector<ExperimentTask> ScaleTasks(const ExperimentInput& in) {
  const Params p(in);
  const std::int64_t lo = p.Int("radix_min", 8), hi = p.Int("radix_max", 128);
  if (lo < 3 || hi < lo || hi > 1000)
    throw p.Error("radix_min", "need 3 <= radix_min <= radix_max <= 1000");
  std::vector<Diameter3Family> families;
  if (p.Has("families")) {
    for (const auto& f : p.Strings("families")) families.push_back(FamilyByName(f, p, "families"));
  } else {
    families = AllDiameter3Families();
  }
  std::map<std::string, std::string> paper;
  for (const auto& [k, v] : p.Members("paper_ratios")) {
    const std::string key = "paper_ratios." + k;
    FamilyByName(k, p, key);
    if (!v->is_string()) throw p.Error(key, "expected a string, got " + JsonTypePhrase(*v));
    if (!ParsePaperValue(v->get<std::string>())) {
      throw p.Error(
          key, "must be a decimal with at most 2 decimals, got '" + v->get<std::string>() + "'");
    }
    paper[k] = v->get<std::string>();
  }
  std::vector<ExperimentTask> tasks;
  for (Diameter3Family fam : families) {
    const std::string name = Diameter3FamilyName(fam);
    const std::string want = paper.count(name) ? paper[name] : "";
    tasks.push_back(
        {name + " radix " + std::to_string(lo) + ".." + std::to_string(hi),
         [fam, name, lo, hi, want]() {
           std::vector<ExperimentRow> rows;
           std::vector<Rational> ratios;
           auto t0 = std::chrono::steady_clock::now();
           for (std::int64_t k = lo; k <= hi; ++k) {
             auto t1 = std::chrono::steady_clock::now();
             auto d = LargestDiameter3Design(fam, k);
             if (!d) continue;
             auto ps = LargestDiameter3Design(Diameter3Family::kPolarStar, k);
             const BigInt moore = MooreBoundDiameter3(k);
             const Rational eff = Rational(d->routers) / Rational(moore);
             ExperimentRow r;
             r.instance = d->expression;
             r.algorithm = name;
             r.nodes = ToInt64(d->routers);
             r.extra = {{"radix", std::to_string(k)},
                        {"routers", ToString(d->routers)},
                        {"moore_bound", ToString(moore)},
                        {"moore_efficiency", ToString(eff)},
                        {"moore_efficiency_decimal", Decimal6(eff)}};
             if (ps) {
               const Rational ratio = Rational(ps->routers) / Rational(d->routers);
               ratios.push_back(ratio);
               r.extra.push_back({"polarstar", ps->expression});
               r.extra.push_back({"polarstar_routers", ToString(ps->routers)});
               r.extra.push_back({"ratio", ToString(ratio)});
               r.extra.push_back({"ratio_decimal", Decimal6(ratio)});
             }
             r.wall_seconds = SecondsSince(t1);
             rows.push_back(std::move(r));
           }
           ExperimentRow g;
           g.instance = "geomean[" + std::to_string(lo) + "," + std::to_string(hi) + "]";
           g.algorithm = name;
           g.extra = {{"radixes", std::to_string(ratios.size())}};
           if (!ratios.empty()) {
             const std::string gm = GeometricMeanFloor(ratios, 3);
             g.extra.push_back({"geomean_ratio_floor", gm});
             if (!want.empty()) {
               // Round the exact mean half up to the paper's decimals, from
               // floor(1000·x) (floor(floor(y)/10) = floor(y/10)).
               auto [paper_digits, decimals] = *ParsePaperValue(want);  // checked in ScaleTasks
               BigInt m(gm.substr(0, gm.find('.')) + gm.substr(gm.find('.') + 1));
               for (int i = decimals; i < 2; ++i) m /= 10;  // floor(10^(d+1)·x)
               const BigInt rounded = (m + 5) / 10;
               g.extra.push_back({"paper_ratio", want});
               g.extra.push_back({"matches_paper", rounded == paper_digits ? "yes" : "no"});
             }
           }
           g.wall_seconds = SecondsSince(t0);
           rows.push_back(std::move(g));
           return rows;
         }});
  }
  return tasks;
}

struct Measured {
  std::int64_t routers = 0, radix = 0, endpoints = 0;
  int diameter = -1;  // -1: endpoint routers not connected
};

Measured Measure(const Topology& g, std::int64_t endpoints_per_router) {
  Measured m;
  const bool direct = g.num_switches() == 0;
  const int n = g.num_nodes();
  auto is_router = [&](int v) { return direct || g.IsSwitch(v); };
  std::vector<char> has_endpoint(static_cast<std::size_t>(n), direct ? 1 : 0);
  for (int v = 0; v < n; ++v) {
    if (!is_router(v)) continue;
    ++m.routers;
    std::int64_t ports = 0;
    for (int e : g.OutLinks(v)) {
      const int w = g.link(e).to;
      if (is_router(w)) {
        ports += g.link(e).multiplicity;
      } else {
        has_endpoint[static_cast<std::size_t>(v)] = 1;
      }
    }
    m.radix = std::max(m.radix, ports);
  }
  m.endpoints = direct ? m.routers * endpoints_per_router : g.num_compute();
  // BFS over routers from every endpoint router.
  int diameter = 0;
  std::vector<int> dist(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) {
    if (!is_router(s) || !has_endpoint[static_cast<std::size_t>(s)]) continue;
    std::fill(dist.begin(), dist.end(), -1);
    std::queue<int> queue;
    dist[static_cast<std::size_t>(s)] = 0;
    queue.push(s);
    while (!queue.empty()) {
      const int v = queue.front();
      queue.pop();
      for (int e : g.OutLinks(v)) {
        const int w = g.link(e).to;
        if (is_router(w) && dist[static_cast<std::size_t>(w)] < 0) {
          dist[static_cast<std::size_t>(w)] = dist[static_cast<std::size_t>(v)] + 1;
          queue.push(w);
        }
      }
    }
    for (int t = 0; t < n; ++t) {
      if (!is_router(t) || !has_endpoint[static_cast<std::size_t>(t)]) continue;
      if (dist[static_cast<std::size_t>(t)] < 0) {
        m.diameter = -1;
        return m;
      }
      diameter = std::max(diameter, dist[static_cast<std::size_t>(t)]);
    }
  }
  m.diameter = diameter;
  return m;
}

std::vector<ExperimentTask> TableTasks(const ExperimentInput& in) {
  const Params p(in);
  if (!p.Has("rows")) throw p.Error("rows", "missing (an array of objects is required)");
  std::vector<ExperimentTask> tasks;
  for (const Params& row : p.Objects("rows")) {
    const std::string label = row.String("label");
    const std::string topo = row.Topology("topology");
    const std::int64_t per_router = row.Int("endpoints_per_router", 0);
    // The paper's printed routers / radix / endpoints (a string or an integer), "" if absent.
    std::map<std::string, std::string> paper;
    if (row.Has("paper")) {
      const Params printed = row.Object("paper");
      for (const char* key : {"routers", "radix", "endpoints"}) {
        if (!printed.Has(key)) continue;
        const json& v = printed.Raw()[key];
        if (!v.is_string() && !v.is_number_integer())
          throw printed.Error(key, "expected a string or an integer, got " + JsonTypePhrase(v));
        paper[key] = v.is_string() ? v.get<std::string>() : v.dump();
      }
    }
    tasks.push_back(
        {label + " " + topo, [label, topo, per_router, paper]() {
           auto t0 = std::chrono::steady_clock::now();
           const Topology g = EvaluateTopologyExpression(topo);
           const Measured m = Measure(g, per_router);
           ExperimentRow r;
           r.instance = topo;
           r.algorithm = label;
           r.nodes = m.routers;
           r.extra = {{"routers", std::to_string(m.routers)},
                      {"radix", std::to_string(m.radix)},
                      {"endpoints", std::to_string(m.endpoints)},
                      {"diameter", m.diameter < 0 ? "disconnected" : std::to_string(m.diameter)}};
           std::string differs;
           bool printed = false;  // the paper prints at least one of the values
           for (const char* key : {"routers", "radix", "endpoints"}) {
             const std::string ours = key == std::string("routers") ? std::to_string(m.routers)
                                      : key == std::string("radix") ? std::to_string(m.radix)
                                                                    : std::to_string(m.endpoints);
             const auto found = paper.find(key);
             const std::string theirs = found == paper.end() ? "" : found->second;
             r.extra.push_back({std::string("paper_") + key, theirs});
             printed |= !theirs.empty();
             if (!theirs.empty() && theirs != ours)
               differs +=
                   (differs.empty() ? "" : "; ") + std::string(key) + " " + ours + " vs " + theirs;
           }
           // The family's closed-form size (computed before building) against
           // the built instance.
           const auto size = EstimateTopologyExpressionSize(topo);
           const std::string closed = size ? ToString(size->nodes) : "";
           r.extra.push_back({"nodes_built", std::to_string(g.num_nodes())});
           r.extra.push_back({"nodes_closed_form", closed});
           if (!closed.empty() && closed != std::to_string(g.num_nodes()))
             differs += (differs.empty() ? "" : "; ") + std::string("closed form ") + closed;
           // Nothing printed is nothing compared: "n/a", never "yes" (a closed form that
           // disagrees with the built instance is still "no").
           r.extra.push_back({"matches_paper", !differs.empty() ? "no: " + differs
                                               : printed        ? "yes"
                                                                : "n/a: no printed value"});
           r.wall_seconds = SecondsSince(t0);
           return std::vector<ExperimentRow>{r};
         }});
  }
  return tasks;
}

const ExperimentKindRegistrar kScale("diameter3-scale", &ScaleTasks,
                                     {"radix", "routers", "moore_bound", "moore_efficiency",
                                      "moore_efficiency_decimal", "polarstar", "polarstar_routers",
                                      "ratio", "ratio_decimal", "radixes", "geomean_ratio_floor",
                                      "paper_ratio", "matches_paper"});
const ExperimentKindRegistrar kTable("topology-table", &TableTasks,
                                     {"routers", "radix", "endpoints", "diameter", "paper_routers",
                                      "paper_radix", "paper_endpoints", "nodes_built",
                                      "nodes_closed_form", "matches_paper"});

}  // namespace
}  // namespace collsynth::experiments
