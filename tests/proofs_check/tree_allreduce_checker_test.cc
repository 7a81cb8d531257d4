// The tree-allreduce checker (proofs_check/tree_allreduce_checker.h): two spanning trees of
// 4 ranks accepted, and each condition of the definition broken once (mutants it must reject).
#include "proofs_check/tree_allreduce_checker.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace collsynth {
namespace {

// 4 compute nodes on a bidirectional ring 0-1-2-3-0, plus the one-way link 0 -> 2 and a switch
// s (node 4) linked both ways to 0 and 1.
Topology Ring4() {
  Topology g("ring4");
  for (int i = 0; i < 4; ++i) g.AddCompute("c" + std::to_string(i));
  for (int i = 0; i < 4; ++i) g.AddDuplexLink(i, (i + 1) % 4, Rational(1));
  g.AddLink(0, 2, Rational(1));
  const int s = g.AddSwitch("s");
  g.AddDuplexLink(s, 0, Rational(1));
  g.AddDuplexLink(s, 1, Rational(1));
  return g;
}

// Two chains: 3 -> 2 -> 1 -> 0 rooted at 0, and 0 -> 1 -> 2 -> 3 rooted at 3, half each (the
// shape of a double binary tree on a path: every node an inner node of at most one tree).
std::vector<CheckedReductionTree> TwoChains() {
  return {{{-1, 0, 1, 2, -1}, 0, Rational(1, 2)}, {{1, 2, 3, -1, -1}, 3, Rational(1, 2)}};
}

std::string FirstError(const TreeAllreduceCheckReport& r) {
  return r.errors.empty() ? "" : r.errors.front();
}

TEST(TreeAllreduceChecker, AcceptsTwoSpanningTreesWithHalfTheVectorEach) {
  const TreeAllreduceCheckReport r = CheckTreeAllreduce(Ring4(), TwoChains());
  EXPECT_TRUE(r.ok) << FirstError(r);
}

TEST(TreeAllreduceChecker, RejectsACycleOfParents) {
  auto trees = TwoChains();
  trees[0].parent = {-1, 2, 1, 2, -1};  // 1 and 2 point at each other: 3's sum never reaches 0
  const TreeAllreduceCheckReport r = CheckTreeAllreduce(Ring4(), trees);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(FirstError(r).find("cycle"), std::string::npos) << FirstError(r);
}

TEST(TreeAllreduceChecker, RejectsAComputeNodeLeftOut) {
  auto trees = TwoChains();
  trees[1].parent[0] = -1;  // c0 contributes nothing to tree 1 and receives nothing from it
  const TreeAllreduceCheckReport r = CheckTreeAllreduce(Ring4(), trees);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(FirstError(r), "tree 1: compute node c0 is not in the tree");
}

TEST(TreeAllreduceChecker, RejectsAnEdgeWithoutTheReverseLink) {
  auto trees = TwoChains();
  trees[0].parent = {-1, 0, 0, 2, -1};  // 2 -> 0 is not a link (only 0 -> 2 is)
  const TreeAllreduceCheckReport r = CheckTreeAllreduce(Ring4(), trees);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(FirstError(r), "tree 0: tree edge c2 - c0 is not a link in both directions");
}

TEST(TreeAllreduceChecker, RejectsASwitchAsAMemberOrRoot) {
  auto trees = TwoChains();
  trees[0].parent = {-1, 4, 1, 2, 0};  // c1 reduces into the switch s
  EXPECT_FALSE(CheckTreeAllreduce(Ring4(), trees).ok);
  trees = TwoChains();
  trees[0].root = 4;
  EXPECT_FALSE(CheckTreeAllreduce(Ring4(), trees).ok);
}

TEST(TreeAllreduceChecker, RejectsSharesThatDoNotSumToOne) {
  auto trees = TwoChains();
  trees[1].share = Rational(1, 3);
  TreeAllreduceCheckReport r = CheckTreeAllreduce(Ring4(), trees);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(FirstError(r), "the shares sum to 5/6, not 1");
  trees[0].share = Rational(1);
  trees[1].share = Rational(0);  // sums to 1, but tree 1 carries nothing
  r = CheckTreeAllreduce(Ring4(), trees);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(FirstError(r), "tree 1: share 0 is not positive");
  EXPECT_FALSE(CheckTreeAllreduce(Ring4(), {}).ok);
}

TEST(TreeAllreduceChecker, RejectsARootWithAParentAndAShortParentArray) {
  auto trees = TwoChains();
  trees[0].parent[0] = 1;
  EXPECT_FALSE(CheckTreeAllreduce(Ring4(), trees).ok);
  trees = TwoChains();
  trees[1].parent.pop_back();
  EXPECT_FALSE(CheckTreeAllreduce(Ring4(), trees).ok);
}

}  // namespace
}  // namespace collsynth
