// Differential test of the replay checker's race detection (proofs_check/msccl_execution.h):
// the per-GPU vector clocks with the exact event-graph search as fallback (the default) and
// the search alone (OrderingMethod::kSearchOnly) must report the same violations, message for
// message, on randomly mutated test vectors (dropped and added dependencies, receives
// redirected to other cells). The two derive happens-before differently (clocks propagated
// along flags, or a search over recorded events), so a wrong clock entry or a missing event
// edge shows up as a difference. Mutations are drawn from TestSeed() (COLLSYNTH_SEED).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "fixtures/msccl_xml_fixtures.h"
#include "proofs_check/msccl_execution.h"
#include "proofs_check/msccl_model.h"
#include "proofs_check/msccl_replay.h"
#include "proofs_check/msccl_schema.h"
#include "proofs_check/msccl_xml_lexer.h"
#include "test_util.h"

namespace collsynth {
namespace {

using testing::XAlgo;

std::vector<XAlgo> Fixtures() {
  return {testing::RingAllgather(4, 1, false),
          testing::RingAllgather(3, 2, true),
          testing::Allreduce2(),
          testing::RingAllreduce(4),
          testing::ScratchReduceScatter3(),
          testing::ChainBroadcast(4, 2),
          testing::StarReduceScatter3(),
          testing::DirectAllgather(4),
          testing::RingReduceScatter(4)};
}

// One random mutation of `a` (it may make the file invalid at any stage).
void Mutate(XAlgo* a, std::mt19937_64* rng) {
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<std::uint64_t>(n)); };
  testing::XGpu& g = a->gpus[pick(static_cast<int>(a->gpus.size()))];
  if (g.tbs.empty()) return;
  testing::XTb& t = g.tbs[pick(static_cast<int>(g.tbs.size()))];
  if (t.steps.empty()) return;
  const int si = pick(static_cast<int>(t.steps.size()));
  testing::XStep& st = t.steps[si];
  switch (pick(3)) {
    case 0:  // drop a dependency
      st.depid = st.deps = -1;
      break;
    case 1: {  // wait for a random step of a random block of the same GPU
      const int tb = pick(static_cast<int>(g.tbs.size()));
      if (g.tbs[tb].steps.empty()) break;
      const int step = pick(static_cast<int>(g.tbs[tb].steps.size()));
      if (&g.tbs[tb] == &t && step >= si) break;
      st.depid = tb;
      st.deps = step;
      g.tbs[tb].steps[step].hasdep = 1;
      break;
    }
    default:  // redirect a write to another cell of the same buffer
      if (st.dstbuf == "o" && g.o_chunks > 1) st.dstoff = pick(g.o_chunks);
      break;
  }
}

struct Outcome {
  bool ran = false;  // stages 0-2 passed
  std::vector<std::string> violations;
  std::int64_t total = 0;
  bool race = false;
};

Outcome Replay(const std::string& xml, msccl::OrderingMethod method) {
  Outcome out;
  ReplayOptions o;
  ReplayResult result;
  msccl::Reporter rep(&result, 1000);
  const MscclXmlDocument doc = LexMscclXml(xml);
  if (!doc.ok) return out;
  msccl::Algo algo;
  msccl::ReadMscclSchema(doc, o, &rep, &algo, &result);
  if (rep.total() > 0) return out;
  const std::vector<msccl::Connector> conns = msccl::BuildConnectors(algo);
  msccl::CheckFifoMatching(algo, conns, &rep);
  if (rep.total() > 0) return out;
  out.ran = true;
  for (bool inplace : {true, false}) {
    if (!(inplace ? algo.inplace : algo.outofplace)) continue;
    for (int depth : {1, 2}) {
      msccl::ExecuteSymbolically(algo, conns, o, inplace, depth, &rep, method);
    }
  }
  for (const ReplayViolation& v : result.violations) {
    out.violations.push_back(std::string(ReplayViolationKindName(v.kind)) + ": " + v.message);
    out.race = out.race || v.kind == ReplayViolationKind::kRace;
  }
  out.total = result.violations_total;
  return out;
}

TEST(MscclOrderingDifferential, GpuClocksAndSearchAloneAgreeOnMutants) {
  const std::uint64_t seed = testing::TestSeed();
  std::mt19937_64 rng(seed);
  int executed = 0, with_race = 0, accepted = 0;
  const std::vector<XAlgo> fixtures = Fixtures();
  for (int trial = 0; trial < 400; ++trial) {
    XAlgo a = fixtures[trial % fixtures.size()];
    const int mutations = 1 + static_cast<int>(rng() % 3);
    for (int m = 0; m < mutations; ++m) Mutate(&a, &rng);
    const std::string xml = testing::ToXml(a);
    const Outcome fast = Replay(xml, msccl::OrderingMethod::kGpuClocksThenSearch);
    const Outcome exact = Replay(xml, msccl::OrderingMethod::kSearchOnly);
    ASSERT_EQ(fast.ran, exact.ran);
    if (!fast.ran) continue;
    ++executed;
    with_race += fast.race ? 1 : 0;
    accepted += fast.total == 0 ? 1 : 0;
    ASSERT_EQ(fast.violations, exact.violations) << "seed " << seed << " trial " << trial;
    ASSERT_EQ(fast.total, exact.total) << "seed " << seed << " trial " << trial;
  }
  // The mutants reach stage 3 and cover both verdicts, races included.
  EXPECT_GT(executed, 200) << "seed " << seed;
  EXPECT_GT(with_race, 5) << "seed " << seed;
  EXPECT_GT(accepted, 20) << "seed " << seed;
}

}  // namespace
}  // namespace collsynth
