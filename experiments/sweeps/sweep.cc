#include "experiments/sweeps/sweep.h"

#include <algorithm>
#include <stdexcept>

#include "core/input_error.h"

namespace collsynth::sweeps {

namespace {
constexpr std::size_t kMaxCounterexamples = 20;
}

void SweepReport::Fail(std::string instance, std::string detail, std::optional<Topology> g) {
  if (counterexamples.size() >= kMaxCounterexamples) g.reset();
  counterexamples.push_back({std::move(instance), std::move(detail), std::move(g)});
}

SweepRange ParseSweepRange(const std::string& text, const SweepRange& defaults) {
  if (text.empty()) return defaults;
  auto num = [&](const std::string& s) {
    if (s.empty() || s.size() > 12 || !std::all_of(s.begin(), s.end(), ::isdigit)) {
      throw InputError("<args>", "--range",
                       "'" + text + "' is not LO..HI or HI (non-negative integers)");
    }
    return std::stoll(s);
  };
  SweepRange r = defaults;
  auto dots = text.find("..");
  if (dots == std::string::npos) {
    r.hi = num(text);
  } else {
    r.lo = num(text.substr(0, dots));
    r.hi = num(text.substr(dots + 2));
  }
  if (r.lo > r.hi) throw InputError("<args>", "--range", "'" + text + "': LO > HI");
  return r;
}

const std::vector<SweepSpec>& AllSweeps() {
  static const std::vector<SweepSpec> all = [] {
    std::vector<SweepSpec> v;
    for (auto group : {ExpansionSweeps, BfbSweeps, PipelineSweeps}) {
      auto g = group();
      v.insert(v.end(), g.begin(), g.end());
    }
    std::sort(v.begin(), v.end(),
              [](const SweepSpec& a, const SweepSpec& b) { return a.name < b.name; });
    return v;
  }();
  return all;
}

const SweepSpec* FindSweep(const std::string& name) {
  for (const auto& s : AllSweeps()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace collsynth::sweeps
