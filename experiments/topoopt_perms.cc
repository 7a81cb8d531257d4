// Experiment kind "topoopt-perms" (seed 002, TopoOpt §4.3, Algorithms 2-3, App. E.1-E.2):
// the permutation sets TotientPerms and SelectPermutations produce and the diameters of the
// circulant digraphs they span, against the bound of Theorem 1 / App. E.2.
//   "totient": [n, ...] — one row per n: the shifts p < n with gcd(p, n) = 1 (Alg. 2, as
//     corrected in papers/README.md), φ(n), and the diameter of totientperms(n).
//   "select": {"n_min": a, "n_max": b, "extra_n": [...], "d": [...]} — one row per (n, d) with
//     d <= φ(n): SelectPermutations(n, d) (Alg. 3, graphs/generators/topoopt.h), the BFS
//     diameter of selectperms(n, d) (directed links i -> i+p, the coin-change routing of App.
//     E.3), the bound d·n^(1/d) (printed truncated to 3 decimals from an exact integer d-th
//     root) and within_bound, decided exactly as diameter^d <= d^d·n.
//   "geometric": [{"x": x, "d": d}, ...] — App. E.2's simplified problem: n = x^d, coins
//     1, x, ..., x^(d-1) (not coprime to n; the argument's idealisation), the BFS diameter
//     κ(n-1) against the paper's "κ(n-1) = dx".
// Every row is a formula/BFS row (verified n/a). O(n·d) per BFS; all rows run in one task.
#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/rational.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/generators/topoopt.h"
#include "graphs/metrics.h"

namespace collsynth::experiments {
namespace {

BigInt Pow(const BigInt& b, std::int64_t e) {
  BigInt r = 1;
  for (std::int64_t i = 0; i < e; ++i) r *= b;
  return r;
}

// floor(v^(1/d)) for v >= 0, d >= 1, by bisection on exact integers.
BigInt FloorRoot(const BigInt& v, std::int64_t d) {
  BigInt lo = 0, hi = 1;
  while (Pow(hi, d) <= v) hi *= 2;
  while (hi - lo > 1) {
    BigInt mid = (lo + hi) / 2;
    if (Pow(mid, d) <= v) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// d·n^(1/d) truncated to 3 decimals: floor((d^d·n·10^(3d))^(1/d)) / 1000, exactly.
std::string BoundText(std::int64_t n, std::int64_t d) {
  const BigInt scaled = FloorRoot(Pow(BigInt(d), d) * n * Pow(BigInt(10), 3 * d), d);
  const BigInt whole = scaled / 1000, frac = scaled % 1000;
  std::string f = ToString(frac);
  while (f.size() < 3) f = "0" + f;
  return ToString(whole) + "." + f;
}

std::string Join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::int64_t x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

std::int64_t Diameter(const Topology& g) { return ComputeDistanceStats(g, 1).diameter; }

ExperimentRow Row(const std::string& instance, const std::string& algorithm, std::int64_t n,
                  std::int64_t d, const std::vector<std::int64_t>& shifts, std::int64_t diameter,
                  const std::string& bound, const std::string& within, const std::string& paper) {
  ExperimentRow row;
  row.instance = instance;
  row.algorithm = algorithm;
  row.nodes = n;
  row.verified = Verified::kNotApplicable;
  row.extra = {{"n", std::to_string(n)}, {"d", std::to_string(d)},
               {"shifts", Join(shifts)}, {"diameter", std::to_string(diameter)},
               {"bound", bound},         {"within_bound", within},
               {"paper", paper}};
  return row;
}

std::string PaperNote(std::int64_t n, std::int64_t d, const std::string& algorithm) {
  if (algorithm == "TotientPerms" && n == 12) return "§4.3: p = 1, 5, 7, 11";
  if (algorithm == "SelectPermutations" && n == 16 && d == 3) {
    return "§4.3 Fig. 7-9: DLRM on 16 servers with 3 NICs, three +p rings (figure values not "
           "in the text)";
  }
  return "";
}

struct Plan {
  std::vector<std::int64_t> totient;                             // n
  std::vector<std::pair<std::int64_t, std::int64_t>> select;     // (n, d), d <= φ(n)
  std::vector<std::pair<std::int64_t, std::int64_t>> geometric;  // (x, d)
};

// Bad parameters: InputError (file = the definition), before any task runs.
Plan ParsePlan(const Params& p) {
  Plan plan;
  for (std::int64_t n : p.Ints("totient", {}, 2, 4096)) plan.totient.push_back(n);
  if (p.Has("select")) {
    const Params s = p.Object("select");
    std::vector<std::int64_t> ns;
    const std::int64_t lo = s.Int("n_min", 0);
    const std::int64_t hi = s.Int("n_max", -1);
    if (lo < 0 || hi > 4096) throw s.Error("", "n_min/n_max must lie in [2, 4096]");
    for (std::int64_t n = std::max<std::int64_t>(lo, 2); n <= hi; ++n) ns.push_back(n);
    for (std::int64_t n : s.Ints("extra_n", {}, 2, 4096)) ns.push_back(n);
    const std::vector<std::int64_t> ds = s.Ints("d", {}, 1, 4096);
    for (std::int64_t n : ns) {
      const std::int64_t phi = static_cast<std::int64_t>(TotientShifts(n).size());
      for (std::int64_t d : ds) {
        if (d <= phi) plan.select.emplace_back(n, d);  // Alg. 3 needs d distinct coprime shifts
      }
    }
  }
  for (const Params& c : p.Objects("geometric")) {
    if (!c.Has("x") || !c.Has("d")) throw c.Error("", "entries are {\"x\": x, \"d\": d}");
    const std::int64_t x = c.Int("x"), d = c.Int("d");
    if (x < 2 || d < 1 || d > 12 || Pow(BigInt(x), d) > 4096) {
      throw c.Error("", "needs x >= 2, 1 <= d, x^d <= 4096");
    }
    plan.geometric.emplace_back(x, d);
  }
  return plan;
}

std::vector<ExperimentRow> RunPlan(const Plan& plan) {
  std::vector<ExperimentRow> rows;
  for (std::int64_t n : plan.totient) {
    const std::vector<std::int64_t> shifts = TotientShifts(n);
    const std::int64_t phi = static_cast<std::int64_t>(shifts.size());
    rows.push_back(Row("totientperms(" + std::to_string(n) + ")", "TotientPerms", n, phi, shifts,
                       Diameter(TotientPerms(n)), "", "", PaperNote(n, phi, "TotientPerms")));
  }
  for (const auto& [n, d] : plan.select) {
    const std::vector<std::int64_t> shifts = SelectPermutations(n, d);
    const std::int64_t diam = Diameter(SelectPerms(n, d));
    const bool within = Pow(BigInt(diam), d) <= Pow(BigInt(d), d) * n;
    rows.push_back(Row("selectperms(" + std::to_string(n) + "," + std::to_string(d) + ")",
                       "SelectPermutations", n, d, shifts, diam, BoundText(n, d),
                       within ? "yes" : "no", PaperNote(n, d, "SelectPermutations")));
  }
  for (const auto& [x, d] : plan.geometric) {
    const std::int64_t n = static_cast<std::int64_t>(Pow(BigInt(x), d));
    std::vector<std::int64_t> coins;
    for (std::int64_t i = 0, v = 1; i < d; ++i, v *= x) coins.push_back(v);
    const std::string name = "geometric(" + std::to_string(x) + "," + std::to_string(d) + ")";
    const std::int64_t diam = Diameter(RingPermutations(n, coins, name));
    rows.push_back(Row(name, "App. E.2 coins x^i", n, d, coins, diam,
                       std::to_string(d * x) + ".000", diam <= d * x ? "yes" : "no",
                       "App. E.2: kappa(n-1) = dx = " + std::to_string(d * x) +
                           "; d(x-1) = " + std::to_string(d * (x - 1))));
  }
  return rows;
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& in) {
  const Plan plan = ParsePlan(Params(in));
  return {{"topoopt-perms", [plan] { return RunPlan(plan); }}};
}

const ExperimentKindRegistrar kRegistrar("topoopt-perms", &MakeTasks,
                                         {"n", "d", "shifts", "diameter", "bound", "within_bound",
                                          "paper"});

}  // namespace
}  // namespace collsynth::experiments
