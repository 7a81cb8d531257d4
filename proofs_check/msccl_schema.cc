#include "proofs_check/msccl_schema.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace collsynth::msccl {
namespace {

// Limits of this checker (not of the runtime): cells simulated per round, half for the input
// and output buffers (ngpus * 2 * nchunksperloop), half for scratch (ngpus * s_chunks). 2^22:
// a 1,024-GPU allgather with one chunk per rank (nchunksperloop 1,024) is the largest file
// the exporter writes (docs/export.md); at most ~4M cells of ~80 bytes per round.
constexpr std::int64_t kMaxCellsPerRound = std::int64_t{1} << 22;
constexpr int kMaxGpus = 4096;
constexpr int kMaxCount = 72;                 // MSCCL_MAX_COUNT (cnt < 72)
constexpr int kMaxDepid = 127;                // int8_t dependentBid of every runtime
constexpr int kMaxInt16Field = 32767;         // int16_t dependentStep, srcOffset, dstOffset
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
    case MscclProfile::kExecutor:
      return {64, 32, 1024, false};
    case MscclProfile::kRccl:
      return {64, 128, 64, false};
    case MscclProfile::kLegacy:
      return {256, 32, 216, true};
  }
  return {64, 32, 1024, false};
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
        Bad(Kind::kStructure,
            "line " + std::to_string(e.line) + ": unexpected element <" + e.name + "> in <algo>");
        continue;
      }
      ReadGpu(e);
    }
    for (int g = 0; g < algo_->ngpus; ++g) {
      if (!algo_->gpus[g].present)
        Bad(Kind::kStructure, "gpu " + std::to_string(g) + " is missing");
    }
    if (rep_->total() > 0) return;
    // Grouped by GPU, each GPU's in document order (CheckGpu reads its own range).
    std::stable_sort(pending_declared_.begin(), pending_declared_.end(),
                     [](const Pending& a, const Pending& b) { return a.gpu < b.gpu; });
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
      Bad(Kind::kBadValue,
          where + ": attribute " + key + "=" + std::to_string(v) + " is out of the int range");
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
      Bad(Kind::kMissingAttribute, where +
                                       ": attribute name of node algo not found (required "
                                       "by the legacy runtime)");
    }
    const std::string* proto = e.Find("proto");
    if (proto == nullptr) {
      Bad(Kind::kMissingAttribute, where + ": attribute proto of node algo not found");
    } else if (*proto != "Simple" && *proto != "LL" && *proto != "LL128") {
      Bad(Kind::kBadValue,
          where + ": protocol " + *proto + " is not supported (Simple, LL, LL128)");
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
      // microsoft/msccl src/graph/topo.cc (mscclGetAlgoFromXMLAndSetAlgo) reads minBytes and
      // maxBytes on <algo>, both optional (defaults 0 and 2^27), names compared
      // case-sensitively (src/graph/xml.h); the lower-case spelling is read only on the
      // <load> element of an MSCCL_CONFIG file. It selects the algorithm for
      // minBytes <= bytes < maxBytes (src/graph/tuning.cc) and refuses minBytes > maxBytes or
      // a negative value with ncclInvalidUsage.
      if (e.Find("minbytes") != nullptr || e.Find("maxbytes") != nullptr) {
        Bad(Kind::kBadValue,
            where +
                ": minbytes/maxbytes (lower case) are ignored by the legacy runtime on "
                "<algo>, which reads minBytes/maxBytes; the file would load with the size "
                "range [0, 2^27)");
      }
      std::int64_t minb = 0, maxb = std::int64_t{1} << 27;
      const bool has_min = Int(e, "minBytes", where, &minb, false);
      const bool has_max = Int(e, "maxBytes", where, &maxb, false);
      if (has_min && minb < 0) Bad(Kind::kBadValue, where + ": minBytes is negative");
      if (has_max && maxb < 0) Bad(Kind::kBadValue, where + ": maxBytes is negative");
      if (minb >= 0 && maxb >= 0 && minb > maxb) {
        Bad(Kind::kBadValue, where + ": minBytes " + std::to_string(minb) + " > maxBytes " +
                                 std::to_string(maxb) +
                                 " (the legacy runtime refuses the file: ncclInvalidUsage)");
      } else if (minb >= 0 && maxb >= 0 && minb == maxb) {
        Bad(Kind::kBadValue, where + ": minBytes = maxBytes = " + std::to_string(maxb) +
                                 ": never selected (the legacy runtime selects minBytes <= "
                                 "bytes < maxBytes; maxBytes 0 is not unbounded there)");
      }
      if (!has_max) {
        result_->notes.push_back(
            "legacy profile: no maxBytes on <algo>: the runtime selects the file only below "
            "2^27 bytes (128 MiB)");
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
    // Alltoall: input and output are N blocks each (the runtime's sizeMultiplier is nGpus),
    // a block must be whole chunks for the postcondition to name them.
    const bool per_rank = algo_->coll == Coll::kAllgather || algo_->coll == Coll::kReduceScatter ||
                          algo_->coll == Coll::kAlltoall;
    if (per_rank && nchunks % ngpus != 0) {
      Bad(Kind::kBadValue, where + ": nchunksperloop=" + std::to_string(nchunks) +
                               " is not a multiple of ngpus=" + std::to_string(ngpus) + " (" +
                               result_->coll + " gives every rank nchunksperloop/ngpus chunks)");
      return false;
    }
    if (static_cast<std::int64_t>(ngpus) * nchunks * 2 > kMaxCellsPerRound / 2) {
      Bad(Kind::kLimit, where + ": ngpus*nchunksperloop too large for this checker (limit " +
                            std::to_string(kMaxCellsPerRound / 4) + ")");
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
    } else if (c == "alltoall") {
      // Read by every runtime: Azure/msccl-executor-nccl and ROCm/rccl
      // src/misc/msccl/msccl_parser.cc (sizeMultiplier = nGpus), microsoft/msccl
      // src/graph/topo.cc (scclGetAlgoFromXMLAndSetComm).
      algo_->coll = Coll::kAlltoall;
    } else if (c == (legacy ? "reduce_scatter" : "reducescatter")) {
      algo_->coll = Coll::kReduceScatter;
    } else if (c == (legacy ? "reducescatter" : "reduce_scatter")) {
      Bad(Kind::kBadValue,
          legacy ? "<algo>: coll=\"reducescatter\" is not the legacy runtime's spelling; write "
                   "reduce_scatter for --profile legacy"
                 : "<algo>: coll=\"reduce_scatter\" (the legacy spelling) fails the runtime's "
                   "metadata pass (ncclInvalidUsage, no message) and aborts init; write "
                   "reducescatter");
    } else if (c == "reduce" || c == "alltoallv" || c == "gather" || c == "scatter" ||
               c == "send" || c == "recv") {
      Bad(Kind::kUnsupported, "<algo>: coll=\"" + c +
                                  "\" is accepted by the runtime but not modelled by this checker "
                                  "(allgather, reducescatter, allreduce, broadcast, alltoall)");
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
    if (static_cast<std::int64_t>(g.s_chunks) * algo_->ngpus > kMaxCellsPerRound / 2) {
      Bad(Kind::kLimit, where + ": s_chunks too large for this checker", id);
      return;
    }
    g.present = true;
    current_scratch_ = g.s_chunks;
    std::vector<Block> read;
    for (int child : e.children) {
      const MscclXmlElement& t = doc_.elements[child];
      if (t.name != "tb") {
        Bad(Kind::kStructure,
            Where(id) + " line " + std::to_string(t.line) + ": unexpected element <" + t.name +
                "> in <gpu>",
            id);
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
        Bad(Kind::kStructure, Where(id, read[i].id) + ": duplicate thread block id", id,
            read[i].id);
      } else {
        slot[read[i].id] = i;
      }
    }
    for (int t = 0; t <= max_id; ++t) {
      if (slot[t] < 0) {
        Bad(Kind::kStructure, Where(id) + ": thread block " + std::to_string(t) + " is missing", id,
            t);
      }
    }
    if (max_id + 1 > lim_.max_tbs) {
      Bad(Kind::kLimit,
          Where(id) + ": " + std::to_string(max_id + 1) +
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
      Bad(Kind::kLimit,
          w + ": id not below MSCCL_MAX_NUM_THREAD_BLOCKS = " + std::to_string(lim_.max_tbs), gpu,
          b->id);
      return false;
    }
    for (auto [peer, name] : {std::pair<int, const char*>{b->send, "send"}, {b->recv, "recv"}}) {
      if (peer < -1 || peer >= algo_->ngpus || peer == gpu) {
        Bad(Kind::kBadValue,
            w + ": " + name + "=" + std::to_string(peer) + " is not -1 or another gpu's id", gpu,
            b->id);
        ok = false;
      }
    }
    if (b->chan < 0 || b->chan >= algo_->nchannels) {
      Bad(Kind::kBadValue,
          w + ": chan=" + std::to_string(b->chan) +
              " is not below nchannels=" + std::to_string(algo_->nchannels) +
              " (no connection is built for it; the block would hang)",
          gpu, b->id);
      ok = false;
    }
    int index = 0;
    for (int child : e.children) {
      const MscclXmlElement& s = doc_.elements[child];
      if (s.name != "step") {
        Bad(Kind::kStructure,
            w + " line " + std::to_string(s.line) + ": unexpected element <" + s.name + "> in <tb>",
            gpu, b->id);
        ok = false;
        continue;
      }
      Step st;
      if (ReadStep(s, gpu, *b, index, &st))
        b->steps.push_back(st);
      else
        ok = false;
      ++index;
    }
    if (index > lim_.max_steps) {
      Bad(Kind::kLimit,
          w + ": " + std::to_string(index) + " steps, more than MSCCL_MAX_NUM_STEPS = " +
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
      Bad(Kind::kMissingAttribute, where + ": attribute type of node step not found", gpu, b.id,
          index);
      ok = false;
    }
    const std::string* srcbuf = e.Find("srcbuf");
    const std::string* dstbuf = e.Find("dstbuf");
    for (auto [v, name] : {std::pair{srcbuf, "srcbuf"}, std::pair{dstbuf, "dstbuf"}}) {
      if (v == nullptr) {
        Bad(Kind::kMissingAttribute,
            where + ": attribute " + std::string(name) + " of node step not found", gpu, b.id,
            index);
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
      Bad(Kind::kBadValue,
          where + ": s=" + std::to_string(s) + " but it is step " + std::to_string(index) +
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
      Bad(Kind::kUnsupported, where + ": unsupported step type \"" + *type + "\"", gpu, b.id,
          index);
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
      Bad(Kind::kLimit,
          where + ": count (" + std::to_string(st->cnt) + ") must be positive and less than " +
              std::to_string(kMaxCount),
          gpu, b.id, index);
      ok = false;
    }
    if (info.send && b.send < 0) {
      Bad(Kind::kBadValue, where + ": " + info.name + " sends but the block has send=-1", gpu, b.id,
          index);
      ok = false;
    }
    if (info.recv && b.recv < 0) {
      Bad(Kind::kBadValue, where + ": " + info.name + " receives but the block has recv=-1", gpu,
          b.id, index);
      ok = false;
    }
    // The runtimes keep these fields narrower than the int the parser reads (microsoft/msccl
    // src/include/msccl.h; Azure/msccl-executor-nccl and ROCm/rccl
    // src/include/msccl/msccl_struct.h): dependentBid is int8_t, dependentStep, srcOffset and
    // dstOffset are int16_t. A value outside the field is stored truncated, without a message.
    for (auto [value, name, max] :
         {std::tuple{st->depid, "depid", kMaxDepid}, std::tuple{st->deps, "deps", kMaxInt16Field},
          std::tuple{st->srcoff, "srcoff", kMaxInt16Field},
          std::tuple{st->dstoff, "dstoff", kMaxInt16Field}}) {
      if (value > max) {
        Bad(Kind::kLimit,
            where + ": " + name + "=" + std::to_string(value) + " does not fit the runtime's " +
                (max == kMaxDepid ? "int8_t dependentBid" : "int16_t field") + " (at most " +
                std::to_string(max) + "); the runtime would store it truncated",
            gpu, b.id, index);
        ok = false;
      }
    }
    if (!ok) return false;
    if ((st->depid < 0) != (st->deps < 0) || st->depid < -1 || st->deps < -1) {
      Bad(Kind::kDependency,
          where + ": depid=" + std::to_string(st->depid) + " deps=" + std::to_string(st->deps) +
              " (both -1, or both a block and step)",
          gpu, b.id, index);
      ok = false;
    }
    if (!ok) return false;
    auto check_side = [&](char buf, int off, bool accessed, bool runtime_checked,
                          const char* side) {
      if (!accessed) return;
      const int size = RealSize(buf);
      if (off < 0 || static_cast<std::int64_t>(off) + st->cnt > size) {
        Bad(Kind::kBadValue,
            w + ": " + side + " " + std::string(1, buf) + "[" + std::to_string(off) + ".." +
                std::to_string(off + st->cnt) + ") is outside the " + BufferName(buf) + " of " +
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
          Bad(Kind::kConnector,
              Where(gid, b.id) + ": tb " + std::to_string(it->second) + " and tb " +
                  std::to_string(b.id) + " both send to gpu " + std::to_string(b.send) +
                  " on channel " + std::to_string(b.chan) +
                  " (one connector per channel, peer "
                  "and direction)",
              gid, b.id);
        }
        if (++sends_per_chan[b.chan] == kMaxBlocksPerChannelSide + 1) {
          Bad(Kind::kLimit,
              Where(gid) + ": more than 32 sending blocks on channel " + std::to_string(b.chan),
              gid, b.id);
        }
      }
      if (b.recv >= 0) {
        auto [it, fresh] = recv_conn.emplace(std::make_pair(b.chan, b.recv), b.id);
        if (!fresh) {
          Bad(Kind::kConnector,
              Where(gid, b.id) + ": tb " + std::to_string(it->second) + " and tb " +
                  std::to_string(b.id) + " both receive from gpu " + std::to_string(b.recv) +
                  " on channel " + std::to_string(b.chan) +
                  " (one connector per channel, peer "
                  "and direction)",
              gid, b.id);
        }
        if (++recvs_per_chan[b.chan] == kMaxBlocksPerChannelSide + 1) {
          Bad(Kind::kLimit,
              Where(gid) + ": more than 32 receiving blocks on channel " + std::to_string(b.chan),
              gid, b.id);
        }
      }
    }
    for (Block& b : g.tbs) {
      const int n = static_cast<int>(b.steps.size());
      for (int i = 0; i < n; ++i) {
        const Step& st = b.steps[i];
        auto w = [&] { return Where(gid, b.id, i); };  // built only for a report
        if (st.depid >= 0) {
          if (st.depid >= static_cast<int>(g.tbs.size())) {
            Bad(Kind::kDependency,
                w() + ": depends on tb " + std::to_string(st.depid) +
                    ", which does not exist on gpu " + std::to_string(gid) +
                    " (the runtime loads it and hangs)",
                gid, b.id, i);
          } else if (st.deps >= static_cast<int>(g.tbs[st.depid].steps.size())) {
            Bad(Kind::kDependency,
                w() + ": depends on step " + std::to_string(st.deps) + " of tb " +
                    std::to_string(st.depid) + ", which has " +
                    std::to_string(g.tbs[st.depid].steps.size()) + " steps",
                gid, b.id, i);
          } else if (!g.tbs[st.depid].steps[st.deps].hasdep) {
            // The waiter needs a flag >= deps; a later hasdep step of that block gives one
            // (docs/export.md "Step types, dependencies and flags"), only later. Without one it
            // spins forever.
            const auto& dsteps = g.tbs[st.depid].steps;
            int later = -1;
            for (int k = st.deps + 1; k < static_cast<int>(dsteps.size()) && later < 0; ++k) {
              if (dsteps[k].hasdep) later = k;
            }
            if (later < 0) {
              Bad(Kind::kDependency,
                  w() + ": depends on tb " + std::to_string(st.depid) + " step " +
                      std::to_string(st.deps) +
                      ", which has hasdep=0 and no later step of that block has hasdep=1 "
                      "(no flag is published: the waiter spins forever)",
                  gid, b.id, i);
            } else {
              result_->notes.push_back(w() + ": depends on tb " + std::to_string(st.depid) +
                                       " step " + std::to_string(st.deps) +
                                       ", which has hasdep=0; it is released only when step " +
                                       std::to_string(later) + " publishes");
            }
          } else if (st.depid == b.id && st.deps >= i) {
            Bad(Kind::kDependency, w() + ": depends on a later step of its own block", gid, b.id,
                i);
          }
        }
        if (st.type == StepType::kNop && st.depid >= 0 && i + 1 < n &&
            b.steps[i + 1].type != StepType::kNop && b.steps[i + 1].depid < 0) {
          Bad(Kind::kDependency,
              w() +
                  ": a nop dependency chain must end in a step with its own "
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
          while (end + 1 < n && members < kMaxReduceFusion &&
                 b.steps[end + 1].type == StepType::kRe && b.steps[end + 1].depid < 0 &&
                 b.steps[end + 1].srcbuf == first.srcbuf &&
                 b.steps[end + 1].dstbuf == first.dstbuf) {
            const Step& next = b.steps[end + 1];
            if (next.dstoff != first.dstoff || next.cnt != first.cnt) {
              Bad(Kind::kUnsupported,
                  Where(gid, b.id, end + 1) +
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
    auto first = std::lower_bound(pending_declared_.begin(), pending_declared_.end(), gid,
                                  [](const Pending& p, int g) { return p.gpu < g; });
    for (auto it = first; it != pending_declared_.end() && it->gpu == gid; ++it) {
      const Pending& p = *it;
      const int declared = p.buf == 'i' ? g.i_chunks : p.buf == 'o' ? g.o_chunks : g.s_chunks;
      if (p.off < -1 || p.off >= declared) {
        Bad(Kind::kBadValue,
            Where(gid, p.tb, p.step) + ": " + p.side + " offset " + std::to_string(p.off) +
                " is not below " + p.buf + "_chunks=" + std::to_string(declared) +
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

}  // namespace

void ReadMscclSchema(const MscclXmlDocument& doc, const ReplayOptions& options, Reporter* rep,
                     Algo* algo, ReplayResult* result) {
  SchemaReader(doc, options, rep, algo, result).Run();
}

}  // namespace collsynth::msccl
