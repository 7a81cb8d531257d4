#include "proofs_check/mscclpp_pairing.h"

#include <map>
#include <string>

namespace collsynth::mscclpp_check {
namespace {

const char* TypeName(int type) { return type == 1 ? "port" : "memory"; }

std::string Entry(int type, int g, int e) {
  return "gpu " + std::to_string(g) + " " + TypeName(type) + " channel entry " + std::to_string(e);
}

const std::vector<int>& Peers(const Plan& plan, int type, int g) {
  return type == 1 ? plan.gpus[g].port_peer : plan.gpus[g].memory_peer;
}

// The entries an operation signals on (one per thread: channel_ids[t]; pws / pwsf signal on
// the channels of their dst_buff entries), and whether it waits instead.
bool Signals(const Op& op) {
  return op.type == OpType::kSignal || op.type == OpType::kRelaxedSignal ||
         op.type == OpType::kPutWithSignal || op.type == OpType::kPutWithSignalAndFlush;
}
std::size_t SignalCount(const Op& op) {
  const bool put = op.type == OpType::kPutWithSignal || op.type == OpType::kPutWithSignalAndFlush;
  return put ? op.dst.size() : op.channels.size();
}

}  // namespace

ChannelPairing PairChannels(const Plan& plan, Reporter* rep) {
  const int n = plan.ngpus;
  ChannelPairing p;
  for (int type = 0; type < 2; ++type) {
    p.partner[type].resize(n);
    p.signaler[type].resize(n);
    p.waiter[type].resize(n);
    // entries[{a, b}]: a's entries of this type that connect to b, in flattened order.
    std::map<std::pair<int, int>, std::vector<int>> entries;
    for (int g = 0; g < n; ++g) {
      const std::vector<int>& peers = Peers(plan, type, g);
      p.partner[type][g].assign(peers.size(), {-1, -1});
      p.signaler[type][g].assign(peers.size(), -1);
      p.waiter[type][g].assign(peers.size(), -1);
      for (int e = 0; e < static_cast<int>(peers.size()); ++e) {
        entries[{g, peers[e]}].push_back(e);
      }
    }
    for (const auto& [key, mine] : entries) {
      auto it = entries.find({key.second, key.first});
      const std::size_t theirs = it == entries.end() ? 0 : it->second.size();
      for (std::size_t k = 0; k < mine.size() && k < theirs; ++k) {
        p.partner[type][key.first][mine[k]] = {key.second, it->second[k]};
      }
    }
  }
  // Signals and waits per entry; the first (op) position of each, for messages.
  struct Use {
    long long signals = 0, waits = 0;
    int sig_tb = -1, sig_step = -1, wait_tb = -1, wait_step = -1;
  };
  std::vector<std::vector<Use>> use[2];
  for (int type = 0; type < 2; ++type) {
    use[type].resize(n);
    for (int g = 0; g < n; ++g) use[type][g].resize(Peers(plan, type, g).size());
  }
  for (int g = 0; g < n; ++g) {
    for (int b = 0; b < static_cast<int>(plan.gpus[g].tbs.size()); ++b) {
      const std::vector<Op>& ops = plan.gpus[g].tbs[b].ops;
      for (int s = 0; s < static_cast<int>(ops.size()); ++s) {
        const Op& op = ops[s];
        const bool sig = Signals(op);
        const bool wait = op.type == OpType::kWait || op.type == OpType::kRelaxedWait;
        if (!sig && !wait) continue;
        const int type = op.port ? 1 : 0;
        const std::size_t count = sig ? SignalCount(op) : op.channels.size();
        for (std::size_t t = 0; t < count && t < op.channels.size(); ++t) {
          const int e = op.channels[t];
          Use& u = use[type][g][e];
          int& owner = sig ? p.signaler[type][g][e] : p.waiter[type][g][e];
          if (owner >= 0 && owner != b) {
            rep->Add(ReplayStage::kFifo, Kind::kUnsupported,
                     Where(g, b, s) + ": " + (sig ? "signals" : "waits") + " on " +
                         Entry(type, g, e) + ", which tb " + std::to_string(owner) + " also " +
                         (sig ? "signals" : "waits") +
                         " on (two blocks on one channel entry: which wait receives which "
                         "signal depends on timing; not modelled)",
                     g, b, s);
            continue;
          }
          owner = b;
          const int peer = Peers(plan, type, g)[e];
          if (p.partner[type][g][e].first < 0) {
            rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch,
                     Where(g, b, s) + ": " + (sig ? "signals" : "waits") + " on " +
                         Entry(type, g, e) + " (to gpu " + std::to_string(peer) +
                         "), which is unpaired: gpu " + std::to_string(peer) + " lists fewer " +
                         TypeName(type) + " channels to gpu " + std::to_string(g) +
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
  for (int type = 0; type < 2; ++type) {
    for (int g = 0; g < n; ++g) {
      for (int e = 0; e < static_cast<int>(use[type][g].size()); ++e) {
        const auto [h, f] = p.partner[type][g][e];
        if (h < 0) continue;
        const Use& from = use[type][g][e];
        const Use& to = use[type][h][f];
        if (from.signals == to.waits) continue;
        std::string m = "channel " + Entry(type, g, e) + " -> " + Entry(type, h, f) + ": " +
                        std::to_string(from.signals) + " signal" + (from.signals == 1 ? "" : "s") +
                        " but " + std::to_string(to.waits) + " wait" + (to.waits == 1 ? "" : "s");
        if (to.waits > from.signals) {
          m += " (a sure hang: wait " + std::to_string(from.signals) + " of " +
               Where(h, to.wait_tb) + " never returns)";
          rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch, m, h, to.wait_tb, to.wait_step);
        } else {
          m += " (the leftover signals stay in the semaphore and let the next launch's waits "
               "return early)";
          rep->Add(ReplayStage::kFifo, Kind::kFifoMismatch, m, g, from.sig_tb, from.sig_step);
        }
      }
    }
  }
  return p;
}

}  // namespace collsynth::mscclpp_check
