// Stage 2 of the MSCCL++ plan replay checker (proofs_check/mscclpp_replay.h): pairs the
// memory channel entries of the GPUs as the executor connects them and checks signal/wait
// counts per directed channel pair. Internal to the checker. Complexity O(channel entries +
// operations).
//
// Pairing (executor.cc setupConnections, execution_plan.cc getUnpairedChannelInfos): each
// GPU's "channels" list is flattened per type in list order, one entry per connected peer;
// the k-th entry of A of one type that connects to B is paired with the k-th entry of B of
// that type that connects to A (per-peer tag counters; memory entries before port entries,
// the surplus of one side is connected to padding the other side's blocks cannot name). A
// signal on A's entry (also pws / pwsf on port channels) increments the inbound counter of
// B's paired entry; each wait on it consumes one.
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCLPP_PAIRING_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCLPP_PAIRING_H_

#include <utility>
#include <vector>

#include "proofs_check/mscclpp_plan.h"

namespace collsynth::mscclpp_check {

struct ChannelPairing {
  // Indexed [type][gpu][entry], type 0 memory, 1 port (the operation's Op::port).
  // partner: the (gpu, entry of that type) paired with the entry, or (-1, -1).
  std::vector<std::vector<std::pair<int, int>>> partner[2];
  // The one thread block of the gpu that signals (waits) on the entry, or -1.
  std::vector<std::vector<int>> signaler[2], waiter[2];
};

// Builds the pairing and reports (stage 2): an unpaired entry used by a signal or wait, signal
// and wait counts that differ on a directed channel pair (more waits than signals is a sure
// hang; more signals than waits leaves counts that let the next launch's waits pass early),
// and an entry signalled (or waited on) by two thread blocks (which wait gets which signal
// would depend on timing; not modelled).
ChannelPairing PairChannels(const Plan& plan, Reporter* rep);

}  // namespace collsynth::mscclpp_check

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCLPP_PAIRING_H_
