#include "proofs_check/symmetric_pipeline_checker.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "graphs/symmetry.h"
#include "proofs_check/pipeline_check_parts.h"

namespace collsynth {
namespace {

using K = PipelineViolationKind;

std::string Vector(const std::int64_t* e, std::size_t m) {
  std::string out = "(";
  for (std::size_t i = 0; i < m; ++i) out += (i ? ", " : "") + std::to_string(e[i]);
  return out + ")";
}

// Checks one allgather or reduce-scatter schedule (an allreduce's phase with prefix
// "phases[i].").
class SymmetricChecker {
 public:
  SymmetricChecker(const Topology& g, const SymmetricPipelineSchedule& s, std::string prefix,
                   PipelineCheckReport& report, int max_errors)
      : g_(g),
        s_(s),
        prefix_(std::move(prefix)),
        report_(report),
        out_(report, max_errors),
        m_(s.generators.size()) {}

  void Run();

 private:
  std::string Name(int v) const { return "'" + g_.node(v).name + "'"; }
  std::string Gen(std::size_t i) const { return prefix_ + "generators[" + std::to_string(i) + "]"; }
  std::string Rep(std::size_t i) const {
    return prefix_ + "representatives[" + std::to_string(i) + "]";
  }
  std::string Root(std::size_t j) const { return prefix_ + "roots[" + std::to_string(j) + "]"; }
  bool ValidNode(int v) const { return v >= 0 && v < g_.num_nodes(); }
  void CheckGenerators();
  void CheckRootList();
  void CheckRegularAction();
  void CheckTrees();
  void CheckLinkOrbits();

  const Topology& g_;
  const SymmetricPipelineSchedule& s_;
  const std::string prefix_;
  PipelineCheckReport& report_;
  PipelineViolationCollector out_;
  const std::size_t m_;
  bool usable_ = false;                   // permutations with orders >= 1: (d) and (f) can run
  bool group_ok_ = true;                  // (a) and (b) hold
  bool regular_ok_ = true;                // (d) found no node with two exponent vectors
  std::vector<int> entry_;                // node -> its index in s.roots, or -1
  std::vector<int> rep_at_;               // node -> the representative rooted there, or -1
  std::vector<char> good_exponents_;      // per entry of s.roots: m exponents within the orders
  std::vector<std::int64_t> orbit_size_;  // per representative: |Hr| as the BFS found it
  std::vector<BigInt> load_;              // per link: Σ_r |Hr| · (r's route load on it)
  std::int64_t height_ = 0;               // the tallest representative tree (CheckTrees)
};

// (a) and (b).
void SymmetricChecker::CheckGenerators() {
  const int n = g_.num_nodes();
  usable_ = s_.orders.size() == m_;
  if (!usable_) {
    out_.Add(
        K::kGroupRelation, prefix_ + "orders", -1, -1,
        std::to_string(s_.orders.size()) + " orders for " + std::to_string(m_) + " generators");
  }
  for (std::size_t i = 0; i < m_; ++i) {
    const std::vector<int>& p = s_.generators[i];
    const std::string problem = PermutationProblem(p, n);
    if (!problem.empty()) {
      out_.Add(K::kNotAutomorphism, Gen(i), -1, -1, "not a permutation of the nodes: " + problem);
      usable_ = false;
      continue;
    }
    const AutomorphismCheck a = CheckAutomorphism(g_, p);
    if (!a.ok) {
      out_.Add(K::kNotAutomorphism, Gen(i), a.node, a.link,
               "not an automorphism of the topology: " + a.problem);
      group_ok_ = false;
    }
    if (i >= s_.orders.size()) continue;
    const std::int64_t order = s_.orders[i];
    if (order < 1) {
      out_.Add(K::kGroupRelation, prefix_ + "orders[" + std::to_string(i) + "]", -1, -1,
               "order " + std::to_string(order) + " is not positive");
      usable_ = false;
      continue;
    }
    // gen^order = identity iff every cycle's length divides order. O(V).
    std::vector<char> done(static_cast<std::size_t>(n), 0);
    for (int v = 0; v < n; ++v) {
      if (done[v]) continue;
      std::int64_t length = 0;
      for (int u = v; !done[u]; u = p[u]) {
        done[u] = 1;
        ++length;
      }
      if (order % length != 0) {
        out_.Add(K::kGroupRelation, Gen(i), v, -1,
                 "generators[" + std::to_string(i) + "]^" + std::to_string(order) +
                     " is not the identity: node " + Name(v) + " lies on a cycle of length " +
                     std::to_string(length) + ", which does not divide the order " +
                     std::to_string(order));
        group_ok_ = false;
        break;
      }
    }
  }
  if (!usable_) {
    group_ok_ = false;
    return;
  }
  // Pairwise commutation. O(m² · V).
  for (std::size_t i = 0; i < m_; ++i) {
    for (std::size_t j = i + 1; j < m_; ++j) {
      const std::vector<int>&a = s_.generators[i], &b = s_.generators[j];
      for (int v = 0; v < n; ++v) {
        if (a[b[v]] == b[a[v]]) continue;
        out_.Add(K::kGroupRelation, Gen(i), v, -1,
                 "generators[" + std::to_string(i) + "] and generators[" + std::to_string(j) +
                     "] do not commute: node " + Name(v) + " goes to " + Name(a[b[v]]) +
                     " one way and to " + Name(b[a[v]]) + " the other");
        group_ok_ = false;
        break;
      }
    }
  }
}

// (c): the list of roots, and each representative's own entry.
void SymmetricChecker::CheckRootList() {
  const int n = g_.num_nodes();
  entry_.assign(static_cast<std::size_t>(n), -1);
  rep_at_.assign(static_cast<std::size_t>(n), -1);
  good_exponents_.assign(s_.roots.size(), 0);
  for (std::size_t j = 0; j < s_.roots.size(); ++j) {
    const SymmetricRoot& root = s_.roots[j];
    if (!ValidNode(root.node)) {
      out_.Add(K::kRootList, Root(j), -1, -1,
               "node id " + std::to_string(root.node) + " is not a node of the topology");
      continue;
    }
    if (!g_.IsCompute(root.node)) {
      out_.Add(K::kRootList, Root(j), root.node, -1,
               "switch " + Name(root.node) + " listed as a root (only compute nodes are roots)");
      continue;
    }
    if (entry_[root.node] >= 0) {
      out_.Add(K::kRootList, Root(j), root.node, -1,
               "compute node " + Name(root.node) + " is listed twice (also roots[" +
                   std::to_string(entry_[root.node]) + "])");
      continue;
    }
    entry_[root.node] = static_cast<int>(j);
    if (root.representative < 0 ||
        static_cast<std::size_t>(root.representative) >= s_.representatives.size()) {
      out_.Add(K::kRootList, Root(j), root.node, -1,
               "representative index " + std::to_string(root.representative) + " out of range (" +
                   std::to_string(s_.representatives.size()) + " representatives)");
    }
    bool exponents_ok = root.exponents.size() == m_;
    for (std::size_t i = 0; exponents_ok && i < m_; ++i) {
      exponents_ok =
          root.exponents[i] >= 0 && (i >= s_.orders.size() || root.exponents[i] < s_.orders[i]);
    }
    good_exponents_[j] = exponents_ok;
    if (!exponents_ok) {
      out_.Add(K::kRootList, Root(j), root.node, -1,
               "the exponents of " + Name(root.node) + " must be " + std::to_string(m_) +
                   " numbers e_i with 0 <= e_i < orders[i]");
    }
  }
  for (int v : g_.ComputeNodes()) {
    if (entry_[v] >= 0) continue;
    if (out_.Full()) {
      out_.AddUnrecorded(1);
    } else {
      out_.Add(K::kRootList, prefix_ + "roots", v, -1,
               "compute node " + Name(v) + " is not listed (every compute node is a root)");
    }
  }
  for (std::size_t i = 0; i < s_.representatives.size(); ++i) {
    const int r = s_.representatives[i].root;
    if (!ValidNode(r) || !g_.IsCompute(r)) {
      out_.Add(
          K::kRootList, Rep(i), ValidNode(r) ? r : -1, -1,
          "the root must be a compute node" + (ValidNode(r) ? ", " + Name(r) + " is not" : ""));
      continue;
    }
    if (rep_at_[r] >= 0) {
      out_.Add(
          K::kRootList, Rep(i), r, -1,
          Name(r) + " is already the root of representatives[" + std::to_string(rep_at_[r]) + "]");
      continue;
    }
    rep_at_[r] = static_cast<int>(i);
    const int j = entry_[r];
    if (j < 0) continue;  // reported above
    const SymmetricRoot& own = s_.roots[j];
    bool zero = true;
    for (std::int64_t e : own.exponents) zero = zero && e == 0;
    if (own.representative != static_cast<int>(i) || !zero) {
      out_.Add(K::kRootList, Root(j), r, -1,
               "the representative " + Name(r) + " must be listed with representative " +
                   std::to_string(i) + " and exponents all 0");
    }
  }
}

// (d): BFS over each representative's orbit with exponent vectors (header comment).
void SymmetricChecker::CheckRegularAction() {
  const int n = g_.num_nodes();
  std::vector<int> owner(static_cast<std::size_t>(n), -1);  // node -> representative reaching it
  std::vector<std::int64_t> e(static_cast<std::size_t>(n) * m_, 0);
  auto at = [&](int v) { return e.data() + static_cast<std::size_t>(v) * m_; };
  std::vector<std::int64_t> next(m_);
  std::vector<int> queue;
  orbit_size_.assign(s_.representatives.size(), 0);
  for (std::size_t i = 0; i < s_.representatives.size(); ++i) {
    const int r = s_.representatives[i].root;
    if (!ValidNode(r) || rep_at_[r] != static_cast<int>(i)) continue;  // reported in (c)
    if (owner[r] >= 0) {
      out_.Add(K::kRootList, Rep(i), r, -1,
               "its root " + Name(r) + " is in the orbit of representatives[" +
                   std::to_string(owner[r]) + "] (one representative per orbit)");
      continue;
    }
    bool regular = true;
    owner[r] = static_cast<int>(i);
    queue.assign(1, r);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int t = queue[head];
      for (std::size_t j = 0; j < m_; ++j) {
        const int u = s_.generators[j][t];
        std::copy(at(t), at(t) + m_, next.begin());
        next[j] = (next[j] + 1) % s_.orders[j];
        if (owner[u] == static_cast<int>(i)) {
          if (std::equal(next.begin(), next.end(), at(u)) || !regular) continue;
          regular = false;
          regular_ok_ = false;
          std::vector<std::int64_t> diff(m_);
          for (std::size_t q = 0; q < m_; ++q)
            diff[q] = ((next[q] - at(u)[q]) % s_.orders[q] + s_.orders[q]) % s_.orders[q];
          out_.Add(K::kNotRegular, Rep(i), u, -1,
                   "node " + Name(u) + " is reached from " + Name(r) + " with exponents " +
                       Vector(at(u), m_) + " and " + Vector(next.data(), m_) + ", so the nonzero " +
                       Vector(diff.data(), m_) + " fixes " + Name(r) +
                       ": the group does not act regularly on this orbit (or an order is a "
                       "multiple of its generator's true order)");
          continue;
        }
        // owner[u] < 0: orbits are disjoint, every earlier BFS covered its whole orbit.
        owner[u] = static_cast<int>(i);
        std::copy(next.begin(), next.end(), at(u));
        queue.push_back(u);
        if (rep_at_[u] >= 0) continue;  // another representative in this orbit: reported then
        const int j2 = entry_[u];
        // Unlisted: a compute node reported in (c), or a switch (a generator that does not
        // keep kinds, reported in (a)).
        if (j2 < 0) continue;
        const SymmetricRoot& root = s_.roots[j2];
        if (root.representative != static_cast<int>(i)) {
          out_.Add(K::kRootList, Root(j2), u, -1,
                   Name(u) + " is in the orbit of representatives[" + std::to_string(i) + "] (" +
                       Name(r) + ", exponents " + Vector(at(u), m_) +
                       "), but is listed with representative " +
                       std::to_string(root.representative));
        } else if (good_exponents_[j2] &&
                   !std::equal(root.exponents.begin(), root.exponents.end(), at(u))) {
          out_.Add(K::kRootList, Root(j2), u, -1,
                   Name(u) + " is listed with exponents " +
                       Vector(root.exponents.data(), root.exponents.size()) + ", but it is " +
                       Vector(at(u), m_) + " applied to " + Name(r));
        }
      }
    }
    orbit_size_[i] = static_cast<std::int64_t>(queue.size());
  }
  // Roots listed for a representative whose orbit does not contain them (roots reached by
  // another representative's BFS were reported there).
  for (std::size_t j = 0; j < s_.roots.size(); ++j) {
    const SymmetricRoot& root = s_.roots[j];
    if (!ValidNode(root.node) || entry_[root.node] != static_cast<int>(j)) continue;
    if (owner[root.node] >= 0 || root.representative < 0 ||
        static_cast<std::size_t>(root.representative) >= s_.representatives.size())
      continue;
    const int r = s_.representatives[root.representative].root;
    out_.Add(K::kRootList, Root(j), root.node, -1,
             Name(root.node) + " is listed with representative " +
                 std::to_string(root.representative) +
                 (ValidNode(r) ? " (" + Name(r) + ")" : std::string()) +
                 ", but is not in its orbit under the generators");
  }
}

// (e): the representatives' trees, with their loads weighted by the orbit sizes.
void SymmetricChecker::CheckTrees() {
  load_.assign(static_cast<std::size_t>(g_.num_links()), BigInt(0));
  PipelineTreeChecker trees(g_, s_.collective, std::nullopt, out_);
  for (std::size_t i = 0; i < s_.representatives.size(); ++i) {
    const SymmetricRepresentative& rep = s_.representatives[i];
    const BigInt weight = usable_ ? BigInt(orbit_size_[i]) : BigInt(1);
    BigInt sum = 0;
    for (std::size_t t = 0; t < rep.trees.size(); ++t) {
      const PipelineTree& tree = rep.trees[t];
      const std::string item = Rep(i) + ".trees[" + std::to_string(t) + "]";
      sum += tree.multiplicity;
      if (tree.root != rep.root) {
        out_.Add(K::kRootList, item, ValidNode(tree.root) ? tree.root : -1, -1,
                 "the trees of a representative must be rooted at it" +
                     (ValidNode(rep.root) ? " (" + Name(rep.root) + ")" : std::string()));
        continue;
      }
      if (!ValidNode(tree.root)) continue;  // reported in (c)
      trees.Check(item, tree, load_, weight);
      // An automorphism keeps route lengths: a tree's images are as tall as it is.
      height_ = std::max(height_, trees.height());
    }
    if (sum != s_.k) {
      out_.Add(K::kRootSum, Rep(i) + ".trees", ValidNode(rep.root) ? rep.root : -1, -1,
               "the trees rooted at " + (ValidNode(rep.root) ? g_.node(rep.root).name : "?") +
                   " have total multiplicity " + sum.str() + ", but k = " + s_.k.str());
    }
  }
}

// (f): link orbits of H, their summed loads against U·b_O·|O|, and the ratio.
void SymmetricChecker::CheckLinkOrbits() {
  const int links = g_.num_links();
  std::vector<int> parent(static_cast<std::size_t>(links));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const std::vector<int>& p : s_.generators) {
    for (int l = 0; l < links; ++l) {
      const Link& link = g_.link(l);
      const std::optional<int> image = g_.FindLink(p[link.from], p[link.to]);
      if (!image) continue;  // not an automorphism: reported in (a)
      const int a = find(l), b = find(*image);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the smallest link
    }
  }
  std::vector<std::int64_t> size(static_cast<std::size_t>(links), 0);
  std::vector<BigInt> orbit_load(static_cast<std::size_t>(links));
  std::int64_t orbits = 0;
  for (int l = 0; l < links; ++l) {
    const int o = find(l);
    orbits += o == l;
    ++size[o];
    if (load_[l] != 0) orbit_load[o] += load_[l];
  }
  report_.symmetric->link_orbits = orbits;
  if (s_.k <= 0) {
    out_.Add(K::kRootSum, prefix_ + "k", -1, -1, "k = " + s_.k.str() + " must be positive");
    return;
  }
  Rational ratio = 0;
  for (int o = 0; o < links; ++o) {
    if (find(o) != o || orbit_load[o] == 0) continue;
    const Link& link = g_.link(o);
    const Rational capacity = s_.U * link.bandwidth * size[o];
    const Rational load(orbit_load[o]);
    if (load > capacity) {
      out_.Add(
          K::kOverloaded,
          prefix_ + "link orbit of " + g_.node(link.from).name + " -> " + g_.node(link.to).name,
          link.from, o,
          "Σ_r |Hr|·L_r(O) = " + orbit_load[o].str() + " exceeds U·b_O·|O| = " + ToString(s_.U) +
              " · " + ToString(link.bandwidth) + " · " + std::to_string(size[o]) + " = " +
              ToString(capacity) + ": each of the orbit's links carries " +
              ToString(load / size[o]) + " > U·b_e in the expansion");
    }
    const Rational r = load / (Rational(s_.k) * link.bandwidth * size[o]);
    if (r > ratio) ratio = r;
  }
  report_.ratio = ratio;
  if (s_.ratio != ratio) {
    out_.Add(
        K::kWrongRatio, prefix_ + "ratio", -1, -1,
        "claimed ratio " + ToString(s_.ratio) +
            ", but max over link orbits O of Σ_r |Hr|·L_r(O) / (k·b_O·|O|) = " + ToString(ratio));
  }
}

void SymmetricChecker::Run() {
  report_.symmetric.emplace();
  report_.symmetric->generators = static_cast<std::int64_t>(m_);
  report_.symmetric->representatives = static_cast<std::int64_t>(s_.representatives.size());
  if (s_.collective != Collective::kAllgather && s_.collective != Collective::kReduceScatter) {
    out_.Add(K::kRootList, prefix_ + "collective", -1, -1,
             std::string("the pipeline-symmetric format holds allgather, reduce-scatter and "
                         "allreduce schedules (phases: reduce-scatter, allgather), not ") +
                 CollectiveName(s_.collective));
    SetPipelineVerdict(report_);
    return;
  }
  CheckGenerators();
  CheckRootList();
  if (usable_) CheckRegularAction();
  CheckTrees();
  // Every root is the image of its representative under an automorphism (checked above), which
  // keeps distances: the representatives' roots give the bound of all roots.
  std::vector<int> rep_roots;
  for (const SymmetricRepresentative& rep : s_.representatives) {
    if (ValidNode(rep.root) && g_.IsCompute(rep.root)) rep_roots.push_back(rep.root);
  }
  report_.height_lower_bound_hops = PipelineHeightLowerBound(g_, s_.collective, rep_roots);
  CheckPipelineHeight(s_.height_hops, height_, prefix_ + "height_hops", report_, out_);
  if (usable_) {
    CheckLinkOrbits();
    if (group_ok_ && regular_ok_ && !orbit_size_.empty() && orbit_size_[0] > 0) {
      report_.symmetric->group_order = orbit_size_[0];
    }
    if (s_.bottleneck_cut) {
      CheckPipelineBottleneckCut(g_, s_.collective, *s_.bottleneck_cut, std::nullopt,
                                 prefix_ + "bottleneck_cut", report_, out_);
    }
  }
  SetPipelineVerdict(report_);
}

// Allreduce: the phases checked as above; ratio, certificate and verdict as the plain checker.
void CheckAllreduce(const Topology& g, const SymmetricPipelineSchedule& s,
                    PipelineCheckReport& report, int max_errors) {
  PipelineViolationCollector out(report, max_errors);
  report.symmetric.emplace();
  const Rational total = CheckAllreducePhases(
      s.phases.size(),
      [&](std::size_t i, const std::string& prefix, PipelineCheckReport& sub) {
        SymmetricChecker(g, s.phases[i], prefix, sub, max_errors).Run();
      },
      report, out);
  if (s.phases.size() != 2 || s.phases[0].collective != Collective::kReduceScatter ||
      s.phases[1].collective != Collective::kAllgather) {
    out.Add(K::kRootList, "phases", -1, -1,
            "an allreduce's phases must be a reduce-scatter then an allgather");
  }
  FinishAllreduceCheck(g, s.ratio, s.height_hops, s.bottleneck_cut, s.single_node_cuts, total,
                       report, out);
}

}  // namespace

PipelineCheckReport CheckSymmetricPipelineSchedule(const Topology& g,
                                                   const SymmetricPipelineSchedule& s,
                                                   int max_errors) {
  PipelineCheckReport report;
  if (s.collective == Collective::kAllreduce) {
    CheckAllreduce(g, s, report, max_errors);
  } else {
    SymmetricChecker(g, s, "", report, max_errors).Run();
  }
  return report;
}

}  // namespace collsynth
