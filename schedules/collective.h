// Collective: the collective operation a schedule implements (seed 000 §2, seed 004 §2): one
// enum for the data model (schedules/), the producers (solvers/), the checkers
// (proofs_check/), the experiments and the CLI. Its spelling in JSON files and on the
// command line is CollectiveName's ("allgather", "reduce-scatter", "allreduce",
// "broadcast", "alltoall"; docs/formats.md). Not every component handles every collective: BFB and
// the baselines build allgather, reduce-scatter and allreduce only; each says so where it parses
// its input. Cost: O(1). Never prints.
#ifndef COLLSYNTH_SCHEDULES_COLLECTIVE_H_
#define COLLSYNTH_SCHEDULES_COLLECTIVE_H_

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace collsynth {

enum class Collective {
  kAllgather,      // every compute node ends with every shard
  kReduceScatter,  // the transpose of allgather (seed 000 Cor. 3.1): node v ends with the reduced
                   // shard v
  kAllreduce,      // reduce-scatter, then allgather
  kBroadcast,      // one root's data reaches every compute node
  kAlltoall,  // every compute node sends its own block to every other (the "flows" format only)
};

// The collectives of the tree and step schedules ("steps", "steps-compact", "pipeline",
// "pipeline-symmetric"), in declaration order: ParseCollective's domain. kAlltoall is not among
// them: it is the collective of the "flows" format only, whose reader spells it itself.
inline constexpr std::array<Collective, 4> kAllCollectives = {
    Collective::kAllgather, Collective::kReduceScatter, Collective::kAllreduce,
    Collective::kBroadcast};

// The exact JSON / CLI spelling: "allgather", "reduce-scatter", "allreduce", "broadcast",
// "alltoall".
const char* CollectiveName(Collective c);

// The collective of kAllCollectives spelled `text` (exactly CollectiveName's spelling,
// case-sensitive; "alltoall" is not parsed here), or
// std::nullopt for anything else. Callers turn nullopt into their own InputError message.
std::optional<Collective> ParseCollective(std::string_view text);

}  // namespace collsynth

#endif  // COLLSYNTH_SCHEDULES_COLLECTIVE_H_
