#include "graphs/expansions.h"

#include <stdexcept>
#include <string>

#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

void RequireNoSwitches(const Topology& g, const std::string& what) {
  if (g.num_switches() > 0) {
    throw std::invalid_argument(what + " needs a direct-connect topology, but " + g.name() +
                                " has " + std::to_string(g.num_switches()) + " switch nodes");
  }
}

// The common bandwidth of one unit link; throws when links differ.
Rational UnitBandwidth(const Topology& g, const std::string& what) {
  if (g.num_links() == 0) throw std::invalid_argument(what + " of a topology without links");
  Rational b = g.link(0).bandwidth / g.link(0).multiplicity;
  for (const Link& l : g.links()) {
    if (l.bandwidth / l.multiplicity != b) {
      throw std::invalid_argument(what + " needs equal bandwidth on every unit link; " + g.name() +
                                  " has " + ToString(b) + " and " +
                                  ToString(l.bandwidth / l.multiplicity));
    }
  }
  return b;
}

int AddUnique(Topology& t, const std::string& name) {
  if (t.FindNode(name)) {
    throw std::invalid_argument("expanded node name '" + name +
                                "' is ambiguous (base node names contain separators)");
  }
  return t.AddCompute(name);
}

}  // namespace

LineGraphResult LineGraphExpansion(const Topology& g) {
  RequireNoSwitches(g, "line graph");
  Rational b = UnitBandwidth(g, "line graph");
  BigInt nodes = 0, links = 0;
  for (int v = 0; v < g.num_nodes(); ++v) links += BigInt(g.InDegree(v)) * g.OutDegree(v);
  for (const Link& l : g.links()) nodes += l.multiplicity;
  CheckTopologySize(nodes, links, "line(" + g.name() + ")");
  LineGraphResult r{Topology("line(" + g.name() + ")"), {}, {}};
  std::vector<int> first(static_cast<std::size_t>(g.num_links()));
  for (int e = 0; e < g.num_links(); ++e) {
    const Link& l = g.link(e);
    std::string base = g.node(l.from).name + ">" + g.node(l.to).name;
    first[e] = r.topology.num_nodes();
    for (std::int64_t c = 0; c < l.multiplicity; ++c) {
      AddUnique(r.topology, l.multiplicity == 1 ? base : base + ":" + std::to_string(c));
      r.base_link.push_back(e);
      r.copy.push_back(static_cast<int>(c));
    }
  }
  for (int x = 0; x < r.topology.num_nodes(); ++x) {
    int head = g.link(r.base_link[x]).to;
    for (int e2 : g.OutLinks(head)) {
      for (std::int64_t c = 0; c < g.link(e2).multiplicity; ++c) {
        r.topology.AddLink(x, first[e2] + static_cast<int>(c), b);
      }
    }
  }
  return r;
}

Topology LineGraph(const Topology& g) { return LineGraphExpansion(g).topology; }

Topology LineGraphPower(const Topology& g, int n) {
  if (n < 0) throw std::invalid_argument("line graph power needs n >= 0");
  // A regular G (in = out = d unit links everywhere) gives exactly d^k·E nodes and
  // d^{k+1}·E links at level k: refuse before building any level.
  bool regular = g.num_nodes() > 0;
  std::int64_t d = g.num_nodes() > 0 ? g.OutDegree(0) : 0;
  for (int v = 0; v < g.num_nodes() && regular; ++v)
    regular = g.OutDegree(v) == d && g.InDegree(v) == d;
  if (regular && n >= 1) {
    BigInt nodes = BigInt(d) * g.num_nodes();  // unit links of G = nodes of L(G)
    for (int k = 1; k < n && nodes <= kMaxGeneratedNodes; ++k) nodes *= d;
    CheckTopologySize(nodes, nodes * d, "line(" + g.name() + "," + std::to_string(n) + ")");
  }
  Topology t = g;
  for (int i = 0; i < n; ++i) t = LineGraph(t);
  return t;
}

DegreeExpansionResult DegreeExpansionWithMap(const Topology& g, int n) {
  RequireNoSwitches(g, "degree expansion");
  if (n < 1) throw std::invalid_argument("degree expansion needs n >= 1, got " + std::to_string(n));
  UnitBandwidth(g, "degree expansion");
  for (const Link& l : g.links()) {
    if (l.from == l.to) {
      throw std::invalid_argument(
          "degree expansion (Def. 3) needs a topology without self-loops; " + g.name() +
          " has one at " + g.node(l.from).name);
    }
  }
  std::string name = "degree(" + g.name() + "," + std::to_string(n) + ")";
  CheckTopologySize(BigInt(g.num_nodes()) * n, BigInt(g.num_links()) * n * n, name);
  DegreeExpansionResult r{Topology(name), {}, {}};
  for (int v = 0; v < g.num_nodes(); ++v) {
    for (int i = 0; i < n; ++i) {
      AddUnique(r.topology, g.node(v).name + "*" + std::to_string(i));
      r.base_node.push_back(v);
      r.copy.push_back(i);
    }
  }
  for (const Link& l : g.links()) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j)
        r.topology.AddLink(l.from * n + i, l.to * n + j, l.bandwidth, l.multiplicity);
    }
  }
  return r;
}

Topology DegreeExpansion(const Topology& g, int n) { return DegreeExpansionWithMap(g, n).topology; }

ProductResult CartesianProductWithMap(const std::vector<const Topology*>& factors) {
  if (factors.empty()) throw std::invalid_argument("Cartesian product needs at least one factor");
  std::string name = "product(";
  BigInt nodes = 1;
  for (std::size_t i = 0; i < factors.size(); ++i) {
    RequireNoSwitches(*factors[i], "Cartesian product");
    if (factors[i]->num_nodes() == 0)
      throw std::invalid_argument("Cartesian product of an empty topology");
    nodes *= factors[i]->num_nodes();
    name += (i ? "," : "") + factors[i]->name();
  }
  name += ")";
  BigInt links = 0;
  for (const Topology* f : factors) links += nodes / f->num_nodes() * f->num_links();
  CheckTopologySize(nodes, links, name);
  std::size_t k = factors.size();
  std::int64_t count = ToInt64(nodes);
  std::vector<std::int64_t> stride(k);
  std::int64_t s = 1;
  for (std::size_t p = k; p-- > 0;) {
    stride[p] = s;
    s *= factors[p]->num_nodes();
  }
  ProductResult r{Topology(name), {}};
  r.factor_node.reserve(static_cast<std::size_t>(count));
  std::vector<int> x(k, 0);
  for (std::int64_t i = 0; i < count; ++i) {
    std::string n;
    for (std::size_t p = 0; p < k; ++p) n += (p ? "|" : "") + factors[p]->node(x[p]).name;
    AddUnique(r.topology, n);
    r.factor_node.push_back(x);
    for (std::size_t p = k; p-- > 0;) {
      if (++x[p] < factors[p]->num_nodes()) break;
      x[p] = 0;
    }
  }
  for (std::int64_t i = 0; i < count; ++i) {
    for (std::size_t p = 0; p < k; ++p) {
      int u = r.factor_node[i][p];
      for (int e : factors[p]->OutLinks(u)) {
        const Link& l = factors[p]->link(e);
        std::int64_t j = i + (static_cast<std::int64_t>(l.to) - u) * stride[p];
        r.topology.AddLink(static_cast<int>(i), static_cast<int>(j), l.bandwidth, l.multiplicity);
      }
    }
  }
  return r;
}

Topology CartesianProduct(const std::vector<const Topology*>& factors) {
  return CartesianProductWithMap(factors).topology;
}

Topology CartesianProduct(const Topology& a, const Topology& b) {
  return CartesianProduct({&a, &b});
}

ProductResult CartesianPowerWithMap(const Topology& g, int n) {
  if (n < 1) throw std::invalid_argument("Cartesian power needs n >= 1, got " + std::to_string(n));
  BigInt nodes = 1;
  for (int i = 0; i < n; ++i) {
    nodes *= g.num_nodes();
    if (nodes > kMaxGeneratedNodes)
      CheckTopologySize(nodes, 0, "power(" + g.name() + "," + std::to_string(n) + ")");
  }
  std::vector<const Topology*> f(static_cast<std::size_t>(n), &g);
  ProductResult r = CartesianProductWithMap(f);
  r.topology.set_name("power(" + g.name() + "," + std::to_string(n) + ")");
  return r;
}

Topology CartesianPower(const Topology& g, int n) { return CartesianPowerWithMap(g, n).topology; }

Topology Bidirectional(const Topology& g) {
  std::string name = "bidir(" + g.name() + ")";
  CheckTopologySize(g.num_nodes(), BigInt(g.num_links()) * 2, name);
  Topology t(name);
  for (const Node& v : g.nodes()) t.AddNode(v.name, v.kind);
  for (const Link& l : g.links()) t.AddLink(l.from, l.to, l.bandwidth, l.multiplicity);
  for (const Link& l : g.links()) t.AddLink(l.to, l.from, l.bandwidth, l.multiplicity);
  return t;
}

Topology TransposeOf(const Topology& g) {
  Topology t = g.Transpose();
  t.set_name("transpose(" + g.name() + ")");
  return t;
}

bool IsReverseSymmetricByIdentity(const Topology& g) {
  for (const Link& l : g.links()) {
    auto r = g.FindLink(l.to, l.from);
    if (!r) return false;
    const Link& back = g.link(*r);
    if (back.bandwidth != l.bandwidth || back.multiplicity != l.multiplicity) return false;
  }
  return true;
}

}  // namespace collsynth
