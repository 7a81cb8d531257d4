#include "graphs/generators/family_args.h"

#include <algorithm>
#include <stdexcept>

namespace collsynth {

void CheckTopologySize(const BigInt& nodes, const BigInt& links, const std::string& what) {
  if (nodes > kMaxGeneratedNodes || links > kMaxGeneratedLinks) {
    throw std::invalid_argument(what + " would have " + ToString(nodes) + " nodes and " +
                                ToString(links) + " links; the limit is " +
                                std::to_string(kMaxGeneratedNodes) + " nodes and " +
                                std::to_string(kMaxGeneratedLinks) + " links");
  }
}

void CheckTopologySize(const TopologySize& size, const std::string& what) {
  // An upper bound on the links refuses nothing by itself: the generator counts exactly
  // before building (e.g. the line graph of an irregular topology).
  bool too_many_links = size.links_exact && size.links > kMaxGeneratedLinks;
  if (size.nodes > kMaxGeneratedNodes || too_many_links) {
    throw std::invalid_argument(what + " would have " + ToString(size.nodes) + " nodes and " +
                                (size.links_exact ? "" : "up to ") + ToString(size.links) +
                                " links; the limit is " + std::to_string(kMaxGeneratedNodes) +
                                " nodes and " + std::to_string(kMaxGeneratedLinks) + " links");
  }
}

TopologySize MeasureTopology(const Topology& g) {
  TopologySize s;
  s.nodes = g.num_nodes();
  s.links = g.num_links();
  s.has_switches = g.num_switches() > 0;
  std::int64_t max_out = 0, max_in = 0, units = 0;
  std::vector<std::int64_t> in(static_cast<std::size_t>(g.num_nodes()), 0),
      out(static_cast<std::size_t>(g.num_nodes()), 0);
  for (const Link& l : g.links()) {
    units += l.multiplicity;
    out[l.from] += l.multiplicity;
    in[l.to] += l.multiplicity;
  }
  bool regular = !s.has_switches && g.num_nodes() > 0;
  for (int v = 0; v < g.num_nodes(); ++v) {
    max_out = std::max(max_out, out[v]);
    max_in = std::max(max_in, in[v]);
    regular = regular && out[v] == out[0] && in[v] == out[0];
  }
  s.unit_links = units;
  s.max_out = max_out;
  s.max_in = max_in;
  s.degree = regular ? BigInt(out[0]) : BigInt(-1);
  return s;
}

TopologySize RegularSize(const BigInt& nodes, const BigInt& degree, const BigInt& links,
                         bool links_exact) {
  TopologySize s;
  s.nodes = nodes;
  s.links = links;
  s.links_exact = links_exact;
  s.unit_links = nodes * degree;
  s.max_out = s.max_in = s.degree = degree;
  return s;
}

TopologySize TopologySizeArg(const std::vector<GenArg>& args, std::size_t i,
                             const std::string& param) {
  const GenArg& a = args.at(i);
  if (a.kind == GenArg::Kind::kTopology && a.size) return *a.size;
  return MeasureTopology(TopologyArg(args, i, param));
}

void RequireArgCount(const std::vector<GenArg>& args, std::size_t count,
                     const std::string& signature) {
  RequireArgCount(args, count, count, signature);
}

void RequireArgCount(const std::vector<GenArg>& args, std::size_t min_count, std::size_t max_count,
                     const std::string& signature) {
  if (args.size() < min_count || args.size() > max_count) {
    std::string expected =
        min_count == max_count
            ? std::to_string(min_count)
            : (max_count == static_cast<std::size_t>(-1)
                   ? "at least " + std::to_string(min_count)
                   : std::to_string(min_count) + " to " + std::to_string(max_count));
    throw std::invalid_argument("wrong number of arguments: " + signature + " takes " + expected +
                                ", got " + std::to_string(args.size()));
  }
}

std::string DescribeArg(const GenArg& arg) {
  switch (arg.kind) {
    case GenArg::Kind::kNumber:
      return "number " + ToString(arg.number);
    case GenArg::Kind::kWord:
      return "word '" + arg.word + "'";
    case GenArg::Kind::kTopology:
      return "topology " + (arg.topology ? arg.topology->name() : std::string("?"));
  }
  return "?";
}

std::int64_t IntArg(const std::vector<GenArg>& args, std::size_t i, const std::string& param,
                    std::int64_t lo, std::int64_t hi) {
  const GenArg& a = args.at(i);
  if (a.kind != GenArg::Kind::kNumber || Denominator(a.number) != 1) {
    throw std::invalid_argument("parameter " + param + " must be an integer, got " +
                                DescribeArg(a));
  }
  BigInt z = Numerator(a.number);
  if (z < lo || z > hi) {
    throw std::invalid_argument("parameter " + param + " = " + ToString(z) + " is out of range [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return ToInt64(z);
}

Rational PositiveArg(const std::vector<GenArg>& args, std::size_t i, const std::string& param) {
  const GenArg& a = args.at(i);
  if (a.kind != GenArg::Kind::kNumber) {
    throw std::invalid_argument("parameter " + param + " must be a number, got " + DescribeArg(a));
  }
  if (a.number <= 0) {
    throw std::invalid_argument("parameter " + param + " must be positive, got " +
                                ToString(a.number));
  }
  return a.number;
}

std::string WordArg(const std::vector<GenArg>& args, std::size_t i, const std::string& param) {
  const GenArg& a = args.at(i);
  if (a.kind != GenArg::Kind::kWord) {
    throw std::invalid_argument("parameter " + param + " must be a word, got " + DescribeArg(a));
  }
  return a.word;
}

const Topology& TopologyArg(const std::vector<GenArg>& args, std::size_t i,
                            const std::string& param) {
  const GenArg& a = args.at(i);
  if (a.kind != GenArg::Kind::kTopology || !a.topology) {
    throw std::invalid_argument("parameter " + param + " must be a topology expression, got " +
                                DescribeArg(a));
  }
  return *a.topology;
}

}  // namespace collsynth
