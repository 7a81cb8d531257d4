// Exact maximum s-t flow with its minimum-cut certificate.
//
// Problem: given a digraph with non-negative integer capacities (some arcs may be infinite),
// find the value of a maximum flow from `source` to `sink` and a minimum cut (A, V - A) with
// source in A, sink not in A, whose capacity equals the value (max-flow min-cut theorem).
// Used by every part of seed 004 (Theorem 1's oracle, Theorem 8's splitting amount,
// Theorem 12's packing amount, the bounds (5)-(7)).
// Algorithm: LEMON Preflow (Goldberg-Tarjan push-relabel, first phase only), O(V^2 sqrt(E)).
// Number types: capacities are BigInt; when every capacity (with infinite arcs replaced by
// "sum of finite capacities + 1", which no minimum cut can contain unless the sink is
// reachable over infinite arcs only) fits comfortably in int64 the engine runs on int64,
// otherwise on BigInt (GMP). Both are exact.
// Preconditions: capacities >= 0, node ids valid, source != sink (std::logic_error: a caller
// fault).
#ifndef COLLSYNTH_SOLVERS_BACKENDS_MAX_FLOW_H_
#define COLLSYNTH_SOLVERS_BACKENDS_MAX_FLOW_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"

namespace collsynth {

class FlowNetwork {
 public:
  explicit FlowNetwork(int num_nodes = 0) : num_nodes_(num_nodes) {}

  int AddNode() { return num_nodes_++; }
  // Returns the arc id (dense, in insertion order).
  int AddArc(int from, int to, const BigInt& capacity);
  int AddInfiniteArc(int from, int to);

  int num_nodes() const { return num_nodes_; }
  int num_arcs() const { return static_cast<int>(tail_.size()); }
  int tail(int arc) const { return tail_[arc]; }
  int head(int arc) const { return head_[arc]; }
  const BigInt& capacity(int arc) const { return capacity_[arc]; }
  bool infinite(int arc) const { return infinite_[arc] != 0; }

  void SetCapacity(int arc, const BigInt& capacity);
  void SetInfinite(int arc);

 private:
  int num_nodes_ = 0;
  std::vector<int> tail_, head_;
  std::vector<BigInt> capacity_;
  std::vector<char> infinite_;
};

enum class MaxFlowStatus {
  kOptimal,    // value, and (when requested) flow and cut, are a maximum flow and a minimum cut
  kUnbounded,  // the sink is reachable from the source over infinite arcs only
};

// A maximum flow with its optimality certificate (as LEMON's Preflow and OR-Tools' MaxFlow
// report): a feasible flow of value `value` and a cut (A, V - A) whose finite capacity equals
// it. With kUnbounded, value is meaningless and flow and source_side are empty.
struct MaxFlowResult {
  MaxFlowStatus status = MaxFlowStatus::kOptimal;
  bool unbounded() const { return status == MaxFlowStatus::kUnbounded; }
  BigInt value;
  // Per arc id (FlowNetwork order): the flow, 0 <= flow <= capacity (finite on infinite
  // arcs), conserved at every node but source and sink. Empty unless requested (computing
  // it costs LEMON Preflow's second phase).
  std::vector<BigInt> flow;
  // The cut: source_side[v] == 1 for v in A. Empty unless requested.
  std::vector<char> source_side;
};

// One-shot convenience wrapper around MaxFlowSolver: the full certificate (flow and cut).
MaxFlowResult ComputeMaxFlow(const FlowNetwork& network, int source, int sink);

// Independent exact check of a kOptimal result that carries flow and cut: every flow within
// [0, capacity], conservation at every node but source and sink, net outflow of the source
// == value, source in A and sink not, no infinite arc leaves A, and the capacity leaving A ==
// value (so the flow is maximum and the cut minimum). Returns the first violation, or
// std::nullopt. O(V + E) BigInt operations.
std::optional<std::string> VerifyMaxFlowCertificate(const FlowNetwork& network, int source,
                                                    int sink, const MaxFlowResult& result);

// Sum of the capacities of arcs leaving the node set {v : side[v]} (infinite arcs make the
// result "unbounded", returned as std::nullopt-like -1 flag through `infinite`).
BigInt CutCapacity(const FlowNetwork& network, const std::vector<char>& side, bool* infinite);

// The minimum over all cuts (A, V - A) with root in A and V - A nonempty of the capacity
// leaving A — min_v F(root, v) over every other node v — in one push-relabel run (LEMON
// HaoOrlin, first phase), with such a cut. Exact on int64; std::nullopt when the finite
// capacities sum to 2^62 or more, or an arc is infinite (the caller then uses max-flows).
struct RootedMinCut {
  BigInt value;
  std::vector<char> source_side;  // A
};
std::optional<RootedMinCut> MinCutFromRoot(const FlowNetwork& network, int root);

// Engine for many queries on one network: the LEMON graph and the push-relabel data
// structures are built once; capacities may change between queries. The engine copies the
// network; it does not keep a reference to it.
class MaxFlowSolver {
 public:
  explicit MaxFlowSolver(const FlowNetwork& network);
  ~MaxFlowSolver();
  MaxFlowSolver(const MaxFlowSolver&) = delete;
  MaxFlowSolver& operator=(const MaxFlowSolver&) = delete;

  const FlowNetwork& network() const { return network_; }
  void SetCapacity(int arc, const BigInt& capacity);
  void SetInfinite(int arc);

  // Maximum flow value and, when want_cut, the minimum cut; when want_flow, also the flow
  // per arc (LEMON Preflow's second phase turns the maximum preflow into a flow; the hot
  // paths that only need the value or the cut skip it).
  MaxFlowResult Solve(int source, int sink, bool want_cut = true, bool want_flow = false);

  // Warm starts (same answers as Solve, usually much less push-relabel work). A preflow
  // computed for a source stays a preflow for any sink of the same source when capacities
  // are raised; arcs whose capacity dropped below their flow are clamped, and if that
  // leaves a node with negative excess the solve falls back to a cold start. Either way
  // the result is exact.
  //  * SolveFromLast: start from the preflow of the previous solve (same source).
  //  * SaveFlow / SolveFromSaved: remember the current preflow and start every later
  //    solve from it (e.g. one base flow, then many queries that each add an arc).
  MaxFlowResult SolveFromLast(int source, int sink, bool want_cut = true, bool want_flow = false);
  void SaveFlow();
  MaxFlowResult SolveFromSaved(int source, int sink, bool want_cut = true, bool want_flow = false);

  // Number of solves that really started from a previous preflow.
  std::int64_t warm_starts() const { return warm_starts_; }

  // Number of Solve calls so far (for benchmarks).
  std::int64_t calls() const { return calls_; }

 private:
  enum class WarmStart { kNone, kLast, kSaved };
  MaxFlowResult SolveImpl(int source, int sink, bool want_cut, bool want_flow, WarmStart warm);

  struct Impl;
  FlowNetwork network_;
  std::unique_ptr<Impl> impl_;
  std::int64_t calls_ = 0;
  std::int64_t warm_starts_ = 0;
};

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BACKENDS_MAX_FLOW_H_
