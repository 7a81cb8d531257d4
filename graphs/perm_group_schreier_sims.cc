#include "graphs/perm_group_schreier_sims.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <unordered_set>

namespace collsynth {
namespace {

using Perm = SchreierSimsGroup::Perm;

// Stored transversal entries (ints) at most: 2^28 (1 GiB); more counts as a spent budget.
constexpr std::int64_t kMaxStoredInts = std::int64_t{1} << 28;
// Depth of the Schreier–Sims recursion at most (each frame is small; the default stack holds
// far more): deeper counts as a spent budget.
constexpr int kMaxRecursion = 20000;

Perm Identity(int n) {
  Perm p(n);
  std::iota(p.begin(), p.end(), 0);
  return p;
}

Perm Inverse(const Perm& p) {
  Perm q(p.size());
  for (std::size_t v = 0; v < p.size(); ++v) q[p[v]] = static_cast<int>(v);
  return q;
}

std::uint64_t PairKey(int u, int v) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(u)) << 32) |
         static_cast<std::uint32_t>(v);
}

}  // namespace

SchreierSimsGroup::SchreierSimsGroup(int n, const std::vector<Perm>& generators,
                                     const std::vector<int>& base_prefix, std::int64_t max_work)
    : n_(n), max_work_(max_work), identity_(Identity(n)), levels_(n), fix_level_(n, 0) {
  std::vector<bool> used(n, false);
  for (int x : base_prefix) {
    if (x < 0 || x >= n) throw std::logic_error("SchreierSimsGroup: base point out of range");
    if (!used[x]) base_.push_back(x), used[x] = true;
  }
  for (int x = 0; x < n; ++x) {
    if (!used[x]) base_.push_back(x);
  }
  for (int k = 0; k < n; ++k) levels_[k].orbit.push_back(base_[k]);
  try {
    for (const Perm& g : generators) {
      if (static_cast<int>(g.size()) != n)
        throw std::logic_error("SchreierSimsGroup: generator of the wrong length");
      Insert(g, 0);
    }
  } catch (const BudgetSpent&) {
    complete_ = false;
    return;
  }
  // FixLevel: G^(k) is the set of products u_k ∘ u_{k+1} ∘ ..., so it fixes x exactly when
  // every transversal element of the levels >= k does.
  for (int k = 0; k < n; ++k) {
    for (const Perm& r : levels_[k].reps) {
      for (int x = 0; x < n; ++x) {
        if (r[x] != x) fix_level_[x] = std::max(fix_level_[x], k + 1);
      }
    }
  }
}

Perm SchreierSimsGroup::Compose(const Perm& a, const Perm& b) {
  work_ += n_;
  if (work_ > max_work_) throw BudgetSpent{};
  Perm c(n_);
  for (int v = 0; v < n_; ++v) c[v] = a[b[v]];
  return c;
}

bool SchreierSimsGroup::SiftsThrough(Perm g, int k) {
  return Sift(std::move(g), k, [this] {
    work_ += n_;
    if (work_ > max_work_) throw BudgetSpent{};
  });
}

template <typename CountWork>
bool SchreierSimsGroup::Sift(Perm g, int k, const CountWork& count_work) const {
  Perm next(n_);
  for (int j = k; j < n_; ++j) {
    const int x = g[base_[j]];
    if (x == base_[j]) continue;
    const Level& level = levels_[j];
    if (level.index.empty() || level.index[x] < 0) return false;
    count_work();
    const Perm& inv = level.inverse_reps[level.index[x]];
    for (int v = 0; v < n_; ++v) next[v] = inv[g[v]];
    g.swap(next);
  }
  return true;  // g fixes every point
}

namespace {
thread_local int recursion_depth = 0;
struct DepthGuard {
  DepthGuard() { ++recursion_depth; }
  ~DepthGuard() { --recursion_depth; }
};
}  // namespace

// Knuth's algorithm: Insert(g, k) adds g ∈ G^(k) as a generator of level k unless the tables
// already contain it, and closes the level's transversal under it (Update); Update(g, k) either
// records a new coset representative or sifts the Schreier generator u_k(x)^-1 ∘ g into level
// k + 1.
void SchreierSimsGroup::Insert(const Perm& g, int k) {
  if (k >= n_) return;  // g fixes every base point: the identity
  DepthGuard guard;
  if (recursion_depth > kMaxRecursion) throw BudgetSpent{};
  if (SiftsThrough(g, k)) return;
  levels_[k].generators.push_back(g);
  const std::size_t known = levels_[k].orbit.size();
  for (std::size_t i = 0; i < known; ++i) {
    const int x = levels_[k].orbit[i];
    if (i == 0) {
      Update(g, k);  // u_k(b_k) is the identity
    } else {
      const Perm r = levels_[k].reps[levels_[k].index[x]];
      Update(Compose(g, r), k);
    }
  }
}

void SchreierSimsGroup::Update(const Perm& g, int k) {
  DepthGuard guard;
  if (recursion_depth > kMaxRecursion) throw BudgetSpent{};
  Level& level = levels_[k];
  const int b = base_[k];
  const int x = g[b];
  if (x == b) {
    Insert(g, k + 1);
    return;
  }
  if (!level.index.empty() && level.index[x] >= 0) {
    const Perm inv = level.inverse_reps[level.index[x]];
    Insert(Compose(inv, g), k + 1);
    return;
  }
  if (level.index.empty()) level.index.assign(n_, -1);
  stored_ints_ += 2 * static_cast<std::int64_t>(n_);
  if (stored_ints_ > kMaxStoredInts) throw BudgetSpent{};
  level.index[x] = static_cast<int>(level.reps.size());
  level.orbit.push_back(x);
  level.reps.push_back(g);
  work_ += n_;
  level.inverse_reps.push_back(Inverse(g));
  for (std::size_t i = 0; i < levels_[k].generators.size(); ++i) {
    const Perm h = levels_[k].generators[i];  // a copy: the level's vectors may grow below
    Update(Compose(h, g), k);
  }
}

BigInt SchreierSimsGroup::Order() const {
  BigInt order = 1;
  for (const Level& l : levels_) order *= static_cast<unsigned>(l.orbit.size());
  return order;
}

bool SchreierSimsGroup::Contains(const Perm& p) const {
  return static_cast<int>(p.size()) == n_ && Sift(p, 0, [] {});
}

const Perm& SchreierSimsGroup::Transversal(int k, int x) const {
  if (x == base_[k]) return identity();
  return levels_[k].reps[levels_[k].index[x]];
}

const Perm& SchreierSimsGroup::InverseTransversal(int k, int x) const {
  if (x == base_[k]) return identity();
  return levels_[k].inverse_reps[levels_[k].index[x]];
}

const Perm& SchreierSimsGroup::identity() const { return identity_; }

std::vector<Perm> SchreierSimsGroup::StrongGenerators() const {
  std::vector<Perm> out;
  for (const Level& l : levels_) out.insert(out.end(), l.generators.begin(), l.generators.end());
  return out;
}

namespace {

// Union-find over the points, for the orbits of the stabiliser elements found so far.
class PointOrbits {
 public:
  explicit PointOrbits(int n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  int Find(int x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  // Returns the surviving root.
  int Unite(int a, int b) {
    a = Find(a), b = Find(b);
    if (a != b) parent_[b] = a;
    return a;
  }

 private:
  std::vector<int> parent_;
};

class StabiliserSearch {
 public:
  StabiliserSearch(const SchreierSimsGroup& group, const std::vector<std::pair<int, int>>& pairs,
                   std::int64_t max_work)
      : g_(group), n_(group.n()), max_work_(max_work) {
    colour_.assign(n_, 0);
    for (const auto& [u, v] : pairs) {
      if (!in_f_.insert(PairKey(u, v)).second) continue;
      pairs_.emplace_back(u, v);
      colour_[u] += std::int64_t{1} << 32;  // out-degree in F
      colour_[v] += 1;                      // in-degree in F
    }
    for (int k = 0; k < n_; ++k) {
      if (g_.BasicOrbit(k).size() > 1) levels_.push_back(k);
    }
    const int m = static_cast<int>(levels_.size());
    points_at_.resize(m);
    pairs_at_.resize(m);
    // Depth j (a choice made at levels_[j]) determines the points with FixLevel in
    // (levels_[j], levels_[j + 1]] (the last depth: all the rest).
    auto depth_of = [&](int fix_level) {
      return static_cast<int>(std::lower_bound(levels_.begin(), levels_.end(), fix_level) -
                              levels_.begin()) -
             1;
    };
    for (int x = 0; x < n_; ++x) {
      const int d = depth_of(g_.FixLevel(x));
      if (d >= 0) points_at_[d].push_back(x);
    }
    for (const auto& [u, v] : pairs_) {
      const int d = depth_of(std::max(g_.FixLevel(u), g_.FixLevel(v)));
      if (d >= 0) pairs_at_[d].emplace_back(u, v);
    }
  }

  SetStabiliserResult Run() {
    SetStabiliserResult result;
    const int m = static_cast<int>(levels_.size());
    try {
      for (int i = m - 1; i >= 0; --i) {
        const int k = levels_[i];
        const int b = g_.base()[k];
        PointOrbits orbits = OrbitsOfFound();
        std::vector<bool> dead(n_, false);  // by orbit root
        for (int x : g_.BasicOrbit(k)) {
          if (x == b) continue;
          const int r = orbits.Find(x);
          if (r == orbits.Find(b) || dead[r]) continue;
          std::vector<int> element;
          if (colour_[x] == colour_[b] && Search(i, g_.Transversal(k, x), &element)) {
            if (!MapsPairsOntoThemselves(element))
              throw std::logic_error("PairSetStabiliser: an element found does not keep F");
            found_.push_back(std::move(element));
            // Re-derive the orbits with the new element; dead points stay dead (a point in
            // the orbit of an unreachable one is unreachable).
            std::vector<int> dead_points;
            for (int y = 0; y < n_; ++y) {
              if (dead[orbits.Find(y)]) dead_points.push_back(y);
            }
            orbits = OrbitsOfFound();
            dead.assign(n_, false);
            for (int y : dead_points) dead[orbits.Find(y)] = true;
          } else {
            dead[r] = true;
          }
        }
        // The orbit of b under the elements found is K^(k)'s.
        PointOrbits final_orbits = OrbitsOfFound();
        unsigned size = 0;
        for (int x : g_.BasicOrbit(k)) size += final_orbits.Find(x) == final_orbits.Find(b);
        result.order *= size;
      }
    } catch (const BudgetSpent&) {
      result.complete = false;
    }
    result.generators = found_;
    result.work = work_;
    result.search_nodes = nodes_;
    if (!result.complete) {
      SchreierSimsGroup sub(n_, found_, {}, max_work_);
      result.order = sub.complete() ? sub.Order() : BigInt(0);
    }
    return result;
  }

 private:
  struct BudgetSpent {};

  PointOrbits OrbitsOfFound() {
    PointOrbits orbits(n_);
    for (const Perm& p : found_) {
      for (int x = 0; x < n_; ++x) orbits.Unite(x, p[x]);
    }
    work_ += n_ * static_cast<std::int64_t>(found_.size() + 1);
    return orbits;
  }

  bool MapsPairsOntoThemselves(const Perm& p) const {
    for (const auto& [u, v] : pairs_) {
      if (!in_f_.count(PairKey(p[u], p[v]))) return false;
    }
    return true;
  }

  // Whether the choices so far (h, depth `depth`) keep the points and pairs they determine.
  bool Consistent(int depth, const Perm& h) const {
    for (int x : points_at_[depth]) {
      if (colour_[h[x]] != colour_[x]) return false;
    }
    for (const auto& [u, v] : pairs_at_[depth]) {
      if (!in_f_.count(PairKey(h[u], h[v]))) return false;
    }
    return true;
  }

  // Depth-first search below h (a product of transversal elements down to depth `depth`) for an
  // element of K; true and *out = it when found.
  bool Search(int depth, const Perm& h, Perm* out) {
    ++nodes_;
    work_ += static_cast<std::int64_t>(points_at_[depth].size() + pairs_at_[depth].size()) + 1;
    if (work_ > max_work_) throw BudgetSpent{};
    if (!Consistent(depth, h)) return false;
    if (depth + 1 == static_cast<int>(levels_.size())) {
      *out = h;
      return true;
    }
    const int k = levels_[depth + 1];
    const int b = g_.base()[k];
    for (int x : g_.BasicOrbit(k)) {
      if (colour_[h[x]] != colour_[b]) continue;  // the image of b would be h(x)
      const Perm& u = g_.Transversal(k, x);
      work_ += n_;
      Perm next(n_);
      for (int v = 0; v < n_; ++v) next[v] = h[u[v]];
      if (Search(depth + 1, next, out)) return true;
    }
    return false;
  }

  const SchreierSimsGroup& g_;
  const int n_;
  const std::int64_t max_work_;
  std::int64_t work_ = 0, nodes_ = 0;
  std::vector<std::int64_t> colour_;
  std::unordered_set<std::uint64_t> in_f_;
  std::vector<std::pair<int, int>> pairs_;
  std::vector<int> levels_;  // the nontrivial levels
  std::vector<std::vector<int>> points_at_;
  std::vector<std::vector<std::pair<int, int>>> pairs_at_;
  std::vector<Perm> found_;
};

}  // namespace

SetStabiliserResult PairSetStabiliser(const SchreierSimsGroup& group,
                                      const std::vector<std::pair<int, int>>& pairs,
                                      std::int64_t max_work) {
  if (!group.complete()) {
    SetStabiliserResult r;
    r.complete = false;
    r.order = 0;
    return r;
  }
  return StabiliserSearch(group, pairs, max_work).Run();
}

FailedLinkStabiliser StabiliseFailedLinks(const TopologyWithFailures& t,
                                          const std::vector<std::vector<int>>& generators,
                                          std::int64_t max_work) {
  std::vector<int> prefix;
  std::vector<std::pair<int, int>> pairs;
  for (int e : t.failed) {
    const Link& l = t.intact.link(e);
    prefix.push_back(l.from);
    prefix.push_back(l.to);
    pairs.emplace_back(l.from, l.to);
  }
  const SchreierSimsGroup group(t.intact.num_nodes(), generators, prefix, max_work);
  FailedLinkStabiliser out;
  out.group_complete = group.complete();
  if (group.complete()) out.group_order = group.Order();
  out.stabiliser = PairSetStabiliser(group, pairs, max_work);
  return out;
}

}  // namespace collsynth
