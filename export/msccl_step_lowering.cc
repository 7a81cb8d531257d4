// Lowering of step schedules ("steps", "steps-compact") into transfers (msccl_lowering.h), and
// their export to MSCCL programs (msccl_program.h).
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <vector>

#include "core/input_error.h"
#include "export/chunking.h"
#include "export/msccl_lowering.h"
#include "export/msccl_program.h"

namespace collsynth {

namespace export_internal {

LoweredSchedule LowerStepSchedule(const Topology& g, const StepSchedule& s,
                                  const std::vector<int>& rank_of_node, const LowerOptions& o,
                                  const std::string& file) {
  const int n = g.num_compute();
  const Collective coll = s.collective;
  if (coll != Collective::kAllgather && coll != Collective::kReduceScatter &&
      coll != Collective::kAllreduce) {
    throw InputError(
        file, "collective",
        "'" + std::string(CollectiveName(coll)) +
            "' step schedules cannot be exported (allgather, reduce-scatter, allreduce)");
  }
  if (coll == Collective::kAllreduce && !s.rs_steps)
    throw InputError(file, "rs_steps", "missing for allreduce");
  std::vector<Rational> ends;
  for (std::size_t i = 0; i < s.sends.size(); ++i) {
    const StepSend& x = s.sends[i];
    if (!g.IsCompute(x.from) || !g.IsCompute(x.to)) {
      throw InputError(file, "sends[" + std::to_string(i) + "]",
                       "sends through switches cannot be exported to MSCCL yet (a step schedule's "
                       "switch hops are not collapsed into GPU-to-GPU transfers)");
    }
    for (const Interval& iv : x.chunk) {
      ends.push_back(iv.lo);
      ends.push_back(iv.hi);
    }
  }
  const std::int64_t budget = o.max_chunks / (static_cast<std::int64_t>(n) * o.instances);
  BigInt lcm = LcmOfDenominators(ends);
  if (budget < 1 || lcm > budget) {
    BigInt need = lcm * n * o.instances;
    throw ExportLimitError(
        "--max-chunks", need > 1000000000000LL ? 0 : ToInt64(need),
        "the step schedule's intervals need " + ToString(lcm) +
            " chunks per shard (step schedules are not rounded): --max-chunks >= " +
            ToString(need));
  }
  Layout lay;
  lay.coll = coll;
  lay.inplace = o.inplace;
  lay.n = n;
  lay.K = ToInt64(lcm);
  lay.cK = lay.K * o.instances;
  // Every chunk of every shard is sent at least once, at most 71 per transfer, and every
  // transfer has a receiver: some rank receives at least the average share. The target may
  // refuse before the shards are cut (K may be large).
  const std::int64_t min_transfers =
      static_cast<std::int64_t>(n) * o.instances * ((lay.K + kMaxCnt - 1) / kMaxCnt);
  const std::int64_t min_rank_steps = (min_transfers + n - 1) / n;
  if (o.precheck) o.precheck(min_rank_steps, -1, lay.K);
  auto to_chunk = [&](const Rational& x) { return ToInt64(Numerator(x * lay.K)); };

  // Elementary segments per shard (rank): every interval end, then runs of <= 71 chunks.
  std::vector<std::set<std::int64_t>> bound_sets(n);
  for (const StepSend& x : s.sends) {
    for (const Interval& iv : x.chunk) {
      bound_sets[rank_of_node[x.source]].insert(to_chunk(iv.lo));
      bound_sets[rank_of_node[x.source]].insert(to_chunk(iv.hi));
    }
  }
  std::vector<std::vector<std::int64_t>> segs(n);
  for (int r = 0; r < n; ++r) segs[r] = Pieces(bound_sets[r], lay.K);
  auto seg_index = [&](int shard, std::int64_t chunk) {
    const auto& v = segs[shard];
    return static_cast<int>(std::lower_bound(v.begin(), v.end(), chunk) - v.begin());
  };

  std::vector<int> order(s.sends.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const StepSend &x = s.sends[a], &y = s.sends[b];
    return std::make_tuple(x.step, rank_of_node[x.from], rank_of_node[x.to]) <
           std::make_tuple(y.step, rank_of_node[y.from], rank_of_node[y.to]);
  });

  Lowering L;
  L.ngpus = n;
  // Physical route of a send: its link (one route list per directed pair).
  std::map<std::pair<int, int>, int> route_of_pair;
  auto route_of = [&](int from, int to) {
    auto it = route_of_pair.find({from, to});
    if (it != route_of_pair.end()) return it->second;
    int id = static_cast<int>(L.routes.size());
    L.routes.push_back({RouteShare{{from, to}, Rational(1)}});
    route_of_pair[{from, to}] = id;
    return id;
  };

  for (int j = 0; j < o.instances; ++j) {
    // State per (shard, segment, rank).
    std::vector<std::vector<int>> held(n), held_step(n), last_rrc(n), final_rrc(n);
    for (int r = 0; r < n; ++r) {
      std::size_t cells = segs[r].size() * n;
      held[r].assign(cells, -1);
      held_step[r].assign(cells, 0);
      last_rrc[r].assign(cells, -1);
    }
    auto cell = [&](int seg, int rank) { return static_cast<std::size_t>(seg) * n + rank; };
    bool in_ag_phase_of_ar = false;
    std::size_t i = 0;
    while (i < order.size()) {
      const int step = s.sends[order[i]].step;
      std::size_t end = i;
      while (end < order.size() && s.sends[order[end]].step == step) ++end;
      const bool rs_kind = coll == Collective::kReduceScatter ||
                           (coll == Collective::kAllreduce && step <= *s.rs_steps);
      const int phase = coll == Collective::kAllreduce && step > *s.rs_steps ? 1 : 0;
      if (coll == Collective::kAllreduce && phase == 1 && !in_ag_phase_of_ar) {
        in_ag_phase_of_ar = true;
        for (int r = 0; r < n; ++r) {
          final_rrc[r].assign(segs[r].size(), -1);
          for (std::size_t sg = 0; sg + 1 < segs[r].size(); ++sg)
            final_rrc[r][sg] = last_rrc[r][cell(static_cast<int>(sg), r)];
        }
      }
      // Sender-side facts from the state before this step.
      struct Piece {
        int send_index;
        int shard, seg;
        bool keep;
        int send_dep;
        bool from_acc;
      };
      std::vector<Piece> pieces;
      for (std::size_t k = i; k < end; ++k) {
        const StepSend& x = s.sends[order[k]];
        const int u = rank_of_node[x.from], w = rank_of_node[x.to], sh = rank_of_node[x.source];
        const std::string item = "sends[" + std::to_string(order[k]) + "]";
        for (const Interval& iv : x.chunk) {
          for (int sg = seg_index(sh, to_chunk(iv.lo)); segs[sh][sg] < to_chunk(iv.hi); ++sg) {
            Piece pc{order[k], sh, sg, true, -1, false};
            if (rs_kind) {
              pc.send_dep = last_rrc[sh][cell(sg, u)];
              pc.from_acc = pc.send_dep >= 0;
            } else {
              if (w == sh) pc.keep = false;  // the owner already holds its shard
              if (u == sh) {
                if (phase == 1) {
                  pc.send_dep = final_rrc[sh][sg];
                  if (pc.send_dep < 0)
                    throw InputError(file, item, "the owner has no reduced value to send");
                }
              } else {
                pc.send_dep = held[sh][cell(sg, u)];
                if (pc.send_dep < 0 || held_step[sh][cell(sg, u)] >= step) {
                  throw InputError(file, item,
                                   "the sender does not hold the data before this step");
                }
              }
            }
            pieces.push_back(pc);
          }
        }
      }
      // Receivers, in order; merge runs of segments with equal dependencies.
      std::vector<std::pair<std::size_t, int>> pending;  // (cell in held[shard], transfer)
      std::vector<int> pending_shard;
      std::set<std::pair<int, std::size_t>> pending_cells;  // (shard, cell) received this step
      std::size_t a = 0;
      while (a < pieces.size()) {
        const Piece& first = pieces[a];
        const StepSend& x = s.sends[first.send_index];
        const int u = rank_of_node[x.from], w = rank_of_node[x.to], sh = first.shard;
        // Receiver facts for a piece.
        auto skip = [&](const Piece& pc) {
          if (rs_kind) return false;
          if (!pc.keep || held[sh][cell(pc.seg, w)] >= 0) return true;
          return pending_cells.count({sh, cell(pc.seg, w)}) > 0;
        };
        if (skip(first)) {
          ++a;
          continue;
        }
        const int recv_dep = rs_kind ? last_rrc[sh][cell(first.seg, w)] : -1;
        std::size_t b = a + 1;
        while (b < pieces.size() && pieces[b].send_index == first.send_index &&
               pieces[b].shard == sh && pieces[b].seg == pieces[b - 1].seg + 1 &&
               pieces[b].send_dep == first.send_dep && pieces[b].from_acc == first.from_acc &&
               !skip(pieces[b]) && (!rs_kind || last_rrc[sh][cell(pieces[b].seg, w)] == recv_dep) &&
               segs[sh][pieces[b].seg + 1] - segs[sh][first.seg] <= kMaxCnt) {
          ++b;
        }
        const std::int64_t lo = segs[sh][first.seg], hi = segs[sh][pieces[b - 1].seg + 1];
        Transfer t;
        t.instance = j;
        t.phase = phase;
        t.level = step;
        t.chunk = lay.Global(sh, j, lo);
        t.src = u;
        t.dst = w;
        t.cnt = static_cast<int>(hi - lo);
        t.route = route_of(x.from, x.to);
        t.send_dep = first.send_dep;
        const std::int64_t gch = t.chunk;
        if (rs_kind) {
          t.send =
              first.from_acc ? (u == sh ? lay.Final(sh, gch) : BufRef{'s', gch}) : lay.Contrib(gch);
          t.reduce = true;
          t.recv_dst = w == sh ? lay.Final(sh, gch) : BufRef{'s', gch};
          t.recv_src = recv_dep >= 0 ? t.recv_dst : lay.Contrib(gch);
          t.recv_dep = recv_dep;
        } else {
          t.send = u == sh ? lay.RootSource(sh, gch) : BufRef{'o', gch};
          t.recv_dst = t.recv_src = {'o', gch};
        }
        const int id = static_cast<int>(L.transfers.size());
        L.transfers.push_back(t);
        for (std::size_t q = a; q < b; ++q) {
          if (rs_kind) {
            last_rrc[sh][cell(pieces[q].seg, w)] = id;
          } else {
            pending.push_back({cell(pieces[q].seg, w), id});
            pending_shard.push_back(sh);
            pending_cells.insert({sh, cell(pieces[q].seg, w)});
          }
        }
        a = b;
      }
      for (std::size_t q = 0; q < pending.size(); ++q) {
        held[pending_shard[q]][pending[q].first] = pending[q].second;
        held_step[pending_shard[q]][pending[q].first] = step;
      }
      i = end;
    }
  }
  std::vector<int> roots(n);
  std::iota(roots.begin(), roots.end(), 0);
  AddCopies(lay, o.instances, roots, &L);

  LoweredSchedule out;
  out.L = std::move(L);
  out.lay = lay;
  out.exact_chunks = true;
  out.exact_chunks_per_shard = lcm;
  out.per_level = true;
  // T_B of the schedule as given: sum over steps of max over links of measure / bandwidth.
  std::map<int, std::map<std::pair<int, int>, Rational>> per_step;
  for (const StepSend& x : s.sends) {
    Rational m = 0;
    for (const Interval& iv : x.chunk) m += iv.hi - iv.lo;
    per_step[x.step][{x.from, x.to}] += m;
  }
  out.optimal_ratio = 0;
  for (const auto& [step, links] : per_step) {
    Rational worst = 0;
    for (const auto& [link, m] : links) {
      auto e = g.FindLink(link.first, link.second);
      if (!e) throw InputError(file, "sends", "a send uses a missing link");
      worst = std::max(worst, Rational(m / g.link(*e).bandwidth));
    }
    out.optimal_ratio += worst;
  }
  return out;
}

}  // namespace export_internal

MscclExportResult ExportStepsToMscclProgram(const Topology& g, const StepSchedule& s,
                                            const std::vector<int>& rank_of_node,
                                            const MscclExportOptions& o, const std::string& file) {
  export_internal::CheckOptions(o);
  const int n = g.num_compute();
  export_internal::LowerOptions lo = export_internal::LowerOptionsOf(o);
  // Every transfer is a <step> of its receiver. The parser counts only the loading rank's
  // steps (kMscclMaxRankElements): refuse a file no rank could load before cutting the shards.
  lo.precheck = [n](std::int64_t min_rank_steps, int, std::int64_t chunks_per_shard) {
    if (min_rank_steps + n + 1 > kMscclMaxRankElements) {
      throw ExportLimitError("elements per rank", 0,
                             "some rank needs more than " + std::to_string(min_rank_steps + n + 1) +
                                 " counted XML elements (" + std::to_string(chunks_per_shard) +
                                 " chunks per shard), above the runtime parser's " +
                                 std::to_string(kMscclMaxRankElements) + " (MAX_NODES - 1)");
    }
  };
  export_internal::LoweredSchedule ls =
      export_internal::LowerStepSchedule(g, s, rank_of_node, lo, file);
  return export_internal::AssembleMsccl(g, s.collective, rank_of_node, o, &ls);
}

}  // namespace collsynth
