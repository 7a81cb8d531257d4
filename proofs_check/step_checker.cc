#include "proofs_check/step_checker.h"

#include <algorithm>
#include <climits>
#include <deque>
#include <map>
#include <unordered_map>
#include <utility>

namespace collsynth {
namespace {

using nlohmann::json;

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
  int step;
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
  void Add(StepViolation v) {
    ++report_.num_violations;
    ++count_[static_cast<int>(v.kind)];
    if (static_cast<int>(report_.violations.size()) < max_) {
      report_.errors.push_back(v.message);
      report_.violations.push_back(std::move(v));
    }
  }
  std::int64_t Count(StepViolationKind kind) const { return count_[static_cast<int>(kind)]; }

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

class StepChecker {
 public:
  StepChecker(const Topology& g, const StepSchedule& s, const StepCheckOptions& opt,
              StepCheckReport& report)
      : g_(g), s_(s), opt_(opt), report_(report), out_(report, opt.max_errors) {}

  void Run();

 private:
  std::string Name(int v) const { return g_.node(v).name; }
  std::string IntervalText(int lo_rank, int hi_rank) const {
    return "[" + ToString(values_[lo_rank]) + ", " + ToString(values_[hi_rank]) + ")";
  }
  Interval MakeInterval(int lo_rank, int hi_rank) const {
    return Interval{values_[lo_rank], values_[hi_rank]};
  }

  void ValidateSends();
  void RankEndpoints();
  void ComputeCosts();
  std::vector<Phase> BuildPhases() const;
  void Sweep(const Phase& phase);
  void CheckBandwidthOptimal();
  void CheckClaims();

  const Topology& g_;
  const StepSchedule& s_;
  const StepCheckOptions& opt_;
  StepCheckReport& report_;
  Collector out_;

  std::vector<char> usable_;  // per send: link exists and source is admissible
  std::vector<int> link_;     // per send: link id (or -1)
  // Distinct endpoints in increasing order; ranks index values_.
  std::vector<Rational> values_;
  int rank_zero_ = 0, rank_one_ = 0;
  // Per send, its chunk as merged, sorted rank intervals: ivs_[iv_begin_[i] .. iv_begin_[i+1]).
  std::vector<std::pair<int, int>> ivs_;
  std::vector<std::size_t> iv_begin_;
  // loads per (step, link), and the per-step bottleneck time.
  std::map<int, Rational> step_time_;
  std::unordered_map<std::uint64_t, Rational> load_;
  bool duplicates_found_ = false;
};

void StepChecker::ValidateSends() {
  const std::size_t n = s_.sends.size();
  usable_.assign(n, 1);
  link_.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const StepSend& e = s_.sends[i];
    const std::string at = "step " + std::to_string(e.step) + ": ";
    if (auto l = g_.FindLink(e.from, e.to)) {
      link_[i] = *l;
    } else {
      usable_[i] = 0;
      StepViolation v{StepViolationKind::kMissingLink, static_cast<int>(i), e.source, e.from, e.step,
                      std::nullopt,
                      at + "sends[" + std::to_string(i) + "] uses link " + Name(e.from) + " -> " +
                          Name(e.to) + ", which the topology does not have"};
      out_.Add(std::move(v));
    }
    if (!g_.IsCompute(e.source)) {
      usable_[i] = 0;
      out_.Add(StepViolation{StepViolationKind::kBadSource, static_cast<int>(i), e.source, e.from,
                             e.step, std::nullopt,
                             at + "sends[" + std::to_string(i) + "] carries a shard of '" +
                                 Name(e.source) + "', which is a switch and owns no shard"});
    } else if (s_.collective == "broadcast" && s_.root && e.source != *s_.root) {
      usable_[i] = 0;
      out_.Add(StepViolation{StepViolationKind::kBadSource, static_cast<int>(i), e.source, e.from,
                             e.step, std::nullopt,
                             at + "sends[" + std::to_string(i) + "] carries data of '" +
                                 Name(e.source) + "', but the broadcast root is '" +
                                 Name(*s_.root) + "'"});
    }
  }
}

void StepChecker::RankEndpoints() {
  const Rational zero(0), one(1);
  std::unordered_map<const Rational*, int, RationalPtrHash, RationalPtrEq> seen;
  seen.reserve(1024);
  std::vector<const Rational*> distinct;
  auto note = [&](const Rational* r) {
    if (seen.emplace(r, 0).second) distinct.push_back(r);
  };
  note(&zero);
  note(&one);
  for (const StepSend& e : s_.sends) {
    for (const Interval& in : e.chunk) {
      note(&in.lo);
      note(&in.hi);
    }
  }
  std::sort(distinct.begin(), distinct.end(),
            [](const Rational* a, const Rational* b) { return *a < *b; });
  values_.reserve(distinct.size());
  for (std::size_t r = 0; r < distinct.size(); ++r) {
    seen[distinct[r]] = static_cast<int>(r);
    values_.push_back(*distinct[r]);
  }
  rank_zero_ = seen.at(&zero);
  rank_one_ = seen.at(&one);
  // Normalize every chunk: ranks, sorted, overlapping or touching intervals merged.
  iv_begin_.reserve(s_.sends.size() + 1);
  std::vector<std::pair<int, int>> tmp;
  for (const StepSend& e : s_.sends) {
    iv_begin_.push_back(ivs_.size());
    tmp.clear();
    for (const Interval& in : e.chunk) {
      int lo = seen.at(&in.lo), hi = seen.at(&in.hi);
      if (lo < hi) tmp.emplace_back(lo, hi);  // the reader guarantees lo < hi
    }
    std::sort(tmp.begin(), tmp.end());
    for (const auto& p : tmp) {
      if (ivs_.size() > iv_begin_.back() && ivs_.back().second >= p.first) {
        ivs_.back().second = std::max(ivs_.back().second, p.second);
      } else {
        ivs_.push_back(p);
      }
    }
  }
  iv_begin_.push_back(ivs_.size());
}

// T_L = the last step; T_B = sum over steps of max over links of (data on the link)/b_e.
void StepChecker::ComputeCosts() {
  int tl = 0;
  std::unordered_map<std::uint64_t, Rational> single_length;
  Rational length;
  for (std::size_t i = 0; i < s_.sends.size(); ++i) {
    tl = std::max(tl, s_.sends[i].step);
    if (link_[i] < 0) continue;  // not a link: reported, carries no load
    std::size_t a = iv_begin_[i], b = iv_begin_[i + 1];
    const Rational* len = &length;
    if (b - a == 1) {
      std::uint64_t key = (static_cast<std::uint64_t>(ivs_[a].first) << 32) |
                          static_cast<std::uint32_t>(ivs_[a].second);
      auto it = single_length.find(key);
      if (it == single_length.end()) {
        it = single_length.emplace(key, values_[ivs_[a].second] - values_[ivs_[a].first]).first;
      }
      len = &it->second;
    } else {
      length = 0;
      for (std::size_t k = a; k < b; ++k) length += values_[ivs_[k].second] - values_[ivs_[k].first];
    }
    std::uint64_t key = (static_cast<std::uint64_t>(s_.sends[i].step) << 32) |
                        static_cast<std::uint32_t>(link_[i]);
    load_[key] += *len;
  }
  for (const auto& [key, load] : load_) {
    int step = static_cast<int>(key >> 32);
    int link = static_cast<int>(key & 0xffffffffu);
    Rational t = load / g_.link(link).bandwidth;
    auto it = step_time_.find(step);
    if (it == step_time_.end()) {
      step_time_.emplace(step, std::move(t));
    } else if (t > it->second) {
      it->second = std::move(t);
    }
  }
  report_.tl = tl;
  report_.tb = 0;
  for (const auto& [step, t] : step_time_) report_.tb += t;
}

std::vector<Phase> StepChecker::BuildPhases() const {
  std::vector<int> compute = g_.ComputeNodes();
  std::vector<Phase> phases;
  auto add = [&](const std::string& label, Orientation o, int first_step, int last_step) {
    Phase p;
    p.label = label;
    p.orientation = o;
    p.sources = compute;
    for (std::size_t i = 0; i < s_.sends.size(); ++i) {
      if (!usable_[i]) continue;
      const StepSend& e = s_.sends[i];
      if (e.step < first_step || e.step > last_step) continue;
      if (o == Orientation::kForward) {
        p.sends.push_back({static_cast<int>(i), e.source, e.from, e.to, e.step - first_step + 1});
      } else {  // Def. 7: ((v,C),(w,u),T-t+1) on G^T for ((v,C),(u,w),t)
        p.sends.push_back({static_cast<int>(i), e.source, e.to, e.from, last_step - e.step + 1});
      }
    }
    phases.push_back(std::move(p));
  };
  const int tl = report_.tl;
  if (s_.collective == "allgather") {
    add("", Orientation::kForward, 1, std::max(tl, 1));
  } else if (s_.collective == "broadcast") {
    add("", Orientation::kForward, 1, std::max(tl, 1));
    phases.back().sources = {*s_.root};
  } else if (s_.collective == "reduce-scatter") {
    add("", Orientation::kReversed, 1, std::max(tl, 1));
  } else {  // allreduce
    const int rs = s_.rs_steps.value_or(0);
    add("reduce-scatter phase (steps 1.." + std::to_string(rs) + "): ", Orientation::kReversed, 1,
        std::max(rs, 1));
    if (rs == 0) phases.back().sends.clear();
    add("allgather phase (steps " + std::to_string(rs + 1) + "..): ", Orientation::kForward,
        rs + 1, std::max(tl, rs + 1));
  }
  return phases;
}

void StepChecker::Sweep(const Phase& phase) {
  const bool reversed = phase.orientation == Orientation::kReversed;
  const std::string& label = phase.label;
  std::vector<SweepSend> sends = phase.sends;
  std::sort(sends.begin(), sends.end(), [](const SweepSend& a, const SweepSend& b) {
    if (a.source != b.source) return a.source < b.source;
    if (a.step != b.step) return a.step < b.step;
    return a.index < b.index;
  });
  const int n = g_.num_nodes();
  std::vector<int> local_of_rank(values_.size(), -1);
  std::vector<int> breakpoints;
  std::vector<int> hold;
  std::size_t pos = 0;
  std::vector<int> sources = phase.sources;
  std::sort(sources.begin(), sources.end());
  for (int v : sources) {
    while (pos < sends.size() && sends[pos].source < v) ++pos;  // admissible sources only
    std::size_t end = pos;
    while (end < sends.size() && sends[end].source == v) ++end;
    // Elementary intervals of v's shard: cut at every endpoint of v's chunks, and at 0, 1.
    breakpoints.assign({rank_zero_, rank_one_});
    for (std::size_t k = pos; k < end; ++k) {
      int i = sends[k].index;
      for (std::size_t q = iv_begin_[i]; q < iv_begin_[i + 1]; ++q) {
        breakpoints.push_back(ivs_[q].first);
        breakpoints.push_back(ivs_[q].second);
      }
    }
    std::sort(breakpoints.begin(), breakpoints.end());
    breakpoints.erase(std::unique(breakpoints.begin(), breakpoints.end()), breakpoints.end());
    const int num_iv = static_cast<int>(breakpoints.size()) - 1;
    for (int q = 0; q <= num_iv; ++q) local_of_rank[breakpoints[q]] = q;
    // hold[u * num_iv + i]: first step after which u holds elementary interval i.
    hold.assign(static_cast<std::size_t>(n) * num_iv, kNever);
    for (int q = 0; q < num_iv; ++q) hold[static_cast<std::size_t>(v) * num_iv + q] = 0;
    std::vector<int> dist;
    if (opt_.check_bfb) dist = Bfs(g_, v, phase.orientation);

    for (std::size_t k = pos; k < end; ++k) {
      const SweepSend& e = sends[k];
      const StepSend& orig = s_.sends[e.index];
      const std::string at = label + "step " + std::to_string(orig.step) + ": ";
      int* hold_from = &hold[static_cast<std::size_t>(e.from) * num_iv];
      int* hold_to = &hold[static_cast<std::size_t>(e.to) * num_iv];
      int not_held_lo = -1, not_held_hi = -1, dup_lo = -1, dup_hi = -1;
      for (std::size_t q = iv_begin_[e.index]; q < iv_begin_[e.index + 1]; ++q) {
        const int lo = local_of_rank[ivs_[q].first], hi = local_of_rank[ivs_[q].second];
        for (int i = lo; i < hi; ++i) {
          if (hold_from[i] >= e.step) {
            if (not_held_lo < 0) not_held_lo = not_held_hi = i;
            if (not_held_hi == i) not_held_hi = i + 1;
            continue;  // the receiver does not get what the sender lacks
          }
          if (hold_to[i] != kNever) {
            if (dup_lo < 0) dup_lo = dup_hi = i;
            if (dup_hi == i) dup_hi = i + 1;
            if (hold_to[i] > e.step) hold_to[i] = e.step;
          } else {
            hold_to[i] = e.step;
          }
        }
      }
      if (not_held_lo >= 0) {
        const std::string iv = IntervalText(breakpoints[not_held_lo], breakpoints[not_held_hi]);
        StepViolation viol{StepViolationKind::kNotHeld, e.index, v, e.from, orig.step,
                           MakeInterval(breakpoints[not_held_lo], breakpoints[not_held_hi]), ""};
        if (!reversed) {
          viol.message = at + "node " + Name(orig.from) + " sends " + iv + " of " + Name(v) +
                         "'s shard to " + Name(orig.to) + " without holding it before step " +
                         std::to_string(orig.step);
        } else {
          viol.message = at + "node " + Name(orig.from) + " sends its partial " + iv + " of shard " +
                         Name(v) + " to " + Name(orig.to) + ", but " + Name(orig.to) +
                         " does not pass it on towards " + Name(v) +
                         " at a later step (reduce-scatter checked as the reversed allgather on "
                         "G^T, seed 000 Thm 3)";
        }
        out_.Add(std::move(viol));
      }
      if (dup_lo >= 0) {
        duplicates_found_ = true;
        if (opt_.check_no_duplicates) {
          const std::string iv = IntervalText(breakpoints[dup_lo], breakpoints[dup_hi]);
          StepViolation viol{StepViolationKind::kDuplicate, e.index, v, e.to, orig.step,
                             MakeInterval(breakpoints[dup_lo], breakpoints[dup_hi]), ""};
          if (!reversed) {
            viol.message = at + "node " + Name(orig.to) + " receives " + iv + " of " + Name(v) +
                           "'s shard from " + Name(orig.from) + " but already holds it";
          } else {
            viol.message = at + "node " + Name(orig.from) + " sends " + iv + " of shard " + Name(v) +
                           " more than once (its contribution would be reduced twice)";
          }
          out_.Add(std::move(viol));
        }
      }
      if (opt_.check_bfb) {
        const int dt = dist[e.to], df = dist[e.from];
        if (!(df >= 0 && dt == df + 1 && dt == e.step)) {
          StepViolation viol{StepViolationKind::kNotBfb, e.index, v, e.to, orig.step, std::nullopt, ""};
          std::string ds = reversed ? "d_{G^T}" : "d";
          viol.message = at + "send of " + Name(v) + "'s data " + Name(orig.from) + " -> " +
                         Name(orig.to) + " is not breadth-first: " + ds + "(" + Name(v) + ", " +
                         Name(e.to) + ") = " + std::to_string(dt) + ", " + ds + "(" + Name(v) +
                         ", " + Name(e.from) + ") + 1 = " + std::to_string(df + 1) +
                         ", phase step " + std::to_string(e.step) + " (Def. 15 / Thm 14" +
                         (reversed ? ", on the reversed schedule" : "") + ")";
          out_.Add(std::move(viol));
        }
      }
    }
    // Every other compute node must hold every elementary interval (Def. 6 chains).
    for (int u = 0; u < n; ++u) {
      if (u == v || !g_.IsCompute(u)) continue;
      const int* h = &hold[static_cast<std::size_t>(u) * num_iv];
      int lo = -1, hi = -1;
      for (int i = 0; i < num_iv; ++i) {
        if (h[i] != kNever) continue;
        if (lo < 0) lo = hi = i;
        if (hi == i) hi = i + 1;
      }
      if (lo < 0) continue;
      const std::string iv = IntervalText(breakpoints[lo], breakpoints[hi]);
      StepViolation viol{StepViolationKind::kMissing, -1, v, u, -1,
                         MakeInterval(breakpoints[lo], breakpoints[hi]), ""};
      if (!reversed) {
        viol.message = label + "node " + Name(u) + " never receives " + iv + " of " + Name(v) +
                       "'s shard (no chain of sends with increasing steps, Def. 6)";
      } else {
        viol.message = label + "the contribution of node " + Name(u) + " to " + iv + " of shard " +
                       Name(v) + " never reaches " + Name(v) +
                       " (no chain of sends with increasing steps, Def. 6)";
      }
      out_.Add(std::move(viol));
    }
    for (int b : breakpoints) local_of_rank[b] = -1;
    pos = end;
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
  if (uniform && *b > 0 && s_.collective != "broadcast") {
    Rational bound = Rational(n - 1) / *b;
    if (s_.collective == "allreduce") bound *= 2;
    report_.bandwidth_lower_bound = bound;
  }
  if (!opt_.check_bandwidth_optimal) return;
  if (!report_.bandwidth_lower_bound) {
    report_.bandwidth_optimal = false;
    out_.Add(StepViolation{StepViolationKind::kNotBandwidthOptimal, -1, -1, -1, -1, std::nullopt,
                           "bandwidth optimality (seed 000 Thm 7 / Cor. 6.1) is defined for "
                           "allgather, reduce-scatter and allreduce on switchless topologies "
                           "whose nodes all have the same total in- and out-bandwidth"});
    return;
  }
  const Rational& bound = *report_.bandwidth_lower_bound;
  report_.bandwidth_optimal = report_.tb == bound;
  if (*report_.bandwidth_optimal) return;
  std::string why = "T_B = " + ToString(report_.tb) + " is not the optimum (N-1)/N · M/B = " +
                    ToString(bound) + " shard units (seed 000 Thm 7 / Cor. 6.1)";
  // Thm 7 condition 1: every link carries the step's full time.
  for (const auto& [step, t] : step_time_) {
    for (int e = 0; e < g_.num_links(); ++e) {
      auto it = load_.find((static_cast<std::uint64_t>(step) << 32) | static_cast<std::uint32_t>(e));
      Rational mine = it == load_.end() ? Rational(0) : it->second / g_.link(e).bandwidth;
      if (mine < t) {
        why += "; condition 1 fails first at step " + std::to_string(step) + " on link " +
               Name(g_.link(e).from) + " -> " + Name(g_.link(e).to) + " (" + ToString(mine) +
               " < " + ToString(t) + ")";
        goto done;
      }
    }
  }
done:
  if (duplicates_found_) why += "; condition 2 fails: some node receives an element twice";
  out_.Add(StepViolation{StepViolationKind::kNotBandwidthOptimal, -1, -1, -1, -1, std::nullopt, why});
}

void StepChecker::CheckClaims() {
  if (s_.claimed_tl && *s_.claimed_tl != report_.tl) {
    out_.Add(StepViolation{StepViolationKind::kWrongTl, -1, -1, -1, -1, std::nullopt,
                           "claimed tl = " + std::to_string(*s_.claimed_tl) +
                               " but the schedule has T_L = " + std::to_string(report_.tl)});
  }
  if (s_.claimed_tb && *s_.claimed_tb != report_.tb) {
    out_.Add(StepViolation{StepViolationKind::kWrongTb, -1, -1, -1, -1, std::nullopt,
                           "claimed tb = " + ToString(*s_.claimed_tb) +
                               " but the schedule has T_B = " + ToString(report_.tb) +
                               " shard units"});
  }
}

void StepChecker::Run() {
  ValidateSends();
  RankEndpoints();
  ComputeCosts();
  for (const Phase& p : BuildPhases()) Sweep(p);
  if (opt_.check_bfb) {
    report_.bfb = out_.Count(StepViolationKind::kNotBfb) == 0;
  }
  if (opt_.check_no_duplicates) report_.no_duplicates = !duplicates_found_;
  CheckBandwidthOptimal();
  CheckClaims();
  report_.ok = report_.num_violations == 0;
}

}  // namespace

const char* StepViolationKindName(StepViolationKind kind) {
  switch (kind) {
    case StepViolationKind::kMissingLink: return "missing-link";
    case StepViolationKind::kBadSource: return "bad-source";
    case StepViolationKind::kNotHeld: return "not-held";
    case StepViolationKind::kMissing: return "missing";
    case StepViolationKind::kDuplicate: return "duplicate";
    case StepViolationKind::kNotBfb: return "not-bfb";
    case StepViolationKind::kNotBandwidthOptimal: return "not-bandwidth-optimal";
    case StepViolationKind::kWrongTl: return "wrong-tl";
    case StepViolationKind::kWrongTb: return "wrong-tb";
  }
  return "unknown";
}

json StepCheckReport::ToJson() const {
  json j;
  j["ok"] = ok;
  j["format"] = "steps";
  j["tl"] = tl;
  j["tb"] = ToString(tb);
  j["ratio"] = ToString(tb);  // T_B / (M/N): the seed-004 runtime ratio, in shard units
  j["errors"] = errors;
  j["num_violations"] = num_violations;
  json kinds = json::array();
  for (const StepViolation& v : violations) kinds.push_back(StepViolationKindName(v.kind));
  j["error_kinds"] = std::move(kinds);
  j["bandwidth_lower_bound"] = bandwidth_lower_bound ? json(ToString(*bandwidth_lower_bound)) : json(nullptr);
  if (bandwidth_optimal) j["bandwidth_optimal"] = *bandwidth_optimal;
  if (bfb) j["bfb"] = *bfb;
  if (no_duplicates) j["no_duplicates"] = *no_duplicates;
  return j;
}

StepCheckReport CheckStepSchedule(const Topology& g, const StepSchedule& s,
                                  const StepCheckOptions& options) {
  StepCheckReport report;
  StepChecker(g, s, options, report).Run();
  return report;
}

}  // namespace collsynth
