// libFuzzer target: sets of Chakra execution-trace files through the independent reader and
// checker (proofs_check/chakra_trace.h, chakra_trace_check.h). The input is up to 4 rank files
// separated by the marker "@ET@" (fuzz/chakra_trace.dict); a file the reader refuses must end in
// InputError. When every file reads, the checker runs on the set. Invariants checked:
//   - the verdict is deterministic;
//   - the traced bytes per pair (known from stage 2 on) as the expectation change nothing:
//     accepted without an expectation <=> accepted with it; one byte more on a pair is
//     rejected at stage 4 when the traces are otherwise accepted;
//   - accepted traces: every SEND is matched, so the bytes per pair add up to the SENDs' sizes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_common.h"
#include "proofs_check/chakra_trace.h"
#include "proofs_check/chakra_trace_check.h"

namespace {

using namespace collsynth;

std::string Summary(const ChakraTraceReport& r) {
  std::string s = r.ok ? "ok" : "rejected";
  s += " stage=" + std::to_string(static_cast<int>(r.stage)) +
       " total=" + std::to_string(r.violations_total);
  for (const std::string& v : r.violations) s += " | " + v;
  for (const ChakraPairBytes& p : r.bytes_per_pair) {
    s += " " + std::to_string(p.src) + ">" + std::to_string(p.dst) + ":" + std::to_string(p.bytes);
  }
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kMarker = "@ET@";
  std::vector<std::string_view> files;
  for (std::size_t begin = 0;;) {
    const std::size_t end = input.find(kMarker, begin);
    files.push_back(input.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos || files.size() == 4) break;
    begin = end + kMarker.size();
  }
  std::vector<ChakraRankTrace> ranks;
  bool all_read = true;
  for (std::size_t r = 0; r < files.size() && all_read; ++r) {
    all_read = false;
    fuzz::ExpectInputErrorOnly([&] {
      ranks.push_back(ParseChakraTrace(files[r], "fuzz." + std::to_string(r) + ".et"));
      all_read = true;
    });
  }
  if (!all_read) return 0;
  try {
    const int n = static_cast<int>(ranks.size());
    const ChakraTraceReport r = CheckChakraTraceSet(ranks, n, std::nullopt);
    const std::string summary = Summary(r);
    fuzz::Require(Summary(CheckChakraTraceSet(ranks, n, std::nullopt)) == summary,
                  "the check is not deterministic: " + summary);
    if (r.stage == ChakraTraceStage::kStructure) return 0;
    ChakraTraceExpectation same;
    same.bytes_per_pair = r.bytes_per_pair;
    const ChakraTraceReport with = CheckChakraTraceSet(ranks, n, same);
    fuzz::Require(with.ok == r.ok, "the traced bytes as the expectation change the verdict: " +
                                       summary + " / " + Summary(with));
    if (!r.ok) return 0;
    std::int64_t sent = 0, traced = 0;
    bool overflow = false;
    for (const ChakraRankTrace& t : ranks) {
      for (const ChakraTraceNode& x : t.nodes) {
        if (x.type == ChakraTraceNodeType::kSend) {
          overflow |= __builtin_add_overflow(sent, x.comm_size, &sent);
        }
      }
    }
    for (const ChakraPairBytes& p : r.bytes_per_pair) {
      overflow |= __builtin_add_overflow(traced, p.bytes, &traced);
    }
    fuzz::Require(overflow || sent == traced,
                  "accepted, but the SENDs' bytes are not the pairs': " + summary);
    if (!same.bytes_per_pair.empty() && same.bytes_per_pair[0].bytes < INT64_MAX) {
      ++same.bytes_per_pair[0].bytes;
      const ChakraTraceReport off = CheckChakraTraceSet(ranks, n, same);
      fuzz::Require(!off.ok && off.stage == ChakraTraceStage::kBytes,
                    "one byte more on a pair is not rejected at stage 4: " + Summary(off));
    }
  } catch (const std::exception& e) {
    fuzz::Fail(std::string("exception from the Chakra trace checker: ") + e.what());
  }
  return 0;
}
