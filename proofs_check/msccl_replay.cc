#include "proofs_check/msccl_replay.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "proofs_check/msccl_xml_lexer.h"

namespace collsynth {

const char* ReplayStageName(ReplayStage stage) {
  switch (stage) {
    case ReplayStage::kLexical: return "lexical";
    case ReplayStage::kSchema: return "schema";
    case ReplayStage::kFifo: return "fifo";
    case ReplayStage::kExecute: return "execute";
  }
  return "?";
}

const char* ReplayViolationKindName(ReplayViolationKind k) {
  switch (k) {
    case ReplayViolationKind::kLexical: return "lexical";
    case ReplayViolationKind::kMissingAttribute: return "missing-attribute";
    case ReplayViolationKind::kBadValue: return "bad-value";
    case ReplayViolationKind::kLimit: return "limit";
    case ReplayViolationKind::kUnsupported: return "unsupported";
    case ReplayViolationKind::kStructure: return "structure";
    case ReplayViolationKind::kDependency: return "dependency";
    case ReplayViolationKind::kConnector: return "connector";
    case ReplayViolationKind::kFifoMismatch: return "fifo-mismatch";
    case ReplayViolationKind::kDeadlock: return "deadlock";
    case ReplayViolationKind::kRace: return "race";
    case ReplayViolationKind::kDoubleCount: return "double-count";
    case ReplayViolationKind::kUninitializedRead: return "uninitialized-read";
    case ReplayViolationKind::kInputWritten: return "input-written";
    case ReplayViolationKind::kPostcondition: return "postcondition";
  }
  return "?";
}

namespace {

using Kind = ReplayViolationKind;

// Limits of this checker (not of the runtime): cells simulated per round.
constexpr std::int64_t kMaxCellsPerRound = std::int64_t{1} << 24;
constexpr int kMaxGpus = 4096;
constexpr int kMaxCount = 72;                 // MSCCL_MAX_COUNT (cnt < 72)
constexpr int kMaxBlocksPerChannelSide = 32;  // MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL
constexpr int kMaxReduceFusion = 16;          // MSCCL_MAX_REDUCE_FUSION

struct ProfileLimits {
  int max_steps;
  int max_channels;  // MAXCHANNELS
  int max_tbs;       // MSCCL_MAX_NUM_THREAD_BLOCKS
  bool legacy;
};

ProfileLimits LimitsOf(MscclProfile p) {
  switch (p) {
    case MscclProfile::kExecutor: return {64, 32, 1024, false};
    case MscclProfile::kRccl: return {64, 128, 64, false};
    case MscclProfile::kLegacy: return {256, 32, 216, true};
  }
  return {64, 32, 1024, false};
}

enum class Coll { kAllgather, kReduceScatter, kAllreduce, kBroadcast };

enum class StepType { kS, kR, kRcs, kRrs, kRrc, kRrcs, kCpy, kRe, kNop };

struct TypeInfo {
  const char* name;
  StepType type;
  bool recv, send, reads_src, writes_dst, reads_dst, rt_src, rt_dst;  // rt_*: runtime checks
};

constexpr TypeInfo kTypes[] = {
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

const TypeInfo& InfoOf(StepType t) { return kTypes[static_cast<int>(t)]; }

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

std::string Where(int gpu, int tb = -1, int step = -1) {
  std::string s = "gpu " + std::to_string(gpu);
  if (tb >= 0) s += " tb " + std::to_string(tb);
  if (step >= 0) s += " step " + std::to_string(step);
  return s;
}

// strtol-style integer (base 0: decimal, 0x hex, leading-0 octal, as the runtime's strtol),
// but the whole value must be the number: the runtime would silently read a prefix or 0.
bool ParseInteger(const std::string& s, std::int64_t* out) {
  if (s.empty() || s[0] == ' ' || s[0] == '\n' || s[0] == '\r' || s[0] == '\t') return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 0);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  *out = v;
  return true;
}

// ---------------------------------------------------------------------------------------
// Stage 1: schema and limits.

class SchemaReader {
 public:
  SchemaReader(const MscclXmlDocument& doc, const ReplayOptions& o, Reporter* rep, Algo* algo,
               ReplayResult* result)
      : doc_(doc), lim_(LimitsOf(o.profile)), rep_(rep), algo_(algo), result_(result) {}

  void Run() {
    const MscclXmlElement& root = doc_.elements[0];
    if (root.name != "algo") {
      Bad(Kind::kStructure, "the first element is <" + root.name + ">, not <algo>");
      return;
    }
    if (!ReadAlgo(root)) return;
    for (int child : root.children) {
      const MscclXmlElement& e = doc_.elements[child];
      if (e.name != "gpu") {
        Bad(Kind::kStructure, "line " + std::to_string(e.line) + ": unexpected element <" +
                                  e.name + "> in <algo>");
        continue;
      }
      ReadGpu(e);
    }
    for (int g = 0; g < algo_->ngpus; ++g) {
      if (!algo_->gpus[g].present) Bad(Kind::kStructure, "gpu " + std::to_string(g) + " is missing");
    }
    if (rep_->total() > 0) return;
    for (int g = 0; g < algo_->ngpus; ++g) CheckGpu(g);
  }

 private:
  void Bad(Kind kind, std::string message, int gpu = -1, int tb = -1, int step = -1) {
    rep_->Add(ReplayStage::kSchema, kind, std::move(message), gpu, tb, step);
  }

  // Reads integer attribute `key` of `e` into *out; reports a missing or malformed one.
  bool Int(const MscclXmlElement& e, const char* key, const std::string& where, std::int64_t* out,
           bool required = true) {
    const std::string* v = e.Find(key);
    if (v == nullptr) {
      if (required) {
        Bad(Kind::kMissingAttribute, where + ": attribute " + key + " of node " + e.name +
                                         " not found (line " + std::to_string(e.line) + ")");
      }
      return false;
    }
    if (!ParseInteger(*v, out)) {
      Bad(Kind::kBadValue, where + ": attribute " + key + "=\"" + *v + "\" is not an integer");
      return false;
    }
    return true;
  }
  bool Int32(const MscclXmlElement& e, const char* key, const std::string& where, int* out,
             bool required = true) {
    std::int64_t v = 0;
    if (!Int(e, key, where, &v, required)) return false;
    if (v < -(std::int64_t{1} << 31) || v >= (std::int64_t{1} << 31)) {
      Bad(Kind::kBadValue, where + ": attribute " + key + "=" + std::to_string(v) +
                               " is out of the int range");
      return false;
    }
    *out = static_cast<int>(v);
    return true;
  }
  bool Flag(const MscclXmlElement& e, const char* key, const std::string& where, bool* out,
            bool required = true) {
    int v = 0;
    if (!Int32(e, key, where, &v, required)) return false;
    if (v != 0 && v != 1) {
      Bad(Kind::kBadValue, where + ": " + key + "=" + std::to_string(v) + " is not 0 or 1");
      return false;
    }
    *out = v == 1;
    return true;
  }

  bool ReadAlgo(const MscclXmlElement& e) {
    const std::string where = "<algo>";
    const std::int64_t before = rep_->total();
    if (lim_.legacy && e.Find("name") == nullptr) {
      Bad(Kind::kMissingAttribute, where + ": attribute name of node algo not found (required "
                                           "by the legacy runtime)");
    }
    const std::string* proto = e.Find("proto");
    if (proto == nullptr) {
      Bad(Kind::kMissingAttribute, where + ": attribute proto of node algo not found");
    } else if (*proto != "Simple" && *proto != "LL" && *proto != "LL128") {
      Bad(Kind::kBadValue, where + ": protocol " + *proto + " is not supported (Simple, LL, LL128)");
    } else {
      algo_->proto = *proto;
      result_->proto = *proto;
    }
    int nchannels = 0, nchunks = 0, ngpus = 0;
    const bool has_channels = Int32(e, "nchannels", where, &nchannels);
    const bool has_chunks = Int32(e, "nchunksperloop", where, &nchunks);
    const bool has_gpus = Int32(e, "ngpus", where, &ngpus);
    if (has_gpus) result_->ngpus = ngpus;
    if (has_chunks) result_->nchunksperloop = nchunks;
    const std::string* coll = e.Find("coll");
    if (coll == nullptr) {
      Bad(Kind::kMissingAttribute, where + ": attribute coll of node algo not found");
    } else {
      result_->coll = *coll;
      ReadColl(*coll);
    }
    if (lim_.legacy) {
      std::int64_t v = 0;
      Int(e, "minbytes", where, &v, false);
      if (Int(e, "maxbytes", where, &v, false) && v < 0) {
        Bad(Kind::kBadValue, where + ": maxbytes is negative");
      }
      if (e.Find("minBytes") != nullptr || e.Find("maxBytes") != nullptr) {
        result_->notes.push_back(
            "legacy profile: minBytes/maxBytes are ignored by the legacy runtime, which reads "
            "lower-case minbytes/maxbytes (default max 128 MiB)");
      }
      bool inplace = false;
      Flag(e, "inplace", where, &inplace, false);
      algo_->inplace = inplace;
      algo_->outofplace = !inplace;
    } else {
      std::int64_t minb = 0, maxb = 0;
      const bool has_min = Int(e, "minBytes", where, &minb);
      const bool has_max = Int(e, "maxBytes", where, &maxb);
      if (has_min && minb < 0) Bad(Kind::kBadValue, where + ": minBytes is negative");
      if (has_max && maxb < 0) Bad(Kind::kBadValue, where + ": maxBytes is negative");
      if (has_min && has_max && maxb != 0 && minb > maxb) {
        Bad(Kind::kBadValue, where + ": minBytes " + std::to_string(minb) + " > maxBytes " +
                                 std::to_string(maxb) + ": never selected");
      }
      bool inplace = false, outofplace = false;
      const bool a = Flag(e, "inplace", where, &inplace);
      const bool b = Flag(e, "outofplace", where, &outofplace);
      if (a && b && !inplace && !outofplace) {
        Bad(Kind::kBadValue, where + ": inplace=0 and outofplace=0: never selected");
      }
      algo_->inplace = inplace;
      algo_->outofplace = outofplace;
    }
    if (has_channels && (nchannels < 1 || nchannels > lim_.max_channels)) {
      Bad(Kind::kLimit, where + ": nchannels=" + std::to_string(nchannels) + " outside 1.." +
                            std::to_string(lim_.max_channels) + " (MAXCHANNELS)");
    }
    if (has_gpus && (ngpus < 1 || ngpus > kMaxGpus)) {
      Bad(Kind::kLimit, where + ": ngpus=" + std::to_string(ngpus) + " outside 1.." +
                            std::to_string(kMaxGpus) + " (limit of this checker)");
    }
    if (has_chunks && nchunks < 1) {
      Bad(Kind::kBadValue, where + ": nchunksperloop=" + std::to_string(nchunks) + " < 1");
    }
    if (rep_->total() > before) return false;
    algo_->nchannels = nchannels;
    algo_->nchunks = nchunks;
    algo_->ngpus = ngpus;
    result_->ngpus = ngpus;
    result_->nchunksperloop = nchunks;
    const bool per_rank = algo_->coll == Coll::kAllgather || algo_->coll == Coll::kReduceScatter;
    if (per_rank && nchunks % ngpus != 0) {
      Bad(Kind::kBadValue, where + ": nchunksperloop=" + std::to_string(nchunks) +
                               " is not a multiple of ngpus=" + std::to_string(ngpus) + " (" +
                               result_->coll + " gives every rank nchunksperloop/ngpus chunks)");
      return false;
    }
    if (static_cast<std::int64_t>(ngpus) * nchunks * 2 > kMaxCellsPerRound) {
      Bad(Kind::kLimit, where + ": ngpus*nchunksperloop too large for this checker (limit " +
                            std::to_string(kMaxCellsPerRound / 2) + ")");
      return false;
    }
    const int k = per_rank ? nchunks / ngpus : nchunks;
    algo_->in_size = algo_->coll == Coll::kAllgather ? k : nchunks;
    algo_->out_size = algo_->coll == Coll::kReduceScatter ? k : nchunks;
    algo_->gpus.assign(ngpus, Gpu{});
    return true;
  }

  void ReadColl(const std::string& c) {
    const bool legacy = lim_.legacy;
    if (c == "allgather") {
      algo_->coll = Coll::kAllgather;
    } else if (c == "allreduce") {
      algo_->coll = Coll::kAllreduce;
    } else if (c == "broadcast") {
      algo_->coll = Coll::kBroadcast;
    } else if (c == (legacy ? "reduce_scatter" : "reducescatter")) {
      algo_->coll = Coll::kReduceScatter;
    } else if (c == (legacy ? "reducescatter" : "reduce_scatter")) {
      Bad(Kind::kBadValue,
          legacy ? "<algo>: coll=\"reducescatter\" is not the legacy runtime's spelling; write "
                   "reduce_scatter for --profile legacy"
                 : "<algo>: coll=\"reduce_scatter\" (the legacy spelling) fails the runtime's "
                   "metadata pass (ncclInvalidUsage, no message) and aborts init; write "
                   "reducescatter");
    } else if (c == "reduce" || c == "alltoall" || c == "alltoallv" || c == "gather" ||
               c == "scatter" || c == "send" || c == "recv") {
      Bad(Kind::kUnsupported, "<algo>: coll=\"" + c +
                                  "\" is accepted by the runtime but not modelled by this checker "
                                  "(allgather, reducescatter, allreduce, broadcast)");
    } else {
      Bad(Kind::kBadValue, "<algo>: unknown coll=\"" + c + "\"");
    }
  }

  void ReadGpu(const MscclXmlElement& e) {
    const std::string where = "<gpu> line " + std::to_string(e.line);
    int id = 0;
    Gpu g;
    bool ok = Int32(e, "id", where, &id);
    ok &= Int32(e, "i_chunks", where, &g.i_chunks);
    ok &= Int32(e, "o_chunks", where, &g.o_chunks);
    ok &= Int32(e, "s_chunks", where, &g.s_chunks);
    if (!ok) return;
    if (id < 0 || id >= algo_->ngpus) {
      Bad(Kind::kStructure, where + ": gpu id " + std::to_string(id) + " outside 0.." +
                                std::to_string(algo_->ngpus - 1));
      return;
    }
    if (algo_->gpus[id].present) {
      Bad(Kind::kStructure, where + ": duplicate gpu id " + std::to_string(id), id);
      return;
    }
    if (g.i_chunks < 0 || g.o_chunks < 0 || g.s_chunks < 0) {
      Bad(Kind::kBadValue, where + ": negative i_chunks/o_chunks/s_chunks", id);
      return;
    }
    if (static_cast<std::int64_t>(g.s_chunks) * algo_->ngpus > kMaxCellsPerRound) {
      Bad(Kind::kLimit, where + ": s_chunks too large for this checker", id);
      return;
    }
    g.present = true;
    current_scratch_ = g.s_chunks;
    std::vector<Block> read;
    for (int child : e.children) {
      const MscclXmlElement& t = doc_.elements[child];
      if (t.name != "tb") {
        Bad(Kind::kStructure, Where(id) + " line " + std::to_string(t.line) +
                                  ": unexpected element <" + t.name + "> in <gpu>", id);
        continue;
      }
      Block b;
      if (ReadTb(t, id, &b)) read.push_back(std::move(b));
    }
    // Dense, unique ids from 0 (the runtime: "thread block %d is missing", "duplicate").
    std::vector<int> slot;
    int max_id = -1;
    for (const Block& b : read) max_id = std::max(max_id, b.id);
    slot.assign(max_id + 1, -1);
    for (int i = 0; i < static_cast<int>(read.size()); ++i) {
      if (slot[read[i].id] >= 0) {
        Bad(Kind::kStructure, Where(id, read[i].id) + ": duplicate thread block id", id, read[i].id);
      } else {
        slot[read[i].id] = i;
      }
    }
    for (int t = 0; t <= max_id; ++t) {
      if (slot[t] < 0) {
        Bad(Kind::kStructure, Where(id) + ": thread block " + std::to_string(t) + " is missing",
            id, t);
      }
    }
    if (max_id + 1 > lim_.max_tbs) {
      Bad(Kind::kLimit, Where(id) + ": " + std::to_string(max_id + 1) +
                            " thread blocks, more than MSCCL_MAX_NUM_THREAD_BLOCKS = " +
                            std::to_string(lim_.max_tbs),
          id);
    }
    g.tbs.resize(max_id + 1);
    for (int t = 0; t <= max_id; ++t) {
      if (slot[t] >= 0) g.tbs[t] = std::move(read[slot[t]]);
    }
    algo_->gpus[id] = std::move(g);
  }

  bool ReadTb(const MscclXmlElement& e, int gpu, Block* b) {
    const std::string where = Where(gpu) + " <tb> line " + std::to_string(e.line);
    bool ok = Int32(e, "id", where, &b->id);
    ok &= Int32(e, "send", where, &b->send);
    ok &= Int32(e, "recv", where, &b->recv);
    ok &= Int32(e, "chan", where, &b->chan);
    if (!ok) return false;
    b->line = e.line;
    const std::string w = Where(gpu, b->id);
    if (b->id < 0) {
      Bad(Kind::kStructure, where + ": negative thread block id", gpu);
      return false;
    }
    if (b->id >= lim_.max_tbs) {
      Bad(Kind::kLimit, w + ": id not below MSCCL_MAX_NUM_THREAD_BLOCKS = " +
                            std::to_string(lim_.max_tbs), gpu, b->id);
      return false;
    }
    for (auto [peer, name] : {std::pair<int, const char*>{b->send, "send"}, {b->recv, "recv"}}) {
      if (peer < -1 || peer >= algo_->ngpus || peer == gpu) {
        Bad(Kind::kBadValue, w + ": " + name + "=" + std::to_string(peer) +
                                 " is not -1 or another gpu's id", gpu, b->id);
        ok = false;
      }
    }
    if (b->chan < 0 || b->chan >= algo_->nchannels) {
      Bad(Kind::kBadValue, w + ": chan=" + std::to_string(b->chan) + " is not below nchannels=" +
                               std::to_string(algo_->nchannels) +
                               " (no connection is built for it; the block would hang)",
          gpu, b->id);
      ok = false;
    }
    int index = 0;
    for (int child : e.children) {
      const MscclXmlElement& s = doc_.elements[child];
      if (s.name != "step") {
        Bad(Kind::kStructure, w + " line " + std::to_string(s.line) + ": unexpected element <" +
                                  s.name + "> in <tb>", gpu, b->id);
        ok = false;
        continue;
      }
      Step st;
      if (ReadStep(s, gpu, *b, index, &st)) b->steps.push_back(st);
      else ok = false;
      ++index;
    }
    if (index > lim_.max_steps) {
      Bad(Kind::kLimit, w + ": " + std::to_string(index) +
                            " steps, more than MSCCL_MAX_NUM_STEPS = " +
                            std::to_string(lim_.max_steps) + " (nops and every re count)",
          gpu, b->id);
      ok = false;
    }
    return ok;
  }

  bool ReadStep(const MscclXmlElement& e, int gpu, const Block& b, int index, Step* st) {
    const std::string w = Where(gpu, b.id, index);
    const std::string where = w + " (line " + std::to_string(e.line) + ")";
    int s = 0, hasdep = 0;
    bool ok = Int32(e, "s", where, &s);
    const std::string* type = e.Find("type");
    if (type == nullptr) {
      Bad(Kind::kMissingAttribute, where + ": attribute type of node step not found", gpu, b.id, index);
      ok = false;
    }
    const std::string* srcbuf = e.Find("srcbuf");
    const std::string* dstbuf = e.Find("dstbuf");
    for (auto [v, name] : {std::pair{srcbuf, "srcbuf"}, std::pair{dstbuf, "dstbuf"}}) {
      if (v == nullptr) {
        Bad(Kind::kMissingAttribute, where + ": attribute " + std::string(name) +
                                         " of node step not found", gpu, b.id, index);
        ok = false;
      } else if (*v != "i" && *v != "o" && *v != "s") {
        Bad(Kind::kBadValue, where + ": " + name + "=\"" + *v + "\" is not i, o or s", gpu, b.id,
            index);
        ok = false;
      }
    }
    ok &= Int32(e, "srcoff", where, &st->srcoff);
    ok &= Int32(e, "dstoff", where, &st->dstoff);
    ok &= Int32(e, "cnt", where, &st->cnt);
    ok &= Int32(e, "depid", where, &st->depid);
    ok &= Int32(e, "deps", where, &st->deps);
    ok &= Int32(e, "hasdep", where, &hasdep);
    if (!ok) return false;
    if (s != index) {
      Bad(Kind::kBadValue, where + ": s=" + std::to_string(s) + " but it is step " +
                               std::to_string(index) +
                               " of its block (the kernel numbers steps 0,1,2,... in document order)",
          gpu, b.id, index);
      ok = false;
    }
    bool known = false;
    for (const TypeInfo& t : kTypes) {
      if (*type == t.name) {
        st->type = t.type;
        known = true;
      }
    }
    if (!known) {
      Bad(Kind::kUnsupported, where + ": unsupported step type \"" + *type + "\"", gpu, b.id, index);
      return false;
    }
    const TypeInfo& info = InfoOf(st->type);
    st->srcbuf = (*srcbuf)[0];
    st->dstbuf = (*dstbuf)[0];
    st->hasdep = hasdep == 1;
    if (hasdep != 0 && hasdep != 1) {
      Bad(Kind::kBadValue, where + ": hasdep=" + std::to_string(hasdep) + " is not 0 or 1", gpu,
          b.id, index);
      ok = false;
    }
    if (st->cnt < 0 || st->cnt >= kMaxCount || (st->cnt == 0 && st->type != StepType::kNop)) {
      Bad(Kind::kLimit, where + ": count (" + std::to_string(st->cnt) +
                            ") must be positive and less than " + std::to_string(kMaxCount),
          gpu, b.id, index);
      ok = false;
    }
    if (info.send && b.send < 0) {
      Bad(Kind::kBadValue, where + ": " + info.name + " sends but the block has send=-1", gpu,
          b.id, index);
      ok = false;
    }
    if (info.recv && b.recv < 0) {
      Bad(Kind::kBadValue, where + ": " + info.name + " receives but the block has recv=-1", gpu,
          b.id, index);
      ok = false;
    }
    if ((st->depid < 0) != (st->deps < 0) || st->depid < -1 || st->deps < -1) {
      Bad(Kind::kDependency, where + ": depid=" + std::to_string(st->depid) + " deps=" +
                                 std::to_string(st->deps) + " (both -1, or both a block and step)",
          gpu, b.id, index);
      ok = false;
    }
    if (!ok) return false;
    auto check_side = [&](char buf, int off, bool accessed, bool runtime_checked,
                          const char* side) {
      if (!accessed) return;
      const int size = RealSize(buf);
      if (off < 0 || static_cast<std::int64_t>(off) + st->cnt > size) {
        Bad(Kind::kBadValue, w + ": " + side + " " + std::string(1, buf) + "[" +
                                 std::to_string(off) + ".." + std::to_string(off + st->cnt) +
                                 ") is outside the " + BufferName(buf) + " of " +
                                 std::to_string(size) + " chunks",
            gpu, b.id, index);
        ok = false;
      }
      if (runtime_checked) pending_declared_.push_back({gpu, b.id, index, buf, off, side});
    };
    check_side(st->srcbuf, st->srcoff, info.reads_src, info.rt_src, "source");
    check_side(st->dstbuf, st->dstoff, info.writes_dst || info.reads_dst, info.rt_dst,
               "destination");
    return ok;
  }

  int RealSize(char buf) const {
    if (buf == 'i') return algo_->in_size;
    if (buf == 'o') return algo_->out_size;
    return current_scratch_;
  }
  std::string BufferName(char buf) const {
    if (buf == 's') return "scratch buffer (s_chunks)";
    return std::string(buf == 'i' ? "input" : "output") + " buffer of " + result_->coll;
  }

  // Cross-block checks of one GPU: connectors (H1, per-channel limits), dependencies, nop
  // chains, fused re groups, and the runtime's offset check against i/o/s_chunks.
  void CheckGpu(int gid) {
    Gpu& g = algo_->gpus[gid];
    std::map<std::pair<int, int>, int> send_conn, recv_conn;  // (chan, peer) -> tb
    std::map<int, int> sends_per_chan, recvs_per_chan;
    for (const Block& b : g.tbs) {
      if (b.send >= 0) {
        auto [it, fresh] = send_conn.emplace(std::make_pair(b.chan, b.send), b.id);
        if (!fresh) {
          Bad(Kind::kConnector, Where(gid, b.id) + ": tb " + std::to_string(it->second) +
                                    " and tb " + std::to_string(b.id) + " both send to gpu " +
                                    std::to_string(b.send) + " on channel " +
                                    std::to_string(b.chan) + " (one connector per channel, peer "
                                    "and direction)",
              gid, b.id);
        }
        if (++sends_per_chan[b.chan] == kMaxBlocksPerChannelSide + 1) {
          Bad(Kind::kLimit, Where(gid) + ": more than 32 sending blocks on channel " +
                                std::to_string(b.chan), gid, b.id);
        }
      }
      if (b.recv >= 0) {
        auto [it, fresh] = recv_conn.emplace(std::make_pair(b.chan, b.recv), b.id);
        if (!fresh) {
          Bad(Kind::kConnector, Where(gid, b.id) + ": tb " + std::to_string(it->second) +
                                    " and tb " + std::to_string(b.id) + " both receive from gpu " +
                                    std::to_string(b.recv) + " on channel " +
                                    std::to_string(b.chan) + " (one connector per channel, peer "
                                    "and direction)",
              gid, b.id);
        }
        if (++recvs_per_chan[b.chan] == kMaxBlocksPerChannelSide + 1) {
          Bad(Kind::kLimit, Where(gid) + ": more than 32 receiving blocks on channel " +
                                std::to_string(b.chan), gid, b.id);
        }
      }
    }
    for (Block& b : g.tbs) {
      const int n = static_cast<int>(b.steps.size());
      for (int i = 0; i < n; ++i) {
        const Step& st = b.steps[i];
        const std::string w = Where(gid, b.id, i);
        if (st.depid >= 0) {
          if (st.depid >= static_cast<int>(g.tbs.size())) {
            Bad(Kind::kDependency, w + ": depends on tb " + std::to_string(st.depid) +
                                       ", which does not exist on gpu " + std::to_string(gid) +
                                       " (the runtime loads it and hangs)",
                gid, b.id, i);
          } else if (st.deps >= static_cast<int>(g.tbs[st.depid].steps.size())) {
            Bad(Kind::kDependency, w + ": depends on step " + std::to_string(st.deps) + " of tb " +
                                       std::to_string(st.depid) + ", which has " +
                                       std::to_string(g.tbs[st.depid].steps.size()) + " steps",
                gid, b.id, i);
          } else if (!g.tbs[st.depid].steps[st.deps].hasdep) {
            Bad(Kind::kDependency, w + ": depends on tb " + std::to_string(st.depid) + " step " +
                                       std::to_string(st.deps) +
                                       ", which has hasdep=0 (publishes no flag: the waiter "
                                       "spins forever)",
                gid, b.id, i);
          } else if (st.depid == b.id && st.deps >= i) {
            Bad(Kind::kDependency, w + ": depends on a later step of its own block", gid, b.id, i);
          }
        }
        if (st.type == StepType::kNop && st.depid >= 0 && i + 1 < n &&
            b.steps[i + 1].type != StepType::kNop && b.steps[i + 1].depid < 0) {
          Bad(Kind::kDependency, w + ": a nop dependency chain must end in a step with its own "
                                     "dependency (the runtime rejects it)",
              gid, b.id, i + 1);
        }
      }
      // Transmissions: a nop run merges into the following real step; consecutive re steps
      // with the same buffers and no dependency fuse (up to 16). A member's hasdep publishes
      // when the whole transmission is done.
      for (int i = 0; i < n;) {
        int end = i;
        if (b.steps[i].type == StepType::kNop) {
          while (end + 1 < n && b.steps[end].type == StepType::kNop) ++end;
        }
        if (b.steps[end].type == StepType::kRe) {
          const Step& first = b.steps[end];
          int members = 1;
          while (end + 1 < n && members < kMaxReduceFusion && b.steps[end + 1].type == StepType::kRe &&
                 b.steps[end + 1].depid < 0 && b.steps[end + 1].srcbuf == first.srcbuf &&
                 b.steps[end + 1].dstbuf == first.dstbuf) {
            const Step& next = b.steps[end + 1];
            if (next.dstoff != first.dstoff || next.cnt != first.cnt) {
              Bad(Kind::kUnsupported, Where(gid, b.id, end + 1) +
                                          ": re fused with the previous re (same buffers, no "
                                          "dependency) but with another dstoff or cnt: the fused "
                                          "semantics are not modelled",
                  gid, b.id, end + 1);
            }
            ++end;
            ++members;
          }
        }
        bool publish = false;
        for (int k = i; k <= end; ++k) publish |= b.steps[k].hasdep;
        for (int k = i; k <= end; ++k) {
          b.steps[k].group_end = end;
          b.steps[k].group_publish = publish;
        }
        i = end + 1;
      }
    }
    for (const Pending& p : pending_declared_) {
      if (p.gpu != gid) continue;
      const int declared = p.buf == 'i' ? g.i_chunks : p.buf == 'o' ? g.o_chunks : g.s_chunks;
      if (p.off < -1 || p.off >= declared) {
        Bad(Kind::kBadValue, Where(gid, p.tb, p.step) + ": " + p.side + " offset " +
                                 std::to_string(p.off) + " is not below " + p.buf +
                                 "_chunks=" + std::to_string(declared) +
                                 " (the runtime rejects it: incorrect offset)",
            gid, p.tb, p.step);
      }
    }
  }

  struct Pending {
    int gpu, tb, step;
    char buf;
    int off;
    const char* side;
  };

  const MscclXmlDocument& doc_;
  ProfileLimits lim_;
  Reporter* rep_;
  Algo* algo_;
  ReplayResult* result_;
  int current_scratch_ = 0;
  std::vector<Pending> pending_declared_;
};

// ---------------------------------------------------------------------------------------
// Stage 2: connectors and FIFO matching.

struct Connector {
  int src = 0, dst = 0, chan = 0;
  int sender_tb = -1, receiver_tb = -1;  // on src / dst
};

std::vector<Connector> BuildConnectors(const Algo& algo) {
  std::map<std::tuple<int, int, int>, Connector> m;
  for (int g = 0; g < algo.ngpus; ++g) {
    for (const Block& b : algo.gpus[g].tbs) {
      if (b.send >= 0) {
        Connector& c = m[{g, b.send, b.chan}];
        c.src = g, c.dst = b.send, c.chan = b.chan, c.sender_tb = b.id;
      }
      if (b.recv >= 0) {
        Connector& c = m[{b.recv, g, b.chan}];
        c.src = b.recv, c.dst = g, c.chan = b.chan, c.receiver_tb = b.id;
      }
    }
  }
  std::vector<Connector> out;
  for (auto& [key, c] : m) out.push_back(c);
  return out;
}

std::string ConnectorName(const Connector& c) {
  return "connector gpu " + std::to_string(c.src) + " -> gpu " + std::to_string(c.dst) +
         " channel " + std::to_string(c.chan);
}

void CheckFifos(const Algo& algo, const std::vector<Connector>& conns, Reporter* rep) {
  auto bad = [&](std::string m, int gpu, int tb, int step) {
    rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch, std::move(m), gpu, tb, step);
  };
  for (const Connector& c : conns) {
    std::vector<std::pair<int, int>> sends, recvs;  // (step index, cnt)
    if (c.sender_tb >= 0) {
      const Block& b = algo.gpus[c.src].tbs[c.sender_tb];
      for (int i = 0; i < static_cast<int>(b.steps.size()); ++i) {
        if (InfoOf(b.steps[i].type).send) sends.push_back({i, b.steps[i].cnt});
      }
    }
    if (c.receiver_tb >= 0) {
      const Block& b = algo.gpus[c.dst].tbs[c.receiver_tb];
      for (int i = 0; i < static_cast<int>(b.steps.size()); ++i) {
        if (InfoOf(b.steps[i].type).recv) recvs.push_back({i, b.steps[i].cnt});
      }
    }
    if (c.receiver_tb < 0 && !sends.empty()) {
      bad(ConnectorName(c) + ": " + Where(c.src, c.sender_tb, sends[0].first) +
              " sends, but no block on gpu " + std::to_string(c.dst) + " has recv=" +
              std::to_string(c.src) + " chan=" + std::to_string(c.chan),
          c.src, c.sender_tb, sends[0].first);
      continue;
    }
    if (c.sender_tb < 0 && !recvs.empty()) {
      bad(ConnectorName(c) + ": " + Where(c.dst, c.receiver_tb, recvs[0].first) +
              " receives, but no block on gpu " + std::to_string(c.src) + " has send=" +
              std::to_string(c.dst) + " chan=" + std::to_string(c.chan),
          c.dst, c.receiver_tb, recvs[0].first);
      continue;
    }
    const std::size_t n = std::min(sends.size(), recvs.size());
    bool reported = false;
    for (std::size_t k = 0; k < n && !reported; ++k) {
      if (sends[k].second != recvs[k].second) {
        bad(ConnectorName(c) + ": transfer " + std::to_string(k) + " is sent with cnt=" +
                std::to_string(sends[k].second) + " by " +
                Where(c.src, c.sender_tb, sends[k].first) + " but received with cnt=" +
                std::to_string(recvs[k].second) + " by " +
                Where(c.dst, c.receiver_tb, recvs[k].first),
            c.src, c.sender_tb, sends[k].first);
        reported = true;
      }
    }
    if (!reported && sends.size() != recvs.size()) {
      bad(ConnectorName(c) + ": " + std::to_string(sends.size()) + " sends by " +
              Where(c.src, c.sender_tb) + " but " + std::to_string(recvs.size()) +
              " receives by " + Where(c.dst, c.receiver_tb),
          c.src, c.sender_tb, -1);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Stage 3: symbolic execution.

// A contribution set: sorted element ids q * in_size + c (rank q's input chunk c), or bottom
// (never written).
struct Value {
  bool bottom = true;
  std::vector<std::uint32_t> elems;
};

using Clock = std::vector<std::uint32_t>;
using ClockPtr = std::shared_ptr<const Clock>;

struct Message {
  Value value;
  ClockPtr clock;  // sender's clock at some point at or before the push
  std::uint32_t epoch = 0;
};

struct Publication {
  int iteration, step;
  ClockPtr clock;
};

enum class WaitKind { kNone, kFlag, kData, kSpace };

struct SimBlock {
  int gpu = 0, tb = 0;
  const Block* def = nullptr;
  int in_fifo = -1, out_fifo = -1;
  int iter = 0, step = 0, sub = 0;
  bool dep_done = false, finished = false, queued = false;
  WaitKind wait = WaitKind::kNone;
  int wait_target = -1;  // block (kFlag) or fifo index
  std::vector<Publication> pubs;
  std::vector<int> flag_waiters;
  Clock clock;
  std::shared_ptr<Clock> snapshot;
  bool snapshot_stale = true;
};

struct Fifo {
  int sender = -1, receiver = -1;  // global block indices
  int src = 0, dst = 0, chan = 0;
  std::deque<Message> queue;
  bool receiver_waiting = false, sender_waiting = false;
};

struct Access {
  int block;
  std::uint32_t epoch;
  int step;
};

struct Cell {
  Value value;
  Access write{-1, 0, -1};
  std::vector<Access> reads;  // since the last write, at most one per block
};

class Simulator {
 public:
  Simulator(const Algo& algo, const std::vector<Connector>& conns, const ReplayOptions& o,
            bool inplace, int depth, Reporter* rep)
      : algo_(algo), o_(o), inplace_(inplace), depth_(depth), rep_(rep) {
    mode_ = inplace ? "inplace" : "outofplace";
    std::vector<int> first(algo.ngpus + 1, 0);
    for (int g = 0; g < algo.ngpus; ++g) {
      first[g + 1] = first[g] + static_cast<int>(algo.gpus[g].tbs.size());
    }
    first_block_ = first;
    const int nb = first[algo.ngpus];
    blocks_.resize(nb);
    for (int g = 0; g < algo.ngpus; ++g) {
      for (const Block& b : algo.gpus[g].tbs) {
        SimBlock& s = blocks_[first[g] + b.id];
        s.gpu = g;
        s.tb = b.id;
        s.def = &b;
        s.clock.assign(nb, 0);
      }
    }
    for (const Connector& c : conns) {
      if (c.sender_tb < 0 || c.receiver_tb < 0) continue;  // unused (stage 2)
      Fifo f;
      f.sender = first[c.src] + c.sender_tb;
      f.receiver = first[c.dst] + c.receiver_tb;
      f.src = c.src, f.dst = c.dst, f.chan = c.chan;
      blocks_[f.sender].out_fifo = static_cast<int>(fifos_.size());
      blocks_[f.receiver].in_fifo = static_cast<int>(fifos_.size());
      fifos_.push_back(std::move(f));
    }
    // Cells: per round, per gpu: input, output, scratch.
    scratch_base_.assign(algo.ngpus + 1, 0);
    for (int g = 0; g < algo.ngpus; ++g) {
      scratch_base_[g + 1] = scratch_base_[g] + algo.gpus[g].s_chunks;
    }
    per_round_ = static_cast<std::size_t>(algo.ngpus) * (algo.in_size + algo.out_size) +
                 scratch_base_[algo.ngpus];
    cells_.resize(per_round_ * o.iterations);
    for (int it = 0; it < o.iterations; ++it) {
      for (int g = 0; g < algo.ngpus; ++g) {
        for (int c = 0; c < algo.in_size; ++c) {
          Cell& cell = cells_[Resolve(it, g, 'i', c)];
          cell.value.bottom = false;
          cell.value.elems = {static_cast<std::uint32_t>(g * algo.in_size + c)};
        }
      }
    }
  }

  void Run() {
    for (int b = 0; b < static_cast<int>(blocks_.size()); ++b) Enqueue(b);
    while (!ready_.empty()) {
      const int b = ready_.front();
      ready_.pop_front();
      blocks_[b].queued = false;
      Advance(b);
    }
    if (!ReportDeadlock()) CheckPostcondition();
  }

 private:
  // Index of the cell holding buffer `buf`[off] of gpu g in round it, after the in-place
  // aliases of executors.md §2.6 / §8.3.
  std::size_t Resolve(int it, int g, char buf, int off) const {
    const std::size_t round = per_round_ * it;
    const std::size_t in_base = static_cast<std::size_t>(g) * algo_.in_size;
    const std::size_t out_base =
        static_cast<std::size_t>(algo_.ngpus) * algo_.in_size + static_cast<std::size_t>(g) * algo_.out_size;
    const std::size_t s_base = static_cast<std::size_t>(algo_.ngpus) * (algo_.in_size + algo_.out_size) +
                               scratch_base_[g];
    if (buf == 's') return round + s_base + off;
    if (inplace_) {
      const int k = algo_.coll == Coll::kAllgather ? algo_.in_size : algo_.out_size;
      if (algo_.coll == Coll::kReduceScatter) {
        if (buf == 'o') return round + in_base + static_cast<std::size_t>(g) * k + off;
        return round + in_base + off;
      }
      if (buf == 'i') {
        if (algo_.coll == Coll::kAllgather) return round + out_base + static_cast<std::size_t>(g) * k + off;
        return round + out_base + off;
      }
      return round + out_base + off;
    }
    return round + (buf == 'i' ? in_base : out_base) + off;
  }
  bool IsInputCell(std::size_t index) const {
    const std::size_t r = index % per_round_;
    return r < static_cast<std::size_t>(algo_.ngpus) * algo_.in_size;
  }

  std::string At(const SimBlock& b, int step = -1) const {
    const int s = step >= 0 ? step : b.step;
    std::string w = Where(b.gpu, b.tb, s);
    if (s < static_cast<int>(b.def->steps.size())) {
      w += std::string(" (") + InfoOf(b.def->steps[s].type).name + ", round " +
           std::to_string(b.iter) + ")";
    }
    return w;
  }

  void Report(Kind kind, const SimBlock& b, const std::string& what) {
    // One report per (kind, block, step): the same fault repeats per chunk and round.
    if (!reported_.insert({static_cast<int>(kind), b.gpu, b.tb, b.step}).second) return;
    rep_->Add(ReplayStage::kExecute, kind, "[" + mode_ + "] " + At(b) + ": " + what, b.gpu, b.tb,
              b.step);
  }

  std::string Element(std::uint32_t e) const {
    return "(rank " + std::to_string(e / algo_.in_size) + ", chunk " +
           std::to_string(e % algo_.in_size) + ")";
  }
  std::string CellName(int g, char buf, int off) const {
    return "gpu " + std::to_string(g) + " " + std::string(1, buf) + "[" + std::to_string(off) + "]";
  }

  void Enqueue(int b) {
    if (blocks_[b].queued || blocks_[b].finished) return;
    blocks_[b].queued = true;
    ready_.push_back(b);
  }

  // True if `other` happened before the current point of block b.
  bool Ordered(const SimBlock& b, int self, const Access& other) const {
    return other.block == self || b.clock[other.block] >= other.epoch;
  }
  void RaceReport(int self, const Access& other, const char* what, int g, char buf, int off) {
    const SimBlock& b = blocks_[self];
    const SimBlock& ob = blocks_[other.block];
    Report(Kind::kRace, b,
           std::string(what) + " of " + CellName(g, buf, off) + " is not ordered with the " +
               (other.step >= 0 ? "access by " : "") + Where(ob.gpu, ob.tb, other.step) +
               " (no dependency, flag or send/receive chain orders them)");
  }

  Value Read(int self, char buf, int off) {
    SimBlock& b = blocks_[self];
    const std::size_t index = Resolve(b.iter, b.gpu, buf, off);
    Cell& cell = cells_[index];
    const std::uint32_t epoch = b.clock[self];
    if (cell.write.block >= 0 && !Ordered(b, self, cell.write)) {
      RaceReport(self, cell.write, "read", b.gpu, buf, off);
    }
    bool found = false;
    for (Access& a : cell.reads) {
      if (a.block == self) {
        a.epoch = epoch;
        a.step = b.step;
        found = true;
      }
    }
    if (!found) cell.reads.push_back({self, epoch, b.step});
    if (cell.value.bottom) {
      Report(Kind::kUninitializedRead, b,
             "reads " + CellName(b.gpu, buf, off) + ", which nothing has written (missing data)");
    }
    return cell.value;
  }

  void Write(int self, char buf, int off, Value v) {
    SimBlock& b = blocks_[self];
    const std::size_t index = Resolve(b.iter, b.gpu, buf, off);
    Cell& cell = cells_[index];
    if (!inplace_ && IsInputCell(index)) {
      Report(Kind::kInputWritten, b,
             "writes " + CellName(b.gpu, buf, off) + ", the input buffer of an out-of-place call");
    }
    if (cell.write.block >= 0 && !Ordered(b, self, cell.write)) {
      RaceReport(self, cell.write, "write", b.gpu, buf, off);
    }
    for (const Access& a : cell.reads) {
      if (!Ordered(b, self, a)) {
        RaceReport(self, a, "write", b.gpu, buf, off);
        break;
      }
    }
    cell.reads.clear();
    cell.write = {self, b.clock[self], b.step};
    cell.value = std::move(v);
  }

  // a ⊎ b; an element in both is double counting.
  Value Sum(int self, const Value& a, const Value& c) {
    Value r;
    if (a.bottom || c.bottom) return r;
    r.bottom = false;
    r.elems.reserve(a.elems.size() + c.elems.size());
    std::size_t i = 0, j = 0;
    bool dup = false;
    std::uint32_t first_dup = 0;
    while (i < a.elems.size() || j < c.elems.size()) {
      if (j == c.elems.size() || (i < a.elems.size() && a.elems[i] < c.elems[j])) {
        r.elems.push_back(a.elems[i++]);
      } else if (i == a.elems.size() || c.elems[j] < a.elems[i]) {
        r.elems.push_back(c.elems[j++]);
      } else {
        if (!dup) first_dup = a.elems[i];
        dup = true;
        r.elems.push_back(a.elems[i]);
        ++i, ++j;
      }
    }
    if (dup) {
      Report(Kind::kDoubleCount, blocks_[self],
             "reduces two values that both contain " + Element(first_dup) + " (double counting)");
    }
    return r;
  }

  void Merge(SimBlock& b, const Clock& other) {
    for (std::size_t i = 0; i < other.size(); ++i) b.clock[i] = std::max(b.clock[i], other[i]);
    b.snapshot_stale = true;
  }

  ClockPtr Snapshot(SimBlock& b) {
    if (b.snapshot_stale || !b.snapshot) {
      b.snapshot = std::make_shared<Clock>(b.clock);
      b.snapshot_stale = false;
    }
    return b.snapshot;
  }

  static bool FlagReaches(const Publication& p, int iter, int step) {
    return p.iteration > iter || (p.iteration == iter && p.step >= step);
  }

  void Advance(int self) {
    SimBlock& b = blocks_[self];
    b.wait = WaitKind::kNone;
    const int nsteps = static_cast<int>(b.def->steps.size());
    if (nsteps == 0) {
      b.finished = true;
      return;
    }
    while (!b.finished) {
      const Step& st = b.def->steps[b.step];
      const TypeInfo& info = InfoOf(st.type);
      if (!b.dep_done) {
        if (st.depid >= 0) {
          const int d = first_block_[b.gpu] + st.depid;
          SimBlock& db = blocks_[d];
          auto it = std::lower_bound(db.pubs.begin(), db.pubs.end(), 0,
                                     [&](const Publication& p, int) {
                                       return !FlagReaches(p, b.iter, st.deps);
                                     });
          if (it == db.pubs.end()) {
            b.wait = WaitKind::kFlag;
            b.wait_target = d;
            db.flag_waiters.push_back(self);
            return;
          }
          Merge(b, *it->clock);
        }
        b.dep_done = true;
      }
      if (st.type != StepType::kNop && b.sub < st.cnt) {
        Fifo* in = info.recv ? &fifos_[b.in_fifo] : nullptr;
        Fifo* out = info.send ? &fifos_[b.out_fifo] : nullptr;
        if (in != nullptr && in->queue.empty()) {
          b.wait = WaitKind::kData;
          b.wait_target = b.in_fifo;
          in->receiver_waiting = true;
          return;
        }
        if (out != nullptr && static_cast<int>(out->queue.size()) >= depth_) {
          b.wait = WaitKind::kSpace;
          b.wait_target = b.out_fifo;
          out->sender_waiting = true;
          return;
        }
        ++b.clock[self];
        Value incoming;
        if (in != nullptr) {
          Message m = std::move(in->queue.front());
          in->queue.pop_front();
          Merge(b, *m.clock);
          const int sender = in->sender;
          b.clock[sender] = std::max(b.clock[sender], m.epoch);
          incoming = std::move(m.value);
          if (in->sender_waiting) {
            in->sender_waiting = false;
            Enqueue(in->sender);
          }
        }
        const int k = b.sub;
        Value outgoing;
        switch (st.type) {
          case StepType::kS: outgoing = Read(self, st.srcbuf, st.srcoff + k); break;
          case StepType::kR: Write(self, st.dstbuf, st.dstoff + k, std::move(incoming)); break;
          case StepType::kRcs:
            outgoing = incoming;
            Write(self, st.dstbuf, st.dstoff + k, std::move(incoming));
            break;
          case StepType::kRrs: outgoing = Sum(self, incoming, Read(self, st.srcbuf, st.srcoff + k)); break;
          case StepType::kRrc:
            Write(self, st.dstbuf, st.dstoff + k, Sum(self, incoming, Read(self, st.srcbuf, st.srcoff + k)));
            break;
          case StepType::kRrcs:
            outgoing = Sum(self, incoming, Read(self, st.srcbuf, st.srcoff + k));
            Write(self, st.dstbuf, st.dstoff + k, outgoing);
            break;
          case StepType::kCpy: Write(self, st.dstbuf, st.dstoff + k, Read(self, st.srcbuf, st.srcoff + k)); break;
          case StepType::kRe: {
            Value d = Read(self, st.dstbuf, st.dstoff + k);
            Write(self, st.dstbuf, st.dstoff + k, Sum(self, d, Read(self, st.srcbuf, st.srcoff + k)));
            break;
          }
          case StepType::kNop: break;
        }
        if (out != nullptr) {
          Message m;
          m.value = std::move(outgoing);
          m.clock = Snapshot(b);
          m.epoch = b.clock[self];
          out->queue.push_back(std::move(m));
          if (out->receiver_waiting) {
            out->receiver_waiting = false;
            Enqueue(out->receiver);
          }
        }
        ++b.sub;
        continue;
      }
      // The step is complete.
      if (st.group_end == b.step && st.group_publish) {
        b.pubs.push_back({b.iter, b.step, std::make_shared<Clock>(b.clock)});
        for (int w : b.flag_waiters) Enqueue(w);
        b.flag_waiters.clear();
      }
      b.sub = 0;
      b.dep_done = false;
      if (++b.step == nsteps) {
        b.step = 0;
        if (++b.iter == o_.iterations) b.finished = true;
      }
    }
  }

  // What an unfinished block waits for, as text, and the block it waits on (-1: none).
  std::pair<std::string, int> WaitsFor(const SimBlock& b) const {
    const Step& st = b.def->steps[b.step];
    switch (b.wait) {
      case WaitKind::kFlag: {
        return {"waits for the flag of tb " + std::to_string(st.depid) + " step " +
                    std::to_string(st.deps) + " (round " + std::to_string(b.iter) + ")",
                b.wait_target};
      }
      case WaitKind::kData: {
        const Fifo& f = fifos_[b.wait_target];
        return {"waits for data from gpu " + std::to_string(f.src) + " tb " +
                    std::to_string(blocks_[f.sender].tb) + " on channel " + std::to_string(f.chan),
                f.sender};
      }
      case WaitKind::kSpace: {
        const Fifo& f = fifos_[b.wait_target];
        return {"waits for a free slot (" + std::to_string(depth_) +
                    " transfers in flight) towards gpu " + std::to_string(f.dst) + " tb " +
                    std::to_string(blocks_[f.receiver].tb) + " on channel " +
                    std::to_string(f.chan),
                f.receiver};
      }
      case WaitKind::kNone: break;
    }
    return {"is stuck", -1};
  }

  ReplayStepRef Ref(const SimBlock& b) const { return {b.gpu, b.tb, b.step, b.iter}; }

  // Reports each wait-for cycle (or chain ending at a finished block); true if any block is
  // unfinished.
  bool ReportDeadlock() {
    const int nb = static_cast<int>(blocks_.size());
    std::vector<int> mark(nb, -1);  // walk id that visited the block
    bool any = false;
    int unfinished = 0;
    for (const SimBlock& b : blocks_) unfinished += b.finished ? 0 : 1;
    for (int start = 0; start < nb; ++start) {
      if (blocks_[start].finished || mark[start] >= 0) continue;
      any = true;
      std::vector<int> path;
      int cur = start;
      while (cur >= 0 && !blocks_[cur].finished && mark[cur] < 0) {
        mark[cur] = start;
        path.push_back(cur);
        cur = WaitsFor(blocks_[cur]).second;
      }
      if (cur >= 0 && !blocks_[cur].finished && mark[cur] != start) continue;  // known part
      std::vector<int> chain;
      std::string text;
      std::vector<ReplayStepRef> refs;
      if (cur >= 0 && !blocks_[cur].finished) {  // a cycle through cur
        auto it = std::find(path.begin(), path.end(), cur);
        chain.assign(it, path.end());
        text = "deadlock: wait-for cycle: ";
      } else {
        chain = path;
        text = "deadlock: wait-for chain: ";
      }
      for (int x : chain) {
        const SimBlock& b = blocks_[x];
        text += At(b) + " " + WaitsFor(b).first + " -> ";
        refs.push_back(Ref(b));
      }
      if (cur >= 0 && !blocks_[cur].finished) {
        text += "back to " + Where(blocks_[cur].gpu, blocks_[cur].tb);
      } else if (cur >= 0) {
        text += Where(blocks_[cur].gpu, blocks_[cur].tb) +
                " has finished and will never publish or send it";
      } else {
        text += "nothing can release it";
      }
      text += " (" + std::to_string(unfinished) + " blocks unfinished)";
      const SimBlock& head = blocks_[chain.front()];
      rep_->Add(ReplayStage::kExecute, Kind::kDeadlock, "[" + mode_ + "] " + text, head.gpu,
                head.tb, head.step, std::move(refs));
    }
    return any;
  }

  void CheckPostcondition() {
    const int n = algo_.ngpus;
    const int k = algo_.coll == Coll::kAllgather ? algo_.in_size : algo_.out_size;
    for (int it = 0; it < o_.iterations; ++it) {
      for (int r = 0; r < n; ++r) {
        for (int x = 0; x < algo_.out_size; ++x) {
          std::vector<std::uint32_t> want;
          switch (algo_.coll) {
            case Coll::kAllgather:
              want = {static_cast<std::uint32_t>((x / k) * algo_.in_size + x % k)};
              break;
            case Coll::kReduceScatter:
              for (int q = 0; q < n; ++q) want.push_back(q * algo_.in_size + r * k + x);
              break;
            case Coll::kAllreduce:
              for (int q = 0; q < n; ++q) want.push_back(q * algo_.in_size + x);
              break;
            case Coll::kBroadcast:
              want = {static_cast<std::uint32_t>(o_.root * algo_.in_size + x)};
              break;
          }
          const Cell& cell = cells_[Resolve(it, r, 'o', x)];
          if (cell.value.bottom) {
            Post("missing chunk: " + CellName(r, 'o', x) + " is never written (round " +
                     std::to_string(it) + ")",
                 r);
            continue;
          }
          if (cell.value.elems == want) continue;
          std::vector<std::uint32_t> missing, extra;
          std::set_difference(want.begin(), want.end(), cell.value.elems.begin(),
                              cell.value.elems.end(), std::back_inserter(missing));
          std::set_difference(cell.value.elems.begin(), cell.value.elems.end(), want.begin(),
                              want.end(), std::back_inserter(extra));
          std::string m = CellName(r, 'o', x) + " (round " + std::to_string(it) + ") ends";
          if (!missing.empty()) {
            m += " without " + Element(missing[0]) +
                 (missing.size() > 1 ? " and " + std::to_string(missing.size() - 1) + " more" : "");
          }
          if (!extra.empty()) {
            m += std::string(missing.empty() ? "" : ",") + " with " + Element(extra[0]) +
                 (extra.size() > 1 ? " and " + std::to_string(extra.size() - 1) + " more" : "") +
                 " that does not belong there";
          }
          Post(m, r);
        }
      }
    }
  }
  void Post(const std::string& m, int gpu) {
    rep_->Add(ReplayStage::kExecute, Kind::kPostcondition, "[" + mode_ + "] " + m, gpu);
  }

  const Algo& algo_;
  const ReplayOptions& o_;
  bool inplace_;
  int depth_;
  Reporter* rep_;
  std::string mode_;
  std::vector<int> first_block_;
  std::vector<SimBlock> blocks_;
  std::vector<Fifo> fifos_;
  std::vector<int> scratch_base_;
  std::size_t per_round_ = 0;
  std::vector<Cell> cells_;
  std::deque<int> ready_;
  std::set<std::tuple<int, int, int, int>> reported_;
};

void CountPairs(const Algo& algo, ReplayResult* r) {
  std::map<std::pair<int, int>, std::int64_t> m;
  for (int g = 0; g < algo.ngpus; ++g) {
    for (const Block& b : algo.gpus[g].tbs) {
      for (const Step& st : b.steps) {
        if (InfoOf(st.type).send) m[{g, b.send}] += st.cnt;
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
  (void)file;
  ReplayResult result;
  Reporter rep(&result, options.max_violations);
  const MscclXmlDocument doc = LexMscclXml(text);
  result.notes = doc.notes;
  if (!doc.ok) {
    rep.Add(ReplayStage::kLexical, Kind::kLexical, "the runtime's XML lexer rejects the file: " + doc.error);
    return result;
  }
  Algo algo;
  SchemaReader(doc, options, &rep, &algo, &result).Run();
  if (rep.total() > 0) return result;
  if (algo.coll == Coll::kBroadcast && (options.root < 0 || options.root >= algo.ngpus)) {
    rep.Add(ReplayStage::kSchema, Kind::kBadValue,
            "broadcast root " + std::to_string(options.root) + " is not a gpu of this file");
    return result;
  }
  CountPairs(algo, &result);
  const std::vector<Connector> conns = BuildConnectors(algo);
  CheckFifos(algo, conns, &rep);
  if (rep.total() > 0) return result;
  result.fifo_depth = options.fifo_depth > 0 ? options.fifo_depth : (algo.proto == "Simple" ? 2 : 8);
  for (bool inplace : {true, false}) {
    if (!(inplace ? algo.inplace : algo.outofplace)) continue;
    result.modes.push_back(inplace ? "inplace" : "outofplace");
    Simulator(algo, conns, options, inplace, result.fifo_depth, &rep).Run();
  }
  result.ok = rep.total() == 0;
  return result;
}

}  // namespace collsynth
