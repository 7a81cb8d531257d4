// A test double of how the MSCCL runtimes store a step: every runtime keeps `depid` in an int8_t
// (dependentBid), `srcoff`, `dstoff` and `deps` in int16_t and `cnt` in a uint8_t (microsoft/msccl
// src/include/msccl.h; Azure/msccl-executor-nccl and ROCm/rccl
// src/include/msccl/msccl_struct.h; docs/export.md, "Stage 1"). Every file `export msccl` writes,
// in every profile and for every collective, must survive that narrowing unchanged; a file whose
// values do not (here a dependency on block 200, which `--max-tbs 256` used to write) must be
// rejected by the replay checker, so the checker cannot accept what the runtime misreads.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/json_io.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/msccl_xml_lexer.h"
#include "test_util.h"

namespace collsynth::testing {
namespace {

const std::string kTwoCluster = SourcePath("experiments/topologies/two_cluster.json");

// The runtimes' struct fields for one step.
struct RuntimeStep {
  std::int8_t depid;
  std::int16_t deps, srcoff, dstoff;
  std::uint8_t cnt;
};

// Stores every step of `xml` the way the runtime does and lists the fields that changed.
std::vector<std::string> Truncated(const std::string& xml) {
  const MscclXmlDocument doc = LexMscclXml(xml);
  EXPECT_TRUE(doc.ok) << doc.error;
  std::vector<std::string> out;
  for (const MscclXmlElement& e : doc.elements) {
    if (e.name != "step") continue;
    auto value = [&](const char* key) { return std::stoll(*e.Find(key)); };
    const long long depid = value("depid"), deps = value("deps"), srcoff = value("srcoff"),
                    dstoff = value("dstoff"), cnt = value("cnt");
    const RuntimeStep stored{static_cast<std::int8_t>(depid), static_cast<std::int16_t>(deps),
                             static_cast<std::int16_t>(srcoff), static_cast<std::int16_t>(dstoff),
                             static_cast<std::uint8_t>(cnt)};
    const std::string where = "line " + std::to_string(e.line) + ": ";
    if (stored.depid != depid) out.push_back(where + "depid " + std::to_string(depid));
    if (stored.deps != deps) out.push_back(where + "deps " + std::to_string(deps));
    if (stored.srcoff != srcoff) out.push_back(where + "srcoff " + std::to_string(srcoff));
    if (stored.dstoff != dstoff) out.push_back(where + "dstoff " + std::to_string(dstoff));
    if (stored.cnt != cnt) out.push_back(where + "cnt " + std::to_string(cnt));
  }
  return out;
}

MscclProfile Profile(const std::string& name) {
  return name == "legacy" ? MscclProfile::kLegacy
         : name == "rccl" ? MscclProfile::kRccl
                          : MscclProfile::kExecutor;
}

TEST(MscclRuntimeWidths, EveryExportedFileSurvivesTheRuntimesFieldWidths) {
  for (const std::string coll : {"allgather", "reduce-scatter", "allreduce"}) {
    const std::string sched = TempPath("widths-" + coll + ".json");
    ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "--collective", coll, "-o", sched}).exit_code, 0);
    for (const std::string profile : {"executor", "rccl", "legacy"}) {
      SCOPED_TRACE(coll + " " + profile);
      const std::string xml = TempPath("widths-" + coll + "-" + profile + ".xml");
      // The most blocks each profile's --max-tbs takes, so dependencies on high blocks appear.
      CliResult r = RunCli({"export", "msccl", kTwoCluster, sched, "-o", xml, "--profile", profile,
                            "--max-tbs", profile == "rccl" ? "64" : "128", "--max-bytes",
                            "134217728", "--fuse"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string text = ReadTextFile(xml);
      EXPECT_EQ(Truncated(text), std::vector<std::string>{});
      ReplayOptions o;
      o.profile = Profile(profile);
      EXPECT_TRUE(ReplayMscclXml(text, xml, o).ok);
    }
  }
}

TEST(MscclRuntimeWidths, AFileTheDoubleTruncatesIsRejectedByTheReplay) {
  const std::string sched = TempPath("widths-mutant.json");
  ASSERT_EQ(RunCli({"pipeline", kTwoCluster, "-o", sched}).exit_code, 0);
  for (const std::string profile : {"executor", "rccl", "legacy"}) {
    SCOPED_TRACE(profile);
    const std::string xml = TempPath("widths-mutant-" + profile + ".xml");
    ASSERT_EQ(
        RunCli({"export", "msccl", kTwoCluster, sched, "-o", xml, "--profile", profile}).exit_code,
        0);
    std::string text = ReadTextFile(xml);
    // Point the first dependency at block 200 (stored as -56 by an int8_t).
    std::size_t dep = std::string::npos;
    for (std::size_t p = text.find(" depid=\""); p != std::string::npos;
         p = text.find(" depid=\"", p + 1)) {
      if (text.compare(p, 12, " depid=\"-1\" ") != 0) {
        dep = p;
        break;
      }
    }
    ASSERT_NE(dep, std::string::npos) << "the export has no dependency";
    const std::size_t value = dep + 8;
    text.replace(value, text.find('"', value) - value, "200");
    ASSERT_FALSE(Truncated(text).empty());
    ReplayOptions o;
    o.profile = Profile(profile);
    const ReplayResult r = ReplayMscclXml(text, "mutant.xml", o);
    EXPECT_FALSE(r.ok);
    bool width = false;
    for (const ReplayViolation& v : r.violations) {
      width |= v.message.find("depid=200 does not fit the runtime's int8_t dependentBid") !=
               std::string::npos;
    }
    EXPECT_TRUE(width);
  }
}

}  // namespace
}  // namespace collsynth::testing
