// MSCCL++ execution plan test vectors for the plan replay checker (library, CLI and fuzz seed
// tests), written here by hand from the loader's schema (docs/export.md
// "Runtime facts: MSCCL++ execution plans"): correct small allgather / reducescatter / allreduce
// plans with explicit put + nop + signal / wait + nop, to corrupt in the tests.
//
// Layout of every plan: gpu g has one memory channel entry to each peer in rank order (entry
// of peer p: p < g ? p : p - 1), remote buffers of one type on each peer in the same order,
// and one thread block listing all of them, whose operations start with the handshake
// rlxsignal, rlxwait, nop (ops 0-2; the collective's own operations follow from op 3).
#ifndef COLLSYNTH_TESTS_PROOFS_CHECK_MSCCLPP_PLAN_FIXTURES_H_
#define COLLSYNTH_TESTS_PROOFS_CHECK_MSCCLPP_PLAN_FIXTURES_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace collsynth::testing {

using PlanJson = nlohmann::json;

inline PlanJson Local(const char* type, int index, int size = 1) {
  return {{"type", type}, {"index", index}, {"size", size}};
}
inline PlanJson Remote(int buffer_id, int index, int size = 1) {
  return {{"buffer_id", buffer_id}, {"index", index}, {"size", size}};
}
inline PlanJson PlanOp(const char* name) { return {{"name", name}}; }
inline PlanJson SyncOp(const char* name, const std::vector<int>& ids) {
  return {{"name", name}, {"channel_ids", ids}, {"channel_type", "memory"}};
}
inline PlanJson DataOp(const char* name, PlanJson src, PlanJson dst) {
  return {{"name", name}, {"src_buff", src}, {"dst_buff", dst}, {"channel_type", "memory"}};
}
inline int PeerSlot(int g, int p) { return p < g ? p : p - 1; }

inline std::vector<int> AllPeers(int n) {
  std::vector<int> v;
  for (int k = 0; k + 1 < n; ++k) v.push_back(k);
  return v;
}

// The plan around `ops(g)`: gpus with the given chunk counts, remote buffers of type
// `remote_type` on every peer.
template <typename OpsOf>
PlanJson PlanSkeleton(const std::string& coll, int n, int ki, int ko, int ks, bool inplace,
                      const char* remote_type, OpsOf ops) {
  PlanJson gpus = PlanJson::array();
  for (int g = 0; g < n; ++g) {
    std::vector<int> peers;
    PlanJson remote = PlanJson::array();
    for (int p = 0; p < n; ++p) {
      if (p == g) continue;
      peers.push_back(p);
      remote.push_back({{"rank", p}, {"type", remote_type}, {"access_channel_types", {"memory"}}});
    }
    // Every launch starts with a handshake (as the DSL's plans do): each gpu tells its peers
    // that its previous launch and its caller are done with the buffers they will write.
    PlanJson all_ops = PlanJson::array(
        {SyncOp("rlxsignal", AllPeers(n)), SyncOp("rlxwait", AllPeers(n)), PlanOp("nop")});
    for (const PlanJson& op : ops(g)) all_ops.push_back(op);
    PlanJson tb = {{"id", 0},
                   {"ops", all_ops},
                   {"channels", {{{"channel_type", "memory"}, {"channel_ids", AllPeers(n)}}}},
                   {"remote_buffer_refs",
                    {{{"access_channel_type", "memory"}, {"remote_buffer_ids", AllPeers(n)}}}}};
    gpus.push_back({{"id", g},
                    {"input_chunks", ki},
                    {"output_chunks", ko},
                    {"scratch_chunks", ks},
                    {"channels", {{{"channel_type", "memory"}, {"connected_to", peers}}}},
                    {"remote_buffers", remote},
                    {"semaphores", PlanJson::array()},
                    {"threadblocks", PlanJson::array({tb})}});
  }
  return {{"name", "test_" + coll},
          {"collective", coll},
          {"protocol", "Simple"},
          {"inplace", inplace},
          {"num_threads_per_block", 1024},
          {"buffer_alignment", 16},
          {"min_message_size", 0},
          {"max_message_size", 1u << 30},
          {"gpus", gpus}};
}

// Allgather, one chunk per rank: copy i[0] -> o[g] (out-of-place), put i[0] into o[g] of every
// peer, nop, signal all, wait all, nop.
inline PlanJson AllgatherPlan(int n, bool inplace) {
  return PlanSkeleton("allgather", n, 1, n, 0, inplace, "o", [&](int g) {
    PlanJson ops = PlanJson::array();
    if (!inplace) {
      ops.push_back(
          DataOp("copy", PlanJson::array({Local("i", 0)}), PlanJson::array({Local("o", g)})));
      ops.push_back(PlanOp("nop"));
    }
    PlanJson src = PlanJson::array(), dst = PlanJson::array();
    for (int k = 0; k + 1 < n; ++k) {
      src.push_back(Local("i", 0));
      dst.push_back(Remote(k, g));
    }
    ops.push_back(DataOp("put", src, dst));
    ops.push_back(PlanOp("nop"));
    ops.push_back(SyncOp("signal", AllPeers(n)));
    ops.push_back(SyncOp("wait", AllPeers(n)));
    ops.push_back(PlanOp("nop"));
    return ops;
  });
}

// The reduce-scatter phase: put i[p] into s[g] of peer p, nop, signal, wait, nop, then
// re(i[g] + s[every peer]) into `result` (o[0] for reducescatter, o[g] for allreduce).
inline PlanJson ReducePhase(int n, int g, PlanJson result) {
  PlanJson ops = PlanJson::array();
  PlanJson src = PlanJson::array(), dst = PlanJson::array();
  for (int p = 0; p < n; ++p) {
    if (p == g) continue;
    src.push_back(Local("i", p));
    dst.push_back(Remote(PeerSlot(g, p), g));
  }
  ops.push_back(DataOp("put", src, dst));
  ops.push_back(PlanOp("nop"));
  ops.push_back(SyncOp("signal", AllPeers(n)));
  ops.push_back(SyncOp("wait", AllPeers(n)));
  ops.push_back(PlanOp("nop"));
  PlanJson sum = PlanJson::array({Local("i", g)});
  for (int p = 0; p < n; ++p) {
    if (p != g) sum.push_back(Local("s", p));
  }
  ops.push_back(DataOp("re", sum, PlanJson::array({result})));
  return ops;
}

// Reduce-scatter: the reduce phase into o[0], then nop, signal, wait, nop: the closing round
// tells every peer that its puts into this gpu's scratch have been consumed, so its next
// launch may put again (without it the checker reports the next launch's race).
inline PlanJson ReduceScatterPlan(int n, bool inplace) {
  return PlanSkeleton("reducescatter", n, n, 1, n, inplace, "s", [&](int g) {
    PlanJson ops = ReducePhase(n, g, Local("o", 0));
    ops.push_back(PlanOp("nop"));
    ops.push_back(SyncOp("signal", AllPeers(n)));
    ops.push_back(SyncOp("wait", AllPeers(n)));
    ops.push_back(PlanOp("nop"));
    return ops;
  });
}

// Allreduce: the reduce phase into o[g], nop, then put o[g] into o[g] of every peer (remote
// buffers: scratch of every peer, then output of every peer), nop, signal, wait, nop.
inline PlanJson AllreducePlan(int n, bool inplace) {
  PlanJson plan = PlanSkeleton("allreduce", n, n, n, n, inplace, "s", [&](int g) {
    PlanJson ops = ReducePhase(n, g, Local("o", g));
    ops.push_back(PlanOp("nop"));
    PlanJson src = PlanJson::array(), dst = PlanJson::array();
    for (int k = 0; k + 1 < n; ++k) {
      src.push_back(Local("o", g));
      dst.push_back(Remote(n - 1 + k, g));
    }
    ops.push_back(DataOp("put", src, dst));
    ops.push_back(PlanOp("nop"));
    ops.push_back(SyncOp("signal", AllPeers(n)));
    ops.push_back(SyncOp("wait", AllPeers(n)));
    ops.push_back(PlanOp("nop"));
    return ops;
  });
  for (int g = 0; g < n; ++g) {
    PlanJson& gpu = plan["gpus"][g];
    std::vector<int> ids;
    for (int p = 0; p < n; ++p) {
      if (p == g) continue;
      gpu["remote_buffers"].push_back(
          {{"rank", p}, {"type", "o"}, {"access_channel_types", {"memory"}}});
    }
    for (int k = 0; k < 2 * (n - 1); ++k) ids.push_back(k);
    gpu["threadblocks"][0]["remote_buffer_refs"][0]["remote_buffer_ids"] = ids;
  }
  return plan;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_PROOFS_CHECK_MSCCLPP_PLAN_FIXTURES_H_
