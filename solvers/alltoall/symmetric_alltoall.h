// The exact uniform all-to-all optimum λ* on a topology with a group H of automorphisms acting
// regularly on the COMPUTE nodes (switches may have any orbits: fat-trees, gpuboxes, tori), as a
// compact "flows-symmetric" schedule (schedules/symmetric_flow_schedule.h) that carries its own
// dual certificate. The theory (averaging over H, one capacity row per link orbit, the
// H-invariant length and the one Dijkstra that certifies it) is docs/alltoall.md "Symmetric
// all-to-all".
//
// Method: the reduced LP — source r's commodity f (r = the compute node with exponents 0), one
// column per link r may use (the relay rule, as the full LP), conservation rows at every node but
// r (inflow − outflow = λ at every compute node, 0 at switches), and one capacity row per link
// orbit O of H: (N/|O|)·f(O) ≤ b_O; max λ. CLP solves it (dual simplex; on numerical trouble or a
// basis that is not exactly optimal, dual with presolve, primal, barrier with crossover in
// turn), its basis is re-solved
// exactly (solvers/backends/exact_basis.h): the exact λ, f and the orbit prices w_O = -y_O give
// the lengths ℓ = w_O/|O| on every link of O. f is decomposed into r's paths exactly
// (solvers/alltoall/alltoall_paths.h), the schedule's T = 1/λ, and the schedule is accepted only
// when proofs_check/symmetric_flow_checker.h accepts it, computes T = 1/λ and certifies it by the
// lengths (optimal). certified_by = kFromCompactRegularGroup. No fallback: when CLP fails or the
// basis is not optimal in exact arithmetic, `why` says so (the full LP of alltoall_optimum.h
// remains for small cases). The group comes from the caller (the CLI takes it from the symmetric
// pipeline's ChooseRegularGroup, solvers/pipeline/symmetric_pipeline.h).
// Cost: one LP of E_r + 1 columns, V − 1 + (link orbits) rows and O(E) nonzeros; the exact basis
// solve on at most that many rows; path extraction O((E + N)·path length); the check O(m·(V + E)
// + E log V). Memory O(V + E + N·m), never Θ(N²). Exact: Rational; double only inside CLP.
#ifndef COLLSYNTH_SOLVERS_ALLTOALL_SYMMETRIC_ALLTOALL_H_
#define COLLSYNTH_SOLVERS_ALLTOALL_SYMMETRIC_ALLTOALL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rational.h"
#include "graphs/topology.h"
#include "schedules/symmetric_flow_schedule.h"
#include "solvers/backends/lp_backend.h"

namespace collsynth {

inline constexpr const char* kFromCompactRegularGroup = "regular group on compute nodes";

// H as the caller found it: commuting generators with their orders, acting regularly on the
// compute nodes (one orbit): exponents[v] for every compute node v (empty for switches) with
// g_v(r) = v for the node r whose exponents are all 0; the link orbits of H.
struct ComputeRegularGroup {
  std::vector<std::vector<int>> generators;
  std::vector<std::int64_t> orders;
  std::vector<std::vector<std::int64_t>> exponents;  // per node
  std::vector<int> link_orbit;                       // per link: orbit index
  std::vector<std::int64_t> link_orbit_size;         // per orbit
};

struct SymmetricAlltoallResult {
  bool certified = false;
  std::string why;                                // when not certified
  Rational lambda;                                // λ* (when certified)
  std::optional<SymmetricFlowSchedule> schedule;  // checked, T = 1/λ*, optimal by its lengths
  int lp_columns = 0, lp_rows = 0;
  double lp_seconds = 0, exact_seconds = 0, paths_seconds = 0, check_seconds = 0;
};

SymmetricAlltoallResult ComputeSymmetricAlltoall(const Topology& g, const ComputeRegularGroup& h,
                                                 bool relay = true,
                                                 ClpMethod method = ClpMethod::kDual);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_ALLTOALL_SYMMETRIC_ALLTOALL_H_
