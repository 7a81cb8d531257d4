#include "simulate/chunk_choice.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "simulate/flow_simulation.h"
#include "simulate/pipeline_simulation.h"

namespace collsynth {

ChunkChoice ChooseChunkCount(const PipelineSchedule& s, const Topology& g, SimulationModel m,
                             const std::vector<std::int64_t>& candidates) {
  return ChooseChunkCount(
      [&](const SimulationModel& mp) { return BuildPipelineSimulation(s, g, mp); }, std::move(m),
      candidates);
}

ChunkChoice ChooseChunkCount(const std::function<FlowSimulation(const SimulationModel&)>& build,
                             SimulationModel m, const std::vector<std::int64_t>& candidates) {
  if (candidates.empty()) throw std::invalid_argument("ChooseChunkCount: no candidates");
  ChunkChoice c;
  for (std::int64_t p : candidates) {
    if (p < 1) throw std::invalid_argument("ChooseChunkCount: P must be positive");
    m.chunks = p;
    Rational t = build(m).Run().completion;
    if (c.times.empty() || t < c.best_time || (t == c.best_time && p < c.best)) {
      c.best = p;
      c.best_time = t;
    }
    c.times.emplace_back(p, std::move(t));
  }
  return c;
}

std::vector<std::int64_t> ParseChunkList(const std::string& option, const std::string& text,
                                         std::int64_t max_chunks) {
  std::vector<std::int64_t> out;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::int64_t p = ParseChunkCount(option, text.substr(begin, comma - begin), max_chunks);
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);  // once each
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return out;
}

}  // namespace collsynth
