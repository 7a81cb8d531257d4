// Shared helpers for the experiment-kind tests (tests/experiments/*_test.cc): run a kind's
// tasks in this process and read a row's extra columns. Header-only; test code only.
#ifndef COLLSYNTH_TESTS_EXPERIMENTS_EXPERIMENT_TEST_UTIL_H_
#define COLLSYNTH_TESTS_EXPERIMENTS_EXPERIMENT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "experiments/experiment.h"

namespace collsynth::testing {

// The value of the extra column `name` of `row`, or "<absent>" when the row has none. O(columns).
inline std::string Extra(const experiments::ExperimentRow& row, const std::string& name) {
  for (const auto& [key, value] : row.extra) {
    if (key == name) return value;
  }
  return "<absent>";
}

// The rows of every task of the registered experiment kind `kind` run on `params`, in task
// order (serially, in this process). An unknown kind is a test failure and gives no rows, and
// so is a row with an extra column the kind does not declare; exceptions of the kind (e.g.
// InputError on bad params) propagate.
inline std::vector<experiments::ExperimentRow> RunExperimentKind(const std::string& kind,
                                                                 const nlohmann::json& params) {
  const experiments::ExperimentKindFn* fn = experiments::FindExperimentKind(kind);
  EXPECT_NE(fn, nullptr) << kind;
  if (fn == nullptr) return {};
  experiments::ExperimentInput in;
  in.params = params;
  std::vector<experiments::ExperimentRow> rows;
  const std::vector<std::string>* declared = experiments::ExperimentKindColumns(kind);
  for (const experiments::ExperimentTask& t : (*fn)(in)) {
    for (experiments::ExperimentRow& r : t.run()) {
      // Every column a row has is one its kind declares (plots are checked against them).
      for (const auto& [name, value] : r.extra) {
        EXPECT_TRUE(experiments::IsDeclaredColumn(*declared, name))
            << kind << " produced column '" << name << "' it does not declare";
      }
      rows.push_back(std::move(r));
    }
  }
  return rows;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_EXPERIMENTS_EXPERIMENT_TEST_UTIL_H_
