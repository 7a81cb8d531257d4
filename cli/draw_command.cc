// collsynth draw TOPOLOGY [SCHEDULE] -o OUT.svg|OUT.png|OUT.dot [--tree ROOT[:I]] [--cut]
//                [--title TEXT]
//   A picture of a topology (bandwidths, compute nodes as boxes, switches as ellipses) and, with
//   a checked pipeline schedule, its link loads as a heat map or one tree's routes, with the
//   bottleneck cut S* of the schedule's certificate marked (docs/draw.md). Graphviz's `dot`
//   renders it, run without a shell; the written SVG is parsed back (tinyxml2) and must hold
//   one node per topology node and one edge per drawn link before it is renamed into place.
#include <tinyxml2.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/command_registry.h"
#include "cli/schedule_input.h"
#include "core/checked_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/program_run.h"
#include "export/graphviz.h"
#include "graphs/properties.h"
#include "graphs/topology_io.h"
#include "solvers/pipeline/allgather_optimum.h"

namespace collsynth::cli {
namespace {

namespace fs = std::filesystem;

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

// The counts of <g class="node"> and <g class="edge"> elements in an SVG Graphviz wrote; an
// error text when the file does not parse.
std::string CountSvg(const std::string& path, std::int64_t* nodes, std::int64_t* edges) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS) {
    return std::string("not a well-formed SVG: ") + doc.ErrorStr();
  }
  *nodes = *edges = 0;
  std::vector<const tinyxml2::XMLElement*> stack = {doc.RootElement()};
  while (!stack.empty()) {
    const tinyxml2::XMLElement* e = stack.back();
    stack.pop_back();
    if (e == nullptr) continue;
    const char* cls = e->Attribute("class");
    if (cls != nullptr && std::string(e->Name()) == "g") {
      if (std::string(cls) == "node") ++*nodes;
      if (std::string(cls) == "edge") ++*edges;
    }
    for (const tinyxml2::XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      stack.push_back(c);
    }
  }
  return "";
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A new empty file in the system's temporary folder (mkstemp); the caller removes it.
std::string TempFile() {
  std::string pattern = (fs::temp_directory_path() / "collsynth-draw-XXXXXX").string();
  const int fd = mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error("draw: cannot create a temporary file");
  close(fd);
  return pattern;
}

void Remove(const std::string& path) {
  std::error_code ec;
  fs::remove(path, ec);
}

// Runs Graphviz's `dot -T<format>` on `dot_text` (no shell); the rendered bytes.
std::string Render(const std::string& dot_text, const std::string& format) {
  const std::string in = TempFile(), out = TempFile();
  std::ofstream(in, std::ios::binary) << dot_text;
  const experiments::ProgramRun run = experiments::RunProgram(
      {"dot", "-T" + format, "-o", out, in}, "", experiments::StderrMode::kCapture);
  std::string bytes = run.exit_status == 0 ? ReadBytes(out) : "";
  Remove(in);
  Remove(out);
  if (run.spawn_error != 0) {
    throw InputError("<args>", "-o",
                     "Graphviz's `dot` is not installed (scripts/setup.sh installs graphviz); "
                     "write OUT.dot instead");
  }
  if (run.exit_status != 0 || bytes.empty()) {
    throw std::runtime_error("dot -T" + format + " failed: " + run.errors.substr(0, 200));
  }
  return bytes;
}

int RunDraw(const DrawArgs& a) {
  const std::string ext = fs::path(a.output).extension().string();
  if (ext != ".svg" && ext != ".png" && ext != ".dot") {
    throw InputError("<args>", "-o", "'" + a.output + "' must end in .svg, .png or .dot");
  }
  Topology g = ReadTopologyFile(a.topology);
  DrawOptions o;
  o.title = a.title;
  if (a.cut && !a.schedule.empty()) {
    throw InputError("<args>", "--cut", "is for a topology alone (a schedule's cut is its own)");
  }
  if (!a.tree.empty() && a.schedule.empty()) {
    throw InputError("<args>", "--tree", "needs a schedule");
  }
  if (!a.schedule.empty()) {
    std::optional<CheckedSchedule> checked = LoadCheckedSchedule(g, a.schedule, "drawn");
    if (!checked) return kExitCheckFailed;
    if (!checked->pipeline) {
      throw InputError(a.schedule, "format",
                       "draw shows pipeline schedules; this is a " + checked->format + " schedule");
    }
    const PipelineSchedule& s = *checked->pipeline;
    const PipelineSchedule& last = s.phases.empty() ? s : s.phases.back();
    if (last.bottleneck_cut) {  // checked with the schedule (its certificate)
      o.mark_node.assign(g.num_nodes(), false);
      for (int v : *last.bottleneck_cut) o.mark_node[v] = true;
      o.mark_label = "S* (the bottleneck cut certifying optimality)";
    }
    if (a.tree.empty()) {
      o.utilisation = PipelineLinkUtilisation(g, s);
    } else {
      const std::size_t colon = a.tree.rfind(':');
      const std::string root_name = colon == std::string::npos ? a.tree : a.tree.substr(0, colon);
      std::int64_t index = 0;
      if (colon != std::string::npos) {
        const std::string i = a.tree.substr(colon + 1);
        if (i.empty() || i.size() > 9 || i.find_first_not_of("0123456789") != std::string::npos) {
          throw InputError("<args>", "--tree", "'" + i + "' is not a tree index");
        }
        index = std::stoll(i);
      }
      const std::optional<int> root = g.FindNode(root_name);
      if (!root || !g.IsCompute(*root)) {
        throw InputError("<args>", "--tree", "'" + root_name + "' is not a compute node");
      }
      std::optional<std::vector<bool>> links = PipelineTreeLinks(g, s, *root, index);
      if (!links) {
        throw InputError(
            "<args>", "--tree",
            "the schedule has no tree " + std::to_string(index) + " rooted at " + root_name);
      }
      o.highlight_link = std::move(*links);
      o.highlight_root = *root;
    }
  } else if (a.cut) {
    RequireEulerianStronglyConnected(g, a.topology);
    const AllgatherOptimum opt = ComputeAllgatherOptimum(g, OptimumMethod::kDinkelbach, {});
    o.mark_node.assign(g.num_nodes(), false);
    for (int v : opt.bottleneck_cut) o.mark_node[v] = true;
    o.mark_label = "S* (bottleneck cut, ratio* = " + ToString(opt.ratio) + ")";
  }
  const DotDrawing d = TopologyDot(g, o);
  std::string bytes = ext == ".dot" ? d.dot : Render(d.dot, ext.substr(1));
  // The SVG that is checked: the file itself, or for PNG the same drawing rendered as SVG.
  const std::string svg = ext == ".png" ? Render(d.dot, "svg") : "";
  const CheckedOutput written =
      WriteChecked({{a.output, [&](std::ostream& out) { out << bytes; }}},
                   [&](const std::vector<std::string>& paths) -> std::string {
                     if (ext == ".dot")
                       return ReadBytes(paths[0]) == d.dot ? "" : "the DOT text differs";
                     if (ext == ".png" && ReadBytes(paths[0]).rfind("\x89PNG\r\n\x1a\n", 0) != 0) {
                       return "not a PNG file";
                     }
                     std::string svg_path = paths[0];
                     if (ext == ".png") {
                       svg_path = TempFile();
                       std::ofstream(svg_path, std::ios::binary) << svg;
                     }
                     std::int64_t nodes = 0, edges = 0;
                     std::string problem = CountSvg(svg_path, &nodes, &edges);
                     if (ext == ".png") Remove(svg_path);
                     if (!problem.empty()) return problem;
                     if (nodes != d.nodes || edges != d.edges) {
                       return "the picture has " + std::to_string(nodes) + " nodes and " +
                              std::to_string(edges) + " edges, the drawing " +
                              std::to_string(d.nodes) + " and " + std::to_string(d.edges);
                     }
                     return "";
                   });
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
