#include "proofs_check/mscclpp_plan.h"

#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>

namespace collsynth::mscclpp_check {
namespace {

using nlohmann::json;

struct OpName_ {
  const char* name;
  OpType type;
};

constexpr OpName_ kModelled[] = {
    {"nop", OpType::kNop},
    {"barrier", OpType::kBarrier},
    {"put", OpType::kPut},
    {"get", OpType::kGet},
    {"copy", OpType::kCopy},
    {"signal", OpType::kSignal},
    {"wait", OpType::kWait},
    {"rlxsignal", OpType::kRelaxedSignal},
    {"rlxwait", OpType::kRelaxedWait},
    {"re", OpType::kReduce},
    {"res", OpType::kReduceSend},
    {"rre", OpType::kReadReduce},
    {"rres", OpType::kReadReduceSend},
    {"sem_acquire", OpType::kSemAcquire},
    {"sem_release", OpType::kSemRelease},
    {"pws", OpType::kPutWithSignal},
    {"pwsf", OpType::kPutWithSignalAndFlush},
    {"flush", OpType::kFlush},
};

// Names the loader accepts (getOpType) that this checker does not model: packet (LL)
// operations, NVLS switch operations, and pipeline loops (their unit_size slices a chunk by
// bytes, below the chunk cells of stage 3).
constexpr const char* kUnmodelled[] = {"ppkt",  "rppkt",  "respkt",    "cpkt",
                                       "upkt",  "repkt",  "recpkt",    "recspkt",
                                       "glres", "gstore", "gstorepkt", "pipeline"};

class Reader {
 public:
  Reader(Reporter* rep) : rep_(rep) {}

  void Bad(Kind kind, const std::string& where, const std::string& what, int gpu = -1, int tb = -1,
           int step = -1) {
    rep_->Add(ReplayStage::kSchema, kind, where + ": " + what, gpu, tb, step);
  }

  // The member `key` of object `obj`, or nullptr (reported as missing when `required`).
  const json* Get(const json& obj, const char* key, const std::string& where, bool required,
                  int gpu = -1, int tb = -1, int step = -1) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) {
        Bad(Kind::kMissingAttribute, where, std::string("missing \"") + key + "\"", gpu, tb, step);
      }
      return nullptr;
    }
    return &*it;
  }

  bool Int(const json& v, const std::string& where, std::int64_t lo, std::int64_t hi,
           std::int64_t* out, int gpu = -1, int tb = -1, int step = -1) {
    std::int64_t x = 0;
    if (v.is_number_unsigned()) {
      const std::uint64_t u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(hi)) {
        Bad(Kind::kBadValue, where, "is " + std::to_string(u) + ", above " + std::to_string(hi),
            gpu, tb, step);
        return false;
      }
      x = static_cast<std::int64_t>(u);
    } else if (v.is_number_integer()) {
      x = v.get<std::int64_t>();
    } else {
      Bad(Kind::kBadValue, where, "must be an integer, not " + std::string(v.type_name()), gpu, tb,
          step);
      return false;
    }
    if (x < lo || x > hi) {
      Bad(Kind::kBadValue, where,
          "is " + std::to_string(x) + ", outside [" + std::to_string(lo) + ", " +
              std::to_string(hi) + "]",
          gpu, tb, step);
      return false;
    }
    *out = x;
    return true;
  }

  bool Str(const json& v, const std::string& where, std::string* out, int gpu = -1, int tb = -1,
           int step = -1) {
    if (!v.is_string()) {
      Bad(Kind::kBadValue, where, "must be a string, not " + std::string(v.type_name()), gpu, tb,
          step);
      return false;
    }
    *out = v.get<std::string>();
    return true;
  }

  bool Type(const json& v, json::value_t t, const char* name, const std::string& where,
            int gpu = -1, int tb = -1, int step = -1) {
    if (v.type() == t) return true;
    Bad(Kind::kBadValue, where, std::string("must be ") + name + ", not " + v.type_name(), gpu, tb,
        step);
    return false;
  }
  bool Array(const json& v, const std::string& where, int gpu = -1, int tb = -1, int step = -1) {
    return Type(v, json::value_t::array, "an array", where, gpu, tb, step);
  }
  bool Object(const json& v, const std::string& where, int gpu = -1, int tb = -1, int step = -1) {
    return Type(v, json::value_t::object, "an object", where, gpu, tb, step);
  }

 private:
  Reporter* rep_;
};

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s.substr(0, 40)) out += (c >= 32 && c < 127) ? c : '?';
  return out + (s.size() > 40 ? "...\"" : "\"");
}

// Per-thread-block resolution tables built from the block's "channels" and
// "remote_buffer_refs": the block's k-th memory channel is the GPU's entry memory[k]; its
// k-th memory remote buffer is the GPU's remote_buffers[remote[k]].
struct BlockTables {
  std::vector<int> memory, port;
  std::vector<int> remote_memory, remote_port;
};

struct RemoteBuffer {
  int rank = 0;
  char type = 'i';
  bool memory = false, port = false;
};

class PlanReader {
 public:
  PlanReader(Reporter* rep, Plan* plan, ReplayResult* result)
      : r_(rep), rep_(rep), plan_(plan), result_(result) {}

  void Read(const json& doc) {
    if (!r_.Object(doc, "plan")) return;
    std::string s;
    if (const json* v = r_.Get(doc, "name", "plan", true)) r_.Str(*v, "plan.name", &s);
    bool coll_ok = false;
    if (const json* v = r_.Get(doc, "collective", "plan", true)) {
      if (r_.Str(*v, "plan.collective", &s)) {
        result_->coll = s;
        static const std::map<std::string, Coll> kColls = {{"allgather", Coll::kAllgather},
                                                           {"reducescatter", Coll::kReduceScatter},
                                                           {"allreduce", Coll::kAllreduce},
                                                           {"alltoall", Coll::kAlltoall}};
        auto it = kColls.find(s);
        if (it == kColls.end()) {
          r_.Bad(Kind::kUnsupported, "plan.collective",
                 Quote(s) + " is not modelled (allgather, reducescatter, allreduce, alltoall)");
        } else {
          plan_->coll = it->second;
          coll_ok = true;
        }
      }
    }
    if (const json* v = r_.Get(doc, "protocol", "plan", true)) {
      if (r_.Str(*v, "plan.protocol", &s)) {
        result_->proto = s;
        plan_->proto = s;
        if (s == "LL") {
          r_.Bad(Kind::kUnsupported, "plan.protocol",
                 "\"LL\" (packet mode: scratch holds data and flag words) is not modelled");
        } else if (s != "Simple") {
          result_->notes.push_back("protocol " + Quote(s) +
                                   " is not \"LL\", so the loader runs it as Simple");
        }
      }
    }
    if (const json* v = r_.Get(doc, "inplace", "plan", true)) {
      if (r_.Type(*v, json::value_t::boolean, "a boolean", "plan.inplace")) {
        plan_->inplace = v->get<bool>();
        result_->modes = {plan_->inplace ? "inplace" : "outofplace"};
      }
    }
    OptionalChecks(doc);
    const json* gpus = r_.Get(doc, "gpus", "plan", true);
    if (gpus == nullptr || !r_.Array(*gpus, "plan.gpus")) return;
    if (gpus->empty() || gpus->size() > static_cast<std::size_t>(kMaxGpus)) {
      r_.Bad(gpus->empty() ? Kind::kStructure : Kind::kLimit, "plan.gpus",
             "has " + std::to_string(gpus->size()) + " entries (this checker: 1.." +
                 std::to_string(kMaxGpus) + ")");
      return;
    }
    plan_->ngpus = static_cast<int>(gpus->size());
    result_->ngpus = plan_->ngpus;
    plan_->gpus.assign(plan_->ngpus, Gpu());
    remote_.assign(plan_->ngpus, {});
    // Pass 1: chunk counts, channels and remote buffers of every GPU (ops refer to peers').
    std::vector<bool> gpu_ok(plan_->ngpus, false);
    for (int g = 0; g < plan_->ngpus; ++g) gpu_ok[g] = ReadGpuHeader((*gpus)[g], g);
    if (rep_->total() > 0) return;
    if (coll_ok) CheckChunkGeometry();
    int total_blocks = 0;
    for (int g = 0; g < plan_->ngpus; ++g) {
      if (gpu_ok[g]) ReadBlocks((*gpus)[g], g, &total_blocks);
    }
    if (total_blocks > kMaxBlocksTotal) {
      r_.Bad(Kind::kLimit, "plan.gpus",
             std::to_string(total_blocks) + " thread blocks in all (this checker's limit: " +
                 std::to_string(kMaxBlocksTotal) + ")");
    }
    if (accesses_ * plan_->slices > kMaxCellAccesses) {
      r_.Bad(Kind::kLimit, "plan.gpus",
             "the operations touch " + std::to_string(accesses_ * plan_->slices) +
                 " chunk parts in all (this checker's limit: " + std::to_string(kMaxCellAccesses) +
                 ")");
    }
    if (cells_ * plan_->slices > kMaxCellsTotal) {
      r_.Bad(Kind::kLimit, "plan.gpus",
             "the buffers hold " + std::to_string(cells_) + " chunks cut into " +
                 std::to_string(plan_->slices) + " parts (this checker's limit: " +
                 std::to_string(kMaxCellsTotal) + " parts in all)");
    }
    if (rep_->total() == 0) {
      const Gpu& g0 = plan_->gpus[0];
      result_->nchunksperloop = g0.in_chunks != 0 ? g0.in_chunks : g0.out_chunks;
    }
  }

 private:
  void OptionalChecks(const json& doc) {
    std::int64_t x = 0;
    if (const json* v = r_.Get(doc, "num_threads_per_block", "plan", false)) {
      if (r_.Int(*v, "plan.num_threads_per_block", 1, 1024, &x)) threads_ = static_cast<int>(x);
    }
    std::int64_t align = 16;
    if (const json* v = r_.Get(doc, "buffer_alignment", "plan", false)) {
      r_.Int(*v, "plan.buffer_alignment", 1, INT32_MAX, &align);
    }
    for (const char* key : {"use_double_scratch_buffer", "reuse_resources"}) {
      if (const json* v = r_.Get(doc, key, "plan", false)) {
        if (r_.Type(*v, json::value_t::boolean, "a boolean", std::string("plan.") + key) &&
            std::string(key) == "reuse_resources" && v->get<bool>()) {
          result_->notes.push_back(
              "reuse_resources: the runtime wraps scratch chunks into a 64 MiB scratch buffer "
              "for large messages; the replay models scratch without wrapping");
        }
      }
    }
    std::uint64_t lo = 0, hi = UINT64_MAX;
    bool have_lo = true, have_hi = true;
    for (const char* key : {"min_message_size", "max_message_size"}) {
      if (const json* v = r_.Get(doc, key, "plan", false)) {
        const bool ok =
            v->is_number_unsigned() || (v->is_number_integer() && v->get<std::int64_t>() >= 0);
        if (!ok) {
          r_.Bad(Kind::kBadValue, std::string("plan.") + key,
                 "must be a non-negative integer, not " + std::string(v->type_name()));
          (std::string(key) == "min_message_size" ? have_lo : have_hi) = false;
        } else {
          (std::string(key) == "min_message_size" ? lo : hi) = v->get<std::uint64_t>();
        }
      }
    }
    if (have_lo && have_hi && lo > hi) {
      r_.Bad(Kind::kBadValue, "plan.min_message_size",
             std::to_string(lo) + " is above max_message_size " + std::to_string(hi) +
                 ": no message size selects this plan");
    }
  }

  bool ReadGpuHeader(const json& gj, int g) {
    const std::string where = "gpus[" + std::to_string(g) + "]";
    if (!r_.Object(gj, where, g)) return false;
    Gpu& gpu = plan_->gpus[g];
    bool ok = true;
    std::int64_t x = 0;
    if (const json* v = r_.Get(gj, "id", where, true, g)) {
      if (r_.Int(*v, where + ".id", INT64_MIN, INT64_MAX, &x, g) && x != g) {
        r_.Bad(Kind::kStructure, where + ".id",
               "is " + std::to_string(x) +
                   ", but gpus[r].id must equal r (the loader: \"GPU "
                   "rank does not match\")",
               g);
      }
    } else {
      ok = false;
    }
    const std::pair<const char*, int*> counts[] = {{"input_chunks", &gpu.in_chunks},
                                                   {"output_chunks", &gpu.out_chunks},
                                                   {"scratch_chunks", &gpu.s_chunks}};
    for (const auto& [key, dst] : counts) {
      const json* v = r_.Get(gj, key, where, true, g);
      if (v == nullptr || !r_.Int(*v, where + "." + key, 0, kMaxChunksPerBuffer, &x, g)) {
        ok = false;
        continue;
      }
      *dst = static_cast<int>(x);
    }
    cells_ += static_cast<std::int64_t>(gpu.in_chunks) + gpu.out_chunks + gpu.s_chunks;
    if (cells_ > kMaxCellsTotal) {
      r_.Bad(Kind::kLimit, where,
             "the buffers hold more than " + std::to_string(kMaxCellsTotal) +
                 " chunks in all (this checker's limit)",
             g);
      return false;
    }
    if (const json* chans = r_.Get(gj, "channels", where, true, g)) {
      if (r_.Array(*chans, where + ".channels", g)) {
        for (std::size_t c = 0; c < chans->size(); ++c) ok &= ReadChannel((*chans)[c], g, c);
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    if (const json* rbs = r_.Get(gj, "remote_buffers", where, true, g)) {
      if (r_.Array(*rbs, where + ".remote_buffers", g)) {
        for (std::size_t k = 0; k < rbs->size(); ++k) ok &= ReadRemoteBuffer((*rbs)[k], g, k);
      } else {
        ok = false;
      }
    } else {
      ok = false;
    }
    if (const json* sems = r_.Get(gj, "semaphores", where, false, g)) {
      if (r_.Array(*sems, where + ".semaphores", g)) {
        for (std::size_t k = 0; k < sems->size(); ++k) {
          const std::string w = where + ".semaphores[" + std::to_string(k) + "]";
          if (!r_.Object((*sems)[k], w, g)) continue;
          if (const json* v = r_.Get((*sems)[k], "init_value", w, true, g)) {
            if (r_.Int(*v, w + ".init_value", INT32_MIN, INT32_MAX, &x, g)) {
              gpu.sem_init.push_back(static_cast<int>(x));
            }
          }
        }
      }
    }
    return ok;
  }

  bool ReadChannel(const json& cj, int g, std::size_t c) {
    const std::string where = "gpus[" + std::to_string(g) + "].channels[" + std::to_string(c) + "]";
    if (!r_.Object(cj, where, g)) return false;
    std::string type;
    const json* t = r_.Get(cj, "channel_type", where, true, g);
    if (t == nullptr || !r_.Str(*t, where + ".channel_type", &type, g)) return false;
    if (type == "switch" || type == "none") {
      r_.Bad(Kind::kUnsupported, where + ".channel_type",
             Quote(type) + " channels are not modelled (memory and port only)", g);
      return false;
    }
    if (type != "memory" && type != "port") {
      r_.Bad(Kind::kBadValue, where + ".channel_type",
             Quote(type) + " is not a channel type (memory, port, switch, none)", g);
      return false;
    }
    const json* peers = r_.Get(cj, "connected_to", where, true, g);
    if (peers == nullptr || !r_.Array(*peers, where + ".connected_to", g)) return false;
    bool ok = true;
    for (std::size_t k = 0; k < peers->size(); ++k) {
      std::int64_t p = 0;
      const std::string w = where + ".connected_to[" + std::to_string(k) + "]";
      if (!r_.Int((*peers)[k], w, 0, plan_->ngpus - 1, &p, g)) {
        ok = false;
        continue;
      }
      if (p == g) {
        r_.Bad(Kind::kBadValue, w, "a gpu cannot connect to itself", g);
        ok = false;
        continue;
      }
      (type == "memory" ? plan_->gpus[g].memory_peer : plan_->gpus[g].port_peer)
          .push_back(static_cast<int>(p));
    }
    return ok;
  }

  bool ReadRemoteBuffer(const json& bj, int g, std::size_t k) {
    const std::string where =
        "gpus[" + std::to_string(g) + "].remote_buffers[" + std::to_string(k) + "]";
    if (!r_.Object(bj, where, g)) return false;
    RemoteBuffer rb;
    std::int64_t x = 0;
    const json* rank = r_.Get(bj, "rank", where, true, g);
    if (rank == nullptr || !r_.Int(*rank, where + ".rank", 0, plan_->ngpus - 1, &x, g)) {
      return false;
    }
    rb.rank = static_cast<int>(x);
    std::string s;
    const json* type = r_.Get(bj, "type", where, true, g);
    if (type == nullptr || !BufferType(*type, where + ".type", g, &rb.type)) return false;
    const json* access = r_.Get(bj, "access_channel_types", where, true, g);
    if (access == nullptr || !r_.Array(*access, where + ".access_channel_types", g)) return false;
    for (std::size_t i = 0; i < access->size(); ++i) {
      const std::string w = where + ".access_channel_types[" + std::to_string(i) + "]";
      if (!r_.Str((*access)[i], w, &s, g)) return false;
      if (s == "memory") {
        rb.memory = true;
      } else if (s == "port") {
        rb.port = true;
      } else {
        r_.Bad(s == "switch" || s == "none" ? Kind::kUnsupported : Kind::kBadValue, w,
               Quote(s) + " is not a modelled access channel type (memory, port)", g);
        return false;
      }
    }
    remote_[g].push_back(rb);
    return true;
  }

  bool BufferType(const json& v, const std::string& where, int g, char* out, int tb = -1,
                  int step = -1) {
    std::string s;
    if (!r_.Str(v, where, &s, g, tb, step)) return false;
    if (s != "i" && s != "o" && s != "s") {
      r_.Bad(Kind::kBadValue, where, Quote(s) + " is not a buffer type (i, o, s)", g, tb, step);
      return false;
    }
    *out = s[0];
    return true;
  }

  int Chunks(int rank, char type) const {
    const Gpu& gpu = plan_->gpus[rank];
    return type == 'i' ? gpu.in_chunks : type == 'o' ? gpu.out_chunks : gpu.s_chunks;
  }

  // The loader's chunk geometry: one chunk size per rank (inputSize / input_chunks equals
  // outputSize / output_chunks), which with the collective's buffer sizes fixes the ratio of
  // the two counts. This checker also needs the same counts on every rank (chunk cells of
  // one size across ranks).
  void CheckChunkGeometry() {
    const int n = plan_->ngpus;
    for (int g = 0; g < n; ++g) {
      const Gpu& gpu = plan_->gpus[g];
      const std::string where = "gpus[" + std::to_string(g) + "]";
      if (gpu.in_chunks == 0 || gpu.out_chunks == 0) {
        r_.Bad(Kind::kBadValue, where,
               "input_chunks and output_chunks must be nonzero for " + result_->coll +
                   " (the loader divides the message size by both)",
               g);
        continue;
      }
      const std::int64_t i = gpu.in_chunks, o = gpu.out_chunks;
      bool ok = true;
      std::string rule;
      switch (plan_->coll) {
        case Coll::kAllgather:
          ok = o == i * n;
          rule = "output_chunks = ngpus * input_chunks (output is ngpus times the input)";
          break;
        case Coll::kReduceScatter:
          ok = i == o * n;
          rule = "input_chunks = ngpus * output_chunks (input is ngpus times the output)";
          break;
        case Coll::kAllreduce:
          ok = i == o;
          rule = "input_chunks = output_chunks (input and output have one size)";
          break;
        case Coll::kAlltoall:
          // One size, and (this checker) N whole blocks of chunks: block s of the output is
          // named by its chunks (the DSL's AllToAll, python/mscclpp/language/collectives.py).
          ok = i == o && i % n == 0;
          rule = "input_chunks = output_chunks, a multiple of ngpus (N blocks of one size)";
          break;
      }
      if (!ok) {
        r_.Bad(Kind::kBadValue, where,
               "input_chunks " + std::to_string(i) + " and output_chunks " + std::to_string(o) +
                   " give chunks of two sizes (the loader: \"Size per chunks inconsistent\"); " +
                   result_->coll + " needs " + rule,
               g);
        continue;
      }
      if (g > 0 && (i != plan_->gpus[0].in_chunks || o != plan_->gpus[0].out_chunks)) {
        r_.Bad(Kind::kUnsupported, where,
               "chunk counts differ from gpus[0]'s (chunks of different sizes on different "
               "ranks are not modelled)",
               g);
      }
    }
  }

  void ReadBlocks(const json& gj, int g, int* total_blocks) {
    const std::string where = "gpus[" + std::to_string(g) + "]";
    const json* tbs = r_.Get(gj, "threadblocks", where, true, g);
    if (tbs == nullptr || !r_.Array(*tbs, where + ".threadblocks", g)) return;
    if (tbs->size() > static_cast<std::size_t>(kMaxBlocksPerGpu)) {
      r_.Bad(Kind::kLimit, where + ".threadblocks",
             "has " + std::to_string(tbs->size()) + " blocks (this checker's limit: " +
                 std::to_string(kMaxBlocksPerGpu) + "; all blocks of a GPU must be resident)",
             g);
      return;
    }
    *total_blocks += static_cast<int>(tbs->size());
    Gpu& gpu = plan_->gpus[g];
    gpu.tbs.assign(tbs->size(), Block());
    barrier_n_.clear();
    for (std::size_t b = 0; b < tbs->size(); ++b) ReadBlock((*tbs)[b], g, static_cast<int>(b));
  }

  void ReadBlock(const json& bj, int g, int b) {
    const std::string where =
        "gpus[" + std::to_string(g) + "].threadblocks[" + std::to_string(b) + "]";
    if (!r_.Object(bj, where, g, b)) return;
    std::int64_t x = 0;
    if (const json* v = r_.Get(bj, "id", where, true, g, b)) {
      if (r_.Int(*v, where + ".id", INT64_MIN, INT64_MAX, &x, g, b) && x != b) {
        r_.Bad(Kind::kStructure, where + ".id",
               "is " + std::to_string(x) +
                   ", but a block's id must equal its index (the loader pushes operations in "
                   "list order and channels by id)",
               g, b);
      }
    }
    BlockTables t;
    const Gpu& gpu = plan_->gpus[g];
    if (const json* chans = r_.Get(bj, "channels", where, true, g, b)) {
      if (r_.Array(*chans, where + ".channels", g, b)) {
        for (std::size_t c = 0; c < chans->size(); ++c) {
          const std::string w = where + ".channels[" + std::to_string(c) + "]";
          const json& cj = (*chans)[c];
          if (!r_.Object(cj, w, g, b)) continue;
          std::string type;
          const json* tj = r_.Get(cj, "channel_type", w, true, g, b);
          if (tj == nullptr || !r_.Str(*tj, w + ".channel_type", &type, g, b)) continue;
          if (type != "memory" && type != "port") {
            r_.Bad(type == "switch" || type == "none" ? Kind::kUnsupported : Kind::kBadValue,
                   w + ".channel_type", Quote(type) + " is not a modelled channel type", g, b);
            continue;
          }
          if (const json* bt = r_.Get(cj, "buff", w, false, g, b)) {
            char unused = 0;
            BufferType(*bt, w + ".buff", g, &unused, b);
          }
          const std::vector<int>& entries = type == "memory" ? gpu.memory_peer : gpu.port_peer;
          const json* ids = r_.Get(cj, "channel_ids", w, true, g, b);
          if (ids == nullptr || !r_.Array(*ids, w + ".channel_ids", g, b)) continue;
          for (std::size_t k = 0; k < ids->size(); ++k) {
            const std::string wk = w + ".channel_ids[" + std::to_string(k) + "]";
            if (entries.empty()) {
              r_.Bad(Kind::kBadValue, wk,
                     "gpu " + std::to_string(g) + " has no " + type + " channel", g, b);
              break;
            }
            if (r_.Int((*ids)[k], wk, 0, static_cast<std::int64_t>(entries.size()) - 1, &x, g, b)) {
              (type == "memory" ? t.memory : t.port).push_back(static_cast<int>(x));
            }
          }
        }
      }
    }
    if (const json* refs = r_.Get(bj, "remote_buffer_refs", where, false, g, b)) {
      if (r_.Array(*refs, where + ".remote_buffer_refs", g, b)) {
        for (std::size_t c = 0; c < refs->size(); ++c) {
          const std::string w = where + ".remote_buffer_refs[" + std::to_string(c) + "]";
          const json& rj = (*refs)[c];
          if (!r_.Object(rj, w, g, b)) continue;
          std::string type;
          const json* tj = r_.Get(rj, "access_channel_type", w, true, g, b);
          if (tj == nullptr || !r_.Str(*tj, w + ".access_channel_type", &type, g, b)) continue;
          if (type != "memory" && type != "port") {
            r_.Bad(type == "switch" || type == "none" ? Kind::kUnsupported : Kind::kBadValue,
                   w + ".access_channel_type", Quote(type) + " is not a modelled channel type", g,
                   b);
            continue;
          }
          const json* ids = r_.Get(rj, "remote_buffer_ids", w, true, g, b);
          if (ids == nullptr || !r_.Array(*ids, w + ".remote_buffer_ids", g, b)) continue;
          for (std::size_t k = 0; k < ids->size(); ++k) {
            const std::string wk = w + ".remote_buffer_ids[" + std::to_string(k) + "]";
            if (remote_[g].empty()) {
              r_.Bad(Kind::kBadValue, wk, "gpu " + std::to_string(g) + " has no remote buffers", g,
                     b);
              break;
            }
            if (!r_.Int((*ids)[k], wk, 0, static_cast<std::int64_t>(remote_[g].size()) - 1, &x, g,
                        b)) {
              continue;
            }
            const RemoteBuffer& rb = remote_[g][x];
            if (!(type == "memory" ? rb.memory : rb.port)) {
              r_.Bad(Kind::kBadValue, wk,
                     "remote buffer " + std::to_string(x) + " does not list \"" + type +
                         "\" in its access_channel_types",
                     g, b);
              continue;
            }
            (type == "memory" ? t.remote_memory : t.remote_port).push_back(static_cast<int>(x));
          }
        }
      }
    }
    const std::pair<const char*, std::size_t> limits[] = {
        {"memory channels", t.memory.size()},
        {"port channels", t.port.size()},
        {"memory remote buffers", t.remote_memory.size()},
        {"port remote buffers", t.remote_port.size()}};
    for (const auto& [what, count] : limits) {
      if (count > static_cast<std::size_t>(kMaxChannels)) {
        r_.Bad(Kind::kLimit, where,
               "has " + std::to_string(count) + " " + what + " (the executor holds " +
                   std::to_string(kMaxChannels) + " per thread block)",
               g, b);
      }
    }
    const json* ops = r_.Get(bj, "ops", where, true, g, b);
    if (ops == nullptr || !r_.Array(*ops, where + ".ops", g, b)) return;
    std::size_t launched = ops->size();  // the loader flattens pipeline inner ops
    for (const json& op : *ops) {
      if (op.is_object() && op.contains("ops") && op["ops"].is_array())
        launched += op["ops"].size();
    }
    if (launched > static_cast<std::size_t>(kMaxOperations)) {
      r_.Bad(Kind::kLimit, where,
             "launches " + std::to_string(launched) +
                 " operations (counting nops and pipeline inner ops); the executor holds " +
                 std::to_string(kMaxOperations) + " per thread block",
             g, b);
      return;
    }
    Block& block = plan_->gpus[g].tbs[b];
    for (std::size_t k = 0; k < ops->size(); ++k) {
      Op op;
      if (ReadOp((*ops)[k], g, b, static_cast<int>(k), t, &op)) block.ops.push_back(std::move(op));
    }
  }

  bool ReadBufRef(const json& v, const std::string& where, int g, int b, int step,
                  const std::vector<int>& remote_table, BufRef* out) {
    if (!r_.Object(v, where, g, b, step)) return false;
    std::int64_t x = 0;
    const bool local = v.contains("type");
    const bool remote = v.contains("buffer_id");
    if (v.contains("switch_channel_id")) {
      r_.Bad(Kind::kUnsupported, where, "switch (NVLS) buffers are not modelled", g, b, step);
      return false;
    }
    if (local == remote) {
      r_.Bad(local ? Kind::kBadValue : Kind::kMissingAttribute, where,
             local ? "has both \"type\" and \"buffer_id\"" : "needs \"type\" or \"buffer_id\"", g,
             b, step);
      return false;
    }
    if (local) {
      out->rank = g;
      out->remote = false;
      if (!BufferType(v["type"], where + ".type", g, &out->type, b, step)) return false;
    } else {
      if (remote_table.empty()) {
        r_.Bad(Kind::kBadValue, where + ".buffer_id",
               "the block has no remote buffers of the operation's channel type", g, b, step);
        return false;
      }
      if (!r_.Int(v["buffer_id"], where + ".buffer_id", 0,
                  static_cast<std::int64_t>(remote_table.size()) - 1, &x, g, b, step)) {
        return false;
      }
      const RemoteBuffer& rb = remote_[g][remote_table[x]];
      out->rank = rb.rank;
      out->type = rb.type;
      out->remote = true;
    }
    const json* idx = r_.Get(v, "index", where, true, g, b, step);
    const json* size = r_.Get(v, "size", where, true, g, b, step);
    if (idx == nullptr || size == nullptr) return false;
    const int chunks = Chunks(out->rank, out->type);
    std::int64_t i = 0, s = 0;
    if (!r_.Int(*idx, where + ".index", 0, UINT32_MAX, &i, g, b, step) ||
        !r_.Int(*size, where + ".size", 0, UINT32_MAX, &s, g, b, step)) {
      return false;
    }
    if (i + s > chunks || (s == 0 && i >= chunks)) {
      r_.Bad(Kind::kBadValue, where,
             "chunks [" + std::to_string(i) + ", " + std::to_string(i + s) + ") of " +
                 std::string(1, out->type) + " on gpu " + std::to_string(out->rank) +
                 " are outside its " + std::to_string(chunks) + " chunks",
             g, b, step);
      return false;
    }
    out->index = static_cast<int>(i);
    out->size = static_cast<int>(s);
    return true;
  }

  // One operation, in the loader's order: its name, its group of blocks, its channel type,
  // channels, buffers and semaphores, then what the kernel needs of it (threads, operands).
  bool ReadOp(const json& oj, int g, int b, int step, const BlockTables& t, Op* op) {
    const std::string where = "gpus[" + std::to_string(g) + "].threadblocks[" + std::to_string(b) +
                              "].ops[" + std::to_string(step) + "]";
    if (!r_.Object(oj, where, g, b, step)) return false;
    bool has_ctype = false;
    return ReadOpName(oj, where, g, b, step, op) && ReadGroupInfo(oj, where, g, b, step, op) &&
           ReadChannelType(oj, where, g, b, step, op, &has_ctype) &&
           ReadChannelIds(oj, where, g, b, step, t, op) &&
           ReadBuffers(oj, where, g, b, step, t, has_ctype, op) &&
           ReadSemaphores(oj, where, g, b, step, op) && CheckPortOp(where, g, b, step, *op) &&
           CheckThreads(where, g, b, step, *op) && CheckOpShape(oj, where, g, b, step, op);
  }

  // "name": a modelled operation (kModelled), else kUnsupported or kBadValue.
  bool ReadOpName(const json& oj, const std::string& where, int g, int b, int step, Op* op) {
    std::string name;
    const json* nj = r_.Get(oj, "name", where, true, g, b, step);
    if (nj == nullptr || !r_.Str(*nj, where + ".name", &name, g, b, step)) return false;
    bool found = false;
    for (const OpName_& m : kModelled) {
      if (name == m.name) {
        op->type = m.type;
        found = true;
      }
    }
    if (!found) {
      for (const char* u : kUnmodelled) {
        if (name == u) {
          r_.Bad(Kind::kUnsupported, where + ".name",
                 Quote(name) + " is an operation of the runtime this checker does not model", g, b,
                 step);
          return false;
        }
      }
      r_.Bad(Kind::kBadValue, where + ".name",
             Quote(name) + " is not an operation name (the loader: \"Invalid operation type\")", g,
             b, step);
      return false;
    }
    return true;
  }

  // "tbg_info" (optional); pipeline loops ("iter_context", inner "ops") are refused.
  bool ReadGroupInfo(const json& oj, const std::string& where, int g, int b, int step, Op* op) {
    if (const json* tbg = r_.Get(oj, "tbg_info", where, false, g, b, step)) {
      // One operation split over a group of blocks: this block does part tb_id of tbg_size
      // equal parts of every operand's range (calcOffset in execution_plan.cc).
      if (!r_.Object(*tbg, where + ".tbg_info", g, b, step)) return false;
      const json* id = r_.Get(*tbg, "tb_id", where + ".tbg_info", true, g, b, step);
      const json* size = r_.Get(*tbg, "tbg_size", where + ".tbg_info", true, g, b, step);
      std::int64_t parts = 0, part = 0;
      if (id == nullptr || size == nullptr ||
          !r_.Int(*size, where + ".tbg_info.tbg_size", 1, kMaxSlices, &parts, g, b, step) ||
          !r_.Int(*id, where + ".tbg_info.tb_id", 0, parts - 1, &part, g, b, step)) {
        return false;
      }
      op->part = static_cast<int>(part);
      op->parts = static_cast<int>(parts);
      const std::int64_t lcm = std::lcm<std::int64_t>(plan_->slices, parts);
      if (lcm > kMaxSlices) {
        r_.Bad(Kind::kLimit, where + ".tbg_info",
               "the group sizes of the plan need chunks cut into " + std::to_string(lcm) +
                   " parts (this checker's limit: " + std::to_string(kMaxSlices) + ")",
               g, b, step);
        return false;
      }
      plan_->slices = static_cast<int>(lcm);
    }
    if (oj.contains("iter_context") || oj.contains("ops")) {
      r_.Bad(Kind::kUnsupported, where, "pipeline loops are not modelled", g, b, step);
      return false;
    }
    return true;
  }

  // "channel_type" (optional): memory or port.
  bool ReadChannelType(const json& oj, const std::string& where, int g, int b, int step, Op* op,
                       bool* has_ctype) {
    std::string ctype;
    if (const json* c = r_.Get(oj, "channel_type", where, false, g, b, step)) {
      if (!r_.Str(*c, where + ".channel_type", &ctype, g, b, step)) return false;
      *has_ctype = true;
      if (ctype == "switch" || ctype == "none") {
        r_.Bad(Kind::kUnsupported, where + ".channel_type",
               Quote(ctype) + " operations are not modelled (memory and port channels only)", g, b,
               step);
        return false;
      }
      op->port = ctype == "port";
      if (ctype != "memory" && ctype != "port") {
        r_.Bad(Kind::kBadValue, where + ".channel_type",
               Quote(ctype) + " is not a channel type (the loader: \"Invalid channel type\")", g, b,
               step);
        return false;
      }
    }
    return true;
  }

  // "channel_ids" (optional): indices into the block's channels of the operation's type.
  bool ReadChannelIds(const json& oj, const std::string& where, int g, int b, int step,
                      const BlockTables& t, Op* op) {
    std::int64_t x = 0;
    if (const json* ids = r_.Get(oj, "channel_ids", where, false, g, b, step)) {
      if (!r_.Array(*ids, where + ".channel_ids", g, b, step)) return false;
      if (ids->size() > static_cast<std::size_t>(kMaxChannelsPerOp)) {
        r_.Bad(Kind::kLimit, where + ".channel_ids",
               "has " + std::to_string(ids->size()) + " channels (the executor holds " +
                   std::to_string(kMaxChannelsPerOp) + " per operation)",
               g, b, step);
        return false;
      }
      // The kernel indexes the block's channels of the operation's channel_type.
      const std::vector<int>& table = op->port ? t.port : t.memory;
      for (std::size_t k = 0; k < ids->size(); ++k) {
        const std::string wk = where + ".channel_ids[" + std::to_string(k) + "]";
        if (table.empty()) {
          r_.Bad(Kind::kBadValue, wk,
                 std::string("the block lists no ") + (op->port ? "port" : "memory") + " channels",
                 g, b, step);
          return false;
        }
        if (!r_.Int((*ids)[k], wk, 0, static_cast<std::int64_t>(table.size()) - 1, &x, g, b,
                    step)) {
          return false;
        }
        op->channels.push_back(table[x]);
      }
    }
    return true;
  }

  // "src_buff" and "dst_buff" (optional), each at most kMaxBuffersPerOp references.
  bool ReadBuffers(const json& oj, const std::string& where, int g, int b, int step,
                   const BlockTables& t, bool has_ctype, Op* op) {
    for (const char* side : {"src_buff", "dst_buff"}) {
      const json* arr = r_.Get(oj, side, where, false, g, b, step);
      if (arr == nullptr) continue;
      if (!r_.Array(*arr, where + "." + side, g, b, step)) return false;
      if (arr->size() > static_cast<std::size_t>(kMaxBuffersPerOp)) {
        r_.Bad(Kind::kLimit, where + "." + side,
               "has " + std::to_string(arr->size()) + " buffers (the executor holds " +
                   std::to_string(kMaxBuffersPerOp) + " per operation)",
               g, b, step);
        return false;
      }
      std::vector<BufRef>& refs = std::string(side) == "src_buff" ? op->src : op->dst;
      for (std::size_t k = 0; k < arr->size(); ++k) {
        BufRef ref;
        if (!ReadBufRef((*arr)[k], where + "." + side + "[" + std::to_string(k) + "]", g, b, step,
                        op->port ? t.remote_port : t.remote_memory, &ref)) {
          return false;
        }
        if (ref.remote && !has_ctype) {
          r_.Bad(Kind::kMissingAttribute, where,
                 "a remote buffer needs \"channel_type\" (the loader resolves buffer_id by it)", g,
                 b, step);
          return false;
        }
        refs.push_back(ref);
        accesses_ += ref.size;
      }
    }
    return true;
  }

  // "semaphore_ids" (optional): indices into the GPU's semaphores.
  bool ReadSemaphores(const json& oj, const std::string& where, int g, int b, int step, Op* op) {
    std::int64_t x = 0;
    if (const json* sems = r_.Get(oj, "semaphore_ids", where, false, g, b, step)) {
      if (!r_.Array(*sems, where + ".semaphore_ids", g, b, step)) return false;
      if (sems->size() > static_cast<std::size_t>(kMaxSemaphoresPerOp)) {
        r_.Bad(Kind::kLimit, where + ".semaphore_ids",
               "has " + std::to_string(sems->size()) + " semaphores (the executor holds " +
                   std::to_string(kMaxSemaphoresPerOp) + " per operation)",
               g, b, step);
        return false;
      }
      const int nsem = static_cast<int>(plan_->gpus[g].sem_init.size());
      for (std::size_t k = 0; k < sems->size(); ++k) {
        const std::string wk = where + ".semaphore_ids[" + std::to_string(k) + "]";
        if (nsem == 0) {
          r_.Bad(Kind::kBadValue, wk, "gpu " + std::to_string(g) + " declares no semaphores", g, b,
                 step);
          return false;
        }
        if (!r_.Int((*sems)[k], wk, 0, nsem - 1, &x, g, b, step)) return false;
        op->sems.push_back(static_cast<int>(x));
      }
    }
    return true;
  }

  // Get, reduce-send and read-reduce read remote buffers by pointer: memory channels only.
  bool CheckPortOp(const std::string& where, int g, int b, int step, const Op& op) {
    if (op.port) {
      switch (op.type) {
        case OpType::kGet:
        case OpType::kReduceSend:
        case OpType::kReadReduce:
        case OpType::kReadReduceSend:
          r_.Bad(Kind::kUnsupported, where,
                 std::string(OpName(op.type)) +
                     " through a port channel is not modelled (the kernel reads and writes "
                     "remote buffers through memory channel pointers)",
                 g, b, step);
          return false;
        default:
          break;  // local operations ignore the channel type
      }
    }
    return true;
  }

  // Signals, waits, semaphores, flushes and port puts run on threads tid < n, one each.
  bool CheckThreads(const std::string& where, int g, int b, int step, const Op& op) {
    std::size_t per_thread = 0;
    switch (op.type) {
      case OpType::kSignal:
      case OpType::kWait:
      case OpType::kRelaxedSignal:
      case OpType::kRelaxedWait:
        per_thread = op.channels.size();
        break;
      case OpType::kSemAcquire:
      case OpType::kSemRelease:
        per_thread = op.sems.size();
        break;
      case OpType::kFlush:
      case OpType::kPutWithSignal:
      case OpType::kPutWithSignalAndFlush:
        per_thread = op.dst.size();
        break;
      case OpType::kPut:
        per_thread = op.port ? op.dst.size() : 0;
        break;
      default:
        break;
    }
    if (per_thread > static_cast<std::size_t>(threads_)) {
      r_.Bad(Kind::kBadValue, where,
             std::string(OpName(op.type)) + " needs " + std::to_string(per_thread) +
                 " threads (one per channel, semaphore or destination), but a block has " +
                 std::to_string(threads_) + " (num_threads_per_block): the others never run",
             g, b, step);
      return false;
    }
    return true;
  }

  bool BadShape(Kind kind, const std::string& where, const Op& op, const std::string& what, int g,
                int b, int step) {
    r_.Bad(kind, where, std::string(OpName(op.type)) + " " + what, g, b, step);
    return false;
  }

  // Whether v[from..] are all remote (remote = true) or all local.
  static bool AllOnSide(const std::vector<BufRef>& v, std::size_t from, bool remote) {
    for (std::size_t i = from; i < v.size(); ++i) {
      if (v[i].remote != remote) return false;
    }
    return true;
  }

  // barrier: its id and block count, the same count wherever this gpu uses the id.
  bool CheckBarrierShape(const json& oj, const std::string& where, int g, int b, int step, Op* op) {
    auto bad = [&](Kind kind, const std::string& what) {
      return BadShape(kind, where, *op, what, g, b, step);
    };
    std::int64_t x = 0;
    const json* id = r_.Get(oj, "barrier_id", where, true, g, b, step);
    const json* n = r_.Get(oj, "num_threadblocks", where, true, g, b, step);
    if (id == nullptr || n == nullptr) return false;
    if (!r_.Int(*id, where + ".barrier_id", 0, kMaxSyncers - 1, &x, g, b, step)) return false;
    op->barrier_id = static_cast<int>(x);
    const int nb = static_cast<int>(plan_->gpus[g].tbs.size());
    if (!r_.Int(*n, where + ".num_threadblocks", 1, nb, &x, g, b, step)) return false;
    op->barrier_blocks = static_cast<int>(x);
    auto [it, fresh] = barrier_n_.insert({op->barrier_id, op->barrier_blocks});
    if (!fresh && it->second != op->barrier_blocks) {
      return bad(Kind::kBadValue, "uses barrier " + std::to_string(op->barrier_id) +
                                      " with num_threadblocks " +
                                      std::to_string(op->barrier_blocks) + ", another " +
                                      "barrier of this gpu with " + std::to_string(it->second));
    }
    return true;
  }

  // put, put with signal (and flush): k local sources paired with k remote destinations.
  bool CheckPutShape(const std::string& where, int g, int b, int step, bool signal, const Op* op) {
    auto bad = [&](Kind kind, const std::string& what) {
      return BadShape(kind, where, *op, what, g, b, step);
    };
    if (signal && !op->port) {
      return bad(Kind::kUnsupported,
                 "on a memory channel is a plain put in the kernel (no signal); not modelled");
    }
    if (op->src.empty() || op->src.size() != op->dst.size() || !AllOnSide(op->src, 0, false) ||
        !AllOnSide(op->dst, 0, true)) {
      return bad(Kind::kUnsupported,
                 "is modelled with k local sources and k remote destinations (the kernel "
                 "pairs dst_buff[i] with src_buff[i])");
    }
    if (op->port) {
      // Thread i hands dst_buff[i] to the proxy of channel_ids[i].
      if (op->channels.size() < op->dst.size()) {
        return bad(Kind::kBadValue,
                   "on port channels puts dst_buff[i] through channel_ids[i], and has fewer "
                   "channel_ids than dst_buff entries");
      }
      return true;
    }
    for (const BufRef& s : op->src) {
      if (s.type != op->src[0].type) {
        return bad(Kind::kUnsupported,
                   "reads every source from the buffer type of src_buff[0]; sources of "
                   "different types are not modelled");
      }
    }
    return true;
  }

  // get: k remote sources and k local destinations, with the kernel's swapped offsets.
  bool CheckGetShape(const std::string& where, int g, int b, int step, const Op* op) {
    auto bad = [&](Kind kind, const std::string& what) {
      return BadShape(kind, where, *op, what, g, b, step);
    };
    if (op->src.empty() || op->src.size() != op->dst.size() || !AllOnSide(op->src, 0, true) ||
        !AllOnSide(op->dst, 0, false)) {
      return bad(Kind::kUnsupported, "is modelled with k remote sources and k local destinations");
    }
    for (std::size_t i = 0; i < op->src.size(); ++i) {
      const BufRef& s = op->src[i];
      const BufRef& d = op->dst[i];
      if (s.index != d.index && (s.index + s.size > Chunks(d.rank, d.type) ||
                                 d.index + s.size > Chunks(s.rank, s.type))) {
        return bad(Kind::kBadValue,
                   "src_buff[" + std::to_string(i) + "] and dst_buff[" + std::to_string(i) +
                       "]: the kernel (handleGet) writes the local buffer at the remote "
                       "index and reads the remote buffer at the local index, which leaves "
                       "the buffers");
      }
      if (s.index != d.index) {
        result_->notes.push_back(
            where + ": get with src index " + std::to_string(op->src[i].index) + " and dst index " +
            std::to_string(op->dst[i].index) +
            ": the kernel (handleGet) swaps the two offsets; replayed as the kernel does it");
      }
    }
    return true;
  }

  // The operands each modelled operation needs, as the kernel reads them.
  bool CheckOpShape(const json& oj, const std::string& where, int g, int b, int step, Op* op) {
    auto bad = [&](Kind kind, const std::string& what) {
      return BadShape(kind, where, *op, what, g, b, step);
    };
    auto same_sizes = [&]() {
      const int s = op->src.empty() ? 0 : op->src[0].size;
      for (const auto* v : {&op->src, &op->dst}) {
        for (const BufRef& r : *v) {
          if (r.size != s) return false;
        }
      }
      return true;
    };
    switch (op->type) {
      case OpType::kNop:
        return true;
      case OpType::kBarrier:
        return CheckBarrierShape(oj, where, g, b, step, op);
      case OpType::kSignal:
      case OpType::kWait:
      case OpType::kRelaxedSignal:
      case OpType::kRelaxedWait:
        if (op->channels.empty()) return bad(Kind::kMissingAttribute, "needs channel_ids");
        if (!oj.contains("channel_type")) {
          return bad(Kind::kMissingAttribute,
                     "needs \"channel_type\" (without it the kernel does nothing)");
        }
        return true;
      case OpType::kFlush:
        // handleFlush flushes channel_ids[tid] for tid < the number of dst_buff entries (not
        // of channel_ids): without dst_buff, as the DSL writes it, it does nothing.
        if (!op->port) return bad(Kind::kUnsupported, "is modelled on port channels only");
        if (op->channels.size() < op->dst.size()) {
          return bad(Kind::kBadValue,
                     "flushes one channel per dst_buff entry, and has fewer "
                     "channel_ids");
        }
        if (op->dst.empty()) {
          result_->notes.push_back(
              where +
              ": flush without dst_buff does nothing: the kernel (handleFlush) flushes "
              "one channel per dst_buff entry, not per channel id");
        }
        return true;
      case OpType::kSemAcquire:
      case OpType::kSemRelease:
        if (op->sems.empty()) return bad(Kind::kMissingAttribute, "needs semaphore_ids");
        return true;
      case OpType::kCopy:
        if (op->src.size() != 1 || op->dst.size() != 1 || op->src[0].remote || op->dst[0].remote) {
          return bad(Kind::kUnsupported,
                     "is modelled with one local source and one local destination");
        }
        break;
      case OpType::kPutWithSignal:
      case OpType::kPutWithSignalAndFlush:
        if (!CheckPutShape(where, g, b, step, true, op)) return false;
        break;
      case OpType::kPut:
        if (!CheckPutShape(where, g, b, step, false, op)) return false;
        break;
      case OpType::kGet:
        if (!CheckGetShape(where, g, b, step, op)) return false;
        break;
      case OpType::kReduce:
        if (op->src.size() < 2 || op->dst.size() != 1 || !AllOnSide(op->src, 0, false) ||
            op->dst[0].remote) {
          return bad(Kind::kUnsupported,
                     "is modelled with at least two local sources and one local destination");
        }
        break;
      case OpType::kReduceSend:
        if (op->src.size() < 2 || op->dst.size() < 2 || !AllOnSide(op->src, 0, false) ||
            op->dst[0].remote || !AllOnSide(op->dst, 1, true)) {
          return bad(Kind::kUnsupported,
                     "is modelled with local sources, a local dst_buff[0] and remote "
                     "dst_buff[1..]");
        }
        break;
      case OpType::kReadReduce:
      case OpType::kReadReduceSend: {
        const bool send = op->type == OpType::kReadReduceSend;
        if (op->src.size() < 2 || op->src[0].remote || !AllOnSide(op->src, 1, true) ||
            op->dst.empty() || op->dst[0].remote ||
            (send ? op->dst.size() < 2 : op->dst.size() != 1) || !AllOnSide(op->dst, 1, true)) {
          return bad(Kind::kUnsupported,
                     std::string("is modelled with a local src_buff[0], remote src_buff[1..], a "
                                 "local dst_buff[0]") +
                         (send ? " and remote dst_buff[1..]" : " only"));
        }
        break;
      }
    }
    if (!same_sizes()) {
      return bad(Kind::kUnsupported,
                 "has buffers of different sizes (the kernel moves the size of one of them; "
                 "not modelled)");
    }
    return true;
  }

  Reader r_;
  Reporter* rep_;
  Plan* plan_;
  ReplayResult* result_;
  std::vector<std::vector<RemoteBuffer>> remote_;
  std::map<int, int> barrier_n_;  // barrier id -> num_threadblocks, of the GPU being read
  std::int64_t cells_ = 0;
  std::int64_t accesses_ = 0;
  int threads_ = 1024;  // num_threads_per_block
};

}  // namespace

const char* OpName(OpType t) {
  for (const OpName_& m : kModelled) {
    if (m.type == t) return m.name;
  }
  return "?";
}

void ReadMscclppPlan(const nlohmann::json& doc, Reporter* rep, Plan* plan, ReplayResult* result) {
  PlanReader(rep, plan, result).Read(doc);
}

}  // namespace collsynth::mscclpp_check
