// The MSCCL++ plan replay checker (proofs_check/mscclpp_replay.h, docs/export.md
// "Replay of MSCCL++ plans"): correct
// hand-written plans are accepted, each corruption class is rejected at the expected stage
// with the expected kind, and the real DSL plan shipped with MSCCL++ (tests/data/mscclpp/)
// replays as analysed in tests/data/mscclpp/README.md.
#include "proofs_check/mscclpp_replay.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "fixtures/mscclpp_plan_fixtures.h"

namespace collsynth {
namespace {

using testing::AllgatherPlan;
using testing::AllreducePlan;
using testing::DataOp;
using testing::Local;
using testing::PlanJson;
using testing::PlanOp;
using testing::ReduceScatterPlan;
using testing::Remote;
using testing::SyncOp;

ReplayResult Replay(const PlanJson& plan) {
  return ReplayMscclppPlan(plan.dump(), "test.json", MscclppReplayOptions());
}

std::string Dump(const ReplayResult& r) {
  std::string s = r.ok ? "ok\n" : "rejected\n";
  for (const ReplayViolation& v : r.violations) {
    s += std::string(ReplayStageName(v.stage)) + "/" + ReplayViolationKindName(v.kind) + ": " +
         v.message + "\n";
  }
  for (const std::string& n : r.notes) s += "note: " + n + "\n";
  return s;
}

// The first violation is at `stage` with `kind`.
void ExpectRejected(const ReplayResult& r, ReplayStage stage, ReplayViolationKind kind) {
  ASSERT_FALSE(r.ok) << Dump(r);
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations[0].stage, stage) << Dump(r);
  EXPECT_EQ(r.violations[0].kind, kind) << Dump(r);
}

#define EXPECT_REJECTED(r, stage, kind) ASSERT_NO_FATAL_FAILURE(ExpectRejected(r, stage, kind))

PlanJson& Ops(PlanJson& plan, int gpu, int tb = 0) {
  return plan["gpus"][gpu]["threadblocks"][tb]["ops"];
}

// Removes the first op named `name` at or after `from` from gpu's block 0; returns its index.
int Erase(PlanJson& plan, int gpu, const std::string& name, int from = 0) {
  PlanJson& ops = Ops(plan, gpu);
  for (int k = from; k < static_cast<int>(ops.size()); ++k) {
    if (ops[k]["name"] == name) {
      ops.erase(ops.begin() + k);
      return k;
    }
  }
  ADD_FAILURE() << "no " << name;
  return -1;
}

TEST(MscclppReplayTest, CorrectPlansAreAccepted) {
  for (int n : {2, 3, 4}) {
    for (bool inplace : {false, true}) {
      for (const PlanJson& plan :
           {AllgatherPlan(n, inplace), ReduceScatterPlan(n, inplace), AllreducePlan(n, inplace)}) {
        const ReplayResult r = Replay(plan);
        EXPECT_TRUE(r.ok) << plan["collective"] << " n=" << n << " inplace=" << inplace << "\n"
                          << Dump(r);
        EXPECT_EQ(r.ngpus, n);
        EXPECT_EQ(r.proto, "Simple");
        ASSERT_EQ(r.modes.size(), 1u);
        EXPECT_EQ(r.modes[0], inplace ? "inplace" : "outofplace");
      }
    }
  }
}

TEST(MscclppReplayTest, ResultFields) {
  const ReplayResult r = Replay(AllreducePlan(3, false));
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.coll, "allreduce");
  EXPECT_EQ(r.nchunksperloop, 3);
  EXPECT_EQ(r.fifo_depth, 0);
  EXPECT_EQ(r.violations_total, 0);
  // Every ordered pair moves one chunk in each phase.
  ASSERT_EQ(r.bytes_per_pair.size(), 6u);
  EXPECT_EQ(r.bytes_per_pair[0].src, 0);
  EXPECT_EQ(r.bytes_per_pair[0].dst, 1);
  EXPECT_EQ(r.bytes_per_pair[0].chunks, 2);
  EXPECT_EQ(Replay(AllgatherPlan(4, false)).nchunksperloop, 1);
}

TEST(MscclppReplayTest, NotJsonIsStageZero) {
  const ReplayResult r = ReplayMscclppPlan("{\"name\": ", "x.json", MscclppReplayOptions());
  EXPECT_REJECTED(r, ReplayStage::kLexical, ReplayViolationKind::kLexical);
  EXPECT_EQ(ReplayMscclppPlan("", "x", {}).violations[0].stage, ReplayStage::kLexical);
}

TEST(MscclppReplayTest, MissingFieldIsSchema) {
  PlanJson plan = AllgatherPlan(2, false);
  plan.erase("protocol");
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kSchema, ReplayViolationKind::kMissingAttribute);
  EXPECT_EQ(r.violations[0].message, "plan: missing \"protocol\"");
  PlanJson no_chunks = AllgatherPlan(2, false);
  no_chunks["gpus"][1].erase("scratch_chunks");
  EXPECT_REJECTED(Replay(no_chunks), ReplayStage::kSchema, ReplayViolationKind::kMissingAttribute);
  PlanJson bad_type = AllgatherPlan(2, false);
  bad_type["inplace"] = 0;  // nlohmann throws converting a number to bool
  EXPECT_REJECTED(Replay(bad_type), ReplayStage::kSchema, ReplayViolationKind::kBadValue);
}

TEST(MscclppReplayTest, WrongGpuIdIsStructure) {
  PlanJson plan = AllgatherPlan(3, false);
  plan["gpus"][1]["id"] = 2;
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kSchema, ReplayViolationKind::kStructure);
  EXPECT_EQ(r.violations[0].gpu, 1);
  PlanJson tb = AllgatherPlan(2, false);
  tb["gpus"][0]["threadblocks"][0]["id"] = 1;
  EXPECT_REJECTED(Replay(tb), ReplayStage::kSchema, ReplayViolationKind::kStructure);
}

TEST(MscclppReplayTest, SixtyFiveOperationsIsLimit) {
  PlanJson plan = AllgatherPlan(2, false);
  PlanJson& ops = Ops(plan, 1);
  while (ops.size() < 64) ops.push_back(PlanOp("nop"));
  EXPECT_TRUE(Replay(plan).ok) << Dump(Replay(plan));
  ops.push_back(PlanOp("nop"));
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kSchema, ReplayViolationKind::kLimit);
  EXPECT_EQ(r.violations[0].gpu, 1);
  EXPECT_EQ(r.violations[0].tb, 0);
  EXPECT_NE(r.violations[0].message.find("launches 65 operations"), std::string::npos) << Dump(r);
}

TEST(MscclppReplayTest, SeventeenChannelsInABlockIsLimit) {
  PlanJson plan = AllgatherPlan(2, false);
  for (int g = 0; g < 2; ++g) {
    std::vector<int> peers(17, 1 - g), ids;
    for (int k = 0; k < 17; ++k) ids.push_back(k);
    plan["gpus"][g]["channels"][0]["connected_to"] = peers;
    plan["gpus"][g]["threadblocks"][0]["channels"][0]["channel_ids"] = ids;
  }
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kSchema, ReplayViolationKind::kLimit);
  EXPECT_NE(r.violations[0].message.find("has 17 memory channels"), std::string::npos) << Dump(r);
  // Nine channels in one operation: the executor holds 8.
  PlanJson wide = AllgatherPlan(2, false);
  for (int g = 0; g < 2; ++g) {
    wide["gpus"][g]["channels"][0]["connected_to"] = std::vector<int>(9, 1 - g);
    wide["gpus"][g]["threadblocks"][0]["channels"][0]["channel_ids"] =
        std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8};
    Ops(wide, g)[7]["channel_ids"] = std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8};
  }
  EXPECT_REJECTED(Replay(wide), ReplayStage::kSchema, ReplayViolationKind::kLimit);
}

TEST(MscclppReplayTest, ChunkOutOfRangeIsBadValue) {
  PlanJson plan = AllgatherPlan(2, false);
  Ops(plan, 0)[5]["dst_buff"][0]["index"] = 2;  // the peer's output has 2 chunks
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kSchema, ReplayViolationKind::kBadValue);
  EXPECT_NE(r.violations[0].message.find("chunks [2, 3) of o on gpu 1 are outside its 2 chunks"),
            std::string::npos)
      << Dump(r);
  // The loader's chunk-size rule: allgather output must be ngpus times the input.
  PlanJson geometry = AllgatherPlan(2, false);
  geometry["gpus"][0]["output_chunks"] = 3;
  EXPECT_REJECTED(Replay(geometry), ReplayStage::kSchema, ReplayViolationKind::kBadValue);
}

TEST(MscclppReplayTest, TooFewThreadsForTheChannelsOfAnOperation) {
  PlanJson plan = AllgatherPlan(3, false);
  plan["num_threads_per_block"] = 1;  // the wait on two channels runs on threads 0 and 1
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kSchema, ReplayViolationKind::kBadValue);
  EXPECT_NE(r.violations[0].message.find("signal needs 2 threads"), std::string::npos) << Dump(r);
  plan["num_threads_per_block"] = 2;
  EXPECT_TRUE(Replay(plan).ok);
}

TEST(MscclppReplayTest, UnknownAndUnmodelledOperations) {
  PlanJson plan = AllgatherPlan(2, false);
  Ops(plan, 0)[4]["name"] = "fly";
  EXPECT_REJECTED(Replay(plan), ReplayStage::kSchema, ReplayViolationKind::kBadValue);
  for (const char* name : {"ppkt", "pipeline", "glres", "pws"}) {
    PlanJson p = AllgatherPlan(2, false);
    Ops(p, 0)[4]["name"] = name;
    EXPECT_REJECTED(Replay(p), ReplayStage::kSchema, ReplayViolationKind::kUnsupported);
  }
  PlanJson tbg = AllgatherPlan(2, false);
  Ops(tbg, 0)[3]["tbg_info"] = {{"tb_id", 2}, {"tbg_size", 2}};
  EXPECT_REJECTED(Replay(tbg), ReplayStage::kSchema, ReplayViolationKind::kBadValue);
  PlanJson ll = AllgatherPlan(2, false);
  ll["protocol"] = "LL";
  EXPECT_REJECTED(Replay(ll), ReplayStage::kSchema, ReplayViolationKind::kUnsupported);
  PlanJson coll = AllgatherPlan(2, false);
  coll["collective"] = "alltoallv";
  EXPECT_REJECTED(Replay(coll), ReplayStage::kSchema, ReplayViolationKind::kUnsupported);
  // An allgather plan called alltoall: input and output chunk counts differ (1 and 2).
  coll["collective"] = "alltoall";
  EXPECT_REJECTED(Replay(coll), ReplayStage::kSchema, ReplayViolationKind::kBadValue);
}

TEST(MscclppReplayTest, UnpairedChannelIsStageTwo) {
  PlanJson plan = AllgatherPlan(2, false);
  // gpu 0 lists two memory entries to gpu 1, gpu 1 one to gpu 0: entry 1 is unpaired.
  plan["gpus"][0]["channels"][0]["connected_to"] = {1, 1};
  plan["gpus"][0]["threadblocks"][0]["channels"][0]["channel_ids"] = {0, 1};
  ASSERT_EQ(Ops(plan, 0)[7]["name"], "signal");
  Ops(plan, 0)[7]["channel_ids"] = {1};  // signal on the unpaired entry
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kFifo, ReplayViolationKind::kFifoMismatch);
  EXPECT_NE(r.violations[0].message.find("which is unpaired"), std::string::npos) << Dump(r);
  // Listing the surplus entry without signalling or waiting on it is fine.
  Ops(plan, 0)[7]["channel_ids"] = {0};
  EXPECT_TRUE(Replay(plan).ok) << Dump(Replay(plan));
}

TEST(MscclppReplayTest, WaitWithoutSignalIsASureHang) {
  PlanJson plan = AllgatherPlan(2, false);
  Erase(plan, 1, "signal");
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kFifo, ReplayViolationKind::kFifoMismatch);
  EXPECT_NE(r.violations[0].message.find("1 signal but 2 waits (a sure hang"), std::string::npos)
      << Dump(r);
  EXPECT_EQ(r.violations[0].gpu, 0);
  // A signal nobody waits for is rejected too (it lets the next launch's wait pass early).
  PlanJson extra = AllgatherPlan(2, false);
  Erase(extra, 1, "wait");
  EXPECT_REJECTED(Replay(extra), ReplayStage::kFifo, ReplayViolationKind::kFifoMismatch);
}

TEST(MscclppReplayTest, WaitBeforeSignalOnBothSidesDeadlocks) {
  PlanJson plan = AllgatherPlan(2, false);
  for (int g = 0; g < 2; ++g) {
    PlanJson& ops = Ops(plan, g);
    std::swap(ops[7], ops[8]);  // wait, then signal
  }
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kDeadlock);
  EXPECT_EQ(r.violations[0].cycle.size(), 2u) << Dump(r);
  EXPECT_NE(r.violations[0].message.find("deadlock: wait-for cycle: gpu 0 tb 0 step 7 (wait)"),
            std::string::npos)
      << Dump(r);
}

TEST(MscclppReplayTest, MissingNopBetweenPutAndSignalIsARace) {
  PlanJson plan = AllgatherPlan(2, false);
  Erase(plan, 0, "nop", 5);  // put, signal: the signalling thread may run ahead of the copy
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r.violations[0].message,
            "[outofplace] the caller of gpu 1 after launch 1: read of gpu 1 o[0] is not ordered "
            "with the access by gpu 0 tb 0 step 5 (put) (no nop / signal-wait / semaphore / "
            "barrier chain orders them)");
  // The same gap in the reduce phase: the peer reduces scratch the put may not have filled.
  PlanJson rs = ReduceScatterPlan(2, false);
  Erase(rs, 0, "nop", 3);
  const ReplayResult r2 = Replay(rs);
  EXPECT_REJECTED(r2, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r2.violations[0].gpu, 1) << Dump(r2);
  EXPECT_NE(r2.violations[0].message.find("read of gpu 1 s[0] is not ordered with the access by "
                                          "gpu 0 tb 0 step 3 (put)"),
            std::string::npos)
      << Dump(r2);
}

TEST(MscclppReplayTest, MissingNopAfterWaitIsARace) {
  PlanJson plan = ReduceScatterPlan(2, false);
  Erase(plan, 1, "nop", 6);  // wait, re: threads that did not wait reduce at once
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r.violations[0].gpu, 1);
  EXPECT_EQ(r.violations[0].step, 7);
}

TEST(MscclppReplayTest, DataOpsOfOneBlockNeedANop) {
  PlanJson plan = AllgatherPlan(2, false);
  // copy i[0] -> o[0], then without a nop put o[0] (instead of i[0]) to the peer.
  Erase(plan, 0, "nop", 3);
  Ops(plan, 0)[4]["src_buff"][0] = Local("o", 0);
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_NE(r.violations[0].message.find("same thread block: only a nop orders"), std::string::npos)
      << Dump(r);
}

TEST(MscclppReplayTest, DoubleCountedReductionIsRejected) {
  PlanJson plan = ReduceScatterPlan(2, false);
  PlanJson& re = Ops(plan, 0)[8];
  ASSERT_EQ(re["name"], "re");
  re["src_buff"].push_back(Local("s", 1));
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kDoubleCount);
  EXPECT_NE(r.violations[0].message.find("both contain (rank 1, chunk 0)"), std::string::npos)
      << Dump(r);
}

TEST(MscclppReplayTest, MissingChunkIsPostcondition) {
  PlanJson plan = AllgatherPlan(3, false);
  Erase(plan, 2, "copy");
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kPostcondition);
  EXPECT_EQ(r.violations[0].message,
            "[outofplace] missing chunk: output chunk 2 of gpu 2 (gpu 2 o[2]) is never written");
  // A reduction that leaves a rank out.
  PlanJson ar = AllreducePlan(3, false);
  Ops(ar, 1)[8]["src_buff"].erase(2);
  const ReplayResult r2 = Replay(ar);
  EXPECT_REJECTED(r2, ReplayStage::kExecute, ReplayViolationKind::kPostcondition);
  EXPECT_NE(r2.violations[0].message.find("ends without (rank 2, chunk 1)"), std::string::npos)
      << Dump(r2);
}

TEST(MscclppReplayTest, WriteToInputOutOfPlace) {
  PlanJson plan = AllreducePlan(2, false);
  Ops(plan, 0)[8]["dst_buff"][0] = Local("i", 0);  // re into the input
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kInputWritten);
  // In place the same buffers alias and the plan is fine.
  PlanJson inplace = AllreducePlan(2, true);
  Ops(inplace, 0)[8]["dst_buff"][0] = Local("i", 0);
  EXPECT_TRUE(Replay(inplace).ok) << Dump(Replay(inplace));
}

TEST(MscclppReplayTest, UninitialisedScratchRead) {
  PlanJson plan = ReduceScatterPlan(2, false);
  Ops(plan, 1)[8]["src_buff"][1] = Local("s", 1);  // its own, never written, scratch slot
  EXPECT_REJECTED(Replay(plan), ReplayStage::kExecute, ReplayViolationKind::kUninitializedRead);
}

PlanJson SemOp(const char* name, int id) {
  PlanJson op = PlanOp(name);
  op["semaphore_ids"] = PlanJson::array({id});
  return op;
}
PlanJson BarrierOp(int id, int blocks) {
  PlanJson op = PlanOp("barrier");
  op["barrier_id"] = id;
  op["num_threadblocks"] = blocks;
  return op;
}

TEST(MscclppReplayTest, SemaphoresAndBarriersOrderBlocks) {
  // gpu 0 split in two blocks: tb 1 copies i[0] -> o[0] and releases a semaphore; tb 0
  // acquires it before putting o[0] (not i[0]) to the peer.
  PlanJson plan = AllgatherPlan(2, false);
  PlanJson& gpu = plan["gpus"][0];
  gpu["semaphores"] = PlanJson::array({PlanJson::object({{"init_value", 0}})});
  PlanJson tb1 = PlanJson::object();
  tb1["id"] = 1;
  tb1["channels"] = PlanJson::array();
  tb1["ops"] = PlanJson::array(
      {DataOp("copy", PlanJson::array({Local("i", 0)}), PlanJson::array({Local("o", 0)})),
       PlanOp("nop"), SemOp("sem_release", 0)});
  gpu["threadblocks"].push_back(tb1);
  PlanJson& ops = Ops(plan, 0);
  ops.erase(ops.begin() + 3, ops.begin() + 5);  // copy, nop
  ops[3]["src_buff"][0] = Local("o", 0);
  ops.insert(ops.begin() + 3, SemOp("sem_acquire", 0));
  ops.insert(ops.begin() + 4, PlanOp("nop"));
  const ReplayResult ok = Replay(plan);
  EXPECT_TRUE(ok.ok) << Dump(ok);
  // Without the nop after the acquire the put may read before the copy finished.
  PlanJson racy = plan;
  Ops(racy, 0).erase(4);
  EXPECT_REJECTED(Replay(racy), ReplayStage::kExecute, ReplayViolationKind::kRace);
  // The same order through a barrier over both blocks.
  PlanJson barrier = plan;
  Ops(barrier, 0)[3] = BarrierOp(0, 2);
  barrier["gpus"][0]["threadblocks"][1]["ops"][2] = BarrierOp(0, 2);
  EXPECT_TRUE(Replay(barrier).ok) << Dump(Replay(barrier));
  // An acquire with no release deadlocks.
  PlanJson stuck = plan;
  stuck["gpus"][0]["threadblocks"][1]["ops"].erase(2);
  EXPECT_REJECTED(Replay(stuck), ReplayStage::kExecute, ReplayViolationKind::kDeadlock);
}

// Two launches on the same buffers: a reduce-scatter with neither the start handshake nor the
// closing round. Launch 2's put from gpu 1 into gpu 0's scratch is ordered after nothing gpu 0
// did in launch 1 (its reduction may still be reading that scratch); either of the two
// rounds orders it.
TEST(MscclppReplayTest, NextLaunchRaceWithoutHandshakeOrClosingRound) {
  PlanJson plan = ReduceScatterPlan(2, false);
  for (int g = 0; g < 2; ++g) {
    PlanJson& ops = Ops(plan, g);
    ops.erase(ops.end() - 3, ops.end() - 1);  // the closing signal and wait
  }
  EXPECT_TRUE(Replay(plan).ok) << Dump(Replay(plan));
  for (int g = 0; g < 2; ++g) {
    PlanJson& ops = Ops(plan, g);
    ops.erase(ops.begin(), ops.begin() + 3);  // the start handshake
  }
  const ReplayResult r = Replay(plan);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r.violations[0].message,
            "[outofplace] gpu 1 tb 0 step 0 (put): write of gpu 0 s[1] is not ordered with the "
            "access by gpu 0 tb 0 step 5 (re) (no nop / signal-wait / semaphore / barrier chain "
            "orders them)");
  PlanJson closing = ReduceScatterPlan(2, false);
  for (int g = 0; g < 2; ++g) {
    PlanJson& ops = Ops(closing, g);
    ops.erase(ops.begin(), ops.begin() + 3);
  }
  EXPECT_TRUE(Replay(closing).ok) << Dump(Replay(closing));
  // A relaxed closing round suffices too: it orders gpu 0's completed reads of its scratch
  // before gpu 1's next writes (write after read), though it would not publish data.
  for (int g = 0; g < 2; ++g) {
    PlanJson& ops = Ops(closing, g);
    ops[ops.size() - 3]["name"] = "rlxsignal";
    ops[ops.size() - 2]["name"] = "rlxwait";
  }
  EXPECT_TRUE(Replay(closing).ok) << Dump(Replay(closing));
}

TEST(MscclppReplayTest, RelaxedSignalsCarryNoOrdering) {
  PlanJson plan = ReduceScatterPlan(2, false);
  Ops(plan, 0)[5]["name"] = "rlxsignal";
  EXPECT_REJECTED(Replay(plan), ReplayStage::kExecute, ReplayViolationKind::kRace);
}

std::string ReadData(const std::string& rel) {
  std::ifstream f(std::string(COLLSYNTH_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The MSCCL++ DSL's own 2-GPU in-place allreduce (tests/data/mscclpp/README.md).
TEST(MscclppReplayTest, DslReducePlanIsAccepted) {
  const std::string text = ReadData("tests/data/mscclpp/reduce.json");
  ASSERT_FALSE(text.empty());
  const ReplayResult r = ReplayMscclppPlan(text, "reduce.json", MscclppReplayOptions());
  ASSERT_TRUE(r.ok) << Dump(r);
  EXPECT_EQ(r.coll, "allreduce");
  EXPECT_EQ(r.ngpus, 2);
  EXPECT_EQ(r.nchunksperloop, 4);
  EXPECT_EQ(r.modes, std::vector<std::string>{"inplace"});
  ASSERT_EQ(r.bytes_per_pair.size(), 2u);
  EXPECT_EQ(r.bytes_per_pair[0].chunks, 4);  // 0 -> 1: rres 1 + res 1 written, rre 2 read
  EXPECT_EQ(r.bytes_per_pair[1].chunks, 4);  // 1 -> 0: rres 1 + get 1 read, put 2 written
  // Run out of place the same operations write the input: rejected.
  PlanJson plan = PlanJson::parse(text);
  plan["inplace"] = false;
  EXPECT_REJECTED(Replay(plan), ReplayStage::kExecute, ReplayViolationKind::kInputWritten);
  // Without the nop between gpu 1's rre (writes i[2..3]) and its copy (reads them): a race.
  PlanJson no_nop = PlanJson::parse(text);
  PlanJson& ops = Ops(no_nop, 1);
  ASSERT_EQ(ops[6]["name"], "rre");
  ASSERT_EQ(ops[7]["name"], "nop");
  ops.erase(7);
  const ReplayResult r2 = Replay(no_nop);
  EXPECT_REJECTED(r2, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_NE(r2.violations[0].message.find("same thread block"), std::string::npos) << Dump(r2);
  // Without gpu 0's last wait (and gpu 1's last signal, to keep the counts equal), gpu 1's put
  // into gpu 0's input is not known to gpu 0 when its kernel ends.
  PlanJson no_wait = PlanJson::parse(text);
  ASSERT_EQ(Ops(no_wait, 0)[13]["name"], "wait");
  ASSERT_EQ(Ops(no_wait, 1)[12]["name"], "signal");
  Ops(no_wait, 0).erase(13);
  Ops(no_wait, 1).erase(12);
  const ReplayResult r3 = Replay(no_wait);
  EXPECT_REJECTED(r3, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r3.violations[0].message,
            "[inplace] the caller of gpu 0 after launch 1: read of gpu 0 o[2] is not ordered "
            "with the access by gpu 1 tb 0 step 10 (put) (no nop / signal-wait / semaphore / "
            "barrier chain orders them)");
}

// Splits every gpu's one block into `parts` blocks that each do part b of every data
// operation (tbg_info) and synchronise on their own copy of the channel entries.
PlanJson Grouped(PlanJson plan, int parts) {
  const int n = plan["gpus"].size();
  for (PlanJson& gpu : plan["gpus"]) {
    const PlanJson list = gpu["channels"][0];
    const PlanJson block = gpu["threadblocks"][0];
    gpu["channels"] = PlanJson::array();
    gpu["threadblocks"] = PlanJson::array();
    for (int b = 0; b < parts; ++b) {
      gpu["channels"].push_back(list);
      PlanJson tb = block;
      tb["id"] = b;
      std::vector<int> ids;
      for (int k = 0; k + 1 < n; ++k) ids.push_back(b * (n - 1) + k);
      tb["channels"][0]["channel_ids"] = ids;
      for (PlanJson& op : tb["ops"]) {
        if (op.contains("src_buff")) op["tbg_info"] = {{"tb_id", b}, {"tbg_size", parts}};
      }
      gpu["threadblocks"].push_back(tb);
    }
  }
  return plan;
}

TEST(MscclppReplayTest, ThreadBlockGroupsSplitChunks) {
  for (const PlanJson& plan :
       {Grouped(AllgatherPlan(3, false), 2), Grouped(ReduceScatterPlan(2, true), 2),
        Grouped(AllreducePlan(3, false), 3), Grouped(AllreducePlan(2, true), 4)}) {
    const ReplayResult r = Replay(plan);
    EXPECT_TRUE(r.ok) << plan["collective"] << "\n" << Dump(r);
  }
  // gpu 1's blocks reduce each other's part: block 0 reads the part block 1 of gpu 0 put,
  // but it only waited for block 0 of gpu 0.
  PlanJson swapped = Grouped(ReduceScatterPlan(2, false), 2);
  for (int b = 0; b < 2; ++b) {
    PlanJson& re = swapped["gpus"][1]["threadblocks"][b]["ops"][8];
    ASSERT_EQ(re["name"], "re");
    re["tbg_info"]["tb_id"] = 1 - b;
  }
  const ReplayResult r = Replay(swapped);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_NE(r.violations[0].message.find("read of gpu 1 s[0 part 1/2] is not ordered with the "
                                         "access by gpu 0 tb 1 step 3 (put)"),
            std::string::npos)
      << Dump(r);
}

// The DSL's thread-block-group version of reduce.json has cross-block races: a group member
// reads and writes chunk parts that the peer's *other* member copied, with no signal from it.
// tb g of a group takes part g of each operation's whole range (calcOffset over the range in
// execution_plan.cc), so a 2-chunk copy splits by chunk while a 1-chunk rres splits the chunk.
TEST(MscclppReplayTest, DslReduceTbgPlanHasCrossBlockRaces) {
  const std::string text = ReadData("tests/data/mscclpp/reduce_tbg.json");
  ASSERT_FALSE(text.empty());
  const ReplayResult r = ReplayMscclppPlan(text, "reduce_tbg.json", MscclppReplayOptions());
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  ASSERT_EQ(r.violations_total, 3) << Dump(r);
  EXPECT_EQ(r.violations[0].message,
            "[inplace] gpu 0 tb 0 step 7 (get): read of gpu 1 s[1 part 0/2] is not ordered with "
            "the access by gpu 1 tb 1 step 0 (copy) (no nop / signal-wait / semaphore / barrier "
            "chain orders them)");
  EXPECT_EQ(r.violations[2].message,
            "[inplace] gpu 0 tb 1 step 6 (rres): read of gpu 1 s[0 part 1/2] is not ordered with "
            "the access by gpu 1 tb 0 step 0 (copy) (no nop / signal-wait / semaphore / barrier "
            "chain orders them)");
}

// The plan with every channel, remote buffer and operation on port channels instead of memory
// channels (put i hands dst_buff[i] to channel_ids[i]: the peers are in the same order), and
// a flush of the put's channels after it (with the put's dst_buff: handleFlush flushes one
// channel per dst_buff entry), so that each gpu knows the proxy has read its source before
// its kernel ends.
PlanJson ToPort(PlanJson plan) {
  const int n = plan["gpus"].size();
  for (PlanJson& gpu : plan["gpus"]) {
    for (PlanJson& c : gpu["channels"]) c["channel_type"] = "port";
    for (PlanJson& rb : gpu["remote_buffers"]) rb["access_channel_types"] = {"port"};
    for (PlanJson& tb : gpu["threadblocks"]) {
      for (PlanJson& c : tb["channels"]) c["channel_type"] = "port";
      for (PlanJson& r : tb["remote_buffer_refs"]) r["access_channel_type"] = "port";
      PlanJson ops = PlanJson::array();
      for (PlanJson op : tb["ops"]) {
        if (op.contains("channel_type")) op["channel_type"] = "port";
        if (op["name"] == "put") op["channel_ids"] = testing::AllPeers(n);
        ops.push_back(op);
        if (op["name"] == "put") {
          PlanJson flush = SyncOp("flush", testing::AllPeers(n));
          flush["channel_type"] = "port";
          flush["dst_buff"] = op["dst_buff"];
          ops.push_back(flush);
        }
      }
      tb["ops"] = ops;
    }
  }
  return plan;
}

TEST(MscclppReplayTest, PortChannelPutsGoThroughTheProxy) {
  const ReplayResult ok = Replay(ToPort(AllgatherPlan(3, false)));
  EXPECT_TRUE(ok.ok) << Dump(ok);
  ASSERT_EQ(ok.bytes_per_pair.size(), 6u);  // the flush's dst_buff moves nothing
  for (const ReplayPairChunks& p : ok.bytes_per_pair) EXPECT_EQ(p.chunks, 1);
  // pwsf: the proxy signals after the put, and the thread waits for the proxy.
  PlanJson pwsf = ToPort(AllgatherPlan(3, false));
  for (int g = 0; g < 3; ++g) {
    Ops(pwsf, g)[5]["name"] = "pwsf";
    Erase(pwsf, g, "flush");
    Erase(pwsf, g, "signal");
  }
  EXPECT_TRUE(Replay(pwsf).ok) << Dump(Replay(pwsf));
  // Each pwsf goes through the other peer's channel: the signal a peer receives comes from a
  // proxy that did not carry its data. (With put, flush of every channel, nop, signal the
  // same crossing is fine: after the nop every signal follows both completed puts.)
  PlanJson crossed = pwsf;
  for (int g = 0; g < 3; ++g) Ops(crossed, g)[5]["channel_ids"] = {1, 0};
  const ReplayResult r = Replay(crossed);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r.violations[0].message,
            "[outofplace] the caller of gpu 1 after launch 1: read of gpu 1 o[0] is not ordered "
            "with the access by gpu 0 tb 0 step 5 (pwsf) through the proxy of port channel "
            "entry 1 (no nop / signal-wait / semaphore / barrier chain orders them)");
  PlanJson flushed_crossed = ToPort(AllgatherPlan(3, false));
  for (int g = 0; g < 3; ++g) Ops(flushed_crossed, g)[5]["channel_ids"] = {1, 0};
  EXPECT_TRUE(Replay(flushed_crossed).ok) << Dump(Replay(flushed_crossed));
  // Without the flush nothing tells gpu 0 that its proxy has read the input.
  PlanJson unflushed = ToPort(AllgatherPlan(2, false));
  Erase(unflushed, 0, "flush");
  const ReplayResult u = Replay(unflushed);
  EXPECT_REJECTED(u, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(u.violations[0].message,
            "[outofplace] the caller of gpu 0 after launch 1: write of gpu 0 i[0] is not ordered "
            "with the access by gpu 0 tb 0 step 5 (put) through the proxy of port channel entry "
            "0 (no nop / signal-wait / semaphore / barrier chain orders them)");
}

TEST(MscclppReplayTest, PortPutSourceNeedsAFlushBeforeReuse) {
  // gpu 0 puts from scratch, flushes, then overwrites that scratch.
  PlanJson plan = ToPort(AllgatherPlan(2, false));
  PlanJson& ops = Ops(plan, 0);
  plan["gpus"][0]["scratch_chunks"] = 1;
  ops[3]["dst_buff"][0] = Local("s", 0);  // copy i[0] -> s[0]
  ops[5]["src_buff"][0] = Local("s", 0);  // put s[0]
  ASSERT_EQ(ops[6]["name"], "flush");
  ops.insert(ops.begin() + 7, PlanOp("nop"));
  ops.insert(ops.begin() + 8,
             DataOp("copy", PlanJson::array({Local("i", 0)}), PlanJson::array({Local("o", 0)})));
  ops.insert(ops.begin() + 9, PlanOp("nop"));
  ops.insert(ops.begin() + 10,
             DataOp("copy", PlanJson::array({Local("o", 0)}), PlanJson::array({Local("s", 0)})));
  // copy, nop, put, flush, nop, copy i->o, nop, copy o->s (the put's source), nop, signal, ...
  const ReplayResult f = Replay(plan);
  EXPECT_TRUE(f.ok) << Dump(f);
  // Without the flush the proxy may still be reading s[0].
  PlanJson racy = plan;
  Erase(racy, 0, "flush");
  const ReplayResult r = Replay(racy);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r.violations[0].message,
            "[outofplace] gpu 0 tb 0 step 9 (copy): write of gpu 0 s[0] is not ordered with the "
            "access by gpu 0 tb 0 step 5 (put) through the proxy of port channel entry 0 (no "
            "nop / signal-wait / semaphore / barrier chain orders them)");
  // The flush as the DSL writes it (no dst_buff) flushes nothing in the kernel: a note, and
  // the race stays.
  PlanJson dsl = plan;
  Ops(dsl, 0)[6].erase("dst_buff");
  const ReplayResult d = Replay(dsl);
  EXPECT_REJECTED(d, ReplayStage::kExecute, ReplayViolationKind::kRace);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("flush without dst_buff does nothing"), std::string::npos);
}

// Plans written by running the MSCCL++ DSL's own test programs (tests/data/mscclpp/README.md):
// single-node allgather (also with thread-block groups) and allreduce, and the multi-node
// allgather over port channels, are accepted; the multi-node reduce-scatter never flushes its
// pws, so each GPU's kernel may end while its proxy still reads the input.
TEST(MscclppReplayTest, DslWrittenPlans) {
  for (const char* name : {"dsl_single_node_allgather", "dsl_single_node_allgather_tbg",
                           "dsl_single_node_allreduce_2", "dsl_multi_node_allgather_gpn2"}) {
    const std::string text = ReadData(std::string("tests/data/mscclpp/") + name + ".json");
    ASSERT_FALSE(text.empty()) << name;
    const ReplayResult r = ReplayMscclppPlan(text, name, MscclppReplayOptions());
    EXPECT_TRUE(r.ok) << name << "\n" << Dump(r);
  }
  const ReplayResult r = ReplayMscclppPlan(
      ReadData("tests/data/mscclpp/dsl_multi_node_reducescatter_gpn2.json"), "rs", {});
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kRace);
  EXPECT_EQ(r.violations_total, 4) << Dump(r);
  EXPECT_EQ(r.violations[0].message,
            "[inplace] the caller of gpu 0 after launch 1: write of gpu 0 i[2] is not ordered "
            "with the access by gpu 0 tb 0 step 12 (pws) through the proxy of port channel "
            "entry 0 (no nop / signal-wait / semaphore / barrier chain orders them)");
  // With a flush of that channel after the pws (and a nop) on every GPU it is accepted.
  PlanJson fixed =
      PlanJson::parse(ReadData("tests/data/mscclpp/dsl_multi_node_reducescatter_gpn2.json"));
  for (int g = 0; g < 4; ++g) {
    PlanJson& ops = Ops(fixed, g);
    ASSERT_EQ(ops[12]["name"], "pws");
    PlanJson flush = SyncOp("flush", {0});
    flush["channel_type"] = "port";
    flush["dst_buff"] = ops[12]["dst_buff"];
    ops.insert(ops.begin() + 13, flush);
  }
  const ReplayResult f = ReplayMscclppPlan(fixed.dump(), "rs", {});
  EXPECT_TRUE(f.ok) << Dump(f);
}

// A gpu with no thread blocks still has its output checked (its kernels end at once).
TEST(MscclppReplayTest, GpuWithoutBlocksIsCheckedToo) {
  PlanJson plan = AllgatherPlan(2, false);
  plan["gpus"][1]["threadblocks"] = PlanJson::array();
  Erase(plan, 0, "wait");
  Erase(plan, 0, "rlxwait");
  const ReplayResult r = Replay(plan);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.violations[0].stage, ReplayStage::kFifo) << Dump(r);  // gpu 0's signals
  for (int k = 0; k < 2; ++k) Erase(plan, 0, k == 0 ? "signal" : "rlxsignal");
  const ReplayResult e = Replay(plan);
  EXPECT_REJECTED(e, ReplayStage::kExecute, ReplayViolationKind::kPostcondition);
  EXPECT_EQ(e.violations[0].message,
            "[outofplace] missing chunk: output chunk 0 of gpu 1 (gpu 1 o[0]) is never written")
      << Dump(e);
}

TEST(MscclppReplayTest, BadOptionsThrow) {
  MscclppReplayOptions o;
  o.max_violations = 0;
  EXPECT_THROW(ReplayMscclppPlan("{}", "x", o), std::invalid_argument);
}

TEST(MscclppReplayTest, SetElementBudgetIsALimit) {
  MscclppReplayOptions o;
  o.max_set_elements = 3;
  const ReplayResult r = ReplayMscclppPlan(AllreducePlan(4, false).dump(), "x", o);
  EXPECT_REJECTED(r, ReplayStage::kExecute, ReplayViolationKind::kLimit);
}

}  // namespace
}  // namespace collsynth
