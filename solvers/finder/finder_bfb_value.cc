#include "solvers/finder/finder_bfb_value.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "graphs/input_error.h"

namespace collsynth {
namespace {

using Word = std::uint64_t;

// Tiny exact max flow (Dinic) for the max-closure networks of one (u, t) cell.
class SmallFlow {
 public:
  explicit SmallFlow(int n) : head_(n, -1), level_(n), it_(n) {}
  void AddEdge(int a, int b, std::int64_t cap) {
    to_.push_back(b), cap_.push_back(cap), next_.push_back(head_[a]), head_[a] = static_cast<int>(to_.size()) - 1;
    to_.push_back(a), cap_.push_back(0), next_.push_back(head_[b]), head_[b] = static_cast<int>(to_.size()) - 1;
  }
  std::int64_t Run(int s, int t) {
    std::int64_t flow = 0;
    while (Bfs(s, t)) {
      it_ = head_;
      while (std::int64_t f = Dfs(s, t, INT64_MAX)) flow += f;
    }
    return flow;
  }
  // After Run: nodes reachable from s in the residual graph (the source side of a min cut).
  bool Reachable(int v) const { return level_[v] >= 0; }

 private:
  bool Bfs(int s, int t) {
    std::fill(level_.begin(), level_.end(), -1);
    std::vector<int> q{s};
    level_[s] = 0;
    for (std::size_t i = 0; i < q.size(); ++i) {
      for (int e = head_[q[i]]; e >= 0; e = next_[e]) {
        if (cap_[e] > 0 && level_[to_[e]] < 0) {
          level_[to_[e]] = level_[q[i]] + 1;
          q.push_back(to_[e]);
        }
      }
    }
    return level_[t] >= 0;
  }
  std::int64_t Dfs(int v, int t, std::int64_t f) {
    if (v == t) return f;
    for (int& e = it_[v]; e >= 0; e = next_[e]) {
      if (cap_[e] > 0 && level_[to_[e]] == level_[v] + 1) {
        if (std::int64_t g = Dfs(to_[e], t, std::min(f, cap_[e]))) {
          cap_[e] -= g;
          cap_[e ^ 1] += g;
          return g;
        }
      }
    }
    return 0;
  }
  std::vector<int> head_, level_, it_, to_, next_;
  std::vector<std::int64_t> cap_;
};

struct Ratio {  // p / q, q > 0
  std::int64_t p = 0, q = 1;
  bool operator<(const Ratio& o) const {
    return static_cast<__int128>(p) * o.q < static_cast<__int128>(o.p) * q;
  }
};

// max_J |J| / cap(N(J)) over job groups (mask, count) on processors with capacities cap.
Ratio MaxLoadRatio(const std::vector<std::pair<Word, std::int64_t>>& groups,
                   const std::vector<std::int64_t>& cap) {
  const int k = static_cast<int>(cap.size());
  auto cap_of = [&](Word m) {
    std::int64_t c = 0;
    for (int i = 0; i < k; ++i) if (m >> i & 1) c += cap[i];
    return c;
  };
  Word all = 0;
  std::int64_t total = 0;
  for (const auto& [m, c] : groups) all |= m, total += c;
  Ratio lambda{total, cap_of(all)};
  const int n = static_cast<int>(groups.size()) + k + 2;
  const int s = n - 2, t = n - 1;
  for (;;) {
    SmallFlow f(n);
    constexpr std::int64_t kInf = std::int64_t{1} << 62;
    for (int j = 0; j < static_cast<int>(groups.size()); ++j) {
      f.AddEdge(s, j, lambda.q * groups[j].second);
      for (int i = 0; i < k; ++i) {
        if (groups[j].first >> i & 1) f.AddEdge(j, static_cast<int>(groups.size()) + i, kInf);
      }
    }
    for (int i = 0; i < k; ++i) f.AddEdge(static_cast<int>(groups.size()) + i, t, lambda.p * cap[i]);
    std::int64_t flow = f.Run(s, t);
    if (lambda.q * total - flow <= 0) return lambda;  // no closure beats λ: λ is the max
    std::int64_t cnt = 0;
    Word sel = 0;
    for (int j = 0; j < static_cast<int>(groups.size()); ++j) {
      if (f.Reachable(j)) cnt += groups[j].second, sel |= groups[j].first;
    }
    Ratio next{cnt, cap_of(sel)};
    if (!(lambda < next)) return lambda;  // cannot happen with exact arithmetic; stay safe
    lambda = next;
  }
}

}  // namespace

BfbValue ComputeBfbValue(const Topology& g, const std::string& file) {
  const int n = g.num_nodes();
  if (g.num_switches() > 0) throw InputError(file, "nodes", "BFB needs a direct-connect topology (no switches)");
  if (n < 2) throw InputError(file, "nodes", "needs at least 2 nodes");
  if (n > kMaxBfbValueNodes) {
    throw InputError(file, "nodes", std::to_string(n) + " nodes exceed " + std::to_string(kMaxBfbValueNodes));
  }
  // Integer capacities: every bandwidth times the common denominator.
  BigInt den = 1;
  for (const Link& l : g.links()) den = boost::multiprecision::lcm(den, Denominator(l.bandwidth));
  // in-neighbours with their capacities (one Link per ordered pair in Topology).
  std::vector<std::vector<int>> in_nb(n);
  std::vector<std::vector<std::int64_t>> in_cap(n);
  for (int u = 0; u < n; ++u) {
    for (int e : g.InLinks(u)) {
      const Link& l = g.link(e);
      BigInt c = Numerator(l.bandwidth * den);
      if (c <= 0 || c >= (BigInt(1) << 31)) {
        throw InputError(file, g.node(l.from).name + "->" + g.node(u).name, "bandwidth out of range for the finder");
      }
      in_nb[u].push_back(l.from);
      in_cap[u].push_back(static_cast<std::int64_t>(c));
    }
    if (in_nb[u].size() > 64) throw InputError(file, g.node(u).name, "more than 64 in-neighbours");
  }
  const int words = (n + 63) / 64;
  std::vector<Word> prev(static_cast<std::size_t>(n) * words, 0), cur;
  for (int u = 0; u < n; ++u) prev[static_cast<std::size_t>(u) * words + u / 64] |= Word{1} << (u % 64);
  BfbValue r;
  std::vector<Word> mask_of(n, 0);
  std::vector<std::int64_t> single(64);
  std::vector<Word> multi;
  for (int t = 1;; ++t) {
    cur = prev;
    bool changed = false;
    for (int u = 0; u < n; ++u) {
      Word* row = &cur[static_cast<std::size_t>(u) * words];
      for (int w : in_nb[u]) {
        const Word* src = &prev[static_cast<std::size_t>(w) * words];
        for (int k = 0; k < words; ++k) row[k] |= src[k];
      }
    }
    Ratio step_max{0, 1};
    for (int u = 0; u < n; ++u) {
      const Word* row = &cur[static_cast<std::size_t>(u) * words];
      const Word* old = &prev[static_cast<std::size_t>(u) * words];
      bool any = false;
      for (int k = 0; k < words; ++k) if (row[k] & ~old[k]) { any = true; break; }
      if (!any) continue;
      changed = true;
      const int deg = static_cast<int>(in_nb[u].size());
      for (int i = 0; i < deg; ++i) {
        const Word* wr = &prev[static_cast<std::size_t>(in_nb[u][i]) * words];
        for (int k = 0; k < words; ++k) {
          Word e = row[k] & ~old[k] & wr[k];
          while (e) {
            int b = __builtin_ctzll(e);
            e &= e - 1;
            mask_of[k * 64 + b] |= Word{1} << i;
          }
        }
      }
      std::fill(single.begin(), single.begin() + deg, 0);
      multi.clear();
      for (int k = 0; k < words; ++k) {
        Word e = row[k] & ~old[k];
        while (e) {
          int b = __builtin_ctzll(e);
          e &= e - 1;
          Word m = mask_of[k * 64 + b];
          mask_of[k * 64 + b] = 0;
          if ((m & (m - 1)) == 0) ++single[__builtin_ctzll(m)];
          else multi.push_back(m);
        }
      }
      Ratio cell{0, 1};
      if (multi.empty()) {
        for (int i = 0; i < deg; ++i) {
          Ratio c{single[i], in_cap[u][i]};
          if (cell < c) cell = c;
        }
      } else {
        std::sort(multi.begin(), multi.end());
        std::vector<std::pair<Word, std::int64_t>> groups;
        for (int i = 0; i < deg; ++i) if (single[i]) groups.push_back({Word{1} << i, single[i]});
        for (std::size_t a = 0; a < multi.size();) {
          std::size_t b = a;
          while (b < multi.size() && multi[b] == multi[a]) ++b;
          groups.push_back({multi[a], static_cast<std::int64_t>(b - a)});
          a = b;
        }
        cell = MaxLoadRatio(groups, in_cap[u]);
        ++r.dinkelbach_cells;
      }
      if (step_max < cell) step_max = cell;
    }
    if (!changed) break;
    r.diameter = t;
    r.step_u_max.push_back(Rational(BigInt(step_max.p) * den, BigInt(step_max.q)));
    r.tb_shard += r.step_u_max.back();
    prev.swap(cur);
  }
  for (int u = 0; u < n; ++u) {
    const Word* row = &prev[static_cast<std::size_t>(u) * words];
    for (int v = 0; v < n; ++v) {
      if (!(row[v / 64] >> (v % 64) & 1)) {
        throw InputError(file, g.node(u).name, "not reachable from " + g.node(v).name + " (not strongly connected)");
      }
    }
  }
  Rational egress = g.OutBandwidth(0);
  bool regular = true;
  for (int v = 1; v < n && regular; ++v) regular = g.OutBandwidth(v) == egress;
  if (regular) {
    r.tb = r.tb_shard * egress / n;
    r.bandwidth_optimal = *r.tb == Rational(n - 1, n);
  }
  return r;
}

}  // namespace collsynth
