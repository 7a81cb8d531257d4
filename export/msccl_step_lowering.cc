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

namespace {

// A run of a send's chunks inside one elementary segment of a shard, with what the sender
// side knows before the step.
struct Piece {
  int send_index;
  int shard, seg;
  bool keep;
  int send_dep;
  bool from_acc;
};

// The lowering of one step schedule in named phases: CheckAndLayout, CutSegments, OrderSends,
// then per instance and per step SenderPieces and EmitReceives, then the local copies and the
// schedule's exact ratio. The arguments must outlive it.
class StepLowerer {
 public:
  StepLowerer(const Topology& g, const StepSchedule& s, const std::vector<int>& rank_of_node,
              const LowerOptions& o, const std::string& file)
      : g_(g),
        s_(s),
        rank_of_node_(rank_of_node),
        o_(o),
        file_(file),
        n_(g.num_compute()),
        coll_(s.collective) {}

  LoweredSchedule Lower() {
    CheckAndLayout();
    CutSegments();
    OrderSends();
    L_.ngpus = n_;
    for (int j = 0; j < o_.instances; ++j) LowerInstance(j);
    std::vector<int> roots(n_);
    std::iota(roots.begin(), roots.end(), 0);
    AddCopies(lay_, o_.instances, roots, &L_);

    LoweredSchedule out;
    out.L = std::move(L_);
    out.lay = lay_;
    out.exact_chunks = true;
    out.exact_chunks_per_shard = lcm_;
    out.per_level = true;
    out.optimal_ratio = ScheduleRatio();
    return out;
  }

 private:
  // Who holds what in one instance, per (shard, segment, rank): the transfer that delivered
  // it (held, at step held_step), the last reduction into it (last_rrc), and, in the
  // allgather phase of an allreduce, the reduction that finished each segment (final_rrc).
  struct State {
    std::vector<std::vector<int>> held, held_step, last_rrc, final_rrc;
    bool in_ag_phase_of_ar = false;
  };
  // One comm step of the sends order_[begin, end), all with step `step`.
  struct Step {
    std::size_t begin, end;
    int step;
    bool rs_kind;  // a reduction step
    int phase;     // 1: the allgather phase of an allreduce
  };

  // The collective, the sends' endpoints, the chunk count per shard (the lcm of the
  // intervals' denominators) within --max-chunks, and the target's precheck.
  void CheckAndLayout();
  // Elementary segments per shard (rank): every interval end, then runs of <= 71 chunks.
  void CutSegments();
  // Sends by (step, sender rank, receiver rank), stable.
  void OrderSends();
  void LowerInstance(int j);
  // Sender-side facts from the state before this step.
  std::vector<Piece> SenderPieces(const Step& st, const State& state) const;
  // Receivers, in order; merge runs of segments with equal dependencies into transfers.
  void EmitReceives(int j, const Step& st, const std::vector<Piece>& pieces, State* state);
  // T_B of the schedule as given: sum over steps of max over links of measure / bandwidth.
  Rational ScheduleRatio() const;

  std::int64_t ToChunk(const Rational& x) const { return ToInt64(Numerator(x * lay_.K)); }
  int SegIndex(int shard, std::int64_t chunk) const {
    const auto& v = segs_[shard];
    return static_cast<int>(std::lower_bound(v.begin(), v.end(), chunk) - v.begin());
  }
  std::size_t Cell(int seg, int rank) const { return static_cast<std::size_t>(seg) * n_ + rank; }
  // Physical route of a send: its link (one route list per directed pair).
  int RouteOf(int from, int to) {
    auto it = route_of_pair_.find({from, to});
    if (it != route_of_pair_.end()) return it->second;
    int id = static_cast<int>(L_.routes.size());
    L_.routes.push_back({RouteShare{{from, to}, Rational(1)}});
    route_of_pair_[{from, to}] = id;
    return id;
  }

  const Topology& g_;
  const StepSchedule& s_;
  const std::vector<int>& rank_of_node_;
  const LowerOptions& o_;
  const std::string& file_;
  const int n_;
  const Collective coll_;
  Layout lay_;                                   // CheckAndLayout
  BigInt lcm_;                                   // CheckAndLayout
  std::vector<std::vector<std::int64_t>> segs_;  // CutSegments: per shard
  std::vector<int> order_;                       // OrderSends
  Lowering L_;
  std::map<std::pair<int, int>, int> route_of_pair_;
};

void StepLowerer::CheckAndLayout() {
  if (coll_ != Collective::kAllgather && coll_ != Collective::kReduceScatter &&
      coll_ != Collective::kAllreduce) {
    throw InputError(
        file_, "collective",
        "'" + std::string(CollectiveName(coll_)) +
            "' step schedules cannot be exported (allgather, reduce-scatter, allreduce)");
  }
  if (coll_ == Collective::kAllreduce && !s_.rs_steps)
    throw InputError(file_, "rs_steps", "missing for allreduce");
  std::vector<Rational> ends;
  for (std::size_t i = 0; i < s_.sends.size(); ++i) {
    const StepSend& x = s_.sends[i];
    if (!g_.IsCompute(x.from) || !g_.IsCompute(x.to)) {
      throw InputError(file_, "sends[" + std::to_string(i) + "]",
                       "sends through switches cannot be exported to MSCCL yet (a step schedule's "
                       "switch hops are not collapsed into GPU-to-GPU transfers)");
    }
    for (const Interval& iv : x.chunk) {
      ends.push_back(iv.lo);
      ends.push_back(iv.hi);
    }
  }
  const std::int64_t budget = o_.max_chunks / (static_cast<std::int64_t>(n_) * o_.instances);
  lcm_ = LcmOfDenominators(ends);
  if (budget < 1 || lcm_ > budget) {
    BigInt need = lcm_ * n_ * o_.instances;
    throw ExportLimitError(
        "--max-chunks", need > 1000000000000LL ? 0 : ToInt64(need),
        "the step schedule's intervals need " + ToString(lcm_) +
            " chunks per shard (step schedules are not rounded): --max-chunks >= " +
            ToString(need));
  }
  lay_.coll = coll_;
  lay_.inplace = o_.inplace;
  lay_.n = n_;
  lay_.K = ToInt64(lcm_);
  lay_.cK = lay_.K * o_.instances;
  // Every chunk of every shard is sent at least once, at most 71 per transfer, and every
  // transfer has a receiver: some rank receives at least the average share. The target may
  // refuse before the shards are cut (K may be large).
  const std::int64_t min_transfers =
      static_cast<std::int64_t>(n_) * o_.instances * ((lay_.K + kMaxCnt - 1) / kMaxCnt);
  const std::int64_t min_rank_steps = (min_transfers + n_ - 1) / n_;
  if (o_.precheck) o_.precheck(min_rank_steps, -1, lay_.K);
}

void StepLowerer::CutSegments() {
  std::vector<std::set<std::int64_t>> bound_sets(n_);
  for (const StepSend& x : s_.sends) {
    for (const Interval& iv : x.chunk) {
      bound_sets[rank_of_node_[x.source]].insert(ToChunk(iv.lo));
      bound_sets[rank_of_node_[x.source]].insert(ToChunk(iv.hi));
    }
  }
  segs_.resize(n_);
  for (int r = 0; r < n_; ++r) segs_[r] = Pieces(bound_sets[r], lay_.K);
}

void StepLowerer::OrderSends() {
  order_.resize(s_.sends.size());
  std::iota(order_.begin(), order_.end(), 0);
  std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
    const StepSend &x = s_.sends[a], &y = s_.sends[b];
    return std::make_tuple(x.step, rank_of_node_[x.from], rank_of_node_[x.to]) <
           std::make_tuple(y.step, rank_of_node_[y.from], rank_of_node_[y.to]);
  });
}

void StepLowerer::LowerInstance(int j) {
  State state;
  state.held.resize(n_);
  state.held_step.resize(n_);
  state.last_rrc.resize(n_);
  state.final_rrc.resize(n_);
  for (int r = 0; r < n_; ++r) {
    std::size_t cells = segs_[r].size() * n_;
    state.held[r].assign(cells, -1);
    state.held_step[r].assign(cells, 0);
    state.last_rrc[r].assign(cells, -1);
  }
  std::size_t i = 0;
  while (i < order_.size()) {
    Step st;
    st.begin = i;
    st.step = s_.sends[order_[i]].step;
    st.end = i;
    while (st.end < order_.size() && s_.sends[order_[st.end]].step == st.step) ++st.end;
    st.rs_kind = coll_ == Collective::kReduceScatter ||
                 (coll_ == Collective::kAllreduce && st.step <= *s_.rs_steps);
    st.phase = coll_ == Collective::kAllreduce && st.step > *s_.rs_steps ? 1 : 0;
    if (coll_ == Collective::kAllreduce && st.phase == 1 && !state.in_ag_phase_of_ar) {
      state.in_ag_phase_of_ar = true;
      for (int r = 0; r < n_; ++r) {
        state.final_rrc[r].assign(segs_[r].size(), -1);
        for (std::size_t sg = 0; sg + 1 < segs_[r].size(); ++sg)
          state.final_rrc[r][sg] = state.last_rrc[r][Cell(static_cast<int>(sg), r)];
      }
    }
    EmitReceives(j, st, SenderPieces(st, state), &state);
    i = st.end;
  }
}

std::vector<Piece> StepLowerer::SenderPieces(const Step& st, const State& state) const {
  std::vector<Piece> pieces;
  for (std::size_t k = st.begin; k < st.end; ++k) {
    const StepSend& x = s_.sends[order_[k]];
    const int u = rank_of_node_[x.from], w = rank_of_node_[x.to], sh = rank_of_node_[x.source];
    const std::string item = "sends[" + std::to_string(order_[k]) + "]";
    for (const Interval& iv : x.chunk) {
      for (int sg = SegIndex(sh, ToChunk(iv.lo)); segs_[sh][sg] < ToChunk(iv.hi); ++sg) {
        Piece pc{order_[k], sh, sg, true, -1, false};
        if (st.rs_kind) {
          pc.send_dep = state.last_rrc[sh][Cell(sg, u)];
          pc.from_acc = pc.send_dep >= 0;
        } else {
          if (w == sh) pc.keep = false;  // the owner already holds its shard
          if (u == sh) {
            if (st.phase == 1) {
              pc.send_dep = state.final_rrc[sh][sg];
              if (pc.send_dep < 0)
                throw InputError(file_, item, "the owner has no reduced value to send");
            }
          } else {
            pc.send_dep = state.held[sh][Cell(sg, u)];
            if (pc.send_dep < 0 || state.held_step[sh][Cell(sg, u)] >= st.step) {
              throw InputError(file_, item, "the sender does not hold the data before this step");
            }
          }
        }
        pieces.push_back(pc);
      }
    }
  }
  return pieces;
}

void StepLowerer::EmitReceives(int j, const Step& st, const std::vector<Piece>& pieces,
                               State* state) {
  const bool rs_kind = st.rs_kind;
  auto& held = state->held;
  auto& last_rrc = state->last_rrc;
  std::vector<std::pair<std::size_t, int>> pending;  // (cell in held[shard], transfer)
  std::vector<int> pending_shard;
  std::set<std::pair<int, std::size_t>> pending_cells;  // (shard, cell) received this step
  std::size_t a = 0;
  while (a < pieces.size()) {
    const Piece& first = pieces[a];
    const StepSend& x = s_.sends[first.send_index];
    const int u = rank_of_node_[x.from], w = rank_of_node_[x.to], sh = first.shard;
    // Receiver facts for a piece.
    auto skip = [&](const Piece& pc) {
      if (rs_kind) return false;
      if (!pc.keep || held[sh][Cell(pc.seg, w)] >= 0) return true;
      return pending_cells.count({sh, Cell(pc.seg, w)}) > 0;
    };
    if (skip(first)) {
      ++a;
      continue;
    }
    const int recv_dep = rs_kind ? last_rrc[sh][Cell(first.seg, w)] : -1;
    std::size_t b = a + 1;
    while (b < pieces.size() && pieces[b].send_index == first.send_index && pieces[b].shard == sh &&
           pieces[b].seg == pieces[b - 1].seg + 1 && pieces[b].send_dep == first.send_dep &&
           pieces[b].from_acc == first.from_acc && !skip(pieces[b]) &&
           (!rs_kind || last_rrc[sh][Cell(pieces[b].seg, w)] == recv_dep) &&
           segs_[sh][pieces[b].seg + 1] - segs_[sh][first.seg] <= kMaxCnt) {
      ++b;
    }
    const std::int64_t lo = segs_[sh][first.seg], hi = segs_[sh][pieces[b - 1].seg + 1];
    Transfer t;
    t.instance = j;
    t.phase = st.phase;
    t.level = st.step;
    t.chunk = lay_.Global(sh, j, lo);
    t.src = u;
    t.dst = w;
    t.cnt = static_cast<int>(hi - lo);
    t.route = RouteOf(x.from, x.to);
    t.send_dep = first.send_dep;
    const std::int64_t gch = t.chunk;
    if (rs_kind) {
      t.send =
          first.from_acc ? (u == sh ? lay_.Final(sh, gch) : BufRef{'s', gch}) : lay_.Contrib(gch);
      t.reduce = true;
      t.recv_dst = w == sh ? lay_.Final(sh, gch) : BufRef{'s', gch};
      t.recv_src = recv_dep >= 0 ? t.recv_dst : lay_.Contrib(gch);
      t.recv_dep = recv_dep;
    } else {
      t.send = u == sh ? lay_.RootSource(sh, gch) : BufRef{'o', gch};
      t.recv_dst = t.recv_src = {'o', gch};
    }
    const int id = static_cast<int>(L_.transfers.size());
    L_.transfers.push_back(t);
    for (std::size_t q = a; q < b; ++q) {
      if (rs_kind) {
        last_rrc[sh][Cell(pieces[q].seg, w)] = id;
      } else {
        pending.push_back({Cell(pieces[q].seg, w), id});
        pending_shard.push_back(sh);
        pending_cells.insert({sh, Cell(pieces[q].seg, w)});
      }
    }
    a = b;
  }
  for (std::size_t q = 0; q < pending.size(); ++q) {
    held[pending_shard[q]][pending[q].first] = pending[q].second;
    state->held_step[pending_shard[q]][pending[q].first] = st.step;
  }
}

Rational StepLowerer::ScheduleRatio() const {
  std::map<int, std::map<std::pair<int, int>, Rational>> per_step;
  for (const StepSend& x : s_.sends) {
    Rational m = 0;
    for (const Interval& iv : x.chunk) m += iv.hi - iv.lo;
    per_step[x.step][{x.from, x.to}] += m;
  }
  Rational ratio = 0;
  for (const auto& [step, links] : per_step) {
    Rational worst = 0;
    for (const auto& [link, m] : links) {
      auto e = g_.FindLink(link.first, link.second);
      if (!e) throw InputError(file_, "sends", "a send uses a missing link");
      worst = std::max(worst, Rational(m / g_.link(*e).bandwidth));
    }
    ratio += worst;
  }
  return ratio;
}

}  // namespace

LoweredSchedule LowerStepSchedule(const Topology& g, const StepSchedule& s,
                                  const std::vector<int>& rank_of_node, const LowerOptions& o,
                                  const std::string& file) {
  return StepLowerer(g, s, rank_of_node, o, file).Lower();
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
