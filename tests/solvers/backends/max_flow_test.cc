// Max-flow / min-cut (solvers/backends/max_flow.h): differential test against brute force over all
// s-t cuts on seeded random networks, on both number paths (int64 and BigInt).
#include "solvers/backends/max_flow.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>

#include "test_util.h"

namespace collsynth {
namespace {

BigInt BruteForceMinCut(const FlowNetwork& net, int s, int t, bool* finite) {
  int n = net.num_nodes();
  BigInt best = -1;
  *finite = false;
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    if (!((mask >> s) & 1) || ((mask >> t) & 1)) continue;
    std::vector<char> side(n);
    for (int v = 0; v < n; ++v) side[v] = (mask >> v) & 1;
    bool inf = false;
    BigInt c = CutCapacity(net, side, &inf);
    if (inf) continue;
    if (!*finite || c < best) best = c;
    *finite = true;
  }
  return best;
}

void RunRandom(const BigInt& scale, int rounds) {
  std::mt19937_64 rng(testing::TestSeed());
  for (int round = 0; round < rounds; ++round) {
    int n = 2 + static_cast<int>(rng() % 7);
    FlowNetwork net(n);
    int arcs = static_cast<int>(rng() % (3 * n));
    for (int i = 0; i < arcs; ++i) {
      int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (a == b) continue;
      if (rng() % 8 == 0)
        net.AddInfiniteArc(a, b);
      else
        net.AddArc(a, b, BigInt(static_cast<long>(rng() % 20)) * scale);
    }
    int s = 0, t = n - 1;
    MaxFlowResult r = ComputeMaxFlow(net, s, t);
    bool finite = false;
    BigInt brute = BruteForceMinCut(net, s, t, &finite);
    ASSERT_EQ(r.unbounded(), !finite) << "seed " << testing::TestSeed() << " round " << round;
    if (!finite) continue;
    EXPECT_EQ(r.value, brute) << "seed " << testing::TestSeed() << " round " << round;
    ASSERT_EQ(r.source_side.size(), static_cast<std::size_t>(n));
    EXPECT_TRUE(r.source_side[s]);
    EXPECT_FALSE(r.source_side[t]);
    bool inf = false;
    EXPECT_EQ(CutCapacity(net, r.source_side, &inf), r.value);  // the certificate
    EXPECT_FALSE(inf);
  }
}

TEST(MaxFlowTest, MatchesBruteForceMinCutInt64) { RunRandom(1, 300); }

// MinCutFromRoot (LEMON Hao-Orlin, first phase) = min over v != root of the brute-force
// min root-v cut, with a certificate cut of that capacity containing the root; std::nullopt
// on an infinite arc or capacities summing to 2^62 or more.
TEST(MaxFlowTest, RootedMinCutMatchesBruteForce) {
  std::mt19937_64 rng(testing::TestSeed() + 5);
  for (int round = 0; round < 200; ++round) {
    int n = 2 + static_cast<int>(rng() % 7);
    FlowNetwork net(n);
    for (int i = 0, arcs = static_cast<int>(rng() % (3 * n)); i < arcs; ++i) {
      int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (a != b) net.AddArc(a, b, BigInt(static_cast<long>(rng() % 20)));
    }
    int root = static_cast<int>(rng() % n);
    std::optional<RootedMinCut> cut = MinCutFromRoot(net, root);
    ASSERT_TRUE(cut.has_value());
    BigInt best = -1;
    for (int v = 0; v < n; ++v) {
      if (v == root) continue;
      bool finite = false;
      BigInt c = BruteForceMinCut(net, root, v, &finite);
      if (best < 0 || c < best) best = c;
    }
    EXPECT_EQ(cut->value, best) << "seed " << testing::TestSeed() << " round " << round;
    ASSERT_EQ(cut->source_side.size(), static_cast<std::size_t>(n));
    EXPECT_TRUE(cut->source_side[root]);
    bool inf = false, all = true;
    for (char c : cut->source_side) all &= c != 0;
    EXPECT_FALSE(all);  // a proper cut
    EXPECT_EQ(CutCapacity(net, cut->source_side, &inf), cut->value);
  }
  FlowNetwork inf_net(2);
  inf_net.AddInfiniteArc(0, 1);
  EXPECT_FALSE(MinCutFromRoot(inf_net, 0).has_value());
  FlowNetwork big(2);
  big.AddArc(0, 1, BigInt(1) << 62);
  EXPECT_FALSE(MinCutFromRoot(big, 0).has_value());
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { MinCutFromRoot(big, 2); }));
}

// Capacities around 10^30 force the BigInt (GMP) path.
TEST(MaxFlowTest, MatchesBruteForceMinCutBigInt) {
  RunRandom(BigInt("1000000000000000000000000000000"), 150);
}

TEST(MaxFlowTest, SolverReusesNetworkWithChangedCapacities) {
  // s=0 -> 1 -> 3 and 0 -> 2 -> 3.
  FlowNetwork net(4);
  int a01 = net.AddArc(0, 1, 5);
  net.AddArc(1, 3, 4);
  net.AddArc(0, 2, 2);
  int a23 = net.AddArc(2, 3, 7);
  MaxFlowSolver solver(net);
  EXPECT_EQ(solver.Solve(0, 3).value, 6);
  solver.SetCapacity(a01, 1);
  EXPECT_EQ(solver.Solve(0, 3).value, 3);
  solver.SetCapacity(a23, BigInt("100000000000000000000000"));  // switches to BigInt
  EXPECT_EQ(solver.Solve(0, 3).value, 3);
  solver.SetInfinite(a23);
  EXPECT_EQ(solver.Solve(0, 3).value, 3);
  EXPECT_EQ(solver.Solve(1, 3).value, 4);
  EXPECT_EQ(solver.calls(), 5);
}

// Warm starts (SolveFromLast, SaveFlow/SolveFromSaved) must give exactly the cold answer
// and a valid min cut after arbitrary capacity changes (raised, lowered, made infinite),
// sink changes and source changes (which fall back to a cold start). Cold reference: a
// fresh solver on a copy of the current network.
void RunWarmStarts(const BigInt& scale, int rounds) {
  std::mt19937_64 rng(testing::TestSeed());
  std::int64_t warm_total = 0;
  for (int round = 0; round < rounds; ++round) {
    SCOPED_TRACE("seed " + std::to_string(testing::TestSeed()) + " round " + std::to_string(round));
    int n = 3 + static_cast<int>(rng() % 8);
    FlowNetwork net(n);
    int arcs = 2 * n + static_cast<int>(rng() % (3 * n));
    for (int i = 0; i < arcs; ++i) {
      int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (a == b) continue;
      net.AddArc(a, b, BigInt(static_cast<long>(rng() % 20)) * scale);
    }
    if (net.num_arcs() == 0) continue;
    MaxFlowSolver solver(net);
    FlowNetwork mirror = net;
    int source = 0;
    solver.Solve(source, n - 1, false);
    for (int step = 0; step < 12; ++step) {
      int arc = static_cast<int>(rng() % net.num_arcs());
      switch (rng() % 4) {
        case 0: {
          BigInt c = BigInt(static_cast<long>(rng() % 25)) * scale;
          solver.SetCapacity(arc, c);
          mirror.SetCapacity(arc, c);
          break;
        }
        case 1:
          solver.SetInfinite(arc);
          mirror.SetInfinite(arc);
          break;
        case 2:
          solver.SaveFlow();
          break;
        default:
          if (rng() % 3 == 0) source = static_cast<int>(rng() % n);
      }
      int sink = static_cast<int>(rng() % n);
      if (sink == source) continue;
      MaxFlowResult cold = ComputeMaxFlow(mirror, source, sink);
      bool from_saved = rng() % 2 == 0;
      MaxFlowResult warm = from_saved ? solver.SolveFromSaved(source, sink, true)
                                      : solver.SolveFromLast(source, sink, true);
      ASSERT_EQ(warm.unbounded(), cold.unbounded());
      if (cold.unbounded()) continue;
      EXPECT_EQ(warm.value, cold.value);
      bool inf = false;
      EXPECT_EQ(CutCapacity(mirror, warm.source_side, &inf), warm.value);
      EXPECT_FALSE(inf);
      EXPECT_TRUE(warm.source_side[source]);
      EXPECT_FALSE(warm.source_side[sink]);
    }
    warm_total += solver.warm_starts();
  }
  EXPECT_GT(warm_total, 0);  // the warm path was really exercised
}

TEST(MaxFlowTest, WarmStartsMatchColdSolvesInt64) { RunWarmStarts(1, 300); }

TEST(MaxFlowTest, WarmStartsMatchColdSolvesBigInt) {
  RunWarmStarts(BigInt("1000000000000000000000000000000"), 100);
}

// The result is a full certificate (status, value, flow per arc, cut). The
// flow is checked here by hand (capacity, conservation, value) and the cut's capacity equals
// the value; VerifyMaxFlowCertificate agrees and rejects a broken flow or cut.
void ExpectFullCertificate(const FlowNetwork& net, int s, int t, const BigInt& expected) {
  MaxFlowResult r = ComputeMaxFlow(net, s, t);
  ASSERT_EQ(r.status, MaxFlowStatus::kOptimal);
  EXPECT_EQ(r.value, expected);
  ASSERT_EQ(r.flow.size(), static_cast<std::size_t>(net.num_arcs()));
  std::vector<BigInt> balance(net.num_nodes(), BigInt(0));
  for (int a = 0; a < net.num_arcs(); ++a) {
    EXPECT_GE(r.flow[a], 0) << "arc " << a;
    if (!net.infinite(a)) {
      EXPECT_LE(r.flow[a], net.capacity(a)) << "arc " << a;
    }
    balance[net.tail(a)] += r.flow[a];
    balance[net.head(a)] -= r.flow[a];
  }
  for (int v = 0; v < net.num_nodes(); ++v) {
    if (v != s && v != t) {
      EXPECT_EQ(balance[v], 0) << "node " << v;
    }
  }
  EXPECT_EQ(balance[s], expected);
  EXPECT_EQ(balance[t], -expected);
  bool inf = true;
  EXPECT_EQ(CutCapacity(net, r.source_side, &inf), expected);
  EXPECT_FALSE(inf);
  EXPECT_EQ(VerifyMaxFlowCertificate(net, s, t, r), std::nullopt);
  if (net.num_arcs() > 0 && expected > 0) {
    MaxFlowResult more = r;  // one arc out of the source carries one unit more
    for (int a = 0; a < net.num_arcs(); ++a) {
      if (net.tail(a) == s && net.head(a) != s) {
        more.flow[a] += 1;
        break;
      }
    }
    EXPECT_NE(VerifyMaxFlowCertificate(net, s, t, more), std::nullopt);
    MaxFlowResult cut = r;  // the sink on the source side
    cut.source_side[t] = 1;
    EXPECT_NE(VerifyMaxFlowCertificate(net, s, t, cut), std::nullopt);
  }
}

TEST(MaxFlowTest, ResultCarriesFlowAndCutInt64) {
  FlowNetwork net(4);  // two paths and a cross arc: value 5
  net.AddArc(0, 1, 3);
  net.AddArc(0, 2, 2);
  net.AddArc(1, 2, 4);
  net.AddArc(1, 3, 1);
  net.AddArc(2, 3, 4);
  ExpectFullCertificate(net, 0, 3, 5);
}

TEST(MaxFlowTest, ResultCarriesFlowAndCutWithInfiniteArcs) {
  FlowNetwork net(5);  // infinite middle arcs; the finite arcs into the sink bound it: 7
  net.AddArc(0, 1, 6);
  net.AddArc(0, 2, 6);
  net.AddInfiniteArc(1, 3);
  net.AddInfiniteArc(2, 3);
  net.AddInfiniteArc(1, 2);
  net.AddArc(3, 4, 7);
  net.AddArc(2, 4, 0);
  ExpectFullCertificate(net, 0, 4, 7);
}

TEST(MaxFlowTest, ResultCarriesFlowAndCutBigInt) {
  const BigInt big("1000000000000000000000000000000");  // beyond int64: the GMP path
  FlowNetwork net(4);
  net.AddArc(0, 1, big * 3);
  net.AddArc(0, 2, big);
  net.AddArc(1, 2, big);
  net.AddArc(1, 3, big);
  net.AddInfiniteArc(2, 3);
  ExpectFullCertificate(net, 0, 3, big * 3);
}

TEST(MaxFlowTest, ResultCarriesFlowAndCutOnRandomNetworks) {
  std::mt19937_64 rng(testing::TestSeed() + 11);
  for (int round = 0; round < 100; ++round) {
    const int n = 2 + static_cast<int>(rng() % 7);
    FlowNetwork net(n);
    for (int i = 0, arcs = static_cast<int>(rng() % (3 * n)); i < arcs; ++i) {
      const int a = static_cast<int>(rng() % n), b = static_cast<int>(rng() % n);
      if (rng() % 8 == 0)
        net.AddInfiniteArc(a, b);
      else
        net.AddArc(a, b, BigInt(static_cast<long>(rng() % 20)));
    }
    MaxFlowResult r = ComputeMaxFlow(net, 0, n - 1);
    if (r.unbounded()) {
      EXPECT_EQ(r.status, MaxFlowStatus::kUnbounded);
      EXPECT_TRUE(r.flow.empty());
      continue;
    }
    EXPECT_EQ(VerifyMaxFlowCertificate(net, 0, n - 1, r), std::nullopt)
        << "seed " << testing::TestSeed() << " round " << round;
  }
}

// The hot paths ask for neither flow nor cut and get neither (no second phase).
TEST(MaxFlowTest, FlowOnlyWhenRequested) {
  FlowNetwork net(2);
  net.AddArc(0, 1, 4);
  MaxFlowSolver solver(net);
  MaxFlowResult r = solver.Solve(0, 1, /*want_cut=*/false);
  EXPECT_EQ(r.value, 4);
  EXPECT_TRUE(r.flow.empty());
  EXPECT_TRUE(r.source_side.empty());
  r = solver.SolveFromLast(0, 1, /*want_cut=*/true, /*want_flow=*/true);
  EXPECT_EQ(r.flow, (std::vector<BigInt>{4}));
}

TEST(MaxFlowTest, InfinitePathIsUnbounded) {
  FlowNetwork net(3);
  net.AddInfiniteArc(0, 1);
  net.AddInfiniteArc(1, 2);
  net.AddArc(0, 2, 3);
  EXPECT_TRUE(ComputeMaxFlow(net, 0, 2).unbounded());
  EXPECT_EQ(ComputeMaxFlow(net, 0, 2).status, MaxFlowStatus::kUnbounded);
}

TEST(MaxFlowTest, RejectsBadArguments) {
  FlowNetwork net(2);
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { net.AddArc(0, 1, -1); }));
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { net.AddArc(0, 2, 1); }));
  EXPECT_TRUE(testing::ThrowsInvariantError([&] { ComputeMaxFlow(net, 0, 0); }));
}

}  // namespace
}  // namespace collsynth
