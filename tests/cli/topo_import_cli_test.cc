// CLI contract of `collsynth topo import` (docs/cli.md "topo import", docs/machine_import.md):
// the imported DGX-1 has the allgather optimum of the built-in dgx1() (7/6, seed 004), clusters
// built with --nodes have the closed-form optimum (K-1)·g/b of their network cut, overrides
// reach the file, and bad input exits 2 with one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_util.h"

namespace collsynth {
namespace {

using nlohmann::json;
using testing::RunCli;
using testing::SourcePath;
using testing::TempPath;

std::string Machine(const std::string& name) { return SourcePath("tests/data/machines/" + name); }

// Imports with `args` into `file`, then returns `collsynth optimum FILE --json`.
json ImportAndOptimum(std::vector<std::string> args, const std::string& file) {
  const std::string out = TempPath(file);
  args.insert(args.begin(), {"topo", "import"});
  args.insert(args.end(), {"-o", out});
  auto r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  auto o = RunCli({"optimum", out, "--json"});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  return json::parse(o.out);
}

TEST(TopoImportCliTest, ImportedDgx1HasTheOptimumOfTheBuiltInDgx1) {
  auto gen = RunCli({"topo", "gen", "dgx1(1)", "-o", TempPath("dgx1.json")});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  auto builtin = RunCli({"optimum", TempPath("dgx1.json"), "--json"});
  ASSERT_EQ(builtin.exit_code, 0) << builtin.err;
  const json b = json::parse(builtin.out);
  const json imported = ImportAndOptimum({"nvidia-smi", Machine("dgx1_v100.nvidia-smi.txt"),
                                          "--nvlink-only", "--link-bandwidth", "NVLINK=1"},
                                         "dgx1_imported.json");
  EXPECT_EQ(b["ratio"], "7/6");
  EXPECT_EQ(imported["ratio"], b["ratio"]);
  EXPECT_EQ(imported["cut_compute"], b["cut_compute"]);
  EXPECT_EQ(imported["cut_bandwidth"], b["cut_bandwidth"]);
  // The whole import (generic row: 20 GB/s per NVLink, 12 per PCIe link): the cut is still all
  // GPUs but one, whose way out is now its 6 NVLinks and its PCIe link: 7 / (6·20 + 12).
  const json whole =
      ImportAndOptimum({"nvidia-smi", Machine("dgx1_v100.nvidia-smi.txt")}, "dgx1_whole.json");
  EXPECT_EQ(whole["ratio"], "7/132");
  EXPECT_EQ(whole["cut_compute"], 7);
}

TEST(TopoImportCliTest, ClustersHaveTheNetworkCutOptimum) {
  // NC A100 v4: g = 4 GPUs and one 100 Gb/s NIC (b = 25/2 GB/s) per node; the cut around K-1
  // nodes gives (K-1)·g/b.
  const std::string nc = Machine("nc_a100_v4.nccl.xml");
  for (int k : {2, 3}) {
    for (const char* fabric : {"rail", "fattree"}) {
      const json j =
          ImportAndOptimum({"nccl-xml", nc, "--nodes", std::to_string(k), "--fabric", fabric},
                           std::string("nc_") + fabric + std::to_string(k) + ".json");
      EXPECT_EQ(j["compute_nodes"], 4 * k);
      EXPECT_EQ(j["ratio"], k == 2 ? "8/25" : "16/25") << fabric << " " << k;
    }
  }
  // Twice the NIC bandwidth would halve the network cut to 8/25, but then the node's own cut
  // binds: everything but one NVLinked GPU pair, whose only way out is its two PCIe links
  // (2 x 12 GB/s): (K·g - 2) / 24 = 10/24.
  const json fast = ImportAndOptimum({"nccl-xml", nc, "--nodes", "3", "--link-bandwidth", "net=25"},
                                     "nc_fast.json");
  EXPECT_EQ(fast["ratio"], "5/12");
  EXPECT_EQ(fast["cut_compute"], 10);
  EXPECT_EQ(fast["cut_bandwidth"], "24");
}

TEST(TopoImportCliTest, StdoutJsonAndEdgeList) {
  auto r = RunCli({"topo", "import", "nccl-xml", Machine("nd_h100_v5.nccl.xml")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["nodes"].size(), 26u);
  const std::string edges = TempPath("ndv5.edges");
  auto e = RunCli({"topo", "import", "nccl-xml", Machine("nd_h100_v5.nccl.xml"), "-o", edges});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  auto i = RunCli({"topo", "info", edges, "--json"});
  ASSERT_EQ(i.exit_code, 0) << i.err;
  EXPECT_EQ(json::parse(i.out)["compute_nodes"], 8);
}

TEST(TopoImportCliTest, BadInputExitsTwoWithOneLine) {
  auto expect2 = [](const std::vector<std::string>& args, const std::string& line) {
    auto r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, "collsynth: " + line + "\n");
  };
  const std::string dgx = Machine("dgx1_v100.nvidia-smi.txt");
  expect2({"topo", "import", "nvidia-smi", Machine("nc_a100_v4.nccl.xml")},
          Machine("nc_a100_v4.nccl.xml") +
              ": header: no line starting with GPU0 (the column header of `nvidia-smi topo -m`)");
  expect2({"topo", "import", "lspci", dgx},
          "<args>: format: 'lspci' is not nvidia-smi or nccl-xml");
  expect2({"topo", "import", "nvidia-smi", dgx, "--fabric", "torus"},
          "<args>: --fabric: 'torus' is not rail or fattree");
  expect2({"topo", "import", "nvidia-smi", dgx, "--link-bandwidth", "PCIE=-1"},
          "<args>: --link-bandwidth: PCIE: bandwidth must be > 0");
  expect2({"topo", "import", "nvidia-smi", dgx, "--nodes", "2", "--nvlink-only"},
          "<args>: --nodes: cannot join nodes with --nvlink-only (no NICs)");
  expect2({"topo", "import", "nccl-xml", dgx},
          dgx + ": line 1: not well-formed XML: XML_ERROR_PARSING_TEXT");
}

}  // namespace
}  // namespace collsynth
