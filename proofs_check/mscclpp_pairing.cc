#include "proofs_check/mscclpp_pairing.h"

#include <map>
#include <string>

namespace collsynth::mscclpp_check {
namespace {

std::string Entry(int g, int e) {
  return "gpu " + std::to_string(g) + " memory channel entry " + std::to_string(e);
}

}  // namespace

ChannelPairing PairChannels(const Plan& plan, Reporter* rep) {
  const int n = plan.ngpus;
  ChannelPairing p;
  p.partner.resize(n);
  p.signaler.resize(n);
  p.waiter.resize(n);
  // entries[{a, b}]: a's memory entries that connect to b, in flattened order.
  std::map<std::pair<int, int>, std::vector<int>> entries;
  for (int g = 0; g < n; ++g) {
    const std::vector<int>& peers = plan.gpus[g].memory_peer;
    p.partner[g].assign(peers.size(), {-1, -1});
    p.signaler[g].assign(peers.size(), -1);
    p.waiter[g].assign(peers.size(), -1);
    for (int e = 0; e < static_cast<int>(peers.size()); ++e) entries[{g, peers[e]}].push_back(e);
  }
  for (const auto& [key, mine] : entries) {
    auto it = entries.find({key.second, key.first});
    const std::size_t theirs = it == entries.end() ? 0 : it->second.size();
    for (std::size_t k = 0; k < mine.size() && k < theirs; ++k) {
      p.partner[key.first][mine[k]] = {key.second, it->second[k]};
    }
  }
  // Signals and waits per entry; the first (op) position of each, for messages.
  struct Use {
    long long signals = 0, waits = 0;
    int sig_tb = -1, sig_step = -1, wait_tb = -1, wait_step = -1;
  };
  std::vector<std::vector<Use>> use(n);
  for (int g = 0; g < n; ++g) {
    use[g].resize(plan.gpus[g].memory_peer.size());
    for (int b = 0; b < static_cast<int>(plan.gpus[g].tbs.size()); ++b) {
      const std::vector<Op>& ops = plan.gpus[g].tbs[b].ops;
      for (int s = 0; s < static_cast<int>(ops.size()); ++s) {
        const Op& op = ops[s];
        const bool sig = op.type == OpType::kSignal || op.type == OpType::kRelaxedSignal;
        const bool wait = op.type == OpType::kWait || op.type == OpType::kRelaxedWait;
        if (!sig && !wait) continue;
        for (int e : op.channels) {
          Use& u = use[g][e];
          int& owner = sig ? p.signaler[g][e] : p.waiter[g][e];
          if (owner >= 0 && owner != b) {
            rep->Add(ReplayStage::kFifo, Kind::kUnsupported,
                     Where(g, b, s) + ": " + (sig ? "signals" : "waits") + " on " + Entry(g, e) +
                         ", which tb " + std::to_string(owner) + " also " +
                         (sig ? "signals" : "waits") +
                         " on (two blocks on one channel entry: which wait receives which "
                         "signal depends on timing; not modelled)",
                     g, b, s);
            continue;
          }
          owner = b;
          if (p.partner[g][e].first < 0) {
            rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch,
                     Where(g, b, s) + ": " + (sig ? "signals" : "waits") + " on " + Entry(g, e) +
                         " (to gpu " + std::to_string(plan.gpus[g].memory_peer[e]) +
                         "), which is unpaired: gpu " +
                         std::to_string(plan.gpus[g].memory_peer[e]) +
                         " lists fewer memory channels to gpu " + std::to_string(g) +
                         (wait ? " (this wait never returns)" : " (no block can wait for it)"),
                     g, b, s);
            continue;
          }
          if (sig) {
            if (u.signals++ == 0) u.sig_tb = b, u.sig_step = s;
          } else {
            if (u.waits++ == 0) u.wait_tb = b, u.wait_step = s;
          }
        }
      }
    }
  }
  if (rep->total() > 0) return p;
  for (int g = 0; g < n; ++g) {
    for (int e = 0; e < static_cast<int>(use[g].size()); ++e) {
      const auto [h, f] = p.partner[g][e];
      if (h < 0) continue;
      const Use& from = use[g][e];
      const Use& to = use[h][f];
      if (from.signals == to.waits) continue;
      std::string m = "channel " + Entry(g, e) + " -> " + Entry(h, f) + ": " +
                      std::to_string(from.signals) + " signal" + (from.signals == 1 ? "" : "s") +
                      " but " + std::to_string(to.waits) + " wait" + (to.waits == 1 ? "" : "s");
      if (to.waits > from.signals) {
        m += " (a sure hang: wait " + std::to_string(from.signals) + " of " + Where(h, to.wait_tb) +
             " never returns)";
        rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch, m, h, to.wait_tb, to.wait_step);
      } else {
        m += " (the leftover signals stay in the semaphore and let the next launch's waits "
             "return early)";
        rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch, m, g, from.sig_tb, from.sig_step);
      }
    }
  }
  return p;
}

}  // namespace collsynth::mscclpp_check
