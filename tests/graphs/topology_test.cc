#include "graphs/topology.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "core/input_error.h"
#include "graphs/properties.h"
#include "test_util.h"

namespace collsynth {
namespace {

Topology Ring(int n, bool bidirectional, const Rational& bw = 1) {
  Topology g("ring");
  for (int i = 0; i < n; ++i) g.AddCompute("n" + std::to_string(i));
  for (int i = 0; i < n; ++i) {
    g.AddLink(i, (i + 1) % n, bw);
    if (bidirectional) g.AddLink((i + 1) % n, i, bw);
  }
  return g;
}

TEST(TopologyTest, ParallelLinksMergeBySumming) {
  Topology g;
  int a = g.AddCompute("a"), b = g.AddCompute("b");
  int e1 = g.AddLink(a, b, Rational(5, 2));
  int e2 = g.AddLink(a, b, 1);
  EXPECT_EQ(e1, e2);
  EXPECT_EQ(g.num_links(), 1);
  EXPECT_EQ(g.link(e1).bandwidth, Rational(7, 2));
  EXPECT_EQ(g.link(e1).multiplicity, 2);
  EXPECT_EQ(g.OutDegree(a), 2);
  EXPECT_EQ(g.InDegree(b), 2);
}

// A broken precondition of the Topology API is a program fault (exit 3), not bad input:
// readers check names and bandwidths before they add (and report InputError).
using testing::ThrowsInvariantError;

TEST(TopologyTest, RejectsDuplicateNamesAndNonPositiveBandwidth) {
  Topology g;
  int a = g.AddCompute("a");
  EXPECT_TRUE(ThrowsInvariantError([&] { g.AddSwitch("a"); }));
  EXPECT_TRUE(ThrowsInvariantError([&] { g.AddCompute(""); }));
  int b = g.AddCompute("b");
  EXPECT_TRUE(ThrowsInvariantError([&] { g.AddLink(a, b, 0); }));
  EXPECT_TRUE(ThrowsInvariantError([&] { g.AddLink(a, b, -1); }));
  EXPECT_TRUE(ThrowsInvariantError([&] { g.AddLink(a, 7, 1); }));
  EXPECT_TRUE(ThrowsInvariantError([&] { g.AddLink(a, b, 1, 0); }));
  EXPECT_EQ(g.num_links(), 0);
}

TEST(TopologyTest, CountsComputeAndSwitchNodes) {
  Topology g;
  g.AddCompute("c1");
  g.AddSwitch("s1");
  g.AddCompute("c2");
  EXPECT_EQ(g.num_compute(), 2);
  EXPECT_EQ(g.num_switches(), 1);
  EXPECT_EQ(g.ComputeNodes(), (std::vector<int>{0, 2}));
  EXPECT_EQ(*g.FindNode("s1"), 1);
  EXPECT_FALSE(g.FindNode("zz").has_value());
}

TEST(TopologyTest, TransposeReversesEveryLinkAndIsAnInvolution) {
  Topology g = Ring(5, false, Rational(3, 2));
  Topology t = g.Transpose();
  ASSERT_EQ(t.num_links(), g.num_links());
  for (const Link& l : g.links()) {
    auto e = t.FindLink(l.to, l.from);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(t.link(*e).bandwidth, l.bandwidth);
    EXPECT_FALSE(t.FindLink(l.from, l.to).has_value());
  }
  Topology tt = t.Transpose();
  for (const Link& l : g.links()) EXPECT_TRUE(tt.FindLink(l.from, l.to).has_value());
}

TEST(PropertiesTest, EulerianDetectsTheUnbalancedNodeWithItsTotals) {
  Topology g = Ring(4, true);
  EXPECT_TRUE(CheckEulerian(g).eulerian);
  g.AddLink(0, 2, Rational(1, 2));  // node 0 out +1/2, node 2 in +1/2
  auto r = CheckEulerian(g);
  EXPECT_FALSE(r.eulerian);
  EXPECT_EQ(r.node, 0);
  EXPECT_EQ(r.out_bandwidth, Rational(5, 2));
  EXPECT_EQ(r.in_bandwidth, 2);
  try {
    RequireEulerianStronglyConnected(g, "f.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "f.json");
    EXPECT_EQ(e.item(), "node n0");
    EXPECT_NE(e.problem().find("2 != out-bandwidth 5/2"), std::string::npos) << e.what();
  }
}

TEST(PropertiesTest, StrongConnectivityOverComputeNodesThroughSwitches) {
  Topology g;
  int a = g.AddCompute("a"), b = g.AddCompute("b"), s = g.AddSwitch("s");
  g.AddDuplexLink(a, s, 1);
  g.AddDuplexLink(b, s, 1);
  EXPECT_TRUE(CheckStronglyConnected(g).strongly_connected);
  Topology h;
  a = h.AddCompute("a");
  b = h.AddCompute("b");
  h.AddLink(a, b, 1);  // one way only
  auto r = CheckStronglyConnected(h);
  EXPECT_FALSE(r.strongly_connected);
  EXPECT_EQ(r.from, b);
  EXPECT_EQ(r.to, a);
  EXPECT_THROW(RequireStronglyConnected(h, "x"), InputError);
  // A switch that only a compute node reaches does not matter for compute connectivity.
  Topology k = Ring(3, false);
  int dead = k.AddSwitch("dead");
  k.AddLink(0, dead, 1);
  EXPECT_TRUE(CheckStronglyConnected(k).strongly_connected);
}

TEST(PropertiesTest, DegreesCountMultiLinksAndSelfLoops) {
  Topology g;
  int a = g.AddCompute("a"), b = g.AddCompute("b");
  g.AddLink(a, b, 1);
  g.AddLink(a, b, 1);  // double link
  g.AddLink(b, a, 2, 2);
  g.AddLink(a, a, 1);
  g.AddLink(b, b, 1);
  auto d = ComputeDegrees(g);
  EXPECT_TRUE(d.regular);
  EXPECT_EQ(d.degree, 3);
  EXPECT_EQ(d.self_loops, 2);
  EXPECT_EQ(d.multi_links, 2);
  ASSERT_TRUE(d.link_bandwidth.has_value());
  EXPECT_EQ(*d.link_bandwidth, 1);
  g.AddLink(a, b, 5);  // unequal unit bandwidth breaks regularity
  EXPECT_FALSE(ComputeDegrees(g).regular);
}

TEST(TopologyTest, NamesMustBeValidUtf8WithoutControlCharacters) {
  EXPECT_EQ(NameProblem("gpu0"), "");
  EXPECT_EQ(NameProblem("a b #\"\\"), "");
  EXPECT_EQ(NameProblem("\xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xc2\xa0"), "");
  EXPECT_EQ(NameProblem("a\nb"), "contains a control character (byte 0x0a at offset 1)");
  EXPECT_EQ(NameProblem(std::string("a\0", 2)),
            "contains a control character (byte 0x00 at offset 1)");
  EXPECT_EQ(NameProblem("\x7f"), "contains a control character (byte 0x7f at offset 0)");
  EXPECT_EQ(NameProblem("\xc2\x9b"),
            "contains a control character (byte 0xc2 at offset 0)");  // C1 CSI
  EXPECT_EQ(NameProblem("ok\xff"), "is not valid UTF-8 (byte 0xff at offset 2)");
  EXPECT_EQ(NameProblem("\x80"), "is not valid UTF-8 (byte 0x80 at offset 0)");
  EXPECT_EQ(NameProblem("\xc1\xbf"), "is not valid UTF-8 (byte 0xc1 at offset 0)");      // overlong
  EXPECT_EQ(NameProblem("\xe0\x80\xaf"), "is not valid UTF-8 (byte 0xe0 at offset 0)");  // overlong
  EXPECT_EQ(NameProblem("\xed\xbf\xbf"),
            "is not valid UTF-8 (byte 0xed at offset 0)");  // surrogate
  EXPECT_EQ(NameProblem("\xf4\x90\x80\x80"), "is not valid UTF-8 (byte 0xf4 at offset 0)");
  EXPECT_EQ(NameProblem("\xe6\x97"), "is not valid UTF-8 (truncated) (byte 0xe6 at offset 0)");
  EXPECT_EQ(NameProblem("\xe6\x97x"), "is not valid UTF-8 (byte 0xe6 at offset 0)");
  Topology g;
  EXPECT_THROW(g.AddCompute("x\ncollsynth: fake"), std::logic_error);
  EXPECT_THROW(g.AddCompute("\xff"), std::logic_error);
  EXPECT_THROW(g.set_name("t\x1b[2J"), std::invalid_argument);
  EXPECT_THROW(Topology("\xc0\x80"), std::invalid_argument);
  EXPECT_EQ(g.num_nodes(), 0);
  EXPECT_EQ(g.name(), "");
}

TEST(TopologyTest, MultiplicitiesThatWouldPassInt64AreRefusedAndChangeNothing) {
  Topology g;
  int a = g.AddCompute("a"), b = g.AddCompute("b"), c = g.AddCompute("c");
  const std::int64_t big = INT64_MAX - 1;
  g.AddLink(a, b, 1, big);
  EXPECT_THROW(g.AddLink(a, b, 1, 2), std::overflow_error);  // merging
  EXPECT_THROW(g.AddLink(b, c, 1, 2), std::overflow_error);  // a new link: the total overflows
  EXPECT_EQ(g.num_links(), 1);
  EXPECT_EQ(g.link(0).multiplicity, big);
  EXPECT_EQ(g.link(0).bandwidth, 1);
  EXPECT_EQ(g.num_unit_links(), big);
  g.AddLink(a, b, 1, 1);
  EXPECT_EQ(g.OutDegree(a), INT64_MAX);
  EXPECT_EQ(g.InDegree(b), INT64_MAX);
  EXPECT_EQ(g.num_unit_links(), INT64_MAX);
  EXPECT_THROW(g.AddLink(c, c, 1, 1), std::overflow_error);
}

}  // namespace
}  // namespace collsynth
