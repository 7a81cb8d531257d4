// The exception -> exit code mapping of cli/command_registry.cc, tested directly (the CLI
// offers no way to make the library fail its own invariants on purpose): exit 2 only for
// InputError, exit 3 "internal error" with type, message and command for everything else.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>

#include "cli/command_registry.h"
#include "core/input_error.h"

namespace collsynth::cli {
namespace {

template <typename E>
int Map(const E& e, std::string* message, const std::string& command = "pipeline",
        const std::vector<std::string>& inputs = {"t.json"}) {
  return ExitCodeForException(std::make_exception_ptr(e), command, inputs, message);
}

TEST(ExitCodeMappingTest, InputErrorIsExitTwoWithFileItemProblem) {
  std::string m;
  EXPECT_EQ(Map(InputError("t.json", "links[3]", "bandwidth must be positive"), &m), 2);
  EXPECT_EQ(m, "collsynth: t.json: links[3]: bandwidth must be positive");
}

TEST(ExitCodeMappingTest, InvalidArgumentIsAnInternalError) {
  // This once was exit 2 "<args>: ...": a solver's broken precondition blamed the user.
  std::string m;
  EXPECT_EQ(Map(std::invalid_argument("PackArborescences: bad demand"), &m), 3);
  EXPECT_EQ(m,
            "collsynth: internal error: std::invalid_argument: PackArborescences: bad demand "
            "(while running pipeline on t.json; please report it)");
}

TEST(ExitCodeMappingTest, LogicErrorIsExitThreeNamingTypeCommandAndInputs) {
  std::string m;
  EXPECT_EQ(
      Map(std::logic_error("route pool exhausted"), &m, "schedule expand", {"a.json", "b.json"}),
      3);
  EXPECT_EQ(m,
            "collsynth: internal error: std::logic_error: route pool exhausted "
            "(while running schedule expand on a.json b.json; please report it)");
}

TEST(ExitCodeMappingTest, OutOfMemoryIsExitThreeNamingCommandAndInputs) {
  // Before: exit 2 "out of memory (input too large?)", naming neither command nor input.
  std::string m;
  EXPECT_EQ(Map(std::bad_alloc(), &m, "topo info", {"ring.json"}), 3);
  EXPECT_EQ(m,
            "collsynth: internal error: out of memory while running topo info on ring.json (please "
            "report it)");
}

TEST(ExitCodeMappingTest, NonStandardExceptionIsExitThree) {
  std::string m;
  EXPECT_EQ(ExitCodeForException(std::make_exception_ptr(42), "verify", {}, &m), 3);
  EXPECT_EQ(
      m, "collsynth: internal error: unknown exception (while running verify; please report it)");
}

TEST(ExitCodeMappingTest, MessagesAreOneLine) {
  std::string m;
  EXPECT_EQ(Map(InputError("t.json", "nodes[0] (x\ncollsynth: fake)", "bad\tname\r"), &m), 2);
  EXPECT_EQ(m, "collsynth: t.json: nodes[0] (x\\ncollsynth: fake): bad\\tname\\r");
  EXPECT_EQ(Map(std::logic_error("a\nb"), &m, "topo gen", {"ring(3)\n"}), 3);
  EXPECT_EQ(
      m,
      "collsynth: internal error: std::logic_error: a\\nb (while running topo gen on ring(3)\\n; "
      "please report it)");
}

TEST(ExitCodeMappingTest, EscapeKeepsUtf8AndEscapesEverythingElse) {
  EXPECT_EQ(EscapeForMessage("plain ASCII ~!"), "plain ASCII ~!");
  EXPECT_EQ(EscapeForMessage("K\xE2\x82\x82,\xE2\x82\x82 \xCF\x80 \xF0\x9F\x98\x80"),
            "K\xE2\x82\x82,\xE2\x82\x82 \xCF\x80 \xF0\x9F\x98\x80");  // K₂,₂ π 😀
  EXPECT_EQ(EscapeForMessage(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(EscapeForMessage("\x1B[31m\x7F"), "\\x1B[31m\\x7F");
  EXPECT_EQ(EscapeForMessage("\xFF\xFE"), "\\xFF\\xFE");                    // never valid
  EXPECT_EQ(EscapeForMessage("\xC3"), "\\xC3");                             // truncated
  EXPECT_EQ(EscapeForMessage("\xC3(x"), "\\xC3(x");                         // bad continuation
  EXPECT_EQ(EscapeForMessage("\xC0\xAF"), "\\xC0\\xAF");                    // overlong '/'
  EXPECT_EQ(EscapeForMessage("\xE0\x80\xAF"), "\\xE0\\x80\\xAF");           // overlong, 3 bytes
  EXPECT_EQ(EscapeForMessage("\xED\xA0\x80"), "\\xED\\xA0\\x80");           // UTF-16 surrogate
  EXPECT_EQ(EscapeForMessage("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // > U+10FFFF
  EXPECT_EQ(EscapeForMessage("\xF4\x8F\xBF\xBF"), "\xF4\x8F\xBF\xBF");      // U+10FFFF
}

TEST(ExitCodeMappingTest, RunCommandStoresTheMappedCodeAndPrintsOneLine) {
  ::testing::internal::CaptureStderr();
  RunCommand([]() -> int { throw std::logic_error("invariant broken"); });
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ExitCode(), 3);
  EXPECT_EQ(
      err.rfind("collsynth: internal error: std::logic_error: invariant broken (while running ", 0),
      0u)
      << err;
  ::testing::internal::CaptureStderr();
  RunCommand([]() -> int { throw InputError("<args>", "--x", "bad"); });
  err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ExitCode(), 2);
  EXPECT_EQ(err, "collsynth: <args>: --x: bad\n");
  RunCommand([]() { return 1; });
  EXPECT_EQ(ExitCode(), 1);
}

// Through CLI11 as main runs it: the running subcommand and its positional arguments are named.
TEST(ExitCodeMappingTest, InternalErrorNamesTheParsedSubcommandAndInputs) {
  // Built once and never destroyed: the registry keeps a pointer to the last subcommand parsed.
  static CLI::App& app = []() -> CLI::App& {
    auto* a = new CLI::App{"test"};
    static std::string expr, out;
    auto* gen = a->add_subcommand("topo")->add_subcommand("gen");
    gen->add_option("expression", expr);
    gen->add_option("-o", out);
    gen->callback(
        []() { RunCommand([]() -> int { throw std::logic_error("invariant\nbroken"); }); });
    SetupCommands(*a);  // no registered commands in this binary; installs the bookkeeping
    return *a;
  }();
  ::testing::internal::CaptureStderr();
  app.parse(std::vector<std::string>{"k.json", "-o", "ring(3)", "gen", "topo"});  // CLI11: reversed
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ExitCode(), 3);
  EXPECT_EQ(err,
            "collsynth: internal error: std::logic_error: invariant\\nbroken "
            "(while running topo gen on ring(3); please report it)\n");
}

}  // namespace
}  // namespace collsynth::cli
