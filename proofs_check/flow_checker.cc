#include "proofs_check/flow_checker.h"

#include <map>
#include <utility>

#include "core/input_error.h"
#include "proofs_check/alltoall_certificate_check.h"

namespace collsynth {

const char* FlowVerdictName(FlowVerdict v) {
  switch (v) {
    case FlowVerdict::kValid:
      return "valid";
    case FlowVerdict::kWrongTime:
      return "wrong time";
    case FlowVerdict::kInvalid:
      break;
  }
  return "invalid";
}

namespace {

class FlowChecker {
 public:
  FlowChecker(const Topology& g, const FlowSchedule& s, int max_errors, FlowCheckReport* r)
      : g_(g), s_(s), max_errors_(max_errors), r_(r), load_(g.num_links()) {}

  void Run() {
    r_->claimed_time = s_.time;
    std::map<std::pair<int, int>, const Rational*> demand;
    for (const DemandEntry& d : s_.demand.entries) demand[{d.from, d.to}] = &d.amount;
    std::map<std::pair<int, int>, std::size_t> seen;
    for (std::size_t i = 0; i < s_.flows.size(); ++i) {
      const PairFlows& f = s_.flows[i];
      const std::string item = "flows[" + std::to_string(i) + "]";
      ++r_->pairs;
      r_->paths += static_cast<std::int64_t>(f.paths.size());
      auto d = demand.find({f.from, f.to});
      if (d == demand.end()) {
        Violation(item + ": " + Pair(f.from, f.to) + " is not a pair of the demand");
        continue;
      }
      if (auto [it, fresh] = seen.insert({{f.from, f.to}, i}); !fresh) {
        Violation(item + ": pair " + Pair(f.from, f.to) + " already given at flows[" +
                  std::to_string(it->second) + "]");
        continue;
      }
      CheckPair(f, *d->second, item);
    }
    for (const auto& entry : demand) {
      if (!seen.count(entry.first)) {
        Violation("demand " + Pair(entry.first.first, entry.first.second) +
                  ": no entry in flows (not delivered)");
      }
    }
    if (demand.empty()) Violation("demand: no pair (fewer than two compute nodes)");
    if (r_->num_violations == 0) {
      Time();
      r_->loads = std::move(load_);
    }
    r_->ok = r_->verdict == FlowVerdict::kValid;
  }

 private:
  std::string Pair(int s, int t) const { return g_.node(s).name + "->" + g_.node(t).name; }

  void Violation(std::string message) {
    ++r_->num_violations;
    if (static_cast<int>(r_->errors.size()) < max_errors_) r_->errors.push_back(std::move(message));
  }

  // The limit on exact sums (flow_checker.h).
  void Bounded(const Rational& sum, const std::string& item) const {
    static const BigInt limit = Numerator(ParseRational("1" + std::string(kMaxFlowSumDigits, '0')));
    if (Denominator(sum) >= limit) {
      throw InputError("", item,
                       "the exact sum's denominator exceeds " + std::to_string(kMaxFlowSumDigits) +
                           " digits (limit)");
    }
  }

  // The paths of one pair of the demand.
  void CheckPair(const PairFlows& f, const Rational& amount, const std::string& item) {
    Rational sum = 0;
    for (std::size_t j = 0; j < f.paths.size(); ++j) {
      const FlowPath& p = f.paths[j];
      const std::string at = item + ".paths[" + std::to_string(j) + "]";
      if (p.share <= 0) {
        Violation(at + ".share: " + ToString(p.share) + " <= 0");
        continue;
      }
      sum += p.share;
      Bounded(sum, item + ".paths");
      if (!PathValid(f, p, at)) continue;
      const Rational carried = amount * p.share;
      for (std::size_t k = 0; k + 1 < p.nodes.size(); ++k) {
        const int e = *g_.FindLink(p.nodes[k], p.nodes[k + 1]);
        load_[e] += carried;
        Bounded(load_[e], "link " + Pair(p.nodes[k], p.nodes[k + 1]) + " load");
      }
    }
    if (sum != 1) {
      Violation(item + ": the shares of " + Pair(f.from, f.to) + " sum to " + ToString(sum) +
                ", not 1");
    }
  }

  bool PathValid(const PairFlows& f, const FlowPath& p, const std::string& at) {
    const std::vector<int>& v = p.nodes;
    if (v.size() < 2) {
      Violation(at + ".path: fewer than two nodes");
      return false;
    }
    if (v.front() != f.from) {
      Violation(at + ".path[0]: starts at " + g_.node(v.front()).name + ", not at the source " +
                g_.node(f.from).name);
      return false;
    }
    if (v.back() != f.to) {
      Violation(at + ".path[" + std::to_string(v.size() - 1) + "]: ends at " +
                g_.node(v.back()).name + ", not at the destination " + g_.node(f.to).name);
      return false;
    }
    std::vector<bool> visited(g_.num_nodes(), false);
    for (std::size_t k = 0; k < v.size(); ++k) {
      const std::string node = at + ".path[" + std::to_string(k) + "]";
      if (visited[v[k]]) {
        Violation(node + ": " + g_.node(v[k]).name + " visited twice");
        return false;
      }
      visited[v[k]] = true;
      if (k > 0 && k + 1 < v.size() && !s_.relay && g_.IsCompute(v[k])) {
        Violation(node + ": compute node " + g_.node(v[k]).name + " relays (relay is false)");
        return false;
      }
      if (k > 0 && !g_.FindLink(v[k - 1], v[k])) {
        Violation(node + ": no link " + Pair(v[k - 1], v[k]));
        return false;
      }
    }
    return true;
  }

  // The achieved T, compared with the claim.
  void Time() {
    Rational t = 0;
    int bottleneck = -1;
    for (int e = 0; e < g_.num_links(); ++e) {
      if (load_[e] == 0) continue;
      const Rational u = load_[e] / g_.link(e).bandwidth;
      if (bottleneck < 0 || u > t) {
        t = u;
        bottleneck = e;
      }
    }
    r_->time = t;
    if (bottleneck >= 0) {
      r_->bottleneck_link = Pair(g_.link(bottleneck).from, g_.link(bottleneck).to);
    }
    if (t != s_.time) {
      r_->verdict = FlowVerdict::kWrongTime;
      Violation("time: the schedule claims " + ToString(s_.time) + ", its link loads give " +
                ToString(t) +
                (bottleneck >= 0 ? " (link " + r_->bottleneck_link + ")" : std::string()));
      return;
    }
    if (s_.lengths && !Certificate(t)) {
      r_->verdict = FlowVerdict::kInvalid;
      return;
    }
    r_->verdict = FlowVerdict::kValid;
  }

  // The dual certificate against the achieved T; false (with a violation) when malformed.
  bool Certificate(const Rational& t) {
    Rational upper;
    const std::string problem = AlltoallDualBound(g_, s_.demand, *s_.lengths, s_.relay, &upper);
    if (!problem.empty()) {
      Violation("lengths: " + problem);
      return false;
    }
    const Rational bound = 1 / upper;
    if (bound > t) {  // weak duality forbids it: a defect of this checker or of the reader
      Violation("lengths: the dual bound " + ToString(bound) + " exceeds the achieved time " +
                ToString(t));
      return false;
    }
    r_->time_lower_bound = bound;
    r_->optimal = bound == t;
    return true;
  }

  const Topology& g_;
  const FlowSchedule& s_;
  int max_errors_;
  FlowCheckReport* r_;
  std::vector<Rational> load_;
};

}  // namespace

FlowCheckReport CheckFlowSchedule(const Topology& g, const FlowSchedule& s, int max_errors) {
  FlowCheckReport r;
  FlowChecker(g, s, max_errors, &r).Run();
  return r;
}

}  // namespace collsynth
