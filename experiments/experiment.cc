#include "experiments/experiment.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace collsynth::experiments {
namespace {

struct Kind {
  ExperimentKindFn fn;
  std::vector<std::string> columns;
};

std::map<std::string, Kind>& Registry() {
  static std::map<std::string, Kind> registry;
  return registry;
}

}  // namespace

ExperimentKindRegistrar::ExperimentKindRegistrar(const std::string& name, ExperimentKindFn fn,
                                                 std::vector<std::string> columns) {
  if (!Registry().emplace(name, Kind{std::move(fn), std::move(columns)}).second) {
    throw std::logic_error("experiment kind registered twice: " + name);
  }
}

const ExperimentKindFn* FindExperimentKind(const std::string& name) {
  auto it = Registry().find(name);
  return it == Registry().end() ? nullptr : &it->second.fn;
}

const std::vector<std::string>* ExperimentKindColumns(const std::string& name) {
  auto it = Registry().find(name);
  return it == Registry().end() ? nullptr : &it->second.columns;
}

bool IsDeclaredColumn(const std::vector<std::string>& declared, const std::string& column) {
  return std::any_of(declared.begin(), declared.end(), [&](const std::string& d) {
    if (!d.empty() && d.back() == '*') {
      const std::string prefix = d.substr(0, d.size() - 1);
      return column.size() > prefix.size() && column.compare(0, prefix.size(), prefix) == 0;
    }
    return d == column;
  });
}

std::vector<std::string> ExperimentKindNames() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : Registry()) names.push_back(name);
  return names;  // std::map keeps them sorted
}

}  // namespace collsynth::experiments
