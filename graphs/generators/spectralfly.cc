#include "graphs/generators/spectralfly.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "graphs/generators/family_args.h"
#include "graphs/generators/finite_field.h"

namespace collsynth {
namespace {

using Mat = std::array<int, 4>;

std::string S(std::int64_t v) { return std::to_string(v); }

void Validate(std::int64_t p, std::int64_t q) {
  if (p < 3 || p > 10007 || !IsPrime(p))
    throw std::invalid_argument("spectralfly: p = " + S(p) + " must be an odd prime <= 10007");
  if (q < 3 || q > 1021 || !IsPrime(q))
    throw std::invalid_argument("spectralfly: q = " + S(q) + " must be an odd prime <= 1021");
  if (p == q) throw std::invalid_argument("spectralfly: p and q must differ, got " + S(p));
}

int Mod(std::int64_t v, std::int64_t q) { return static_cast<int>(((v % q) + q) % q); }

std::int64_t PowMod(std::int64_t b, std::int64_t e, std::int64_t m) {
  std::int64_t r = 1 % m;
  b %= m;
  while (e > 0) {
    if (e & 1) r = r * b % m;
    b = b * b % m;
    e >>= 1;
  }
  return r;
}

Mat Normalize(Mat m, int q) {
  int lead = 0;
  for (int v : m) {
    if (v != 0) {
      lead = v;
      break;
    }
  }
  const int inv = static_cast<int>(PowMod(lead, q - 2, q));
  for (int& v : m) v = static_cast<int>(static_cast<std::int64_t>(v) * inv % q);
  return m;
}

Mat Mul(const Mat& a, const Mat& b, int q) {
  auto m = [q](std::int64_t x) { return static_cast<int>(x % q); };
  return Normalize(
      {m(static_cast<std::int64_t>(a[0]) * b[0] + static_cast<std::int64_t>(a[1]) * b[2]),
       m(static_cast<std::int64_t>(a[0]) * b[1] + static_cast<std::int64_t>(a[1]) * b[3]),
       m(static_cast<std::int64_t>(a[2]) * b[0] + static_cast<std::int64_t>(a[3]) * b[2]),
       m(static_cast<std::int64_t>(a[2]) * b[1] + static_cast<std::int64_t>(a[3]) * b[3])},
      q);
}

std::int64_t Key(const Mat& m, std::int64_t q) {
  return ((static_cast<std::int64_t>(m[0]) * q + m[1]) * q + m[2]) * q + m[3];
}

// Throws when two generators coincide or one is the identity (the graph would not be simple).
void RequireSimple(const std::vector<Mat>& gens, std::int64_t p, std::int64_t q) {
  std::vector<std::int64_t> keys;
  for (const Mat& g : gens) keys.push_back(Key(g, q));
  std::sort(keys.begin(), keys.end());
  const bool identity = std::binary_search(keys.begin(), keys.end(), Key({1, 0, 0, 1}, q));
  if (identity || std::adjacent_find(keys.begin(), keys.end()) != keys.end()) {
    throw std::invalid_argument("spectralfly(" + S(p) + "," + S(q) +
                                "): two generators coincide in PGL(2," + S(q) +
                                ") (or one is the identity); the graph would not be simple "
                                "(take q > 2·sqrt(p))");
  }
}

}  // namespace

int LegendreSymbol(std::int64_t p, std::int64_t q) {
  return PowMod(Mod(p, q), (q - 1) / 2, q) == 1 ? 1 : -1;
}

BigInt SpectralflyOrder(std::int64_t p, std::int64_t q) {
  Validate(p, q);
  BigInt pgl = BigInt(q) * (q * q - 1);
  return LegendreSymbol(p, q) == 1 ? pgl / 2 : pgl;
}

std::vector<Mat> LpsGenerators(std::int64_t p, std::int64_t q64) {
  Validate(p, q64);
  const int q = static_cast<int>(q64);
  int x = -1, y = -1;  // x² + y² + 1 = 0 mod q
  for (int i = 0; i < q && x < 0; ++i) {
    for (int j = 0; j < q; ++j) {
      if ((static_cast<std::int64_t>(i) * i + static_cast<std::int64_t>(j) * j + 1) % q == 0) {
        x = i;
        y = j;
        break;
      }
    }
  }
  std::vector<Mat> gens;
  std::int64_t r = 0;
  while ((r + 1) * (r + 1) <= p) ++r;
  // O(r³) with r = floor(sqrt(p)): d is determined up to sign by a, b, c (d = −s before +s).
  for (std::int64_t a = 0; a <= r; ++a) {
    for (std::int64_t b = -r; b <= r; ++b) {
      for (std::int64_t c = -r; c <= r; ++c) {
        const std::int64_t rem = p - a * a - b * b - c * c;
        if (rem < 0) continue;
        // Integer square root: the double is a hint, corrected exactly.
        auto s = static_cast<std::int64_t>(std::sqrt(static_cast<double>(rem)));
        while (s * s > rem) --s;
        while ((s + 1) * (s + 1) <= rem) ++s;
        if (s * s != rem) continue;
        for (std::int64_t d : {-s, s}) {
          bool keep;
          if (p % 4 == 1) {
            keep = a % 2 == 1;
          } else {
            const std::int64_t first = b != 0 ? b : (c != 0 ? c : d);
            keep = a % 2 == 0 && (a > 0 || first > 0);
          }
          if (keep) {
            gens.push_back(Normalize({Mod(a + b * x + d * y, q), Mod(-b * y + c + d * x, q),
                                      Mod(-b * y - c + d * x, q), Mod(a - b * x - d * y, q)},
                                     q));
          }
          if (s == 0) break;  // d = 0 once
        }
      }
    }
  }
  if (static_cast<std::int64_t>(gens.size()) != p + 1) {
    throw std::logic_error("spectralfly: found " + S(static_cast<std::int64_t>(gens.size())) +
                           " generators for p = " + S(p) + ", expected p + 1");
  }
  return gens;
}

bool LpsDiameterAtMost(std::int64_t p, std::int64_t q, int max_diameter) {
  const auto gens = LpsGenerators(p, q);
  try {
    RequireSimple(gens, p, q);
  } catch (const std::invalid_argument&) {
    return false;
  }
  const BigInt order = SpectralflyOrder(p, q);
  // A ball of radius D in a (p+1)-regular graph has at most 1 + (p+1)·Σ p^i elements.
  BigInt moore = 1, layer = p + 1;
  for (int i = 0; i < max_diameter; ++i) {
    moore += layer;
    layer *= p;
  }
  if (order > moore) return false;
  const int qi = static_cast<int>(q);
  std::unordered_map<std::int64_t, char> seen;
  std::vector<Mat> frontier = {{1, 0, 0, 1}};
  seen.emplace(Key(frontier[0], q), 1);
  for (int depth = 0; depth < max_diameter && !frontier.empty(); ++depth) {
    std::vector<Mat> next;
    for (const Mat& g : frontier) {
      for (const Mat& s : gens) {
        Mat h = Mul(g, s, qi);
        if (seen.emplace(Key(h, q), 1).second) next.push_back(h);
      }
    }
    frontier.swap(next);
    if (BigInt(seen.size()) == order) return true;
  }
  return BigInt(seen.size()) == order;
}

Topology Spectralfly(std::int64_t p, std::int64_t q) {
  const std::string name = "spectralfly(" + S(p) + "," + S(q) + ")";
  const BigInt order = SpectralflyOrder(p, q);
  CheckTopologySize(order, order * (p + 1), name);
  const auto gens = LpsGenerators(p, q);
  RequireSimple(gens, p, q);
  const int qi = static_cast<int>(q);
  std::unordered_map<std::int64_t, int> id;
  std::vector<Mat> elems = {{1, 0, 0, 1}};
  id.emplace(Key(elems[0], q), 0);
  std::vector<std::pair<int, int>> edges;
  for (std::size_t i = 0; i < elems.size(); ++i) {
    for (const Mat& s : gens) {
      const Mat h = Mul(elems[i], s, qi);
      auto [it, fresh] = id.emplace(Key(h, q), static_cast<int>(elems.size()));
      if (fresh) elems.push_back(h);
      if (static_cast<int>(i) < it->second) edges.emplace_back(static_cast<int>(i), it->second);
    }
  }
  if (BigInt(elems.size()) != order) {
    throw std::logic_error(name + ": the component of the identity has " + S(elems.size()) +
                           " elements, expected " + ToString(order));
  }
  Topology g(name);
  for (const Mat& m : elems) {
    g.AddCompute("m" + S(m[0]) + "_" + S(m[1]) + "_" + S(m[2]) + "_" + S(m[3]));
  }
  const Rational one(1);
  for (auto [a, b] : edges) g.AddDuplexLink(a, b, one);
  return g;
}

}  // namespace collsynth
