#include "solvers/bfb/bfb_lp.h"

#include <lemon/preflow.h>
#include <lemon/smart_graph.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <type_traits>

namespace collsynth {
namespace {

// Scaled capacities must stay below this so that sums cannot overflow int64.
constexpr std::int64_t kMaxScaledTotal = std::int64_t{1} << 60;
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

struct FlowResult {
  bool feasible = false;
  std::vector<int> cut_groups;                // groups on the source side of a min cut
  std::vector<std::vector<Rational>> flows;   // per group, per group sender: flow (shards)
  // Integer path: flows scaled by `scale` (flows above are then left empty).
  std::vector<std::vector<std::int64_t>> scaled_flows;
  std::int64_t scale = 0;
};

// Max flow on s → group (supply) → sender (big) → sink (cap), with Value arithmetic.
template <typename Value>
FlowResult RunPreflow(const std::vector<Group>& groups, const std::vector<bool>& active,
                      const std::vector<Value>& supply, const std::vector<Value>& cap,
                      const Value& big, const Value& total, const Value& scale) {
  using Digraph = lemon::SmartDigraph;
  Digraph g;
  Digraph::ArcMap<Value> capacity(g);
  Digraph::Node s = g.addNode(), sink = g.addNode();
  const int num_groups = static_cast<int>(groups.size());
  const int d = static_cast<int>(cap.size());
  std::vector<Digraph::Node> gn(num_groups), wn(d);
  for (int w = 0; w < d; ++w) {
    if (!active[w]) continue;
    wn[w] = g.addNode();
    Digraph::Arc a = g.addArc(wn[w], sink);
    capacity[a] = cap[w];
  }
  std::vector<std::vector<Digraph::Arc>> garcs(num_groups);
  for (int i = 0; i < num_groups; ++i) {
    gn[i] = g.addNode();
    capacity[g.addArc(s, gn[i])] = supply[i];
    for (int w : groups[i].senders) {
      if (!active[w]) continue;
      Digraph::Arc a = g.addArc(gn[i], wn[w]);
      capacity[a] = big;
      garcs[i].push_back(a);
    }
  }
  lemon::Preflow<Digraph, Digraph::ArcMap<Value>> preflow(g, capacity, s, sink);
  FlowResult r;
  preflow.run();
  r.feasible = preflow.flowValue() == total;
  if (!r.feasible) {
    for (int i = 0; i < num_groups; ++i)
      if (preflow.minCut(gn[i])) r.cut_groups.push_back(i);
    return r;
  }
  if constexpr (std::is_same_v<Value, std::int64_t>) {
    r.scale = scale;
    r.scaled_flows.resize(num_groups);
    for (int i = 0; i < num_groups; ++i) {
      std::size_t k = 0;
      for (int w : groups[i].senders)
        r.scaled_flows[i].push_back(active[w] ? preflow.flow(garcs[i][k++]) : 0);
    }
    return r;
  }
  r.flows.resize(num_groups);
  for (int i = 0; i < num_groups; ++i) {
    std::size_t k = 0;
    for (int w : groups[i].senders) {
      if (!active[w]) {
        r.flows[i].push_back(Rational(0));
        continue;
      }
      r.flows[i].push_back(Rational(preflow.flow(garcs[i][k++])) / Rational(scale));
    }
  }
  return r;
}

BigInt Lcm(const BigInt& a, const BigInt& b) { return a / boost::multiprecision::gcd(a, b) * b; }

// Feasibility of U: every active sender w accepts (U − α_w)·B_w (clamped at 0).
FlowResult FlowAt(const BfbSubproblem& p, const std::vector<Group>& groups,
                  const std::vector<bool>& active, const Rational& u) {
  const int d = static_cast<int>(p.senders.size());
  const std::int64_t m = static_cast<std::int64_t>(p.sources.size());
  std::vector<Rational> cap(d, Rational(0));
  BigInt lcm = 1;
  for (int w = 0; w < d; ++w) {
    if (!active[w]) continue;
    Rational c = (u - Alpha(p, w)) * Bandwidth(p, w);
    if (c > 0) {
      cap[w] = c;
      lcm = Lcm(lcm, Denominator(c));
    }
  }
  // Integer path when everything fits.
  BigInt total_cap = 0;
  for (int w = 0; w < d; ++w) total_cap += Ceil(cap[w] * Rational(lcm));
  BigInt big = BigInt(m) * lcm + 1;
  if (lcm < kMaxScaledTotal && total_cap + big * (static_cast<std::int64_t>(groups.size()) + 1) <
                                   kMaxScaledTotal) {
    const std::int64_t l = ToInt64(lcm);
    std::vector<std::int64_t> icap(d), isupply(groups.size());
    for (int w = 0; w < d; ++w) icap[w] = ToInt64(Numerator(cap[w] * Rational(lcm)));
    for (std::size_t i = 0; i < groups.size(); ++i)
      isupply[i] = static_cast<std::int64_t>(groups[i].members.size()) * l;
    return RunPreflow<std::int64_t>(groups, active, isupply, icap, ToInt64(big), m * l, l);
  }
  std::vector<Rational> supply(groups.size());
  for (std::size_t i = 0; i < groups.size(); ++i)
    supply[i] = Rational(static_cast<std::int64_t>(groups[i].members.size()));
  return RunPreflow<Rational>(groups, active, supply, cap, Rational(m + 1), Rational(m),
                              Rational(1));
}

std::vector<int> CutSources(const std::vector<Group>& groups, const std::vector<int>& cut_groups) {
  std::vector<int> j;
  for (int gi : cut_groups)
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

BfbLpResult SolveBfbSubproblem(const BfbSubproblem& p, const BfbLpOptions& options) {
  Validate(p);
  const int d = static_cast<int>(p.senders.size());
  const int m = static_cast<int>(p.sources.size());
  BfbLpResult r;
  r.removed.assign(d, false);
  std::vector<Group> groups = GroupSources(p);
  std::optional<Rational> hint;
  if (options.use_clp_hint && m > 0) hint = HintCandidate(p, &r);

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
    std::optional<FlowResult> feasible_flow;
    // The CLP hint (first round only): certify it, or learn a better lower bound from it.
    if (hint && *hint > u) {
      FlowResult at_hint = FlowAt(p, groups, active, *hint);
      ++r.flow_runs;
      if (!at_hint.feasible) {
        j = CutSources(groups, at_hint.cut_groups);
        u = WitnessValueActive(p, j, active, nullptr);
      } else {
        // Just below the hint: distinct candidate values differ by >= 1/(d^2 b) in the
        // uniform case, so a cut there certifies the hint; otherwise the loop continues.
        Rational delta = *hint / Rational(4 * static_cast<std::int64_t>(d + 1) * (d + 1)) /
                         Rational(kGeneralHintDenominator);
        FlowResult below = FlowAt(p, groups, active, *hint - delta);
        ++r.flow_runs;
        if (!below.feasible) {
          std::vector<int> jb = CutSources(groups, below.cut_groups);
          Rational ub = WitnessValueActive(p, jb, active, nullptr);
          if (ub > u) {
            u = ub;
            j = jb;
          }
          if (u == *hint) feasible_flow = std::move(at_hint);
        }
      }
    }
    hint.reset();
    // Dinkelbach: raise U to the violated cut's U_J until feasible.
    while (!feasible_flow && m > 0) {
      FlowResult f = FlowAt(p, groups, active, u);
      ++r.flow_runs;
      if (f.feasible) {
        feasible_flow = std::move(f);
        break;
      }
      j = CutSources(groups, f.cut_groups);
      Rational uj = WitnessValueActive(p, j, active, nullptr);
      if (uj <= u) throw std::logic_error("BFB LP: min cut did not raise the bound");
      u = uj;
    }
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
    // Split each group's flow back onto its sources (north-west corner rule).
    r.x.assign(m, {});
    r.load.assign(d, Rational(0));
    for (int i = 0; i < m; ++i) r.x[i].assign(p.allowed[i].size(), Rational(0));
    if (feasible_flow && feasible_flow->scale > 0) {
      // Integer north-west corner: each source needs `scale` units.
      const std::int64_t l = feasible_flow->scale;
      std::vector<std::int64_t> load(d, 0);
      for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const Group& grp = groups[gi];
        std::vector<std::int64_t>& left = feasible_flow->scaled_flows[gi];
        std::size_t k = 0;
        for (int i : grp.members) {
          std::int64_t need = l;
          while (need > 0) {
            while (k < left.size() && left[k] == 0) ++k;
            if (k >= left.size()) throw std::logic_error("BFB LP: flow split ran out");
            std::int64_t take = std::min(left[k], need);
            int w = grp.senders[k];
            auto pos = std::find(p.allowed[i].begin(), p.allowed[i].end(), w) - p.allowed[i].begin();
            r.x[i][pos] = Rational(take, l);  // each (source, sender) pair is visited once
            load[w] += take;
            left[k] -= take;
            need -= take;
          }
        }
      }
      for (int w = 0; w < d; ++w)
        if (load[w] != 0) r.load[w] = Rational(load[w], l);
    } else if (feasible_flow) {
      for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const Group& grp = groups[gi];
        std::vector<Rational> left = feasible_flow->flows[gi];
        std::size_t k = 0;
        for (int i : grp.members) {
          Rational need(1);
          while (need > 0) {
            while (k < left.size() && left[k] == 0) ++k;
            if (k >= left.size()) throw std::logic_error("BFB LP: flow split ran out");
            Rational take = left[k] < need ? left[k] : need;
            int w = grp.senders[k];
            auto pos = std::find(p.allowed[i].begin(), p.allowed[i].end(), w) - p.allowed[i].begin();
            r.x[i][pos] += take;
            r.load[w] += take;
            left[k] -= take;
            need -= take;
          }
        }
      }
    }
    if (!options.remove_unused_expensive_links) break;
    bool removed_any = false;
    for (int w = 0; w < d; ++w) {
      if (active[w] && r.load[w] == 0 && Alpha(p, w) > 0 && Alpha(p, w) == u) {
        r.removed[w] = true;
        removed_any = true;
      }
    }
    if (!removed_any) break;
  }
  return r;
}

std::optional<std::string> VerifyBfbLpResult(const BfbSubproblem& p, const BfbLpResult& r) {
  const int d = static_cast<int>(p.senders.size());
  const int m = static_cast<int>(p.sources.size());
  if (static_cast<int>(r.x.size()) != m) return "x has the wrong number of sources";
  std::vector<bool> active(d, true);
  if (!r.removed.empty()) {
    if (static_cast<int>(r.removed.size()) != d) return "removed has the wrong size";
    for (int w = 0; w < d; ++w) active[w] = !r.removed[w];
  }
  std::vector<Rational> load(d, Rational(0));
  for (int i = 0; i < m; ++i) {
    if (r.x[i].size() != p.allowed[i].size()) return "x row size differs from allowed";
    Rational sum(0);
    for (std::size_t k = 0; k < r.x[i].size(); ++k) {
      if (r.x[i][k] < 0 || r.x[i][k] > 1) return "x outside [0,1] for source " + std::to_string(p.sources[i]);
      sum += r.x[i][k];
      load[p.allowed[i][k]] += r.x[i][k];
    }
    if (sum != 1) return "shares of source " + std::to_string(p.sources[i]) + " sum to " + ToString(sum);
  }
  for (int w = 0; w < d; ++w) {
    if (!active[w]) {
      if (load[w] != 0) return "removed sender " + std::to_string(p.senders[w]) + " carries data";
      continue;
    }
    if (Alpha(p, w) + load[w] / Bandwidth(p, w) > r.value)
      return "sender " + std::to_string(p.senders[w]) + " exceeds U = " + ToString(r.value);
  }
  if (r.witness_alpha_sender >= 0) {
    if (!active[r.witness_alpha_sender] || Alpha(p, r.witness_alpha_sender) != r.value)
      return "alpha witness does not give U";
  } else if (m > 0) {
    if (r.witness_sources.empty()) return "no optimality witness";
    if (WitnessValueActive(p, r.witness_sources, active, nullptr) != r.value)
      return "witness J gives " + ToString(WitnessValueActive(p, r.witness_sources, active, nullptr)) +
             " != U = " + ToString(r.value);
  } else if (r.value != 0) {
    return "no sources but U != 0";
  }
  return std::nullopt;
}

}  // namespace collsynth
