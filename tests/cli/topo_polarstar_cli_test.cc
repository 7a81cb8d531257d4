// collsynth topo polarstar --radix K (seed 003 §7.1 design space, Table 3).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "graphs/metrics.h"
#include "graphs/properties.h"
#include "graphs/topology_io.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::RunCli;

// Table 3: the radix-15 PolarStar is ER_11 * IQ_3 with 1,064 routers.
TEST(TopoPolarstarCli, Radix15ListsTableThreeDesign) {
  auto r = RunCli({"topo", "polarstar", "--radix", "15"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("largest: polarstar(11,3,iq) with 1064 routers"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("paley"), std::string::npos);  // q = 8, d' = 6: 949 routers
  EXPECT_NE(r.out.find("949"), std::string::npos);
}

// §7.1: at radix 23 the Paley supernode gives the larger network.
TEST(TopoPolarstarCli, Radix23JsonPicksPaley) {
  auto r = RunCli({"topo", "polarstar", "--radix", "23", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["radix"], 23);
  EXPECT_EQ(j["largest"]["supernode"], "paley");
  for (const auto& d : j["designs"]) EXPECT_EQ(d["q"].get<int>() + 1 + d["d_prime"].get<int>(), 23);
  auto r24 = RunCli({"topo", "polarstar", "--radix", "24", "--json"});
  ASSERT_EQ(r24.exit_code, 0) << r24.err;
  EXPECT_EQ(nlohmann::json::parse(r24.out)["largest"]["supernode"], "iq");
}

TEST(TopoPolarstarCli, WritesAndChecksTheLargest) {
  std::string path = testing::TempPath("ps8.json");
  auto r = RunCli({"topo", "polarstar", "--radix", "8", "--check", "-o", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("has diameter 3"), std::string::npos);
  Topology g = ReadTopologyFile(path);
  EXPECT_EQ(g.name(), "polarstar(4,3,iq)");
  EXPECT_EQ(g.num_nodes(), 21 * 8);
  DegreeReport deg = ComputeDegrees(g);
  EXPECT_TRUE(deg.regular);
  EXPECT_EQ(deg.degree, 8);
  EXPECT_EQ(ComputeDistanceStats(g).diameter, 3);
}

TEST(TopoPolarstarCli, BadRadixIsExitTwo) {
  for (const char* k : {"2", "0", "-5", "1000000"}) {
    auto r = RunCli({"topo", "polarstar", "--radix", k});
    EXPECT_EQ(r.exit_code, 2) << k << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("radix"), std::string::npos) << r.err;
  }
  // Radix 200 is listable but its largest design (~2.4·10^6 routers of degree 200) is over
  // the generator size limit: refused with one line, before building.
  auto listed = RunCli({"topo", "polarstar", "--radix", "200"});
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  auto r = RunCli({"topo", "polarstar", "--radix", "200", "-o", testing::TempPath("big.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("limit"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace collsynth
