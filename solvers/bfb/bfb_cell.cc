#include "solvers/bfb/bfb_cell.h"

#include <algorithm>
#include <numeric>

namespace collsynth {
namespace {

std::int64_t Gcd(std::int64_t a, std::int64_t b) { return std::gcd(a, b); }
BigInt Gcd(const BigInt& a, const BigInt& b) { return boost::multiprecision::gcd(a, b); }

template <typename Int>
void Reduce(BfbCellValue<Int>* v) {
  const Int g = Gcd(v->num, v->den);
  if (g > 1) {
    v->num /= g;
    v->den /= g;
  }
}

// x·y compared as exact products.
bool ProductLess(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d) {
  return static_cast<__int128>(a) * b < static_cast<__int128>(c) * d;
}
bool ProductLess(const BigInt& a, const BigInt& b, const BigInt& c, const BigInt& d) {
  return a * b < c * d;
}

}  // namespace

template <typename Int>
void BfbCellDinic<Int>::Reset(int nodes) {
  head_.assign(nodes, -1);
  to_.clear();
  cap_.clear();
  next_.clear();
}

template <typename Int>
int BfbCellDinic<Int>::AddArc(int from, int to, const Int& capacity) {
  const int id = static_cast<int>(to_.size());  // its reverse is id ^ 1
  for (int k = 0; k < 2; ++k) {
    to_.push_back(k ? from : to);
    cap_.push_back(k ? Int(0) : capacity);
    next_.push_back(head_[k ? to : from]);
    head_[k ? to : from] = id + k;
  }
  return id;
}

template <typename Int>
Int BfbCellDinic<Int>::Run(int s, int t, const Int& bound) {
  Int flow = 0;
  while (Levels(s, t)) {
    it_ = head_;
    while (true) {
      Int f = Push(s, t, bound);
      if (f == 0) break;
      flow += f;
    }
  }
  return flow;
}

template <typename Int>
bool BfbCellDinic<Int>::Levels(int s, int t) {
  level_.assign(head_.size(), -1);
  queue_.assign(1, s);
  level_[s] = 0;
  for (std::size_t h = 0; h < queue_.size(); ++h) {
    const int v = queue_[h];
    for (int a = head_[v]; a >= 0; a = next_[a]) {
      if (cap_[a] > 0 && level_[to_[a]] < 0) {
        level_[to_[a]] = level_[v] + 1;
        queue_.push_back(to_[a]);
      }
    }
  }
  return level_[t] >= 0;
}

template <typename Int>
Int BfbCellDinic<Int>::Push(int v, int t, const Int& limit) {
  if (v == t) return limit;
  for (int& a = it_[v]; a >= 0; a = next_[a]) {
    const int w = to_[a];
    if (cap_[a] <= 0 || level_[w] != level_[v] + 1) continue;
    Int f = Push(w, t, cap_[a] < limit ? cap_[a] : limit);
    if (f > 0) {
      cap_[a] -= f;
      cap_[a ^ 1] += f;
      return f;
    }
  }
  return Int(0);
}

template <typename Int>
BfbCellSolver<Int>::BfbCellSolver(std::unique_ptr<BfbCellMaxFlow<Int>> flow)
    : flow_(flow ? std::move(flow) : std::make_unique<BfbCellDinic<Int>>()) {}

template <typename Int>
bool BfbCellSolver<Int>::Test(const BfbCellNetwork<Int>& net, const BfbCellValue<Int>& u) {
  const int groups = net.num_groups(), d = net.num_links();
  Int sources = 0;
  for (const Int& c : net.count) sources += c;
  const Int unit = u.den * net.scale;  // supply per source
  const Int total = sources * unit;
  const int s = 0, sink = 1 + groups + d;
  flow_->Reset(sink + 1);
  group_arc_.resize(net.link.size());
  for (int g = 0; g < groups; ++g) {
    flow_->AddArc(s, 1 + g, net.count[g] * unit);
    for (int i = net.begin[g]; i < net.begin[g + 1]; ++i) {
      const int k = net.link[i];
      group_arc_[i] = net.is_active(k) ? flow_->AddArc(1 + g, 1 + groups + k, total + 1) : -1;
    }
  }
  for (int k = 0; k < d; ++k) {
    Int c = 0;
    if (net.is_active(k)) {
      c = u.num * net.bandwidth[k];
      if (!net.alpha_bw.empty()) c -= u.den * net.alpha_bw[k];
      if (c < 0) c = 0;
    }
    flow_->AddArc(1 + groups + k, sink, c);
  }
  ++flow_runs_;
  if (flow_->Run(s, sink, total) == total) return true;
  cut_.resize(groups);
  for (int g = 0; g < groups; ++g) cut_[g] = flow_->SourceSide(1 + g) ? 1 : 0;
  return false;
}

template <typename Int>
void BfbCellSolver<Int>::ArcFlows(const BfbCellNetwork<Int>& net, std::vector<Int>* out) const {
  out->resize(net.link.size());
  for (std::size_t i = 0; i < net.link.size(); ++i)
    (*out)[i] = group_arc_[i] < 0 ? Int(0) : flow_->Flow(group_arc_[i]);
}

template <typename Int>
BfbCellOptimum<Int> BfbCellSolver<Int>::Solve(const BfbCellNetwork<Int>& net, BfbCellValue<Int> u,
                                              std::vector<char> witness) {
  if (net.num_groups() == 0) throw std::logic_error("BFB cell: no sources");
  while (true) {
    Reduce(&u);
    if (Test(net, u)) break;
    BfbCellValue<Int> next = BfbCellWitnessValue(net, cut_);
    if (!BfbCellLess(u, next)) throw std::logic_error("BFB cell: min cut did not raise the bound");
    u = next;
    witness = cut_;
  }
  BfbCellOptimum<Int> r;
  r.value = u;
  r.witness = std::move(witness);
  r.flow_scale = u.den * net.scale;
  ArcFlows(net, &r.flow);
  return r;
}

template <typename Int>
BfbCellOptimum<Int> BfbCellSolver<Int>::Solve(const BfbCellNetwork<Int>& net) {
  std::vector<char> all(net.num_groups(), 1);
  BfbCellValue<Int> start = BfbCellWitnessValue(net, all);
  int alpha_link = -1;  // LP (13) charges every kept link: U >= α_k = alpha_bw[k] / bandwidth[k]
  for (int k = 0; k < net.num_links() && !net.alpha_bw.empty(); ++k) {
    const BfbCellValue<Int> a{net.alpha_bw[k], net.bandwidth[k]};
    if (net.is_active(k) && !BfbCellLess(a, start) && (alpha_link < 0 || BfbCellLess(start, a))) {
      start = a;
      alpha_link = k;
    }
  }
  if (alpha_link >= 0) std::fill(all.begin(), all.end(), 0);
  return Solve(net, start, all);
}

template <typename Int>
BfbCellValue<Int> BfbCellWitnessValue(const BfbCellNetwork<Int>& net,
                                      const std::vector<char>& in_j) {
  std::vector<char> in_n(net.num_links(), 0);
  BfbCellValue<Int> v{0, 0};
  for (int g = 0; g < net.num_groups(); ++g) {
    if (!in_j[g]) continue;
    v.num += net.count[g] * net.scale;
    for (int i = net.begin[g]; i < net.begin[g + 1]; ++i) in_n[net.link[i]] = 1;
  }
  for (int k = 0; k < net.num_links(); ++k) {
    if (!in_n[k] || !net.is_active(k)) continue;
    v.num += net.alpha(k);
    v.den += net.bandwidth[k];
  }
  if (v.den == 0) throw std::logic_error("BFB cell: witness with empty neighbourhood");
  Reduce(&v);
  return v;
}

template <typename Int>
bool BfbCellLess(const BfbCellValue<Int>& x, const BfbCellValue<Int>& y) {
  return ProductLess(x.num, y.den, y.num, x.den);
}

bool BfbCellFitsInt64(const BfbCellNetwork<BigInt>& net, const BfbCellValue<BigInt>& extra) {
  const BigInt limit = BigInt(1) << 62;
  BigInt sources = 0, bw = 0, alpha = 0;
  for (const BigInt& c : net.count) sources += c;
  for (int k = 0; k < net.num_links(); ++k) {
    bw += net.bandwidth[k];
    alpha += net.alpha(k);
  }
  // Any U tested: p <= |J|·S + Σα_bw, q <= ΣB (U_J); or the caller's extra value.
  BigInt p = sources * net.scale + alpha, q = bw;
  if (extra.den > 0) {
    p = std::max(p, extra.num);
    q = std::max(q, extra.den);
  }
  const BigInt total = sources * q * net.scale;
  // Capacities p·B, q·α_bw, the unbounded arcs (total + 1) summed over every arc.
  const BigInt arcs =
      BigInt(static_cast<std::int64_t>(net.link.size() + net.count.size() + net.bandwidth.size()));
  const BigInt worst = (p * bw + q * alpha + total + 1) * (arcs + 1);
  // BfbCellLess multiplies values in __int128, always exact below 2^62.
  return worst < limit && p < limit && q < limit;
}

BfbCellNetwork<std::int64_t> BfbCellToInt64(const BfbCellNetwork<BigInt>& net) {
  BfbCellNetwork<std::int64_t> out;
  out.begin = net.begin;
  out.link = net.link;
  out.active = net.active;
  out.scale = static_cast<std::int64_t>(net.scale);
  for (const BigInt& c : net.count) out.count.push_back(static_cast<std::int64_t>(c));
  for (const BigInt& b : net.bandwidth) out.bandwidth.push_back(static_cast<std::int64_t>(b));
  for (const BigInt& a : net.alpha_bw) out.alpha_bw.push_back(static_cast<std::int64_t>(a));
  return out;
}

template class BfbCellDinic<std::int64_t>;
template class BfbCellDinic<BigInt>;
template class BfbCellSolver<std::int64_t>;
template class BfbCellSolver<BigInt>;
template BfbCellValue<std::int64_t> BfbCellWitnessValue(const BfbCellNetwork<std::int64_t>&,
                                                        const std::vector<char>&);
template BfbCellValue<BigInt> BfbCellWitnessValue(const BfbCellNetwork<BigInt>&,
                                                  const std::vector<char>&);
template bool BfbCellLess(const BfbCellValue<std::int64_t>&, const BfbCellValue<std::int64_t>&);
template bool BfbCellLess(const BfbCellValue<BigInt>&, const BfbCellValue<BigInt>&);

}  // namespace collsynth
