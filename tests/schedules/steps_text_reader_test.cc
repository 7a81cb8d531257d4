// The fast reader of "steps" text (schedules/steps_text_reader.h): what `collsynth verify` and
// the output check of `bfb`, `baseline` and `schedule expand` read a "steps" file with
// (LoadScheduleFile / LoadScheduleText). Whatever it reads must be the plain read's schedule
// (parse the whole document, then StepScheduleFromJson); on a malformed file it declines, and
// the loader reports the plain read's error: the same file, item and problem.
#include "schedules/steps_text_reader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cli/verify_json.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "fixtures/json_tree_writers.h"
#include "fixtures/schedule_fixtures.h"
#include "proofs_check/step_checker.h"
#include "proofs_check/verify.h"
#include "schedules/compact_schedule.h"
#include "schedules/flat_step_schedule.h"
#include "schedules/schedule_file.h"
#include "schedules/step_schedule.h"

namespace collsynth {
namespace {

using testing::Part;
using testing::Send;
using testing::Whole;

// The plain read's schedule as text, or its error.
std::string Plain(const std::string& text, const Topology& g) {
  try {
    return StepScheduleToJsonText(StepScheduleFromJson(ParseJsonText(text, "s.json"), g, "s.json"),
                                  g);
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

// Schedules with every header field: allgather with claims and producer metadata, an
// allreduce (rs_steps), a broadcast (root), and several intervals per send.
std::vector<StepSchedule> Schedules() {
  std::vector<StepSchedule> out;
  StepSchedule fig1 = testing::K22Figure1();
  fig1.claimed_tl = 2;
  fig1.claimed_tb = Rational(3, 2);
  fig1.extra["certificates"] = {{{"u", "a"}, {"t", 1}}};
  fig1.extra["zz"] = "last key";
  out.push_back(fig1);
  StepSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.rs_steps = 1;
  ar.sends = {Send(0, {Part(0, 3), Part(2, 3)}, 0, 2, 1), Send(1, {Whole()}, 1, 3, 2)};
  out.push_back(ar);
  StepSchedule bc;
  bc.collective = Collective::kBroadcast;
  bc.root = 0;
  bc.sends = {Send(0, {Whole()}, 0, 2, 1), Send(0, {Part(1, 7)}, 2, 1, 2)};
  out.push_back(bc);
  return out;
}

// The loader's result as text, or its error.
std::string Loaded(const std::string& text, const Topology& g) {
  try {
    const LoadedSchedule l = LoadScheduleText(g, text, "s.json");
    return StepScheduleToJsonText(std::get<StepSchedule>(l.value), g);
  } catch (const InputError& e) {
    return std::string("error: ") + e.what();
  }
}

TEST(StepsTextReaderTest, ReadsWhatTheWritersWriteAsThePlainReadDoes) {
  const Topology g = testing::K22();
  for (const StepSchedule& s : Schedules()) {
    std::vector<std::string> texts = {StepScheduleToJsonText(s, g),
                                      StepScheduleToJson(s, g).dump(2)};  // any whitespace
    if (auto c = CompactFromSteps(s)) texts.push_back(StepsJsonTextFromCompact(*c, g));
    for (const std::string& text : texts) {
      const std::optional<StepSchedule> fast = StepScheduleFromStepsText(text, g, "s.json");
      ASSERT_TRUE(fast.has_value()) << text;
      EXPECT_EQ(StepScheduleToJsonText(*fast, g), Plain(text, g));
      EXPECT_EQ(Loaded(text, g), Plain(text, g));
    }
  }
}

TEST(StepsTextReaderTest, FileReadsTakeTheSamePath) {
  const Topology g = testing::K22();
  const std::string text = StepsJsonTextFromCompact(*CompactFromSteps(Schedules()[0]), g);
  const std::string path = ::testing::TempDir() + "steps_text_reader_test.json";
  WriteTextFile(path, text);
  const LoadedSchedule l = LoadScheduleFile(g, path, "s.json");
  EXPECT_EQ(StepScheduleToJsonText(std::get<StepSchedule>(l.value), g), Plain(text, g));
  std::string bad = text;
  bad.replace(bad.find("\"to\":\"c\""), 8, "\"to\":\"x\"");
  try {
    LoadScheduleFile(g, path + ".missing", "s.json");
    ADD_FAILURE() << "a missing file read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path + ".missing");
  }
  WriteTextFile(path, bad);
  try {
    LoadScheduleFile(g, path, "s.json");
    ADD_FAILURE() << "an unknown node read";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string("error: ") + e.what(), Plain(bad, g));
  }
  std::remove(path.c_str());
}

// Documents outside the fast reader's subset that the plain read accepts: the fast reader
// declines, and the loader still gives the plain read's schedule.
TEST(StepsTextReaderTest, DeclinesOutsideItsSubsetAndTheLoaderReadsThemPlainly) {
  const Topology g = testing::K22();
  const std::string good = StepScheduleToJsonText(testing::K22Figure1(), g);
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const std::size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) t.replace(at, from.size(), to);
    return t;
  };
  const std::vector<std::string> texts = {
      replaced("\"source\":\"a\"", "\"source\":\"\\u0061\""),  // an escape
      replaced("\"step\":1", "\"step\":1,\"note\":0"),         // a member it does not know
      replaced("\"step\":1", "\"step\":1.0e0") + "",           // not an integer literal
      replaced("[\"0\",\"1\"]", "[0,1]"),                      // integer endpoints: read
      std::string("\xEF\xBB\xBF") + good,                      // a byte order mark
  };
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const std::string plain = Plain(texts[k], g);
    EXPECT_EQ(Loaded(texts[k], g), plain) << k;
    const std::optional<StepSchedule> fast = StepScheduleFromStepsText(texts[k], g, "s.json");
    if (fast) {
      EXPECT_EQ(StepScheduleToJsonText(*fast, g), plain) << k;
    }
  }
  EXPECT_TRUE(StepScheduleFromStepsText(texts[3], g, "s.json").has_value());
  EXPECT_FALSE(StepScheduleFromStepsText(texts[0], g, "s.json").has_value());
  EXPECT_FALSE(StepScheduleFromStepsText(texts[1], g, "s.json").has_value());
}

// Malformed documents: the fast reader declines every one, and the loader reports the plain
// read's error (the exit-2 line naming the item).
TEST(StepsTextReaderTest, MalformedFilesGiveThePlainReadsErrorThroughTheLoader) {
  const Topology g = testing::K22();
  const nlohmann::json doc = ParseJsonText(StepScheduleToJsonText(testing::K22Figure1(), g), "s");
  struct Case {
    std::string text, item;
  };
  std::vector<Case> cases;
  auto edit = [&](const std::string& item, auto change) {
    nlohmann::json j = doc;
    change(j);
    cases.push_back({j.dump(), item});
  };
  edit("sends[3]", [](nlohmann::json& j) { j["sends"][3]["to"] = "nowhere"; });
  edit("sends[5].chunk[0]", [](nlohmann::json& j) { j["sends"][5]["chunk"][0] = {"1/2", "1/3"}; });
  edit("sends[5].chunk[0]", [](nlohmann::json& j) { j["sends"][5]["chunk"][0] = {"1/2", "x"}; });
  edit("sends[2]", [](nlohmann::json& j) { j["sends"][2]["chunk"] = nlohmann::json::array(); });
  edit("sends[0]", [](nlohmann::json& j) { j["sends"][0].erase("step"); });
  edit("sends[1]", [](nlohmann::json& j) { j["sends"][1]["step"] = 2147483648LL; });
  edit("collective", [](nlohmann::json& j) {
    j["collective"] = "gossip";
    j["sends"][1]["source"] = "nowhere";
  });
  edit("tl", [](nlohmann::json& j) { j["tl"] = "two"; });
  edit("top level", [](nlohmann::json& j) { j.erase("sends"); });
  const std::string good = doc.dump();
  cases.push_back({good.substr(0, good.size() - 2), "byte"});
  cases.push_back({good + " x", "byte"});
  std::string twice = good;
  twice.insert(1, "\"format\":\"steps\",");
  cases.push_back({twice, "byte"});  // a key repeated
  // Found by the steps fuzzer: NULs after a header number ("tl": 2\0\0...). nlohmann ends the
  // input at a NUL, so the number's own text read as 2 while the whole document did not read.
  std::string nul = good;
  nul.insert(1, "\"tl\": 2" + std::string(3, '\0') + ",");
  cases.push_back({nul, "byte"});
  for (const Case& c : cases) {
    EXPECT_FALSE(StepScheduleFromStepsText(c.text, g, "s.json").has_value()) << c.text;
    const std::string loaded = Loaded(c.text, g);
    EXPECT_EQ(loaded, Plain(c.text, g));
    EXPECT_NE(loaded.find("error: s.json: " + c.item), std::string::npos) << loaded;
  }
}

// The flat form (what `verify` and the output check read a "steps" text into) stands for the
// plain read's schedule, and the checker's report on it, violations with their send indices
// included, is its report on that schedule: for valid schedules, schedules the checker rejects,
// and endpoints written as different texts of one value ("1/2", "2/4", "0.5" is not a rational
// text the reader takes, so the plain read decides it).
TEST(StepsTextReaderTest, FlatFormChecksAsThePlainReadsSchedule) {
  const Topology g = testing::K22();
  std::vector<std::string> texts;
  for (const StepSchedule& s : Schedules()) texts.push_back(StepScheduleToJsonText(s, g));
  const std::string fig1 = StepScheduleToJsonText(testing::K22Figure1(), g);
  auto replaced = [&](std::string t, const std::string& from, const std::string& to) {
    const std::size_t at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) t.replace(at, from.size(), to);
    return t;
  };
  texts.push_back(replaced(fig1, "\"1/2\"", "\"2/4\""));              // one value, two texts
  texts.push_back(replaced(fig1, "\"step\":1", "\"step\":3"));        // not held, wrong T_L
  texts.push_back(replaced(fig1, "[\"0\",\"1/2\"]", "[0,\"1/3\"]"));  // a part missing
  texts.push_back(replaced(fig1, "\"to\":\"c\"", "\"to\":\"a\""));    // a missing link
  StepCheckOptions o;
  o.check_bandwidth_optimal = o.check_bfb = o.check_no_duplicates = true;
  const std::size_t first_mutant = texts.size() - 3;  // the last three
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const std::string& text = texts[k];
    const std::optional<FlatStepSchedule> flat = FlatStepScheduleFromStepsText(text, g, "s.json");
    ASSERT_TRUE(flat.has_value()) << text;
    const StepSchedule plain = StepScheduleFromJson(ParseJsonText(text, "s.json"), g, "s.json");
    const StepSchedule from_flat = StepsFromFlat(*flat);
    EXPECT_EQ(StepScheduleToJsonText(from_flat, g), StepScheduleToJsonText(plain, g));
    const StepCheckReport want = CheckStepSchedule(g, plain, o);
    EXPECT_EQ(cli::StepCheckReportJson(CheckStepSchedule(g, *flat, o)).dump(),
              cli::StepCheckReportJson(want).dump())
        << text;
    if (k >= first_mutant - 1) {  // figure 1 is valid, the mutants are not (no options)
      EXPECT_EQ(CheckStepSchedule(g, plain).ok, k < first_mutant) << text;
    }
    // verify's text and file paths take the flat form and give the same verdict and report.
    VerifyOptions vo;
    vo.check_bfb = true;
    const VerifyResult v = VerifyScheduleText(g, text, "s.json", vo);
    const VerifyResult p = VerifyScheduleJson(g, ParseJsonText(text, "s.json"), "s.json", vo);
    EXPECT_EQ(v.ok, p.ok);
    EXPECT_EQ(v.format, "steps");
    EXPECT_EQ(cli::StepCheckReportJson(std::get<StepCheckReport>(v.report)).dump(),
              cli::StepCheckReportJson(std::get<StepCheckReport>(p.report)).dump());
    const std::string path = ::testing::TempDir() + "steps_text_reader_flat.json";
    WriteTextFile(path, text);
    EXPECT_EQ(cli::StepCheckReportJson(
                  std::get<StepCheckReport>(VerifyScheduleFile(g, path, "s.json", vo).report))
                  .dump(),
              cli::StepCheckReportJson(std::get<StepCheckReport>(p.report)).dump());
    std::remove(path.c_str());
  }
}

// A malformed "steps" file checked through verify's text path is the plain read's error.
TEST(StepsTextReaderTest, VerifyOfAMalformedStepsTextIsThePlainReadsError) {
  const Topology g = testing::K22();
  std::string bad = StepScheduleToJsonText(testing::K22Figure1(), g);
  bad.replace(bad.find("\"to\":\"c\""), 8, "\"to\":\"x\"");
  EXPECT_FALSE(FlatStepScheduleFromStepsText(bad, g, "s.json").has_value());
  try {
    VerifyScheduleText(g, bad, "s.json");
    ADD_FAILURE() << "an unknown node verified";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string("error: ") + e.what(), Plain(bad, g));
  }
}

TEST(StepsTextReaderTest, ScanTopLevelFormat) {
  EXPECT_EQ(ScanTopLevelFormat(R"({"a": {"format": "x"}, "b": ["format"], "format": "steps"})"),
            "steps");
  EXPECT_EQ(ScanTopLevelFormat(R"( {"x\"format": 1, "format" : "pipeline", "sends": [)"),
            "pipeline");
  EXPECT_EQ(ScanTopLevelFormat(R"({"a": {"format": "steps"}})"), std::nullopt);
  EXPECT_EQ(ScanTopLevelFormat(R"([{"format": "steps"}])"), std::nullopt);
  EXPECT_EQ(ScanTopLevelFormat(R"({"format": 3})"), std::nullopt);
  EXPECT_EQ(ScanTopLevelFormat(R"({"formats": "steps", "sends": [])"), std::nullopt);
}

}  // namespace
}  // namespace collsynth
