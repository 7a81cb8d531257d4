// The one BFB cell engine (solvers/bfb/bfb_cell.h) and its separate certificate checker
// (solvers/bfb/bfb_cell_certificate.h): seed 000 App. D's Figure 5 cell, brute force over every
// job set J (Thm 19, with α as in LP (13)) on seeded random cells on both number types, the
// split of the flow, mutated certificates rejected, and the failure policy.
#include "solvers/bfb/bfb_cell.h"

#include <gtest/gtest.h>

#include <random>

#include "solvers/bfb/bfb_cell_certificate.h"
#include "test_util.h"

namespace collsynth {
namespace {

// App. D, u_2 of Figure 5: v1 from w1 or w2, v2 from w2 or w3 (two groups of one source).
BfbCellNetwork<std::int64_t> Figure5U2() {
  BfbCellNetwork<std::int64_t> net;
  net.bandwidth = {1, 1, 1};
  net.AddGroup(1);
  net.AddGroupLink(0);
  net.AddGroupLink(1);
  net.AddGroup(1);
  net.AddGroupLink(1);
  net.AddGroupLink(2);
  return net;
}

// A claim for the checker from an engine optimum (one source entry per group member).
struct ClaimData {
  std::vector<std::uint64_t> allowed;
  std::vector<std::int32_t> share_begin{0}, share_link;
  std::vector<std::int64_t> share_num;
  std::vector<char> in_witness;
  BfbCellClaim claim;
};

ClaimData MakeClaim(const BfbCellNetwork<std::int64_t>& net,
                    const BfbCellOptimum<std::int64_t>& opt) {
  ClaimData c;
  std::vector<int> first(net.num_groups() + 1, 0);
  for (int g = 0; g < net.num_groups(); ++g)
    first[g + 1] = first[g] + static_cast<int>(net.count[g]);
  std::vector<std::vector<std::pair<int, std::int64_t>>> shares(first.back());
  SplitBfbCellFlow(net, opt, [&](int g, int member, int entry, std::int64_t amount) {
    shares[first[g] + member].push_back({net.link[entry], amount});
  });
  for (int g = 0; g < net.num_groups(); ++g) {
    std::uint64_t mask = 0;
    for (int i = net.begin[g]; i < net.begin[g + 1]; ++i) mask |= std::uint64_t{1} << net.link[i];
    for (int member = 0; member < net.count[g]; ++member) {
      c.allowed.push_back(mask);
      c.in_witness.push_back(opt.witness[g]);
      for (const auto& [k, amount] : shares[first[g] + member]) {
        c.share_link.push_back(k);
        c.share_num.push_back(amount);
      }
      c.share_begin.push_back(static_cast<std::int32_t>(c.share_link.size()));
    }
  }
  return c;
}

BfbCellClaim View(ClaimData& c, const BfbCellNetwork<std::int64_t>& net,
                  const BfbCellOptimum<std::int64_t>& opt, int alpha_witness = -1) {
  BfbCellClaim v;
  v.num_links = net.num_links();
  v.bandwidth = net.bandwidth.data();
  v.alpha_bw = net.alpha_bw.empty() ? nullptr : net.alpha_bw.data();
  for (int k = 0; k < net.num_links(); ++k)
    if (!net.is_active(k)) v.active_links &= ~(std::uint64_t{1} << k);
  v.scale = net.scale;
  v.num_sources = static_cast<int>(c.allowed.size());
  v.allowed = c.allowed.data();
  v.share_begin = c.share_begin.data();
  v.share_link = c.share_link.data();
  v.share_num = c.share_num.data();
  v.in_witness = c.in_witness.data();
  v.value_num = opt.value.num;
  v.value_den = opt.value.den;
  v.shares_scale = opt.flow_scale;
  for (std::size_t i = 0; i < c.allowed.size(); ++i)
    if (c.in_witness[i]) v.witness_links |= c.allowed[i];
  v.witness_links &= v.active_links;
  v.alpha_witness = alpha_witness;
  return v;
}

TEST(BfbCellTest, Seed000Figure5U2) {
  BfbCellNetwork<std::int64_t> net = Figure5U2();
  BfbCellSolver<std::int64_t> solver;
  BfbCellOptimum<std::int64_t> opt = solver.Solve(net);
  EXPECT_EQ(opt.value.num, 2);
  EXPECT_EQ(opt.value.den, 3);
  EXPECT_EQ(opt.witness, (std::vector<char>{1, 1}));  // J = {v1, v2}, N(J) = {w1, w2, w3}
  EXPECT_EQ(opt.flow_scale, 3);
  EXPECT_EQ(opt.flow, (std::vector<std::int64_t>{2, 1, 1, 2}));  // the unique optimum (§6.1)
  EXPECT_EQ(solver.flow_runs(), 1);
  ClaimData c = MakeClaim(net, opt);
  EXPECT_EQ(CheckBfbCellCertificate(View(c, net, opt)), std::nullopt);
}

// max(max_k α_k, max_J U_J) by enumerating every J (Thm 19 / LP (13)), as a Rational.
Rational BruteForce(const BfbCellNetwork<std::int64_t>& net) {
  Rational best(0);
  for (int k = 0; k < net.num_links(); ++k)
    if (net.is_active(k) && !net.alpha_bw.empty())
      best = std::max(best, Rational(net.alpha_bw[k], net.bandwidth[k]));
  const int groups = net.num_groups();
  for (std::uint32_t mask = 1; mask < (1u << groups); ++mask) {
    std::vector<char> in_n(net.num_links(), 0);
    std::int64_t j = 0;
    for (int g = 0; g < groups; ++g) {
      if (!(mask >> g & 1)) continue;
      j += net.count[g] * net.scale;
      for (int i = net.begin[g]; i < net.begin[g + 1]; ++i) in_n[net.link[i]] = 1;
    }
    std::int64_t num = j, den = 0;
    for (int k = 0; k < net.num_links(); ++k) {
      if (!in_n[k] || !net.is_active(k)) continue;
      num += net.alpha(k);
      den += net.bandwidth[k];
    }
    if (den > 0) best = std::max(best, Rational(num, den));
  }
  return best;
}

BfbCellNetwork<BigInt> ToBig(const BfbCellNetwork<std::int64_t>& n) {
  BfbCellNetwork<BigInt> b;
  b.begin = n.begin;
  b.link = n.link;
  b.active = n.active;
  b.scale = n.scale;
  for (auto c : n.count) b.count.push_back(c);
  for (auto x : n.bandwidth) b.bandwidth.push_back(x);
  for (auto x : n.alpha_bw) b.alpha_bw.push_back(x);
  return b;
}

TEST(BfbCellTest, MatchesBruteForceOnRandomCellsOnBothNumberTypes) {
  std::mt19937_64 rng(testing::TestSeed() + 19);
  for (int round = 0; round < 300; ++round) {
    BfbCellNetwork<std::int64_t> net;
    const int d = 1 + static_cast<int>(rng() % 6);
    const bool with_alpha = round % 3 == 0;
    net.scale = with_alpha ? 4 : 1;
    for (int k = 0; k < d; ++k) {
      net.bandwidth.push_back(net.scale * (1 + static_cast<std::int64_t>(rng() % 4)));
      if (with_alpha)
        net.alpha_bw.push_back(static_cast<std::int64_t>(rng() % 3) * net.bandwidth.back() / 2);
    }
    const int groups = 1 + static_cast<int>(rng() % 6);
    for (int g = 0; g < groups; ++g) {
      net.AddGroup(1 + static_cast<std::int64_t>(rng() % 3));
      std::uint64_t mask = rng() % ((1u << d) - 1) + 1;  // nonempty
      for (int k = 0; k < d; ++k)
        if (mask >> k & 1) net.AddGroupLink(k);
    }
    BfbCellSolver<std::int64_t> solver;
    BfbCellOptimum<std::int64_t> opt = solver.Solve(net);
    const Rational expected = BruteForce(net);
    ASSERT_EQ(Rational(opt.value.num, opt.value.den), expected)
        << "seed " << testing::TestSeed() << " round " << round;
    BfbCellSolver<BigInt> big_solver;
    BfbCellOptimum<BigInt> big = big_solver.Solve(ToBig(net));
    EXPECT_EQ(Rational(big.value.num) / Rational(big.value.den), expected) << "round " << round;
    // The separate checker certifies it (α witness when the witness is empty).
    int alpha_witness = -1;
    bool any = false;
    for (char w : opt.witness) any = any || w;
    for (int k = 0; !any && k < d; ++k)
      if (Rational(net.alpha(k), net.bandwidth[k]) == expected) alpha_witness = k;
    ClaimData c = MakeClaim(net, opt);
    EXPECT_EQ(CheckBfbCellCertificate(View(c, net, opt, alpha_witness)), std::nullopt)
        << "round " << round;
  }
}

TEST(BfbCellTest, RemovedLinksCarryNothing) {
  BfbCellNetwork<std::int64_t> net = Figure5U2();
  net.active = {1, 1, 0};  // w3 removed: v2 only from w2, v1 from w1 or w2: U = 1
  BfbCellSolver<std::int64_t> solver;
  BfbCellOptimum<std::int64_t> opt = solver.Solve(net);
  EXPECT_EQ(opt.value.num, 1);
  EXPECT_EQ(opt.value.den, 1);
  EXPECT_EQ(opt.flow[3], 0);
  ClaimData c = MakeClaim(net, opt);
  EXPECT_EQ(CheckBfbCellCertificate(View(c, net, opt)), std::nullopt);
}

// Mutated certificates of the Figure 5 cell are each rejected, by the checker alone.
TEST(BfbCellCertificateTest, RejectsMutatedCertificates) {
  BfbCellNetwork<std::int64_t> net = Figure5U2();
  BfbCellSolver<std::int64_t> solver;
  const BfbCellOptimum<std::int64_t> opt = solver.Solve(net);
  ClaimData good = MakeClaim(net, opt);
  ASSERT_EQ(CheckBfbCellCertificate(View(good, net, opt)), std::nullopt);
  {
    ClaimData c = good;  // U lowered to 1/2: a link's load exceeds it (and J gives 2/3)
    BfbCellClaim v = View(c, net, opt);
    v.value_num = 1;
    v.value_den = 2;
    EXPECT_EQ(CheckBfbCellCertificate(v), "in-link 0 exceeds U");
  }
  {
    ClaimData c = good;  // U raised to 1: feasible, but J = {v1, v2} proves only 2/3
    BfbCellClaim v = View(c, net, opt);
    v.value_num = 1;
    v.value_den = 1;
    EXPECT_EQ(CheckBfbCellCertificate(v), "witness J does not give U");
  }
  {
    ClaimData c = good;  // J = {v1}: N(J) = {w1, w2}, U_J = 1/2
    c.in_witness = {1, 0};
    BfbCellClaim v = View(c, net, opt);
    EXPECT_EQ(CheckBfbCellCertificate(v), "witness J does not give U");
  }
  {
    ClaimData c = good;  // claimed N(J) differs from the union of J's allowed links
    BfbCellClaim v = View(c, net, opt);
    v.witness_links = 0b011;
    EXPECT_EQ(CheckBfbCellCertificate(v), "witness N(J) differs from the claimed in-links");
  }
  {
    ClaimData c = good;  // v1's share moved from w1 to w3, which it may not use
    c.share_link[0] = 2;
    EXPECT_EQ(CheckBfbCellCertificate(View(c, net, opt)),
              "source 0 has a share on a non-allowed in-link");
  }
  {
    ClaimData c = good;  // v1 no longer delivered whole
    c.share_num[0] -= 1;
    EXPECT_EQ(CheckBfbCellCertificate(View(c, net, opt)), "shares of source 0 do not sum to 1");
  }
  {
    ClaimData c = good;  // no witness at all
    c.in_witness = {0, 0};
    BfbCellClaim v = View(c, net, opt);
    EXPECT_EQ(CheckBfbCellCertificate(v), "no optimality witness");
  }
  {
    ClaimData c = good;  // an α witness on a link with α = 0 != U
    EXPECT_EQ(CheckBfbCellCertificate(View(c, net, opt, 1)), "alpha witness does not give U");
  }
}

// A max flow that never reaches the sink and puts every node on the source side: the cut
// J = all groups cannot raise U, an impossible state, which is std::logic_error.
class BrokenFlow final : public BfbCellMaxFlow<std::int64_t> {
 public:
  void Reset(int) override {}
  int AddArc(int, int, const std::int64_t&) override { return 0; }
  std::int64_t Run(int, int, const std::int64_t&) override { return 0; }
  bool SourceSide(int) const override { return true; }
  std::int64_t Flow(int) const override { return 0; }
};

TEST(BfbCellTest, ImpossibleStateIsLogicError) {
  BfbCellSolver<std::int64_t> solver(std::make_unique<BrokenFlow>());
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { solver.Solve(Figure5U2()); }));
  BfbCellSolver<std::int64_t> fine;
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { fine.Solve(BfbCellNetwork<std::int64_t>()); }));
}

TEST(BfbCellTest, FitsInt64) {
  BfbCellNetwork<BigInt> net = ToBig(Figure5U2());
  EXPECT_TRUE(BfbCellFitsInt64(net));
  net.bandwidth[0] = BigInt(1) << 61;
  EXPECT_FALSE(BfbCellFitsInt64(net));
  BfbCellSolver<BigInt> solver;  // the BigInt engine still solves it: J = {v2} gives U = 1/2
  BfbCellOptimum<BigInt> opt = solver.Solve(net);
  EXPECT_EQ(Rational(opt.value.num) / Rational(opt.value.den), Rational(1, 2));
  EXPECT_EQ(opt.witness, (std::vector<char>{0, 1}));
}

}  // namespace
}  // namespace collsynth
