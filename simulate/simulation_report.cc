#include "simulate/simulation_report.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "graphs/topology_io.h"

namespace collsynth {
namespace {

using nlohmann::json;

// "a -> s -> b" for the links of a transfer (consecutive along a route).
std::string LinksName(const FlowSimulation& sim, int t) {
  const Topology& g = sim.topology();
  std::string out;
  for (int e : sim.Links(t)) {
    if (out.empty()) out = g.node(g.link(e).from).name;
    out += " -> " + g.node(g.link(e).to).name;
  }
  return out;
}

// A node name as a CSV field (quoted when it holds a comma, quote or line break).
std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

bool IsSteps(const std::string& format) { return format == "steps" || format == "steps-compact"; }
bool IsMsccl(const std::string& format) { return format == "msccl"; }
bool IsFlows(const std::string& format) { return format == "flows"; }

// The columns every timeline row ends with, for transfer t on link slot `slot`:
// from,to,bytes,issued,start,end,arrived,done (decimals), then the times exact.
void WriteTimelineTail(const FlowSimulation& sim, const FlowSimulationResult& r, int t, int e,
                       std::int64_t slot, std::ostream& out) {
  const Topology& g = sim.topology();
  const Rational issued = r.Issued(t), arrived = r.Arrived(t), done = sim.DoneTime(r, t);
  const Rational start = r.SlotStart(slot), end = r.SlotEnd(slot);
  out << CsvField(g.node(g.link(e).from).name) << ',' << CsvField(g.node(g.link(e).to).name) << ','
      << DecimalString(sim.Bytes(t)) << ',' << DecimalString(issued) << ',' << DecimalString(start)
      << ',' << DecimalString(end) << ',' << DecimalString(arrived) << ',' << DecimalString(done)
      << ',' << ToString(issued) << ',' << ToString(start) << ',' << ToString(end) << ','
      << ToString(arrived) << ',' << ToString(done) << '\n';
}

}  // namespace

std::string DecimalString(const Rational& seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", seconds.convert_to<double>());
  return buf;
}

json SimulationReportJson(const FlowSimulation& sim, const FlowSimulationResult& r,
                          const SimulationModel& m, const std::string& format,
                          Collective collective) {
  const Topology& g = sim.topology();
  const bool steps = IsSteps(format);
  json j;
  j["format"] = format;
  j["collective"] = CollectiveName(collective);
  j["topology"] = g.name();
  json model;
  model["size_bytes"] = ToString(m.size);
  model["shard_bytes"] = ToString(ShardBytes(m, collective, g.num_compute()));
  model["bytes_per_unit"] = ToString(m.bytes_per_unit);
  model["alpha"] = ToString(m.default_alpha);
  model["gamma"] = ToString(m.gamma);
  model["switch_model"] = SwitchModelName(m.switch_model);
  if (steps) {
    model["mode"] = StepModeName(m.step_mode);
  } else if (IsMsccl(format)) {
    model["iterations"] = m.chunks;
  } else {
    model["chunks"] = m.chunks;
  }
  j["model"] = std::move(model);
  j["completion_time"] = ToString(r.completion);
  j["completion_seconds"] = DecimalString(r.completion);
  int transfers = 0;
  for (int t = 0; t < sim.num_transfers(); ++t) transfers += sim.IsBarrier(t) ? 0 : 1;
  j["transfers"] = transfers;
  j["events"] = r.events;
  json links = json::array();
  int idle = 0;
  for (int e = 0; e < g.num_links(); ++e) {
    if (r.link_bytes[e] == 0) {
      ++idle;
      continue;
    }
    const Rational fraction = r.completion > 0 ? r.link_busy[e] / r.completion : Rational(0);
    links.push_back({{"from", g.node(g.link(e).from).name},
                     {"to", g.node(g.link(e).to).name},
                     {"bytes", ToString(r.link_bytes[e])},
                     {"busy", ToString(r.link_busy[e])},
                     {"busy_fraction", ToString(fraction)},
                     {"busy_fraction_decimal", DecimalString(fraction)}});
  }
  j["links"] = std::move(links);
  j["idle_links"] = idle;
  json path = json::array();
  for (int t : r.critical_path) {
    const TransferLabel& l = sim.Label(t);
    json o = {{"link", LinksName(sim, t)},
              {"issued", ToString(r.Issued(t))},
              {"start", ToString(r.SlotStart(sim.FirstSlot(t)))},
              {"arrived", ToString(r.Arrived(t))},
              {"done", ToString(sim.DoneTime(r, t))},
              {"bytes", ToString(sim.Bytes(t))},
              {"phase", l.phase}};
    if (steps) {
      o["step"] = l.group;
      o["send"] = l.item;
    } else if (IsFlows(format)) {
      o["pair"] = l.group;
      o["path"] = l.route;
      o["chunk"] = l.chunk;
      o["hop"] = l.hop;
    } else if (IsMsccl(format)) {
      o["gpu"] = l.group;
      o["tb"] = l.item;
      o["xml_step"] = l.route;
      o["iteration"] = l.chunk;
      o["unit"] = l.unit;
      o["share"] = l.phase;
      o["hop"] = l.hop;
    } else {
      o["tree"] = l.group;
      o["edge"] = l.item;
      o["route"] = l.route;
      o["chunk"] = l.chunk;
      o["hop"] = l.hop;
    }
    path.push_back(std::move(o));
  }
  j["critical_path"] = std::move(path);
  return j;
}

void AddAlltoallBound(json* report, const Rational& checked_time, const SimulationModel& m,
                      int num_compute) {
  const Rational bound =
      checked_time * ShardBytes(m, Collective::kAlltoall, num_compute) / m.bytes_per_unit;
  (*report)["checked_time"] = ToString(checked_time);
  (*report)["bandwidth_bound"] = ToString(bound);
  (*report)["bandwidth_bound_seconds"] = DecimalString(bound);
}

std::string SimulationReportText(const json& report) {
  std::ostringstream out;
  const json& model = report["model"];
  out << "simulated " << report["collective"].get<std::string>() << " ("
      << report["format"].get<std::string>() << ", "
      << (model.contains("mode") ? model["mode"].get<std::string>() + " steps"
          : model.contains("iterations")
              ? "P = " + std::to_string(model["iterations"].get<std::int64_t>()) + " iterations, " +
                    model["switch_model"].get<std::string>()
              : "P = " + std::to_string(model["chunks"].get<std::int64_t>()) + " chunks, " +
                    model["switch_model"].get<std::string>())
      << ") on " << report["topology"].get<std::string>()
      << ": M = " << model["size_bytes"].get<std::string>() << " bytes, shard "
      << model["shard_bytes"].get<std::string>() << " bytes\n";
  out << "completion time: " << report["completion_time"].get<std::string>() << " s ("
      << report["completion_seconds"].get<std::string>() << " s)\n";
  if (report.contains("bandwidth_bound")) {
    out << "bandwidth bound: " << report["bandwidth_bound"].get<std::string>() << " s ("
        << report["bandwidth_bound_seconds"].get<std::string>()
        << " s; the checker's T = " << report["checked_time"].get<std::string>()
        << " shards per unit bandwidth)\n";
  }
  out << "transfers: " << report["transfers"] << ", events: " << report["events"] << "\n";
  std::vector<const json*> links;
  for (const json& l : report["links"]) links.push_back(&l);
  std::stable_sort(links.begin(), links.end(), [](const json* a, const json* b) {
    return ParseRational((*a)["busy"].get<std::string>()) >
           ParseRational((*b)["busy"].get<std::string>());
  });
  out << "links used: " << links.size() << ", idle: " << report["idle_links"] << "; busiest:\n";
  for (std::size_t i = 0; i < links.size() && i < 10; ++i) {
    const json& l = *links[i];
    out << "  " << l["from"].get<std::string>() << " -> " << l["to"].get<std::string>() << ": busy "
        << l["busy_fraction_decimal"].get<std::string>() << " of the time, "
        << l["bytes"].get<std::string>() << " bytes\n";
  }
  const json& path = report["critical_path"];
  out << "critical path: " << path.size() << " transfers\n";
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path.size() > 10 && i == 5) out << "  ...\n";
    if (path.size() > 10 && i >= 5 && i + 5 < path.size()) continue;
    const json& p = path[i];
    out << "  " << p["link"].get<std::string>() << " ";
    if (p.contains("step")) {
      out << "(step " << p["step"] << ", send " << p["send"] << ")";
    } else if (p.contains("pair")) {
      out << "(pair " << p["pair"] << ", path " << p["path"] << ", chunk " << p["chunk"] << ")";
    } else if (p.contains("xml_step")) {
      out << "(gpu " << p["gpu"] << ", tb " << p["tb"] << ", step " << p["xml_step"]
          << ", iteration " << p["iteration"] << ", unit " << p["unit"] << ")";
    } else {
      out << "(phase " << p["phase"] << ", tree " << p["tree"] << ", edge " << p["edge"]
          << ", route " << p["route"] << ", chunk " << p["chunk"] << ")";
    }
    out << ": " << DecimalString(ParseRational(p["start"].get<std::string>())) << " .. "
        << DecimalString(ParseRational(p["done"].get<std::string>())) << " s\n";
  }
  return out.str();
}

void WriteTimelineCsv(const FlowSimulation& sim, const FlowSimulationResult& r, bool steps,
                      std::ostream& out) {
  out << "transfer,phase,step,tree,edge,route,chunk,hop,from,to,bytes,issued,start,end,arrived,"
         "done,issued_exact,start_exact,end_exact,arrived_exact,done_exact\n";
  auto field = [](int v) { return v < 0 ? std::string() : std::to_string(v); };
  for (int t = 0; t < sim.num_transfers(); ++t) {
    if (sim.IsBarrier(t)) continue;
    const TransferLabel& l = sim.Label(t);
    std::int64_t slot = sim.FirstSlot(t);
    for (int e : sim.Links(t)) {
      out << t << ',' << l.phase << ',' << (steps ? field(l.group) : "") << ','
          << (steps ? "" : field(l.group)) << ',' << (steps ? "" : field(l.item)) << ','
          << field(l.route) << ',' << field(l.chunk) << ',' << field(l.hop) << ',';
      WriteTimelineTail(sim, r, t, e, slot++, out);
    }
  }
}

void WriteMscclTimelineCsv(const FlowSimulation& sim, const FlowSimulationResult& r,
                           std::ostream& out) {
  out << "transfer,gpu,tb,step,iteration,unit,share,hop,from,to,bytes,issued,start,end,arrived,"
         "done,issued_exact,start_exact,end_exact,arrived_exact,done_exact\n";
  auto field = [](int v) { return v < 0 ? std::string() : std::to_string(v); };
  for (int t = 0; t < sim.num_transfers(); ++t) {
    if (sim.IsBarrier(t)) continue;
    const TransferLabel& l = sim.Label(t);
    std::int64_t slot = sim.FirstSlot(t);
    for (int e : sim.Links(t)) {
      out << t << ',' << l.group << ',' << l.item << ',' << l.route << ',' << l.chunk << ','
          << l.unit << ',' << l.phase << ',' << field(l.hop) << ',';
      WriteTimelineTail(sim, r, t, e, slot++, out);
    }
  }
}

void WriteAlltoallTimelineCsv(const FlowSimulation& sim, const FlowSimulationResult& r,
                              const FlowSchedule& s, std::ostream& out) {
  const Topology& g = sim.topology();
  out << "transfer,pair,source,destination,path,chunk,hop,from,to,bytes,issued,start,end,arrived,"
         "done,issued_exact,start_exact,end_exact,arrived_exact,done_exact\n";
  for (int t = 0; t < sim.num_transfers(); ++t) {
    const TransferLabel& l = sim.Label(t);
    if (sim.IsBarrier(t)) continue;
    const PairFlows& pair = s.flows.at(l.group);
    std::int64_t slot = sim.FirstSlot(t);
    for (int e : sim.Links(t)) {
      out << t << ',' << l.group << ',' << CsvField(g.node(pair.from).name) << ','
          << CsvField(g.node(pair.to).name) << ',' << l.route << ',' << l.chunk << ','
          << (l.hop < 0 ? std::string() : std::to_string(l.hop)) << ',';
      WriteTimelineTail(sim, r, t, e, slot++, out);
    }
  }
}

}  // namespace collsynth
