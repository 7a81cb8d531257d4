#include "proofs_check/symmetric_pipeline_checker.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "graphs/symmetry.h"
#include "proofs_check/pipeline_check_parts.h"
#include "proofs_check/symmetric_overrides_check.h"

namespace collsynth {
namespace {

using K = PipelineViolationKind;

// Case 2's stabiliser check (CheckStabiliserInvariance) costs |Γr|·(m + 2)·V point images; above
// this the schedule is rejected unchecked rather than left to exhaust time and memory.
constexpr double kMaxInvarianceWork = 1.5e9;

std::string Vector(const std::int64_t* e, std::size_t m) {
  std::string out = "(";
  for (std::size_t i = 0; i < m; ++i) out += (i ? ", " : "") + std::to_string(e[i]);
  return out + ")";
}

// Checks one allgather or reduce-scatter schedule (an allreduce's phase with prefix
// "phases[i].").
class SymmetricChecker {
 public:
  // g: the topology the symmetric part is checked on (with overrides: G' = real + the failed
  // links); real: the topology the schedule is for (the same one without overrides).
  SymmetricChecker(const Topology& g, const Topology& real, const SymmetricPipelineSchedule& s,
                   std::string prefix, PipelineCheckReport& report, int max_errors)
      : g_(g),
        real_(real),
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
  bool StartsOrbit(std::size_t i, std::vector<int>& owner);
  void CheckRegularAction();
  void CheckTrees();
  void CheckLinkOrbits();
  void CheckOverrides(const std::vector<int>& orbit, const std::vector<BigInt>& orbit_load,
                      const std::vector<std::int64_t>& size);
  void BuildCycles();
  // g_s(v) (inverse: g_s⁻¹(v)) for the root listed at s.roots[j], by the cycles. O(m).
  int ApplyExponents(std::size_t j, int v, bool inverse) const;
  // Case 2 (docs/symmetry.md "What a verifier of case 2 would check"): the orbits of the whole
  // group and the words (b, c), then each representative's stabiliser invariance (e).
  void CheckWholeGroupOrbits();
  void CheckStabiliserInvariance();
  int ApplyWord(const GroupWord& word, int v) const;
  bool TrivialStabiliser(int r) const;
  // next = label + unit_j (mod the orders): the label of gen_j(t) when t has `label`.
  void StepLabel(const std::int64_t* label, std::size_t j, std::vector<std::int64_t>& next) const {
    std::copy(label, label + m_, next.begin());
    next[j] = (next[j] + 1) % s_.orders[j];
  }

  const Topology& g_;
  const Topology& real_;
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
  std::vector<std::vector<std::int64_t>> tree_height_;  // per representative, per tree
  bool trees_ok_ = true;  // every tree names valid nodes only (CheckTrees)
  bool commute_ = true;   // the generators commute pairwise (CheckGenerators)
  // Case 2: each generator's cycles laid out one after the other (its powers in O(1)).
  std::vector<std::vector<int>> cycle_nodes_, cycle_start_, cycle_length_, cycle_position_;
};

// g(v) for the word g = gen_{j_0}^{e_0} ∘ ... (the last letter applies first), by the cycles.
int SymmetricChecker::ApplyWord(const GroupWord& word, int v) const {
  for (std::size_t k = word.size(); k-- > 0;) {
    const auto [j, e] = word[k];
    const std::int64_t len = cycle_length_[j][v];
    v = cycle_nodes_[j][cycle_start_[j][v] +
                        static_cast<int>((cycle_position_[j][v] + e % len) % len)];
  }
  return v;
}

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
  // Pairwise commutation. O(m² · V). Case 2 needs none: it is only recorded (commute_), for the
  // shortcut of CheckStabiliserInvariance.
  for (std::size_t i = 0; i < m_; ++i) {
    for (std::size_t j = i + 1; j < m_; ++j) {
      const std::vector<int>&a = s_.generators[i], &b = s_.generators[j];
      for (int v = 0; v < n; ++v) {
        if (a[b[v]] == b[a[v]]) continue;
        commute_ = false;
        if (s_.stabiliser_invariant) break;
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
    if (s_.stabiliser_invariant) {
      bool word_ok = true;
      for (const auto& [gen, e] : root.word) {
        word_ok = word_ok && gen >= 0 && static_cast<std::size_t>(gen) < m_ && e >= 0;
      }
      good_exponents_[j] = word_ok;
      if (!word_ok) {
        out_.Add(K::kRootList, Root(j), root.node, -1,
                 "the word of " + Name(root.node) +
                     " must consist of letters (j, e) with 0 <= j < " + std::to_string(m_) +
                     " and e >= 0");
      }
      continue;
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
    if (s_.stabiliser_invariant) {  // its word is checked to fix it in (b)
      if (own.representative != static_cast<int>(i)) {
        out_.Add(K::kRootList, Root(j), r, -1,
                 "the representative " + Name(r) + " must be listed with representative " +
                     std::to_string(i));
      }
      continue;
    }
    bool zero = true;
    for (std::int64_t e : own.exponents) zero = zero && e == 0;
    if (own.representative != static_cast<int>(i) || !zero) {
      out_.Add(K::kRootList, Root(j), r, -1,
               "the representative " + Name(r) + " must be listed with representative " +
                   std::to_string(i) + " and exponents all 0");
    }
  }
}

// Whether representatives[i] starts a new orbit BFS: its root is valid and its own (else
// reported in (c)), and no earlier BFS reached it (else reported here). Sets owner[root].
bool SymmetricChecker::StartsOrbit(std::size_t i, std::vector<int>& owner) {
  const int r = s_.representatives[i].root;
  if (!ValidNode(r) || rep_at_[r] != static_cast<int>(i)) return false;
  if (owner[r] >= 0) {
    out_.Add(K::kRootList, Rep(i), r, -1,
             "its root " + Name(r) + " is in the orbit of representatives[" +
                 std::to_string(owner[r]) + "] (one representative per orbit)");
    return false;
  }
  owner[r] = static_cast<int>(i);
  return true;
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
    if (!StartsOrbit(i, owner)) continue;
    bool regular = true;
    queue.assign(1, r);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int t = queue[head];
      for (std::size_t j = 0; j < m_; ++j) {
        const int u = s_.generators[j][t];
        StepLabel(at(t), j, next);
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

// Each generator's cycles laid out one after the other (its powers in O(1)).
void SymmetricChecker::BuildCycles() {
  const int n = g_.num_nodes();
  cycle_nodes_.assign(m_, std::vector<int>(n));
  cycle_start_.assign(m_, std::vector<int>(n, -1));
  cycle_length_.assign(m_, std::vector<int>(n));
  cycle_position_.assign(m_, std::vector<int>(n));
  for (std::size_t j = 0; j < m_; ++j) {
    int next = 0;
    for (int v0 = 0; v0 < n; ++v0) {
      if (cycle_start_[j][v0] >= 0) continue;
      const int begin = next;
      int v = v0;
      do {
        cycle_nodes_[j][next] = v;
        cycle_start_[j][v] = begin;
        cycle_position_[j][v] = next - begin;
        ++next;
        v = s_.generators[j][v];
      } while (v != v0);
      for (int i = begin; i < next; ++i) cycle_length_[j][cycle_nodes_[j][i]] = next - begin;
    }
  }
}

int SymmetricChecker::ApplyExponents(std::size_t j, int v, bool inverse) const {
  const std::vector<std::int64_t>& e = s_.roots[j].exponents;
  for (std::size_t i = 0; i < m_; ++i) {
    const std::int64_t len = cycle_length_[i][v];
    const std::int64_t step = inverse ? (s_.orders[i] - e[i]) % s_.orders[i] : e[i];
    v = cycle_nodes_[i]
                    [cycle_start_[i][v] + static_cast<int>((cycle_position_[i][v] + step) % len)];
  }
  return v;
}

// Case 2, (b) and (c): the orbits of Γ = <generators> on the nodes by BFS from each
// representative (|Γr| = the orbit's size; a representative inside another's orbit, a compute
// node in no representative's orbit), and every root's word maps its representative to it.
void SymmetricChecker::CheckWholeGroupOrbits() {
  const int n = g_.num_nodes();
  BuildCycles();
  std::vector<int> owner(static_cast<std::size_t>(n), -1);
  orbit_size_.assign(s_.representatives.size(), 0);
  std::vector<int> queue;
  for (std::size_t i = 0; i < s_.representatives.size(); ++i) {
    const int r = s_.representatives[i].root;
    if (!StartsOrbit(i, owner)) continue;
    queue.assign(1, r);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      for (const std::vector<int>& p : s_.generators) {
        const int u = p[queue[head]];
        if (owner[u] >= 0) continue;  // orbits are disjoint: every earlier BFS was complete
        owner[u] = static_cast<int>(i);
        queue.push_back(u);
      }
    }
    orbit_size_[i] = static_cast<std::int64_t>(queue.size());
  }
  for (int v : g_.ComputeNodes()) {
    if (owner[v] >= 0) continue;
    out_.Add(K::kRootList, prefix_ + "representatives", v, -1,
             "compute node " + Name(v) +
                 " is in no representative's orbit (one representative per orbit)");
  }
  for (std::size_t j = 0; j < s_.roots.size(); ++j) {
    const SymmetricRoot& root = s_.roots[j];
    if (!ValidNode(root.node) || entry_[root.node] != static_cast<int>(j) || !good_exponents_[j] ||
        root.representative < 0 ||
        static_cast<std::size_t>(root.representative) >= s_.representatives.size())
      continue;  // reported in (c)
    const int r = s_.representatives[root.representative].root;
    if (!ValidNode(r)) continue;
    const int image = ApplyWord(root.word, r);
    if (image != root.node) {
      out_.Add(K::kRootList, Root(j), root.node, -1,
               "the word of " + Name(root.node) + " maps its representative " + Name(r) + " to " +
                   Name(image) + ", not to " + Name(root.node));
    }
  }
}

// Case 2, (e), shortcut: Γ_r = {identity} when the generators commute, gen_i^{n_i} = identity
// (both checked in (a)) and a BFS over the orbit of r labelling r with 0 and gen_j(t) with
// e(t) + unit_j (mod n) finds no node with two labels and Π n_i nodes: by the argument of case 1
// (header comment) the labelling is then a bijection onto Z_{n_0} × ... and φ(a)(r) = r forces
// a = 0. O(|Γr| · m²) time, O(V · m) memory, instead of the Schreier generators.
bool SymmetricChecker::TrivialStabiliser(int r) const {
  if (!commute_ || !group_ok_) return false;
  const int n = g_.num_nodes();
  std::int64_t product = 1;
  for (std::int64_t order : s_.orders) {
    if (product > n / order) return false;  // more elements than nodes: not regular
    product *= order;
  }
  std::vector<std::int64_t> label(static_cast<std::size_t>(n) * m_, -1);
  auto at = [&](int v) { return label.data() + static_cast<std::size_t>(v) * m_; };
  std::fill(at(r), at(r) + m_, 0);
  std::vector<int> queue = {r};
  std::vector<std::int64_t> next(m_);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const int t = queue[head];
    for (std::size_t j = 0; j < m_; ++j) {
      const int u = s_.generators[j][t];
      StepLabel(at(t), j, next);
      if (at(u)[0] < 0) {
        std::copy(next.begin(), next.end(), at(u));
        queue.push_back(u);
      } else if (!std::equal(next.begin(), next.end(), at(u))) {
        return false;
      }
    }
  }
  return static_cast<std::int64_t>(queue.size()) == product;
}

// Case 2, (e): by Schreier's lemma the elements u_t⁻¹ ∘ gen ∘ u_s (s in the orbit of r,
// t = gen(s), u_s the BFS transversal: u_r = identity, u_{gen(s)} = gen ∘ u_s on first reach)
// generate Γ_r; the distinct non-identity ones must map r's weighted tree set onto itself
// (the elements keeping it form a subgroup, so then all of Γ_r does). Cost O(|Γr|·m·V) for the
// Schreier generators (2·|Γr|·V ints for the transversal) plus, per distinct one, the size of
// r's trees (hash lookups).
void SymmetricChecker::CheckStabiliserInvariance() {
  const int n = g_.num_nodes();
  std::int64_t distinct_total = 0;
  // A tree's identity under relabelling: its root, then its edges sorted, each with its
  // routes sorted (paths and multiplicities); the tree's multiplicity is its weight.
  auto key = [&](const PipelineTree& t, const std::vector<int>& p) {
    std::vector<std::string> edges;
    edges.reserve(t.edges.size());
    for (const PipelineTreeEdge& e : t.edges) {
      std::vector<std::string> routes;
      for (const PipelineRoute& route : e.routes) {
        std::string r;
        for (int v : route.path) r += std::to_string(p[v]) + ",";
        routes.push_back(r + "x" + route.multiplicity.str());
      }
      std::sort(routes.begin(), routes.end());
      std::string edge = std::to_string(p[e.from]) + ">" + std::to_string(p[e.to]) + ":";
      for (const std::string& r : routes) edge += r + ";";
      edges.push_back(std::move(edge));
    }
    std::sort(edges.begin(), edges.end());
    std::string out = std::to_string(p[t.root]) + "|";
    for (const std::string& e : edges) out += e + "|";
    return out;
  };
  std::vector<int> identity(static_cast<std::size_t>(n));
  std::iota(identity.begin(), identity.end(), 0);
  for (std::size_t i = 0; i < s_.representatives.size(); ++i) {
    const SymmetricRepresentative& rep = s_.representatives[i];
    const int r = rep.root;
    if (!ValidNode(r) || rep_at_[r] != static_cast<int>(i) || orbit_size_[i] == 0) continue;
    if (TrivialStabiliser(r)) continue;
    // The Schreier generators cost |Γr|·(m + 2)·V point images and 2·|Γr|·V ints: beyond a
    // fixed bound the check is not done, and an unchecked schedule is not accepted.
    const double work =
        static_cast<double>(orbit_size_[i]) * static_cast<double>(n) * static_cast<double>(m_ + 2);
    if (work > kMaxInvarianceWork) {
      out_.Add(K::kNotInvariant, Rep(i) + ".trees", r, -1,
               "checking the invariance under the stabiliser of " + Name(r) + " needs about " +
                   std::to_string(static_cast<std::int64_t>(work)) +
                   " point images, above the checker's bound of " +
                   std::to_string(static_cast<std::int64_t>(kMaxInvarianceWork)) +
                   ": not checked, so not accepted");
      continue;
    }
    std::map<std::string, BigInt> trees;  // r's weighted tree set
    for (const PipelineTree& t : rep.trees) trees[key(t, identity)] += t.multiplicity;
    // The transversal, forward and inverse, by BFS from r.
    std::vector<std::vector<int>> u = {identity}, u_inv = {identity};
    std::vector<int> index(static_cast<std::size_t>(n), -1), orbit = {r};
    index[r] = 0;
    for (std::size_t head = 0; head < orbit.size(); ++head) {
      for (const std::vector<int>& x : s_.generators) {
        const int t = x[orbit[head]];
        if (index[t] >= 0) continue;
        index[t] = static_cast<int>(orbit.size());
        orbit.push_back(t);
        std::vector<int> ut(n), ut_inv(n);
        for (int v = 0; v < n; ++v) {
          ut[v] = x[u[head][v]];
          ut_inv[ut[v]] = v;
        }
        u.push_back(std::move(ut));
        u_inv.push_back(std::move(ut_inv));
      }
    }
    std::set<std::vector<int>> checked;
    std::vector<int> h(static_cast<std::size_t>(n));
    bool reported = false;
    for (std::size_t a = 0; a < orbit.size() && !reported; ++a) {
      for (std::size_t j = 0; j < m_ && !reported; ++j) {
        const std::vector<int>& x = s_.generators[j];
        const int b = index[x[orbit[a]]];
        bool is_identity = true;
        for (int v = 0; v < n; ++v) {
          h[v] = u_inv[b][x[u[a][v]]];
          is_identity = is_identity && h[v] == v;
        }
        if (is_identity || !checked.insert(h).second) continue;
        std::map<std::string, BigInt> image;
        for (const PipelineTree& t : rep.trees) image[key(t, h)] += t.multiplicity;
        if (image == trees) continue;
        reported = true;
        out_.Add(K::kNotInvariant, Rep(i) + ".trees", r, -1,
                 "the trees of " + Name(r) +
                     " are not invariant under its stabiliser: the element u_t⁻¹ ∘ generators[" +
                     std::to_string(j) + "] ∘ u_s (s = " + Name(orbit[a]) +
                     ", t = " + Name(orbit[b]) + ", u the BFS transversal) fixes " + Name(r) +
                     " but maps the weighted tree set to another one");
      }
    }
    distinct_total += static_cast<std::int64_t>(checked.size());
  }
  report_.symmetric->stabiliser_generators = distinct_total;
}

// (e): the representatives' trees, with their loads weighted by the orbit sizes.
void SymmetricChecker::CheckTrees() {
  load_.assign(static_cast<std::size_t>(g_.num_links()), BigInt(0));
  PipelineTreeChecker trees(g_, s_.collective, std::nullopt, out_);
  tree_height_.assign(s_.representatives.size(), {});
  for (std::size_t i = 0; i < s_.representatives.size(); ++i) {
    const SymmetricRepresentative& rep = s_.representatives[i];
    tree_height_[i].assign(rep.trees.size(), 0);
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
      if (!ValidNode(tree.root)) {  // reported in (c)
        trees_ok_ = false;
        continue;
      }
      for (const PipelineTreeEdge& e : tree.edges) {
        trees_ok_ = trees_ok_ && ValidNode(e.from) && ValidNode(e.to);
        for (const PipelineRoute& route : e.routes) {
          for (int v : route.path) trees_ok_ = trees_ok_ && ValidNode(v);
        }
      }
      trees.Check(item, tree, load_, weight);
      // An automorphism keeps route lengths: a tree's images are as tall as it is.
      height_ = std::max(height_, trees.height());
      tree_height_[i][t] = trees.height();
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
  if (s_.overrides) {
    std::vector<int> orbit(static_cast<std::size_t>(links));
    for (int l = 0; l < links; ++l) orbit[l] = find(l);
    return CheckOverrides(orbit, orbit_load, size);
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

// The overrides (symmetric_overrides_check.h) on the symmetric part checked on G': run only
// when that part is valid (the loads it stands for are then exact); the ratio and height are
// the changed schedule's.
void SymmetricChecker::CheckOverrides(const std::vector<int>& orbit,
                                      const std::vector<BigInt>& orbit_load,
                                      const std::vector<std::int64_t>& size) {
  if (report_.num_violations > 0 || !group_ok_ || !regular_ok_ || !trees_ok_) return;
  std::vector<int> entry(static_cast<std::size_t>(g_.num_nodes()), -1);
  for (std::size_t j = 0; j < s_.roots.size(); ++j) entry[s_.roots[j].node] = static_cast<int>(j);
  BuildCycles();
  const SymmetricPartLoads part{
      g_,
      real_,
      s_,
      [this](std::size_t j, int v, bool inverse) { return ApplyExponents(j, v, inverse); },
      std::move(entry),
      orbit,
      orbit_load,
      size,
      orbit_size_,
      tree_height_};
  const OverridesOutcome outcome = CheckSymmetricOverrides(part, prefix_, out_);
  report_.ratio = outcome.ratio;
  CheckPipelineHeight(s_.height_hops, outcome.height, prefix_ + "height_hops", report_, out_);
  if (s_.ratio != outcome.ratio) {
    out_.Add(K::kWrongRatio, prefix_ + "ratio", -1, -1,
             "claimed ratio " + ToString(s_.ratio) +
                 ", but the schedule with its overrides has max over links of load / (k·b_e) = " +
                 ToString(outcome.ratio));
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
  report_.symmetric->stabiliser_invariant = s_.stabiliser_invariant;
  CheckGenerators();
  CheckRootList();
  if (usable_) {
    if (s_.stabiliser_invariant) {
      CheckWholeGroupOrbits();
    } else {
      CheckRegularAction();
    }
  }
  CheckTrees();
  if (usable_ && s_.stabiliser_invariant && trees_ok_) CheckStabiliserInvariance();
  // Every root is the image of its representative under an automorphism (checked above), which
  // keeps distances: the representatives' roots give the bound of all roots.
  std::vector<int> rep_roots;
  for (const SymmetricRepresentative& rep : s_.representatives) {
    if (ValidNode(rep.root) && g_.IsCompute(rep.root)) rep_roots.push_back(rep.root);
  }
  report_.height_lower_bound_hops = PipelineHeightLowerBound(real_, s_.collective, rep_roots);
  // With overrides the height is the changed schedule's (CheckOverrides).
  if (!s_.overrides) {
    CheckPipelineHeight(s_.height_hops, height_, prefix_ + "height_hops", report_, out_);
  }
  if (usable_) {
    CheckLinkOrbits();
    if (group_ok_ && regular_ok_ && !s_.stabiliser_invariant && !orbit_size_.empty() &&
        orbit_size_[0] > 0) {
      report_.symmetric->group_order = orbit_size_[0];
    }
    if (s_.bottleneck_cut) {
      CheckPipelineBottleneckCut(real_, s_.collective, *s_.bottleneck_cut, std::nullopt,
                                 prefix_ + "bottleneck_cut", report_, out_);
    }
  }
  SetPipelineVerdict(report_);
}

// One allgather or reduce-scatter part; with overrides on G' = g + the failed links.
void CheckPart(const Topology& g, const SymmetricPipelineSchedule& s, const std::string& prefix,
               PipelineCheckReport& report, int max_errors) {
  if (!s.overrides) return SymmetricChecker(g, g, s, prefix, report, max_errors).Run();
  PipelineViolationCollector out(report, max_errors);
  std::vector<int> ids;
  const Topology restored = RestoreFailedLinks(g, s.overrides->failed_links, prefix, out, &ids);
  SymmetricChecker(restored, g, s, prefix, report, max_errors).Run();
}

// Allreduce: the phases checked as above; ratio, certificate and verdict as the plain checker.
void CheckAllreduce(const Topology& g, const SymmetricPipelineSchedule& s,
                    PipelineCheckReport& report, int max_errors) {
  PipelineViolationCollector out(report, max_errors);
  report.symmetric.emplace();
  const Rational total = CheckAllreducePhases(
      s.phases.size(),
      [&](std::size_t i, const std::string& prefix, PipelineCheckReport& sub) {
        CheckPart(g, s.phases[i], prefix, sub, max_errors);
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
    CheckPart(g, s, "", report, max_errors);
  }
  return report;
}

}  // namespace collsynth
