// Topologies from real machines (graphs/machine_import.h, docs/machine_import.md) on the public
// dumps of tests/data/machines/ (README there: sources and licences): node and link counts and
// bandwidths from the bandwidth table, the DGX-1's NVLinks against the built-in dgx1() table,
// overrides, the rail and fat-tree clusters, and exact one-line messages for bad input.
#include "graphs/machine_import.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "core/input_error.h"
#include "core/json_io.h"
#include "graphs/generators/switch_topologies.h"

namespace collsynth {
namespace {

std::string Data(const std::string& name) {
  return ReadTextFile(std::string(COLLSYNTH_SOURCE_DIR) + "/tests/data/machines/" + name);
}

Rational R(long p, long q = 1) { return Rational(p, q); }

// The bandwidth of link a -> b by node names (0 when absent).
Rational Bw(const Topology& g, const std::string& a, const std::string& b) {
  auto e = g.FindLink(g.FindNode(a).value(), g.FindNode(b).value());
  return e ? g.link(*e).bandwidth : Rational(0);
}

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MachineImportTest, Dgx1MatrixBuildsItsPcieTreeAndNvLinks) {
  const Topology g = ImportNvidiaSmiTopology(Data("dgx1_v100.nvidia-smi.txt"), "dgx1", {});
  // 8 GPUs; 4 NICs, 4 PCIe switches (GPU pairs with their NIC, PIX), 2 host bridges, 2 CPUs.
  EXPECT_EQ(g.num_compute(), 8);
  EXPECT_EQ(g.num_switches(), 12);
  // 16 NVLinked pairs, 12 devices + 4 switches + 2 host bridges on PCIe, 1 inter-socket link,
  // each both ways.
  EXPECT_EQ(g.num_links(), 2 * (16 + 12 + 4 + 2 + 1));
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      const int m = Dgx1NvLinks(i, j);
      auto e = g.FindLink(i, j);
      ASSERT_EQ(e.has_value(), m > 0) << i << " " << j;
      if (m > 0) {
        EXPECT_EQ(g.link(*e).bandwidth, R(20) * m);  // the generic row: NCCL's 20 GB/s per link
        EXPECT_EQ(g.link(*e).multiplicity, m);
      }
    }
  }
  // GPU0 and GPU1 share mlx5_0's switch; mlx5_0 and mlx5_1 share the first host bridge.
  EXPECT_EQ(Bw(g, "GPU0", "pcie0"), R(12));
  EXPECT_EQ(Bw(g, "GPU1", "pcie0"), R(12));
  EXPECT_EQ(Bw(g, "mlx5_0", "pcie0"), R(12));
  EXPECT_EQ(Bw(g, "pcie0", "hostbridge0"), R(12));
  EXPECT_EQ(Bw(g, "cpu0", "cpu1"), R(6));
}

TEST(MachineImportTest, Dgx1NvLinkOnlyAtUnitBandwidthIsTheBuiltInDgx1) {
  MachineImportOptions o;
  o.nvlink_only = true;
  o.link_bandwidth["NVLINK"] = 1;
  const Topology g = ImportNvidiaSmiTopology(Data("dgx1_v100.nvidia-smi.txt"), "dgx1", o);
  const Topology b = Dgx1(1);
  ASSERT_EQ(g.num_nodes(), b.num_nodes());
  using L = std::tuple<int, int, Rational, std::int64_t>;
  std::set<L> ours, theirs;
  for (const Link& l : g.links()) ours.insert({l.from, l.to, l.bandwidth, l.multiplicity});
  for (const Link& l : b.links()) theirs.insert({l.from, l.to, l.bandwidth, l.multiplicity});
  EXPECT_EQ(ours, theirs);
}

TEST(MachineImportTest, ModelNamedInTheDumpPicksItsTableRowAndOverridesWin) {
  const std::string text =
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)\n" + Data("dgx1_v100.nvidia-smi.txt");
  const Topology h = ImportNvidiaSmiTopology(text, "h", {});
  EXPECT_EQ(h.name(), "nvidia-smi H100");
  EXPECT_EQ(Bw(h, "GPU0", "GPU3"), R(103, 5) * 2);  // NV2 at NCCL's SM90 20.6 GB/s
  EXPECT_EQ(Bw(h, "GPU0", "pcie0"), R(48));
  EXPECT_EQ(Bw(h, "cpu1", "cpu0"), R(22));
  MachineImportOptions o;
  o.gpu_model = "v100";  // the option wins over the text
  ParseLinkBandwidthOverride("pcie=7/3", "--link-bandwidth", &o.link_bandwidth);
  ParseLinkBandwidthOverride("SYS=0.5", "--link-bandwidth", &o.link_bandwidth);
  const Topology v = ImportNvidiaSmiTopology(text, "h", o);
  EXPECT_EQ(Bw(v, "GPU0", "GPU3"), R(40));
  EXPECT_EQ(Bw(v, "GPU0", "pcie0"), R(7, 3));
  EXPECT_EQ(Bw(v, "hostbridge0", "cpu0"), R(7, 3));
  EXPECT_EQ(Bw(v, "cpu0", "cpu1"), R(1, 2));
}

// A hand-made matrix in the layout of recent nvidia-smi versions (NIC<n> columns, NUMA Affinity
// and GPU NUMA ID columns): PXB pairs share a switch, NODE and the NUMA column share a socket.
const char kNodeMatrix[] =
    "\tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
    "GPU0\t X \tNV18\tNV18\tNV18\tPXB\tSYS\t0-55\t0\t\tN/A\n"
    "GPU1\tNV18\t X \tNV18\tNV18\tNODE\tSYS\t0-55\t0\t\tN/A\n"
    "GPU2\tNV18\tNV18\t X \tNV18\tSYS\tPXB\t56-111\t1\t\tN/A\n"
    "GPU3\tNV18\tNV18\tNV18\t X \tSYS\tNODE\t56-111\t1\t\tN/A\n"
    "NIC0\tPXB\tNODE\tSYS\tSYS\t X \tSYS\n"
    "NIC1\tSYS\tSYS\tPXB\tNODE\tSYS\t X \n";

TEST(MachineImportTest, NodeEntriesAndNumaColumnGroupSockets) {
  MachineImportOptions o;
  o.gpu_model = "H100";
  const Topology g = ImportNvidiaSmiTopology(kNodeMatrix, "m", o);
  // 4 GPUs; NIC0, NIC1; switches {GPU0, NIC0}, {GPU2, NIC1}; host bridges of those two and of
  // GPU1, GPU3 alone; 2 sockets.
  EXPECT_EQ(g.num_nodes(), 4 + 2 + 2 + 4 + 2);
  EXPECT_EQ(g.num_links(), 2 * (6 + 12 + 1));
  EXPECT_EQ(Bw(g, "GPU0", "GPU3"), R(103, 5) * 18);
  EXPECT_EQ(Bw(g, "GPU1", "hostbridge1"), R(48));
  EXPECT_EQ(Bw(g, "hostbridge1", "cpu0"), R(48));
  EXPECT_EQ(Bw(g, "GPU3", "hostbridge3"), R(48));
  EXPECT_EQ(Bw(g, "hostbridge3", "cpu1"), R(48));
  // The NIC Legend of recent nvidia-smi names the NIC columns.
  const Topology named = ImportNvidiaSmiTopology(
      std::string(kNodeMatrix) +
          "\nLegend:\n\n  X    = Self\n\nNIC Legend:\n\n  NIC0: mlx5_0\n  NIC1: mlx5_1\n",
      "m", o);
  EXPECT_EQ(Bw(named, "mlx5_1", "pcie1"), R(48));
  EXPECT_FALSE(named.FindNode("NIC1").has_value());
  // GPU1 moved to NUMA node 1: its NODE entry to NIC0 then joins both sockets, which
  // contradicts GPU0 to NIC1 = SYS.
  std::string moved = kNodeMatrix;
  const std::string row = "NODE\tSYS\t0-55\t0";
  moved.replace(moved.find(row), row.size(), "NODE\tSYS\t0-55\t1");
  EXPECT_EQ(ErrorOf([&] { ImportNvidiaSmiTopology(moved, "m", {}); }),
            "m: line 2: GPU0 to NIC1 is SYS, but the other entries (and NUMA affinities) place "
            "them in one CPU socket (NODE)");
}

TEST(MachineImportTest, NcA100v4XmlHasNvLinkPairsAndOneNic) {
  const Topology g = ImportNcclTopologyXml(Data("nc_a100_v4.nccl.xml"), "nc", {});
  EXPECT_EQ(g.num_compute(), 4);
  EXPECT_EQ(g.num_switches(), 5);  // 4 CPUs (NUMA domains) and eth0
  EXPECT_EQ(g.num_links(), 8 + 4 + 2 + 12);
  EXPECT_EQ(Bw(g, "GPU0", "GPU1"), R(240));  // 12 NVLinks at SM80's 20 GB/s
  EXPECT_EQ(Bw(g, "GPU2", "GPU3"), R(240));
  EXPECT_EQ(Bw(g, "GPU0", "GPU2"), R(0));
  EXPECT_EQ(Bw(g, "GPU0", "cpu0"), R(12));    // link_width 0 -> 16, unknown speed -> 60: 16*60/80
  EXPECT_EQ(Bw(g, "eth0", "cpu0"), R(5000));  // a NIC directly under a CPU: LOC_BW
  EXPECT_EQ(Bw(g, "cpu0", "cpu3"), R(16));    // AMD
}

TEST(MachineImportTest, NdA100v4AndNdH100v5XmlAreTheirPcieTrees) {
  const Topology a = ImportNcclTopologyXml(Data("nd_a100_v4.nccl.xml"), "a", {});
  EXPECT_EQ(a.num_compute(), 8);
  EXPECT_EQ(a.num_switches(), 4 + 4 + 8);  // CPUs, bridges, NICs
  EXPECT_EQ(a.num_links(), 2 * (16 + 4 + 6));
  EXPECT_EQ(Bw(a, "GPU[0003:00:00.0]", "pci[ffff:ff:01.0]"), R(24));  // Gen4 x16
  EXPECT_EQ(Bw(a, "cpu0", "cpu2"), R(16));
  const Topology h = ImportNcclTopologyXml(Data("nd_h100_v5.nccl.xml"), "h", {});
  EXPECT_EQ(h.num_compute(), 8);
  EXPECT_EQ(h.num_switches(), 2 + 8 + 8);
  EXPECT_EQ(h.num_links(), 2 * (16 + 8 + 1));
  EXPECT_EQ(Bw(h, "NIC[0101:00:00.0]", "pci[ffff:ff:01.0]"), R(48));  // Gen5 x16
  EXPECT_EQ(Bw(h, "cpu0", "cpu1"), R(22));  // Sapphire Rapids (family 6, model 143)
}

TEST(MachineImportTest, RailAndFatTreeClustersCountAndRates) {
  MachineImportOptions o;
  o.nodes = 3;
  const Topology rail = ImportNcclTopologyXml(Data("nc_a100_v4.nccl.xml"), "nc", o);
  EXPECT_EQ(rail.num_compute(), 12);
  EXPECT_EQ(rail.num_nodes(), 3 * 9 + 1);
  EXPECT_EQ(rail.num_links(), 3 * 26 + 2 * 3);
  EXPECT_EQ(Bw(rail, "n2.eth0", "rail0"), R(25, 2));  // speed 100000 Mb/s / 8000
  o.fabric = MachineFabric::kFatTree;
  o.link_bandwidth["FABRIC"] = 40;
  const Topology ft = ImportNcclTopologyXml(Data("nc_a100_v4.nccl.xml"), "nc", o);
  EXPECT_EQ(ft.num_nodes(), 3 * 9 + 3 + 1);
  EXPECT_EQ(ft.num_links(), 3 * 26 + 2 * 3 + 2 * 3);
  EXPECT_EQ(Bw(ft, "n1.eth0", "leaf1"), R(25, 2));
  EXPECT_EQ(Bw(ft, "leaf1", "spine0"), R(40));
  // DGX-1: 4 NICs per node -> 4 rails, each with one NIC of every node.
  MachineImportOptions d;
  d.nodes = 2;
  const Topology g = ImportNvidiaSmiTopology(Data("dgx1_v100.nvidia-smi.txt"), "dgx1", d);
  EXPECT_EQ(g.num_nodes(), 2 * 20 + 4);
  EXPECT_EQ(Bw(g, "n1.mlx5_3", "rail3"), R(25, 2));
}

TEST(MachineImportTest, BadNvidiaSmiInputNamesTheLine) {
  const std::string dgx = Data("dgx1_v100.nvidia-smi.txt");
  auto imp = [](const std::string& t) {
    return ErrorOf([&] { ImportNvidiaSmiTopology(t, "m.txt", {}); });
  };
  EXPECT_EQ(
      imp("hello\n"),
      "m.txt: header: no line starting with GPU0 (the column header of `nvidia-smi topo -m`)");
  std::string bad = dgx;
  bad.replace(bad.find("PIX"), 3, "PXQ");
  EXPECT_EQ(imp(bad),
            "m.txt: line 2: GPU0 column mlx5_0: 'PXQ' is not a connection type (X, NV#, PIX, "
            "PXB, PHB, NODE, SYS)");
  std::string asym = dgx;
  asym.replace(asym.find("SYS"), 3, "PHB");  // GPU0 -> GPU5 only
  EXPECT_EQ(imp(asym), "m.txt: line 7: GPU5 to GPU0 is SYS but GPU0 to GPU5 (line 2) is PHB");
  std::string tree = dgx;
  // mlx5_0 and mlx5_2 said PHB (one host bridge) although their GPUs are SYS apart.
  const std::string r0 = "mlx5_0\tPIX\tPIX\tPHB\tPHB\tSYS\tSYS\tSYS\tSYS\t X \tSYS";
  const std::string r2 = "mlx5_2\tSYS\tSYS\tSYS\tSYS\tPIX\tPIX\tPHB\tPHB\tSYS";
  tree.replace(tree.find(r0), r0.size(), r0.substr(0, r0.size() - 3) + "PHB");
  tree.replace(tree.find(r2), r2.size(), r2.substr(0, r2.size() - 3) + "PHB");
  EXPECT_EQ(imp(tree),
            "m.txt: line 2: GPU0 to GPU5 is SYS, but the other entries (and NUMA affinities) "
            "place them under one host bridge (PHB)");
  EXPECT_EQ(imp("\tGPU0\tNIC0\nGPU0\t X \tNV1\nNIC0\tNV1\t X \n"),
            "m.txt: line 2: GPU0 column NIC0: NVLinks (NV1) join GPUs only");
  EXPECT_EQ(imp("\tGPU0\tGPU1\nGPU0\t X \tNV1\n"),
            "m.txt: line 3: row of GPU1 missing (the header has 2 devices)");
  EXPECT_EQ(imp(std::string("\tGPU0\nGPU0\t X\0\n", 14)), "m.txt: line 2: NUL byte");
}

TEST(MachineImportTest, BadXmlInputNamesTheElement) {
  const std::string nc = Data("nc_a100_v4.nccl.xml");
  auto imp = [](const std::string& t) {
    return ErrorOf([&] { ImportNcclTopologyXml(t, "t.xml", {}); });
  };
  // The self-loop of an earlier azhpc-images ncv4-topo.xml: each GPU's NVLink named itself.
  std::string self = nc;
  self.replace(self.find("target=\"0002:00:00.0\""), 21, "target=\"0001:00:00.0\"");
  EXPECT_EQ(imp(self), "t.xml: <nvlink> at line 5: target 0001:00:00.0 is the GPU itself");
  std::string missing = nc;
  missing.replace(missing.find("target=\"0002:00:00.0\""), 21, "target=\"0009:00:00.0\"");
  EXPECT_EQ(imp(missing), "t.xml: <nvlink> at line 5: target 0009:00:00.0 is no GPU of the file");
  EXPECT_EQ(imp("<system><cpu numaid=\"0\"><pci busid=\"1\" class=\"0x0604\"></cpu></system>"),
            "t.xml: line 1: not well-formed XML: XML_ERROR_MISMATCHED_ELEMENT");
  EXPECT_EQ(imp("<topology/>"), "t.xml: <topology> at line 1: the root element must be <system>");
  EXPECT_EQ(imp("<system>\n<cpu numaid=\"x\"/></system>"),
            "t.xml: <cpu> at line 2: attribute numaid=\"x\" is not an integer");
  std::string count = nc;
  count.replace(count.find("count=\"12\""), 10, "count=\"0\"");
  EXPECT_EQ(imp(count), "t.xml: <nvlink> at line 5: count 0 is not a number of NVLinks (1..1024)");
  EXPECT_EQ(imp("<system><cpu numaid=\"0\"><pci class=\"0x0604\"/></cpu></system>"),
            "t.xml: <pci> at line 1: attribute busid missing");
  EXPECT_EQ(imp("<system><cpu numaid=\"0\"/></system>"),
            "t.xml: <system> at line 1: no GPU in the file");
}

TEST(MachineImportTest, BadOptionsNameTheOption) {
  std::map<std::string, Rational> m;
  EXPECT_EQ(ErrorOf([&] { ParseLinkBandwidthOverride("NVLINK", "--link-bandwidth", &m); }),
            "<args>: --link-bandwidth: 'NVLINK' is not TYPE=VALUE (TYPE one of NVLINK, PCIE, SYS, "
            "NET, FABRIC)");
  EXPECT_EQ(ErrorOf([&] { ParseLinkBandwidthOverride("QPI=3", "--link-bandwidth", &m); }),
            "<args>: --link-bandwidth: unknown connection type 'QPI'; one of NVLINK, PCIE, SYS, "
            "NET, FABRIC");
  EXPECT_EQ(ErrorOf([&] { ParseLinkBandwidthOverride("NET=0", "--link-bandwidth", &m); }),
            "<args>: --link-bandwidth: NET: bandwidth must be > 0");
  MachineImportOptions o;
  o.nodes = 2;
  EXPECT_EQ(ErrorOf([&] {
              ImportNcclTopologyXml(
                  "<system><cpu numaid=\"0\"><pci busid=\"1\" class=\"0x0302\"/>"
                  "</cpu></system>",
                  "t.xml", o);
            }),
            "t.xml: --nodes: the machine has no NIC to join 2 nodes through");
  MachineImportOptions big;
  big.nodes = 100000;  // topo gen's limits: 2^20 nodes, 2^23 links
  EXPECT_EQ(ErrorOf([&] { ImportNvidiaSmiTopology(Data("dgx1_v100.nvidia-smi.txt"), "m", big); }),
            "<args>: --nodes: 100000 nodes would have 2000004 nodes and 7800000 links; the limit "
            "is 1048576 nodes and 8388608 links");
  MachineImportOptions q;
  q.gpu_model = "K80";
  EXPECT_EQ(ErrorOf([&] { ImportNvidiaSmiTopology(Data("dgx1_v100.nvidia-smi.txt"), "m", q); }),
            "<args>: --gpu-model: unknown model 'K80'; one of P100, V100, A100, A800, H100, H800, "
            "H200, B200, GB200");
}

}  // namespace
}  // namespace collsynth
