// The compiled part of the Python package (`import collsynth`, docs/python.md): a thin layer
// over the library. Every value that matters crosses as the text the CLI prints (exact
// rationals as "p/q" strings, JSON as in docs/cli.md and docs/formats.md), and
// python/collsynth/ turns it into Fractions, sets and objects, so the package and the CLI
// report the same numbers by construction: both call the same functions (cli/optimum_report.h,
// cli/topo_common.h's InfoJson, cli/verify_json.h, cli/schedule_output.h's checked write).
//
// Long calls release the GIL; where the CLI shows progress (the Theorem-1 tests of `optimum`,
// the distance sweep of `topo info`) the package checks for Ctrl-C and raises
// KeyboardInterrupt. InputError becomes collsynth.InputError (a ValueError naming the file, the
// item and the problem); any other C++ exception becomes collsynth.InternalError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/alltoall_report.h"
#include "cli/baseline_request.h"
#include "cli/bfb_request.h"
#include "cli/draw.h"
#include "cli/experiment_common.h"
#include "cli/export_chakra.h"
#include "cli/export_msccl.h"
#include "cli/export_mscclpp.h"
#include "cli/finder_report.h"
#include "cli/optimum_report.h"
#include "cli/pareto_report.h"
#include "cli/pipeline_request.h"
#include "cli/replay_request.h"
#include "cli/schedule_input.h"
#include "cli/schedule_output.h"
#include "cli/topo_common.h"
#include "cli/tune_report.h"
#include "cli/verify_json.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "core/rational.h"
#include "experiments/csv_table.h"
#include "experiments/outputs.h"
#include "experiments/runner.h"
#include "graphs/expression.h"
#include "graphs/link_latency.h"
#include "graphs/machine_import.h"
#include "graphs/properties.h"
#include "graphs/symmetry.h"
#include "graphs/topology.h"
#include "graphs/topology_io.h"
#include "proofs_check/flow_checker.h"
#include "proofs_check/pipeline_checker.h"
#include "proofs_check/symmetric_pipeline_checker.h"
#include "proofs_check/verify.h"
#include "schedules/collective.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/schedule_file.h"
#include "schedules/symmetric_pipeline_schedule.h"
#include "simulate/simulation_report.h"
#include "simulate/simulation_run.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"
#include "solvers/pipeline/symmetric_pipeline.h"

namespace py = pybind11;

namespace collsynth::python {
namespace {

using nlohmann::json;

// A progress callback that turns Ctrl-C into KeyboardInterrupt: called by the library on the
// thread that runs it (core/progress.h), with the GIL released around the call.
ProgressCallback Interruptible() {
  return [](std::int64_t, std::int64_t) {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  };
}

Topology TopologyFromFile(const std::string& path) {
  Topology g = ReadTopologyFile(path);
  cli::RequireAutomorphisms(g, path);
  return g;
}

Topology TopologyFromJsonText(const std::string& text, const std::string& file) {
  Topology g = TopologyFromJson(ParseJsonText(text, file), file);
  cli::RequireAutomorphisms(g, file);
  return g;
}

py::list Links(const Topology& g) {
  py::list out;
  for (const Link& l : g.links()) {
    out.append(py::make_tuple(g.node(l.from).name, g.node(l.to).name, ToString(l.bandwidth),
                              l.multiplicity));
  }
  return out;
}

std::string OptimumJson(const Topology& g, const std::string& file, const std::string& method,
                        const std::string& root) {
  cli::ParseOptimumMethod(method);
  const int r = cli::RequireOptimumInput(g, file, root);
  py::gil_scoped_release release;
  return cli::OptimumReportJson(g, cli::ComputeOptimumReport(g, method, r, Interruptible(), {}))
      .dump();
}

std::string InfoJson(const Topology& g, unsigned threads) {
  py::gil_scoped_release release;
  return cli::InfoJson(g, threads, Interruptible()).dump();
}

// A checked schedule as the package holds it: its text (what `save` writes), the checker's
// report on that very text (verify's JSON) and the producer's summary.
struct CheckedSchedule {
  std::string text;
  std::string report;   // cli::VerifyResultJson of the text's check
  std::string summary;  // JSON: format, ratio, optimal_ratio, U, k, trees, ...
  bool ok = false;
  bool check_bfb = false;  // also checked as a BFB schedule (bfb's allgather), when saved too
};

CheckedSchedule Checked(const Topology& g, std::string text, json summary) {
  CheckedSchedule c;
  const VerifyResult r = VerifyScheduleText(g, text, "<python>");
  c.ok = r.ok;
  c.report = cli::VerifyResultJson(r).dump();
  c.summary = summary.dump();
  c.text = std::move(text);
  return c;
}

json KJson(const BigInt& k) {
  return k <= 1000000000000LL ? json(static_cast<std::int64_t>(k)) : json(ToString(k));
}

// The symmetric path (docs/symmetry.md), as `collsynth pipeline` takes it; nullopt with `why`
// when it does not apply.
std::optional<CheckedSchedule> SymmetricPipeline(const Topology& g, Collective collective,
                                                 std::string* why) {
  SymmetricPipelineResult built = BuildSymmetricPipelineSchedule(g, collective);
  if (!built.schedule) {
    *why = built.why;
    return std::nullopt;
  }
  SymmetricPipelineSchedule& s = *built.schedule;
  cli::ClaimMeasuredHeight(&s);
  json summary = {
      {"format", "pipeline-symmetric"},   {"collective", CollectiveName(s.collective)},
      {"ratio", RationalToJson(s.ratio)}, {"optimal_ratio", RationalToJson(built.optimal_ratio)},
      {"U", RationalToJson(s.U)},         {"k", KJson(s.k)},
      {"group_order", built.group_order}};
  return Checked(g, SymmetricPipelineScheduleToJsonText(s, g) + "\n", std::move(summary));
}

CheckedSchedule Pipeline(const Topology& g, const std::string& file, const std::string& collective,
                         const std::string& root, const std::string& fixed_k, int symmetric) {
  constexpr cli::PipelineOptionNames kNames{"collective", "fixed_k", "root"};
  PipelineOptions opt = cli::ParsePipelineOptions(collective, fixed_k, kNames);
  cli::SetPipelineTopology(g, file, root, kNames, &opt);
  const bool symmetric_collective = cli::SymmetricPathApplies(opt);
  if (symmetric == 1 && (!symmetric_collective || g.automorphisms().empty())) {
    throw InputError("<args>", "symmetric",
                     "needs declared automorphisms and allgather, reduce-scatter or allreduce "
                     "without fixed_k");
  }
  py::gil_scoped_release release;
  std::string why;
  if (symmetric != 0 && symmetric_collective && !g.automorphisms().empty()) {
    if (std::optional<CheckedSchedule> s = SymmetricPipeline(g, opt.collective, &why)) return *s;
  }
  PipelineBuildResult built = BuildPipelineSchedule(g, opt);
  PipelineSchedule& s = built.schedule;
  cli::ClaimMeasuredHeight(&s);
  json summary = {{"format", "pipeline"},
                  {"collective", CollectiveName(s.collective)},
                  {"ratio", RationalToJson(s.ratio)},
                  {"optimal_ratio", RationalToJson(built.optimal_ratio)},
                  {"U", RationalToJson(s.U)},
                  {"k", KJson(s.k)},
                  {"trees", built.stats.trees}};
  if (!why.empty()) summary["symmetric_not_used"] = why;
  if (built.fixed_k) {
    summary["theorem15_bound"] = RationalToJson(built.fixed_k->theorem15_bound);
    summary["fixed_k_lower_bound"] = RationalToJson(built.fixed_k->lower_bound);
  }
  return Checked(g, PipelineScheduleToJsonText(s, g) + "\n", std::move(summary));
}

CheckedSchedule LoadSchedule(const Topology& g, const std::string& path) {
  std::string text = ReadTextFile(path);
  py::gil_scoped_release release;
  CheckedSchedule c;
  const VerifyResult r = VerifyScheduleText(g, text, path);
  c.ok = r.ok;
  c.report = cli::VerifyResultJson(r).dump();
  c.summary = json{{"format", r.format}, {"collective", CollectiveName(r.collective)}}.dump();
  c.text = std::move(text);
  return c;
}

std::string VerifyText(const Topology& g, const std::string& text, const std::string& file) {
  py::gil_scoped_release release;
  return cli::VerifyResultJson(VerifyScheduleText(g, text, file)).dump();
}

// Writes a schedule that the checker accepted through the CLI's checked-output path: the bytes
// are read back from OUT.partial, checked and compared before the rename (cli/schedule_output.h).
// Returns the error ("" when written).
std::string SaveChecked(const Topology& g, const std::string& text, const std::string& path,
                        bool check_bfb) {
  py::gil_scoped_release release;
  VerifyOptions options;
  options.check_bfb = check_bfb;
  const VerifyResult r = VerifyScheduleText(g, text, "<python>", options);
  if (!r.ok) return "the schedule does not pass the checker: " + r.FirstError();
  cli::ExpectedCheck expected;
  if (const auto* s = std::get_if<StepCheckReport>(&r.report)) expected = cli::SameFigures(*s);
  if (const auto* p = std::get_if<PipelineCheckReport>(&r.report)) expected = cli::SameFigures(*p);
  cli::OutputCheck written =
      cli::WriteCheckedSchedule(g, std::string(text), path, options, expected);
  return written.ok ? "" : written.error;
}

// `collsynth simulate --json` on a schedule the checker accepted (the caller makes sure), loaded
// and checked once more as the CLI loads it (cli/schedule_input.h); the link latencies are the
// topology file's (`topology_file` empty: none). With `timeline_svg`, the Gantt chart is written
// there as `simulate --timeline-svg` writes it (cli/draw.h); a rejected write is the report's
// "timeline_svg_error".
std::string Simulate(const Topology& g, const std::string& topology_file, const std::string& text,
                     const SimulationOptions& options, const std::string& chunks_sweep,
                     const std::string& timeline_svg) {
  SimulationModel model = ParseSimulationOptions(options);
  if (!topology_file.empty()) model.link_latency = ReadTopologyWithLatencies(topology_file).latency;
  py::gil_scoped_release release;
  std::optional<cli::CheckedSchedule> checked =
      cli::CheckLoadedSchedule(g, LoadScheduleText(g, text, "<python>"), "simulated", true);
  if (!checked) throw InputError("<python>", "schedule", "does not pass the checker");
  const bool pipeline = checked->pipeline.has_value();
  const bool flows = checked->flows.has_value();  // docs/simulate.md "All-to-all flows"
  if (!pipeline && !flows && !chunks_sweep.empty()) {
    throw InputError("<args>", "chunks_sweep", "applies to pipeline and flows schedules only");
  }
  const SimulationRun run =
      pipeline ? SimulatePipelineSchedule(*checked->pipeline, g, std::move(model), chunks_sweep)
      : flows  ? SimulateAlltoallSchedule(*checked->flows, g, std::move(model), chunks_sweep)
               : SimulateStepSchedule(*checked->steps, g, std::move(model));
  json report =
      SimulationReportJson(*run.sim, run.result, run.model, pipeline ? "pipeline" : checked->format,
                           checked->collective());
  if (!timeline_svg.empty()) {
    const CheckedOutput written = cli::WriteTimelineSvg(
        *run.sim, run.result, pipeline ? TimelineColouring::kTree : TimelineColouring::kStep,
        pipeline ? cli::PipelineTreeRoots(g, *checked->pipeline)
                 : std::vector<std::vector<std::string>>{},
        "simulate: completion " + DecimalString(run.result.completion) + " s (" +
            ToString(run.result.completion) + ")",
        timeline_svg, "timeline_svg");
    if (!written.ok) report["timeline_svg_error"] = written.error;
  }
  if (flows) {
    AddAlltoallBound(&report, *std::get<FlowCheckReport>(checked->verified.report).time, run.model,
                     g.num_compute());
  }
  if (!run.sweep.empty()) {
    json& sweep = report["chunk_sweep"] = json::array();
    for (const auto& [chunks, time] : run.sweep) {
      sweep.push_back({{"chunks", chunks},
                       {"completion_time", ToString(time)},
                       {"completion_seconds", DecimalString(time)}});
    }
    report["best_chunks"] = run.model.chunks;
  }
  return report.dump();
}

// `collsynth topo import` (docs/machine_import.md); `format` and `fabric` are checked by the
// caller (python/collsynth/__init__.py), `link_bandwidth` holds TYPE=VALUE overrides.
Topology ImportMachine(const std::string& format, const std::string& path,
                       const std::vector<std::string>& link_bandwidth, const std::string& gpu_model,
                       bool nvlink_only, std::int64_t nodes, bool fat_tree) {
  MachineImportOptions o;
  for (const std::string& text : link_bandwidth) {
    ParseLinkBandwidthOverride(text, "link_bandwidth", &o.link_bandwidth);
  }
  o.gpu_model = gpu_model;
  o.nvlink_only = nvlink_only;
  o.nodes = nodes;
  o.fabric = fat_tree ? MachineFabric::kFatTree : MachineFabric::kRail;
  const std::string text = ReadTextFile(path);
  py::gil_scoped_release release;
  return format == "nvidia-smi" ? ImportNvidiaSmiTopology(text, path, o)
                                : ImportNcclTopologyXml(text, path, o);
}

// `collsynth experiment run NAME` (docs/experiments.md): the definition NAME (or a path) from
// `dir`, run on `jobs` workers; with `out`, its outputs written there as the CLI writes them
// (results.csv, meta.json, notebook, README; plots when `plots`). Returns the table (header,
// rows) of results.csv. A row whose schedule the checker did not accept raises CheckError.
std::pair<std::vector<std::string>, std::vector<std::vector<std::string>>> RunExperiment(
    const std::string& name, const std::string& dir, const std::string& out, unsigned jobs,
    bool plots) {
  namespace ex = collsynth::experiments;
  const ex::ExperimentDefinition def = cli::LoadNamed(name, dir);
  py::gil_scoped_release release;
  ex::RunOptions options;
  options.jobs = jobs == 0 ? 1 : jobs;
  const ex::RunResult result = ex::RunExperiment(def, options);
  ex::CsvTable table = ex::RowsToTable(result.rows);
  if (!out.empty()) {
    const json meta = cli::RunMeta(def, table, options.jobs, result.tasks, result.rows.size(),
                                   result.seconds, cli::Environment(def));
    const std::vector<std::string> scripts = ex::WriteExperimentOutputs(def, table, meta, out);
    if (plots) ex::RenderPlots(scripts);
  }
  return {std::move(table.header), std::move(table.rows)};
}

// `collsynth draw` (docs/draw.md) of a topology and, when `schedule_text` is not empty, of a
// checked pipeline schedule. Returns the error of the checked write ("" when written).
std::string Draw(const Topology& g, const std::string& topology_file,
                 const std::string& schedule_text, const std::string& output,
                 const std::string& tree, bool cut, const std::string& title) {
  cli::RequireDrawingFile(output);
  py::gil_scoped_release release;
  std::optional<cli::CheckedSchedule> checked;
  if (!schedule_text.empty()) {
    checked = cli::CheckLoadedSchedule(g, LoadScheduleText(g, schedule_text, "<python>"), "drawn");
    if (!checked) throw InputError("<python>", "schedule", "does not pass the checker");
    if (!checked->pipeline) {
      throw InputError("<python>", "schedule",
                       "draw shows pipeline schedules; this is a " + checked->format + " schedule");
    }
  }
  const DrawOptions options = cli::DrawingOptions(
      g, topology_file, checked ? &*checked->pipeline : nullptr, tree, cut, title);
  const CheckedOutput written = cli::WriteDrawing(g, options, output);
  return written.ok ? "" : written.error;
}

// A producer's schedule that its checker rejected, as the CLI's exit 1: collsynth.CheckError.
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Checks `text` as the producing command checks it before writing (`options`).
CheckedSchedule CheckedAs(const Topology& g, std::string text, json summary,
                          const VerifyOptions& options) {
  CheckedSchedule c;
  const VerifyResult r = VerifyScheduleText(g, text, "<python>", options);
  c.ok = r.ok;
  c.check_bfb = options.check_bfb;
  c.report = cli::VerifyResultJson(r).dump();
  c.summary = summary.dump();
  c.text = std::move(text);
  return c;
}

// `collsynth bfb` (cli/bfb_request.h): the schedule in its text ("steps", or "steps-compact"
// when `compact`), the summary of `bfb --json` and the checker's verdict on the text.
CheckedSchedule Bfb(const Topology& g, const cli::BfbRequest& request, bool compact) {
  py::gil_scoped_release release;
  cli::BfbOutcome o = cli::ComputeBfb(g, request);
  json summary = o.summary;
  summary["format"] = compact ? "steps-compact" : "steps";
  std::string text = cli::BfbScheduleText(&o, g, compact);
  return CheckedAs(g, std::move(text), std::move(summary), o.verify);
}

// `collsynth baseline` (cli/baseline_request.h); a schedule the checker rejects raises
// CheckError with the CLI's message.
CheckedSchedule Baseline(const Topology& g, const cli::BaselineRequest& request) {
  py::gil_scoped_release release;
  cli::CheckedBaseline b = cli::BuildCheckedBaseline(g, request);
  if (!b.ok) {
    throw CheckFailed("baseline " + request.options.name + " failed the checker: " + b.error);
  }
  b.report["format"] = b.format;
  return CheckedAs(g, std::move(b.text), std::move(b.report), {});
}

// `collsynth replay --json` (cli/replay_request.h) of a file (`is_text` false: `source` is its
// path) or of text.
std::string Replay(const std::string& source, bool is_text, const cli::ReplayRequest& request) {
  const std::string name = is_text ? "<python>" : source;
  const std::string text = is_text ? source : cli::ReadReplayFile(source);
  py::gil_scoped_release release;
  const cli::ReplayOutcome o =
      cli::ReplayText(text, name, cli::IsMscclppPlan(is_text ? "" : source, text), request);
  return cli::ReplayJson(o).dump(-1, ' ', false, json::error_handler_t::replace);
}

// `collsynth export msccl|mscclpp|chakra --json` (cli/export_*.h) of a schedule's text that
// the checker accepted (the caller makes sure), on `g`: the files written and replayed from
// disk before they are kept, the summary returned; a failed check or limit raises CheckError
// with the CLI's message.
template <typename Args>
std::string Export(cli::ExportOutcome (*lower)(const Args&, const cli::ExportInput&),
                   const Topology& g, const std::string& text, const Args& args,
                   const std::string& ranks) {
  cli::ExportInput source;
  source.g = &g;
  source.text = text;
  source.ranks = ranks;
  py::gil_scoped_release release;
  const cli::ExportOutcome o = lower(args, source);
  if (!o.ok) {
    throw CheckFailed(o.failure.empty() ? "the schedule does not pass the checker" : o.failure);
  }
  return o.json.dump();
}

// `collsynth optimum --collective alltoall --json` (cli/alltoall_report.h); Ctrl-C is checked
// where the CLI shows a stage. A certificate the checker rejects raises CheckError, a failed LP
// InternalError, each with the CLI's message.
std::string AlltoallOptimumJson(const Topology& g, const std::string& file,
                                const std::string& demand_file, bool relay) {
  py::gil_scoped_release release;
  const cli::AlltoallReport r =
      cli::ComputeAlltoallReport(g, file, demand_file, relay, [](const std::string&) {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      });
  if (r.lp_failed) throw std::runtime_error(r.failure);
  if (!r.certified) throw CheckFailed(r.failure);
  return r.json.dump();
}

void TranslateExceptions(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const py::error_already_set&) {
    throw;
  } catch (const py::builtin_exception&) {
    throw;
  } catch (const CheckFailed& e) {
    py::object cls = py::module_::import("collsynth._errors").attr("CheckError");
    PyErr_SetObject(cls.ptr(), py::str(e.what()).ptr());
  } catch (const experiments::UnverifiedRowError& e) {
    py::object cls = py::module_::import("collsynth._errors").attr("CheckError");
    PyErr_SetObject(cls.ptr(), py::str(e.what()).ptr());
  } catch (const InputError& e) {
    py::object cls = py::module_::import("collsynth._errors").attr("InputError");
    PyErr_SetObject(cls.ptr(), py::make_tuple(e.what(), e.file(), e.item(), e.problem()).ptr());
  } catch (const std::exception& e) {
    py::object cls = py::module_::import("collsynth._errors").attr("InternalError");
    PyErr_SetObject(cls.ptr(), py::str(std::string("internal error: ") + e.what()).ptr());
  }
}

}  // namespace
}  // namespace collsynth::python

PYBIND11_MODULE(_collsynth, m) {
  using namespace collsynth;
  using namespace collsynth::python;
  m.doc() = "collsynth's compiled core; use the `collsynth` package (docs/python.md).";
  py::register_exception_translator(&TranslateExceptions);

  py::class_<Topology>(m, "Topology")
      .def_static("from_file", &TopologyFromFile, py::arg("path"))
      .def_static("from_json_text", &TopologyFromJsonText, py::arg("text"), py::arg("file"))
      .def_static("from_expression", &EvaluateTopologyExpression, py::arg("expr"),
                  py::call_guard<py::gil_scoped_release>())
      .def("to_json_text", static_cast<std::string (*)(const Topology&)>(&WriteTopologyJson))
      .def_property_readonly("name", &Topology::name)
      .def_property_readonly("node_names",
                             [](const Topology& g) {
                               std::vector<std::string> names;
                               for (const Node& v : g.nodes()) names.push_back(v.name);
                               return names;
                             })
      .def_property_readonly("compute_mask",
                             [](const Topology& g) {
                               std::vector<bool> mask;
                               for (int v = 0; v < g.num_nodes(); ++v)
                                 mask.push_back(g.IsCompute(v));
                               return mask;
                             })
      .def_property_readonly("links", &Links)
      .def_property_readonly("automorphisms", &Topology::automorphisms)
      .def("info_json", &InfoJson, py::arg("threads") = 0);

  m.def("import_machine", &ImportMachine, py::arg("format"), py::arg("path"),
        py::arg("link_bandwidth"), py::arg("gpu_model"), py::arg("nvlink_only"), py::arg("nodes"),
        py::arg("fat_tree"));
  m.def("run_experiment", &RunExperiment, py::arg("name"), py::arg("dir"), py::arg("out"),
        py::arg("jobs"), py::arg("plots"));
  m.def("draw", &Draw, py::arg("topology"), py::arg("topology_file"), py::arg("schedule_text"),
        py::arg("output"), py::arg("tree"), py::arg("cut"), py::arg("title"));
  m.def(
      "finder_json",
      [](std::int64_t nodes, int degree, const std::string& alpha, const std::string& bandwidth,
         const std::string& size) {
        cli::FinderRequest r{nodes, degree, alpha, bandwidth, size};
        py::gil_scoped_release release;
        return cli::ComputeFinderReport(r).json.dump();
      },
      py::arg("nodes"), py::arg("degree"), py::arg("alpha"), py::arg("bandwidth"), py::arg("size"));
  m.def(
      "finder_up_to_json",
      [](std::int64_t up_to, int degree, const std::string& alpha, const std::string& bandwidth,
         const std::string& size) {
        cli::FinderRequest r{0, degree, alpha, bandwidth, size};
        py::gil_scoped_release release;
        const cli::FinderUpToReport report = cli::ComputeFinderUpTo(r, up_to);
        return json{{"degree", degree}, {"results", report.results}}.dump();
      },
      py::arg("up_to"), py::arg("degree"), py::arg("alpha"), py::arg("bandwidth"), py::arg("size"));
  m.def(
      "tune_json",
      [](const Topology& g, const std::string& topology_file, const std::vector<std::string>& sizes,
         const std::string& out_dir, const std::string& collective, const SimulationOptions& model,
         const std::string& chunks_sweep, const std::string& export_target) {
        cli::TuneRequest r;
        r.g = &g;
        r.topology = topology_file;
        r.sizes = sizes;
        r.out_dir = out_dir;
        r.collective = collective;
        r.model = model;
        r.chunks_sweep = chunks_sweep;
        r.export_target = export_target;
        py::gil_scoped_release release;
        const cli::TuneOutcome o = cli::RunTuneRequest(r);
        if (!o.ok) throw CheckFailed(o.failure);
        return o.json.dump();
      },
      py::arg("topology"), py::arg("topology_file"), py::arg("sizes"), py::arg("out_dir"),
      py::arg("collective"), py::arg("model"), py::arg("chunks_sweep"),
      py::arg("export_target") = "");
  m.def(
      "pareto_json",
      [](const Topology& g, const std::string& file, const std::string& collective,
         const std::string& out_dir) {
        const cli::ParetoRequest r{file, &g, collective, out_dir};
        py::gil_scoped_release release;
        const cli::ParetoOutcome o = cli::RunParetoRequest(r);
        if (!o.ok) throw CheckFailed(o.failure);
        return o.json.dump();
      },
      py::arg("topology"), py::arg("file"), py::arg("collective"), py::arg("out_dir"));
  m.def("alltoall_optimum_json", &AlltoallOptimumJson, py::arg("topology"), py::arg("file"),
        py::arg("demand_file"), py::arg("relay"));
  m.def("optimum_json", &OptimumJson, py::arg("topology"), py::arg("file"), py::arg("method"),
        py::arg("root"));

  py::class_<CheckedSchedule>(m, "CheckedSchedule")
      .def_readonly("text", &CheckedSchedule::text)
      .def_readonly("report", &CheckedSchedule::report)
      .def_readonly("summary", &CheckedSchedule::summary)
      .def_readonly("ok", &CheckedSchedule::ok)
      .def_readonly("check_bfb", &CheckedSchedule::check_bfb);
  m.def("pipeline", &Pipeline, py::arg("topology"), py::arg("file"), py::arg("collective"),
        py::arg("root"), py::arg("fixed_k"), py::arg("symmetric"));
  m.def("load_schedule", &LoadSchedule, py::arg("topology"), py::arg("path"));
  py::class_<SimulationOptions>(m, "SimulationOptions")
      .def(py::init<>())
      .def_readwrite("size", &SimulationOptions::size)
      .def_readwrite("chunks", &SimulationOptions::chunks)
      .def_readwrite("alpha", &SimulationOptions::alpha)
      .def_readwrite("gamma", &SimulationOptions::gamma)
      .def_readwrite("bandwidth_unit", &SimulationOptions::bandwidth_unit)
      .def_readwrite("switch_model", &SimulationOptions::switch_model)
      .def_readwrite("mode", &SimulationOptions::mode);
  m.def("simulate", &Simulate, py::arg("topology"), py::arg("topology_file"), py::arg("text"),
        py::arg("options"), py::arg("chunks_sweep"), py::arg("timeline_svg"));
  m.def("verify_text", &VerifyText, py::arg("topology"), py::arg("text"), py::arg("file"));
  m.def("save_checked", &SaveChecked, py::arg("topology"), py::arg("text"), py::arg("path"),
        py::arg("check_bfb") = false);

  py::class_<cli::BfbRequest>(m, "BfbRequest")
      .def(py::init<>())
      .def_readwrite("file", &cli::BfbRequest::file)
      .def_readwrite("collective", &cli::BfbRequest::collective)
      .def_readwrite("chunks", &cli::BfbRequest::chunks)
      .def_readwrite("alpha_file", &cli::BfbRequest::alpha_file)
      .def_readwrite("clp_hint", &cli::BfbRequest::clp_hint)
      .def_readwrite("no_certificates", &cli::BfbRequest::no_certificates)
      .def_readwrite("thm4", &cli::BfbRequest::thm4)
      .def_readwrite("threads", &cli::BfbRequest::threads);
  m.def("bfb", &Bfb, py::arg("topology"), py::arg("request"), py::arg("compact"));
  m.def(
      "baseline",
      [](const Topology& g, const std::string& file, const std::string& name,
         const std::string& collective, int chunks, const std::vector<std::string>& order,
         const std::vector<int>& dims, const std::vector<int>& shifts, int fan_out, int ecmp_routes,
         bool relay) {
        cli::BaselineRequest r;
        r.options.name = name;
        r.options.chunks = chunks;
        r.options.order = order;
        r.options.dims = dims;
        r.options.shifts = shifts;
        r.options.fan_out = fan_out;
        r.collective = collective;
        r.topology = file;
        r.ecmp_routes = ecmp_routes;
        r.relay = relay;
        return Baseline(g, r);
      },
      py::arg("topology"), py::arg("file"), py::arg("name"), py::arg("collective"),
      py::arg("chunks"), py::arg("order"), py::arg("dims"), py::arg("shifts"), py::arg("fan_out"),
      py::arg("ecmp_routes"), py::arg("relay"));
  m.def(
      "replay",
      [](const std::string& source, bool is_text, const std::string& profile, int fifo, int root,
         int rounds, int max_violations, const std::vector<std::string>& xml_only_given) {
        cli::ReplayRequest r;
        r.profile = profile;
        r.options.fifo_depth = fifo;
        r.options.root = root;
        r.options.iterations = rounds;
        r.options.max_violations = max_violations;
        r.xml_only_given = xml_only_given;
        return Replay(source, is_text, r);
      },
      py::arg("source"), py::arg("is_text"), py::arg("profile"), py::arg("fifo"), py::arg("root"),
      py::arg("rounds"), py::arg("max_violations"), py::arg("xml_only_given"));
  py::class_<cli::ExportMscclArgs>(m, "ExportMscclArgs")
      .def(py::init<>())
      .def_readwrite("output", &cli::ExportMscclArgs::output)
      .def_readwrite("profile", &cli::ExportMscclArgs::profile)
      .def_readwrite("proto", &cli::ExportMscclArgs::proto)
      .def_readwrite("inplace", &cli::ExportMscclArgs::inplace)
      .def_readwrite("min_bytes", &cli::ExportMscclArgs::min_bytes)
      .def_readwrite("max_bytes", &cli::ExportMscclArgs::max_bytes)
      .def_readwrite("max_tbs", &cli::ExportMscclArgs::max_tbs)
      .def_readwrite("max_channels", &cli::ExportMscclArgs::max_channels)
      .def_readwrite("max_chunks", &cli::ExportMscclArgs::max_chunks)
      .def_readwrite("instances", &cli::ExportMscclArgs::instances)
      .def_readwrite("root_specific", &cli::ExportMscclArgs::root_specific)
      .def_readwrite("fuse", &cli::ExportMscclArgs::fuse)
      .def_readwrite("name", &cli::ExportMscclArgs::name);
  m.def(
      "export_msccl",
      [](const Topology& g, const std::string& text, const cli::ExportMscclArgs& a,
         const std::string& ranks) { return Export(&cli::ExportMsccl, g, text, a, ranks); },
      py::arg("topology"), py::arg("text"), py::arg("args"), py::arg("ranks"));
  py::class_<cli::ExportMscclppArgs>(m, "ExportMscclppArgs")
      .def(py::init<>())
      .def_readwrite("output", &cli::ExportMscclppArgs::output)
      .def_readwrite("proto", &cli::ExportMscclppArgs::proto)
      .def_readwrite("inplace", &cli::ExportMscclppArgs::inplace)
      .def_readwrite("min_bytes", &cli::ExportMscclppArgs::min_bytes)
      .def_readwrite("max_bytes", &cli::ExportMscclppArgs::max_bytes)
      .def_readwrite("max_tbs", &cli::ExportMscclppArgs::max_tbs)
      .def_readwrite("max_chunks", &cli::ExportMscclppArgs::max_chunks)
      .def_readwrite("instances", &cli::ExportMscclppArgs::instances)
      .def_readwrite("pieces", &cli::ExportMscclppArgs::pieces)
      .def_readwrite("name", &cli::ExportMscclppArgs::name);
  m.def(
      "export_mscclpp",
      [](const Topology& g, const std::string& text, const cli::ExportMscclppArgs& a,
         const std::string& ranks) { return Export(&cli::ExportMscclpp, g, text, a, ranks); },
      py::arg("topology"), py::arg("text"), py::arg("args"), py::arg("ranks"));
  py::class_<cli::ExportChakraArgs>(m, "ExportChakraArgs")
      .def(py::init<>())
      .def_readwrite("prefix", &cli::ExportChakraArgs::prefix)
      .def_readwrite("size", &cli::ExportChakraArgs::size)
      .def_readwrite("slices", &cli::ExportChakraArgs::slices)
      .def_readwrite("max_chunks", &cli::ExportChakraArgs::max_chunks)
      .def_readwrite("max_tbs", &cli::ExportChakraArgs::max_tbs)
      .def_readwrite("max_channels", &cli::ExportChakraArgs::max_channels)
      .def_readwrite("fuse", &cli::ExportChakraArgs::fuse);
  m.def(
      "export_chakra",
      [](const Topology& g, const std::string& text, const cli::ExportChakraArgs& a) {
        return Export(&cli::ExportChakra, g, text, a, "");
      },
      py::arg("topology"), py::arg("text"), py::arg("args"));
}
