// The topology expression language (graphs/expression.h): the issue's examples evaluate to
// the right sizes; every kind of bad expression is an InputError naming the sub-expression.
#include "graphs/expression.h"

#include <gtest/gtest.h>

#include "core/input_error.h"
#include "graphs/family.h"
#include "graphs/generators/family_args.h"
#include "graphs/properties.h"

namespace collsynth {
namespace {

TEST(ExpressionTest, IssueExamplesEvaluateWithTheRightSizes) {
  struct Case {
    const char* expr;
    int nodes;
    std::int64_t degree;
  };
  const Case cases[] = {
      {"kautz(2,3)", 24, 2},
      {"genkautz(4,1024)", 1024, 4},
      {"circulant(16,3,4)", 16, 4},
      {"torus(3,3,2)", 18, 6},
      {"hypercube(6)", 64, 6},
      {"hamming(2,3)", 9, 4},
      {"complete(5)", 5, 4},
      {"bipartite(4)", 8, 4},
      {"uniring(1,4)", 4, 1},
      {"biring(2,5)", 5, 2},
      {"line(line(circulant(16,3,4)))", 256, 4},
      {"degree(complete(3),2)", 6, 4},
      {"product(uniring(1,4),uniring(1,8))", 32, 2},
      {"power(hamming(2,3),2)", 81, 8},
      {"line(circulant(16,3,4),3)", 1024, 4},
      {"bidir(kautz(2,2))", 12, 4},
      {"transpose(debruijn(2,3))", 8, 2},
      {"drg(odd4)", 35, 4},
      {"dcirculant(6,1,2,3,4)", 6, 4},
  };
  for (const Case& c : cases) {
    Topology g = EvaluateTopologyExpression(c.expr);
    EXPECT_EQ(g.num_nodes(), c.nodes) << c.expr;
    DegreeReport r = ComputeDegrees(g);
    EXPECT_TRUE(r.regular) << c.expr;
    EXPECT_EQ(r.degree, c.degree) << c.expr;
    EXPECT_EQ(g.name(), c.expr);  // already canonical
  }
}

TEST(ExpressionTest, CanonicalNameIgnoresSpacingAndCase) {
  Topology g = EvaluateTopologyExpression("  Line ( CIRCULANT( 16 , 3,4 ) )  ");
  EXPECT_EQ(g.name(), "line(circulant(16,3,4))");
  EXPECT_EQ(g.num_nodes(), 64);
  EXPECT_EQ(CanonicalTopologyExpression("power( hamming(2, 3) ,2)"), "power(hamming(2,3),2)");
}

// The error for `expr` names `item` (as written) and mentions `words` in its problem.
void ExpectError(const std::string& expr, const std::string& item, const std::string& words) {
  try {
    EvaluateTopologyExpression(expr);
    ADD_FAILURE() << expr << " was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "<expr>") << expr;
    EXPECT_NE(e.item().find(item), std::string::npos) << expr << " -> item " << e.item();
    EXPECT_NE(e.problem().find(words), std::string::npos) << expr << " -> " << e.problem();
  }
}

TEST(ExpressionTest, BadExpressionsNameTheOffendingSubExpression) {
  ExpectError("kautzz(2,3)", "kautzz(2,3)", "did you mean kautz");
  ExpectError("line(circulnt(16,3,4))", "circulnt(16,3,4)", "did you mean circulant");
  ExpectError("nosuchthing(1)", "nosuchthing(1)", "--list");
  ExpectError("kautz(2)", "kautz(2)", "wrong number of arguments");
  ExpectError("line(kautz(2,3,4))", "kautz(2,3,4)", "kautz(d,n) takes 2");
  ExpectError("kautz(2.5,3)", "kautz(2.5,3)", "must be an integer");
  ExpectError("kautz(5/2,3)", "kautz(5/2,3)", "must be an integer");
  ExpectError("genkautz(4,3)", "genkautz(4,3)", "out of range");
  ExpectError("circulant(16,2,4)", "circulant(16,2,4)", "disconnected");
  ExpectError("line(5)", "line(5)", "must be a topology");
  ExpectError("power(complete(3),x)", "power(complete(3),x)", "must be an integer");
  ExpectError("drg(cube)", "drg(cube)", "unknown distance-regular graph");
  ExpectError("degree(debruijn(2,2),2)", "degree(debruijn(2,2),2)", "self-loops");
}

TEST(ExpressionTest, SyntaxErrorsGiveTheColumn) {
  ExpectError("kautz(2,3", "column", "missing ')'");
  ExpectError("kautz(2;3)", "column 8", "expected ',' or ')'");
  ExpectError("", "", "empty expression");
  ExpectError("kautz", "kautz", "expected a topology expression");
  ExpectError("kautz(2,3) extra", "column", "after the expression");
  ExpectError("kautz(2,1/0)", "column", "bad number");
  ExpectError("#", "column 1", "unexpected '#'");
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "line(";
  deep += "complete(3)";
  for (int i = 0; i < 200; ++i) deep += ")";
  ExpectError(deep, "column", "nested deeper");
  ExpectError(std::string(kMaxExpressionLength + 1, 'a'), "expression", "longer than");
}

// Refused before anything is built (building any of them would exhaust memory or hit ctest's
// timeout; the test does not time itself).
TEST(ExpressionTest, AbsurdSizesAreRefusedBeforeBuilding) {
  ExpectError("hypercube(40)", "hypercube(40)", "the limit is");
  ExpectError("power(complete(100),10)", "power(complete(100),10)", "the limit is");
  ExpectError("line(complete(30),5)", "line(complete(30),5)", "the limit is");
  ExpectError("degree(complete(100),3000)", "degree(complete(100),3000)", "the limit is");
  ExpectError("product(torus(100,100),torus(100,100))", "product(", "the limit is");
  ExpectError("kautz(2,1000000000000)", "kautz(2,1000000000000)", "out of range");
}

// The exact InputError of `expr`: item and problem compared whole.
void ExpectExactError(const std::string& expr, const std::string& item,
                      const std::string& problem) {
  try {
    EvaluateTopologyExpression(expr);
    ADD_FAILURE() << expr << " was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "<expr>") << expr;
    EXPECT_EQ(e.item(), item) << expr;
    EXPECT_EQ(e.problem(), problem) << expr;
  }
}

const char kLimit[] = "; the limit is 1048576 nodes and 8388608 links";

// The size comes from the expression before anything is built. The first factor
// below is invalid (gcd 2: disconnected), which only its generator finds; the product is
// refused by its size first, naming the product and its real size.
TEST(ExpressionTest, Issue14SizeIsRefusedBeforeAnyOperandIsBuilt) {
  ExpectExactError("product(circulant(16,2,4),complete(2000),complete(2000))",
                   "product(circulant(16,2,4),complete(2000),complete(2000))",
                   "product(circulant(16,2,4),complete(2000),complete(2000)) would have 64000000 "
                   "nodes and 256128000000 links" +
                       std::string(kLimit));
  // The issue's examples (96 s / 2.8 GB and > 120 s before). K_3000 alone (8997000 links)
  // is now above the link limit itself, so it is the innermost sub-expression named.
  ExpectExactError("product(complete(2000),complete(2000))",
                   "product(complete(2000),complete(2000))",
                   "product(complete(2000),complete(2000)) would have 4000000 nodes and "
                   "15992000000 links" +
                       std::string(kLimit));
  ExpectExactError("product(complete(3000),complete(3000))", "complete(3000)",
                   "complete(3000) would have 3000 nodes and 8997000 links" + std::string(kLimit));
  ExpectExactError(
      "circulant(10000000,1)", "circulant(10000000,1)",
      "circulant(10000000,1) would have 10000000 nodes and 20000000 links" + std::string(kLimit));
  // The innermost sub-expression above the limits is named, as written.
  ExpectExactError("line(degree(complete(100), 2000))", "degree(complete(100), 2000)",
                   "degree(complete(100), 2000) would have 200000 nodes and 39600000000 links" +
                       std::string(kLimit));
}

// Once "power(complete(100),10) ... 100000000 nodes and 0 links" (the link count
// overflowed). Sizes are exact BigInts: 100^10 nodes, 10 · 100^9 · 9900 links.
TEST(ExpressionTest, Issue14PowerAndLineSizesAreExact) {
  ExpectExactError("power(complete(100),10)", "power(complete(100),10)",
                   "power(complete(100),10) would have 100000000000000000000 nodes and "
                   "99000000000000000000000 links" +
                       std::string(kLimit));
  // L^5(K_30): 870 · 29^4 nodes, 29 times as many links.
  ExpectExactError("line(complete(30),5)", "line(complete(30),5)",
                   "line(complete(30),5) would have 615334470 nodes and 17844699630 links" +
                       std::string(kLimit));
  ExpectExactError("power(hypercube(64),64)", "hypercube(64)",
                   "hypercube(64) would have 18446744073709551616 nodes and "
                   "1180591620717411303424 links" +
                       std::string(kLimit));
}

// The estimate against the built topology: nodes and unit links exact, links exact when
// the estimate says so (an upper bound otherwise), degree bounds hold.
TEST(ExpressionTest, Issue14EstimateMatchesTheBuiltTopology) {
  const char* exprs[] = {
      "complete(5)",
      "bipartite(3)",
      "hamming(2,3)",
      "hypercube(4)",
      "twistedhypercube(4)",
      "kautz(2,3)",
      "kautz(3,0)",
      "genkautz(3,10)",
      "genkautz(4,6)",
      "debruijn(2,4)",
      "circulant(16,3,4)",
      "circulant(8,1,4)",
      "circulant(10,3,7)",
      "dcirculant(9,1,2,2)",
      "uniring(3,5)",
      "biring(4,6)",
      "torus(2,3,4)",
      "twistedtorus(4,3,1)",
      "twistedtorus(2,5,1)",
      "twistedtorus(5,2,3)",
      "genkautz(2,7)",
      "line(circulant(16,3,4))",
      "line(genkautz(3,10),2)",
      "degree(complete(3),2)",
      "product(uniring(1,4),uniring(2,8))",
      "power(hamming(2,3),2)",
      "bidir(uniring(1,5))",
      "transpose(genkautz(2,7))",
      "line(bidir(dcirculant(7,1)))",
      "product(circulant(8,1,4),torus(2,2))",
      "line(uniring(3,4),2)",
  };
  for (const char* e : exprs) {
    std::optional<TopologySize> est = EstimateTopologyExpressionSize(e);
    ASSERT_TRUE(est.has_value()) << e;
    TopologySize got = MeasureTopology(EvaluateTopologyExpression(e));
    EXPECT_EQ(est->nodes, got.nodes) << e;
    EXPECT_EQ(est->unit_links, got.unit_links) << e;
    if (est->links_exact) {
      EXPECT_EQ(est->links, got.links) << e;
    } else {
      EXPECT_GE(est->links, got.links) << e;
    }
    EXPECT_GE(est->max_out, got.max_out) << e;
    EXPECT_GE(est->max_in, got.max_in) << e;
    if (est->degree >= 0) {
      EXPECT_EQ(est->degree, got.degree) << e;
    }
  }
  // Families without a size function are measured once built.
  EXPECT_FALSE(EstimateTopologyExpressionSize("product(drg(odd4),complete(3))").has_value());
}

// Only exact counts refuse: an upper bound on the links leaves the decision to the
// generator's exact count (nodes are always exact).
TEST(ExpressionTest, Issue14OnlyExactLinkCountsRefuse) {
  TopologySize bound = RegularSize(1000, 4, BigInt(kMaxGeneratedLinks) + 1, false);
  EXPECT_NO_THROW(CheckTopologySize(bound, "x"));
  bound.links_exact = true;
  EXPECT_THROW(CheckTopologySize(bound, "x"), std::invalid_argument);
  TopologySize nodes = RegularSize(BigInt(kMaxGeneratedNodes) + 1, 1, 1, false);
  try {
    CheckTopologySize(nodes, "x");
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "x would have 1048577 nodes and up to 1 links; the limit is 1048576 nodes and "
              "8388608 links");
  }
}

TEST(ExpressionTest, EveryFamilyIsDocumentedAndUnique) {
  const auto& all = AllFamilies();
  ASSERT_FALSE(all.empty());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_FALSE(all[i].signature.empty()) << all[i].name;
    EXPECT_FALSE(all[i].reference.empty()) << all[i].name;
    EXPECT_FALSE(all[i].description.empty()) << all[i].name;
    EXPECT_EQ(all[i].signature.rfind(all[i].name + "(", 0), 0u) << all[i].name;
    if (i > 0) {
      EXPECT_LT(all[i - 1].name, all[i].name);
    }
  }
  for (const char* name :
       {"kautz",     "genkautz", "circulant",  "torus",        "hypercube",
        "hamming",   "complete", "bipartite",  "uniring",      "biring",
        "line",      "degree",   "product",    "power",        "bidir",
        "transpose", "debruijn", "dcirculant", "twistedtorus", "twistedhypercube",
        "drg"}) {
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const Family& f) {
      return f.name == name;
    })) << name;
  }
}

}  // namespace
}  // namespace collsynth
