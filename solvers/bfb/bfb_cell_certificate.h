// Independent exact check of a claimed BFB cell optimum (seed 000 App. D, Thm 19), kept
// apart from the producer (solvers/bfb/bfb_cell.h) the way HiGHS keeps its KKT checker
// apart from its solvers: it reads only the claim, never calls the engine, and is written
// from the definition of LP (3)/(13).
//
// A claim for one cell (receiver u, step t) states U = value_num/value_den, per source its
// shares (in-link k, amount x·L with L = shares_scale), and a witness: a source set J (per
// source flag) with N(J) = witness_links, or an in-link whose α alone sets U. It certifies
// U as the optimum when
//   (feasible)  every share lies on an allowed, active in-link and is > 0; each source's
//               shares sum to L; on every active in-link α_k + load_k / B_k <= U; removed
//               in-links carry nothing (so the optimum is <= U), and
//   (bound)     N(J) over active in-links equals witness_links and
//               U_J = (|J| + Σ_{N(J)} α_k B_k) / Σ_{N(J)} B_k == U (so every schedule has >= U),
//               or the α witness is active with α_k == U.
// Integer form as in bfb_cell.h: bandwidth[k] = B_k·S, alpha_bw[k] = α_k·B_k·S, scale S.
// CheckBfbCellCertificate: the integer form the flat plan stores, for every cell it solves.
// Limits: at most 64 in-links (bit masks); inputs are int64 (products are formed exactly,
// in __int128 or BigInt). Complexity O(#sources + #shares + d).
#ifndef COLLSYNTH_SOLVERS_BFB_BFB_CELL_CERTIFICATE_H_
#define COLLSYNTH_SOLVERS_BFB_BFB_CELL_CERTIFICATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collsynth {

struct BfbSubproblem;  // solvers/bfb/bfb_lp.h
struct BfbLpResult;

// The same check in the Rational form of SolveBfbSubproblem's result (any number of senders,
// exact Rationals): x >= 0 on allowed pairs, Σ_k x = 1 per source, α_w + load_w/B_w <= value
// on every kept sender, removed senders (App. D.3) carry nothing, and the witness (J with
// U_J == value over kept senders, or an α sender with α == value) proves value. Returns the
// first problem, or std::nullopt when all hold.
std::optional<std::string> VerifyBfbLpResult(const BfbSubproblem& p, const BfbLpResult& r);

// A claim, as views into the caller's arrays (nothing is copied; they must outlive the call).
struct BfbCellClaim {
  // The cell: in-links 0 .. num_links−1 (num_links <= 64).
  int num_links = 0;
  const std::int64_t* bandwidth = nullptr;         // B_k·S > 0
  const std::int64_t* alpha_bw = nullptr;          // α_k·B_k·S >= 0; nullptr = all 0
  std::uint64_t active_links = ~std::uint64_t{0};  // bit k clear: in-link k removed
  std::int64_t scale = 1;                          // S
  int num_sources = 0;
  const std::uint64_t* allowed = nullptr;  // per source: its allowed in-links as bits
  // Shares of source i: indices [share_begin[i], share_begin[i + 1]) into share_link/share_num.
  const std::int32_t* share_begin = nullptr;
  const std::int32_t* share_link = nullptr;
  const std::int64_t* share_num = nullptr;
  const char* in_witness = nullptr;  // per source: in J
  // The claim.
  std::int64_t value_num = 0, value_den = 1;  // U
  std::int64_t shares_scale = 1;              // L
  std::uint64_t witness_links = 0;            // N(J)
  int alpha_witness = -1;                     // >= 0: U = α of this in-link (J unused)
};

// Returns the first violated condition, or std::nullopt when the claim certifies U. When
// `load` is given it receives load_k (units of 1/L shard) per in-link.
std::optional<std::string> CheckBfbCellCertificate(const BfbCellClaim& claim,
                                                   std::vector<std::int64_t>* load = nullptr);

}  // namespace collsynth

#endif  // COLLSYNTH_SOLVERS_BFB_BFB_CELL_CERTIFICATE_H_
