// MSCCL export benchmark (docs/performance.md "MSCCL export + replay at scale"): for each case, the
// optimal pipeline schedule is built (not timed against the target), then timed separately:
// lowering to the MSCCL program (ExportPipelineToMscclProgram, with the exporter's own invariant
// check), writing the XML text (MscclXmlText) and the independent replay (ReplayMscclXml: stages
// 0-3, two loop iterations, in-place/out-of-place as the file claims), run twice as `collsynth
// export msccl` runs it: at the kernel's connector depth and at depth 1. "export+replay" is lower +
// write + both replays. Targets: the 64-GPU, 138-node cluster in under 2 s, a 1,024-GPU fat-tree
// allgather (fattree16) in under a minute. After each case the process's peak resident memory
// so far (VmHWM of /proc/self/status, Linux) is printed. When the exporter refuses a case
// (ExportLimitError), the limit and message are printed instead of the times; that is a
// result, not a failure of the benchmark. A file the replay rejects is a failure (exit 1).
// Options are the exporter's defaults except --max-chunks, raised to N where N > 256 (one
// chunk per shard is the least a file can have).
//   build/bench/export_bench [--only NAME] [--collective allgather|allreduce|both] [--no-replay]
//   [--max-tbs N] [--inplace]
//   (--inplace exports in-place files: for allreduce the case whose conflicting accesses are
//   ordered only through other GPUs, the replay's exact search)
//   (cases: gpu1 .. gpu8 (boxes x 8 GPUs, NIC switch per GPU, 2 leaves: gpu8 = 64 GPUs, 138
//   nodes), fattree4 .. fattree16 (k³/4 hosts: fattree16 = 1,024); default: gpu8 and
//   fattree4, 8, 10, 12, 16, allgather and allreduce on gpu8, allgather on the fat-trees;
//   about 2 minutes and 5 GB peak in all, see docs/performance.md)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "export/msccl_program.h"
#include "export/msccl_xml.h"
#include "graphs/generators/switch_topologies.h"
#include "graphs/topology.h"
#include "proofs_check/msccl_replay.h"
#include "solvers/pipeline/pipeline_schedule_builder.h"

namespace {

using namespace collsynth;

double Time(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A100-style cluster (as bench/pipeline_bench.cc): boxes of 8 GPUs, NVSwitch per box (300 per
// GPU), one NIC switch per GPU (25), NICs to 2 leaf switches (25). 8 boxes: 138 nodes.
Topology GpuCluster(int boxes) {
  Topology g("gpu" + std::to_string(boxes) + "x8");
  for (int b = 0; b < boxes; ++b) {
    for (int i = 0; i < 8; ++i) g.AddCompute("b" + std::to_string(b) + "g" + std::to_string(i));
  }
  std::vector<int> sw, leaf;
  for (int b = 0; b < boxes; ++b) sw.push_back(g.AddSwitch("b" + std::to_string(b) + "sw"));
  for (int l = 0; l < 2; ++l) leaf.push_back(g.AddSwitch("leaf" + std::to_string(l)));
  for (int b = 0; b < boxes; ++b) {
    for (int i = 0; i < 8; ++i) {
      const int v = b * 8 + i;
      const int nic = g.AddSwitch("b" + std::to_string(b) + "nic" + std::to_string(i));
      g.AddDuplexLink(v, sw[b], 300);
      g.AddDuplexLink(v, nic, 25);
      g.AddDuplexLink(nic, leaf[i % 2], 25);
    }
  }
  return g;
}

// VmHWM of /proc/self/status (the peak resident set so far), or "?" where it is not there.
std::string PeakMemory() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return "?";
  char line[256];
  std::string out = "?";
  while (std::fgets(line, sizeof line, f) != nullptr) {
    long long kb = 0;
    if (std::sscanf(line, "VmHWM: %lld kB", &kb) == 1) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.2f GB", kb / 1048576.0);
      out = buf;
    }
  }
  std::fclose(f);
  return out;
}

// Returns false when the replay rejected the file.
bool no_replay = false;  // --no-replay: lowering and writing only

int max_tbs = 64;      // --max-tbs: the exporter's default unless given
bool inplace = false;  // --inplace

bool Run(const std::string& name, const Topology& g, Collective coll) {
  PipelineOptions po;
  po.collective = coll;
  PipelineBuildResult built;
  const double t_build = Time([&] { built = BuildPipelineSchedule(g, po); });
  std::printf("%-10s %-9s N=%4d V=%4d  schedule %.3f s (not part of the target)\n", name.c_str(),
              CollectiveName(coll), g.num_compute(), g.num_nodes(), t_build);
  MscclExportOptions o;  // defaults, but at least one chunk per shard (--max-chunks >= N)
  o.max_chunks = std::max<std::int64_t>(o.max_chunks, g.num_compute());
  o.max_tbs = max_tbs;
  o.inplace = inplace;
  MscclExportResult r;
  double t_lower = 0;
  try {
    t_lower = Time(
        [&] { r = ExportPipelineToMscclProgram(g, built.schedule, DefaultRanks(g), o, name); });
  } catch (const ExportLimitError& e) {
    std::printf("  export refused after %.3f s: limit '%s' (needed %lld): %s\n", t_lower,
                e.limit().c_str(), static_cast<long long>(e.needed()), e.what());
    return true;
  }
  std::string xml;
  const double t_write = Time([&] { xml = MscclXmlText(r.program, o.profile); });
  if (no_replay) {
    std::printf(
        "  K=%lld channels=%d blocks/GPU=%d steps/block=%d  %.2f MB  lower %.3f s  write %.3f s  "
        "(replay skipped)\n",
        static_cast<long long>(r.program.nchunksperloop), r.program.nchannels, r.blocks_per_gpu,
        r.max_steps_per_block, xml.size() / 1e6, t_lower, t_write);
    return true;
  }
  ReplayResult rep, rep1;
  const double t_replay = Time([&] { rep = ReplayMscclXml(xml, name, ReplayOptions{}); });
  ReplayOptions depth1;
  depth1.fifo_depth = 1;
  const double t_replay1 = Time([&] { rep1 = ReplayMscclXml(xml, name, depth1); });
  std::printf(
      "  K=%lld channels=%d blocks/GPU=%d steps/block=%d  %.2f MB  lower %.3f s  write %.3f s  "
      "replay %.3f s (depth 1: %.3f s)  export+replay %.3f s  %s  peak %s\n",
      static_cast<long long>(r.program.nchunksperloop), r.program.nchannels, r.blocks_per_gpu,
      r.max_steps_per_block, xml.size() / 1e6, t_lower, t_write, t_replay, t_replay1,
      t_lower + t_write + t_replay + t_replay1, rep.ok && rep1.ok ? "replay ok" : "REPLAY REJECTED",
      PeakMemory().c_str());
  for (const ReplayResult* x : {&rep, &rep1}) {
    if (!x->ok && !x->violations.empty()) std::printf("  %s\n", x->violations[0].message.c_str());
  }
  return rep.ok && rep1.ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::string only, colls = "default";
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else if (!std::strcmp(argv[i], "--max-tbs") && i + 1 < argc) {
      max_tbs = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--inplace")) {
      inplace = true;
    } else if (!std::strcmp(argv[i], "--no-replay")) {
      no_replay = true;
    } else if (!std::strcmp(argv[i], "--collective") && i + 1 < argc) {
      colls = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: export_bench [--only NAME] [--collective allgather|allreduce|both] "
                   "[--no-replay] [--max-tbs N] [--inplace]\n");
      return 2;
    }
  }
  std::vector<std::string> names;
  if (only.empty()) {
    names = {"gpu8", "fattree4", "fattree8", "fattree10", "fattree12", "fattree16"};
  } else {
    names = {only};
  }
  bool ok = true;
  for (const std::string& n : names) {
    Topology g;
    if (n.rfind("gpu", 0) == 0) {
      g = GpuCluster(std::stoi(n.substr(3)));
    } else if (n.rfind("fattree", 0) == 0) {
      g = FatTree(std::stoi(n.substr(7)));
    } else {
      std::fprintf(stderr, "export_bench: unknown case %s\n", n.c_str());
      return 2;
    }
    std::vector<Collective> cs;
    if (colls == "allgather" || colls == "both" || colls == "default") {
      cs.push_back(Collective::kAllgather);
    }
    if (colls == "allreduce" || colls == "both" || (colls == "default" && n[0] == 'g')) {
      cs.push_back(Collective::kAllreduce);
    }
    for (Collective c : cs) ok = Run(n, g, c) && ok;
  }
  return ok ? 0 : 1;
}
