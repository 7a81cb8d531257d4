#include "experiments/experiment.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace collsynth::experiments {
namespace {

std::map<std::string, ExperimentKindFn>& Registry() {
  static std::map<std::string, ExperimentKindFn> registry;
  return registry;
}

}  // namespace

ExperimentKindRegistrar::ExperimentKindRegistrar(const std::string& name, ExperimentKindFn fn) {
  if (!Registry().emplace(name, std::move(fn)).second) {
    throw std::logic_error("experiment kind registered twice: " + name);
  }
}

const ExperimentKindFn* FindExperimentKind(const std::string& name) {
  auto it = Registry().find(name);
  return it == Registry().end() ? nullptr : &it->second;
}

std::vector<std::string> ExperimentKindNames() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : Registry()) names.push_back(name);
  return names;  // std::map keeps them sorted
}

}  // namespace collsynth::experiments
