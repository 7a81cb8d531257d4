// CheckMscclProgramInvariants (msccl_program.h): the exporter's self-check of H1-H6.
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "export/msccl_program.h"

namespace collsynth {

std::vector<std::string> CheckMscclProgramInvariants(const MscclProgram& p,
                                                     const MscclExportOptions& o) {
  std::vector<std::string> v;
  const int max_steps = MscclMaxSteps(o.profile);
  if (p.nchannels < 1 || p.nchannels > o.max_channels) {
    v.push_back("H5: nchannels " + std::to_string(p.nchannels) + " outside 1.." +
                std::to_string(o.max_channels));
  }
  // Connector sequences: (src, dst, chan) -> cnts in document order, per side.
  std::map<std::tuple<int, int, int>, std::vector<int>> sent, received;
  // Steps as graph nodes: (gpu, tb, step) -> id.
  std::vector<std::vector<int>> base(p.gpus.size());
  int nodes = 0;
  for (std::size_t gi = 0; gi < p.gpus.size(); ++gi) {
    for (const MscclBlock& b : p.gpus[gi].blocks) {
      base[gi].push_back(nodes);
      nodes += static_cast<int>(b.steps.size());
    }
  }
  std::vector<std::vector<int>> succ(nodes);
  std::map<std::tuple<int, int, int>, std::vector<int>> send_nodes, recv_nodes;
  for (std::size_t gi = 0; gi < p.gpus.size(); ++gi) {
    const int gpu = static_cast<int>(gi);
    const MscclGpu& G = p.gpus[gi];
    const std::string at = "GPU " + std::to_string(gpu);
    if (static_cast<int>(G.blocks.size()) > o.max_tbs) {
      v.push_back("H4: " + at + " has " + std::to_string(G.blocks.size()) + " blocks > " +
                  std::to_string(o.max_tbs));
    }
    std::set<std::pair<int, int>> send_conn, recv_conn;
    std::map<int, int> senders_per_chan, receivers_per_chan;
    for (std::size_t bi = 0; bi < G.blocks.size(); ++bi) {
      const MscclBlock& b = G.blocks[bi];
      const std::string bt = at + " block " + std::to_string(bi);
      if (b.chan < 0 || b.chan >= p.nchannels)
        v.push_back("H5: " + bt + " chan " + std::to_string(b.chan) + " >= nchannels");
      for (int peer : {b.send, b.recv}) {
        if (peer < -1 || peer >= p.ngpus || peer == gpu)
          v.push_back(bt + ": bad peer " + std::to_string(peer));
      }
      if (b.send >= 0) {
        if (!send_conn.insert({b.chan, b.send}).second)
          v.push_back("H1: " + bt + " shares a send connector");
        ++senders_per_chan[b.chan];
      }
      if (b.recv >= 0) {
        if (!recv_conn.insert({b.chan, b.recv}).second)
          v.push_back("H1: " + bt + " shares a receive connector");
        ++receivers_per_chan[b.chan];
      }
      if (static_cast<int>(b.steps.size()) > max_steps) {
        v.push_back("H3: " + bt + " has " + std::to_string(b.steps.size()) + " steps > " +
                    std::to_string(max_steps));
      }
      for (std::size_t si = 0; si < b.steps.size(); ++si) {
        const MscclStep& s = b.steps[si];
        auto st = [&] { return bt + " step " + std::to_string(si); };  // only for a message
        const int id = base[gi][bi] + static_cast<int>(si);
        if (si > 0) succ[id - 1].push_back(id);
        if (s.cnt < 1 || s.cnt >= kMscclMaxCount)
          v.push_back(st() + ": cnt " + std::to_string(s.cnt) + " outside 1..71");
        const bool sends = s.type == "s" || s.type == "rcs" || s.type == "rrs" || s.type == "rrcs";
        const bool recvs = s.type == "r" || s.type == "rcs" || s.type == "rrs" || s.type == "rrc" ||
                           s.type == "rrcs";
        if (sends) {
          if (b.send < 0) v.push_back(st() + ": sends without a send peer");
          sent[{gpu, b.send, b.chan}].push_back(s.cnt);
          send_nodes[{gpu, b.send, b.chan}].push_back(id);
        }
        if (recvs) {
          if (b.recv < 0) v.push_back(st() + ": receives without a recv peer");
          received[{b.recv, gpu, b.chan}].push_back(s.cnt);
          recv_nodes[{b.recv, gpu, b.chan}].push_back(id);
        }
        for (auto [buf, off] :
             {std::make_pair(s.srcbuf, s.srcoff), std::make_pair(s.dstbuf, s.dstoff)}) {
          std::int64_t size = buf == 'i'   ? G.i_chunks
                              : buf == 'o' ? G.o_chunks
                              : buf == 's' ? G.s_chunks
                                           : -1;
          if (size < 0 || off < 0 || off + s.cnt > size) {
            v.push_back(st() + ": offset " + std::string(1, buf) + "[" + std::to_string(off) + "+" +
                        std::to_string(s.cnt) + "] outside the buffer");
          }
          if (off > kMscclMaxOffset) {
            v.push_back(st() + ": offset " + std::to_string(off) +
                        " does not fit the runtime's int16_t srcOffset/dstOffset");
          }
        }
        if ((s.depid < 0) != (s.deps < 0)) v.push_back(st() + ": depid/deps half set");
        if (s.depid >= kMscclMaxDependableBlocks) {
          v.push_back(st() + ": depid " + std::to_string(s.depid) +
                      " does not fit the runtime's int8_t dependentBid");
        }
        if (s.depid >= 0) {
          if (s.depid >= static_cast<int>(G.blocks.size()) ||
              s.deps >= static_cast<int>(G.blocks[s.depid].steps.size())) {
            v.push_back("H6: " + st() + " depends on a missing step");
          } else {
            if (!G.blocks[s.depid].steps[s.deps].hasdep)
              v.push_back("H6: " + st() + " depends on a step without hasdep");
            succ[base[gi][s.depid] + s.deps].push_back(id);
          }
        }
      }
    }
    for (const auto& [chan, count] : senders_per_chan) {
      if (count > kMscclMaxBlocksPerChannel)
        v.push_back("H4: " + at + " has more than 32 senders on channel " + std::to_string(chan));
    }
    for (const auto& [chan, count] : receivers_per_chan) {
      if (count > kMscclMaxBlocksPerChannel)
        v.push_back("H4: " + at + " has more than 32 receivers on channel " + std::to_string(chan));
    }
  }
  std::set<std::tuple<int, int, int>> connectors;
  for (const auto& [k, x] : sent) connectors.insert(k);
  for (const auto& [k, x] : received) connectors.insert(k);
  for (const auto& k : connectors) {
    if (sent[k] != received[k]) {
      v.push_back("H2: cnt sequences differ on (src " + std::to_string(std::get<0>(k)) + ", dst " +
                  std::to_string(std::get<1>(k)) + ", chan " + std::to_string(std::get<2>(k)) +
                  ")");
      continue;
    }
    for (std::size_t q = 0; q < send_nodes[k].size(); ++q)
      succ[send_nodes[k][q]].push_back(recv_nodes[k][q]);
  }
  // Acyclic (Kahn).
  std::vector<int> indeg(nodes, 0);
  for (const auto& s : succ) {
    for (int t : s) ++indeg[t];
  }
  std::vector<int> ready;
  for (int x = 0; x < nodes; ++x) {
    if (indeg[x] == 0) ready.push_back(x);
  }
  int done = 0;
  while (!ready.empty()) {
    int x = ready.back();
    ready.pop_back();
    ++done;
    for (int t : succ[x]) {
      if (--indeg[t] == 0) ready.push_back(t);
    }
  }
  if (done != nodes) v.push_back("H6: the dependency graph has a cycle");
  // Parser limits per rank (see kMscclMaxRankElements): only the loading rank's blocks and
  // steps are counted, next to <algo> and every <gpu>.
  const std::int64_t ngpus = static_cast<std::int64_t>(p.gpus.size());
  if (ngpus > kMscclExportMaxSubs) {
    v.push_back("parser: " + std::to_string(ngpus) + " gpus > " +
                std::to_string(kMscclExportMaxSubs) + " children of <algo> (MAX_SUBS)");
  }
  for (std::size_t r = 0; r < p.gpus.size(); ++r) {
    const MscclGpu& G = p.gpus[r];
    std::int64_t elements = 1 + ngpus + static_cast<std::int64_t>(G.blocks.size());
    for (const MscclBlock& b : G.blocks) elements += static_cast<std::int64_t>(b.steps.size());
    if (elements > kMscclMaxRankElements) {
      v.push_back("parser: rank " + std::to_string(r) + " counts " + std::to_string(elements) +
                  " elements > " + std::to_string(kMscclMaxRankElements) +
                  " (MAX_NODES - 1 per loading rank)");
    }
    if (static_cast<std::int64_t>(G.blocks.size()) > kMscclExportMaxSubs) {
      v.push_back("parser: rank " + std::to_string(r) + " has " + std::to_string(G.blocks.size()) +
                  " blocks > " + std::to_string(kMscclExportMaxSubs) + " (MAX_SUBS)");
    }
  }
  return v;
}

}  // namespace collsynth
