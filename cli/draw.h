// `collsynth draw` (docs/draw.md), shared with the Python package's collsynth.draw: what a
// picture shows (DrawingOptions) and its checked write (WriteDrawing: Graphviz's `dot` run
// without a shell, the written SVG parsed back with tinyxml2 and counted before the rename);
// and the checked write of `simulate --timeline-svg`'s Gantt chart (WriteTimelineSvg).
// Never prints.
#ifndef COLLSYNTH_CLI_DRAW_H_
#define COLLSYNTH_CLI_DRAW_H_

#include <string>

#include "core/checked_output.h"
#include "export/graphviz.h"
#include "graphs/topology.h"
#include "schedules/pipeline_schedule.h"
#include "simulate/timeline_chart.h"

namespace collsynth::cli {

// InputError("<args>", "-o", ...) unless `output` ends in .svg, .png or .dot.
void RequireDrawingFile(const std::string& output);

// The drawing of `g`: with a checked pipeline schedule (may be null), its link loads as a heat
// map, or with `tree` ("ROOT" or "ROOT:I") one tree's routes, and its certificate's bottleneck
// cut marked; without one, with `cut`, the bottleneck cut of the allgather optimum (the
// topology must then be Eulerian and strongly connected; errors name `topology_file`). Bad
// combinations and unknown trees are InputError naming the option.
DrawOptions DrawingOptions(const Topology& g, const std::string& topology_file,
                           const PipelineSchedule* schedule, const std::string& tree, bool cut,
                           const std::string& title);

// Renders and writes the drawing to `output` (.svg, .png or .dot) through the checked-output
// path; InputError when Graphviz is missing for .svg/.png.
CheckedOutput WriteDrawing(const Topology& g, const DrawOptions& options,
                           const std::string& output);

// Writes the Gantt chart of a finished simulation (simulate/timeline_chart.h) as SVG to
// `output` through the checked-output path: the written file is parsed back with tinyxml2 and
// must hold one <g class="row"> per link of the chart and in it one <rect class="bar"> per
// bar, each with the bar's transfer and exact start and end, before it is renamed.
// InputError("<args>", `option`, ...) unless `output` ends in .svg, or when the chart would
// have more than kMaxTimelineBars bars (checked before the chart is built).
// `key_names` as for BuildTimelineChart (PipelineTreeRoots for a pipeline).
CheckedOutput WriteTimelineSvg(const FlowSimulation& sim, const FlowSimulationResult& result,
                               TimelineColouring colouring,
                               const std::vector<std::vector<std::string>>& key_names,
                               const std::string& title, const std::string& output,
                               const std::string& option);

// The legend names of a pipeline's trees as the simulator labels them ([0] the trees of an
// allgather, reduce-scatter or broadcast, or of an allreduce's reduce-scatter phase; [1] its
// allgather phase's): "root NAME".
std::vector<std::vector<std::string>> PipelineTreeRoots(const Topology& g,
                                                        const PipelineSchedule& schedule);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_DRAW_H_
