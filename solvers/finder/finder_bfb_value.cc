#include "solvers/finder/finder_bfb_value.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "core/input_error.h"
#include "solvers/bfb/bfb_cell.h"

namespace collsynth {
namespace {

using Word = std::uint64_t;

struct Ratio {  // p / q, q > 0
  std::int64_t p = 0, q = 1;
  bool operator<(const Ratio& o) const {
    return static_cast<__int128>(p) * o.q < static_cast<__int128>(o.p) * q;
  }
};

// max_J |J| / cap(N(J)) over job groups (mask, count) on processors with capacities cap:
// the exact cell optimum of solvers/bfb/bfb_cell.h (Dinkelbach from J = all jobs).
Ratio MaxLoadRatio(const std::vector<std::pair<Word, std::int64_t>>& groups,
                   const std::vector<std::int64_t>& cap, BfbCellNetwork<std::int64_t>& net,
                   BfbCellSolver<std::int64_t>& solver) {
  net.bandwidth = cap;
  net.ClearGroups();
  for (const auto& [mask, count] : groups) {
    net.AddGroup(count);
    for (Word m = mask; m; m &= m - 1) net.AddGroupLink(__builtin_ctzll(m));
  }
  const BfbCellOptimum<std::int64_t> opt = solver.Solve(net);
  return Ratio{opt.value.num, opt.value.den};
}

}  // namespace

BfbValue ComputeBfbValue(const Topology& g, const std::string& file) {
  const int n = g.num_nodes();
  if (g.num_switches() > 0)
    throw InputError(file, "nodes", "BFB needs a direct-connect topology (no switches)");
  if (n < 2) throw InputError(file, "nodes", "needs at least 2 nodes");
  if (n > kMaxBfbValueNodes) {
    throw InputError(file, "nodes",
                     std::to_string(n) + " nodes exceed " + std::to_string(kMaxBfbValueNodes));
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
        throw InputError(file, g.node(l.from).name + "->" + g.node(u).name,
                         "bandwidth out of range for the finder");
      }
      in_nb[u].push_back(l.from);
      in_cap[u].push_back(static_cast<std::int64_t>(c));
    }
    if (in_nb[u].size() > 64) throw InputError(file, g.node(u).name, "more than 64 in-neighbours");
  }
  const int words = (n + 63) / 64;
  std::vector<Word> prev(static_cast<std::size_t>(n) * words, 0), cur;
  for (int u = 0; u < n; ++u)
    prev[static_cast<std::size_t>(u) * words + u / 64] |= Word{1} << (u % 64);
  BfbValue r;
  std::vector<Word> mask_of(n, 0);
  std::vector<std::int64_t> single(64);
  std::vector<Word> multi;
  BfbCellNetwork<std::int64_t> cell_network;
  BfbCellSolver<std::int64_t> cell_solver;
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
      for (int k = 0; k < words; ++k)
        if (row[k] & ~old[k]) {
          any = true;
          break;
        }
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
          if ((m & (m - 1)) == 0)
            ++single[__builtin_ctzll(m)];
          else
            multi.push_back(m);
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
        for (int i = 0; i < deg; ++i)
          if (single[i]) groups.push_back({Word{1} << i, single[i]});
        for (std::size_t a = 0; a < multi.size();) {
          std::size_t b = a;
          while (b < multi.size() && multi[b] == multi[a]) ++b;
          groups.push_back({multi[a], static_cast<std::int64_t>(b - a)});
          a = b;
        }
        cell = MaxLoadRatio(groups, in_cap[u], cell_network, cell_solver);
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
        throw InputError(file, g.node(u).name,
                         "not reachable from " + g.node(v).name + " (not strongly connected)");
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
