// Internal to the MSCCL XML replay checker (proofs_check/msccl_replay.h): the typed model of a
// file that passed stage 1 (msccl_schema.h), the step types' properties, and the violation
// collector shared by the stages. Not a public interface.
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCL_MODEL_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCL_MODEL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "proofs_check/replay_report.h"

namespace collsynth::msccl {

using Kind = ReplayViolationKind;

enum class Coll { kAllgather, kReduceScatter, kAllreduce, kBroadcast, kAlltoall };

enum class StepType { kS, kR, kRcs, kRrs, kRrc, kRrcs, kCpy, kRe, kNop };

struct TypeInfo {
  const char* name;
  StepType type;
  bool recv, send, reads_src, writes_dst, reads_dst, rt_src, rt_dst;  // rt_*: runtime checks
};

inline constexpr TypeInfo kTypes[] = {
    {"s", StepType::kS, false, true, true, false, false, true, false},
    {"r", StepType::kR, true, false, false, true, false, false, true},
    {"rcs", StepType::kRcs, true, true, false, true, false, false, true},
    {"rrs", StepType::kRrs, true, true, true, false, false, true, false},
    {"rrc", StepType::kRrc, true, false, true, true, false, false, false},
    {"rrcs", StepType::kRrcs, true, true, true, true, false, true, true},
    {"cpy", StepType::kCpy, false, false, true, true, false, true, true},
    {"re", StepType::kRe, false, false, true, true, true, true, true},
    {"nop", StepType::kNop, false, false, false, false, false, false, false},
};

inline const TypeInfo& InfoOf(StepType t) { return kTypes[static_cast<int>(t)]; }

struct Step {
  StepType type = StepType::kNop;
  char srcbuf = 'i', dstbuf = 'o';
  int srcoff = 0, dstoff = 0, cnt = 0, depid = -1, deps = -1;
  bool hasdep = false;
  int group_end = 0;           // last step of the transmission this step is part of
  bool group_publish = false;  // that transmission publishes a flag
};

struct Block {
  int id = 0, send = -1, recv = -1, chan = 0;
  int line = 0;
  std::vector<Step> steps;
};

struct Gpu {
  bool present = false;
  int i_chunks = 0, o_chunks = 0, s_chunks = 0;
  std::vector<Block> tbs;  // indexed by id after stage 1
};

struct Algo {
  Coll coll = Coll::kAllgather;
  int ngpus = 0, nchannels = 0, nchunks = 0;
  std::string proto;
  bool inplace = false, outofplace = false;
  std::vector<Gpu> gpus;
  int in_size = 0, out_size = 0;  // real buffer sizes in chunks
};

class Reporter {
 public:
  Reporter(ReplayResult* r, int max) : r_(r), max_(max) {}
  void Add(ReplayStage stage, Kind kind, std::string message, int gpu = -1, int tb = -1,
           int step = -1, std::vector<ReplayStepRef> cycle = {}) {
    ++r_->violations_total;
    if (static_cast<int>(r_->violations.size()) >= max_) return;
    ReplayViolation v;
    v.stage = stage;
    v.kind = kind;
    v.message = std::move(message);
    v.gpu = gpu;
    v.tb = tb;
    v.step = step;
    v.cycle = std::move(cycle);
    r_->violations.push_back(std::move(v));
  }
  std::int64_t total() const { return r_->violations_total; }

 private:
  ReplayResult* r_;
  int max_;
};

inline std::string Where(int gpu, int tb = -1, int step = -1) {
  std::string s = "gpu " + std::to_string(gpu);
  if (tb >= 0) s += " tb " + std::to_string(tb);
  if (step >= 0) s += " step " + std::to_string(step);
  return s;
}

}  // namespace collsynth::msccl

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCL_MODEL_H_
