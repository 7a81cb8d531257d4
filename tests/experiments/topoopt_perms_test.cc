// The "topoopt-perms" experiment kind (experiments/topoopt_perms.cc, seed 002 TopoOpt): the
// paper's permutation sets exactly and BFS diameters against d·n^(1/d). The diameters below
// were computed independently (BFS over i -> i+p mod n by hand/script), not read off the kind.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/experiment_test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;
using ::collsynth::testing::RunExperimentKind;

std::vector<ExperimentRow> RunKind(const nlohmann::json& params) {
  return RunExperimentKind("topoopt-perms", params);
}

const ExperimentRow* Find(const std::vector<ExperimentRow>& rows, const std::string& instance) {
  for (const ExperimentRow& r : rows) {
    if (r.instance == instance) return &r;
  }
  return nullptr;
}

TEST(TopoOptPermsExperiment, PaperExamplesAndBfsDiameters) {
  const auto rows = RunKind({{"totient", {12}},
                             {"select", {{"extra_n", {12, 16, 64, 100, 1024}}, {"d", {2, 3, 5}}}},
                             {"geometric", {{{"x", 2}, {"d", 4}}, {{"x", 3}, {"d", 3}}}}});
  // §4.3: "for n = 12 servers, the ring generation rule for p = 1,5,7,11".
  const ExperimentRow* t12 = Find(rows, "totientperms(12)");
  ASSERT_NE(t12, nullptr);
  EXPECT_EQ(Extra(*t12, "shifts"), "1 5 7 11");
  EXPECT_EQ(Extra(*t12, "d"), "4");  // φ(12)
  EXPECT_EQ(Extra(*t12, "diameter"), "3");
  struct Case {
    const char* instance;
    const char* shifts;
    const char* diameter;
    const char* bound;
  };
  for (const Case& c : {Case{"selectperms(12,2)", "1 5", "5", "6.928"},
                        Case{"selectperms(16,3)", "1 3 7", "4", "7.559"},
                        Case{"selectperms(64,3)", "1 3 11", "9", "12.000"},
                        Case{"selectperms(100,2)", "1 9", "18", "20.000"},
                        Case{"selectperms(1024,3)", "1 11 111", "25", "30.238"}}) {
    const ExperimentRow* r = Find(rows, c.instance);
    ASSERT_NE(r, nullptr) << c.instance;
    EXPECT_EQ(Extra(*r, "shifts"), c.shifts) << c.instance;
    EXPECT_EQ(Extra(*r, "diameter"), c.diameter) << c.instance;
    EXPECT_EQ(Extra(*r, "bound"), c.bound) << c.instance;
    EXPECT_EQ(Extra(*r, "within_bound"), "yes") << c.instance;
    EXPECT_EQ(r->verified, Verified::kNotApplicable);
  }
  // φ(12) = 4 < 5: no selectperms(12,5) row; φ(1024) = 512: one.
  EXPECT_EQ(Find(rows, "selectperms(12,5)"), nullptr);
  EXPECT_NE(Find(rows, "selectperms(1024,5)"), nullptr);
  // App. E.2: n = x^d with coins x^i: κ(n-1) = d(x-1), not the printed dx.
  const ExperimentRow* g24 = Find(rows, "geometric(2,4)");
  ASSERT_NE(g24, nullptr);
  EXPECT_EQ(Extra(*g24, "shifts"), "1 2 4 8");
  EXPECT_EQ(Extra(*g24, "diameter"), "4");
  EXPECT_EQ(Extra(*g24, "bound"), "8.000");
  const ExperimentRow* g33 = Find(rows, "geometric(3,3)");
  ASSERT_NE(g33, nullptr);
  EXPECT_EQ(Extra(*g33, "diameter"), "6");
}

TEST(TopoOptPermsExperiment, BadParametersAreInputErrors) {
  const ExperimentKindFn* kind = FindExperimentKind("topoopt-perms");
  ASSERT_NE(kind, nullptr);
  ExperimentInput in;
  in.params = {{"geometric", {{{"x", 1}, {"d", 2}}}}};
  EXPECT_THROW((*kind)(in), InputError);
  in.params = {{"totient", {"twelve"}}};
  EXPECT_THROW((*kind)(in), InputError);
}

}  // namespace
}  // namespace collsynth::experiments
