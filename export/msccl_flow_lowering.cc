// Lowering of all-to-all flows schedules (docs/formats.md "Flows schedule JSON") into transfers
// (msccl_lowering.h), and their export to MSCCL programs (msccl_program.h). docs/export.md
// "All-to-all flows" describes the layout and the chunking.
//
// Buffer layout (MSCCL's alltoall: msccl-tools `msccl/language/collectives.py`, class AllToAll;
// the MSCCL++ DSL's copy in microsoft/mscclpp `python/mscclpp/language/collectives.py`): with C
// chunks per (source, destination) block, input chunk t·C + c of rank s is the block s sends to
// t; it ends at output chunk s·C + c of rank t. The runtime counts chunks against the whole
// N-block buffer (`sizeMultiplier = nGpus` for coll "alltoall": Azure/msccl-executor-nccl
// `src/misc/msccl/msccl_parser.cc`), so nchunksperloop = N·C and i_chunks = o_chunks = N·C.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "export/chunking.h"
#include "export/msccl_lowering.h"
#include "export/msccl_program.h"

namespace collsynth {

namespace export_internal {
namespace {

// The GPU-to-GPU hops of a path: it is cut at every compute node (switch hops collapsed, as
// NCCL's transports route GPU to GPU), each piece a physical route.
std::vector<std::vector<int>> Hops(const Topology& g, const std::vector<int>& path) {
  std::vector<std::vector<int>> hops;
  std::vector<int> cur{path.front()};
  for (std::size_t i = 1; i < path.size(); ++i) {
    cur.push_back(path[i]);
    if (g.IsCompute(path[i])) {
      hops.push_back(std::move(cur));
      cur = {path[i]};
    }
  }
  return hops;
}

}  // namespace

LoweredSchedule LowerFlowSchedule(const Topology& g, const FlowSchedule& s,
                                  const std::vector<int>& rank_of_node, const LowerOptions& o,
                                  const std::string& file) {
  const int n = g.num_compute();
  if (s.collective != Collective::kAlltoall) {
    throw InputError(file, "collective",
                     "'" + std::string(CollectiveName(s.collective)) + "' cannot be exported");
  }
  if (!s.uniform) {
    // A matrix that asks the same amount of every ordered pair is the uniform all-to-all.
    bool same = static_cast<std::int64_t>(s.demand.entries.size()) ==
                static_cast<std::int64_t>(n) * (n - 1);
    for (const DemandEntry& e : s.demand.entries) {
      same = same && e.amount == s.demand.entries.front().amount;
    }
    if (!same) {
      throw InputError(file, "demand",
                       "only the uniform all-to-all is exported (every pair the same amount): "
                       "the runtimes' alltoall moves one count per pair, a demand matrix is "
                       "alltoallv, which is not exported");
    }
  }
  if (o.inplace) {
    throw InputError("<args>", "--inplace",
                     "an all-to-all is exported out of place only (in place, a rank's input "
                     "block for t is overwritten by t's block for it before it is sent)");
  }
  const std::int64_t budget = o.max_chunks / (static_cast<std::int64_t>(n) * o.instances);
  if (budget < 1) {
    throw ExportLimitError("--max-chunks", static_cast<std::int64_t>(n) * o.instances,
                           "one chunk per block and instance needs --max-chunks >= " +
                               std::to_string(static_cast<std::int64_t>(n) * o.instances));
  }
  // A uniform matrix with amounts other than 1 scales every load and T alike: shares and the
  // ratio in units of one pair's block are those of d = 1.
  const Rational unit =
      s.uniform || s.demand.entries.empty() ? Rational(1) : s.demand.entries.front().amount;
  std::vector<std::vector<Rational>> groups;
  groups.reserve(s.flows.size());
  for (const PairFlows& p : s.flows) {
    std::vector<Rational> w;
    for (const FlowPath& f : p.paths) w.push_back(f.share);
    groups.push_back(std::move(w));
  }
  WeightChunking ch = ChunkWeightGroups(groups, budget);
  Layout lay;
  lay.coll = Collective::kAlltoall;
  lay.inplace = false;
  lay.n = n;
  lay.K = ch.chunks_per_shard;
  lay.cK = lay.K * o.instances;

  Lowering L;
  L.ngpus = n;
  // Routes of every hop of every path (shared by instances and 71-chunk pieces), and the
  // exact step counts per rank for the precheck: a transfer is a step of its sender and of its
  // receiver, and every rank copies its own block (out of place).
  struct PathPlan {
    int from = -1, to = -1;                // ranks
    std::int64_t lo = 0, hi = 0;           // chunk range inside the pair's block
    std::vector<std::pair<int, int>> hop;  // (src rank, dst rank) per hop
    std::vector<int> route;                // route index per hop
  };
  std::vector<PathPlan> plans;
  std::vector<std::int64_t> steps(n, 0);
  std::int64_t transfers = 0;
  for (std::size_t p = 0; p < s.flows.size(); ++p) {
    const PairFlows& pf = s.flows[p];
    std::int64_t at = 0;
    for (std::size_t k = 0; k < pf.paths.size(); ++k) {
      const std::int64_t cnt = ch.counts[p][k];
      if (cnt == 0) continue;  // rounded away (docs/export.md "All-to-all flows")
      PathPlan pp;
      pp.from = rank_of_node[pf.from];
      pp.to = rank_of_node[pf.to];
      pp.lo = at;
      pp.hi = at + cnt;
      at += cnt;
      for (std::vector<int>& h : Hops(g, pf.paths[k].nodes)) {
        pp.hop.emplace_back(rank_of_node[h.front()], rank_of_node[h.back()]);
        pp.route.push_back(static_cast<int>(L.routes.size()));
        L.routes.push_back({RouteShare{std::move(h), Rational(1)}});
      }
      const std::int64_t pieces = (cnt + kMaxCnt - 1) / kMaxCnt * o.instances;
      for (const auto& [a, b] : pp.hop) {
        steps[a] += pieces;
        steps[b] += pieces;
      }
      transfers += pieces * static_cast<std::int64_t>(pp.hop.size());
      plans.push_back(std::move(pp));
    }
  }
  const std::int64_t copies_per_rank = (lay.K + kMaxCnt - 1) / kMaxCnt * o.instances;
  int busiest = 0;
  for (int r = 0; r < n; ++r) {
    steps[r] += copies_per_rank;
    if (steps[r] > steps[busiest]) busiest = r;
  }
  if (o.precheck) o.precheck(steps[busiest], busiest, transfers);

  std::vector<std::int64_t> scratch(n, 0);
  for (int j = 0; j < o.instances; ++j) {
    for (std::size_t id = 0; id < plans.size(); ++id) {
      const PathPlan& pp = plans[id];
      for (std::int64_t a = pp.lo; a < pp.hi; a += kMaxCnt) {
        const int cnt = static_cast<int>(std::min<std::int64_t>(kMaxCnt, pp.hi - a));
        BufRef from{'i', lay.Global(pp.to, j, a)};  // the source's block for pp.to
        int prev = -1;
        for (std::size_t h = 0; h < pp.hop.size(); ++h) {
          Transfer x;
          x.instance = j;
          x.phase = 0;
          x.level = static_cast<std::int64_t>(h);  // a forward's dependency has a smaller key
          x.tree = static_cast<int>(id);
          x.src = pp.hop[h].first;
          x.dst = pp.hop[h].second;
          x.cnt = cnt;
          x.send = from;
          x.send_dep = prev;
          if (h + 1 == pp.hop.size()) {
            x.recv_dst = {'o', lay.Global(pp.from, j, a)};
          } else {
            x.recv_dst = {'s', scratch[x.dst]};  // a fresh slot range of the relay
            scratch[x.dst] += cnt;
          }
          x.recv_src = x.recv_dst;
          // The side file's chunk: where the receive writes (the destination's output chunk,
          // or the relay's scratch slot), as `simulate --routes` matches receives to routes.
          x.chunk = x.recv_dst.off;
          x.route = pp.route[h];
          prev = static_cast<int>(L.transfers.size());
          from = x.recv_dst;
          L.transfers.push_back(x);
        }
      }
    }
    // Every rank's own block: input chunks r·C.. to output chunks r·C.. (out of place).
    for (int r = 0; r < n; ++r) {
      for (std::int64_t a = 0; a < lay.K; a += kMaxCnt) {
        const int cnt = static_cast<int>(std::min<std::int64_t>(kMaxCnt, lay.K - a));
        const std::int64_t c = lay.Global(r, j, a);
        L.copies.push_back({r, BufRef{'i', c}, BufRef{'o', c}, cnt});
      }
    }
  }
  L.scratch_chunks = *std::max_element(scratch.begin(), scratch.end());

  LoweredSchedule out;
  out.L = std::move(L);
  out.lay = lay;
  out.exact_chunks = ch.exact;
  out.exact_chunks_per_shard = ch.exact_chunks_per_shard;
  out.optimal_ratio = s.time / unit;
  return out;
}

}  // namespace export_internal

MscclExportResult ExportFlowsToMscclProgram(const Topology& g, const FlowSchedule& s,
                                            const std::vector<int>& rank_of_node,
                                            const MscclExportOptions& o, const std::string& file) {
  export_internal::CheckOptions(o);
  const int n = g.num_compute();
  export_internal::LowerOptions lo = export_internal::LowerOptionsOf(o);
  // Every transfer is a <step> of its sender and of its receiver, and the parser counts only
  // the loading rank's (kMscclMaxRankElements): refuse before building what no rank could load.
  lo.precheck = export_internal::RankElementsPrecheck(
      n, "fewer chunks (--max-chunks) or fewer GPUs per file");
  export_internal::LoweredSchedule ls =
      export_internal::LowerFlowSchedule(g, s, rank_of_node, lo, file);
  // --fuse is for trees (a chain of main children per channel): ignored here, the split
  // lowering's channel packing is used.
  MscclExportOptions split = o;
  split.fuse = false;
  return export_internal::AssembleMsccl(g, Collective::kAlltoall, rank_of_node, split, &ls);
}

}  // namespace collsynth
