#include "cli/draw.h"

#include <tinyxml2.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/input_error.h"
#include "experiments/program_run.h"
#include "graphs/properties.h"
#include "solvers/pipeline/allgather_optimum.h"

namespace collsynth::cli {

namespace {

namespace fs = std::filesystem;

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

// The first difference between the Gantt chart's SVG at `path` and `chart`: one
// <g class="row"> per row with its link's ends, and in it one <rect class="bar"> per bar of
// that link, with the bar's transfer and exact start and end, in order. "" when they agree.
std::string CompareTimelineSvg(const Topology& g, const TimelineChart& chart,
                               const std::string& path) {
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS) {
    return std::string("not a well-formed SVG: ") + doc.ErrorStr();
  }
  std::vector<std::vector<const TimelineBar*>> by_link(g.num_links());
  for (const TimelineBar& b : chart.bars) by_link[b.link].push_back(&b);
  std::size_t row = 0;
  auto attr = [](const tinyxml2::XMLElement* e, const char* name) {
    const char* v = e->Attribute(name);
    return std::string(v == nullptr ? "" : v);
  };
  for (const tinyxml2::XMLElement* e = doc.RootElement()->FirstChildElement("g"); e;
       e = e->NextSiblingElement("g")) {
    if (attr(e, "class") != "row") continue;
    if (row >= chart.rows.size()) return "more rows than the chart's links";
    const Link& link = g.link(chart.rows[row]);
    if (attr(e, "data-from") != g.node(link.from).name ||
        attr(e, "data-to") != g.node(link.to).name) {
      return "row " + std::to_string(row) + " is not the link " + g.node(link.from).name + " -> " +
             g.node(link.to).name;
    }
    std::size_t i = 0;
    const auto& bars = by_link[chart.rows[row]];
    for (const tinyxml2::XMLElement* r = e->FirstChildElement("rect"); r;
         r = r->NextSiblingElement("rect")) {
      if (attr(r, "class") != "bar") continue;
      if (i >= bars.size() || attr(r, "data-transfer") != std::to_string(bars[i]->transfer) ||
          attr(r, "data-start") != ToString(bars[i]->start) ||
          attr(r, "data-end") != ToString(bars[i]->end)) {
        return "bar " + std::to_string(i) + " of row " + std::to_string(row) +
               " differs from the simulation";
      }
      ++i;
    }
    if (i != bars.size()) return "row " + std::to_string(row) + " misses bars";
    ++row;
  }
  if (row != chart.rows.size()) return "fewer rows than the chart's links";
  return "";
}

}  // namespace

std::vector<std::vector<std::string>> PipelineTreeRoots(const Topology& g,
                                                        const PipelineSchedule& schedule) {
  std::vector<std::vector<std::string>> names(2);
  auto add = [&](const PipelineSchedule& p, int phase) {
    for (const PipelineTree& t : p.trees) names[phase].push_back("root " + g.node(t.root).name);
  };
  if (schedule.collective == Collective::kAllreduce) {
    for (const PipelineSchedule& p : schedule.phases) {
      add(p, p.collective == Collective::kReduceScatter ? 0 : 1);
    }
  } else {
    add(schedule, 0);
  }
  return names;
}

CheckedOutput WriteTimelineSvg(const FlowSimulation& sim, const FlowSimulationResult& result,
                               TimelineColouring colouring,
                               const std::vector<std::vector<std::string>>& key_names,
                               const std::string& title, const std::string& output,
                               const std::string& option) {
  if (fs::path(output).extension().string() != ".svg") {
    throw InputError("<args>", option, "'" + output + "' must end in .svg");
  }
  const std::int64_t bars = TimelineBarCount(sim);
  if (bars > kMaxTimelineBars) {
    throw InputError("<args>", option,
                     "the chart would have " + std::to_string(bars) + " bars, more than " +
                         std::to_string(kMaxTimelineBars) +
                         " (write the CSV with --timeline, or simulate fewer chunks)");
  }
  const Topology& g = sim.topology();
  const TimelineChart chart = BuildTimelineChart(sim, result, colouring, key_names);
  std::string svg = TimelineSvg(g, chart, title);
  // Testing hook (docs/simulate.md "Timeline picture"): COLLSYNTH_FAULT_INJECT=corrupt-output
  // drops the last bar from the text before writing, a stand-in for a writer bug.
  const char* fault = std::getenv("COLLSYNTH_FAULT_INJECT");
  if (fault != nullptr && std::string(fault) == "corrupt-output") {
    const std::size_t at = svg.rfind("<rect class=\"bar\"");
    if (at != std::string::npos) svg.erase(at, svg.find("</rect>\n", at) + 8 - at);
  }
  return WriteChecked({{output, [&](std::ostream& out) { out << svg; }}},
                      [&](const std::vector<std::string>& paths) {
                        const std::string problem = CompareTimelineSvg(g, chart, paths[0]);
                        return problem.empty() ? problem : paths[0] + ": " + problem;
                      });
}

void RequireDrawingFile(const std::string& output) {
  const std::string ext = fs::path(output).extension().string();
  if (ext != ".svg" && ext != ".png" && ext != ".dot") {
    throw InputError("<args>", "-o", "'" + output + "' must end in .svg, .png or .dot");
  }
}

DrawOptions DrawingOptions(const Topology& g, const std::string& topology_file,
                           const PipelineSchedule* schedule, const std::string& tree, bool cut,
                           const std::string& title) {
  DrawOptions o;
  o.title = title;
  if (cut && schedule != nullptr) {
    throw InputError("<args>", "--cut", "is for a topology alone (a schedule's cut is its own)");
  }
  if (!tree.empty() && schedule == nullptr) {
    throw InputError("<args>", "--tree", "needs a schedule");
  }
  if (schedule != nullptr) {
    const PipelineSchedule& s = *schedule;
    const PipelineSchedule& last = s.phases.empty() ? s : s.phases.back();
    if (last.bottleneck_cut) {  // checked with the schedule (its certificate)
      o.mark_node.assign(g.num_nodes(), false);
      for (int v : *last.bottleneck_cut) o.mark_node[v] = true;
      o.mark_label = "S* (the bottleneck cut certifying optimality)";
    }
    if (tree.empty()) {
      o.utilisation = PipelineLinkUtilisation(g, s);
    } else {
      const std::size_t colon = tree.rfind(':');
      const std::string root_name = colon == std::string::npos ? tree : tree.substr(0, colon);
      std::int64_t index = 0;
      if (colon != std::string::npos) {
        const std::string i = tree.substr(colon + 1);
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
  } else if (cut) {
    RequireEulerianStronglyConnected(g, topology_file);
    const AllgatherOptimum opt = ComputeAllgatherOptimum(g, OptimumMethod::kDinkelbach, {});
    o.mark_node.assign(g.num_nodes(), false);
    for (int v : opt.bottleneck_cut) o.mark_node[v] = true;
    o.mark_label = "S* (bottleneck cut, ratio* = " + ToString(opt.ratio) + ")";
  }
  return o;
}

CheckedOutput WriteDrawing(const Topology& g, const DrawOptions& o, const std::string& output) {
  RequireDrawingFile(output);
  const std::string ext = fs::path(output).extension().string();
  const DotDrawing d = TopologyDot(g, o);
  std::string bytes = ext == ".dot" ? d.dot : Render(d.dot, ext.substr(1));
  // The SVG that is checked: the file itself, or for PNG the same drawing rendered as SVG.
  const std::string svg = ext == ".png" ? Render(d.dot, "svg") : "";
  const CheckedOutput written =
      WriteChecked({{output, [&](std::ostream& out) { out << bytes; }}},
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
  return written;
}

}  // namespace collsynth::cli
