// Lowering of pipeline and step schedules into MSCCL programs (export/msccl_program.h):
// H1-H6 hold on the program (CheckMscclProgramInvariants plus direct structural checks), and
// a small symbolic execution (msccl_sim.h: contribution multisets, FIFOs of capacity 1 and
// unbounded) reaches every collective's postcondition without deadlock. The independent
// replay checker of proofs_check/ is exercised by the CLI tests.
#include "export/msccl_program.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include "core/input_error.h"
#include "export/msccl_sim.h"
#include "fixtures/export_fixtures.h"

namespace collsynth {
namespace {

using testing::Full3;
using testing::RunBoth;

// Structural H1 in the exporter's stronger form: every block is a pure sender or a pure
// receiver, one per (channel, peer, direction).
void ExpectOneBlockPerConnector(const MscclProgram& p) {
  for (const MscclGpu& g : p.gpus) {
    std::set<std::tuple<int, int, int>> seen;
    for (const MscclBlock& b : g.blocks) {
      EXPECT_TRUE(b.send < 0 || b.recv < 0);
      EXPECT_TRUE(seen.insert({b.chan, b.send, b.recv}).second);
    }
  }
}

// The shared fixtures with the collective by name, as the cases below list them.
PipelineSchedule ChainAndStar(const std::string& coll, int m1, int m2,
                              const std::vector<int>& roots = {0, 1, 2}) {
  return testing::ChainAndStar(*ParseCollective(coll), m1, m2, roots);
}

TEST(MscclLowering, PipelineAllgatherExactChunksAndRatio) {
  Topology g = Full3();
  PipelineSchedule s = ChainAndStar("allgather", 1, 2);
  s.ratio = Rational(4, 3);
  MscclExportResult r = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), {}, "t");
  EXPECT_TRUE(r.exact_chunks);
  EXPECT_EQ(r.chunks_per_shard, 3);
  EXPECT_EQ(r.program.nchunksperloop, 9);
  // Link x -> x+1 carries root x's chain and star and root x-1's chain: 1/3 + 2/3 + 1/3.
  EXPECT_EQ(r.achieved_ratio, Rational(4, 3));
  EXPECT_EQ(r.optimal_ratio, Rational(4, 3));
  EXPECT_EQ(CheckMscclProgramInvariants(r.program, {}), std::vector<std::string>{});
  ExpectOneBlockPerConnector(r.program);
  EXPECT_EQ(RunBoth(r.program, "allgather", false), "");
  EXPECT_EQ(r.routes["format"], "msccl-routes");
  EXPECT_FALSE(r.routes["link_loads"].empty());
}

TEST(MscclLowering, PipelineRoundedChunksReportTheAchievedRatio) {
  Topology g = Full3();
  PipelineSchedule s = ChainAndStar("allgather", 1, 2);
  s.ratio = Rational(4, 3);
  MscclExportOptions o;
  o.max_chunks = 6;  // 2 chunks per shard instead of 3
  MscclExportResult r = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_FALSE(r.exact_chunks);
  EXPECT_EQ(r.exact_chunks_per_shard, BigInt(3));
  EXPECT_EQ(r.program.nchunksperloop, 6);
  // Weights 1/3, 2/3 rounded to 1, 1 of 2: link x -> x+1 carries 1/2 + 1/2 + 1/2.
  EXPECT_EQ(r.achieved_ratio, Rational(3, 2));
  EXPECT_EQ(r.optimal_ratio, Rational(4, 3));
  EXPECT_EQ(RunBoth(r.program, "allgather", false), "");
}

TEST(MscclLowering, EveryCollectiveInAndOutOfPlace) {
  Topology g = Full3();
  for (bool inplace : {false, true}) {
    MscclExportOptions o;
    o.inplace = inplace;
    struct Case {
      std::string coll;
      PipelineSchedule s;
    };
    std::vector<Case> cases;
    cases.push_back({"allgather", ChainAndStar("allgather", 1, 2)});
    cases.push_back({"reduce-scatter", ChainAndStar("reduce-scatter", 2, 1)});
    PipelineSchedule ar;
    ar.collective = Collective::kAllreduce;
    ar.phases = {ChainAndStar("reduce-scatter", 1, 1), ChainAndStar("allgather", 1, 2)};
    cases.push_back({"allreduce", ar});
    PipelineSchedule bc = ChainAndStar("broadcast", 3, 1, {1});
    bc.root = 1;
    cases.push_back({"broadcast", bc});
    for (const Case& c : cases) {
      SCOPED_TRACE(c.coll + (inplace ? " in-place" : " out-of-place"));
      o.root_specific = true;
      MscclExportResult r = ExportPipelineToMscclProgram(g, c.s, DefaultRanks(g), o, "t");
      EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
      ExpectOneBlockPerConnector(r.program);
      EXPECT_EQ(RunBoth(r.program, c.coll, inplace, 1), "");
      for (const MscclGpu& gpu : r.program.gpus) {
        for (const MscclBlock& b : gpu.blocks) EXPECT_LE(b.steps.size(), 64u);
      }
    }
  }
}

TEST(MscclLowering, InPlaceAllreduceOverwritesWaitLocallyForTheReduceScatterRead) {
  // In place, a GPU's contribution o[x] is read in the reduce-scatter phase (a send, or the
  // first rrc) and overwritten by an allgather receive of another block. The receive waits
  // for the read's flag, so the replay orders the pair on the GPU itself (no search through
  // the root); the file is otherwise the same and still correct.
  Topology g = Full3();
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.phases = {ChainAndStar("reduce-scatter", 1, 1), ChainAndStar("allgather", 1, 2)};
  MscclExportOptions o;
  o.inplace = true;
  MscclExportResult r = ExportPipelineToMscclProgram(g, ar, DefaultRanks(g), o, "t");
  EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
  EXPECT_EQ(RunBoth(r.program, "allreduce", true, 1), "");
  int fenced = 0;
  for (const MscclGpu& gpu : r.program.gpus) {
    for (const MscclBlock& b : gpu.blocks) {
      for (const MscclStep& st : b.steps) {
        if (st.type != "r") continue;
        ASSERT_GE(st.depid, 0) << "an allgather receive into o[" << st.dstoff << "] without one";
        const MscclStep& read = gpu.blocks[st.depid].steps[st.deps];
        EXPECT_TRUE(read.type == "s" || read.type == "rrc") << read.type;
        EXPECT_EQ(read.srcbuf, 'o');
        EXPECT_EQ(read.srcoff, st.dstoff);
        EXPECT_TRUE(read.hasdep);
        ++fenced;
      }
    }
  }
  EXPECT_GT(fenced, 0);
  // Out of place the contribution is in i: nothing to order, no dependency added.
  o.inplace = false;
  MscclExportResult out = ExportPipelineToMscclProgram(g, ar, DefaultRanks(g), o, "t");
  for (const MscclGpu& gpu : out.program.gpus) {
    for (const MscclBlock& b : gpu.blocks) {
      for (const MscclStep& st : b.steps) {
        if (st.type == "r") {
          EXPECT_EQ(st.depid, -1);
        }
      }
    }
  }
}

// Fused lowering: forwards are one rcs / rrs step; every collective and mode still reaches
// its postcondition, with fewer steps than the split lowering.
TEST(MscclLowering, FusedChainsEveryCollective) {
  Topology g = Full3();
  for (bool inplace : {false, true}) {
    std::vector<std::pair<std::string, PipelineSchedule>> cases;
    cases.push_back({"allgather", ChainAndStar("allgather", 1, 2)});
    cases.push_back({"reduce-scatter", ChainAndStar("reduce-scatter", 2, 1)});
    PipelineSchedule ar;
    ar.collective = Collective::kAllreduce;
    ar.phases = {ChainAndStar("reduce-scatter", 1, 1), ChainAndStar("allgather", 1, 2)};
    cases.push_back({"allreduce", ar});
    PipelineSchedule bc = ChainAndStar("broadcast", 3, 1, {1});
    bc.root = 1;
    cases.push_back({"broadcast", bc});
    for (const auto& [coll, sched] : cases) {
      SCOPED_TRACE(coll + (inplace ? " in-place" : " out-of-place"));
      MscclExportOptions o;
      o.inplace = inplace;
      o.root_specific = true;
      MscclExportResult split = ExportPipelineToMscclProgram(g, sched, DefaultRanks(g), o, "t");
      o.fuse = true;
      MscclExportResult fused = ExportPipelineToMscclProgram(g, sched, DefaultRanks(g), o, "t");
      EXPECT_EQ(CheckMscclProgramInvariants(fused.program, o), std::vector<std::string>{});
      EXPECT_EQ(RunBoth(fused.program, coll, inplace, 1), "");
      EXPECT_EQ(fused.achieved_ratio, split.achieved_ratio);
      int steps_split = 0, steps_fused = 0, forwards = 0;
      for (const MscclGpu& gpu : split.program.gpus) {
        for (const MscclBlock& b : gpu.blocks) steps_split += static_cast<int>(b.steps.size());
      }
      for (const MscclGpu& gpu : fused.program.gpus) {
        for (const MscclBlock& b : gpu.blocks) {
          steps_fused += static_cast<int>(b.steps.size());
          for (const MscclStep& st : b.steps) forwards += st.type == "rcs" || st.type == "rrs";
        }
      }
      // Each chain tree (a -> b -> c) has one forward per piece.
      EXPECT_GT(forwards, 0);
      EXPECT_EQ(steps_fused, steps_split - forwards);
    }
  }
}

TEST(MscclLowering, AllreducePhasesWithDifferentWeightsShareOneChunkLayout) {
  Topology g = Full3();
  PipelineSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.phases = {ChainAndStar("reduce-scatter", 1, 1), ChainAndStar("allgather", 1, 2)};
  MscclExportResult r = ExportPipelineToMscclProgram(g, ar, DefaultRanks(g), {}, "t");
  EXPECT_EQ(r.chunks_per_shard, 6);  // lcm(2, 3)
  EXPECT_EQ(r.program.nchunksperloop, 18);
  EXPECT_EQ(RunBoth(r.program, "allreduce", false), "");
}

TEST(MscclLowering, InstancesUseFreshChunksAndChannels) {
  Topology g = Full3();
  MscclExportOptions o;
  o.instances = 2;
  MscclExportResult one =
      ExportPipelineToMscclProgram(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), {}, "t");
  MscclExportResult two =
      ExportPipelineToMscclProgram(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), o, "t");
  EXPECT_EQ(two.program.nchunksperloop, 2 * one.program.nchunksperloop);
  EXPECT_EQ(two.program.nchannels, 2 * one.program.nchannels);
  EXPECT_EQ(CheckMscclProgramInvariants(two.program, o), std::vector<std::string>{});
  EXPECT_EQ(RunBoth(two.program, "allgather", false), "");
}

TEST(MscclLowering, BroadcastNeedsRootSpecific) {
  Topology g = Full3();
  PipelineSchedule bc = ChainAndStar("broadcast", 1, 0, {0});
  bc.root = 0;
  EXPECT_THROW(ExportPipelineToMscclProgram(g, bc, DefaultRanks(g), {}, "t"), InputError);
}

TEST(MscclLowering, LimitErrorsNameTheSmallestValueThatWorks) {
  Topology g = Full3();
  PipelineSchedule s = ChainAndStar("allgather", 1, 2);
  MscclExportOptions o;
  o.max_tbs = 1;
  std::int64_t needed = 0;
  try {
    ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
    ADD_FAILURE() << "no limit error";
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "--max-tbs");
    needed = e.needed();
  }
  // 2 peers each way and a copy block at one channel.
  EXPECT_EQ(needed, 5);
  o.max_tbs = static_cast<int>(needed);
  MscclExportResult r = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_EQ(r.blocks_per_gpu, 5);
  EXPECT_EQ(RunBoth(r.program, "allgather", false), "");

  MscclExportOptions c;
  c.max_chunks = 2;  // below one chunk per shard
  try {
    ExportPipelineToMscclProgram(g, s, DefaultRanks(g), c, "t");
    ADD_FAILURE() << "no limit error";
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "--max-chunks");
    EXPECT_EQ(e.needed(), 3);
  }
}

// Allgather on Full3 with one-chunk trees: per root r, `heavy` chains r -> r+1 -> r+2 and
// `light` stars r -> r+1, r -> r+2 (all multiplicity 1), so the pair (r, r+1) carries
// 2 heavy + light transfers and the pair (r, r+2) only `light`.
PipelineSchedule HeavyChainsLightStars(int heavy, int light) {
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  s.k = heavy + light;
  auto edge = [](int from, int to) {
    PipelineTreeEdge e;
    e.from = from;
    e.to = to;
    e.routes.push_back({{from, to}, BigInt(1)});
    return e;
  };
  for (int r = 0; r < 3; ++r) {
    const int x = (r + 1) % 3, y = (r + 2) % 3;
    for (int j = 0; j < heavy + light; ++j) {
      PipelineTree t;
      t.root = r;
      t.multiplicity = 1;
      t.edges = j < heavy ? std::vector<PipelineTreeEdge>{edge(r, x), edge(x, y)}
                          : std::vector<PipelineTreeEdge>{edge(r, x), edge(r, y)};
      s.trees.push_back(t);
    }
  }
  s.ratio = Rational(2 * heavy + light, heavy + light);
  return s;
}

TEST(MscclLowering, BusyPairsArePackedOntoFewerChannelsToMeetMaxTbs) {
  // Pair (r, r+1) carries 610 one-chunk transfers: at 64 steps per block it needs 10
  // channels. One transfer per block (unpacked) puts the 10 transfers of pair (r, r+2) on 10
  // blocks as well: 4 x 10 + 1 = 41 blocks per GPU. Packed, that pair takes one block per
  // side: 10 + 1 sending, 10 + 1 receiving, 1 copy block = 23.
  Topology g = Full3();
  PipelineSchedule s = HeavyChainsLightStars(300, 10);
  MscclExportOptions o;
  o.max_chunks = 930;  // 310 chunks per shard: every tree one chunk
  MscclExportResult wide = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  // Unpacked (the default whenever it fits): 21 channels, 2 x (21 + 10) + 1 = 63 blocks.
  EXPECT_EQ(wide.channels_per_instance, 21);
  EXPECT_EQ(wide.blocks_per_gpu, 63);
  EXPECT_EQ(wide.max_steps_per_block, 30);  // ceil(610 / 21)
  o.max_tbs = 20;
  try {
    ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
    ADD_FAILURE() << "no limit error";
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "--max-tbs");
    EXPECT_EQ(e.needed(), 23);
  }
  o.max_tbs = 23;
  MscclExportResult r = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_EQ(r.blocks_per_gpu, 23);
  EXPECT_LE(r.max_steps_per_block, 64);
  EXPECT_EQ(r.achieved_ratio, r.optimal_ratio);
  EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
  ExpectOneBlockPerConnector(r.program);
  EXPECT_EQ(RunBoth(r.program, "allgather", false), "");
  // Between full packing and none: the least packing that fits 30 blocks.
  o.max_tbs = 30;
  MscclExportResult mid = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_LE(mid.blocks_per_gpu, 30);
  EXPECT_GT(mid.blocks_per_gpu, 23);
  EXPECT_EQ(CheckMscclProgramInvariants(mid.program, o), std::vector<std::string>{});
  EXPECT_EQ(RunBoth(mid.program, "allgather", false), "");
}

TEST(MscclLowering, LargeTreesAreCutIntoStepsOfAtMost71Chunks) {
  // Ring of 3 (unidirectional): per root two copies of the path tree with multiplicities 1
  // and 199, so K = 200 and the shard is cut at 1 and every 71 chunks.
  Topology g;
  for (const char* v : {"a", "b", "c"}) g.AddCompute(v);
  for (int v = 0; v < 3; ++v) g.AddLink(v, (v + 1) % 3, 1);
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  s.k = 200;
  for (int r = 0; r < 3; ++r) {
    for (int m : {1, 199}) {
      PipelineTree t;
      t.root = r;
      t.multiplicity = m;
      for (int h = 0; h < 2; ++h) {
        PipelineTreeEdge e;
        e.from = (r + h) % 3;
        e.to = (r + h + 1) % 3;
        e.routes.push_back({{e.from, e.to}, BigInt(m)});
        t.edges.push_back(e);
      }
      s.trees.push_back(t);
    }
  }
  MscclExportOptions o;
  o.max_chunks = 600;
  o.max_channels = 1;
  MscclExportResult r = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_EQ(r.chunks_per_shard, 200);
  EXPECT_EQ(r.program.nchannels, 1);
  // Link a -> b: 4 pieces (1, 71, 71, 57 chunks) of root a and 4 of root c.
  EXPECT_EQ(r.max_steps_per_block, 8);
  for (const MscclGpu& gpu : r.program.gpus) {
    for (const MscclBlock& b : gpu.blocks) {
      for (const MscclStep& st : b.steps) EXPECT_LE(st.cnt, 71);
    }
  }
  EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
  EXPECT_EQ(RunBoth(r.program, "allgather", false), "");
  // With channels to spare, each transfer of a pair gets its own channel.
  o.max_channels = 32;
  MscclExportResult wide = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_EQ(wide.program.nchannels, 8);
  EXPECT_EQ(wide.max_steps_per_block, 3);  // the copy block: 200 chunks in 71-chunk copies
  EXPECT_EQ(RunBoth(wide.program, "allgather", false), "");
}

// Step schedule on Full3: step 1 every r sends [0,1/2) of its shard to r+1 and [1/2,1) to
// r+2; step 2 they forward.
StepSchedule TwoStepAllgather() {
  StepSchedule s;
  s.collective = Collective::kAllgather;
  auto send = [&](int src, Rational lo, Rational hi, int from, int to, int step) {
    s.sends.push_back({src, {{lo, hi}}, from, to, step});
  };
  for (int r = 0; r < 3; ++r) {
    int x = (r + 1) % 3, y = (r + 2) % 3;
    send(r, 0, Rational(1, 2), r, x, 1);
    send(r, Rational(1, 2), 1, r, y, 1);
    send(r, 0, Rational(1, 2), x, y, 2);
    send(r, Rational(1, 2), 1, y, x, 2);
  }
  return s;
}

StepSchedule Reversed(const StepSchedule& ag, int T) {
  StepSchedule rs;
  rs.collective = Collective::kReduceScatter;
  for (const StepSend& x : ag.sends)
    rs.sends.push_back({x.source, x.chunk, x.to, x.from, T + 1 - x.step});
  return rs;
}

TEST(MscclLowering, StepSchedulesEveryCollective) {
  Topology g = Full3();
  StepSchedule ag = TwoStepAllgather();
  StepSchedule rs = Reversed(ag, 2);
  StepSchedule ar;
  ar.collective = Collective::kAllreduce;
  ar.rs_steps = 2;
  ar.sends = rs.sends;
  for (StepSend x : ag.sends) {
    x.step += 2;
    ar.sends.push_back(x);
  }
  for (bool inplace : {false, true}) {
    MscclExportOptions o;
    o.inplace = inplace;
    for (const StepSchedule* s : {&ag, &rs, &ar}) {
      SCOPED_TRACE(std::string(CollectiveName(s->collective)) + (inplace ? " in-place" : ""));
      MscclExportResult r = ExportStepsToMscclProgram(g, *s, DefaultRanks(g), o, "t");
      EXPECT_EQ(r.chunks_per_shard, 2);
      EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
      ExpectOneBlockPerConnector(r.program);
      EXPECT_EQ(RunBoth(r.program, CollectiveName(s->collective), inplace), "");
      // T_B: every step moves 1/2 on each link used, 2 steps per phase.
      EXPECT_EQ(r.optimal_ratio, Rational(s->collective == Collective::kAllreduce ? 2 : 1));
      EXPECT_EQ(r.achieved_ratio, r.optimal_ratio);
    }
  }
}

TEST(MscclLowering, StepAllgatherDropsDuplicateReceives) {
  Topology g = Full3();
  StepSchedule ag = TwoStepAllgather();
  // At step 3 b receives a's first half again from c, and a receives its own shard.
  ag.sends.push_back({0, {{Rational(0), Rational(1, 2)}}, 2, 1, 3});
  ag.sends.push_back({0, {{Rational(0), Rational(1, 2)}}, 1, 0, 3});
  MscclExportResult r = ExportStepsToMscclProgram(g, ag, DefaultRanks(g), {}, "t");
  EXPECT_EQ(CheckMscclProgramInvariants(r.program, {}), std::vector<std::string>{});
  EXPECT_EQ(RunBoth(r.program, "allgather", false), "");
  EXPECT_EQ(r.optimal_ratio, Rational(3, 2));
  EXPECT_EQ(r.achieved_ratio, Rational(1));
}

TEST(MscclLowering, InvariantCheckCatchesBrokenPrograms) {
  Topology g = Full3();
  MscclExportResult r =
      ExportPipelineToMscclProgram(g, ChainAndStar("allgather", 1, 2), DefaultRanks(g), {}, "t");
  MscclProgram p = r.program;
  // H1: a second block on an existing send connector.
  MscclBlock extra = p.gpus[0].blocks.back();
  p.gpus[0].blocks.push_back(extra);
  auto v = CheckMscclProgramInvariants(p, {});
  ASSERT_FALSE(v.empty());
  bool h1 = false;
  for (const auto& s : v) h1 = h1 || s.rfind("H1", 0) == 0;
  EXPECT_TRUE(h1);
  // H6: a dependency on a step without hasdep.
  p = r.program;
  for (MscclGpu& gpu : p.gpus) {
    for (MscclBlock& b : gpu.blocks) {
      for (MscclStep& s : b.steps) s.hasdep = false;
    }
  }
  bool h6 = false;
  for (const auto& s : CheckMscclProgramInvariants(p, {})) h6 = h6 || s.rfind("H6", 0) == 0;
  EXPECT_TRUE(h6);
  // H2: a cnt changed on one side.
  p = r.program;
  for (MscclBlock& b : p.gpus[1].blocks) {
    if (b.recv >= 0) {
      b.steps[0].cnt += 1;
      break;
    }
  }
  bool h2 = false;
  for (const auto& s : CheckMscclProgramInvariants(p, {})) h2 = h2 || s.rfind("H2", 0) == 0;
  EXPECT_TRUE(h2);
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

TEST(MscclLowering, MoreThan32PeersAreSpreadOverChannels) {
  // Broadcast from GPU 0 to 33 others through a switch: one tree, 33 send blocks at the root.
  Topology g;
  for (int v = 0; v < 34; ++v) g.AddCompute("g" + std::to_string(v));
  int sw = g.AddSwitch("s");
  for (int v = 0; v < 34; ++v) g.AddDuplexLink(v, sw, 1);
  PipelineSchedule s;
  s.collective = Collective::kBroadcast;
  s.root = 0;
  s.k = 1;
  PipelineTree t;
  t.root = 0;
  t.multiplicity = 1;
  for (int v = 1; v < 34; ++v) {
    PipelineTreeEdge e;
    e.from = 0;
    e.to = v;
    e.routes.push_back({{0, sw, v}, BigInt(1)});
    t.edges.push_back(e);
  }
  s.trees.push_back(t);
  MscclExportOptions o;
  o.root_specific = true;
  MscclExportResult r = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_EQ(r.program.nchannels, 2);  // 17 + 16 senders instead of 33 on one channel
  EXPECT_EQ(r.blocks_per_gpu, 34);    // 33 senders and the copy block
  EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
  EXPECT_EQ(RunBoth(r.program, "broadcast", false, 0), "");
  o.max_channels = 1;
  try {
    ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
    ADD_FAILURE() << "no limit error";
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "--max-channels");
    EXPECT_EQ(e.needed(), 2);
  }
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

PipelineSchedule StarAllgather(Topology* g, int n) {
  for (int v = 0; v < n; ++v) g->AddCompute("g" + std::to_string(v));
  int sw = g->AddSwitch("s");
  for (int v = 0; v < n; ++v) g->AddDuplexLink(v, sw, 1);
  PipelineSchedule s;
  s.collective = Collective::kAllgather;
  s.k = 1;
  for (int r = 0; r < n; ++r) {
    PipelineTree t;
    t.root = r;
    t.multiplicity = 1;
    for (int v = 0; v < n; ++v) {
      if (v == r) continue;
      PipelineTreeEdge e;
      e.from = r;
      e.to = v;
      e.routes.push_back({{r, sw, v}, BigInt(1)});
      t.edges.push_back(e);
    }
    s.trees.push_back(t);
  }
  return s;
}

// Elements the runtime's parser counts when `rank` loads the file: <algo>, every <gpu>, and
// the rank's own blocks and steps.
std::int64_t CountedElements(const MscclProgram& p, int rank) {
  std::int64_t e = 1 + static_cast<std::int64_t>(p.gpus.size()) +
                   static_cast<std::int64_t>(p.gpus[rank].blocks.size());
  for (const MscclBlock& b : p.gpus[rank].blocks) e += static_cast<std::int64_t>(b.steps.size());
  return e;
}

TEST(MscclLowering, FilesAboveFourThousandElementsInTotalAreExported) {
  // Allgather on 46 GPUs around a switch, one star tree per root: 46·45 transfers are 4140
  // steps (4186 with the 46 local copies of out-of-place), above 4096 elements in the file,
  // but MAX_NODES is per loading rank (kMscclMaxRankElements): each rank counts far fewer.
  Topology g;
  PipelineSchedule s = StarAllgather(&g, 46);
  MscclExportOptions o;
  o.max_tbs = 1024;
  MscclExportResult r = ExportPipelineToMscclProgram(g, s, DefaultRanks(g), o, "t");
  EXPECT_EQ(CheckMscclProgramInvariants(r.program, o), std::vector<std::string>{});
  std::int64_t total = 1, most = 0;
  for (int v = 0; v < 46; ++v) {
    total += CountedElements(r.program, v) - 1 - 46 + 1;
    most = std::max(most, CountedElements(r.program, v));
  }
  EXPECT_GT(total, 4096);
  EXPECT_LE(most, kMscclMaxRankElements);
}

TEST(MscclLowering, ProgramCheckCountsElementsPerRank) {
  // Two GPUs; rank 0 counts 1 + 2 + 63 blocks + 4029 steps = 4095, one step more is 4096.
  MscclProgram p;
  p.ngpus = 2;
  p.nchunksperloop = 2;
  p.gpus.resize(2);
  for (int b = 0; b < 63; ++b) {
    MscclBlock blk;
    blk.chan = 0;
    blk.steps.resize(b < 62 ? 64 : 61);
    for (MscclStep& st : blk.steps) st.type = "nop";
    p.gpus[0].blocks.push_back(blk);
  }
  ASSERT_EQ(CountedElements(p, 0), 4095);
  MscclExportOptions o;
  o.max_tbs = 1024;
  auto parser = [](const std::vector<std::string>& v) {
    std::vector<std::string> out;
    for (const std::string& x : v) {
      if (x.rfind("parser:", 0) == 0) out.push_back(x);
    }
    return out;
  };
  EXPECT_EQ(parser(CheckMscclProgramInvariants(p, o)), std::vector<std::string>{});
  p.gpus[0].blocks.back().steps.push_back(p.gpus[0].blocks.back().steps.back());
  EXPECT_EQ(parser(CheckMscclProgramInvariants(p, o)),
            std::vector<std::string>{
                "parser: rank 0 counts 4096 elements > 4095 (MAX_NODES - 1 per loading rank)"});
}

}  // namespace
}  // namespace collsynth

namespace collsynth {
namespace {

TEST(MscclLowering, HugeChunkCountsAreRefusedBeforeCuttingShards) {
  Topology g = Full3();
  MscclExportOptions o;
  o.max_chunks = std::int64_t{1} << 40;
  // Tree weights 1/10^6 and (10^6-1)/10^6: K = 10^6 chunks per shard, ~14,000 pieces a root.
  try {
    ExportPipelineToMscclProgram(g, ChainAndStar("allgather", 1, 999999), DefaultRanks(g), o, "t");
    ADD_FAILURE() << "no limit error";
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "elements per rank");
  }
  StepSchedule s = TwoStepAllgather();
  s.sends[0].chunk = {{Rational(0), Rational(1, 1000003)}, {Rational(1, 1000003), Rational(1, 2)}};
  try {
    ExportStepsToMscclProgram(g, s, DefaultRanks(g), o, "t");
    ADD_FAILURE() << "no limit error";
  } catch (const ExportLimitError& e) {
    EXPECT_EQ(e.limit(), "elements per rank");
    EXPECT_NE(std::string(e.what()).find("2000006 chunks per shard"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace collsynth
