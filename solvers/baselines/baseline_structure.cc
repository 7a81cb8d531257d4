#include "solvers/baselines/baseline_structure.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "core/input_error.h"

namespace collsynth {
namespace {

void RequireDirect(const Topology& g, const std::string& file, const std::string& what) {
  if (g.num_switches() > 0) {
    throw InputError(file, "topology", what + " needs a direct-connect topology (no switch nodes)");
  }
  if (g.num_compute() < 2) throw InputError(file, "topology", what + " needs at least 2 nodes");
}

// Distinct out-neighbours other than v itself.
std::vector<int> OutNeighbours(const Topology& g, int v) {
  std::vector<int> out;
  for (int e : g.OutLinks(v)) {
    if (g.link(e).to != v) out.push_back(g.link(e).to);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Node ids by integer name "0".."N-1", or empty when the names are not exactly that.
std::vector<int> IntegerNamedOrder(const Topology& g) {
  int n = g.num_nodes();
  std::vector<int> order(n, -1);
  for (int v = 0; v < n; ++v) {
    const std::string& s = g.node(v).name;
    if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), ::isdigit)) return {};
    if (s.size() > 1 && s[0] == '0') return {};
    int k = std::stoi(s);
    if (k >= n || order[k] != -1) return {};
    order[k] = v;
  }
  return order;
}

void VerifyRing(const Topology& g, const std::vector<int>& order, bool bidirectional,
                const std::string& file) {
  int n = g.num_nodes();
  if (static_cast<int>(order.size()) != n) {
    throw InputError(file, "ring order", "must list all " + std::to_string(n) + " nodes once");
  }
  std::vector<bool> seen(n, false);
  for (int v : order) {
    if (v < 0 || v >= n || seen[v]) throw InputError(file, "ring order", "repeats a node");
    seen[v] = true;
  }
  for (int i = 0; i < n; ++i) {
    int a = order[i], b = order[(i + 1) % n];
    if (!g.FindLink(a, b)) {
      throw InputError(file, "link " + g.node(a).name + " -> " + g.node(b).name,
                       "missing: the ring order needs it");
    }
    if (bidirectional && !g.FindLink(b, a)) {
      throw InputError(file, "link " + g.node(b).name + " -> " + g.node(a).name,
                       "missing: a bidirectional ring needs both directions");
    }
  }
}

}  // namespace

std::vector<int> RingOrder(const Topology& g, const std::vector<std::string>& explicit_order,
                           bool bidirectional, const std::string& file) {
  RequireDirect(g, file, "a ring baseline");
  int n = g.num_nodes();
  std::vector<int> order;
  if (!explicit_order.empty()) {
    for (const std::string& name : explicit_order) {
      auto v = g.FindNode(name);
      if (!v) throw InputError(file, "ring order", "unknown node '" + name + "'");
      order.push_back(*v);
    }
    VerifyRing(g, order, bidirectional, file);
    return order;
  }
  // Follow the links when every node has one (or two) distinct neighbours.
  bool all_one = true, all_two = true;
  for (int v = 0; v < n; ++v) {
    std::size_t k = OutNeighbours(g, v).size();
    all_one = all_one && k == 1;
    all_two = all_two && k == 2;
  }
  if ((all_one && !bidirectional) || all_two || (all_one && n == 2)) {
    order.push_back(0);
    int prev = -1;
    while (static_cast<int>(order.size()) < n) {
      std::vector<int> nb = OutNeighbours(g, order.back());
      int next = nb[0] != prev || nb.size() == 1 ? nb[0] : nb[1];
      if (next == order[0]) break;
      prev = order.back();
      order.push_back(next);
    }
    if (static_cast<int>(order.size()) == n) {
      VerifyRing(g, order, bidirectional, file);
      return order;
    }
    throw InputError(file, "topology",
                     "the links form more than one cycle, not a ring over all nodes");
  }
  order = IntegerNamedOrder(g);
  if (!order.empty()) {
    VerifyRing(g, order, bidirectional, file);
    return order;
  }
  throw InputError(file, "topology",
                   "cannot infer a ring order (nodes are neither a simple ring nor named 0..N-1 "
                   "with links i -> i+1); pass --order");
}

int Grid::Index(const std::vector<int>& x) const {
  int idx = 0;
  for (std::size_t k = 0; k < dims.size(); ++k) idx = idx * dims[k] + x[k];
  return idx;
}

Grid InferGrid(const Topology& g, const std::vector<int>& explicit_dims, const std::string& file) {
  RequireDirect(g, file, "a grid baseline");
  int n = g.num_nodes();
  Grid grid;
  grid.coord.assign(n, {});
  if (!explicit_dims.empty()) {
    long long prod = 1;
    for (int d : explicit_dims) {
      if (d < 2) throw InputError(file, "--dims", "every dimension must be >= 2");
      prod *= d;
      if (prod > n) break;
    }
    if (prod != n) {
      throw InputError(
          file, "--dims",
          "the product of the dimensions must equal the " + std::to_string(n) + " nodes");
    }
    grid.dims = explicit_dims;
    grid.node_at.resize(n);
    for (int v = 0; v < n; ++v) {
      grid.node_at[v] = v;
      int r = v;
      grid.coord[v].assign(grid.dims.size(), 0);
      for (std::size_t k = grid.dims.size(); k-- > 0;) {
        grid.coord[v][k] = r % grid.dims[k];
        r /= grid.dims[k];
      }
    }
    return grid;
  }
  // Names "t{x1}_{x2}_..." (graphs/generators Torus) or "(x1,x2,..)".
  std::size_t k = 0;
  for (int v = 0; v < n; ++v) {
    std::string s = g.node(v).name;
    if (!s.empty() && s[0] == 't')
      s = s.substr(1);
    else if (s.size() >= 2 && s.front() == '(' && s.back() == ')')
      s = s.substr(1, s.size() - 2);
    else
      s.clear();
    std::vector<int> x;
    std::string cur;
    bool ok = !s.empty();
    for (char c : s + "_") {
      if (c == '_' || c == ',') {
        if (cur.empty() || cur.size() > 6) {
          ok = false;
          break;
        }
        x.push_back(std::stoi(cur));
        cur.clear();
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        cur += c;
      } else {
        ok = false;
        break;
      }
    }
    if (!ok || (v > 0 && x.size() != k)) {
      throw InputError(file, "node " + g.node(v).name,
                       "cannot read grid coordinates from the node names (expected t{x}_{y}..); "
                       "pass --dims");
    }
    k = x.size();
    grid.coord[v] = x;
  }
  grid.dims.assign(k, 0);
  for (int v = 0; v < n; ++v) {
    for (std::size_t q = 0; q < k; ++q) grid.dims[q] = std::max(grid.dims[q], grid.coord[v][q] + 1);
  }
  long long prod = 1;
  for (int d : grid.dims) prod *= d;
  if (prod != n) throw InputError(file, "topology", "node coordinates do not form a full grid");
  grid.node_at.assign(n, -1);
  for (int v = 0; v < n; ++v) {
    int idx = grid.Index(grid.coord[v]);
    if (grid.node_at[idx] != -1)
      throw InputError(file, "node " + g.node(v).name, "duplicate coordinates");
    grid.node_at[idx] = v;
  }
  return grid;
}

std::vector<int> HypercubeLabels(const Topology& g, const std::string& file) {
  RequireDirect(g, file, "recursive doubling/halving");
  int n = g.num_nodes();
  int k = 0;
  while ((1 << k) < n) ++k;
  if ((1 << k) != n || k > 24) {
    throw InputError(file, "topology",
                     "recursive doubling needs 2^k nodes, got " + std::to_string(n));
  }
  std::vector<int> label(n, -1);
  bool bits = true;
  for (int v = 0; v < n && bits; ++v) {
    const std::string& s = g.node(v).name;
    bits = static_cast<int>(s.size()) == k &&
           std::all_of(s.begin(), s.end(), [](char c) { return c == '0' || c == '1'; });
    if (bits) label[v] = std::stoi(s, nullptr, 2);
  }
  if (!bits) {
    std::vector<int> order = IntegerNamedOrder(g);
    if (order.empty()) {
      order.resize(n);
      std::iota(order.begin(), order.end(), 0);
    }
    for (int i = 0; i < n; ++i) label[order[i]] = i;
  }
  std::vector<int> node(n, -1);
  for (int v = 0; v < n; ++v) {
    if (node[label[v]] != -1)
      throw InputError(file, "node " + g.node(v).name, "duplicate hypercube label");
    node[label[v]] = v;
  }
  for (int v = 0; v < n; ++v) {
    for (int j = 0; j < k; ++j) {
      int w = node[label[v] ^ (1 << j)];
      if (!g.FindLink(v, w)) {
        throw InputError(file, "link " + g.node(v).name + " -> " + g.node(w).name,
                         "missing: not a hypercube under the labels " +
                             std::string(bits ? "of the bit-string names" : "0..N-1"));
      }
    }
  }
  return label;
}

std::vector<int> CirculantRingShifts(const Topology& g, const std::vector<int>& explicit_shifts,
                                     const std::string& file) {
  RequireDirect(g, file, "a shifted-ring baseline");
  int n = g.num_nodes();
  std::vector<int> order = IntegerNamedOrder(g);
  if (order.empty()) {
    order.resize(n);
    std::iota(order.begin(), order.end(), 0);
  }
  auto is_ring = [&](int p) {
    for (int i = 0; i < n; ++i) {
      int a = order[i], b = order[(i + p) % n];
      if (!g.FindLink(a, b) || !g.FindLink(b, a)) return false;
    }
    return true;
  };
  std::vector<int> shifts;
  if (!explicit_shifts.empty()) {
    for (int p : explicit_shifts) {
      if (p < 1 || p >= n || std::gcd(p, n) != 1) {
        throw InputError(file, "--shifts",
                         "shift " + std::to_string(p) + " is not coprime with N = " +
                             std::to_string(n) + " (TotientPerms needs gcd(p, N) = 1)");
      }
      if (!is_ring(p)) {
        throw InputError(file, "--shifts",
                         "the ring i <-> i+" + std::to_string(p) + " is not in the topology");
      }
      shifts.push_back(p);
    }
    return shifts;
  }
  for (int p = 1; 2 * p <= n; ++p) {
    if (std::gcd(p, n) == 1 && is_ring(p)) shifts.push_back(p);
  }
  if (shifts.empty()) {
    throw InputError(file, "topology", "no ring i <-> i+p (gcd(p, N) = 1) over nodes 0..N-1");
  }
  return shifts;
}

namespace {

// (box, local) of a compute node's name: "b<b>g<i>" or "<box>.<local>"; false otherwise.
bool SplitBoxName(const std::string& name, std::string* box, std::string* local) {
  const std::size_t dot = name.find('.');
  if (dot != std::string::npos && dot > 0 && dot + 1 < name.size()) {
    *box = name.substr(0, dot);
    *local = name.substr(dot + 1);
    return true;
  }
  const std::size_t gpos = name.find('g', 1);
  auto digits = [&](std::size_t from, std::size_t to) {
    return to > from && std::all_of(name.begin() + static_cast<std::ptrdiff_t>(from),
                                    name.begin() + static_cast<std::ptrdiff_t>(to), ::isdigit);
  };
  if (name.size() >= 4 && name[0] == 'b' && gpos != std::string::npos && digits(1, gpos) &&
      digits(gpos + 1, name.size())) {
    *box = name.substr(0, gpos);
    *local = name.substr(gpos);
    return true;
  }
  return false;
}

}  // namespace

Boxes InferBoxes(const Topology& g) {
  Boxes out;
  std::map<std::string, std::size_t> box_index;  // box name -> index, by first appearance
  std::vector<std::string> box_names;
  std::vector<std::map<std::string, int>> gpus;  // per box: local name -> node id
  std::vector<std::string> locals;               // box 0's local names, in id order
  for (int v : g.ComputeNodes()) {
    std::string box, local;
    if (!SplitBoxName(g.node(v).name, &box, &local)) {
      out.why = "compute node '" + g.node(v).name +
                "' is not named as a GPU of a box ('b<b>g<i>' as gpuboxes writes, or "
                "'<box>.<gpu>' as topo import --nodes writes)";
      return out;
    }
    const auto [it, added] = box_index.emplace(box, box_names.size());
    if (added) {
      box_names.push_back(box);
      gpus.emplace_back();
    }
    gpus[it->second].emplace(local, v);
    if (it->second == 0) locals.push_back(local);
  }
  if (box_names.size() < 2) {
    out.why = "the compute nodes' names give " + std::to_string(box_names.size()) +
              " box; boxes and rails need at least two";
    return out;
  }
  // GPU i of box b is the one with box 0's i-th local name.
  for (std::size_t b = 0; b < gpus.size(); ++b) {
    std::vector<int> ordered;
    for (const std::string& local : locals) {
      const auto it = gpus[b].find(local);
      if (it == gpus[b].end() || gpus[b].size() != locals.size()) {
        out.why = "box '" + box_names[b] + "' does not have the GPUs of box '" + box_names[0] +
                  "' (GPU '" + local + "'; every box needs the same GPU names for its rails)";
        return out;
      }
      ordered.push_back(it->second);
    }
    out.gpu.push_back(std::move(ordered));
  }
  return out;
}

std::vector<int> RailAwareRingOrder(const Boxes& boxes) {
  const int num_boxes = static_cast<int>(boxes.gpu.size());
  const int per_box = num_boxes == 0 ? 0 : static_cast<int>(boxes.gpu[0].size());
  // exit[b]: the GPU that leaves box b, and enters box b+1.
  std::vector<int> exit(num_boxes, 0);
  for (int b = 0; b < num_boxes; ++b) exit[b] = per_box < 2 ? 0 : b % 2;
  // An odd number of boxes: the last box leaves from GPU 2, back to box 0's entry; with two
  // GPUs per box it leaves from the GPU it entered at and the walk ends on the other GPU, so
  // the closing step is the one off the rails.
  if (num_boxes % 2 == 1 && per_box >= 2) exit[num_boxes - 1] = per_box >= 3 ? 2 : 1;
  std::vector<int> order;
  for (int b = 0; b < num_boxes; ++b) {
    const int in = exit[(b + num_boxes - 1) % num_boxes], out = exit[b];
    order.push_back(boxes.gpu[b][in]);
    for (int i = 0; i < per_box; ++i) {
      if (i != in && i != out) order.push_back(boxes.gpu[b][i]);
    }
    if (out != in) order.push_back(boxes.gpu[b][out]);
  }
  return order;
}

}  // namespace collsynth
