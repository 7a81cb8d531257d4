// topo gen on ~10^5-link topologies: evaluating the expression (generator + size checks) and
// writing the file, against a baseline in the same process: copying the generated topology
// link by link into a fresh Topology (the least any generator must do: AddNode + AddLink).
// Usage: build-x/bench/generators_bench [--quick] [OUT_DIR]   (default /tmp)
//   --quick: the same families at ~10^3 links (a smoke run, scripts/bench_smoke.sh).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/stopwatch.h"
#include "graphs/expression.h"
#include "graphs/topology.h"
#include "graphs/topology_io.h"

namespace {

using collsynth::Topology;

Topology CopyLinkByLink(const Topology& g) {
  Topology t(g.name());
  for (const auto& v : g.nodes()) t.AddNode(v.name, v.kind);
  for (const auto& l : g.links()) t.AddLink(l.from, l.to, l.bandwidth, l.multiplicity);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp";
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else
      dir = argv[i];
  }
  const std::vector<const char*> exprs =
      quick ? std::vector<const char*>{"torus(16,16)",
                                       "genkautz(4,250)",
                                       "kautz(4,2)",
                                       "line(circulant(16,3,4),2)",
                                       "power(product(uniring(1,2),uniring(1,4)),2)",
                                       "hypercube(6)",
                                       "degree(circulant(100,3,4),2)"}
            : std::vector<const char*>{"torus(160,160)",
                                       "genkautz(4,25000)",
                                       "kautz(4,6)",
                                       "line(circulant(16,3,4),5)",
                                       "power(product(uniring(1,4),uniring(1,8)),3)",
                                       "hypercube(13)",
                                       "degree(circulant(1000,3,4),5)"};
  std::printf("%-46s %8s %8s %9s %9s %9s %8s %8s\n", "expression", "nodes", "links", "gen_s",
              "json_s", "edges_s", "base_s", "gen/base");
  for (const char* e : exprs) {
    auto t0 = std::chrono::steady_clock::now();
    Topology g = collsynth::EvaluateTopologyExpression(e);
    double gen = collsynth::SecondsSince(t0);
    t0 = std::chrono::steady_clock::now();
    collsynth::WriteTopologyFile(g, dir + "/generators_bench.json");
    double json = collsynth::SecondsSince(t0);
    t0 = std::chrono::steady_clock::now();
    collsynth::WriteTopologyFile(g, dir + "/generators_bench.edges");
    double edges = collsynth::SecondsSince(t0);
    t0 = std::chrono::steady_clock::now();
    Topology copy = CopyLinkByLink(g);
    double base = collsynth::SecondsSince(t0);
    std::printf("%-46s %8d %8d %9.4f %9.4f %9.4f %8.4f %8.2f\n", e, g.num_nodes(), g.num_links(),
                gen, json, edges, base, gen / base);
    if (copy.num_links() != g.num_links()) return 1;
  }
  std::remove((dir + "/generators_bench.json").c_str());
  std::remove((dir + "/generators_bench.edges").c_str());
  return 0;
}
