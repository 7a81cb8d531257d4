// Seed 000 curve and table kinds (experiments/paper_curves.cc): linegraph-curve is Figure 3
// (Cor 10.1's closed form, checked against built schedules), model-topologies is Table 8 /
// Fig 8b (the DNN-model -> topology mapping scored by the theorems); finder-best-per-n's
// "directions" is Figure 13's bidirectional curve. Bad parameters are InputError.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "experiments/experiment.h"
#include "experiments/experiment_test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::Extra;
using ::collsynth::testing::RunExperimentKind;

TEST(LineGraphCurveKind, Figure3PointsAreCor101AndTheCheckerAgrees) {
  auto rows = RunExperimentKind(
      "linegraph-curve",
      {{"bases", {{{"topology", "bipartite(4)"}}}}, {"n_max", 3}, {"build_max_nodes", 128}});
  ASSERT_EQ(rows.size(), 4u);
  // K_{4,4}: N = 8, 32, 128, 512; T_L = 2 + n; T_B/T_B* = 1, 32/31, 132/127, 76/73.
  EXPECT_EQ(rows[1].instance, "line(bipartite(4),1)");
  EXPECT_EQ(rows[1].nodes, 32);
  EXPECT_EQ(*rows[1].tl, 3);
  EXPECT_EQ(*rows[1].tb, 1);  // 32/31 · 31/32 M/B
  EXPECT_EQ(Extra(rows[0], "ratio"), "1");
  EXPECT_EQ(Extra(rows[1], "ratio"), "32/31");
  EXPECT_EQ(Extra(rows[2], "ratio"), "132/127");
  EXPECT_EQ(Extra(rows[3], "ratio"), "76/73");
  EXPECT_EQ(Extra(rows[3], "thm2_limit"), "25/24");
  EXPECT_EQ(Extra(rows[3], "moore_optimal"), "yes");
  // Built and checked up to 128 nodes: the checker's values equal the closed form.
  EXPECT_EQ(rows[2].verified, Verified::kYes);
  EXPECT_EQ(Extra(rows[2], "checked_tl"), "4");
  EXPECT_EQ(Extra(rows[2], "checked_tb"), "33/32");
  EXPECT_EQ(rows[3].verified, Verified::kNotApplicable);
  EXPECT_EQ(Extra(rows[3], "checked_tb"), "");
}

TEST(LineGraphCurveKind, RejectsABaseThatIsNotBandwidthOptimal) {
  // de Bruijn B(2,1) is not BW optimal (docs/errata.md); uniring(1,4) has degree 1.
  EXPECT_THROW(RunExperimentKind("linegraph-curve", {{"bases", {{{"topology", "debruijn(2,1)"}}}}}),
               InputError);
  EXPECT_THROW(RunExperimentKind("linegraph-curve", {{"bases", {{{"topology", "uniring(1,4)"}}}}}),
               InputError);
  EXPECT_THROW(RunExperimentKind("linegraph-curve", {{"bases", nlohmann::json::array()}}),
               InputError);
}

// [["line", 3], ...] (a braced list of one pair would read as a JSON object).
nlohmann::json Steps(const std::vector<std::pair<std::string, int>>& steps) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& [what, n] : steps) a.push_back(nlohmann::json::array({what, n}));
  return a;
}

nlohmann::json Table8Topologies() {
  using nlohmann::json;
  return {{"L^3(C(16,{3,4}))",
           {{"base", {{"label", "C"}, {"nodes", 16}, {"degree", 4}, {"steps", 3}, {"bfb", true}}},
            {"expansions", Steps({{"line", 3}})},
            {"paper", {{"tl", "12"}, {"tb", "2.039"}}}}},
          {"L^2(Diamond^2)",
           {{"base", {{"label", "D"}, {"nodes", 8}, {"degree", 2}, {"steps", 3}, {"bfb", false}}},
            {"expansions", Steps({{"power", 2}, {"line", 2}})},
            {"paper", {{"tl", "16"}, {"tb", "2.008"}}}}},
          {"L(DBJMod(2,4))^2",
           {{"base", {{"label", "J"}, {"nodes", 16}, {"degree", 2}, {"steps", 5}, {"bfb", false}}},
            {"expansions", Steps({{"power", 2}, {"line", 1}})},  // L(G^□2), docs/errata.md
            {"paper", {{"tl", "22"}, {"tb", "2.000"}}}}}};
}

TEST(ModelTopologiesKind, Table8RowsScoredByTheTheorems) {
  auto rows = RunExperimentKind("model-topologies",
                                {{"alpha_us", "10"},
                                 {"gbps", "100"},
                                 {"sizes_bytes", {1048576}},
                                 {"topologies", Table8Topologies()},
                                 {"models",
                                  {{{"model", "resnet50"}, {"topology", "L^2(Diamond^2)"}},
                                   {{"model", "squeezenet1_1"}, {"topology", "L^3(C(16,{3,4}))"}},
                                   {{"model", "vgg16"}, {"topology", "L(DBJMod(2,4))^2"}}}}});
  ASSERT_EQ(rows.size(), 3u);
  // Table 4 row 3: 16α, 2.008 M/B, 328.4 µs (M = 2^20 bytes).
  EXPECT_EQ(Extra(rows[0], "model"), "resnet50");
  EXPECT_EQ(rows[0].nodes, 1024);
  EXPECT_EQ(*rows[0].tl, 16);
  EXPECT_EQ(*rows[0].tb, Rational(257, 128));
  EXPECT_EQ(Extra(rows[0], "time_us_1048576"), "328.428");
  EXPECT_EQ(rows[0].algorithm, "theorems (T_B upper bound)");
  // Table 4 row 2: 12α, 2.039 M/B, 291.0 µs (Cor 10.1, exact).
  EXPECT_EQ(*rows[1].tl, 12);
  EXPECT_EQ(*rows[1].tb, Rational(261, 128));
  EXPECT_EQ(Extra(rows[1], "time_us_1048576"), "291.049");
  EXPECT_EQ(rows[1].algorithm, "theorems");
  // Table 4 row 4, 22α, 2.000 M/B, 387.8 µs: Thm 12 then Thm 1 (square first; the other order
  // is in seed000_base_search_test.cc).
  EXPECT_EQ(*rows[2].tl, 22);
  EXPECT_EQ(*rows[2].tb, Rational(2));
  EXPECT_EQ(Extra(rows[2], "time_us_1048576"), "387.772");
  // Which sizes pick which topology: ours 16·10^6 bytes (40 µs / (1/32 · 8·10^-5 µs/B)) and
  // 96·10^6 (60 / (1/128 · 8·10^-5)); with the printed values 16129032 (40 / (0.031 · 8·10^-5))
  // and 93750000 (60 / (0.008 · 8·10^-5)).
  EXPECT_EQ(Extra(rows[1], "fastest_from_bytes"), "0");
  EXPECT_EQ(Extra(rows[1], "fastest_to_bytes"), "16000000");
  EXPECT_EQ(Extra(rows[0], "fastest_to_bytes"), "96000000");
  EXPECT_EQ(Extra(rows[2], "fastest_from_bytes"), "96000000");
  EXPECT_EQ(Extra(rows[2], "fastest_to_bytes"), "inf");
  EXPECT_EQ(Extra(rows[0], "paper_fastest_from_bytes"), "16129032");
  EXPECT_EQ(Extra(rows[0], "paper_fastest_to_bytes"), "93750000");
  EXPECT_EQ(Extra(rows[2], "paper_fastest_from_bytes"), "93750000");
  EXPECT_EQ(Extra(rows[2], "paper_fastest_to_bytes"), "inf");
}

TEST(ModelTopologiesKind, BuiltTopologyIsCheckedAgainstTheFormula) {
  auto rows = RunExperimentKind(
      "model-topologies",
      {{"alpha_us", "10"},
       {"gbps", "100"},
       {"topologies",
        {{"L(C16)",
          {{"base", {{"label", "C"}, {"nodes", 16}, {"degree", 4}, {"steps", 3}, {"bfb", true}}},
           {"expansions", Steps({{"line", 1}})},
           {"build", "line(circulant(16,3,4))"}}}}},
       {"models", {{{"model", "m"}, {"topology", "L(C16)"}}}}});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].verified, Verified::kYes);
  EXPECT_EQ(Extra(rows[0], "checked_tl"), "8");
  EXPECT_EQ(Extra(rows[0], "checked_tb"), "2");  // allreduce 2 x (15/16 + 1/16)
  EXPECT_EQ(Extra(rows[0], "fastest_to_bytes"), "inf");
  EXPECT_EQ(Extra(rows[0], "paper_fastest_from_bytes"), "");
}

TEST(ModelTopologiesKind, RejectsBadParameters) {
  nlohmann::json p = {{"alpha_us", "10"},
                      {"gbps", "100"},
                      {"topologies", Table8Topologies()},
                      {"models", {{{"model", "m"}, {"topology", "unknown"}}}}};
  EXPECT_THROW(RunExperimentKind("model-topologies", p), InputError);
  p["models"] = {{{"model", "m"}, {"topology", "L^2(Diamond^2)"}}};
  p["topologies"]["L^2(Diamond^2)"]["expansions"] = Steps({{"spin", 2}});
  EXPECT_THROW(RunExperimentKind("model-topologies", p), InputError);
}

TEST(FinderBestPerNKind, Figure13BidirectionalSeries) {
  auto rows =
      RunExperimentKind("finder-best-per-n", {{"degree", 4},
                                              {"n_min", 16},
                                              {"n_max", 16},
                                              {"sizes_bytes", {1048576}},
                                              {"directions", {"unidirectional", "bidirectional"}}});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(Extra(rows[0], "direction"), "unidirectional");
  EXPECT_EQ(Extra(rows[0], "series"), Extra(rows[0], "label"));
  EXPECT_EQ(Extra(rows[1], "direction"), "bidirectional");
  EXPECT_EQ(Extra(rows[1], "series"), "bidirectional");
  EXPECT_EQ(rows[1].instance, "circulant(16,3,4)");
  EXPECT_THROW(RunExperimentKind("finder-best-per-n", {{"directions", {"sideways"}}}), InputError);
  // Without "directions" the columns are unchanged.
  auto plain = RunExperimentKind("finder-best-per-n", {{"n_min", 16}, {"n_max", 16}});
  EXPECT_EQ(Extra(plain[0], "direction"), "<absent>");
}

}  // namespace
}  // namespace collsynth::experiments
