#include "export/graphviz.h"

#include <map>
#include <sstream>
#include <tuple>

namespace collsynth {
namespace {

// A DOT string literal: quotes and backslashes escaped, control characters as spaces (node
// names are checked to have none, docs/formats.md).
std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  }
  return out + "\"";
}

// Five colours from idle to the bottleneck, chosen by exact comparison with 1/5, 2/5, ...
const char* HeatColour(const Rational& u) {
  static const char* kColours[] = {"#1a9850", "#91cf60", "#fee08b", "#fc8d59", "#d73027"};
  for (int i = 1; i < 5; ++i) {
    if (u * 5 < i) return kColours[i - 1];
  }
  return kColours[4];
}

struct EdgeStyle {
  Rational bandwidth;
  std::int64_t multiplicity;
  std::optional<Rational> utilisation;
  bool highlight;
  bool operator==(const EdgeStyle& o) const {
    return bandwidth == o.bandwidth && multiplicity == o.multiplicity &&
           utilisation == o.utilisation && highlight == o.highlight;
  }
};

std::string EdgeAttributes(const EdgeStyle& e, bool both) {
  std::ostringstream a;
  a << "label="
    << Quoted(ToString(e.bandwidth) +
              (e.multiplicity > 1 ? " ×" + std::to_string(e.multiplicity) : "") +
              (e.utilisation ? " (" + ToString(*e.utilisation) + ")" : ""));
  if (both) a << ", dir=both";
  if (e.utilisation) a << ", color=" << Quoted(HeatColour(*e.utilisation)) << ", penwidth=2";
  if (e.highlight) a << ", color=\"#2166ac\", penwidth=3";
  return a.str();
}

void AddRouteLoads(const Topology& g, const PipelineSchedule& s, std::vector<Rational>* load) {
  std::vector<BigInt> crossing(g.num_links());
  const bool reversed = s.collective == Collective::kReduceScatter;
  for (const PipelineTree& t : s.trees) {
    for (const PipelineTreeEdge& e : t.edges) {
      for (const PipelineRoute& r : e.routes) {
        for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
          const int u = reversed ? r.path[i + 1] : r.path[i];
          const int v = reversed ? r.path[i] : r.path[i + 1];
          if (std::optional<int> link = g.FindLink(u, v)) crossing[*link] += r.multiplicity;
        }
      }
    }
  }
  for (int e = 0; e < g.num_links(); ++e) {
    if (crossing[e] != 0)
      (*load)[e] += Rational(crossing[e]) / (Rational(s.k) * g.link(e).bandwidth);
  }
}

}  // namespace

DotDrawing TopologyDot(const Topology& g, const DrawOptions& o) {
  DotDrawing d;
  std::ostringstream out;
  out << "digraph " << Quoted(g.name().empty() ? "topology" : g.name()) << " {\n"
      << "  graph [label=" << Quoted(o.title.empty() ? g.name() : o.title)
      << ", labelloc=t, fontname=\"Helvetica\", overlap=false, splines=true];\n"
      << "  node [fontname=\"Helvetica\", fontsize=11];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.6];\n";
  for (int v = 0; v < g.num_nodes(); ++v) {
    out << "  n" << v << " [label=" << Quoted(g.node(v).name)
        << ", shape=" << (g.IsCompute(v) ? "box" : "ellipse");
    if (!o.mark_node.empty() && o.mark_node[v]) out << ", style=filled, fillcolor=\"#f4a582\"";
    if (o.highlight_root && *o.highlight_root == v) out << ", peripheries=2, color=\"#2166ac\"";
    out << "];\n";
    ++d.nodes;
  }
  auto style = [&](int e) {
    const Link& l = g.link(e);
    return EdgeStyle{
        l.bandwidth, l.multiplicity,
        o.utilisation.empty() ? std::nullopt : std::optional<Rational>(o.utilisation[e]),
        !o.highlight_link.empty() && o.highlight_link[e]};
  };
  std::vector<bool> drawn(g.num_links(), false);
  for (int e = 0; e < g.num_links(); ++e) {
    if (drawn[e]) continue;
    const Link& l = g.link(e);
    const EdgeStyle s = style(e);
    bool both = false;
    if (std::optional<int> back = g.FindLink(l.to, l.from); back && *back != e && !drawn[*back]) {
      if (style(*back) == s) {
        both = true;
        drawn[*back] = true;
      }
    }
    drawn[e] = true;
    out << "  n" << l.from << " -> n" << l.to << " [" << EdgeAttributes(s, both) << "];\n";
    ++d.edges;
  }
  if (!o.mark_node.empty() && !o.mark_label.empty()) {
    out << "  legend [shape=plaintext, label=" << Quoted("filled: " + o.mark_label) << "];\n";
    ++d.nodes;
  }
  out << "}\n";
  d.dot = out.str();
  return d;
}

std::vector<Rational> PipelineLinkUtilisation(const Topology& g, const PipelineSchedule& s) {
  std::vector<Rational> load(g.num_links());
  if (s.phases.empty()) {
    AddRouteLoads(g, s, &load);
  } else {
    for (const PipelineSchedule& phase : s.phases) AddRouteLoads(g, phase, &load);
  }
  Rational most = 0;
  for (const Rational& x : load) most = x > most ? x : most;
  if (most > 0) {
    for (Rational& x : load) x /= most;
  }
  return load;
}

std::optional<std::vector<bool>> PipelineTreeLinks(const Topology& g, const PipelineSchedule& s,
                                                   int root, std::int64_t index) {
  const PipelineSchedule& phase = s.phases.empty() ? s : s.phases.back();
  std::int64_t seen = 0;
  for (const PipelineTree& t : phase.trees) {
    if (t.root != root || seen++ != index) continue;
    std::vector<bool> links(g.num_links(), false);
    for (const PipelineTreeEdge& e : t.edges) {
      for (const PipelineRoute& r : e.routes) {
        for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
          if (std::optional<int> link = g.FindLink(r.path[i], r.path[i + 1])) links[*link] = true;
        }
      }
    }
    return links;
  }
  return std::nullopt;
}

}  // namespace collsynth
