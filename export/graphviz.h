// Pictures of topologies and pipeline schedules for Graphviz (`collsynth draw`, docs/draw.md):
// the DOT text of a topology, with its bandwidths and compute/switch shapes, optionally one
// tree's routes highlighted, the links' loads as a heat map and a node set (the bottleneck cut
// S*) marked. The CLI runs Graphviz's `dot` on it (without a shell) and checks the SVG it
// wrote. Every number shown is exact (bandwidths, loads as "p/q"); the heat map's colours are
// chosen by exact comparisons. Never prints.
#ifndef COLLSYNTH_EXPORT_GRAPHVIZ_H_
#define COLLSYNTH_EXPORT_GRAPHVIZ_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"

namespace collsynth {

struct DrawOptions {
  std::string title;
  // Per link id: the link's load relative to the most loaded link, in [0, 1] (a heat map
  // from green, idle, to red, the bottleneck). Empty: no heat map.
  std::vector<Rational> utilisation;
  // Per link id: drawn bold in blue (the routes of one tree). Empty: none.
  std::vector<bool> highlight_link;
  // Per node id: marked (filled), e.g. the bottleneck cut S*. Empty: none.
  std::vector<bool> mark_node;
  std::string mark_label;             // the legend of the marked nodes ("S* (bottleneck cut)")
  std::optional<int> highlight_root;  // drawn with a double border
};

struct DotDrawing {
  std::string dot;
  std::int64_t nodes = 0;  // node statements: one per topology node
  std::int64_t edges = 0;  // edge statements: a link, or a link and its reverse drawn as one
};

// One node per topology node (compute: box, switch: ellipse) and one edge per link labelled
// with its bandwidth (and ×multiplicity); a link u->v and its reverse v->u with the same
// bandwidth, multiplicity, utilisation and highlight are drawn as one edge with two arrows.
// O(nodes + links · log links).
DotDrawing TopologyDot(const Topology& g, const DrawOptions& options);

// The per-link utilisation of a pipeline schedule (docs/draw.md): load_e / (k · b_e) summed
// over the schedule's phases, divided by its largest value, so the most loaded link has 1.
// The load of a link is the multiplicity of the routes crossing it (reduce-scatter: along the
// reversed paths). Precondition: a checked schedule on g.
std::vector<Rational> PipelineLinkUtilisation(const Topology& g, const PipelineSchedule& s);

// The links of the `index`-th tree rooted at `root` (in file order; allreduce: of the
// allgather phase) along its routes; nullopt when there is no such tree.
std::optional<std::vector<bool>> PipelineTreeLinks(const Topology& g, const PipelineSchedule& s,
                                                   int root, std::int64_t index);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPORT_GRAPHVIZ_H_
