// Chakra execution-trace reader (chakra_trace.h).
#include "proofs_check/chakra_trace.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "core/input_error.h"
#include "core/json_io.h"
#include "proofs_check/chakra_trace.pb.h"

namespace collsynth {
namespace {

namespace pb = ::collsynth::chakra_check;

// The attributes of a SEND or RECV node the checker needs, with the oneof member each must use.
struct CommAttribute {
  const char* name;
  pb::AttributeProto::ValueCase value_case;
};
constexpr CommAttribute kCommAttributes[] = {
    {"comm_size", pb::AttributeProto::kInt64Val},
    {"comm_src", pb::AttributeProto::kInt32Val},
    {"comm_dst", pb::AttributeProto::kInt32Val},
    {"comm_tag", pb::AttributeProto::kInt32Val},
};

const char* ValueCaseName(pb::AttributeProto::ValueCase c) {
  switch (c) {
    case pb::AttributeProto::kInt32Val:
      return "int32_val";
    case pb::AttributeProto::kInt64Val:
      return "int64_val";
    case pb::AttributeProto::kUint32Val:
      return "uint32_val";
    case pb::AttributeProto::kUint64Val:
      return "uint64_val";
    case pb::AttributeProto::kBoolVal:
      return "bool_val";
    case pb::AttributeProto::kStringVal:
      return "string_val";
    case pb::AttributeProto::VALUE_NOT_SET:
      break;
  }
  return "no value of an integer type";
}

// Splits the stream into its length-delimited messages and hands each to `on_message`
// (position, bytes).
template <typename OnMessage>
void ForEachMessage(std::string_view bytes, const std::string& file, OnMessage&& on_message) {
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  std::size_t at = 0;
  for (std::int64_t k = 0; at < bytes.size(); ++k) {
    std::uint64_t length = 0;
    if (!in.ReadVarint64(&length)) {
      throw InputError(file, "message " + std::to_string(k),
                       "the length prefix at byte " + std::to_string(at) +
                           " is truncated or longer than 10 bytes");
    }
    const std::size_t begin = static_cast<std::size_t>(in.CurrentPosition());
    if (length > bytes.size() - begin) {
      throw InputError(file, "message " + std::to_string(k),
                       "the length prefix at byte " + std::to_string(at) + " says " +
                           std::to_string(length) + " bytes, but only " +
                           std::to_string(bytes.size() - begin) + " follow");
    }
    on_message(k, bytes.substr(begin, static_cast<std::size_t>(length)));
    in.Skip(static_cast<int>(length));
    at = begin + static_cast<std::size_t>(length);
  }
}

}  // namespace

ChakraRankTrace ParseChakraTrace(std::string_view bytes, const std::string& file) {
  if (bytes.size() >= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw InputError(file, "", "a trace file must be smaller than 2 GiB");
  }
  ChakraRankTrace t;
  t.file = file;
  // Dependencies as read (node ids), resolved to indices once every id is known.
  std::vector<std::uint64_t> dep_ids;
  bool metadata = false;
  pb::Node node;
  ForEachMessage(bytes, file, [&](std::int64_t k, std::string_view message) {
    const int size = static_cast<int>(message.size());
    if (k == 0) {
      pb::GlobalMetadata m;
      if (!m.ParseFromArray(message.data(), size)) {
        throw InputError(file, "message 0", "does not decode as a Chakra GlobalMetadata");
      }
      t.version = m.version();
      metadata = true;
      return;
    }
    const std::size_t index = t.nodes.size();
    const std::string item = "node " + std::to_string(index);
    if (!node.ParseFromArray(message.data(), size)) {
      throw InputError(file, item + " (message " + std::to_string(k) + ")",
                       "does not decode as a Chakra Node");
    }
    const std::string named = item + " (id " + std::to_string(node.id()) + ")";
    ChakraTraceNode x;
    x.id = node.id();
    switch (node.type()) {
      case pb::COMP_NODE:
        x.type = ChakraTraceNodeType::kComp;
        break;
      case pb::COMM_SEND_NODE:
        x.type = ChakraTraceNodeType::kSend;
        break;
      case pb::COMM_RECV_NODE:
        x.type = ChakraTraceNodeType::kRecv;
        break;
      default:
        throw InputError(file, named,
                         "node type " + std::to_string(static_cast<int>(node.type())) +
                             " is not COMP_NODE (4), COMM_SEND_NODE (5) or COMM_RECV_NODE (6)");
    }
    x.deps_begin = dep_ids.size();
    dep_ids.insert(dep_ids.end(), node.data_deps().begin(), node.data_deps().end());
    dep_ids.insert(dep_ids.end(), node.ctrl_deps().begin(), node.ctrl_deps().end());
    x.deps_end = dep_ids.size();
    if (x.type != ChakraTraceNodeType::kComp) {
      bool seen[std::size(kCommAttributes)] = {};
      std::int64_t values[std::size(kCommAttributes)] = {};
      for (const pb::AttributeProto& a : node.attr()) {
        for (std::size_t i = 0; i < std::size(kCommAttributes); ++i) {
          if (a.name() != kCommAttributes[i].name) continue;
          const std::string where = named + " attr " + a.name();
          if (seen[i]) throw InputError(file, where, "appears twice");
          if (a.value_case() != kCommAttributes[i].value_case) {
            throw InputError(file, where,
                             std::string("is ") + ValueCaseName(a.value_case()) + ", not " +
                                 ValueCaseName(kCommAttributes[i].value_case) +
                                 " (what Chakra's feeder reads)");
          }
          seen[i] = true;
          values[i] =
              a.value_case() == pb::AttributeProto::kInt64Val ? a.int64_val() : a.int32_val();
        }
      }
      for (std::size_t i = 0; i < std::size(kCommAttributes); ++i) {
        if (!seen[i]) {
          throw InputError(file, named,
                           std::string("a ") +
                               (x.type == ChakraTraceNodeType::kSend ? "SEND" : "RECV") +
                               " node without the attribute " + kCommAttributes[i].name);
        }
      }
      x.comm_size = values[0];
      x.comm_src = static_cast<std::int32_t>(values[1]);
      x.comm_dst = static_cast<std::int32_t>(values[2]);
      x.comm_tag = static_cast<std::int32_t>(values[3]);
    }
    t.nodes.push_back(x);
  });
  if (!metadata) throw InputError(file, "message 0", "no GlobalMetadata: the file is empty");

  // Ids -> indices. The exporter numbers nodes 0..n-1 in file order; any other numbering goes
  // through a map.
  bool dense = true;
  for (std::size_t i = 0; i < t.nodes.size() && dense; ++i) dense = t.nodes[i].id == i;
  std::unordered_map<std::uint64_t, std::uint64_t> index_of;
  if (!dense) {
    index_of.reserve(t.nodes.size());
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      auto [it, fresh] = index_of.emplace(t.nodes[i].id, i);
      if (!fresh) {
        throw InputError(
            file, "node " + std::to_string(i) + " (id " + std::to_string(t.nodes[i].id) + ")",
            "repeats the id of node " + std::to_string(it->second));
      }
    }
  }
  t.deps.resize(dep_ids.size());
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    const ChakraTraceNode& x = t.nodes[i];
    for (std::uint64_t d = x.deps_begin; d < x.deps_end; ++d) {
      const std::uint64_t id = dep_ids[d];
      if (dense) {
        if (id < t.nodes.size()) {
          t.deps[d] = id;
          continue;
        }
      } else if (auto it = index_of.find(id); it != index_of.end()) {
        t.deps[d] = it->second;
        continue;
      }
      throw InputError(file, "node " + std::to_string(i) + " (id " + std::to_string(x.id) + ")",
                       "depends on id " + std::to_string(id) + ", which no node of the file has");
    }
  }
  return t;
}

ChakraRankTrace ReadChakraTraceFile(const std::string& path) {
  return ParseChakraTrace(ReadTextFile(path), path);
}

}  // namespace collsynth
