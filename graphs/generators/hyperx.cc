#include "graphs/generators/hyperx.h"

#include <stdexcept>
#include <string>

#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

std::string S(std::int64_t v) { return std::to_string(v); }

std::string Name(const std::vector<std::int64_t>& sides) {
  std::string s = "hyperx(";
  for (std::size_t i = 0; i < sides.size(); ++i) s += (i ? "," : "") + S(sides[i]);
  return s + ")";
}

void Validate(const std::vector<std::int64_t>& sides) {
  if (sides.empty() || sides.size() > 16) {
    throw std::invalid_argument("hyperx: needs 1 to 16 sides, got " + S(sides.size()));
  }
  for (std::size_t i = 0; i < sides.size(); ++i) {
    if (sides[i] < 2 || sides[i] > kMaxGeneratedNodes) {
      throw std::invalid_argument("hyperx: side S_" + S(i + 1) + " = " + S(sides[i]) +
                                  " is out of range [2, " + S(kMaxGeneratedNodes) + "]");
    }
  }
}

}  // namespace

BigInt HyperXOrder(const std::vector<std::int64_t>& sides) {
  Validate(sides);
  BigInt n = 1;
  for (std::int64_t s : sides) n *= s;
  return n;
}

std::int64_t HyperXRadix(const std::vector<std::int64_t>& sides) {
  Validate(sides);
  std::int64_t d = 0;
  for (std::int64_t s : sides) d += s - 1;
  return d;
}

Topology HyperX(const std::vector<std::int64_t>& sides) {
  const BigInt order = HyperXOrder(sides);
  CheckTopologySize(order, order * HyperXRadix(sides), Name(sides));
  const int n = static_cast<int>(ToInt64(order));
  const int dims = static_cast<int>(sides.size());
  Topology g(Name(sides));
  std::vector<int> stride(static_cast<std::size_t>(dims), 1);
  for (int i = dims - 2; i >= 0; --i)
    stride[static_cast<std::size_t>(i)] = stride[static_cast<std::size_t>(i + 1)] *
                                          static_cast<int>(sides[static_cast<std::size_t>(i + 1)]);
  for (int v = 0; v < n; ++v) {
    std::string name = "h";
    for (int i = 0; i < dims; ++i) {
      name += (i ? "_" : "") +
              S((v / stride[static_cast<std::size_t>(i)]) % sides[static_cast<std::size_t>(i)]);
    }
    g.AddCompute(name);
  }
  const Rational one(1);
  for (int v = 0; v < n; ++v) {
    for (int i = 0; i < dims; ++i) {
      const int st = stride[static_cast<std::size_t>(i)];
      const int s = static_cast<int>(sides[static_cast<std::size_t>(i)]);
      const int digit = (v / st) % s;
      for (int other = digit + 1; other < s; ++other)
        g.AddDuplexLink(v, v + (other - digit) * st, one);
    }
  }
  return g;
}

}  // namespace collsynth
