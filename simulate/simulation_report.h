// The report of a simulation (docs/simulate.md "Output"): completion time (exact
// and decimal), per-link bytes and busy fraction, the critical path, as a JSON object and as
// text, and the per-transfer timeline CSV (one row per transfer and link, plots as a Gantt
// chart). Builds strings and writes to a caller's stream; never prints. Cost O(transfers + |E|).
#ifndef COLLSYNTH_SIMULATE_SIMULATION_REPORT_H_
#define COLLSYNTH_SIMULATE_SIMULATION_REPORT_H_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "schedules/collective.h"
#include "schedules/flow_schedule.h"
#include "simulate/flow_simulation.h"
#include "simulate/simulation_model.h"

namespace collsynth {

// A rational (seconds, bytes, fractions) as a decimal for people (12 significant digits, e.g.
// "0.000123456789012"); the exact value is the "p/q" beside it.
std::string DecimalString(const Rational& seconds);

// `format` is the schedule's ("steps", "steps-compact", "pipeline", "flows": critical path
// entries {pair, path, chunk, hop}) or "msccl" (an XML file: model.iterations instead of
// chunks, critical path entries {gpu, tb, xml_step, iteration, unit, share, hop}). Keys: format,
// collective, topology, model {size_bytes, shard_bytes, bytes_per_unit, alpha, gamma, switch_model,
// mode | chunks}, completion_time ("p/q" s), completion_seconds (decimal string), transfers,
// events, links [{from, to, bytes, busy, busy_fraction, busy_fraction_decimal}] (links that carried
// bytes, by id), idle_links, critical_path [{link, issued, start (took its first link), arrived,
// done, bytes, phase, step, send | tree, edge, route, chunk, hop}].
nlohmann::json SimulationReportJson(const FlowSimulation& sim, const FlowSimulationResult& r,
                                    const SimulationModel& m, const std::string& format,
                                    Collective collective);
// A flows simulation's report gets the flow checker's T (`checked_time`, "p/q" in demand units
// per unit bandwidth) and the bandwidth bound it gives, `bandwidth_bound` = T · shard /
// bytes_per_unit seconds ("p/q", and `bandwidth_bound_seconds` as a decimal): no simulated
// time is below it (docs/simulate.md "All-to-all flows").
void AddAlltoallBound(nlohmann::json* report, const Rational& checked_time,
                      const SimulationModel& m, int num_compute);
// Several lines: the completion time, the ten busiest links, the critical path (its first and
// last five transfers when longer than ten; each from when it took its first link to done).
std::string SimulationReportText(const nlohmann::json& report);

// CSV header: transfer,phase,step,tree,edge,route,chunk,hop,from,to,bytes,issued,start,end,
// arrived,done,issued_exact,start_exact,end_exact,arrived_exact,done_exact — one row per
// (transfer, link) for every transfer but barriers; start/end: when the transfer took and
// released that link (the Gantt bar); seconds as decimals, then exact "p/q".
void WriteTimelineCsv(const FlowSimulation& sim, const FlowSimulationResult& r, bool steps,
                      std::ostream& out);

// The timeline of an MSCCL XML simulation (simulate/msccl_simulation.h): CSV header
// transfer,gpu,tb,step,iteration,unit,share,hop,from,to,bytes,issued,start,end,arrived,done,
// issued_exact,start_exact,end_exact,arrived_exact,done_exact — one row per (transfer, link);
// step is the XML step index in its block, share the route part, hop the link on it.
void WriteMscclTimelineCsv(const FlowSimulation& sim, const FlowSimulationResult& r,
                           std::ostream& out);

// The timeline of an all-to-all flows simulation (simulate/alltoall_simulation.h) of `s`: CSV
// header transfer,pair,source,destination,path,chunk,hop,from,to,bytes,issued,start,end,arrived,
// done,issued_exact,start_exact,end_exact,arrived_exact,done_exact — one row per (transfer,
// link); pair is the index in s.flows (source, destination its nodes), path the index in the
// pair, hop the link on it (empty for cut-through).
void WriteAlltoallTimelineCsv(const FlowSimulation& sim, const FlowSimulationResult& r,
                              const FlowSchedule& s, std::ostream& out);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_SIMULATION_REPORT_H_
