// libFuzzer target: MSCCL XML text through the replay checker (ReplayMscclXml, stages 0-3).
// Unlike the other targets there is no expected exception: the checker turns any text into a
// verdict, so every exception is a finding. Invariants checked:
//   - the verdict is deterministic (two runs give the same summary);
//   - lexer round trip: when the lexer accepts the text, the element tree written back in the
//     canonical profile (one element per line, two-space indentation, the kept attributes in
//     double quotes) lexes to the same tree and replays to the same verdict (ok, first stage,
//     number and kinds of violations, chunks per pair);
//   - connector depth is monotone (Kahn network): a file accepted at the default depth is
//     accepted with 64 transfers per connector.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_common.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/msccl_xml_lexer.h"

namespace {

using namespace collsynth;

std::string Summary(const ReplayResult& r) {
  std::string s = r.ok ? "ok" : "rejected";
  s += " total=" + std::to_string(r.violations_total);
  for (const ReplayViolation& v : r.violations) {
    s += std::string(" ") + ReplayStageName(v.stage) + "/" + ReplayViolationKindName(v.kind);
  }
  for (const ReplayPairChunks& p : r.bytes_per_pair) {
    s += " " + std::to_string(p.src) + ">" + std::to_string(p.dst) + ":" + std::to_string(p.chunks);
  }
  return s;
}

void Write(const MscclXmlDocument& d, int index, int depth, std::string* out) {
  const MscclXmlElement& e = d.elements[index];
  *out += std::string(2 * depth, ' ') + "<" + e.name;
  for (const auto& [k, v] : e.attributes) *out += " " + k + "=\"" + v + "\"";
  if (e.children.empty()) {
    *out += "/>\n";
    return;
  }
  *out += ">\n";
  for (int c : e.children) Write(d, c, depth + 1, out);
  *out += std::string(2 * depth, ' ') + "</" + e.name + ">\n";
}

bool SameTree(const MscclXmlDocument& a, const MscclXmlDocument& b) {
  if (a.elements.size() != b.elements.size()) return false;
  for (std::size_t i = 0; i < a.elements.size(); ++i) {
    const MscclXmlElement& x = a.elements[i];
    const MscclXmlElement& y = b.elements[i];
    if (x.name != y.name || x.attributes != y.attributes || x.children != y.children ||
        x.parent != y.parent) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > fuzz::kMaxInputBytes) return -1;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ReplayOptions o;
    const ReplayResult r = ReplayMscclXml(text, "fuzz.xml", o);
    const std::string summary = Summary(r);
    fuzz::Require(Summary(ReplayMscclXml(text, "fuzz.xml", o)) == summary,
                  "replay is not deterministic: " + summary);
    const MscclXmlDocument doc = LexMscclXml(text);
    fuzz::Require(
        doc.ok == (r.violations.empty() || r.violations[0].stage != ReplayStage::kLexical),
        "lexer verdict and replay stage 0 disagree: " + summary);
    if (doc.ok) {
      std::string canonical;
      Write(doc, 0, 0, &canonical);
      const MscclXmlDocument again = LexMscclXml(canonical);
      fuzz::Require(again.ok && SameTree(doc, again),
                    "canonical rewrite does not lex to the same tree: " + again.error);
      fuzz::Require(Summary(ReplayMscclXml(canonical, "fuzz.xml", o)) == summary,
                    "canonical rewrite replays differently: " + summary);
    }
    if (r.ok) {
      ReplayOptions deep = o;
      deep.fifo_depth = 64;
      const ReplayResult d = ReplayMscclXml(text, "fuzz.xml", deep);
      fuzz::Require(d.ok, "accepted at the default connector depth but not at 64: " + Summary(d));
    }
  } catch (const std::exception& e) {
    fuzz::Fail(std::string("exception from the replay checker: ") + e.what());
  }
  return 0;
}
