// Checker of per-rank Chakra execution traces (chakra_trace_check.h).
#include "proofs_check/chakra_trace_check.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace collsynth {
namespace {

constexpr std::size_t kMaxListed = 20;

// A node of the set: rank and index in the rank's trace.
struct NodeRef {
  int rank = 0;
  std::uint64_t index = 0;
};

class Violations {
 public:
  explicit Violations(ChakraTraceReport* report) : r_(report) {}
  void Add(const std::string& what) {
    ++r_->violations_total;
    if (r_->violations.size() < kMaxListed) r_->violations.push_back(what);
  }
  bool Any() const { return r_->violations_total > 0; }

 private:
  ChakraTraceReport* r_;
};

std::string Where(const std::vector<ChakraRankTrace>& ranks, NodeRef n) {
  return ranks[n.rank].file + ": node " + std::to_string(n.index) + " (id " +
         std::to_string(ranks[n.rank].nodes[n.index].id) + ")";
}

const char* KindName(ChakraTraceNodeType t) {
  return t == ChakraTraceNodeType::kSend   ? "SEND"
         : t == ChakraTraceNodeType::kRecv ? "RECV"
                                           : "COMP";
}

// Stage 1.
void CheckStructure(const std::vector<ChakraRankTrace>& ranks, int expected_ranks,
                    Violations& bad) {
  const int n = static_cast<int>(ranks.size());
  if (n != expected_ranks) {
    bad.Add(std::to_string(n) + " trace files for " + std::to_string(expected_ranks) + " ranks");
    return;
  }
  for (int r = 0; r < n; ++r) {
    const ChakraRankTrace& t = ranks[r];
    if (t.nodes.empty()) bad.Add(t.file + ": rank " + std::to_string(r) + " has no node");
    for (std::uint64_t i = 0; i < t.nodes.size(); ++i) {
      const ChakraTraceNode& x = t.nodes[i];
      if (x.type == ChakraTraceNodeType::kComp) continue;
      const bool send = x.type == ChakraTraceNodeType::kSend;
      const std::int32_t own = send ? x.comm_src : x.comm_dst;
      const std::int32_t peer = send ? x.comm_dst : x.comm_src;
      const std::string where = Where(ranks, {r, i}) + ": " + KindName(x.type);
      if (own != r) {
        bad.Add(where + std::string(send ? " with comm_src " : " with comm_dst ") +
                std::to_string(own) + " on rank " + std::to_string(r));
      }
      if (peer < 0 || peer >= n || peer == r) {
        bad.Add(where + " with peer " + std::to_string(peer) + ", not another of the " +
                std::to_string(n) + " ranks");
      }
      if (x.comm_size <= 0) bad.Add(where + " of comm_size " + std::to_string(x.comm_size));
    }
  }
}

using Key = std::tuple<std::int32_t, std::int32_t, std::int32_t>;  // (src, dst, tag)

// Stage 2: fills recv_of_send (the matching RECV of every SEND) and the bytes per pair.
void MatchSendsAndReceives(const std::vector<ChakraRankTrace>& ranks, Violations& bad,
                           std::map<std::pair<int, int>, std::int64_t>* bytes,
                           std::vector<std::pair<NodeRef, NodeRef>>* matches,
                           ChakraTraceReport* report) {
  std::map<Key, NodeRef> sends, recvs;
  for (int r = 0; r < static_cast<int>(ranks.size()); ++r) {
    for (std::uint64_t i = 0; i < ranks[r].nodes.size(); ++i) {
      const ChakraTraceNode& x = ranks[r].nodes[i];
      if (x.type == ChakraTraceNodeType::kComp) continue;
      const bool send = x.type == ChakraTraceNodeType::kSend;
      if (send) ++report->sends;
      const Key key{x.comm_src, x.comm_dst, x.comm_tag};
      auto [it, fresh] = (send ? sends : recvs).emplace(key, NodeRef{r, i});
      if (!fresh) {
        bad.Add(Where(ranks, {r, i}) + ": a second " + KindName(x.type) + " " +
                std::to_string(x.comm_src) + " -> " + std::to_string(x.comm_dst) + " with tag " +
                std::to_string(x.comm_tag) + " (the first: " + Where(ranks, it->second) +
                "; ASTRA-sim would match them first come first served)");
      }
    }
  }
  auto s = sends.begin();
  auto v = recvs.begin();
  while (s != sends.end() || v != recvs.end()) {
    if (v == recvs.end() || (s != sends.end() && s->first < v->first)) {
      bad.Add(Where(ranks, s->second) + ": SEND " + std::to_string(std::get<0>(s->first)) + " -> " +
              std::to_string(std::get<1>(s->first)) + " with tag " +
              std::to_string(std::get<2>(s->first)) + " has no RECV");
      ++s;
    } else if (s == sends.end() || v->first < s->first) {
      bad.Add(Where(ranks, v->second) + ": RECV " + std::to_string(std::get<0>(v->first)) + " -> " +
              std::to_string(std::get<1>(v->first)) + " with tag " +
              std::to_string(std::get<2>(v->first)) + " has no SEND");
      ++v;
    } else {
      const ChakraTraceNode& x = ranks[s->second.rank].nodes[s->second.index];
      const ChakraTraceNode& y = ranks[v->second.rank].nodes[v->second.index];
      if (x.comm_size != y.comm_size) {
        bad.Add(Where(ranks, v->second) + ": RECV of " + std::to_string(y.comm_size) +
                " bytes, its SEND (" + Where(ranks, s->second) + ") has " +
                std::to_string(x.comm_size));
      } else {
        std::int64_t& sum = (*bytes)[{std::get<0>(s->first), std::get<1>(s->first)}];
        if (__builtin_add_overflow(sum, x.comm_size, &sum)) {
          bad.Add(Where(ranks, s->second) + ": the bytes from rank " +
                  std::to_string(std::get<0>(s->first)) + " to rank " +
                  std::to_string(std::get<1>(s->first)) + " exceed 2^63 - 1");
        }
        matches->push_back({s->second, v->second});
      }
      ++s;
      ++v;
    }
  }
}

// Stage 3: Kahn's algorithm on the global graph; on a cycle, walks back along unfinished
// predecessors (every unfinished node has one) until a node repeats.
void CheckAcyclic(const std::vector<ChakraRankTrace>& ranks,
                  const std::vector<std::pair<NodeRef, NodeRef>>& matches, Violations& bad) {
  const int n = static_cast<int>(ranks.size());
  std::vector<std::uint64_t> offset(n + 1, 0);
  for (int r = 0; r < n; ++r) offset[r + 1] = offset[r] + ranks[r].nodes.size();
  const std::uint64_t total = offset[n];
  auto global = [&](NodeRef x) { return offset[x.rank] + x.index; };
  // The SEND a RECV waits for (global index + 1; 0: none).
  std::vector<std::uint64_t> send_of(total, 0);
  for (const auto& [s, v] : matches) send_of[global(v)] = global(s) + 1;
  auto for_each_pred = [&](int r, std::uint64_t i, const auto& f) {
    const ChakraRankTrace& t = ranks[r];
    const ChakraTraceNode& x = t.nodes[i];
    for (std::uint64_t d = x.deps_begin; d < x.deps_end; ++d) f(offset[r] + t.deps[d]);
    if (const std::uint64_t s = send_of[offset[r] + i]; s != 0) f(s - 1);
  };
  std::vector<std::uint64_t> indegree(total, 0), succ_first(total + 1, 0);
  for (int r = 0; r < n; ++r) {
    for (std::uint64_t i = 0; i < ranks[r].nodes.size(); ++i) {
      for_each_pred(r, i, [&](std::uint64_t p) {
        ++indegree[offset[r] + i];
        ++succ_first[p + 1];
      });
    }
  }
  for (std::uint64_t g = 0; g < total; ++g) succ_first[g + 1] += succ_first[g];
  std::vector<std::uint64_t> succ(succ_first[total]);
  {
    std::vector<std::uint64_t> fill(succ_first.begin(), succ_first.end() - 1);
    for (int r = 0; r < n; ++r) {
      for (std::uint64_t i = 0; i < ranks[r].nodes.size(); ++i) {
        for_each_pred(r, i, [&](std::uint64_t p) { succ[fill[p]++] = offset[r] + i; });
      }
    }
  }
  std::vector<std::uint64_t> ready;
  for (std::uint64_t g = 0; g < total; ++g) {
    if (indegree[g] == 0) ready.push_back(g);
  }
  std::vector<char> done(total, 0);
  std::uint64_t finished = 0;
  while (!ready.empty()) {
    const std::uint64_t g = ready.back();
    ready.pop_back();
    done[g] = 1;
    ++finished;
    for (std::uint64_t k = succ_first[g]; k < succ_first[g + 1]; ++k) {
      if (--indegree[succ[k]] == 0) ready.push_back(succ[k]);
    }
  }
  if (finished == total) return;
  auto ref = [&](std::uint64_t g) {
    const int r =
        static_cast<int>(std::upper_bound(offset.begin(), offset.end(), g) - offset.begin()) - 1;
    return NodeRef{r, g - offset[r]};
  };
  std::uint64_t g = 0;
  while (done[g]) ++g;
  std::vector<std::uint64_t> seen_at(total, 0);  // position on the walk + 1
  std::vector<std::uint64_t> walk;
  while (seen_at[g] == 0) {
    walk.push_back(g);
    seen_at[g] = walk.size();
    const NodeRef x = ref(g);
    std::uint64_t next = g;
    bool found = false;
    for_each_pred(x.rank, x.index, [&](std::uint64_t p) {
      if (!found && !done[p]) {
        next = p;
        found = true;
      }
    });
    g = next;
  }
  // walk[seen_at[g] - 1 ..] is the cycle, each waiting for the next; print it in run order.
  std::string cycle;
  constexpr std::size_t kMaxShown = 8;
  std::vector<std::uint64_t> nodes(walk.begin() + static_cast<std::ptrdiff_t>(seen_at[g] - 1),
                                   walk.end());
  std::reverse(nodes.begin(), nodes.end());
  for (std::size_t k = 0; k < nodes.size() && k < kMaxShown; ++k) {
    cycle += (k > 0 ? " -> " : "") + Where(ranks, ref(nodes[k]));
  }
  if (nodes.size() > kMaxShown) cycle += " -> ... (" + std::to_string(nodes.size()) + " nodes)";
  bad.Add("the dependencies and SEND -> RECV edges form a cycle (" +
          std::to_string(total - finished) + " nodes can never run): " + cycle);
}

// Stage 4.
void CheckBytes(const std::map<std::pair<int, int>, std::int64_t>& traced,
                const ChakraTraceExpectation& expected, Violations& bad) {
  std::map<std::pair<int, int>, std::int64_t> want;
  for (const ChakraPairBytes& p : expected.bytes_per_pair) {
    if (p.bytes != 0) want[{p.src, p.dst}] += p.bytes;
  }
  auto t = traced.begin();
  auto w = want.begin();
  auto pair_name = [](const std::pair<int, int>& p) {
    return "rank " + std::to_string(p.first) + " -> rank " + std::to_string(p.second);
  };
  while (t != traced.end() || w != want.end()) {
    if (w == want.end() || (t != traced.end() && t->first < w->first)) {
      bad.Add(pair_name(t->first) + ": the traces send " + std::to_string(t->second) +
              " bytes, the program 0");
      ++t;
    } else if (t == traced.end() || w->first < t->first) {
      bad.Add(pair_name(w->first) + ": the traces send 0 bytes, the program " +
              std::to_string(w->second));
      ++w;
    } else {
      if (t->second != w->second) {
        bad.Add(pair_name(t->first) + ": the traces send " + std::to_string(t->second) +
                " bytes, the program " + std::to_string(w->second));
      }
      ++t;
      ++w;
    }
  }
}

}  // namespace

ChakraTraceReport CheckChakraTraceSet(const std::vector<ChakraRankTrace>& ranks, int expected_ranks,
                                      const std::optional<ChakraTraceExpectation>& expected) {
  ChakraTraceReport report;
  Violations bad(&report);
  for (const ChakraRankTrace& t : ranks) report.nodes += static_cast<std::int64_t>(t.nodes.size());
  report.stage = ChakraTraceStage::kStructure;
  CheckStructure(ranks, expected_ranks, bad);
  if (bad.Any()) return report;
  report.stage = ChakraTraceStage::kMatching;
  std::map<std::pair<int, int>, std::int64_t> bytes;
  std::vector<std::pair<NodeRef, NodeRef>> matches;
  MatchSendsAndReceives(ranks, bad, &bytes, &matches, &report);
  for (const auto& [pair, b] : bytes) report.bytes_per_pair.push_back({pair.first, pair.second, b});
  if (bad.Any()) return report;
  report.stage = ChakraTraceStage::kAcyclic;
  CheckAcyclic(ranks, matches, bad);
  if (bad.Any()) return report;
  if (expected) {
    report.stage = ChakraTraceStage::kBytes;
    CheckBytes(bytes, *expected, bad);
    if (bad.Any()) return report;
  }
  report.ok = true;
  return report;
}

}  // namespace collsynth
