// collsynth draw TOPOLOGY [SCHEDULE] -o OUT.svg|OUT.png|OUT.dot [--tree ROOT[:I]] [--cut]
//                [--title TEXT]
//   A picture of a topology (bandwidths, compute nodes as boxes, switches as ellipses) and, with
//   a checked pipeline schedule, its link loads as a heat map or one tree's routes, with the
//   bottleneck cut S* of the schedule's certificate marked (docs/draw.md). Graphviz's `dot`
//   renders it, run without a shell; the written SVG is parsed back (tinyxml2) and must hold
//   one node per topology node and one edge per drawn link before it is renamed into place.
#include "cli/command_registry.h"
#include "cli/draw.h"
#include "cli/schedule_input.h"
#include "core/input_error.h"
#include "graphs/topology_io.h"

namespace collsynth::cli {
namespace {

struct DrawArgs {
  std::string topology, schedule, output, tree, title;
  bool cut = false;
};

void AddDrawOptions(CLI::App* cmd, DrawArgs* args) {
  cmd->add_option("topology", args->topology, "topology file (JSON or edge list)")->required();
  cmd->add_option("schedule", args->schedule,
                  "a pipeline schedule (any pipeline format): its link loads as a heat map, or "
                  "one tree with --tree");
  cmd->add_option("-o,--output", args->output, "OUT.svg, OUT.png (Graphviz) or OUT.dot")
      ->required();
  cmd->add_option("--tree", args->tree,
                  "draw the I-th tree (from 0, default 0) rooted at ROOT instead of the loads");
  cmd->add_flag("--cut", args->cut,
                "without a schedule: compute the allgather optimum and mark its bottleneck cut");
  cmd->add_option("--title", args->title, "the picture's title (default: the topology's name)");
}

int RunDraw(const DrawArgs& a) {
  RequireDrawingFile(a.output);
  Topology g = ReadTopologyFile(a.topology);
  std::optional<CheckedSchedule> checked;
  if (!a.schedule.empty()) {
    checked = LoadCheckedSchedule(g, a.schedule, "drawn");
    if (!checked) return kExitCheckFailed;
    if (!checked->pipeline) {
      throw InputError(a.schedule, "format",
                       "draw shows pipeline schedules; this is a " + checked->format + " schedule");
    }
  }
  const DrawOptions o = DrawingOptions(g, a.topology, checked ? &*checked->pipeline : nullptr,
                                       a.tree, a.cut, a.title);
  const CheckedOutput written = WriteDrawing(g, o, a.output);
  if (!written.ok) {
    PrintFailure("draw: " + written.error);
    return kExitCheckFailed;
  }
  return kExitOk;
}

CommandRegistrar reg_draw(0, [](CLI::App& app) {
  AddCommand(app, "draw",
             "Draw a topology, a schedule's link loads or one of its trees (Graphviz), with the "
             "bottleneck cut marked",
             AddDrawOptions, RunDraw);
});

}  // namespace
}  // namespace collsynth::cli
