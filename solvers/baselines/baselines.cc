#include "solvers/baselines/baselines.h"

#include <algorithm>
#include <functional>
#include <numeric>

#include "core/input_error.h"
#include "graphs/properties.h"
#include "solvers/baselines/baseline_structure.h"
#include "solvers/baselines/double_binary_tree.h"
#include "solvers/baselines/multitree.h"
#include "solvers/baselines/recursive_doubling.h"
#include "solvers/baselines/ring_baselines.h"
#include "solvers/baselines/torus_baseline.h"
#include "solvers/bfb/schedule_expansion.h"

namespace collsynth {
namespace {

// build(h, transposed): the allgather on h, which is g or (transposed) g^T.
using AllgatherBuilder = std::function<StepSchedule(const Topology&, bool)>;

// Cor. 3.1: the reduce-scatter on g is the reverse of the allgather built on g^T.
StepSchedule ForCollective(const Topology& g, const AllgatherBuilder& build, Collective collective,
                           const std::string& file) {
  if (collective == Collective::kAllgather) return build(g, false);
  Topology gt = g.Transpose();
  StepSchedule ag_t = build(gt, true);
  ExpandedSchedule rs = ReverseSchedule(gt, ag_t, file);  // lands on (g^T)^T = g
  if (collective == Collective::kReduceScatter) return rs.schedule;
  return ConcatenateAllreduce(rs.schedule, build(g, false));
}

// node_of[i] = node named i, or node id i when names are not 0..N-1 (ring positions).
std::vector<int> IdOrder(const Topology& g) {
  std::vector<int> order(g.num_nodes());
  std::iota(order.begin(), order.end(), 0);
  return order;
}

}  // namespace

const std::vector<std::string>& BaselineNames() {
  static const std::vector<std::string> names = {
      "uniring",           "biring", "biring-bfb",  "torus",          "recursive-doubling",
      "recursive-halving", "dbtree", "shiftedring", "shiftedbfbring", "multitree"};
  return names;
}

Collective DefaultCollective(const std::string& name) {
  if (name == "recursive-halving") return Collective::kReduceScatter;
  if (name == "multitree" || name == "dbtree") return Collective::kAllreduce;
  return Collective::kAllgather;
}

void RequireKnownBaseline(const std::string& name) {
  const auto& names = BaselineNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError("<args>", "baseline '" + name + "'", "unknown; one of: " + list);
  }
}

Collective ParseBaselineCollective(const std::string& text) {
  std::optional<Collective> c = ParseCollective(text);
  if (!c || *c == Collective::kBroadcast) {
    throw InputError("<args>", "--collective",
                     "'" + text + "' is not one of allgather, reduce-scatter, allreduce");
  }
  return *c;
}

StepSchedule BuildBaseline(const Topology& g, const BaselineOptions& o, const std::string& file) {
  RequireKnownBaseline(o.name);
  const Collective collective = o.collective
                                    ? ParseBaselineCollective(CollectiveName(*o.collective))
                                    : DefaultCollective(o.name);
  if (o.chunks != 1 && o.name != "dbtree") {
    throw InputError("<args>", "--chunks", "pipeline chunks apply to dbtree only");
  }
  if (g.num_switches() > 0) {
    throw InputError(file, "topology",
                     "baselines are step schedules on direct-connect topologies; " +
                         std::to_string(g.num_switches()) + " switch nodes found");
  }
  if (g.num_nodes() < 2) throw InputError(file, "topology", "needs at least 2 compute nodes");
  RequireStronglyConnected(g, file);
  StepSchedule s;
  if (o.name == "uniring" || o.name == "biring" || o.name == "biring-bfb") {
    bool bi = o.name != "uniring";
    s = ForCollective(
        g,
        [&](const Topology& h, bool transposed) {
          std::vector<std::string> names = o.order;
          if (transposed) std::reverse(names.begin(), names.end());  // the ring runs backwards
          std::vector<int> order = RingOrder(h, names, bi, file);
          if (o.name == "uniring") return UniRingAllgather(order);
          if (o.name == "biring") return BiRingAllgather(order);
          return BiRingBfbAllgather(order);
        },
        collective, file);
  } else if (o.name == "torus") {
    s = ForCollective(
        g,
        [&](const Topology& h, bool transposed) {
          return TraditionalTorusAllgather(h, InferGrid(h, o.dims, file), file);
        },
        collective, file);
  } else if (o.name == "recursive-doubling" || o.name == "recursive-halving") {
    s = ForCollective(
        g,
        [&](const Topology& h, bool transposed) {
          return RecursiveDoublingAllgather(HypercubeLabels(h, file));
        },
        collective, file);
  } else if (o.name == "shiftedring" || o.name == "shiftedbfbring") {
    s = ForCollective(
        g,
        [&](const Topology& h, bool transposed) {
          std::vector<int> shifts = CirculantRingShifts(h, o.shifts, file);
          std::vector<int> node_of = IdOrder(h);
          std::vector<int> by_name(h.num_nodes(), -1);
          bool named = true;
          for (int v = 0; v < h.num_nodes() && named; ++v) {
            auto k = h.FindNode(std::to_string(v));
            named = k.has_value();
            if (named) by_name[v] = *k;
          }
          return ShiftedRingAllgather(named ? by_name : node_of, shifts,
                                      o.name == "shiftedbfbring");
        },
        collective, file);
  } else if (o.name == "dbtree") {
    s = ForCollective(
        g,
        [&](const Topology& h, bool transposed) {
          std::vector<int> order = IdOrder(h);
          if (!o.order.empty()) order = RingOrder(h, o.order, false, file);
          return DoubleBinaryTreeAllgather(h, order, o.chunks, file);
        },
        collective, file);
  } else if (o.name == "multitree") {
    MultiTreeOptions mo;
    mo.fan_out = o.fan_out;
    if (!o.dims.empty()) {
      mo.grid = InferGrid(g, o.dims, file);
    } else {
      try {
        mo.grid = InferGrid(g, {}, file);
      } catch (const InputError&) {
        mo.grid.reset();  // not a grid: the topology's link order
      }
    }
    MultiTreeResult r = BuildMultiTree(g, mo, file);
    if (collective != Collective::kAllgather) {
      // Algorithm 1 reduces along the reversed tree edges.
      for (const auto& tree : r.trees) {
        for (const MultiTreeEdge& e : tree) {
          if (!g.FindLink(e.child, e.parent)) {
            throw InputError(file, "link " + g.node(e.child).name + " -> " + g.node(e.parent).name,
                             "missing: MultiTree's reduce-scatter reverses the tree edges");
          }
        }
      }
    }
    if (collective == Collective::kAllgather)
      s = r.allgather;
    else if (collective == Collective::kReduceScatter)
      s = r.reduce_scatter;
    else
      s = r.allreduce;
    s.extra["tot_t"] = r.total_steps;
  }
  s.extra["baseline"] = o.name;
  s.extra["collective"] = CollectiveName(collective);
  return s;
}

}  // namespace collsynth
