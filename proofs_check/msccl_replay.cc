#include "proofs_check/msccl_replay.h"

#include <map>
#include <stdexcept>
#include <utility>

#include "proofs_check/msccl_execution.h"
#include "proofs_check/msccl_model.h"
#include "proofs_check/msccl_schema.h"
#include "proofs_check/msccl_xml_lexer.h"

namespace collsynth {

const char* ReplayStageName(ReplayStage stage) {
  switch (stage) {
    case ReplayStage::kLexical:
      return "lexical";
    case ReplayStage::kSchema:
      return "schema";
    case ReplayStage::kFifo:
      return "fifo";
    case ReplayStage::kExecute:
      return "execute";
  }
  return "?";
}

const char* ReplayViolationKindName(ReplayViolationKind k) {
  switch (k) {
    case ReplayViolationKind::kLexical:
      return "lexical";
    case ReplayViolationKind::kMissingAttribute:
      return "missing-attribute";
    case ReplayViolationKind::kBadValue:
      return "bad-value";
    case ReplayViolationKind::kLimit:
      return "limit";
    case ReplayViolationKind::kUnsupported:
      return "unsupported";
    case ReplayViolationKind::kStructure:
      return "structure";
    case ReplayViolationKind::kDependency:
      return "dependency";
    case ReplayViolationKind::kConnector:
      return "connector";
    case ReplayViolationKind::kFifoMismatch:
      return "fifo-mismatch";
    case ReplayViolationKind::kDeadlock:
      return "deadlock";
    case ReplayViolationKind::kRace:
      return "race";
    case ReplayViolationKind::kDoubleCount:
      return "double-count";
    case ReplayViolationKind::kUninitializedRead:
      return "uninitialized-read";
    case ReplayViolationKind::kInputWritten:
      return "input-written";
    case ReplayViolationKind::kPostcondition:
      return "postcondition";
  }
  return "?";
}

namespace {

void CountPairs(const msccl::Algo& algo, ReplayResult* r) {
  std::map<std::pair<int, int>, std::int64_t> m;
  for (int g = 0; g < algo.ngpus; ++g) {
    for (const msccl::Block& b : algo.gpus[g].tbs) {
      for (const msccl::Step& st : b.steps) {
        if (msccl::InfoOf(st.type).send) m[{g, b.send}] += st.cnt;
      }
    }
  }
  for (const auto& [key, chunks] : m) r->bytes_per_pair.push_back({key.first, key.second, chunks});
}

}  // namespace

ReplayResult ReplayMscclXml(const std::string& text, const std::string& file,
                            const ReplayOptions& options) {
  if (options.fifo_depth < 0) throw std::invalid_argument("fifo_depth must be >= 0");
  if (options.iterations < 1) throw std::invalid_argument("iterations must be >= 1");
  if (options.max_violations < 1) throw std::invalid_argument("max_violations must be >= 1");
  if (options.max_set_elements < 0) throw std::invalid_argument("max_set_elements must be >= 0");
  (void)file;
  ReplayResult result;
  msccl::Reporter rep(&result, options.max_violations);
  msccl::Algo algo;
  {
    // The element tree is released before stages 2 and 3 (the largest part of the peak on
    // big files: 2 million steps of a 1,024-GPU file).
    const MscclXmlDocument doc = LexMscclXml(text);
    result.notes = doc.notes;
    if (!doc.ok) {
      rep.Add(ReplayStage::kLexical, ReplayViolationKind::kLexical,
              "the runtime's XML lexer rejects the file: " + doc.error);
      return result;
    }
    msccl::ReadMscclSchema(doc, options, &rep, &algo, &result);
  }
  if (rep.total() > 0) return result;
  if (algo.coll == msccl::Coll::kBroadcast && (options.root < 0 || options.root >= algo.ngpus)) {
    rep.Add(ReplayStage::kSchema, ReplayViolationKind::kBadValue,
            "broadcast root " + std::to_string(options.root) + " is not a gpu of this file");
    return result;
  }
  CountPairs(algo, &result);
  const std::vector<msccl::Connector> conns = msccl::BuildConnectors(algo);
  msccl::CheckFifoMatching(algo, conns, &rep);
  if (rep.total() > 0) return result;
  result.fifo_depth =
      options.fifo_depth > 0 ? options.fifo_depth : (algo.proto == "Simple" ? 2 : 8);
  for (bool inplace : {true, false}) {
    if (!(inplace ? algo.inplace : algo.outofplace)) continue;
    result.modes.push_back(inplace ? "inplace" : "outofplace");
    msccl::ExecuteSymbolically(algo, conns, options, inplace, result.fifo_depth, &rep);
  }
  result.ok = rep.total() == 0;
  return result;
}

}  // namespace collsynth
