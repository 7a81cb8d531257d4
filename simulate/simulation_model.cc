#include "simulate/simulation_model.h"

#include <cctype>
#include <stdexcept>

#include "core/input_error.h"

namespace collsynth {

const char* SwitchModelName(SwitchModel m) {
  return m == SwitchModel::kCutThrough ? "cut-through" : "store-and-forward";
}

const char* StepModeName(StepMode m) { return m == StepMode::kAsync ? "async" : "sync"; }

std::optional<SwitchModel> ParseSwitchModel(const std::string& text) {
  if (text == "store-and-forward") return SwitchModel::kStoreAndForward;
  if (text == "cut-through") return SwitchModel::kCutThrough;
  return std::nullopt;
}

std::optional<StepMode> ParseStepMode(const std::string& text) {
  if (text == "sync") return StepMode::kSync;
  if (text == "async") return StepMode::kAsync;
  return std::nullopt;
}

Rational ShardBytes(const SimulationModel& m, Collective c, int num_compute) {
  if (c == Collective::kBroadcast) return m.size;
  if (num_compute < 1) throw std::logic_error("ShardBytes: no compute nodes");
  return m.size / num_compute;
}

std::vector<Rational> LinkRates(const Topology& g, const SimulationModel& m) {
  std::vector<Rational> rates;
  rates.reserve(g.num_links());
  for (const Link& l : g.links()) rates.push_back(l.bandwidth * m.bytes_per_unit);
  return rates;
}

std::vector<Rational> LinkLatencies(const Topology& g, const SimulationModel& m) {
  std::vector<Rational> lat;
  lat.reserve(g.num_links());
  for (int e = 0; e < g.num_links(); ++e) {
    const bool given = e < static_cast<int>(m.link_latency.size()) && m.link_latency[e];
    lat.push_back(given ? *m.link_latency[e] : m.default_alpha);
  }
  return lat;
}

Rational ParseQuantity(const std::string& option, const std::string& text, const UnitTable& units,
                       const std::string& bare, bool allow_zero) {
  std::size_t end = 0;
  while (end < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
          text[end] == '/' || text[end] == '-' || text[end] == '+')) {
    ++end;
  }
  const std::string num = text.substr(0, end);
  const std::string unit = end == text.size() ? bare : text.substr(end);
  Rational v;
  try {
    v = ParseRational(num);
  } catch (const std::invalid_argument& e) {
    throw InputError("<args>", option, "'" + text + "': " + e.what());
  }
  for (const auto& [name, factor] : units) {
    if (name != unit) continue;
    if (v < 0 || (v == 0 && !allow_zero)) {
      throw InputError("<args>", option,
                       "'" + text + "' must be " + (allow_zero ? "non-negative" : "positive"));
    }
    return v * factor;
  }
  std::string list;
  for (const auto& u : units) list += (list.empty() ? "" : ", ") + u.first;
  throw InputError("<args>", option,
                   "unknown unit '" + unit + "' in '" + text + "' (" + list + ")");
}

const UnitTable& SizeUnits() {
  static const UnitTable t = {{"B", 1},      {"KB", 1024},     {"MB", 1 << 20}, {"GB", 1 << 30},
                              {"KiB", 1024}, {"MiB", 1 << 20}, {"GiB", 1 << 30}};
  return t;
}

const UnitTable& TimeUnits() {
  static const UnitTable t = {{"s", 1},
                              {"ms", Rational(1, 1000)},
                              {"us", Rational(1, 1000000)},
                              {"ns", Rational(1, 1000000000)}};
  return t;
}

const UnitTable& TimePerByteUnits() {
  static const UnitTable t = {{"s/B", 1},
                              {"ms/B", Rational(1, 1000)},
                              {"us/B", Rational(1, 1000000)},
                              {"ns/B", Rational(1, 1000000000)},
                              {"ps/B", Rational(1, 1000000000000LL)}};
  return t;
}

const UnitTable& BandwidthUnits() {
  static const UnitTable t = {{"B/s", 1},
                              {"KB/s", 1000},
                              {"MB/s", 1000000},
                              {"GB/s", 1000000000},
                              {"TB/s", Rational(1000000000000LL)},
                              {"KiB/s", 1024},
                              {"MiB/s", 1 << 20},
                              {"GiB/s", 1 << 30},
                              {"bps", Rational(1, 8)},
                              {"Kbps", 125},
                              {"Mbps", 125000},
                              {"Gbps", 125000000},
                              {"Tbps", Rational(125000000000LL)}};
  return t;
}

std::int64_t ParseChunkCount(const std::string& option, const std::string& text,
                             std::int64_t max_chunks) {
  const std::string range = "must be an integer in 1.." + std::to_string(max_chunks);
  Rational p;
  try {
    p = ParseRational(text);
  } catch (const std::invalid_argument&) {
    throw InputError("<args>", option, "'" + text + "' " + range);
  }
  if (p <= 0) throw InputError("<args>", option, "'" + text + "' must be positive");
  if (Denominator(p) != 1 || p > Rational(max_chunks)) {
    throw InputError("<args>", option, "'" + text + "' " + range);
  }
  return Numerator(p).convert_to<std::int64_t>();
}

Rational ParseBandwidthUnit(const std::string& option, const std::string& text) {
  const bool unit_only = !text.empty() && !std::isdigit(static_cast<unsigned char>(text[0])) &&
                         text[0] != '.' && text[0] != '-' && text[0] != '+' && text[0] != '/';
  return ParseQuantity(option, unit_only ? "1" + text : text, BandwidthUnits(), "B/s", false);
}

}  // namespace collsynth
