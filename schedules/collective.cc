#include "schedules/collective.h"

namespace collsynth {

const char* CollectiveName(Collective c) {
  switch (c) {
    case Collective::kAllgather:
      return "allgather";
    case Collective::kReduceScatter:
      return "reduce-scatter";
    case Collective::kAllreduce:
      return "allreduce";
    case Collective::kBroadcast:
      return "broadcast";
    case Collective::kAlltoall:
      return "alltoall";
  }
  return "?";  // not reached: every enumerator is listed
}

std::optional<Collective> ParseCollective(std::string_view text) {
  for (Collective c : kAllCollectives) {
    if (text == CollectiveName(c)) return c;
  }
  return std::nullopt;
}

}  // namespace collsynth
