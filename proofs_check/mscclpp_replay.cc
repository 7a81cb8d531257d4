#include "proofs_check/mscclpp_replay.h"

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "proofs_check/msccl_model.h"
#include "proofs_check/mscclpp_execution.h"
#include "proofs_check/mscclpp_pairing.h"
#include "proofs_check/mscclpp_plan.h"

namespace collsynth {
namespace {

using mscclpp_check::BufRef;
using mscclpp_check::Op;
using mscclpp_check::OpType;

// Chunks moved between GPUs: remote writes (put, res, rres) and remote reads (get, rre, rres).
void CountPairs(const mscclpp_check::Plan& plan, ReplayResult* r) {
  std::map<std::pair<int, int>, std::int64_t> m;
  for (int g = 0; g < plan.ngpus; ++g) {
    for (const mscclpp_check::Block& b : plan.gpus[g].tbs) {
      for (const Op& op : b.ops) {
        if (op.type == OpType::kFlush) continue;  // names the channels' buffers, moves nothing
        for (const BufRef& s : op.src) {
          if (s.remote && s.rank != g) m[{s.rank, g}] += s.size;
        }
        for (const BufRef& d : op.dst) {
          if (d.remote && d.rank != g) m[{g, d.rank}] += d.size;
        }
      }
    }
  }
  for (const auto& [key, chunks] : m) r->bytes_per_pair.push_back({key.first, key.second, chunks});
}

}  // namespace

ReplayResult ReplayMscclppPlan(const std::string& text, const std::string& file,
                               const MscclppReplayOptions& options) {
  if (options.max_violations < 1) throw std::invalid_argument("max_violations must be >= 1");
  if (options.max_set_elements < 0) throw std::invalid_argument("max_set_elements must be >= 0");
  (void)file;
  ReplayResult result;
  msccl::Reporter rep(&result, options.max_violations);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    rep.Add(ReplayStage::kLexical, ReplayViolationKind::kLexical,
            std::string("not one JSON document (the loader's nlohmann::json::parse throws): ") +
                e.what());
    return result;
  }
  mscclpp_check::Plan plan;
  mscclpp_check::ReadMscclppPlan(doc, &rep, &plan, &result);
  if (rep.total() > 0) return result;
  CountPairs(plan, &result);
  const mscclpp_check::ChannelPairing pairing = mscclpp_check::PairChannels(plan, &rep);
  if (rep.total() > 0) return result;
  mscclpp_check::ExecutePlan(plan, pairing, options.max_set_elements, &rep);
  result.ok = rep.total() == 0;
  return result;
}

}  // namespace collsynth
