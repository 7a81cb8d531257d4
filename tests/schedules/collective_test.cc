// The one Collective enum (schedules/collective.h): every name round-trips, exactly the
// spellings of the JSON files and the CLI; anything else is no collective; the schedule
// readers and writers use those spellings (docs/formats.md).
#include "schedules/collective.h"

#include <gtest/gtest.h>

#include <string>

#include "core/input_error.h"
#include "fixtures/json_tree_writers.h"
#include "graphs/topology.h"
#include "schedules/compact_schedule.h"
#include "schedules/pipeline_schedule.h"
#include "schedules/step_schedule.h"

namespace collsynth {
namespace {

TEST(CollectiveTest, NamesAreTheJsonSpellings) {
  EXPECT_STREQ(CollectiveName(Collective::kAllgather), "allgather");
  EXPECT_STREQ(CollectiveName(Collective::kReduceScatter), "reduce-scatter");
  EXPECT_STREQ(CollectiveName(Collective::kAllreduce), "allreduce");
  EXPECT_STREQ(CollectiveName(Collective::kBroadcast), "broadcast");
  // alltoall is spelled but not among the tree and step collectives (not parsed; "flows" only)
  EXPECT_STREQ(CollectiveName(Collective::kAlltoall), "alltoall");
  EXPECT_EQ(kAllCollectives.size(), 4u);
}

TEST(CollectiveTest, EveryNameRoundTrips) {
  for (Collective c : kAllCollectives) {
    EXPECT_EQ(ParseCollective(CollectiveName(c)), std::optional<Collective>(c))
        << CollectiveName(c);
  }
}

TEST(CollectiveTest, UnknownNamesAreNoCollective) {
  for (const char* text : {"gather", "", "Allgather", "all-gather", "reduce_scatter", "allgather ",
                           "alltoall", "broadcast\n"}) {
    EXPECT_EQ(ParseCollective(text), std::nullopt) << "'" << text << "'";
  }
}

Topology TwoNodes() {
  Topology g("two");
  int a = g.AddCompute("a"), b = g.AddCompute("b");
  g.AddLink(a, b, 1);
  g.AddLink(b, a, 1);
  return g;
}

// Each collective is written with its name and read back as itself, in all three formats.
TEST(CollectiveTest, SchedulesWriteAndReadEveryCollective) {
  const Topology g = TwoNodes();
  for (Collective c : kAllCollectives) {
    SCOPED_TRACE(CollectiveName(c));
    StepSchedule s;
    s.collective = c;
    if (c == Collective::kBroadcast) s.root = 0;
    if (c == Collective::kAllreduce) s.rs_steps = 0;
    const nlohmann::json j = StepScheduleToJson(s, g);
    EXPECT_EQ(j["collective"], CollectiveName(c));
    EXPECT_EQ(StepScheduleFromJson(j, g, "<test>").collective, c);

    CompactStepSchedule compact = *CompactFromSteps(s);
    const std::string text = CompactStepScheduleToText(compact, g);
    EXPECT_NE(text.find(std::string("\"collective\":\"") + CollectiveName(c) + "\""),
              std::string::npos);
    EXPECT_EQ(CompactStepScheduleFromJson(nlohmann::json::parse(text), g, "<test>").collective, c);

    if (c == Collective::kAllreduce) continue;  // a pipeline allreduce needs its two phases
    PipelineSchedule p;
    p.collective = c;
    if (c == Collective::kBroadcast) p.root = 0;
    p.U = 1;
    p.k = 1;
    p.ratio = 1;
    const nlohmann::json pj = PipelineScheduleToJson(p, g);
    EXPECT_EQ(pj["collective"], CollectiveName(c));
    EXPECT_EQ(PipelineScheduleFromJson(pj, g, "<test>").collective, c);
  }
}

// An unknown name is bad input, with the message the readers gave before the enum.
TEST(CollectiveTest, ReadersRejectAnUnknownCollective) {
  const Topology g = TwoNodes();
  nlohmann::json j = StepScheduleToJson(StepSchedule(), g);
  j["collective"] = "gather";
  try {
    StepScheduleFromJson(j, g, "f.json");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "collective");
    EXPECT_EQ(e.problem(),
              "expected \"allgather\", \"reduce-scatter\", \"allreduce\" or \"broadcast\", got "
              "\"gather\"");
  }
  PipelineSchedule p;
  p.U = 1;
  p.k = 1;
  p.ratio = 1;
  nlohmann::json pj = PipelineScheduleToJson(p, g);
  pj["collective"] = "gather";
  try {
    PipelineScheduleFromJson(pj, g, "f.json");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.item(), "collective");
    EXPECT_EQ(e.problem(),
              "expected \"allgather\", \"reduce-scatter\", \"allreduce\" or \"broadcast\", got "
              "\"gather\"");
  }
}

}  // namespace
}  // namespace collsynth
