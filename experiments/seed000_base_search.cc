#include "experiments/seed000_base_search.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "core/input_error.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"
#include "experiments/params.h"
#include "graphs/expansions.h"
#include "proofs_check/step_checker.h"
#include "solvers/backends/lp_backend.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/bfb/schedule_expansion.h"
#include "solvers/bfb/step_milp.h"
#include "theory/moore_bound.h"

namespace collsynth::experiments {
namespace {

// Branch-and-bound over BFS labellings (see CanonicalCode).
class Canonizer {
 public:
  explicit Canonizer(const SmallDigraph& g)
      : g_(g), n_(static_cast<int>(g.size())), d_(g.empty() ? 0 : static_cast<int>(g[0].size())) {
    for (const auto& out : g_) {
      if (static_cast<int>(out.size()) != d_)
        throw std::logic_error("CanonicalCode: the digraph is not out-regular");
    }
  }

  std::vector<int> Run() {
    for (int root = 0; root < n_; ++root) {
      label_.assign(n_, -1);
      order_.assign(n_, -1);
      code_.assign(static_cast<std::size_t>(n_) * d_, 0);
      label_[root] = 0;
      order_[0] = root;
      Label(0, 1);
    }
    return best_;
  }

 private:
  // Labels node order_[i]'s new out-neighbours (every order), writes row i, recurses.
  void Label(int i, int next) {
    if (i == n_) {
      if (best_.empty() || code_ < best_) best_ = code_;
      return;
    }
    if (i >= next) throw std::logic_error("CanonicalCode: the digraph is not strongly connected");
    const int v = order_[i];
    std::vector<int> fresh;
    for (int w : g_[v]) {
      if (label_[w] < 0 && std::find(fresh.begin(), fresh.end(), w) == fresh.end())
        fresh.push_back(w);
    }
    std::sort(fresh.begin(), fresh.end());
    do {
      for (std::size_t k = 0; k < fresh.size(); ++k) {
        label_[fresh[k]] = next + static_cast<int>(k);
        order_[next + k] = fresh[k];
      }
      std::vector<int> row;
      for (int w : g_[v]) row.push_back(label_[w]);
      std::sort(row.begin(), row.end());
      std::copy(row.begin(), row.end(), code_.begin() + static_cast<std::ptrdiff_t>(i) * d_);
      const auto end = code_.begin() + static_cast<std::ptrdiff_t>(i + 1) * d_;
      // Prune a prefix that is already larger than the best code's.
      if (best_.empty() ||
          !std::lexicographical_compare(best_.begin(), best_.begin() + (end - code_.begin()),
                                        code_.begin(), end)) {
        Label(i + 1, next + static_cast<int>(fresh.size()));
      }
      for (int w : fresh) label_[w] = -1;
    } while (std::next_permutation(fresh.begin(), fresh.end()));
  }

  const SmallDigraph& g_;
  int n_;
  int d_;
  std::vector<int> label_, order_, code_, best_;
};

// TwoRegularDigraphs: node x's out-pair, x = 0..n-1 in BFS label order.
void ExtendTwoRegular(int x, int next, SmallDigraph& g, std::vector<int>& indeg,
                      std::set<std::vector<int>>& seen, std::vector<SmallDigraph>& out) {
  const int n = static_cast<int>(g.size());
  if (x == n) {
    if (next != n) return;
    for (int k : indeg) {
      if (k != 2) return;
    }
    if (SmallDiameter(g) < 0) return;
    if (seen.insert(CanonicalCode(g)).second) out.push_back(g);
    return;
  }
  if (x >= next) return;  // x unreachable from node 0
  std::vector<int> old;
  for (int y = 0; y < next; ++y) {
    if (y != x && indeg[y] < 2) old.push_back(y);
  }
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < old.size(); ++i) {
    for (std::size_t j = i + 1; j < old.size(); ++j) pairs.emplace_back(old[i], old[j]);
  }
  if (next < n) {
    for (int a : old) pairs.emplace_back(a, next);
  }
  if (next + 1 < n) pairs.emplace_back(next, next + 1);
  for (const auto& [a, b] : pairs) {
    const int grown = next + (a >= next ? 1 : 0) + (b >= next ? 1 : 0);
    g[x] = {a, b};
    ++indeg[a];
    ++indeg[b];
    ExtendTwoRegular(x + 1, grown, g, indeg, seen, out);
    --indeg[a];
    --indeg[b];
  }
  g[x].clear();
}

// The index of the word a b a b ... (n letters) in B(d, n) (most significant letter first).
int AlternatingWord(int a, int b, int d, int n) {
  int index = 0;
  for (int k = 0; k < n; ++k) index = index * d + (k % 2 == 0 ? a : b);
  return index;
}

}  // namespace

std::vector<int> CanonicalCode(const SmallDigraph& g) { return Canonizer(g).Run(); }

SmallDigraph Transposed(const SmallDigraph& g) {
  SmallDigraph t(g.size());
  for (std::size_t v = 0; v < g.size(); ++v) {
    for (int w : g[v]) t[w].push_back(static_cast<int>(v));
  }
  return t;
}

int SmallDiameter(const SmallDigraph& g) {
  const int n = static_cast<int>(g.size());
  int diameter = 0;
  std::vector<int> dist(n), queue(n);
  for (int s = 0; s < n; ++s) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[s] = 0;
    int head = 0, tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const int v = queue[head++];
      for (int w : g[v]) {
        if (dist[w] < 0) {
          dist[w] = dist[v] + 1;
          queue[tail++] = w;
        }
      }
    }
    if (tail < n) return -1;
    diameter = std::max(diameter, dist[queue[tail - 1]]);
  }
  return diameter;
}

bool IsReverseSymmetric(const SmallDigraph& g) {
  return CanonicalCode(g) == CanonicalCode(Transposed(g));
}

Topology ToTopology(const SmallDigraph& g, const std::string& name) {
  Topology t(name);
  for (std::size_t v = 0; v < g.size(); ++v) t.AddCompute(std::to_string(v));
  for (std::size_t v = 0; v < g.size(); ++v) {
    for (int w : g[v]) t.AddLink(static_cast<int>(v), w, Rational(1));
  }
  return t;
}

std::vector<SmallDigraph> TwoRegularDigraphs(int n) {
  if (n < 3 || n > 10) throw std::invalid_argument("TwoRegularDigraphs: n must be in 3..10");
  SmallDigraph g(n);
  std::vector<int> indeg(n, 0);
  std::set<std::vector<int>> seen;
  std::vector<SmallDigraph> found;
  ExtendTwoRegular(0, 1, g, indeg, seen, found);
  std::vector<std::pair<std::vector<int>, SmallDigraph>> keyed;
  for (auto& h : found) keyed.emplace_back(CanonicalCode(h), std::move(h));
  std::sort(keyed.begin(), keyed.end());
  std::vector<SmallDigraph> out;
  for (auto& [code, h] : keyed) out.push_back(std::move(h));
  return out;
}

DbjRewirings DbjModRewirings(int d, int n) {
  if (d < 2 || n < 2) throw std::invalid_argument("DbjModRewirings: needs d >= 2 and n >= 2");
  int count = 1;
  for (int k = 0; k < n; ++k) count *= d;
  if (count > 4096) throw std::invalid_argument("DbjModRewirings: d^n above 4096");
  // Base B(d,n) minus loops and 2-cycles.
  SmallDigraph base(count);
  for (int i = 0; i < count; ++i) {
    for (int a = 0; a < d; ++a) base[i].push_back((i * d) % count + a);
  }
  std::vector<int> pair_word(d * d);  // (a, b) -> word a b a b ...
  for (int a = 0; a < d; ++a) {
    for (int b = 0; b < d; ++b) pair_word[a * d + b] = AlternatingWord(a, b, d, n);
  }
  for (int a = 0; a < d; ++a) {
    for (int b = 0; b < d; ++b) {
      const int from = pair_word[a * d + b], to = pair_word[b * d + a];
      auto& out = base[from];
      out.erase(std::find(out.begin(), out.end(), to));
    }
  }
  DbjRewirings result;
  auto try_cycle = [&](const std::vector<int>& cycle) {
    ++result.cycles_listed;
    const std::size_t m = cycle.size();
    for (std::size_t k = 0; k < m; ++k) {
      const int p = cycle[k], q = cycle[(k + 1) % m];
      if (p == q) return;
      if (std::find(base[p].begin(), base[p].end(), q) != base[p].end()) return;
    }
    DbjRewiring r;
    r.graph = base;
    for (std::size_t k = 0; k < m; ++k) r.graph[cycle[k]].push_back(cycle[(k + 1) % m]);
    for (auto& out : r.graph) std::sort(out.begin(), out.end());
    r.cycle = cycle;
    result.rewirings.push_back(std::move(r));
  };
  if (d * d - 1 <= 8) {
    // Every cyclic order of the d² affected words, from 00…0 (pair (0,0) = index 0).
    std::vector<int> rest;
    for (int p = 1; p < d * d; ++p) rest.push_back(pair_word[p]);
    std::sort(rest.begin(), rest.end());
    do {
      std::vector<int> cycle{pair_word[0]};
      cycle.insert(cycle.end(), rest.begin(), rest.end());
      try_cycle(cycle);
    } while (std::next_permutation(rest.begin(), rest.end()));
    return result;
  }
  // Restricted: c_{k+d} = σ^s(c_k) with σ the letter rotation (a,b) -> (a+1,b+1) and s a
  // unit mod d; c_0 = (0,0), c_1..c_{d-1} one pair from each other orbit (difference b - a).
  result.restricted = true;
  std::vector<int> diffs;
  for (int e = 1; e < d; ++e) diffs.push_back(e);
  do {
    std::vector<int> start(d - 1, 0);  // first letter a of c_k, k = 1..d-1
    while (true) {
      for (int s = 1; s < d; ++s) {
        if (std::gcd(s, d) != 1) continue;
        std::vector<int> cycle;
        for (int block = 0; block < d; ++block) {
          const int shift = (block * s) % d;
          cycle.push_back(pair_word[shift * d + shift]);
          for (int k = 0; k < d - 1; ++k) {
            const int a = (start[k] + shift) % d, b = (start[k] + diffs[k] + shift) % d;
            cycle.push_back(pair_word[a * d + b]);
          }
        }
        try_cycle(cycle);
      }
      int k = 0;
      while (k < d - 1 && ++start[k] == d) start[k++] = 0;
      if (k == d - 1) break;
    }
  } while (std::next_permutation(diffs.begin(), diffs.end()));
  return result;
}

ExactOnceResult ExactOnceStepMilp(const Topology& g, int steps, int chunks, double seconds) {
  const int n = g.num_nodes();
  std::vector<std::vector<int>> dist(n, std::vector<int>(n, -1));  // BFS from each node
  for (int s = 0; s < n; ++s) {
    std::vector<int> queue{s};
    dist[s][s] = 0;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      for (int l : g.OutLinks(queue[h])) {
        const int w = g.link(l).to;
        if (dist[s][w] < 0) {
          dist[s][w] = dist[s][queue[h]] + 1;
          queue.push_back(w);
        }
      }
    }
  }
  for (const Link& l : g.links()) {
    if (l.multiplicity != 1 || l.bandwidth != 1 || g.IsSwitch(l.from) || g.IsSwitch(l.to))
      throw std::invalid_argument("ExactOnceStepMilp: unit links between compute nodes only");
  }
  const int degree = static_cast<int>(g.OutLinks(0).size());
  LpProblem lp;
  auto column = [&](double hi) {
    lp.objective.push_back(0);
    lp.col_lower.push_back(0);
    lp.col_upper.push_back(hi);
    lp.integer.push_back(true);
    return lp.num_cols() - 1;
  };
  auto new_row = [&](double lo, double hi) {
    lp.row_lower.push_back(lo);
    lp.row_upper.push_back(hi);
    return lp.num_rows() - 1;
  };
  // z[(s, chunk, link, t)]: that chunk of s's shard crosses the link at step t; only where the
  // sender can hold it (d(s, from) <= t - 1) and the receiver can use it (d(s, to) <= t).
  std::map<std::tuple<int, int, int, int>, int> z;
  for (int s = 0; s < n; ++s) {
    for (int c = 0; c < chunks; ++c) {
      for (int e = 0; e < g.num_links(); ++e) {
        const Link& l = g.link(e);
        for (int t = 1; t <= steps; ++t) {
          if (l.to != s && dist[s][l.from] <= t - 1 && dist[s][l.to] <= t)
            z[{s, c, e, t}] = column(1);
        }
      }
    }
  }
  std::vector<int> load(steps + 1);
  for (int t = 1; t <= steps; ++t) load[t] = column(chunks * n);
  auto z_at = [&](int s, int c, int e, int t) {
    auto it = z.find({s, c, e, t});
    return it == z.end() ? -1 : it->second;
  };
  for (int s = 0; s < n; ++s) {  // every chunk reaches every other node exactly once
    for (int c = 0; c < chunks; ++c) {
      for (int v = 0; v < n; ++v) {
        if (v == s) continue;
        const int r = new_row(1, 1);
        for (int e : g.InLinks(v)) {
          for (int t = 1; t <= steps; ++t) {
            if (z_at(s, c, e, t) >= 0) lp.entries.push_back({r, z_at(s, c, e, t), 1});
          }
        }
      }
    }
  }
  for (const auto& [key, col] : z) {  // the sender received it at an earlier step
    const auto [s, c, e, t] = key;
    const int u = g.link(e).from;
    if (u == s) continue;
    const int r = new_row(-kLpInfinity, 0);
    lp.entries.push_back({r, col, 1});
    for (int e2 : g.InLinks(u)) {
      for (int t2 = 1; t2 < t; ++t2) {
        if (z_at(s, c, e2, t2) >= 0) lp.entries.push_back({r, z_at(s, c, e2, t2), -1});
      }
    }
  }
  for (int e = 0; e < g.num_links(); ++e) {  // every link carries L_t chunks at step t
    for (int t = 1; t <= steps; ++t) {
      const int r = new_row(0, 0);
      lp.entries.push_back({r, load[t], -1});
      for (int s = 0; s < n; ++s) {
        for (int c = 0; c < chunks; ++c) {
          if (z_at(s, c, e, t) >= 0) lp.entries.push_back({r, z_at(s, c, e, t), 1});
        }
      }
    }
  }
  const double total = static_cast<double>(chunks) * (n - 1) / degree;  // sum_t L_t
  const int r = new_row(total, total);
  for (int t = 1; t <= steps; ++t) lp.entries.push_back({r, load[t], 1});
  CbcOptions options;
  options.time_limit_seconds = seconds;
  options.standard_cuts = true;
  const LpSolution sol = SolveIlpWithCbc(lp, options);
  ExactOnceResult out;
  if (sol.outcome == LpOutcome::kInfeasible) {
    out.outcome = "none";
    return out;
  }
  if (sol.outcome != LpOutcome::kOptimal || sol.primal.empty()) {
    out.outcome = "time limit";
    return out;
  }
  out.outcome = "found";
  for (const auto& [key, col] : z) {
    if (sol.primal[col] < 0.5) continue;
    const auto [s, c, e, t] = key;
    StepSend send;
    send.source = s;
    send.chunk = {Interval{Rational(c, chunks), Rational(c + 1, chunks)}};
    send.from = g.link(e).from;
    send.to = g.link(e).to;
    send.step = t;
    out.schedule.sends.push_back(send);
  }
  for (int t = 1; t <= steps; ++t) out.loads.push_back(static_cast<int>(sol.primal[load[t]] + 0.5));
  const StepCheckReport report = CheckStepSchedule(g, out.schedule);
  out.checked = report.ok && report.tl == steps && report.tb == Rational(n - 1) / Rational(degree);
  return out;
}

BfbValue BfbAllgather(const Topology& g) {
  BfbOptions options;
  options.certificates = false;
  options.threads = 1;
  BfbValue v;
  if (BfbFlatPlanApplies(g, options)) {
    BfbFlatPlan plan = SolveBfbFlatPlan(g, options);
    v.tl = plan.diameter;
    for (const auto& t : plan.step_tb) v.tb += t;
  } else {
    BfbPlan plan = SolveBfbPlan(g, options);
    v.tl = plan.diameter;
    for (const auto& t : plan.step_tb) v.tb += t;
  }
  return v;
}

// ---- Experiment kind "seed000-base-search" ----
//   params {"diamond": {"table4_tl": 16, "table4_tb": "2.008"},
//           "dbjmod": [{"d", "n", "tl", "reverse_symmetric", "table4_tl", "table4_tb"}],
//           "all_rows_max": K}
// One task per search. Rows: one "summary" row per search (the count after each filter, in
// `counts`), then one row per isomorphism class: every class when there are at most K,
// else only the classes that fit Table 9. A row's tl/tb are D(G) and BFB's allgather T_B
// (M/B); `table4_*` are the allreduce T_L (α) and T_B (M/B) of the Table 4 row built on G,
// BFB on H for allgather plus BFB on H^T for reduce-scatter (Cor. 3.1), and its time at
// α = 10 µs, M/B = 2^20 B / 100 Gbps = 83.88608 µs. Both rows square first, then take line
// graphs: Diamond H = L²(G^□2), DBJMod(2,4) H = L(G^□2) (the printed "L(DBJMod(2,4))^□2" read
// as L applied to the square; the other reading, L(G)^□2, gives allreduce T_L 4·(D+1), never
// the printed 22: docs/errata.md). `table4_expanded_*` are the same row from a bandwidth-optimal
// step-MILP base schedule expanded by Thms 12 and 1 and checked (when the MILP finds one).
// `matches_table4` says whether T_L equals and T_B rounds to the printed value.
namespace {

using nlohmann::json;

std::string EdgeList(const SmallDigraph& g) {
  std::string s;
  for (std::size_t v = 0; v < g.size(); ++v) {
    for (int w : g[v]) s += (s.empty() ? "" : " ") + std::to_string(v) + ">" + std::to_string(w);
  }
  return s;
}

std::string CodeString(const std::vector<int>& code) {
  std::string s;
  for (int x : code) s += (s.empty() ? "" : ".") + std::to_string(x);
  return s;
}

struct Table4Value {
  Rational tl, tb;  // allreduce, α and M/B
};

Table4Value Table4Of(const Topology& h) {
  const BfbValue ag = BfbAllgather(h);
  const BfbValue rs = BfbAllgather(TransposeOf(h));
  const Rational per_unit = Rational(static_cast<long>(h.OutLinks(0).size())) /
                            Rational(static_cast<long>(h.num_nodes()));
  return {Rational(ag.tl + rs.tl), (ag.tb + rs.tb) * per_unit};
}

const Rational kTable4AlphaUs(10);
const Rational kTable4MbUs(8388608, 100000);  // 2^20 bytes · 8 / 10^11 bit/s, in µs

struct SearchSpec {
  std::string name;  // "diamond" or "dbjmod(d,n)"
  int d = 2, n = 8;  // dbjmod: (d, n); diamond: degree 2, 8 nodes
  bool diamond = false;
  int tl = 0;  // Table 9's T_L (diamond: T_L*, Moore optimal)
  bool reverse_symmetric = false;
  bool milp = true;  // run the step MILP (params.milp) on the classes BFB does not settle
  bool has_table4 = false;
  Rational table4_tl;
  std::string table4_tb;  // the printed digits
};

struct MilpSpec {
  std::vector<int> chunks;   // P values tried in order; empty = no MILP
  double seconds = 10;       // per solve
  std::vector<int> classes;  // only these class indices (empty = all)
  bool exact_once = false;   // "model": "exact-once" (ExactOnceStepMilp), else the step MILP
};

// The step MILP (solvers/bfb/step_milp.h) with exactly `steps` comm steps, P = each of
// milp.chunks in turn until a checked schedule reaches T_B = (N-1)/d shard units (Thm 6's
// bound: bandwidth optimal). `chunks` is that P (0: none did); `tb` the least checked T_B
// found (shard units); `outcomes` the CBC outcome per P.
struct MilpFinding {
  int chunks = 0;
  std::optional<Rational> tb;
  std::string outcomes;
  StepSchedule schedule;  // the bandwidth-optimal one, when chunks > 0
};
MilpFinding MilpAtSteps(const Topology& g, int steps, const MilpSpec& milp) {
  const Rational bound =
      Rational(g.num_nodes() - 1) / Rational(static_cast<long>(g.OutLinks(0).size()));
  MilpFinding f;
  for (int p : milp.chunks) {
    if (milp.exact_once) {
      ExactOnceResult r = ExactOnceStepMilp(g, steps, p, milp.seconds);
      f.outcomes += (f.outcomes.empty() ? "" : " ") + std::string("P=") + std::to_string(p) +
                    ":exact-once " + r.outcome +
                    (r.outcome == "found" && !r.checked ? " (rejected)" : "");
      if (r.checked) {
        f.tb = bound;
        f.chunks = p;
        f.schedule = std::move(r.schedule);
        break;
      }
      continue;
    }
    StepMilpOptions o;
    o.chunks = p;
    o.min_steps = steps;
    o.max_steps = steps;
    o.time_limit_seconds = milp.seconds;
    const StepMilpResult r = SynthesizeStepMilp(g, o);
    const StepMilpSolve* best = r.Best();
    f.outcomes += (f.outcomes.empty() ? "" : " ") + std::string("P=") + std::to_string(p) + ":" +
                  (r.solves.empty() ? "none" : ToString(r.solves.back().outcome));
    if (best == nullptr || !best->verified || best->tl != steps) continue;
    if (!f.tb || best->tb < *f.tb) f.tb = best->tb;
    if (best->tb == bound) {
      f.chunks = p;
      f.schedule = best->schedule;
      break;
    }
  }
  return f;
}

// A Table 4 row the paper's way: the base allgather schedule expanded by Cartesian square
// and then `lines` line-graph expansions (Diamond 2, DBJMod(2,4) 1;
// solvers/bfb/schedule_expansion.h), checked by the step checker; returns {T_L, T_B in shard
// units}, or nullopt when the checker rejects it.
std::optional<std::pair<int, Rational>> ExpandedTable4Row(const Topology& g, const StepSchedule& a,
                                                          int lines) {
  ExpandedSchedule e = CartesianPowerSchedule(g, a, 2);
  for (int k = 0; k < lines; ++k) e = LineGraphSchedule(e.topology, e.schedule);
  const StepCheckReport r = CheckStepSchedule(e.topology, e.schedule);
  if (!r.ok) return std::nullopt;
  return std::make_pair(r.tl, r.tb);
}

struct ClassInfo {
  SmallDigraph g;
  std::string cycle;  // dbjmod: the added cycle
  long long labelled = 0;
};

std::vector<ExperimentRow> RunSearch(const SearchSpec& spec, int all_rows_max,
                                     const MilpSpec& milp) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<ClassInfo> classes;
  long long listed = 0;
  bool restricted = false;
  if (spec.diamond) {
    for (auto& g : TwoRegularDigraphs(spec.n)) classes.push_back({std::move(g), "", 1});
    listed = static_cast<long long>(classes.size());
  } else {
    DbjRewirings r = DbjModRewirings(spec.d, spec.n);
    listed = r.cycles_listed;
    restricted = r.restricted;
    std::map<std::vector<int>, std::size_t> index;
    for (auto& w : r.rewirings) {
      if (SmallDiameter(w.graph) < 0) continue;
      auto [it, fresh] = index.emplace(CanonicalCode(w.graph), classes.size());
      if (fresh) {
        std::string cycle;
        for (int v : w.cycle) cycle += (cycle.empty() ? "" : ">") + std::to_string(v);
        classes.push_back({std::move(w.graph), cycle, 0});
      }
      ++classes[it->second].labelled;
    }
  }
  const int nodes = static_cast<int>(classes.empty() ? 0 : classes[0].g.size());
  const int degree = spec.d;
  const Rational bound = BandwidthLowerBound(nodes);  // (N-1)/N M/B
  const std::int64_t moore = MooreOptimalSteps(nodes, degree);
  long long n_tl = 0, n_rs = 0, n_bw = 0, n_fit = 0;
  std::vector<ExperimentRow> rows;
  for (std::size_t k = 0; k < classes.size(); ++k) {
    const SmallDigraph& g = classes[k].g;
    const int diameter = SmallDiameter(g);
    const bool rs = IsReverseSymmetric(g);
    const Topology top = ToTopology(g, spec.name + "#" + std::to_string(k));
    const Rational per_unit = Rational(degree) / Rational(nodes);
    const BfbValue ag = BfbAllgather(top);
    const BfbValue tr = BfbAllgather(TransposeOf(top));
    const bool bw = ag.tb * per_unit == bound, bw_t = tr.tb * per_unit == bound;
    // A schedule with T_L = spec.tl needs D <= spec.tl; BFB gives T_L = D.
    const bool tl_ok = diameter <= spec.tl;
    const bool rs_ok = tl_ok && rs == spec.reverse_symmetric;
    const bool bfb_fits = rs_ok && diameter == spec.tl && bw;
    const bool milp_here =
        milp.classes.empty() || std::find(milp.classes.begin(), milp.classes.end(),
                                          static_cast<int>(k)) != milp.classes.end();
    const bool run_milp = spec.milp && rs_ok && !bfb_fits && milp_here && !milp.chunks.empty();
    const MilpFinding mf = run_milp ? MilpAtSteps(top, spec.tl, milp) : MilpFinding{};
    const int milp_p = mf.chunks;
    const bool fits = bfb_fits || milp_p > 0;
    n_tl += tl_ok;
    n_rs += rs_ok;
    n_bw += fits;
    n_fit += fits;
    if (static_cast<int>(classes.size()) > all_rows_max && !fits && !run_milp) continue;
    ExperimentRow row;
    row.instance = spec.name + "#" + std::to_string(k);
    row.algorithm = "bfb";
    row.collective = Collective::kAllgather;
    row.nodes = nodes;
    row.tl = Rational(diameter);
    row.tb = ag.tb * per_unit;
    row.lower_bound = bound;
    row.tb_unit = "M/B";
    std::string t4_tl, t4_tb, t4_us, t4_match, t4x_tl, t4x_tb, t4x_us;
    const int lines = spec.diamond ? 2 : 1;  // L²(G^□2) or L(G^□2)
    if (spec.has_table4 && milp_p > 0) {
      // Allgather on H from G's schedule, reduce-scatter on H from G^T's (Cor. 3.1).
      const Topology gt = TransposeOf(top);
      const MilpFinding mt = MilpAtSteps(gt, spec.tl, milp);
      if (mt.chunks > 0) {
        const auto ag = ExpandedTable4Row(top, mf.schedule, lines);
        const auto rs = ExpandedTable4Row(gt, mt.schedule, lines);
        if (ag && rs) {
          const Rational tl(ag->first + rs->first);
          const Rational tb = (ag->second + rs->second) * Rational(4, 1024);
          t4x_tl = ToString(tl);
          t4x_tb = ToString(tb);
          t4x_us = FormatDecimal(tl * kTable4AlphaUs + tb * kTable4MbUs, 3);
          if (tl == spec.table4_tl && FormatDecimal(tb, 3) == spec.table4_tb) t4_match = "yes";
        }
      }
    }
    if (spec.has_table4) {
      const Topology h = LineGraphPower(CartesianPower(top, 2), lines);
      const Table4Value v = Table4Of(h);
      t4_tl = ToString(v.tl);
      t4_tb = ToString(v.tb);
      t4_us = FormatDecimal(v.tl * kTable4AlphaUs + v.tb * kTable4MbUs, 3);
      if (v.tl == spec.table4_tl && FormatDecimal(v.tb, 3) == spec.table4_tb) t4_match = "yes";
      if (t4_match.empty()) t4_match = "no";
    }
    row.extra = {{"edges", EdgeList(g)},
                 {"canonical", CodeString(CanonicalCode(g))},
                 {"added_cycle", classes[k].cycle},
                 {"labelled_rewirings", spec.diamond ? "" : std::to_string(classes[k].labelled)},
                 {"reverse_symmetric", rs ? "yes" : "no"},
                 {"bfb_optimal", bw ? "yes" : "no"},
                 {"transpose_bfb_optimal", bw_t ? "yes" : "no"},
                 {"milp_optimal_chunks", milp_p > 0 ? std::to_string(milp_p) : ""},
                 {"milp_tb", mf.tb ? ToString(*mf.tb * per_unit) : ""},
                 {"milp_outcomes", mf.outcomes},
                 {"fits_table9", fits ? "yes" : "no"},
                 {"table4_tl", t4_tl},
                 {"table4_tb", t4_tb},
                 {"table4_us", t4_us},
                 {"table4_expanded_tl", t4x_tl},
                 {"table4_expanded_tb", t4x_tb},
                 {"table4_expanded_us", t4x_us},
                 {"matches_table4", t4_match},
                 {"counts", ""}};
    row.wall_seconds = 0;
    rows.push_back(std::move(row));
  }
  ExperimentRow summary;
  summary.instance = spec.name;
  summary.algorithm = "summary";
  summary.nodes = nodes;
  summary.tl = Rational(spec.diamond ? moore : spec.tl);
  summary.extra = {
      {"edges", ""},
      {"canonical", ""},
      {"added_cycle", ""},
      {"labelled_rewirings", ""},
      {"reverse_symmetric", spec.reverse_symmetric ? "yes" : "no"},
      {"bfb_optimal", ""},
      {"transpose_bfb_optimal", ""},
      {"milp_optimal_chunks", ""},
      {"milp_tb", ""},
      {"milp_outcomes", ""},
      {"fits_table9", std::to_string(n_fit)},
      {"table4_tl", spec.has_table4 ? ToString(spec.table4_tl) : ""},
      {"table4_tb", spec.table4_tb},
      {"table4_us", ""},
      {"table4_expanded_tl", ""},
      {"table4_expanded_tb", ""},
      {"table4_expanded_us", ""},
      {"matches_table4", ""},
      {"counts", std::string(spec.diamond ? "" : "cycles listed ") +
                     (spec.diamond ? "" : std::to_string(listed) + "; ") +
                     (restricted ? "restricted to rotation-invariant cycles; " : "") + "classes " +
                     std::to_string(classes.size()) + "; D <= T_L " + std::to_string(n_tl) +
                     "; and reverse symmetry as Table 9 " + std::to_string(n_rs) +
                     "; and bandwidth optimal at T_L steps " + std::to_string(n_bw)}};
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rows.insert(rows.begin(), std::move(summary));
  return rows;
}

void ReadTable4(const Params& p, SearchSpec& s) {
  if (!p.Has("table4_tl")) return;
  s.has_table4 = true;
  s.table4_tl = static_cast<int>(p.IntIn("table4_tl", INT32_MIN, INT32_MAX));
  s.table4_tb = p.String("table4_tb");  // the printed digits
}

std::vector<ExperimentTask> MakeTasks(const ExperimentInput& input) {
  const Params p(input);
  const int all_rows_max = static_cast<int>(p.Int("all_rows_max", 16, INT32_MIN, INT32_MAX));
  MilpSpec milp;
  if (p.Has("milp")) {
    const Params m = p.Object("milp");
    if (!m.Has("chunks")) throw m.Error("chunks", "missing (an array of integers is required)");
    for (std::int64_t c : m.Ints("chunks", {}, 1, kMaxMilpChunks))
      milp.chunks.push_back(static_cast<int>(c));
    for (std::int64_t c : m.Ints("classes", {}, INT32_MIN, INT32_MAX))
      milp.classes.push_back(static_cast<int>(c));
    milp.seconds = m.Number("seconds", milp.seconds);
    const std::string model = m.String("model", "objective");
    if (model != "objective" && model != "exact-once") {
      throw m.Error("model", "must be \"objective\" or \"exact-once\", got \"" + model + "\"");
    }
    milp.exact_once = model == "exact-once";
  }
  std::vector<SearchSpec> specs;
  if (p.Has("diamond")) {
    SearchSpec s;
    s.name = "diamond";
    s.diamond = true;
    s.d = 2;
    s.n = 8;
    s.tl = static_cast<int>(MooreOptimalSteps(8, 2));
    s.reverse_symmetric = false;
    ReadTable4(p.Object("diamond"), s);
    specs.push_back(s);
  }
  for (const Params& e : p.Objects("dbjmod")) {
    SearchSpec s;
    s.d = static_cast<int>(e.IntIn("d", INT32_MIN, INT32_MAX));
    s.n = static_cast<int>(e.IntIn("n", INT32_MIN, INT32_MAX));
    if (s.d < 2 || s.d > 5 || s.n < 2 || s.n > 5) throw e.Error("", "d and n must be in 2..5");
    s.name = "dbjmod(" + std::to_string(s.d) + "," + std::to_string(s.n) + ")";
    s.tl = static_cast<int>(e.IntIn("tl", INT32_MIN, INT32_MAX));
    if (!e.Has("reverse_symmetric")) throw e.Error("reverse_symmetric", "missing (true or false)");
    s.reverse_symmetric = e.Bool("reverse_symmetric", false);
    s.milp = e.Bool("milp", s.milp);
    ReadTable4(e, s);
    specs.push_back(s);
  }
  std::vector<ExperimentTask> tasks;
  for (const auto& s : specs) {
    tasks.push_back(
        {s.name + " search", [s, all_rows_max, milp] { return RunSearch(s, all_rows_max, milp); }});
  }
  return tasks;
}

const ExperimentKindRegistrar kRegistrar("seed000-base-search", &MakeTasks,
                                         {"edges", "canonical", "added_cycle", "labelled_rewirings",
                                          "reverse_symmetric", "bfb_optimal",
                                          "transpose_bfb_optimal", "milp_optimal_chunks", "milp_tb",
                                          "milp_outcomes", "fits_table9", "table4_tl", "table4_tb",
                                          "table4_us", "table4_expanded_tl", "table4_expanded_tb",
                                          "table4_expanded_us", "matches_table4", "counts"});

}  // namespace

}  // namespace collsynth::experiments
