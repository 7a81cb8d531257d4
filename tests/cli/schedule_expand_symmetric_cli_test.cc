// `collsynth schedule expand` of a "pipeline-symmetric" schedule (docs/formats.md "Symmetric
// pipeline schedule JSON"), and the commands that consume pipeline schedules (export msccl /
// mscclpp / chakra, simulate) taking the symmetric form: they behave exactly as on its plain
// expansion.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <vector>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::ReadWholeFile;
using testing::RunCli;
using testing::TempPath;
using testing::WriteTempFile;

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// The directed 4-ring 0 -> 1 -> 2 -> 3 -> 0 with its rotation (as `topo gen uniring(1,4)`).
std::string Ring() {
  return WriteTempFile("sym_ring4.json", R"({"nodes": [{"name": "0"}, {"name": "1"},
    {"name": "2"}, {"name": "3"}],
    "links": [{"from": "0", "to": "1", "bandwidth": 1}, {"from": "1", "to": "2", "bandwidth": 1},
              {"from": "2", "to": "3", "bandwidth": 1}, {"from": "3", "to": "0", "bandwidth": 1}],
    "automorphisms": [[1, 2, 3, 0]]})");
}

// The chain 0 -> 1 -> 2 -> 3 and its rotations: every link carries 3 trees, ratio 3 = (N-1)/B,
// certified by S = {1, 2, 3}.
json SymmetricAllgather() {
  auto edge = [](const char* a, const char* b) {
    return json{{"from", a},
                {"to", b},
                {"routes", json::array({{{"path", json::array({a, b})}, {"multiplicity", 1}}})}};
  };
  json roots = json::array();
  for (int i = 0; i < 4; ++i) {
    roots.push_back(
        {{"node", std::to_string(i)}, {"representative", 0}, {"exponents", json::array({i})}});
  }
  return {
      {"format", "pipeline-symmetric"},
      {"collective", "allgather"},
      {"ratio", "3"},
      {"U", "3"},
      {"k", 1},
      {"bottleneck_cut", json::array({"1", "2", "3"})},
      {"group", {{"generators", json::array({json::array({1, 2, 3, 0})})}, {"orders", {4}}}},
      {"representatives",
       json::array({{{"root", "0"},
                     {"trees", json::array({{{"root", "0"},
                                             {"multiplicity", 1},
                                             {"edges", json::array({edge("0", "1"), edge("1", "2"),
                                                                    edge("2", "3")})}}})}}})},
      {"roots", std::move(roots)}};
}

std::string Write(const std::string& name, const json& doc) {
  return WriteTempFile(name, doc.dump());
}

TEST(ScheduleExpandSymmetricCliTest, WritesTheVerifiedPlainForm) {
  const std::string ring = Ring();
  const std::string out = TempPath("sym_expanded.json");
  auto r =
      RunCli({"schedule", "expand", ring, Write("sym_ok.json", SymmetricAllgather()), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "pipeline-symmetric -> pipeline: allgather, 4 trees, ratio 3, optimal (certified); "
            "output verified\n");
  const json plain = json::parse(ReadWholeFile(out));
  EXPECT_EQ(plain["format"], "pipeline");
  EXPECT_EQ(plain["expanded_from"], "pipeline-symmetric");
  ASSERT_EQ(plain["trees"].size(), 4u);
  EXPECT_EQ(plain["trees"][3]["root"], "3");
  EXPECT_EQ(
      plain["trees"][3]["edges"][0],
      (json{{"from", "3"},
            {"to", "0"},
            {"routes", json::array({{{"path", json::array({"3", "0"})}, {"multiplicity", 1}}})}}));
  auto v = RunCli({"verify", ring, out, "--json"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  const json report = json::parse(v.out);
  EXPECT_EQ(report["ratio"], "3");
  EXPECT_EQ(report["verdict"], "optimal (certified)");
}

TEST(ScheduleExpandSymmetricCliTest, MalformedFileIsExitTwoNamingFileAndItem) {
  json doc = SymmetricAllgather();
  doc["roots"][3]["exponents"][0] = 4;
  const std::string file = Write("sym_bad_exponent.json", doc);
  const std::string out = TempPath("sym_bad_out.json");
  auto r = RunCli({"schedule", "expand", Ring(), file, "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "collsynth: " + file +
                       ": roots[3].exponents[0]: must be an exponent below the generator's order "
                       "(an integer in 0..3), got 4\n");
  EXPECT_FALSE(Exists(out));
  // The consumers read it the same way.
  auto s = RunCli({"simulate", Ring(), file, "--size", "1MB"});
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_EQ(s.err, r.err);
}

TEST(ScheduleExpandSymmetricCliTest, FileFailingTheCheckerIsExitOneAndNothingWritten) {
  json doc = SymmetricAllgather();
  doc["ratio"] = "2";  // the expansion's ratio is 3
  const std::string file = Write("sym_wrong_ratio.json", doc);
  const std::string out = TempPath("sym_wrong_ratio_out.json");
  auto r = RunCli({"schedule", "expand", Ring(), file, "-o", out});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // The symmetric checker (what `verify` runs) rejects it before it is expanded.
  EXPECT_NE(r.err.find("the schedule does not verify, nothing expanded"), std::string::npos)
      << r.err;
  EXPECT_EQ(RunCli({"verify", Ring(), file}).exit_code, 1);
  EXPECT_FALSE(Exists(out));
  auto s = RunCli({"simulate", Ring(), file, "--size", "1MB"});
  EXPECT_EQ(s.exit_code, 1) << s.err;
  EXPECT_NE(s.err.find("the schedule does not verify, nothing simulated"), std::string::npos)
      << s.err;
}

TEST(ScheduleExpandSymmetricCliTest, WriterBugIsExitOne) {
  const std::string file = Write("sym_for_fault.json", SymmetricAllgather());
  const std::string out = TempPath("sym_fault_out.json");
  setenv("COLLSYNTH_FAULT_INJECT", "corrupt-output", 1);
  auto r = RunCli({"schedule", "expand", Ring(), file, "-o", out});
  unsetenv("COLLSYNTH_FAULT_INJECT");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("the written file fails the checker"), std::string::npos) << r.err;
  EXPECT_FALSE(Exists(out));
  EXPECT_FALSE(Exists(out + ".partial"));
}

TEST(ScheduleExpandSymmetricCliTest, StepExpansionFlagsAreRefused) {
  const std::string file = Write("sym_flag.json", SymmetricAllgather());
  auto r = RunCli({"schedule", "expand", "--line", Ring(), file, "-o", TempPath("sym_flag_o")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "collsynth: <args>: schedule expand: --line, --degree, --power, --reverse and --bidir "
            "expand step schedules; a pipeline-symmetric schedule is expanded without them\n");
  auto t = RunCli({"schedule", "expand", Ring(), file, "-o", TempPath("sym_flag_o"),
                   "--topology-out", TempPath("sym_flag_t.json")});
  EXPECT_EQ(t.exit_code, 2);
}

// A file that is no schedule `schedule expand` reads is the file's fault, with or without
// options (it was reported as a missing option).
TEST(ScheduleExpandSymmetricCliTest, NonScheduleDocumentIsBlamedNotTheOptions) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"7", ": top level: expected a JSON object, got number\n"},
      {"[]", ": top level: expected a JSON object, got array\n"},
      {"{}", ": top level: missing field 'format'\n"},
      {"{\"format\": 1}", ": format: expected \"steps\", got 1\n"},
      {"{\"format\": \"pipeline\"}",
       ": format: expected \"steps\", \"pipeline-symmetric\" or \"flows-symmetric\", got "
       "\"pipeline\"\n"},
  };
  for (const auto& [text, message] : cases) {
    const std::string file = WriteTempFile("not_a_schedule.json", text);
    for (const std::vector<std::string>& options :
         {std::vector<std::string>{}, std::vector<std::string>{"--line"}}) {
      std::vector<std::string> args = {"schedule", "expand", Ring(),
                                       file,       "-o",     TempPath("not_a_schedule_out.json")};
      args.insert(args.end(), options.begin(), options.end());
      auto r = RunCli(args);
      EXPECT_EQ(r.exit_code, 2) << text;
      EXPECT_EQ(r.err, "collsynth: " + file + message) << text;
    }
  }
}

// export msccl / mscclpp / chakra and simulate give the same bytes for the symmetric file as
// for its plain expansion.
TEST(ScheduleExpandSymmetricCliTest, ConsumersTreatItAsItsExpansion) {
  const std::string ring = Ring();
  const std::string sym = Write("sym_consumed.json", SymmetricAllgather());
  const std::string plain = TempPath("sym_consumed_plain.json");
  ASSERT_EQ(RunCli({"schedule", "expand", ring, sym, "-o", plain}).exit_code, 0);
  for (const std::string what : {"msccl", "mscclpp"}) {
    const std::string a = TempPath("sym_" + what + "_a.out"),
                      b = TempPath("sym_" + what + "_b.out");
    auto ra = RunCli({"export", what, ring, sym, "-o", a});
    auto rb = RunCli({"export", what, ring, plain, "-o", b});
    ASSERT_EQ(ra.exit_code, 0) << what << ": " << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << what << ": " << rb.err;
    EXPECT_EQ(ReadWholeFile(a), ReadWholeFile(b)) << what;
    EXPECT_FALSE(ReadWholeFile(a).empty()) << what;
  }
  const std::string ca = TempPath("sym_chakra_a"), cb = TempPath("sym_chakra_b");
  auto ra = RunCli({"export", "chakra", ring, sym, "-o", ca, "--size", "4096"});
  auto rb = RunCli({"export", "chakra", ring, plain, "-o", cb, "--size", "4096"});
  ASSERT_EQ(ra.exit_code, 0) << ra.err;
  ASSERT_EQ(rb.exit_code, 0) << rb.err;
  EXPECT_EQ(ReadWholeFile(ca + ".0.et"), ReadWholeFile(cb + ".0.et"));
  EXPECT_FALSE(ReadWholeFile(ca + ".0.et").empty());
  auto sa = RunCli({"simulate", ring, sym, "--size", "1MB", "--json"});
  auto sb = RunCli({"simulate", ring, plain, "--size", "1MB", "--json"});
  ASSERT_EQ(sa.exit_code, 0) << sa.err;
  EXPECT_EQ(sa.out, sb.out);
  EXPECT_EQ(json::parse(sa.out)["completion_time"], "1536/1953125");
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

// One schedule gets one verdict: files whose expansion is a valid plain schedule but that
// `verify` rejects (a wrong declared order breaks the regular action; swapped exponents name
// the wrong group element for a root) are rejected by every consumer too, before expanding,
// and nothing is written.
TEST(ScheduleExpandSymmetricCliTest, EveryConsumerGivesTheVerdictVerifyGives) {
  const std::string ring = Ring();
  json wrong_order = SymmetricAllgather();
  wrong_order["group"]["orders"] = json::array({8});
  json swapped = SymmetricAllgather();
  swapped["roots"][1]["exponents"] = json::array({3});
  swapped["roots"][3]["exponents"] = json::array({1});
  for (const auto& [name, doc, kind] : {std::tuple{"sym_wrong_order", wrong_order, "not-regular"},
                                        std::tuple{"sym_swapped", swapped, "root-list"}}) {
    SCOPED_TRACE(name);
    const std::string file = Write(std::string(name) + ".json", doc);
    auto v = RunCli({"verify", ring, file, "--json"});
    ASSERT_EQ(v.exit_code, 1) << v.out << v.err;
    EXPECT_NE(v.out.find(kind), std::string::npos) << v.out;
    const std::string out = TempPath(std::string(name) + "_out");
    const std::vector<std::vector<std::string>> consumers = {
        {"schedule", "expand", ring, file, "-o", out + ".json"},
        {"simulate", ring, file, "--size", "1MB"},
        {"export", "msccl", ring, file, "-o", out + ".xml"},
        {"export", "mscclpp", ring, file, "-o", out + ".plan.json"},
        {"export", "chakra", ring, file, "-o", out, "--size", "4096"}};
    for (const std::vector<std::string>& args : consumers) {
      auto r = RunCli(args);
      EXPECT_EQ(r.exit_code, 1) << args[0] << " " << args[1] << ": " << r.err;
      EXPECT_NE(r.err.find("the schedule does not verify, nothing"), std::string::npos) << r.err;
    }
    for (const std::string suffix :
         {".json", ".xml", ".plan.json", ".0.et", ".json.partial", ".xml.partial"}) {
      EXPECT_FALSE(Exists(out + suffix)) << suffix;
    }
  }
}

}  // namespace
}  // namespace collsynth
