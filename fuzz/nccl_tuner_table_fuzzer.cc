// libFuzzer target: text as NCCL's example tuner plugin reads its CSV (ParseNcclTunerTable,
// proofs_check/nccl_tuner_table.h). Like the replay targets, no exception is expected: every
// text is a table with problems or without. Invariants checked:
//   - the parse is deterministic (the same configs and problems twice);
//   - without problems, the configs written back in the form `tune --export nccl-tuner` uses
//     (ten fields, no spaces) parse to the same configs;
//   - the lookup at each config's min_bytes returns a config whose range holds it (or none);
//   - CheckNcclTunerTable never throws on a problem-free table.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_common.h"
#include "proofs_check/nccl_tuner_table.h"

namespace {

using namespace collsynth;

std::string Canonical(const NcclTunerConfig& c) {
  return c.collective + "," + std::to_string(c.min_bytes) + "," + std::to_string(c.max_bytes) +
         "," + c.algorithm + "," + c.protocol + "," + std::to_string(c.channels) + "," +
         std::to_string(c.nodes) + "," + std::to_string(c.ranks) + "," +
         std::to_string(c.pipe_ops) + "," + std::to_string(c.reg_buff) + "\n";
}

std::string Summary(const NcclTunerTable& t) {
  std::string s;
  for (const NcclTunerConfig& c : t.configs) s += std::to_string(c.line) + ":" + Canonical(c);
  for (const std::string& p : t.problems) s += p + "\n";
  return s;
}

void CheckLookups(const NcclTunerTable& t) {
  for (std::size_t i = 0; i < t.configs.size(); ++i) {
    const NcclTunerConfig& c = t.configs[i];
    const int ranks = c.ranks == -1 ? 8 : c.ranks;
    const int nodes = c.nodes == -1 ? 1 : c.nodes;
    const NcclTunerConfig* got = NcclTunerLookup(t, c.collective, c.min_bytes, ranks, nodes);
    if (got == nullptr) continue;  // e.g. an algorithm NCCL lacks, numPipeOps 2
    fuzz::Require(got->min_bytes <= c.min_bytes && c.min_bytes <= got->max_bytes,
                  "lookup returned a config whose range does not hold the size");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const NcclTunerTable t = ParseNcclTunerTable(text);
    const std::string summary = Summary(t);
    fuzz::Require(Summary(ParseNcclTunerTable(text)) == summary, "parse is not deterministic");
    CheckLookups(t);
    if (t.problems.empty()) {
      std::string canonical;
      for (const NcclTunerConfig& c : t.configs) canonical += Canonical(c);
      const NcclTunerTable again = ParseNcclTunerTable(canonical);
      fuzz::Require(again.problems.empty(), "canonical rewrite has problems: " +
                                                (again.problems.empty() ? "" : again.problems[0]));
      fuzz::Require(again.configs.size() == t.configs.size(), "canonical rewrite lost lines");
      for (std::size_t i = 0; i < t.configs.size(); ++i) {
        fuzz::Require(Canonical(again.configs[i]) == Canonical(t.configs[i]),
                      "canonical rewrite reads differently");
      }
      // Never throws, whatever the expectation: one range over everything.
      std::vector<NcclTunerExpectedRange> all = {{0, std::nullopt, "ring", {1}}};
      (void)CheckNcclTunerTable(text, "allreduce", 8, all);
    }
  } catch (const std::exception& e) {
    fuzz::Fail(std::string("exception from the tuner table reader: ") + e.what());
  }
  return 0;
}
