#include "solvers/baselines/two_d_ring.h"

#include "core/input_error.h"
#include "solvers/baselines/baselines.h"

namespace collsynth {
namespace {

// The line of `grid` along dimension q through the nodes whose other coordinate is `other`.
std::vector<int> LineNodes(const Grid& grid, int q, int other) {
  std::vector<int> nodes;
  std::vector<int> x(2, 0);
  x[1 - q] = other;
  for (int c = 0; c < grid.dims[q]; ++c) {
    x[q] = c;
    nodes.push_back(grid.node_at[grid.Index(x)]);
  }
  return nodes;
}

// The line's ring links copied from g; InputError when a ring link is missing.
Topology LineRing(const Topology& g, const std::vector<int>& nodes, const std::string& file) {
  const int d = static_cast<int>(nodes.size());
  Topology ring("2dring-line");
  for (int v : nodes) ring.AddCompute(g.node(v).name);
  // d = 2: the +1 and -1 neighbours coincide, one link pair.
  const int pairs = d == 2 ? 1 : d;
  for (int c = 0; c < pairs; ++c) {
    const int a = c, b = (c + 1) % d;
    for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      std::optional<int> e = g.FindLink(nodes[from], nodes[to]);
      if (!e) {
        throw InputError(file, "link " + g.node(nodes[from]).name + " -> " + g.node(nodes[to]).name,
                         "missing: 2D-ring runs a ring along every row and column, wrap-around "
                         "included (a torus, or a 2x2 mesh)");
      }
      ring.AddLink(from, to, g.link(*e).bandwidth, g.link(*e).multiplicity);
    }
  }
  return ring;
}

}  // namespace

TwoDRingResult BuildTwoDRing(const Topology& g, const Grid& grid, const std::string& file) {
  if (grid.dims.size() != 2) {
    throw InputError(file, "topology",
                     "2D-ring needs a 2-dimensional grid, found " +
                         std::to_string(grid.dims.size()) + " dimensions");
  }
  TwoDRingResult r;
  for (int half = 0; half < 2; ++half) {
    int offset = 0;
    for (int phase = 0; phase < 2; ++phase) {
      const int q = (half + phase) % 2;
      const int d = grid.dims[q];
      for (int other = 0; other < grid.dims[1 - q]; ++other) {
        TwoDRingLine line;
        line.half = half;
        line.dimension = q;
        line.first_step = offset + 1;
        line.share = Rational(1, 2);
        line.nodes = LineNodes(grid, q, other);
        line.ring = LineRing(g, line.nodes, file);
        BaselineOptions o;
        o.name = d == 2 ? "uniring" : "biring";
        o.collective = Collective::kAllreduce;
        for (int v : line.nodes) o.order.push_back(g.node(v).name);
        line.allreduce = BuildBaseline(line.ring, o, file);
        r.lines.push_back(std::move(line));
      }
      offset += 2 * (d - 1);
    }
    r.total_steps = std::max(r.total_steps, offset);
  }
  return r;
}

std::vector<std::vector<Rational>> TwoDRingLinkLoads(const Topology& g, const TwoDRingResult& r) {
  std::vector<std::vector<Rational>> loads(r.total_steps,
                                           std::vector<Rational>(g.num_links(), Rational(0)));
  const Rational n(g.num_compute());
  for (const TwoDRingLine& line : r.lines) {
    const Rational scale = line.share * n / Rational(static_cast<std::int64_t>(line.nodes.size()));
    for (const StepSend& s : line.allreduce.sends) {
      Rational amount(0);
      for (const Interval& iv : s.chunk) amount += iv.hi - iv.lo;
      const int e = *g.FindLink(line.nodes[s.from], line.nodes[s.to]);
      loads[line.first_step + s.step - 2][e] += amount * scale;
    }
  }
  return loads;
}

}  // namespace collsynth
