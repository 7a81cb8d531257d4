#include "proofs_check/step_checker.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <deque>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "core/input_error.h"
#include "schedules/compact_schedule.h"

namespace collsynth {
namespace {

constexpr int kNever = INT_MAX;  // "does not hold the element"

std::size_t HashMpz(const __mpz_struct* z) {
  std::size_t h = static_cast<std::size_t>(z->_mp_size);
  int n = z->_mp_size < 0 ? -z->_mp_size : z->_mp_size;
  for (int i = 0; i < n; ++i) h = h * 1000003u ^ static_cast<std::size_t>(z->_mp_d[i]);
  return h;
}

struct RationalPtrHash {
  std::size_t operator()(const Rational* r) const {
    const __mpq_struct* q = r->backend().data();
    return HashMpz(&q->_mp_num) * 31u ^ HashMpz(&q->_mp_den);
  }
};
struct RationalPtrEq {
  bool operator()(const Rational* a, const Rational* b) const { return *a == *b; }
};

// A send as the sweep sees it: possibly reversed (reduce-scatter, Thm 3) and renumbered.
struct SweepSend {
  int index;  // into StepSchedule::sends
  int source;
  int from;
  int to;
  int order;                // the step's rank in the phase's time order (1 = first)
  std::int64_t phase_step;  // the step number within the phase (1-based), for Def. 15
  // Its intervals, s_.ivs[iv_first .. iv_last) (copied here in index order, so that the sweep,
  // in source order, reads no per-send array at a scattered index).
  std::size_t iv_first, iv_last;
};

enum class Orientation { kForward, kReversed };

struct Phase {
  std::string label;  // "" or "reduce-scatter phase: " etc., prefixed to messages
  Orientation orientation = Orientation::kForward;
  std::vector<SweepSend> sends;
  std::vector<int> sources;  // shards whose delivery is checked
};

class Collector {
 public:
  Collector(StepCheckReport& report, int max_errors) : report_(report), max_(max_errors) {}
  // Counts v; keeps it (with the message make() builds) only while fewer than max_errors
  // are kept, so a schedule with millions of violations costs no message past the limit.
  template <typename MakeMessage>
  void Add(StepViolation v, MakeMessage make) {
    Count(v.kind);
    if (static_cast<int>(report_.violations.size()) < max_) {
      v.message = make();
      report_.errors.push_back(v.message);
      report_.violations.push_back(std::move(v));
    }
  }
  bool Full() const { return static_cast<int>(report_.violations.size()) >= max_; }
  // Counts a violation that is not kept (Full()): callers skip building its interval too.
  void Count(StepViolationKind kind) {
    ++report_.num_violations;
    ++count_[static_cast<int>(kind)];
  }
  std::int64_t CountOf(StepViolationKind kind) const { return count_[static_cast<int>(kind)]; }

 private:
  StepCheckReport& report_;
  int max_;
  std::int64_t count_[16] = {};
};

// Plain BFS over out-links (or in-links, i.e. over G^T); -1 when unreachable.
std::vector<int> Bfs(const Topology& g, int source, Orientation o) {
  std::vector<int> dist(g.num_nodes(), -1);
  std::deque<int> queue{source};
  dist[source] = 0;
  while (!queue.empty()) {
    int u = queue.front();
    queue.pop_front();
    const std::vector<int>& arcs = o == Orientation::kForward ? g.OutLinks(u) : g.InLinks(u);
    for (int e : arcs) {
      int w = o == Orientation::kForward ? g.link(e).to : g.link(e).from;
      if (dist[w] < 0) {
        dist[w] = dist[u] + 1;
        queue.push_back(w);
      }
    }
  }
  return dist;
}

// The schedule as the checker sees it, built from either form: per send its source, link
// and step, and its chunk as merged, sorted intervals of ranks into the sorted distinct
// endpoint values. When every value is an integer over one common denominator that fits
// int64, value_num holds those integers (loads are then summed in int64).
struct SendTable {
  Collective collective = Collective::kAllgather;
  std::optional<int> root, rs_steps, claimed_tl;
  std::optional<Rational> claimed_tb;
  std::vector<int> source, from, to, step;
  std::vector<Rational> values;
  int rank_zero = 0, rank_one = 0;
  std::vector<std::pair<int, int>> ivs;  // ivs[iv_begin[i] .. iv_begin[i+1])
  std::vector<std::size_t> iv_begin;
  std::int64_t common_den = 0;          // 0: no int64 common denominator
  std::vector<std::int64_t> value_num;  // values[r] * common_den

  std::size_t size() const { return source.size(); }
  void Reserve(std::size_t n) {
    source.reserve(n);
    from.reserve(n);
    to.reserve(n);
    step.reserve(n);
    iv_begin.reserve(n + 1);
  }
  // Appends send i's rank intervals (sorted, overlapping or touching ones merged).
  void AddChunk(std::vector<std::pair<int, int>>& tmp) {
    iv_begin.push_back(ivs.size());
    std::sort(tmp.begin(), tmp.end());
    for (const auto& p : tmp) {
      if (ivs.size() > iv_begin.back() && ivs.back().second >= p.first) {
        ivs.back().second = std::max(ivs.back().second, p.second);
      } else {
        ivs.push_back(p);
      }
    }
    tmp.clear();
  }
  // value_num from values, when a common denominator fits.
  void ComputeIntegerValues() {
    BigInt lcm = 1;
    const BigInt limit = BigInt(1) << 62;
    for (const Rational& v : values) {
      BigInt d = Denominator(v);
      if (lcm % d != 0) lcm = lcm / boost::multiprecision::gcd(lcm, d) * d;
      if (lcm > limit) return;
    }
    for (const Rational& v : values) {
      BigInt num = Numerator(v * Rational(lcm));
      if (num > limit || num < -limit) {
        value_num.clear();
        return;
      }
      value_num.push_back(num.convert_to<std::int64_t>());
    }
    common_den = lcm.convert_to<std::int64_t>();
  }
};

SendTable TableFromSteps(const StepSchedule& s) {
  SendTable t;
  CopyStepHeader(s, t);
  const Rational zero(0), one(1);
  std::unordered_map<const Rational*, int, RationalPtrHash, RationalPtrEq> seen;
  seen.reserve(1024);
  std::vector<const Rational*> distinct;
  auto note = [&](const Rational* r) {
    if (seen.emplace(r, 0).second) distinct.push_back(r);
  };
  note(&zero);
  note(&one);
  for (const StepSend& e : s.sends) {
    for (const Interval& in : e.chunk) {
      note(&in.lo);
      note(&in.hi);
    }
  }
  std::sort(distinct.begin(), distinct.end(),
            [](const Rational* a, const Rational* b) { return *a < *b; });
  t.values.reserve(distinct.size());
  for (std::size_t r = 0; r < distinct.size(); ++r) {
    seen[distinct[r]] = static_cast<int>(r);
    t.values.push_back(*distinct[r]);
  }
  t.rank_zero = seen.at(&zero);
  t.rank_one = seen.at(&one);
  const std::size_t n = s.sends.size();
  t.Reserve(n);
  std::vector<std::pair<int, int>> tmp;
  for (const StepSend& e : s.sends) {
    t.source.push_back(e.source);
    t.from.push_back(e.from);
    t.to.push_back(e.to);
    t.step.push_back(e.step);
    for (const Interval& in : e.chunk) {
      int lo = seen.at(&in.lo), hi = seen.at(&in.hi);
      if (lo < hi) tmp.emplace_back(lo, hi);  // the reader guarantees lo < hi
    }
    t.AddChunk(tmp);
  }
  t.iv_begin.push_back(t.ivs.size());
  t.ComputeIntegerValues();
  return t;
}

// The flat form (flat_step_schedule.h): its value table ranked as TableFromSteps ranks the
// endpoints (equal values share a rank), so the table, and the report, are those of
// StepsFromFlat(f).
SendTable TableFromFlat(const FlatStepSchedule& f) {
  SendTable t;
  CopyStepHeader(f, t);
  const Rational zero(0), one(1);
  std::vector<const Rational*> all;  // 0, 1, then f.values
  all.reserve(f.values.size() + 2);
  all.push_back(&zero);
  all.push_back(&one);
  for (const Rational& v : f.values) all.push_back(&v);
  std::vector<int> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return *all[a] < *all[b]; });
  std::vector<int> rank(all.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || *all[order[k - 1]] < *all[order[k]]) t.values.push_back(*all[order[k]]);
    rank[order[k]] = static_cast<int>(t.values.size()) - 1;
  }
  t.rank_zero = rank[0];
  t.rank_one = rank[1];
  const std::size_t n = f.num_sends();
  const auto num_values = static_cast<std::int64_t>(f.values.size());
  if (f.from.size() != n || f.to.size() != n || f.step.size() != n ||
      f.interval_begin.size() != n + 1 || f.lo.size() != f.hi.size()) {
    throw InputError("", "sends", "the flat schedule's arrays differ in length");
  }
  t.Reserve(n);
  std::vector<std::pair<int, int>> tmp;
  for (std::size_t i = 0; i < n; ++i) {
    t.source.push_back(f.source[i]);
    t.from.push_back(f.from[i]);
    t.to.push_back(f.to[i]);
    t.step.push_back(f.step[i]);
    const std::int64_t a = f.interval_begin[i], b = f.interval_begin[i + 1];
    if (a < 0 || a > b || b > static_cast<std::int64_t>(f.lo.size())) {
      throw InputError("", "sends[" + std::to_string(i) + "]", "interval range out of bounds");
    }
    for (std::int64_t q = a; q < b; ++q) {
      const std::int64_t x = f.lo[q], y = f.hi[q];
      if (x < 0 || y < 0 || x >= num_values || y >= num_values) {
        throw InputError("", "sends[" + std::to_string(i) + "]",
                         "interval endpoint index out of range");
      }
      const int lo = rank[x + 2], hi = rank[y + 2];
      if (lo < hi) tmp.emplace_back(lo, hi);  // the reader guarantees lo < hi
    }
    t.AddChunk(tmp);
  }
  t.iv_begin.push_back(t.ivs.size());
  t.ComputeIntegerValues();
  return t;
}

// Endpoints num/den of the compact form: each distinct reduced fraction gets one rank.
SendTable TableFromCompact(const CompactStepSchedule& c) {
  SendTable t;
  CopyStepHeader(c, t);
  struct Frac {
    std::int64_t p, q;
  };
  std::vector<Frac> fracs{{0, 1}, {1, 1}};
  std::map<std::pair<std::int64_t, std::int64_t>, int> frac_id{{{0, 1}, 0}, {{1, 1}, 1}};
  // Per step: numerator -> fraction id (dense when the denominator is small).
  constexpr std::int64_t kDenseLimit = 1 << 20;
  std::vector<std::vector<int>> step_dense(c.steps.size());
  std::vector<std::unordered_map<std::int64_t, int>> step_sparse(c.steps.size());
  // A step's dense table costs den + 1 ints: only when that is small against the step's own
  // endpoints, so memory stays O(file size) whatever the denominators.
  auto dense_ok = [&](std::size_t k) {
    const std::int64_t den = c.steps[k].denominator;
    return den <= kDenseLimit && den <= 8 * static_cast<std::int64_t>(c.steps[k].lo.size()) + 64;
  };
  auto id_of = [&](std::size_t k, std::int64_t num) {
    const std::int64_t den = c.steps[k].denominator;
    int* slot = nullptr;
    if (num >= 0 && num <= den && dense_ok(k)) {
      auto& dense = step_dense[k];
      if (dense.empty()) dense.assign(static_cast<std::size_t>(den) + 1, -1);
      slot = &dense[static_cast<std::size_t>(num)];
    } else {
      slot = &step_sparse[k].emplace(num, -1).first->second;
    }
    if (*slot < 0) {
      const std::int64_t g = std::gcd(num, den);
      auto key = std::make_pair(num / g, den / g);
      auto [it, inserted] = frac_id.emplace(key, static_cast<int>(fracs.size()));
      if (inserted) fracs.push_back({key.first, key.second});
      *slot = it->second;
    }
    return *slot;
  };
  const std::size_t n = c.num_sends();
  t.Reserve(n);
  std::vector<std::pair<int, int>> tmp;
  for (std::size_t k = 0; k < c.steps.size(); ++k) {
    const CompactStep& cs = c.steps[k];
    for (std::size_t r = 0; r + 1 < cs.record_begin.size(); ++r) {
      for (auto i = cs.record_begin[r]; i < cs.record_begin[r + 1]; ++i) {
        t.source.push_back(cs.source[i]);
        t.from.push_back(cs.from[r]);
        t.to.push_back(cs.to[r]);
        t.step.push_back(cs.step);
        for (auto q = cs.interval_begin[i]; q < cs.interval_begin[i + 1]; ++q) {
          if (cs.lo[q] < cs.hi[q]) tmp.emplace_back(id_of(k, cs.lo[q]), id_of(k, cs.hi[q]));
        }
        // Fraction ids are not ranks yet: AddChunk's merge is redone after ranking.
        t.iv_begin.push_back(t.ivs.size());
        t.ivs.insert(t.ivs.end(), tmp.begin(), tmp.end());
        tmp.clear();
      }
    }
  }
  t.iv_begin.push_back(t.ivs.size());
  // Rank the fractions (exact comparison p/q < p'/q' by 128-bit cross products).
  std::vector<int> order(fracs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return static_cast<__int128>(fracs[a].p) * fracs[b].q <
           static_cast<__int128>(fracs[b].p) * fracs[a].q;
  });
  std::vector<int> rank(fracs.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    rank[order[r]] = static_cast<int>(r);
    t.values.emplace_back(fracs[order[r]].p, fracs[order[r]].q);
  }
  t.rank_zero = rank[0];
  t.rank_one = rank[1];
  // Re-express the intervals as ranks and merge each chunk.
  std::vector<std::pair<int, int>> raw = std::move(t.ivs);
  std::vector<std::size_t> raw_begin = std::move(t.iv_begin);
  t.ivs.clear();
  t.iv_begin.clear();
  t.ivs.reserve(raw.size());
  t.iv_begin.reserve(raw_begin.size());
  for (std::size_t i = 0; i + 1 < raw_begin.size(); ++i) {
    for (std::size_t q = raw_begin[i]; q < raw_begin[i + 1]; ++q)
      tmp.emplace_back(rank[raw[q].first], rank[raw[q].second]);
    if (tmp.size() == 1) {  // the common case: nothing to sort or merge
      t.iv_begin.push_back(t.ivs.size());
      t.ivs.push_back(tmp[0]);
      tmp.clear();
    } else {
      t.AddChunk(tmp);
    }
  }
  t.iv_begin.push_back(t.ivs.size());
  t.ComputeIntegerValues();
  return t;
}

class StepChecker {
 public:
  StepChecker(const Topology& g, const SendTable& s, const StepCheckOptions& opt,
              StepCheckReport& report)
      : g_(g), s_(s), opt_(opt), report_(report), out_(report, opt.max_errors) {}

  void Run();

 private:
  std::string Name(int v) const { return g_.node(v).name; }
  std::string IntervalText(int lo_rank, int hi_rank) const {
    return "[" + ToString(s_.values[lo_rank]) + ", " + ToString(s_.values[hi_rank]) + ")";
  }
  Interval MakeInterval(int lo_rank, int hi_rank) const {
    return Interval{s_.values[lo_rank], s_.values[hi_rank]};
  }
  int StepOfRank(int rank) const { return steps_[static_cast<std::size_t>(rank) - 1]; }

  void CheckStepRange();
  void ValidateSends();
  void RankSteps();
  void ComputeCosts();
  bool ComputeIntegerLoads();
  void ComputeRationalLoads();
  Rational LinkTime(int rank, int link) const;
  std::vector<Phase> BuildPhases() const;
  // The delivery sweep of one phase (seed 000 Def. 6): per shard, its elementary intervals
  // (CutShard), every send in time order (SweepOneSend: what the receiver holds from when;
  // not-held, duplicate and BFB violations), then the compute nodes that never hold some
  // interval (ReportMissing).
  struct ShardSweep {
    int v = -1;                    // the shard's owner
    std::vector<int> breakpoints;  // value ranks cutting the shard, 0 and 1 included
    int num_iv = 0;                // elementary intervals: breakpoints.size() - 1
    std::vector<int> hold;         // hold[u * num_iv + i]: first order u holds interval i
    std::vector<int> dist;         // BFS distances from v (check_bfb)
  };
  void Sweep(const Phase& phase);
  void CutShard(int v, const std::vector<SweepSend>& sends, std::size_t pos, std::size_t end,
                std::size_t hold_budget, ShardSweep* shard);
  void SweepOneSend(const Phase& phase, const SweepSend& e, ShardSweep& shard);
  void ReportMissing(const Phase& phase, const ShardSweep& shard);
  void CheckBandwidthOptimal();
  void CheckClaims();

  const Topology& g_;
  const SendTable& s_;
  const StepCheckOptions& opt_;
  StepCheckReport& report_;
  Collector out_;

  // T: the schedule's number of steps ("tl" when claimed, else the last step used); every
  // send must lie in 1..T, rs_steps in 0..T.
  std::int64_t num_steps_ = 0;
  std::int64_t rs_steps_ = 0;   // allreduce: rs_steps clamped to 0..T
  std::vector<char> in_range_;  // per send: 1 <= step <= T
  std::vector<char> usable_;    // per send: in range, link exists and source is admissible
  std::vector<int> link_;       // per send: link id (or -1)
  // The distinct steps of in-range sends, ascending; a send's rank is 1 + its step's index.
  // Tables are indexed by rank, so memory never depends on the step numbers themselves.
  std::vector<int> steps_;
  std::vector<int> rank_;  // per send: its step's rank (0 when out of range)
  // Loads per (rank, link): int64 numerators over s_.common_den in a dense table
  // (int_load_[(rank - 1) * links + link]) or, failing that, exact Rationals.
  std::vector<std::int64_t> int_load_;
  std::unordered_map<std::uint64_t, Rational> load_;
  std::map<int, Rational> step_time_;  // per rank: the bottleneck time
  bool duplicates_found_ = false;
  std::vector<int> local_of_rank_;  // value rank -> index among the shard's breakpoints
};

void StepChecker::CheckStepRange() {
  const std::size_t n = s_.size();
  std::int64_t last = 0;
  for (std::size_t i = 0; i < n; ++i) last = std::max<std::int64_t>(last, s_.step[i]);
  num_steps_ = s_.claimed_tl ? std::int64_t{*s_.claimed_tl} : last;
  in_range_.assign(n, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const int step = s_.step[i];
    if (step >= 1 && step <= num_steps_) continue;
    in_range_[i] = 0;
    out_.Add(StepViolation{StepViolationKind::kStepOutOfRange, static_cast<int>(i), s_.source[i],
                           s_.from[i], step, std::nullopt, ""},
             [&] {
               return "sends[" + std::to_string(i) + "] (" + Name(s_.from[i]) + " -> " +
                      Name(s_.to[i]) + ") is at step " + std::to_string(step) +
                      ", outside the schedule's steps 1.." + std::to_string(num_steps_) +
                      (s_.claimed_tl ? " (T = the claimed tl)" : "");
             });
  }
  if (s_.collective == Collective::kAllreduce) {
    const std::int64_t rs = s_.rs_steps.value_or(0);
    rs_steps_ = std::clamp<std::int64_t>(rs, 0, num_steps_);
    if (rs != rs_steps_) {
      out_.Add(StepViolation{StepViolationKind::kBadRsSteps, -1, -1, -1, -1, std::nullopt, ""},
               [&] {
                 return "rs_steps = " + std::to_string(rs) +
                        " is outside the schedule's steps 0.." + std::to_string(num_steps_);
               });
    }
  }
}

void StepChecker::ValidateSends() {
  const std::size_t n = s_.size();
  usable_ = in_range_;
  link_.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (!in_range_[i]) continue;  // reported by CheckStepRange; carries nothing
    const int source = s_.source[i], from = s_.from[i], to = s_.to[i], step = s_.step[i];
    auto at = [&] {
      return "step " + std::to_string(step) + ": sends[" + std::to_string(i) + "] ";
    };
    if (auto l = g_.FindLink(from, to)) {
      link_[i] = *l;
    } else {
      usable_[i] = 0;
      out_.Add(StepViolation{StepViolationKind::kMissingLink, static_cast<int>(i), source, from,
                             step, std::nullopt, ""},
               [&] {
                 return at() + "uses link " + Name(from) + " -> " + Name(to) +
                        ", which the topology does not have";
               });
    }
    if (!g_.IsCompute(source)) {
      usable_[i] = 0;
      out_.Add(StepViolation{StepViolationKind::kBadSource, static_cast<int>(i), source, from, step,
                             std::nullopt, ""},
               [&] {
                 return at() + "carries a shard of '" + Name(source) +
                        "', which is a switch and owns no shard";
               });
    } else if (s_.collective == Collective::kBroadcast && s_.root && source != *s_.root) {
      usable_[i] = 0;
      out_.Add(StepViolation{StepViolationKind::kBadSource, static_cast<int>(i), source, from, step,
                             std::nullopt, ""},
               [&] {
                 return at() + "carries data of '" + Name(source) +
                        "', but the broadcast root is '" + Name(*s_.root) + "'";
               });
    }
  }
}

void StepChecker::RankSteps() {
  steps_.clear();
  for (std::size_t i = 0; i < s_.size(); ++i)
    if (in_range_[i]) steps_.push_back(s_.step[i]);
  std::sort(steps_.begin(), steps_.end());
  steps_.erase(std::unique(steps_.begin(), steps_.end()), steps_.end());
  rank_.assign(s_.size(), 0);
  for (std::size_t i = 0; i < s_.size(); ++i) {
    if (!in_range_[i]) continue;
    rank_[i] = static_cast<int>(std::lower_bound(steps_.begin(), steps_.end(), s_.step[i]) -
                                steps_.begin()) +
               1;
  }
  // T_L: the last step used (a send past a claimed tl makes that claim wrong as well).
  report_.tl = 0;
  for (std::size_t i = 0; i < s_.size(); ++i) report_.tl = std::max(report_.tl, s_.step[i]);
}

// Integer loads: lengths are value_num differences; false (nothing kept) when there is no
// common denominator, the dense table would be large against the schedule, or a sum would
// overflow.
bool StepChecker::ComputeIntegerLoads() {
  const std::size_t links = static_cast<std::size_t>(g_.num_links());
  const std::size_t ranks = steps_.size();
  const std::size_t budget = std::max<std::size_t>(std::size_t{1} << 20, 8 * (s_.size() + links));
  if (s_.common_den == 0 || links == 0 || ranks > budget / links) return false;
  int_load_.assign(ranks * links, 0);
  for (std::size_t i = 0; i < s_.size(); ++i) {
    if (link_[i] < 0) continue;  // not a link or not in range: reported, carries no load
    std::int64_t len = 0;
    for (std::size_t k = s_.iv_begin[i]; k < s_.iv_begin[i + 1]; ++k)
      len += s_.value_num[s_.ivs[k].second] - s_.value_num[s_.ivs[k].first];  // <= common_den
    std::int64_t& slot = int_load_[static_cast<std::size_t>(rank_[i] - 1) * links + link_[i]];
    if (__builtin_add_overflow(slot, len, &slot)) {
      int_load_.clear();
      return false;
    }
  }
  return true;
}

void StepChecker::ComputeRationalLoads() {
  std::unordered_map<std::uint64_t, Rational> single_length;
  Rational length;
  for (std::size_t i = 0; i < s_.size(); ++i) {
    if (link_[i] < 0) continue;
    std::size_t a = s_.iv_begin[i], b = s_.iv_begin[i + 1];
    const Rational* len = &length;
    if (b - a == 1) {
      std::uint64_t key = (static_cast<std::uint64_t>(s_.ivs[a].first) << 32) |
                          static_cast<std::uint32_t>(s_.ivs[a].second);
      auto it = single_length.find(key);
      if (it == single_length.end()) {
        it = single_length.emplace(key, s_.values[s_.ivs[a].second] - s_.values[s_.ivs[a].first])
                 .first;
      }
      len = &it->second;
    } else {
      length = 0;
      for (std::size_t k = a; k < b; ++k)
        length += s_.values[s_.ivs[k].second] - s_.values[s_.ivs[k].first];
    }
    std::uint64_t key =
        (static_cast<std::uint64_t>(rank_[i]) << 32) | static_cast<std::uint32_t>(link_[i]);
    load_[key] += *len;
  }
}

// Data on `link` at the step of rank `rank` over its bandwidth, in shard units.
Rational StepChecker::LinkTime(int rank, int link) const {
  if (!int_load_.empty()) {
    const std::int64_t v = int_load_[static_cast<std::size_t>(rank - 1) * g_.num_links() + link];
    return Rational(v, s_.common_den) / g_.link(link).bandwidth;
  }
  auto it = load_.find((static_cast<std::uint64_t>(rank) << 32) | static_cast<std::uint32_t>(link));
  return it == load_.end() ? Rational(0) : it->second / g_.link(link).bandwidth;
}

// T_L = the last step; T_B = sum over steps of max over links of (data on the link)/b_e.
void StepChecker::ComputeCosts() {
  if (ComputeIntegerLoads()) {
    // Per step, the link maximizing load/b: compared exactly by cross-multiplying when every
    // bandwidth is an int64 integer, else as Rationals.
    const int links = g_.num_links();
    std::vector<std::int64_t> int_bw(links, 0);
    bool integral = true;
    for (int e = 0; e < links; ++e) {
      const Rational& b = g_.link(e).bandwidth;
      if (Denominator(b) != 1 || b > Rational(std::int64_t{1} << 62)) {
        integral = false;
        break;
      }
      int_bw[e] = ToInt64(Numerator(b));
    }
    const int ranks = static_cast<int>(steps_.size());
    for (int rank = 1; rank <= ranks; ++rank) {
      const std::int64_t* row = &int_load_[static_cast<std::size_t>(rank - 1) * links];
      int best = -1;
      Rational best_time;
      for (int e = 0; e < links; ++e) {
        if (row[e] == 0) continue;
        if (integral) {
          if (best < 0 || static_cast<__int128>(row[e]) * int_bw[best] >
                              static_cast<__int128>(row[best]) * int_bw[e])
            best = e;
        } else {
          Rational t = LinkTime(rank, e);
          if (best < 0 || t > best_time) {
            best = e;
            best_time = std::move(t);
          }
        }
      }
      if (best >= 0) step_time_.emplace(rank, integral ? LinkTime(rank, best) : best_time);
    }
  } else {
    ComputeRationalLoads();
    for (const auto& [key, load] : load_) {
      int rank = static_cast<int>(key >> 32);
      int link = static_cast<int>(key & 0xffffffffu);
      Rational t = load / g_.link(link).bandwidth;
      auto it = step_time_.find(rank);
      if (it == step_time_.end()) {
        step_time_.emplace(rank, std::move(t));
      } else if (t > it->second) {
        it->second = std::move(t);
      }
    }
  }
  report_.tb = 0;
  for (const auto& [rank, t] : step_time_) report_.tb += t;
}

std::vector<Phase> StepChecker::BuildPhases() const {
  std::vector<int> compute = g_.ComputeNodes();
  std::vector<Phase> phases;
  const int ranks = static_cast<int>(steps_.size());
  // Sends with first_step <= step <= last_step; phase steps are 64-bit (no overflow at 2^31).
  auto add = [&](const std::string& label, Orientation o, std::int64_t first_step,
                 std::int64_t last_step) {
    Phase p;
    p.label = label;
    p.orientation = o;
    p.sources = compute;
    for (std::size_t i = 0; i < s_.size(); ++i) {
      if (!usable_[i]) continue;
      const std::int64_t step = s_.step[i];
      if (step < first_step || step > last_step) continue;
      if (o == Orientation::kForward) {
        p.sends.push_back({static_cast<int>(i), s_.source[i], s_.from[i], s_.to[i], rank_[i],
                           step - first_step + 1, s_.iv_begin[i], s_.iv_begin[i + 1]});
      } else {  // Def. 7: ((v,C),(w,u),T-t+1) on G^T for ((v,C),(u,w),t)
        p.sends.push_back({static_cast<int>(i), s_.source[i], s_.to[i], s_.from[i],
                           ranks + 1 - rank_[i], last_step - step + 1, s_.iv_begin[i],
                           s_.iv_begin[i + 1]});
      }
    }
    phases.push_back(std::move(p));
  };
  const std::int64_t tl = report_.tl;
  if (s_.collective == Collective::kAllgather) {
    add("", Orientation::kForward, 1, std::max<std::int64_t>(tl, 1));
  } else if (s_.collective == Collective::kBroadcast) {
    add("", Orientation::kForward, 1, std::max<std::int64_t>(tl, 1));
    phases.back().sources = {*s_.root};
  } else if (s_.collective == Collective::kReduceScatter) {
    add("", Orientation::kReversed, 1, std::max<std::int64_t>(tl, 1));
  } else {  // allreduce
    const std::int64_t rs = rs_steps_;
    add("reduce-scatter phase (steps 1.." + std::to_string(rs) + "): ", Orientation::kReversed, 1,
        std::max<std::int64_t>(rs, 1));
    if (rs == 0) phases.back().sends.clear();
    add("allgather phase (steps " + std::to_string(rs + 1) + "..): ", Orientation::kForward, rs + 1,
        std::max<std::int64_t>(tl, rs + 1));
  }
  return phases;
}

// Sends in (source, order, index) order by two stable counting sorts (the phase lists them in
// index order); orders are step ranks, at most the number of sends.
std::vector<SweepSend> SortForSweep(const std::vector<SweepSend>& in, int num_nodes) {
  int max_order = 0;
  for (const SweepSend& e : in) max_order = std::max(max_order, e.order);
  std::vector<SweepSend> by_step(in.size()), out(in.size());
  std::vector<std::size_t> count(static_cast<std::size_t>(std::max(max_order, num_nodes)) + 2, 0);
  for (const SweepSend& e : in) ++count[e.order + 1];
  for (std::size_t k = 1; k < count.size(); ++k) count[k] += count[k - 1];
  for (const SweepSend& e : in) by_step[count[e.order]++] = e;
  std::fill(count.begin(), count.end(), 0);
  for (const SweepSend& e : by_step) ++count[e.source + 1];
  for (std::size_t k = 1; k < count.size(); ++k) count[k] += count[k - 1];
  for (const SweepSend& e : by_step) out[count[e.source]++] = e;
  return out;
}

void StepChecker::Sweep(const Phase& phase) {
  const std::vector<SweepSend> sends = SortForSweep(phase.sends, g_.num_nodes());
  const int n = g_.num_nodes();
  // The hold table has N cells per elementary interval of a shard: bounded by a multiple of
  // the input's size (docs/formats.md, "Limits"), so its memory is O(schedule + topology).
  const std::size_t hold_budget = std::max<std::size_t>(
      std::size_t{1} << 24, 64 * (s_.size() + s_.ivs.size() + static_cast<std::size_t>(n) +
                                  static_cast<std::size_t>(g_.num_links())));
  local_of_rank_.assign(s_.values.size(), -1);
  ShardSweep shard;
  std::size_t pos = 0;
  std::vector<int> sources = phase.sources;
  std::sort(sources.begin(), sources.end());
  for (int v : sources) {
    while (pos < sends.size() && sends[pos].source < v) ++pos;  // admissible sources only
    std::size_t end = pos;
    while (end < sends.size() && sends[end].source == v) ++end;
    CutShard(v, sends, pos, end, hold_budget, &shard);
    // hold[u * num_iv + i]: first order (step rank) after which u holds elementary interval i.
    shard.hold.assign(static_cast<std::size_t>(n) * shard.num_iv, kNever);
    for (int q = 0; q < shard.num_iv; ++q) {
      shard.hold[static_cast<std::size_t>(v) * shard.num_iv + q] = 0;
    }
    shard.dist.clear();
    if (opt_.check_bfb) shard.dist = Bfs(g_, v, phase.orientation);
    for (std::size_t k = pos; k < end; ++k) SweepOneSend(phase, sends[k], shard);
    ReportMissing(phase, shard);
    for (int b : shard.breakpoints) local_of_rank_[b] = -1;
    pos = end;
  }
}

void StepChecker::CutShard(int v, const std::vector<SweepSend>& sends, std::size_t pos,
                           std::size_t end, std::size_t hold_budget, ShardSweep* shard) {
  shard->v = v;
  // Elementary intervals of v's shard: cut at every endpoint of v's chunks, and at 0, 1.
  std::vector<int>& breakpoints = shard->breakpoints;
  breakpoints.assign({s_.rank_zero, s_.rank_one});
  for (std::size_t k = pos; k < end; ++k) {
    for (std::size_t q = sends[k].iv_first; q < sends[k].iv_last; ++q) {
      breakpoints.push_back(s_.ivs[q].first);
      breakpoints.push_back(s_.ivs[q].second);
    }
  }
  std::sort(breakpoints.begin(), breakpoints.end());
  breakpoints.erase(std::unique(breakpoints.begin(), breakpoints.end()), breakpoints.end());
  const int num_iv = static_cast<int>(breakpoints.size()) - 1;
  const int n = g_.num_nodes();
  if (static_cast<std::size_t>(n) * static_cast<std::size_t>(num_iv) > hold_budget) {
    throw InputError(
        "", "the sends of shard '" + Name(v) + "'",
        "cut the shard into " + std::to_string(num_iv) + " elementary intervals on " +
            std::to_string(n) + " nodes, above the checker's limit of " +
            std::to_string(hold_budget) +
            " cells (64 per send, interval, node and link of the input, at least 2^24)");
  }
  for (int q = 0; q <= num_iv; ++q) local_of_rank_[breakpoints[q]] = q;
  shard->num_iv = num_iv;
}

void StepChecker::SweepOneSend(const Phase& phase, const SweepSend& e, ShardSweep& shard) {
  const bool reversed = phase.orientation == Orientation::kReversed;
  const std::string& label = phase.label;
  const int v = shard.v, num_iv = shard.num_iv;
  const std::vector<int>& breakpoints = shard.breakpoints;
  // The send as written (its step read only for a violation: a scattered index).
  const int orig_from = reversed ? e.to : e.from, orig_to = reversed ? e.from : e.to;
  auto orig_step_of = [&] { return s_.step[e.index]; };
  auto at = [&]() { return label + "step " + std::to_string(orig_step_of()) + ": "; };
  int* hold_from = &shard.hold[static_cast<std::size_t>(e.from) * num_iv];
  int* hold_to = &shard.hold[static_cast<std::size_t>(e.to) * num_iv];
  int not_held_lo = -1, not_held_hi = -1, dup_lo = -1, dup_hi = -1;
  for (std::size_t q = e.iv_first; q < e.iv_last; ++q) {
    const int lo = local_of_rank_[s_.ivs[q].first], hi = local_of_rank_[s_.ivs[q].second];
    for (int i = lo; i < hi; ++i) {
      if (hold_from[i] >= e.order) {
        if (not_held_lo < 0) not_held_lo = not_held_hi = i;
        if (not_held_hi == i) not_held_hi = i + 1;
        continue;  // the receiver does not get what the sender lacks
      }
      if (hold_to[i] != kNever) {
        if (dup_lo < 0) dup_lo = dup_hi = i;
        if (dup_hi == i) dup_hi = i + 1;
        if (hold_to[i] > e.order) hold_to[i] = e.order;
      } else {
        hold_to[i] = e.order;
      }
    }
  }
  if (not_held_lo >= 0 && out_.Full()) {
    out_.Count(StepViolationKind::kNotHeld);
  } else if (not_held_lo >= 0) {
    out_.Add(StepViolation{StepViolationKind::kNotHeld, e.index, v, e.from, orig_step_of(),
                           MakeInterval(breakpoints[not_held_lo], breakpoints[not_held_hi]), ""},
             [&] {
               const std::string iv =
                   IntervalText(breakpoints[not_held_lo], breakpoints[not_held_hi]);
               if (!reversed) {
                 return at() + "node " + Name(orig_from) + " sends " + iv + " of " + Name(v) +
                        "'s shard to " + Name(orig_to) + " without holding it before step " +
                        std::to_string(orig_step_of());
               }
               return at() + "node " + Name(orig_from) + " sends its partial " + iv + " of shard " +
                      Name(v) + " to " + Name(orig_to) + ", but " + Name(orig_to) +
                      " does not pass it on towards " + Name(v) +
                      " at a later step (reduce-scatter checked as the reversed allgather on "
                      "G^T, seed 000 Thm 3)";
             });
  }
  if (dup_lo >= 0) {
    duplicates_found_ = true;
    // In a reduce-scatter phase a duplicate is a contribution reduced twice: a wrong sum,
    // so it is always a violation (an allgather duplicate only wastes bandwidth).
    if ((opt_.check_no_duplicates || reversed) && out_.Full()) {
      out_.Count(StepViolationKind::kDuplicate);
    } else if (opt_.check_no_duplicates || reversed) {
      out_.Add(StepViolation{StepViolationKind::kDuplicate, e.index, v, e.to, orig_step_of(),
                             MakeInterval(breakpoints[dup_lo], breakpoints[dup_hi]), ""},
               [&] {
                 const std::string iv = IntervalText(breakpoints[dup_lo], breakpoints[dup_hi]);
                 if (!reversed) {
                   return at() + "node " + Name(orig_to) + " receives " + iv + " of " + Name(v) +
                          "'s shard from " + Name(orig_from) + " but already holds it";
                 }
                 return at() + "node " + Name(orig_from) + " sends " + iv + " of shard " + Name(v) +
                        " more than once (its contribution would be reduced twice)";
               });
    }
  }
  if (opt_.check_bfb) {
    const int dt = shard.dist[e.to], df = shard.dist[e.from];
    if (!(df >= 0 && dt == df + 1 && dt == e.phase_step)) {
      out_.Add(StepViolation{StepViolationKind::kNotBfb, e.index, v, e.to, orig_step_of(),
                             std::nullopt, ""},
               [&] {
                 std::string ds = reversed ? "d_{G^T}" : "d";
                 return at() + "send of " + Name(v) + "'s data " + Name(orig_from) + " -> " +
                        Name(orig_to) + " is not breadth-first: " + ds + "(" + Name(v) + ", " +
                        Name(e.to) + ") = " + std::to_string(dt) + ", " + ds + "(" + Name(v) +
                        ", " + Name(e.from) + ") + 1 = " + std::to_string(df + 1) +
                        ", phase step " + std::to_string(e.phase_step) + " (Def. 15 / Thm 14" +
                        (reversed ? ", on the reversed schedule" : "") + ")";
               });
    }
  }
}

void StepChecker::ReportMissing(const Phase& phase, const ShardSweep& shard) {
  const bool reversed = phase.orientation == Orientation::kReversed;
  const std::string& label = phase.label;
  const int v = shard.v, num_iv = shard.num_iv;
  const std::vector<int>& breakpoints = shard.breakpoints;
  // Every other compute node must hold every elementary interval (Def. 6 chains).
  for (int u = 0; u < g_.num_nodes(); ++u) {
    if (u == v || !g_.IsCompute(u)) continue;
    const int* h = &shard.hold[static_cast<std::size_t>(u) * num_iv];
    int lo = -1, hi = -1;
    for (int i = 0; i < num_iv; ++i) {
      if (h[i] != kNever) continue;
      if (lo < 0) lo = hi = i;
      if (hi == i) hi = i + 1;
    }
    if (lo < 0) continue;
    if (out_.Full()) {
      out_.Count(StepViolationKind::kMissing);
      continue;
    }
    out_.Add(StepViolation{StepViolationKind::kMissing, -1, v, u, -1,
                           MakeInterval(breakpoints[lo], breakpoints[hi]), ""},
             [&] {
               const std::string iv = IntervalText(breakpoints[lo], breakpoints[hi]);
               if (!reversed) {
                 return label + "node " + Name(u) + " never receives " + iv + " of " + Name(v) +
                        "'s shard (no chain of sends with increasing steps, Def. 6)";
               }
               return label + "the contribution of node " + Name(u) + " to " + iv + " of shard " +
                      Name(v) + " never reaches " + Name(v) +
                      " (no chain of sends with increasing steps, Def. 6)";
             });
  }
}

void StepChecker::CheckBandwidthOptimal() {
  // Thm 6 / Cor. 6.1: T_B* = (N-1)/N · M/B = (N-1)/B shard units, B = a node's total bandwidth;
  // defined for topologies whose nodes all have the same total in- and out-bandwidth.
  const int n = g_.num_compute();
  std::optional<Rational> b;
  bool uniform = g_.num_switches() == 0 && n > 0;
  for (int v = 0; uniform && v < g_.num_nodes(); ++v) {
    Rational in = g_.InBandwidth(v), out = g_.OutBandwidth(v);
    if (!b) b = out;
    uniform = in == *b && out == *b;
  }
  if (uniform && *b > 0 && s_.collective != Collective::kBroadcast) {
    Rational bound = Rational(n - 1) / *b;
    if (s_.collective == Collective::kAllreduce) bound *= 2;
    report_.bandwidth_lower_bound = bound;
  }
  if (!opt_.check_bandwidth_optimal) return;
  if (!report_.bandwidth_lower_bound) {
    report_.bandwidth_optimal = false;
    out_.Add(
        StepViolation{StepViolationKind::kNotBandwidthOptimal, -1, -1, -1, -1, std::nullopt, ""},
        [] {
          return std::string(
              "bandwidth optimality (seed 000 Thm 7 / Cor. 6.1) is defined for "
              "allgather, reduce-scatter and allreduce on switchless topologies "
              "whose nodes all have the same total in- and out-bandwidth");
        });
    return;
  }
  const Rational& bound = *report_.bandwidth_lower_bound;
  report_.bandwidth_optimal = report_.tb == bound;
  if (*report_.bandwidth_optimal) return;
  std::string why = "T_B = " + ToString(report_.tb) +
                    " is not the optimum (N-1)/N · M/B = " + ToString(bound) +
                    " shard units (seed 000 Thm 7 / Cor. 6.1)";
  // Thm 7 condition 1: every link carries the step's full time.
  for (const auto& [rank, t] : step_time_) {
    for (int e = 0; e < g_.num_links(); ++e) {
      Rational mine = LinkTime(rank, e);
      if (mine < t) {
        why += "; condition 1 fails first at step " + std::to_string(StepOfRank(rank)) +
               " on link " + Name(g_.link(e).from) + " -> " + Name(g_.link(e).to) + " (" +
               ToString(mine) + " < " + ToString(t) + ")";
        goto done;
      }
    }
  }
done:
  if (duplicates_found_) why += "; condition 2 fails: some node receives an element twice";
  out_.Add(StepViolation{StepViolationKind::kNotBandwidthOptimal, -1, -1, -1, -1, std::nullopt, ""},
           [&] { return why; });
}

void StepChecker::CheckClaims() {
  if (s_.claimed_tl && *s_.claimed_tl != report_.tl) {
    out_.Add(StepViolation{StepViolationKind::kWrongTl, -1, -1, -1, -1, std::nullopt, ""}, [&] {
      return "claimed tl = " + std::to_string(*s_.claimed_tl) +
             " but the schedule has T_L = " + std::to_string(report_.tl);
    });
  }
  if (s_.claimed_tb && *s_.claimed_tb != report_.tb) {
    out_.Add(StepViolation{StepViolationKind::kWrongTb, -1, -1, -1, -1, std::nullopt, ""}, [&] {
      return "claimed tb = " + ToString(*s_.claimed_tb) +
             " but the schedule has T_B = " + ToString(report_.tb) + " shard units";
    });
  }
}

void StepChecker::Run() {
  CheckStepRange();
  ValidateSends();
  RankSteps();
  ComputeCosts();
  for (const Phase& p : BuildPhases()) Sweep(p);
  if (opt_.check_bfb) {
    report_.bfb = out_.CountOf(StepViolationKind::kNotBfb) == 0;
  }
  if (opt_.check_no_duplicates) report_.no_duplicates = !duplicates_found_;
  CheckBandwidthOptimal();
  CheckClaims();
  report_.ok = report_.num_violations == 0;
}

}  // namespace

const char* StepViolationKindName(StepViolationKind kind) {
  switch (kind) {
    case StepViolationKind::kMissingLink:
      return "missing-link";
    case StepViolationKind::kBadSource:
      return "bad-source";
    case StepViolationKind::kNotHeld:
      return "not-held";
    case StepViolationKind::kMissing:
      return "missing";
    case StepViolationKind::kDuplicate:
      return "duplicate";
    case StepViolationKind::kNotBfb:
      return "not-bfb";
    case StepViolationKind::kNotBandwidthOptimal:
      return "not-bandwidth-optimal";
    case StepViolationKind::kWrongTl:
      return "wrong-tl";
    case StepViolationKind::kWrongTb:
      return "wrong-tb";
    case StepViolationKind::kStepOutOfRange:
      return "step-out-of-range";
    case StepViolationKind::kBadRsSteps:
      return "bad-rs-steps";
  }
  return "unknown";
}

const char* StepVerdictName(StepVerdict v) {
  switch (v) {
    case StepVerdict::kInvalid:
      return "invalid";
    case StepVerdict::kValid:
      return "valid";
    case StepVerdict::kBandwidthOptimal:
      return "valid, bandwidth optimal (Thm 7)";
    case StepVerdict::kBfb:
      return "valid, BFB (Def. 15)";
    case StepVerdict::kBandwidthOptimalBfb:
      return "valid, bandwidth optimal (Thm 7), BFB (Def. 15)";
  }
  return "?";  // not reached: every enumerator is listed
}

StepVerdict StepCheckReport::verdict() const {
  if (!ok) return StepVerdict::kInvalid;
  const bool optimal = bandwidth_optimal.value_or(false), is_bfb = bfb.value_or(false);
  if (optimal && is_bfb) return StepVerdict::kBandwidthOptimalBfb;
  if (optimal) return StepVerdict::kBandwidthOptimal;
  if (is_bfb) return StepVerdict::kBfb;
  return StepVerdict::kValid;
}

StepCheckReport CheckStepSchedule(const Topology& g, const StepSchedule& s,
                                  const StepCheckOptions& options) {
  StepCheckReport report;
  StepChecker(g, TableFromSteps(s), options, report).Run();
  return report;
}

StepCheckReport CheckStepSchedule(const Topology& g, const FlatStepSchedule& s,
                                  const StepCheckOptions& options) {
  StepCheckReport report;
  StepChecker(g, TableFromFlat(s), options, report).Run();
  return report;
}

StepCheckReport CheckStepSchedule(const Topology& g, const CompactStepSchedule& s,
                                  const StepCheckOptions& options) {
  StepCheckReport report;
  StepChecker(g, TableFromCompact(s), options, report).Run();
  return report;
}

}  // namespace collsynth
