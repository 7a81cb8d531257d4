#include "solvers/bfb/bfb_lp.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <type_traits>

#include "core/checked_math.h"
#include "solvers/bfb/bfb_cell.h"

namespace collsynth {
namespace {

// Denominator bound when reconstructing a general (heterogeneous) CLP optimum.
constexpr long kGeneralHintDenominator = 1000000;

const Rational kOne(1);
const Rational kZero(0);

const Rational& Bandwidth(const BfbSubproblem& p, int w) {
  return p.bandwidth.empty() ? kOne : p.bandwidth[w];
}
const Rational& Alpha(const BfbSubproblem& p, int w) {
  return p.alpha.empty() ? kZero : p.alpha[w];
}

void Validate(const BfbSubproblem& p) {
  const int d = static_cast<int>(p.senders.size());
  if (p.allowed.size() != p.sources.size())
    throw std::logic_error("BFB subproblem: allowed must have one entry per source");
  if (!p.bandwidth.empty() && static_cast<int>(p.bandwidth.size()) != d)
    throw std::logic_error("BFB subproblem: bandwidth must have one entry per sender");
  if (!p.alpha.empty() && static_cast<int>(p.alpha.size()) != d)
    throw std::logic_error("BFB subproblem: alpha must have one entry per sender");
  for (int w = 0; w < d; ++w) {
    if (Bandwidth(p, w) <= 0) throw std::logic_error("BFB subproblem: bandwidth must be > 0");
    if (Alpha(p, w) < 0) throw std::logic_error("BFB subproblem: alpha must be >= 0");
  }
  for (const auto& a : p.allowed) {
    if (a.empty()) throw std::logic_error("BFB subproblem: a source has no allowed sender");
    for (int k : a)
      if (k < 0 || k >= d) throw std::logic_error("BFB subproblem: allowed sender out of range");
  }
}

// Sources with the same allowed sender set, merged.
struct Group {
  std::vector<int> senders;  // sorted sender indices
  std::vector<int> members;  // source indices
};

std::vector<Group> GroupSources(const BfbSubproblem& p) {
  std::map<std::vector<int>, int> index;
  std::vector<Group> groups;
  for (int i = 0; i < static_cast<int>(p.sources.size()); ++i) {
    std::vector<int> key = p.allowed[i];
    std::sort(key.begin(), key.end());
    key.erase(std::unique(key.begin(), key.end()), key.end());
    auto [it, inserted] = index.emplace(key, static_cast<int>(groups.size()));
    if (inserted) groups.push_back({std::move(key), {}});
    groups[it->second].members.push_back(i);
  }
  return groups;
}

// The sources of the groups flagged in `cut`, sorted.
std::vector<int> CutSources(const std::vector<Group>& groups, const std::vector<char>& cut) {
  std::vector<int> j;
  for (std::size_t gi = 0; gi < groups.size(); ++gi)
    if (cut[gi])
      for (int i : groups[gi].members) j.push_back(i);
  std::sort(j.begin(), j.end());
  return j;
}

Rational WitnessValueActive(const BfbSubproblem& p, const std::vector<int>& j,
                            const std::vector<bool>& active, std::vector<int>* neighbours) {
  std::vector<bool> in_n(p.senders.size(), false);
  for (int i : j)
    for (int k : p.allowed[i])
      if (active[k]) in_n[k] = true;
  Rational num(static_cast<std::int64_t>(j.size())), den(0);
  if (neighbours) neighbours->clear();
  for (std::size_t w = 0; w < in_n.size(); ++w) {
    if (!in_n[w]) continue;
    num += Alpha(p, w) * Bandwidth(p, w);
    den += Bandwidth(p, w);
    if (neighbours) neighbours->push_back(static_cast<int>(w));
  }
  if (den == 0) throw std::logic_error("BFB witness with empty neighbourhood");
  return num / den;
}

// Candidate optimum from CLP's floating answer.
std::optional<Rational> HintCandidate(const BfbSubproblem& p, BfbLpResult* r) {
  LpSolution sol = SolveLpWithClp(BuildBfbLp(p));
  r->clp_outcome = sol.outcome;
  if (sol.outcome != LpOutcome::kOptimal) return std::nullopt;
  r->clp_value = sol.objective;
  bool uniform = p.alpha.empty() || std::all_of(p.alpha.begin(), p.alpha.end(),
                                                [](const Rational& a) { return a == 0; });
  Rational b = Bandwidth(p, 0);
  for (std::size_t w = 0; w < p.senders.size(); ++w) uniform = uniform && Bandwidth(p, w) == b;
  Rational hint(sol.objective);
  if (uniform) {
    // U = |J| / (|N(J)| · b) with |N(J)| <= d.
    return ClosestFraction(hint * b, BigInt(static_cast<std::int64_t>(p.senders.size()))) / b;
  }
  return ClosestFraction(hint, BigInt(kGeneralHintDenominator));
}

}  // namespace

Rational WitnessValue(const BfbSubproblem& p, const std::vector<int>& j) {
  return WitnessValueActive(p, j, std::vector<bool>(p.senders.size(), true), nullptr);
}

LpProblem BuildBfbLp(const BfbSubproblem& p) {
  LpProblem lp;
  const int d = static_cast<int>(p.senders.size());
  const int m = static_cast<int>(p.sources.size());
  int cols = 0;
  for (const auto& a : p.allowed) cols += static_cast<int>(a.size());
  const int u_col = cols;
  lp.objective.assign(cols + 1, 0.0);
  lp.objective[u_col] = 1.0;
  lp.col_lower.assign(cols + 1, 0.0);
  lp.col_upper.assign(cols + 1, 1.0);
  lp.col_upper[u_col] = kLpInfinity;
  for (int w = 0; w < d; ++w) {
    lp.row_lower.push_back(-kLpInfinity);
    lp.row_upper.push_back(-(Alpha(p, w) * Bandwidth(p, w)).convert_to<double>());
    lp.entries.push_back({w, u_col, -Bandwidth(p, w).convert_to<double>()});
  }
  int col = 0;
  for (int i = 0; i < m; ++i) {
    lp.row_lower.push_back(1.0);
    lp.row_upper.push_back(1.0);
    for (int k : p.allowed[i]) {
      lp.entries.push_back({k, col, 1.0});
      lp.entries.push_back({d + i, col, 1.0});
      ++col;
    }
  }
  return lp;
}

namespace {

template <typename Int>
BfbCellValue<Int> CellValue(const Rational& u) {
  return {static_cast<Int>(Numerator(u)), static_cast<Int>(Denominator(u))};
}

template <typename Int>
Rational ToRational(const BfbCellValue<Int>& v) {
  return Rational(BigInt(v.num)) / Rational(BigInt(v.den));
}

// The cell of p in the engine's integer form (bfb_cell.h): groups in `groups` order, scale
// S = lcm of the denominators of every B_w and α_w·B_w.
BfbCellNetwork<BigInt> CellNetwork(const BfbSubproblem& p, const std::vector<Group>& groups) {
  const int d = static_cast<int>(p.senders.size());
  BigInt scale = 1;
  for (int w = 0; w < d; ++w) {
    scale = Lcm(scale, Denominator(Bandwidth(p, w)));
    scale = Lcm(scale, Denominator(Alpha(p, w) * Bandwidth(p, w)));
  }
  BfbCellNetwork<BigInt> net;
  net.scale = scale;
  for (int w = 0; w < d; ++w) {
    net.bandwidth.push_back(Numerator(Bandwidth(p, w) * Rational(scale)));
    if (!p.alpha.empty())
      net.alpha_bw.push_back(Numerator(Alpha(p, w) * Bandwidth(p, w) * Rational(scale)));
  }
  for (const Group& g : groups) {
    net.AddGroup(BigInt(static_cast<std::int64_t>(g.members.size())));
    for (int w : g.senders) net.AddGroupLink(w);
  }
  return net;
}

// One round of SolveBfbSubproblem on the engine (number type Int): from the lower bound u
// (certified by the sources j, or by the α of alpha_witness when j is empty), through the
// CLP hint if any, to the optimum; fills value, witness, x and load of r.
template <typename Int>
void SolveRound(const BfbSubproblem& p, const std::vector<Group>& groups,
                const BfbCellNetwork<Int>& net, const std::optional<Rational>& hint, Rational u,
                std::vector<int> j, int alpha_witness, const std::vector<bool>& active,
                BfbLpResult& r) {
  const int d = static_cast<int>(p.senders.size());
  const int m = static_cast<int>(p.sources.size());
  BfbCellSolver<Int> solver;
  std::vector<char> j_groups(groups.size(), 0);
  if (!j.empty()) std::fill(j_groups.begin(), j_groups.end(), 1);  // j is empty or all sources here
  std::optional<BfbCellOptimum<Int>> optimum;
  // The CLP hint: certify it, or learn a better lower bound from it.
  if (hint && *hint > u) {
    if (!solver.Test(net, CellValue<Int>(*hint))) {
      j_groups = solver.CutGroups();
      j = CutSources(groups, j_groups);
      u = WitnessValueActive(p, j, active, nullptr);
    } else {
      BfbCellOptimum<Int> at_hint;
      at_hint.value = CellValue<Int>(*hint);
      at_hint.flow_scale = at_hint.value.den * net.scale;
      solver.ArcFlows(net, &at_hint.flow);
      // Just below the hint: distinct candidate values differ by >= 1/(d^2 b) in the
      // uniform case, so a cut there certifies the hint; otherwise Dinkelbach continues.
      Rational delta = *hint / Rational(4 * static_cast<std::int64_t>(d + 1) * (d + 1)) /
                       Rational(kGeneralHintDenominator);
      if (!solver.Test(net, CellValue<Int>(*hint - delta))) {
        std::vector<char> cut = solver.CutGroups();
        std::vector<int> jb = CutSources(groups, cut);
        Rational ub = WitnessValueActive(p, jb, active, nullptr);
        if (ub > u) {
          u = ub;
          j = jb;
          j_groups = cut;
        }
        if (u == *hint) {
          at_hint.witness = j_groups;
          optimum = std::move(at_hint);
        }
      }
    }
  }
  // Dinkelbach (bfb_cell.h): raise U to the violated cut's U_J until feasible.
  if (!optimum) {
    optimum = solver.Solve(net, CellValue<Int>(u), j_groups);
    if (optimum->witness != j_groups) j = CutSources(groups, optimum->witness);
    u = ToRational(optimum->value);
  }
  r.flow_runs += static_cast<int>(solver.flow_runs());
  r.value = u;
  r.witness_sources.clear();
  r.witness_senders.clear();
  r.witness_alpha_sender = -1;
  if (!j.empty() && WitnessValueActive(p, j, active, &r.witness_senders) == u) {
    r.witness_sources = j;
  } else {
    r.witness_senders.clear();
    r.witness_alpha_sender = alpha_witness;
  }
  // Each group's flow split back onto its sources (north-west corner rule).
  r.x.assign(m, {});
  r.load.assign(d, Rational(0));
  for (int i = 0; i < m; ++i) r.x[i].assign(p.allowed[i].size(), Rational(0));
  const Rational scale(BigInt(optimum->flow_scale));
  SplitBfbCellFlow(net, *optimum, [&](int g, int member, int entry, const Int& amount) {
    const int i = groups[g].members[member];
    const int w = net.link[entry];
    const auto pos = std::find(p.allowed[i].begin(), p.allowed[i].end(), w) - p.allowed[i].begin();
    const Rational x = Rational(BigInt(amount)) / scale;
    r.x[i][pos] += x;  // each (source, sender) pair is visited once
    r.load[w] += x;
  });
}

}  // namespace

BfbLpResult SolveBfbSubproblem(const BfbSubproblem& p, const BfbLpOptions& options) {
  Validate(p);
  const int d = static_cast<int>(p.senders.size());
  const int m = static_cast<int>(p.sources.size());
  BfbLpResult r;
  r.removed.assign(d, false);
  std::vector<Group> groups = GroupSources(p);
  std::optional<Rational> hint;
  if (options.use_clp_hint && m > 0) hint = HintCandidate(p, &r);
  BfbCellNetwork<BigInt> big = CellNetwork(p, groups);

  while (true) {
    std::vector<bool> active(d);
    for (int w = 0; w < d; ++w) active[w] = !r.removed[w];
    // Lower bounds: the largest α (LP (13) charges every kept link) and J = all sources.
    Rational u(0);
    int alpha_witness = -1;
    for (int w = 0; w < d; ++w) {
      if (active[w] && (alpha_witness < 0 || Alpha(p, w) > u)) {
        u = Alpha(p, w);
        alpha_witness = w;
      }
    }
    std::vector<int> j;
    if (m > 0) {
      std::vector<int> all(m);
      for (int i = 0; i < m; ++i) all[i] = i;
      Rational u_all = WitnessValueActive(p, all, active, nullptr);
      if (u_all >= u) {
        u = u_all;
        j = all;
      }
    }
    if (m == 0) {
      r.value = u;
      r.witness_sources.clear();
      r.witness_senders.clear();
      r.witness_alpha_sender = alpha_witness;
      r.x.clear();
      r.load.assign(d, Rational(0));
    } else {
      big.active.assign(d, 1);
      for (int w = 0; w < d; ++w) big.active[w] = active[w] ? 1 : 0;
      // The engine runs on int64 when every value it can meet fits (the hint included).
      BfbCellValue<BigInt> extra{0, 0};
      if (hint && *hint > u) {
        const Rational below =
            *hint - *hint / Rational(4 * static_cast<std::int64_t>(d + 1) * (d + 1)) /
                        Rational(kGeneralHintDenominator);
        extra.num = std::max(Numerator(*hint), Numerator(below));
        extra.den = std::max(Denominator(*hint), Denominator(below));
      }
      if (BfbCellFitsInt64(big, extra)) {
        SolveRound<std::int64_t>(p, groups, BfbCellToInt64(big), hint, u, j, alpha_witness, active,
                                 r);
      } else {
        SolveRound<BigInt>(p, groups, big, hint, u, j, alpha_witness, active, r);
      }
    }
    hint.reset();
    if (!options.remove_unused_expensive_links) break;
    bool removed_any = false;
    for (int w = 0; w < d; ++w) {
      if (active[w] && r.load[w] == 0 && Alpha(p, w) > 0 && Alpha(p, w) == r.value) {
        r.removed[w] = true;
        removed_any = true;
      }
    }
    if (!removed_any) break;
  }
  return r;
}

}  // namespace collsynth
