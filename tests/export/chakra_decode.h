// Test-only decoder of Chakra ET files (a stream of varint-length-delimited protobuf
// messages: GlobalMetadata, then Nodes; mlcommons/chakra schema/protobuf/et_def.proto),
// written from the protobuf encoding rules independently of export/protobuf_wire.h, and a
// checker of a set of per-rank traces against what ASTRA-sim's custom-collective reader
// needs: known node types, unique ids, data_deps naming existing nodes, every SEND matched by
// one RECV with the same (src, dst, tag) and size, and no cycle in data_deps plus
// send -> receive. Malformed bytes throw std::runtime_error.
#ifndef COLLSYNTH_TESTS_EXPORT_CHAKRA_DECODE_H_
#define COLLSYNTH_TESTS_EXPORT_CHAKRA_DECODE_H_

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace collsynth::testing {

struct EtAttr {
  int value_field = 0;     // the oneof member's field number (7 int32_val, 9 int64_val, ...)
  std::int64_t value = 0;  // varint members
  std::string text;        // string_val (29)
};

struct EtNode {
  std::uint64_t id = 0;
  std::string name;
  int type = 0;
  std::vector<std::uint64_t> data_deps;
  std::vector<std::uint64_t> ctrl_deps;
  std::uint64_t duration_micros = 0;
  std::map<std::string, EtAttr> attr;

  std::int64_t Int(const std::string& key) const {
    auto it = attr.find(key);
    if (it == attr.end()) throw std::runtime_error("node " + name + ": no attribute " + key);
    return it->second.value;
  }
};

struct EtFile {
  std::map<std::string, EtAttr> metadata;
  std::vector<EtNode> nodes;
};

namespace chakra_decode_internal {

class Reader {
 public:
  Reader(const std::string& bytes, std::size_t begin, std::size_t end)
      : b_(bytes), at_(begin), end_(end) {}
  bool Done() const { return at_ >= end_; }
  std::uint64_t Varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= end_) throw std::runtime_error("truncated varint");
      const auto byte = static_cast<unsigned char>(b_[at_++]);
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    throw std::runtime_error("varint longer than 10 bytes");
  }
  // Returns [begin, end) of a length-delimited payload and skips it.
  std::pair<std::size_t, std::size_t> Slice() {
    const std::uint64_t len = Varint();
    if (len > end_ - at_) throw std::runtime_error("length beyond the message");
    const std::size_t begin = at_;
    at_ += len;
    return {begin, at_};
  }
  void Skip(int wire) {
    if (wire == 0) {
      Varint();
    } else if (wire == 1 || wire == 5) {
      const std::size_t n = wire == 1 ? 8 : 4;
      if (n > end_ - at_) throw std::runtime_error("truncated fixed field");
      at_ += n;
    } else if (wire == 2) {
      Slice();
    } else {
      throw std::runtime_error("unsupported wire type " + std::to_string(wire));
    }
  }
  const std::string& bytes() const { return b_; }

 private:
  const std::string& b_;
  std::size_t at_, end_;
};

inline EtAttr DecodeAttr(const std::string& bytes, std::size_t begin, std::size_t end,
                         std::string* name) {
  Reader r(bytes, begin, end);
  EtAttr a;
  while (!r.Done()) {
    const std::uint64_t key = r.Varint();
    const int field = static_cast<int>(key >> 3), wire = static_cast<int>(key & 7);
    if (field == 1 && wire == 2) {
      auto [b, e] = r.Slice();
      *name = bytes.substr(b, e - b);
    } else if (field == 29 && wire == 2) {
      auto [b, e] = r.Slice();
      a.value_field = 29;
      a.text = bytes.substr(b, e - b);
    } else if (wire == 0 && field >= 7 && field <= 13 && field % 2 == 1) {
      a.value_field = field;  // int32 7, int64 9, uint32 11, uint64 13
      a.value = static_cast<std::int64_t>(r.Varint());
      if (field == 7) a.value = static_cast<std::int32_t>(a.value);
    } else {
      r.Skip(wire);
    }
  }
  return a;
}

inline void DecodeIds(Reader& r, int wire, std::vector<std::uint64_t>* out) {
  if (wire == 0) {
    out->push_back(r.Varint());
    return;
  }
  auto [b, e] = r.Slice();
  Reader packed(r.bytes(), b, e);
  while (!packed.Done()) out->push_back(packed.Varint());
}

}  // namespace chakra_decode_internal

inline EtFile DecodeEt(const std::string& bytes) {
  using chakra_decode_internal::Reader;
  EtFile f;
  Reader stream(bytes, 0, bytes.size());
  bool first = true;
  while (!stream.Done()) {
    auto [mb, me] = stream.Slice();
    Reader m(bytes, mb, me);
    EtNode node;
    while (!m.Done()) {
      const std::uint64_t key = m.Varint();
      const int field = static_cast<int>(key >> 3), wire = static_cast<int>(key & 7);
      if (first) {  // GlobalMetadata: version 1, attr 2
        if (field == 2 && wire == 2) {
          auto [b, e] = m.Slice();
          std::string name;
          EtAttr a = chakra_decode_internal::DecodeAttr(bytes, b, e, &name);
          f.metadata[name] = a;
        } else {
          m.Skip(wire);
        }
        continue;
      }
      if (field == 1 && wire == 0) {
        node.id = m.Varint();
      } else if (field == 2 && wire == 2) {
        auto [b, e] = m.Slice();
        node.name = bytes.substr(b, e - b);
      } else if (field == 3 && wire == 0) {
        node.type = static_cast<int>(m.Varint());
      } else if (field == 4) {
        chakra_decode_internal::DecodeIds(m, wire, &node.ctrl_deps);
      } else if (field == 5) {
        chakra_decode_internal::DecodeIds(m, wire, &node.data_deps);
      } else if (field == 7 && wire == 0) {
        node.duration_micros = m.Varint();
      } else if (field == 10 && wire == 2) {
        auto [b, e] = m.Slice();
        std::string name;
        EtAttr a = chakra_decode_internal::DecodeAttr(bytes, b, e, &name);
        if (!node.attr.emplace(name, a).second)
          throw std::runtime_error("node " + node.name + ": attribute " + name + " twice");
      } else {
        m.Skip(wire);
      }
    }
    if (!first) f.nodes.push_back(node);
    first = false;
  }
  if (first) throw std::runtime_error("empty file: no GlobalMetadata");
  return f;
}

constexpr int kEtComp = 4, kEtSend = 5, kEtRecv = 6;

// "" when the per-rank traces (index = rank) are consistent, else the first problem.
inline std::string CheckEtSet(const std::vector<EtFile>& ranks) {
  const int n = static_cast<int>(ranks.size());
  // Global node index per (rank, id).
  std::vector<std::map<std::uint64_t, std::size_t>> index(n);
  std::vector<std::pair<int, std::size_t>> where;  // global -> (rank, position)
  for (int r = 0; r < n; ++r) {
    for (std::size_t k = 0; k < ranks[r].nodes.size(); ++k) {
      const EtNode& x = ranks[r].nodes[k];
      if (x.type != kEtComp && x.type != kEtSend && x.type != kEtRecv)
        return "rank " + std::to_string(r) + ": node type " + std::to_string(x.type);
      if (!index[r].emplace(x.id, where.size()).second)
        return "rank " + std::to_string(r) + ": id " + std::to_string(x.id) + " twice";
      where.push_back({r, k});
    }
  }
  const std::size_t total = where.size();
  std::vector<std::vector<std::size_t>> preds(total);
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>,
           std::pair<std::size_t, std::int64_t>>
      sends;  // (src, dst, tag) -> (global, size)
  for (std::size_t g = 0; g < total; ++g) {
    const auto [r, k] = where[g];
    const EtNode& x = ranks[r].nodes[k];
    for (std::uint64_t d : x.data_deps) {
      auto it = index[r].find(d);
      if (it == index[r].end())
        return "rank " + std::to_string(r) + " node " + x.name + ": dependency on missing id " +
               std::to_string(d);
      preds[g].push_back(it->second);
    }
    if (x.type == kEtSend) {
      if (x.Int("comm_src") != r) return "send " + x.name + " with comm_src != its rank";
      if (x.Int("comm_size") <= 0) return "send " + x.name + " without bytes";
      if (!sends
               .emplace(std::make_tuple(x.Int("comm_src"), x.Int("comm_dst"), x.Int("comm_tag")),
                        std::make_pair(g, x.Int("comm_size")))
               .second)
        return "rank " + std::to_string(r) + ": two sends with one (src, dst, tag)";
    }
  }
  std::set<std::size_t> matched;
  for (std::size_t g = 0; g < total; ++g) {
    const auto [r, k] = where[g];
    const EtNode& x = ranks[r].nodes[k];
    if (x.type != kEtRecv) continue;
    if (x.Int("comm_dst") != r) return "receive " + x.name + " with comm_dst != its rank";
    auto it = sends.find({x.Int("comm_src"), x.Int("comm_dst"), x.Int("comm_tag")});
    if (it == sends.end())
      return "rank " + std::to_string(r) + " receive " + x.name + ": no matching send";
    if (it->second.second != x.Int("comm_size"))
      return "rank " + std::to_string(r) + " receive " + x.name + ": size differs from the send";
    if (!matched.insert(it->second.first).second) return "a send matched twice";
    preds[g].push_back(it->second.first);
  }
  if (matched.size() != sends.size()) return "a send without a receive";
  // Kahn over data_deps and send -> receive.
  std::vector<std::vector<std::size_t>> succ(total);
  std::vector<std::size_t> indegree(total);
  for (std::size_t g = 0; g < total; ++g) {
    indegree[g] = preds[g].size();
    for (std::size_t p : preds[g]) succ[p].push_back(g);
  }
  std::vector<std::size_t> ready;
  for (std::size_t g = 0; g < total; ++g) {
    if (indegree[g] == 0) ready.push_back(g);
  }
  std::size_t done = 0;
  while (!ready.empty()) {
    const std::size_t g = ready.back();
    ready.pop_back();
    ++done;
    for (std::size_t s : succ[g]) {
      if (--indegree[s] == 0) ready.push_back(s);
    }
  }
  if (done != total) return "a cycle through " + std::to_string(total - done) + " nodes";
  return "";
}

// Bytes sent per (src, dst) over all SEND nodes.
inline std::map<std::pair<int, int>, std::int64_t> EtBytesPerPair(
    const std::vector<EtFile>& ranks) {
  std::map<std::pair<int, int>, std::int64_t> out;
  for (const EtFile& f : ranks) {
    for (const EtNode& x : f.nodes) {
      if (x.type == kEtSend)
        out[{static_cast<int>(x.Int("comm_src")), static_cast<int>(x.Int("comm_dst"))}] +=
            x.Int("comm_size");
    }
  }
  return out;
}

}  // namespace collsynth::testing

#endif  // COLLSYNTH_TESTS_EXPORT_CHAKRA_DECODE_H_
