// Test-only symbolic execution of an MscclProgram (one chunk loop): every cell holds the
// multiset of (origin rank, origin chunk) contributions; FIFOs per (src, dst, chan) with a
// given capacity in steps; blocks run in program order, honouring depid/deps. Checks the
// postcondition of allgather / reduce-scatter / allreduce / broadcast, in and out of place.
// Written for the exporter's tests from the runtime semantics in docs/export.md "Runtime facts";
// the independent replay checker lives in proofs_check/.
#ifndef COLLSYNTH_TESTS_EXPORT_MSCCL_SIM_H_
#define COLLSYNTH_TESTS_EXPORT_MSCCL_SIM_H_

#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "export/msccl_program.h"

namespace collsynth::testing {

using Value = std::multiset<std::pair<int, std::int64_t>>;  // (origin rank, origin chunk)

// Runs the program (one chunk loop); returns "" or what went wrong.
inline std::string Simulate(const MscclProgram& p, const std::string& coll, bool inplace, int root,
                            std::size_t capacity,
                            std::map<std::tuple<int, char, std::int64_t>, Value>* cells) {
  const int n = p.ngpus;
  const std::int64_t total = p.nchunksperloop;
  const std::int64_t per = coll == "broadcast" ? total : total / n;
  auto& c = *cells;
  for (int r = 0; r < n; ++r) {
    if (coll == "allgather") {
      for (std::int64_t t = 0; t < per; ++t)
        c[{r, inplace ? 'o' : 'i', inplace ? r * per + t : t}] = {{r, r * per + t}};
    } else if (coll == "broadcast") {
      if (r == root) {
        for (std::int64_t t = 0; t < per; ++t) c[{r, inplace ? 'o' : 'i', t}] = {{r, t}};
      }
    } else {
      char in = coll == "allreduce" && inplace ? 'o' : 'i';
      for (std::int64_t x = 0; x < total; ++x) c[{r, in, x}] = {{r, x}};
    }
  }
  std::map<std::tuple<int, int, int>, std::deque<std::vector<Value>>> fifo;
  std::vector<std::vector<std::size_t>> pc(n);
  for (int r = 0; r < n; ++r) pc[r].assign(p.gpus[r].blocks.size(), 0);
  auto read = [&](int r, char buf, std::int64_t off, int cnt, std::vector<Value>* out) {
    for (int k = 0; k < cnt; ++k) {
      auto it = c.find({r, buf, off + k});
      if (it == c.end()) return false;
      out->push_back(it->second);
    }
    return true;
  };
  bool progress = true;
  while (progress) {
    progress = false;
    for (int r = 0; r < n; ++r) {
      for (std::size_t b = 0; b < p.gpus[r].blocks.size(); ++b) {
        const MscclBlock& tb = p.gpus[r].blocks[b];
        while (pc[r][b] < tb.steps.size()) {
          const MscclStep& s = tb.steps[pc[r][b]];
          if (s.depid >= 0 && pc[r][s.depid] <= static_cast<std::size_t>(s.deps)) break;
          std::vector<Value> in, local;
          const bool forwards = s.type == "rcs" || s.type == "rrs";
          if (forwards && fifo[{r, tb.send, tb.chan}].size() >= capacity) break;
          if (s.type == "r" || s.type == "rrc" || forwards) {
            auto& q = fifo[{tb.recv, r, tb.chan}];
            if (q.empty()) break;
            in = q.front();
            q.pop_front();
            if (static_cast<int>(in.size()) != s.cnt) return "cnt mismatch";
          }
          if (s.type == "s") {
            auto& q = fifo[{r, tb.send, tb.chan}];
            if (q.size() >= capacity) break;
            if (!read(r, s.srcbuf, s.srcoff, s.cnt, &local)) return "send of uninitialised data";
            q.push_back(local);
          } else if (s.type == "r") {
            for (int k = 0; k < s.cnt; ++k) c[{r, s.dstbuf, s.dstoff + k}] = in[k];
          } else if (s.type == "rrc") {
            if (!read(r, s.srcbuf, s.srcoff, s.cnt, &local))
              return "reduction with uninitialised data";
            for (int k = 0; k < s.cnt; ++k) {
              Value v = in[k];
              v.insert(local[k].begin(), local[k].end());
              c[{r, s.dstbuf, s.dstoff + k}] = v;
            }
          } else if (s.type == "rcs") {
            for (int k = 0; k < s.cnt; ++k) c[{r, s.dstbuf, s.dstoff + k}] = in[k];
            fifo[{r, tb.send, tb.chan}].push_back(in);
          } else if (s.type == "rrs") {
            if (!read(r, s.srcbuf, s.srcoff, s.cnt, &local))
              return "reduction with uninitialised data";
            for (int k = 0; k < s.cnt; ++k) in[k].insert(local[k].begin(), local[k].end());
            fifo[{r, tb.send, tb.chan}].push_back(in);
          } else if (s.type == "cpy") {
            if (!read(r, s.srcbuf, s.srcoff, s.cnt, &local)) return "copy of uninitialised data";
            for (int k = 0; k < s.cnt; ++k) c[{r, s.dstbuf, s.dstoff + k}] = local[k];
          } else {
            return "unexpected step type " + s.type;
          }
          ++pc[r][b];
          progress = true;
        }
      }
    }
  }
  for (int r = 0; r < n; ++r) {
    for (std::size_t b = 0; b < p.gpus[r].blocks.size(); ++b) {
      if (pc[r][b] < p.gpus[r].blocks[b].steps.size())
        return "deadlock at GPU " + std::to_string(r);
    }
  }
  for (const auto& [k, q] : fifo) {
    if (!q.empty()) return "data left in a FIFO";
  }
  // Postconditions.
  for (int r = 0; r < n; ++r) {
    if (coll == "allgather" || coll == "broadcast") {
      for (std::int64_t x = 0; x < total; ++x) {
        int owner = coll == "broadcast" ? root : static_cast<int>(x / per);
        Value want{{owner, x}};
        if (c[{r, 'o', x}] != want)
          return "output chunk " + std::to_string(x) + " wrong at GPU " + std::to_string(r);
      }
    } else if (coll == "reduce-scatter") {
      for (std::int64_t t = 0; t < per; ++t) {
        Value want;
        for (int q = 0; q < n; ++q) want.insert({q, r * per + t});
        std::tuple<int, char, std::int64_t> at{r, inplace ? 'i' : 'o', inplace ? r * per + t : t};
        if (c[at] != want)
          return "result chunk " + std::to_string(t) + " wrong at GPU " + std::to_string(r);
      }
      if (!inplace) {
        for (std::int64_t x = 0; x < total; ++x) {
          if (c[{r, 'i', x}] != Value{{r, x}}) return "out-of-place input written";
        }
      }
    } else {
      for (std::int64_t x = 0; x < total; ++x) {
        Value want;
        for (int q = 0; q < n; ++q) want.insert({q, x});
        if (c[{r, 'o', x}] != want)
          return "allreduce chunk " + std::to_string(x) + " wrong at GPU " + std::to_string(r);
      }
    }
  }
  return "";
}

inline std::string RunBoth(const MscclProgram& p, const std::string& coll, bool inplace,
                           int root = 0) {
  for (std::size_t capacity : {std::size_t{1}, std::size_t{1} << 30}) {
    std::map<std::tuple<int, char, std::int64_t>, Value> cells;
    std::string e = Simulate(p, coll, inplace, root, capacity, &cells);
    if (!e.empty()) return e + " (FIFO capacity " + std::to_string(capacity) + ")";
  }
  return "";
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_EXPORT_MSCCL_SIM_H_
