#include "solvers/bfb/bfb_cell_certificate.h"

#include "core/rational.h"
#include "solvers/bfb/bfb_lp.h"

namespace collsynth {
namespace {

// a·b·c compared with d·e·f, exactly (__int128 when no product overflows, else BigInt).
int Compare3(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d, std::int64_t e,
             std::int64_t f) {
  __int128 x, y;
  if (!__builtin_mul_overflow(static_cast<__int128>(a) * b, static_cast<__int128>(c), &x) &&
      !__builtin_mul_overflow(static_cast<__int128>(d) * e, static_cast<__int128>(f), &y)) {
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const BigInt l = BigInt(a) * b * c, r = BigInt(d) * e * f;
  return l < r ? -1 : l > r ? 1 : 0;
}

// A non-negative __int128 as BigInt.
BigInt ToBig(__int128 x) {
  const __int128 base = static_cast<__int128>(1) << 62;
  return BigInt(static_cast<std::int64_t>(x / base)) * (BigInt(1) << 62) +
         BigInt(static_cast<std::int64_t>(x % base));
}

const Rational& BandwidthOf(const BfbSubproblem& p, int w) {
  static const Rational one(1);
  return p.bandwidth.empty() ? one : p.bandwidth[w];
}
const Rational& AlphaOf(const BfbSubproblem& p, int w) {
  static const Rational zero(0);
  return p.alpha.empty() ? zero : p.alpha[w];
}

// U_J = (|J| + Σ_{N(J)} α_w B_w) / Σ_{N(J)} B_w over the kept senders; 0 when N(J) is empty
// (then it cannot equal a positive U).
Rational UJ(const BfbSubproblem& p, const std::vector<int>& j, const std::vector<bool>& active) {
  std::vector<bool> in_n(p.senders.size(), false);
  for (int i : j) {
    if (i < 0 || i >= static_cast<int>(p.sources.size())) return Rational(0);
    for (int k : p.allowed[i])
      if (active[k]) in_n[k] = true;
  }
  Rational num(static_cast<std::int64_t>(j.size())), den(0);
  for (std::size_t w = 0; w < in_n.size(); ++w) {
    if (!in_n[w]) continue;
    num += AlphaOf(p, static_cast<int>(w)) * BandwidthOf(p, static_cast<int>(w));
    den += BandwidthOf(p, static_cast<int>(w));
  }
  return den == 0 ? Rational(0) : num / den;
}

}  // namespace

std::optional<std::string> CheckBfbCellCertificate(const BfbCellClaim& c,
                                                   std::vector<std::int64_t>* load_out) {
  const int d = c.num_links;
  if (d < 0 || d > 64) return "more than 64 in-links";
  if (c.value_den <= 0 || c.shares_scale <= 0 || c.scale <= 0)
    return "non-positive denominator or scale";
  const std::uint64_t links = d == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << d) - 1;
  const std::uint64_t active = c.active_links & links;
  auto alpha = [&](int k) { return c.alpha_bw ? c.alpha_bw[k] : std::int64_t{0}; };
  for (int k = 0; k < d; ++k) {
    if (c.bandwidth[k] <= 0) return "in-link " + std::to_string(k) + " has bandwidth <= 0";
    if (alpha(k) < 0) return "in-link " + std::to_string(k) + " has alpha < 0";
  }
  std::vector<std::int64_t> local;
  std::vector<std::int64_t>& load = load_out ? *load_out : local;
  load.assign(d, 0);
  std::int64_t j = 0;
  std::uint64_t nj = 0;
  for (int i = 0; i < c.num_sources; ++i) {
    std::int64_t sum = 0;
    for (std::int32_t h = c.share_begin[i]; h < c.share_begin[i + 1]; ++h) {
      const int k = c.share_link[h];
      if (k < 0 || k >= d || !(c.allowed[i] >> k & 1))
        return "source " + std::to_string(i) + " has a share on a non-allowed in-link";
      if (!(active >> k & 1))
        return "source " + std::to_string(i) + " has a share on a removed in-link";
      if (c.share_num[h] <= 0) return "source " + std::to_string(i) + " has a share <= 0";
      if (__builtin_add_overflow(sum, c.share_num[h], &sum) ||
          __builtin_add_overflow(load[k], c.share_num[h], &load[k]))
        return "shares overflow int64";
    }
    if (sum != c.shares_scale) return "shares of source " + std::to_string(i) + " do not sum to 1";
    if (c.in_witness && c.in_witness[i]) {
      ++j;
      nj |= c.allowed[i];
    }
  }
  // α_k + load_k/(L·B_k) <= U  ⇔  q·(α_k B_k S·L + load_k·S) <= p·B_k S·L  (all divided by S).
  for (int k = 0; k < d; ++k) {
    if (!(active >> k & 1)) continue;
    bool above;
    if (alpha(k) == 0) {
      above =
          Compare3(c.value_den, load[k], c.scale, c.value_num, c.bandwidth[k], c.shares_scale) > 0;
    } else {
      const BigInt lhs =
          BigInt(c.value_den) * (BigInt(alpha(k)) * c.shares_scale + BigInt(load[k]) * c.scale);
      above = lhs > BigInt(c.value_num) * c.bandwidth[k] * c.shares_scale;
    }
    if (above) return "in-link " + std::to_string(k) + " exceeds U";
  }
  if (c.alpha_witness >= 0) {
    const int k = c.alpha_witness;
    if (k >= d || !(active >> k & 1)) return "alpha witness is not an active in-link";
    if (BigInt(c.value_den) * alpha(k) != BigInt(c.value_num) * c.bandwidth[k])
      return "alpha witness does not give U";
    return std::nullopt;
  }
  nj &= active;
  if (j == 0) return "no optimality witness";
  if (nj != c.witness_links) return "witness N(J) differs from the claimed in-links";
  __int128 num = static_cast<__int128>(j) * c.scale, den = 0;  // d <= 64 terms below 2^63 each
  for (int k = 0; k < d; ++k) {
    if (!(nj >> k & 1)) continue;
    num += alpha(k);
    den += c.bandwidth[k];
  }
  const __int128 limit = static_cast<__int128>(1) << 62;
  const bool equal = num < limit && den < limit
                         ? num * c.value_den == den * c.value_num
                         : ToBig(num) * c.value_den == ToBig(den) * c.value_num;
  if (!equal) return "witness J does not give U";
  return std::nullopt;
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
      if (r.x[i][k] < 0 || r.x[i][k] > 1)
        return "x outside [0,1] for source " + std::to_string(p.sources[i]);
      sum += r.x[i][k];
      load[p.allowed[i][k]] += r.x[i][k];
    }
    if (sum != 1)
      return "shares of source " + std::to_string(p.sources[i]) + " sum to " + ToString(sum);
  }
  for (int w = 0; w < d; ++w) {
    if (!active[w]) {
      if (load[w] != 0) return "removed sender " + std::to_string(p.senders[w]) + " carries data";
      continue;
    }
    if (AlphaOf(p, w) + load[w] / BandwidthOf(p, w) > r.value)
      return "sender " + std::to_string(p.senders[w]) + " exceeds U = " + ToString(r.value);
  }
  if (r.witness_alpha_sender >= 0) {
    if (!active[r.witness_alpha_sender] || AlphaOf(p, r.witness_alpha_sender) != r.value)
      return "alpha witness does not give U";
  } else if (m > 0) {
    if (r.witness_sources.empty()) return "no optimality witness";
    if (UJ(p, r.witness_sources, active) != r.value)
      return "witness J gives " + ToString(UJ(p, r.witness_sources, active)) +
             " != U = " + ToString(r.value);
  } else if (r.value != 0) {
    return "no sources but U != 0";
  }
  return std::nullopt;
}

}  // namespace collsynth
