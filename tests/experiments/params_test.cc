// experiments/params.h: one typed reader for every experiment kind's parameters. Its errors
// name the definition file and the key path; no mistyped parameter of any kind may escape as
// a JSON library exception (that was exit 3, "internal error").
#include "experiments/params.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "experiments/definition.h"
#include "experiments/experiment.h"
#include "test_util.h"

namespace collsynth::experiments {
namespace {

using ::collsynth::testing::SourcePath;
using nlohmann::json;

// The InputError `f` throws, or a test failure naming what was thrown instead.
template <typename F>
InputError ErrorOf(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
    return InputError("", "", "");
  }
  ADD_FAILURE() << "nothing thrown";
  return InputError("", "", "");
}

TEST(Params, ErrorsNameFileKeyPathExpectedAndFoundType) {
  const json doc = json::parse(R"j({"n": "3", "cases": [{"topology": "torus(2,2)"},
                                    {"topology": []}], "sizes": [1, "2"], "flag": 1,
                                   "ratio": "1/0", "nested": {"x": null}})j");
  const Params p(doc, "x.json", "params");
  InputError e = ErrorOf([&] { p.Int("n"); });
  EXPECT_EQ(e.file(), "x.json");
  EXPECT_EQ(e.item(), "params.n");
  EXPECT_EQ(e.problem(), "expected an integer, got a string");
  const std::vector<Params> cases = p.Objects("cases");
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].Topology("topology"), "torus(2,2)");
  e = ErrorOf([&] { cases[1].Topology("topology"); });
  EXPECT_EQ(e.item(), "params.cases[1].topology");
  EXPECT_EQ(e.problem(), "expected a string, got an array");
  e = ErrorOf([&] { p.Ints("sizes"); });
  EXPECT_EQ(e.item(), "params.sizes[1]");
  EXPECT_EQ(e.problem(), "expected an integer, got a string");
  e = ErrorOf([&] { p.Bool("flag", false); });
  EXPECT_EQ(e.problem(), "expected true or false, got an integer");
  e = ErrorOf([&] { p.Exact("ratio"); });
  EXPECT_EQ(e.item(), "params.ratio");
  e = ErrorOf([&] { p.Object("nested").String("x"); });
  EXPECT_EQ(e.item(), "params.nested.x");
  EXPECT_EQ(e.problem(), "expected a string, got null");
  e = ErrorOf([&] { p.String("absent"); });
  EXPECT_EQ(e.problem(), "missing (a string is required)");
  EXPECT_EQ(p.String("absent", "fallback"), "fallback");
  EXPECT_EQ(p.Int("absent", 7), 7);
  e = ErrorOf([&] { p.Int("absent", 0, 1, 5); });
  EXPECT_EQ(e.problem(), "must be in 1..5, got 0");
  // A value that is not an object where one is needed.
  e = ErrorOf([&] { Params(json::array(), "m.json", ""); });
  EXPECT_EQ(e.file(), "m.json");
  EXPECT_EQ(e.item(), "");
  EXPECT_EQ(e.problem(), "expected an object, got an array");
  // An integer above int64 is refused, not wrapped.
  const json big = json::parse(R"({"n": 18446744073709551615})");
  EXPECT_EQ(ErrorOf([&] { Params(big, "b.json", "").Int("n"); }).item(), "n");
  EXPECT_EQ(Params(big, "b.json", "").Unsigned("n"), 18446744073709551615ull);
}

TEST(Params, TopologyExpressionErrorsMoveToTheKey) {
  const json doc = json::parse(R"j({"cases": [{"topology": "torus(2,2"}],
                                   "topologies": ["torus(4)", "nosuchfamily(3)"]})j");
  const Params p(doc, "x.json", "params");
  InputError e = ErrorOf([&] { p.Objects("cases")[0].Topology("topology"); });
  EXPECT_EQ(e.file(), "x.json");
  EXPECT_EQ(e.item(), "params.cases[0].topology");
  // The expression's own message (with its column) follows the key.
  EXPECT_EQ(e.problem().rfind("'torus(2,2' column 10: ", 0), 0u) << e.problem();
  e = ErrorOf([&] { p.Topologies("topologies"); });
  EXPECT_EQ(e.item(), "params.topologies[1]");
}

// Every key (at any depth) of every shipped definition's params, replaced by a value of
// another JSON type. The kind's task builder must accept it or throw an InputError naming
// the definition file and a key path under "params" — never a JSON library exception.
// Replacing a scalar or an object by an array, or an array by an object, is a type error for
// every parameter the kinds read, so it must be refused, and refused at that key (or, for a
// key the kind reads as part of a larger value, inside it).
void Mutate(const ExperimentDefinition& def, const json& node, const json::json_pointer& at,
            int* checked) {
  const ExperimentKindFn* kind = FindExperimentKind(def.kind);
  ASSERT_NE(kind, nullptr);
  if (at.empty()) {
    ExperimentInput in;
    in.file = def.path;
    in.params = def.params;
    EXPECT_NO_THROW((*kind)(in)) << def.path;  // the shipped definition itself is accepted
  } else {
    const json wrong = node.is_array() ? json::object({{"x", 1}}) : json::array({json::array()});
    ExperimentInput in;
    in.file = def.path;
    in.params = def.params;
    in.params[at] = wrong;
    std::string path = "params";
    for (const std::string& token : [&] {
           std::vector<std::string> parts;
           json::json_pointer p = at;
           while (!p.empty()) {
             parts.insert(parts.begin(), p.back());
             p.pop_back();
           }
           return parts;
         }()) {
      const bool index =
          !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
      path += index ? "[" + token + "]" : "." + token;
    }
    try {
      (*kind)(in);
      ADD_FAILURE() << def.path << ": " << path << " = " << wrong.dump() << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), def.path) << path << ": " << e.what();
      // At the key, or (a value read whole) at an enclosing one.
      EXPECT_TRUE(path.rfind(e.item(), 0) == 0 || e.item().rfind(path, 0) == 0)
          << path << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << def.path << ": " << path << " = " << wrong.dump()
                    << ": not an InputError: " << e.what();
    }
    ++*checked;
  }
  if (node.is_object()) {
    for (const auto& [k, v] : node.items()) Mutate(def, v, at / k, checked);
  } else if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i) Mutate(def, node[i], at / i, checked);
  }
}

TEST(Params, EveryMistypedParameterOfEveryShippedDefinitionIsAnInputErrorAtItsKey) {
  int checked = 0;
  for (const ExperimentDefinition& def : LoadExperimentDefinitions(SourcePath("experiments"))) {
    Mutate(def, def.params, json::json_pointer(), &checked);
  }
  EXPECT_GT(checked, 300);  // every kind, every key: not a vacuous pass
}

}  // namespace
}  // namespace collsynth::experiments
