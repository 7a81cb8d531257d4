// Lowering of pipeline schedules (trees) into transfers (msccl_lowering.h), and their export
// to MSCCL programs (msccl_program.h).
#include <algorithm>
#include <set>
#include <vector>

#include "core/input_error.h"
#include "export/chunking.h"
#include "export/msccl_lowering.h"
#include "export/msccl_program.h"

namespace collsynth {

namespace export_internal {
namespace {

// One tree edge src -> dst carrying `cnt` chunks from global chunk `chunk`, ordered by
// (instance, phase, level, tree); buffers and dependencies are the caller's.
Transfer TreeEdge(int instance, int phase, std::int64_t level, int tree, std::int64_t chunk,
                  int src, int dst, std::int64_t cnt) {
  Transfer x;
  x.instance = instance;
  x.phase = phase;
  x.level = level;
  x.tree = tree;
  x.chunk = chunk;
  x.src = src;
  x.dst = dst;
  x.cnt = static_cast<int>(cnt);
  return x;
}

struct TreeView {
  int root = -1;                           // rank
  std::vector<int> parent;                 // by rank
  std::vector<std::vector<int>> children;  // by rank, sorted
  std::vector<int> depth, height;
  std::vector<int> bfs;             // ranks in BFS order
  std::vector<int> route_of_child;  // by child rank: index into Lowering::routes
  std::int64_t lo = 0, hi = 0;      // local chunk range of the tree
};

TreeView MakeTree(const PipelineTree& t, const std::vector<int>& rank, int n, bool reverse_routes,
                  Lowering* L) {
  TreeView v;
  v.root = rank[t.root];
  v.parent.assign(n, -1);
  v.children.assign(n, {});
  v.depth.assign(n, 0);
  v.height.assign(n, 0);
  v.route_of_child.assign(n, -1);
  for (const PipelineTreeEdge& e : t.edges) {
    int a = rank[e.from], b = rank[e.to];
    v.parent[b] = a;
    v.children[a].push_back(b);
    std::vector<RouteShare> list;
    for (const PipelineRoute& r : e.routes) {
      RouteShare rs;
      rs.path = r.path;
      if (reverse_routes) std::reverse(rs.path.begin(), rs.path.end());
      rs.share = Rational(r.multiplicity) / Rational(t.multiplicity);
      list.push_back(std::move(rs));
    }
    v.route_of_child[b] = static_cast<int>(L->routes.size());
    L->routes.push_back(std::move(list));
  }
  for (auto& c : v.children) std::sort(c.begin(), c.end());
  v.bfs.push_back(v.root);
  for (std::size_t i = 0; i < v.bfs.size(); ++i) {
    for (int c : v.children[v.bfs[i]]) {
      v.depth[c] = v.depth[v.bfs[i]] + 1;
      v.bfs.push_back(c);
    }
  }
  if (static_cast<int>(v.bfs.size()) != n)
    throw std::logic_error("export: tree does not span the ranks");
  for (auto it = v.bfs.rbegin(); it != v.bfs.rend(); ++it) {
    for (int c : v.children[*it]) v.height[*it] = std::max(v.height[*it], v.height[c] + 1);
  }
  return v;
}

void LowerGatherTree(const Layout& lay, const TreeView& t, int phase, int tree_index, int instance,
                     std::int64_t a, std::int64_t b, int shard, int root_dep, Lowering* L) {
  const std::int64_t g = lay.Global(shard, instance, a);
  std::vector<int> recv_of(lay.n, -1);
  for (int u : t.bfs) {
    // Fused: the receive at u carries the send to u's main child (the deepest subtree).
    int main_child = -1;
    for (int c : t.children[u]) {
      if (main_child < 0 ||
          std::make_pair(t.height[c], c) > std::make_pair(t.height[main_child], main_child)) {
        main_child = c;
      }
    }
    for (int c : t.children[u]) {
      Transfer x = TreeEdge(instance, phase, t.depth[c], tree_index, g, u, c, b - a);
      if (u == t.root) {
        x.send = lay.RootSource(shard, g);
        x.send_dep = root_dep;
      } else {
        x.send = {'o', g};
        x.send_dep = recv_of[u];
      }
      x.recv_dst = x.recv_src = {'o', g};
      x.route = t.route_of_child[c];
      const int id = static_cast<int>(L->transfers.size());
      if (lay.fuse && u != t.root && c == main_child) {
        x.send_fused = true;
        L->transfers[recv_of[u]].fuse_next = id;
      }
      recv_of[c] = id;
      L->transfers.push_back(x);
    }
  }
}

// Returns the transfer of the root's last reduction (the final value of [a, b)).
int LowerReduceTree(const Layout& lay, const TreeView& t, int phase, int tree_index, int instance,
                    std::int64_t a, std::int64_t b, int shard, Lowering* L) {
  const std::int64_t g = lay.Global(shard, instance, a);
  std::vector<int> order = t.bfs;
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return t.height[x] < t.height[y]; });
  std::vector<int> last_rrc(lay.n, -1);
  std::vector<int> from_main(lay.n, -1);  // fused: the receive from v's main child (the last)
  for (int v : order) {
    if (t.children[v].empty()) continue;
    std::vector<int> kids = t.children[v];
    std::stable_sort(kids.begin(), kids.end(), [&](int x, int y) {
      return std::make_pair(t.height[x], x) < std::make_pair(t.height[y], y);
    });
    BufRef acc = v == t.root ? lay.Final(shard, g) : BufRef{'s', g};
    int prev = -1;
    for (int c : kids) {
      Transfer x = TreeEdge(instance, phase, t.height[c], tree_index, g, c, v, b - a);
      if (t.children[c].empty()) {
        x.send = lay.Contrib(g);
      } else {
        x.send = {'s', g};
        x.send_dep = last_rrc[c];
      }
      if (lay.fuse && from_main[c] >= 0) {
        x.send_fused = true;  // c's last receive reduces and sends on (rrs)
        L->transfers[from_main[c]].fuse_next = static_cast<int>(L->transfers.size());
      }
      x.reduce = true;
      x.recv_dst = acc;
      x.recv_src = prev < 0 ? lay.Contrib(g) : acc;
      x.recv_dep = prev;
      x.route = t.route_of_child[c];
      prev = static_cast<int>(L->transfers.size());
      L->transfers.push_back(x);
    }
    last_rrc[v] = prev;
    if (v != t.root) from_main[v] = prev;
  }
  return last_rrc[t.root];
}

}  // namespace

LoweredSchedule LowerPipelineSchedule(const Topology& g, const PipelineSchedule& s,
                                      const std::vector<int>& rank_of_node, const LowerOptions& o,
                                      const std::string& file) {
  const int n = g.num_compute();
  const Collective coll = s.collective;
  if (coll == Collective::kBroadcast && !o.root_specific) {
    throw InputError(
        file, "collective",
        "broadcast is exported only with --root-specific: the runtimes select a file by "
        "size and rank count, never by root, so it would run for every root");
  }
  if (coll != Collective::kAllgather && coll != Collective::kReduceScatter &&
      coll != Collective::kAllreduce && coll != Collective::kBroadcast) {
    throw InputError(file, "collective",
                     "'" + std::string(CollectiveName(coll)) + "' cannot be exported");
  }
  std::vector<const PipelineSchedule*> phases;
  if (coll == Collective::kAllreduce) {
    if (s.phases.size() != 2) throw InputError(file, "phases", "allreduce needs 2 phases");
    phases = {&s.phases[0], &s.phases[1]};
  } else {
    phases = {&s};
  }
  const bool bcast = coll == Collective::kBroadcast;
  const int shards = bcast ? 1 : n;
  const std::int64_t budget = o.max_chunks / (static_cast<std::int64_t>(shards) * o.instances);
  if (budget < 1) {
    throw ExportLimitError("--max-chunks", static_cast<std::int64_t>(shards) * o.instances,
                           "one chunk per shard and instance needs --max-chunks >= " +
                               std::to_string(static_cast<std::int64_t>(shards) * o.instances));
  }
  // Weight groups: per phase, per root (rank order), the trees of that root.
  std::vector<std::vector<Rational>> groups;
  std::vector<std::vector<std::vector<int>>> trees_of(phases.size(),
                                                      std::vector<std::vector<int>>(n));
  for (std::size_t p = 0; p < phases.size(); ++p) {
    for (std::size_t i = 0; i < phases[p]->trees.size(); ++i) {
      trees_of[p][rank_of_node[phases[p]->trees[i].root]].push_back(static_cast<int>(i));
    }
    for (int r = 0; r < n; ++r) {
      if (trees_of[p][r].empty()) continue;
      std::vector<Rational> w;
      for (int i : trees_of[p][r]) {
        w.push_back(Rational(phases[p]->trees[i].multiplicity) / Rational(phases[p]->k));
      }
      groups.push_back(std::move(w));
    }
  }
  WeightChunking ch = ChunkWeightGroups(groups, budget);
  Layout lay;
  lay.coll = coll;
  lay.inplace = o.inplace;
  lay.fuse = o.fuse;
  lay.n = n;
  lay.K = ch.chunks_per_shard;
  lay.cK = lay.K * o.instances;

  Lowering L;
  L.ngpus = n;
  std::vector<std::vector<TreeView>> views(phases.size());
  std::size_t group = 0;
  for (std::size_t p = 0; p < phases.size(); ++p) {
    const bool reduce = phases[p]->collective == Collective::kReduceScatter;
    for (const PipelineTree& t : phases[p]->trees) {
      views[p].push_back(MakeTree(t, rank_of_node, n, reduce, &L));
    }
    for (int r = 0; r < n; ++r) {
      if (trees_of[p][r].empty()) continue;
      std::int64_t at = 0;
      for (std::size_t k = 0; k < trees_of[p][r].size(); ++k) {
        TreeView& v = views[p][trees_of[p][r][k]];
        v.lo = at;
        at += ch.counts[group][k];
        v.hi = at;
      }
      ++group;
    }
  }
  std::vector<int> roots;
  for (int r = 0; r < n; ++r) {
    bool any = false;
    for (std::size_t p = 0; p < phases.size(); ++p) any = any || !trees_of[p][r].empty();
    if (any) roots.push_back(r);
  }
  // Chunk pieces per root: cut at every tree boundary of every phase and every 71 chunks.
  // Counted before they are built (K may be large: --max-chunks allows 2^40).
  std::vector<std::set<std::int64_t>> bounds_of(n);
  std::int64_t transfers = 0;  // each piece crosses N-1 tree edges per phase and instance
  std::vector<std::int64_t> pieces_of(n, 0);
  for (int r : roots) {
    std::set<std::int64_t>& bounds = bounds_of[r];
    for (std::size_t p = 0; p < phases.size(); ++p) {
      for (int i : trees_of[p][r]) bounds.insert(views[p][i].lo);
    }
    bounds.insert(0);
    bounds.insert(lay.K);
    std::int64_t pieces = 0, prev = 0;
    for (std::int64_t b : bounds) {
      pieces += (b - prev + kMaxCnt - 1) / kMaxCnt;
      prev = b;
    }
    transfers += pieces * static_cast<std::int64_t>(phases.size()) * (n - 1) * o.instances;
    pieces_of[r] = pieces;
  }
  // A tree spans every rank, so every rank other than the root receives at least one
  // transfer per piece, phase and instance: the target may refuse before anything is built.
  std::int64_t all_pieces = 0;
  for (int r = 0; r < n; ++r) all_pieces += pieces_of[r];
  int busiest = 0;
  for (int r = 1; r < n; ++r) {
    if (pieces_of[r] < pieces_of[busiest]) busiest = r;
  }
  const std::int64_t rank_steps =
      (all_pieces - pieces_of[busiest]) * static_cast<std::int64_t>(phases.size()) * o.instances;
  if (o.precheck) o.precheck(rank_steps, busiest, transfers);
  std::vector<std::vector<std::int64_t>> cuts_of(n);
  for (int r : roots) cuts_of[r] = Pieces(bounds_of[r], lay.K);
  for (int j = 0; j < o.instances; ++j) {
    for (int r : roots) {
      const int shard = bcast ? 0 : r;
      const std::vector<std::int64_t>& cuts = cuts_of[r];
      for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
        const std::int64_t a = cuts[c], b = cuts[c + 1];
        int final_rrc = -1;
        for (std::size_t p = 0; p < phases.size(); ++p) {
          int tree = -1;
          for (int i : trees_of[p][r]) {
            if (views[p][i].lo <= a && b <= views[p][i].hi) tree = i;
          }
          if (tree < 0) throw std::logic_error("export: piece outside every tree");
          if (phases[p]->collective == Collective::kReduceScatter) {
            final_rrc =
                LowerReduceTree(lay, views[p][tree], static_cast<int>(p), tree, j, a, b, shard, &L);
          } else {
            LowerGatherTree(lay, views[p][tree], static_cast<int>(p), tree, j, a, b, shard,
                            coll == Collective::kAllreduce ? final_rrc : -1, &L);
          }
        }
      }
    }
  }
  AddCopies(lay, o.instances, roots, &L);

  LoweredSchedule out;
  out.L = std::move(L);
  out.lay = lay;
  out.exact_chunks = ch.exact;
  out.exact_chunks_per_shard = ch.exact_chunks_per_shard;
  out.optimal_ratio = s.ratio;
  if (bcast) out.root_rank = rank_of_node[s.root ? *s.root : s.trees.at(0).root];
  return out;
}

}  // namespace export_internal

MscclExportResult ExportPipelineToMscclProgram(const Topology& g, const PipelineSchedule& s,
                                               const std::vector<int>& rank_of_node,
                                               const MscclExportOptions& o,
                                               const std::string& file) {
  export_internal::CheckOptions(o);
  const int n = g.num_compute();
  export_internal::LowerOptions lo = export_internal::LowerOptionsOf(o);
  // A tree spans every rank, so every rank other than the root ends one edge of it and
  // holds at least one <step> per piece, phase and instance (fused or not). The parser counts
  // only the loading rank's steps (kMscclMaxRankElements): refuse before building a program
  // that no rank could load (a 1024-GPU schedule can be millions of transfers).
  lo.precheck =
      export_internal::RankElementsPrecheck(n, "fewer chunk pieces or fewer GPUs per file");
  export_internal::LoweredSchedule ls =
      export_internal::LowerPipelineSchedule(g, s, rank_of_node, lo, file);
  return export_internal::AssembleMsccl(g, s.collective, rank_of_node, o, &ls);
}

}  // namespace collsynth
