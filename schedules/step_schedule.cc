#include "schedules/step_schedule.h"

#include <climits>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "core/input_error.h"
#include "core/json_io.h"
#include "core/json_writer.h"
#include "graphs/topology_io.h"
#include "schedules/compact_schedule.h"
#include "schedules/flat_step_schedule.h"

namespace collsynth {
namespace {

using nlohmann::json;

// Top-level keys of the contract; any other key is producer metadata kept in `extra`.
bool IsKnownKey(const std::string& key) {
  return key == "format" || key == "collective" || key == "root" || key == "rs_steps" ||
         key == "sends" || key == "tl" || key == "tb";
}

// Node names are looked up once per distinct name (sends repeat them ~10^6 times).
class NodeLookup {
 public:
  NodeLookup(const Topology& g, const std::string& file) : g_(g), file_(file) {}

  int Find(const json& v, const char* key, const std::string& item) const {
    if (!v.is_string()) {
      throw InputError(
          file_, item,
          std::string("field '") + key + "' must be a node name (string), got " + v.type_name());
    }
    const std::string& name = v.get_ref<const std::string&>();
    auto it = cache_.find(name);
    if (it != cache_.end()) return it->second;
    auto id = g_.FindNode(name);
    if (!id)
      throw InputError(file_, item,
                       std::string("field '") + key + "': unknown node '" + name + "'");
    cache_.emplace(name, *id);
    return *id;
  }

 private:
  const Topology& g_;
  const std::string& file_;
  mutable std::unordered_map<std::string, int> cache_;
};

// Rationals in chunks are mostly "0", "1", "1/2", ...: parse each distinct text once.
class RationalCache {
 public:
  explicit RationalCache(const std::string& file) : file_(file) {}

  const Rational& Get(const json& v, const std::string& item) {
    if (v.is_number_unsigned() || v.is_number_integer()) {
      if (v == 0) return zero_;
      if (v == 1) return one_;
      scratch_ = RationalFromJson(v, file_, item);
      return scratch_;
    }
    if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      auto it = cache_.find(s);
      if (it != cache_.end()) return it->second;
      Rational r = RationalFromJson(v, file_, item);
      if (cache_.size() < kMaxCached) return cache_.emplace(s, std::move(r)).first->second;
      scratch_ = std::move(r);
      return scratch_;
    }
    scratch_ = RationalFromJson(v, file_, item);  // throws the uniform message
    return scratch_;
  }

 private:
  static constexpr std::size_t kMaxCached = 1 << 16;
  const std::string& file_;
  std::unordered_map<std::string, Rational> cache_;
  Rational zero_{0}, one_{1}, scratch_;
};

std::string SendItem(std::size_t i) { return "sends[" + std::to_string(i) + "]"; }

const json& RequireField(const json& obj, const char* key, const std::string& file,
                         const std::string& item) {
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, item, std::string("missing field '") + key + "'");
  return *it;
}

// An integer field stored as int: [lo, INT32_MAX]. Whether a step lies inside the schedule is
// the checker's verdict (exit 1 naming the send), not the reader's; the reader only refuses
// what an int cannot hold.
int IntField(const json& v, const char* key, std::int64_t lo, const std::string& file,
             const std::string& item) {
  if (!v.is_number_integer()) {
    std::string got =
        v.is_number_float() ? "the non-integer " + v.dump() : std::string(v.type_name());
    if (v.is_string()) got = "the string " + v.dump();
    throw InputError(file, item, std::string("field '") + key + "' must be an integer, got " + got);
  }
  const bool in_range = v.is_number_unsigned()
                            ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT32_MAX) &&
                                  static_cast<std::int64_t>(v.get<std::uint64_t>()) >= lo
                            : v.get<std::int64_t>() >= lo && v.get<std::int64_t>() <= INT32_MAX;
  if (!in_range) {
    throw InputError(file, item,
                     std::string("field '") + key + "' must be an integer in [" +
                         std::to_string(lo) + ", 2^31), got " + v.dump());
  }
  return static_cast<int>(v.get<std::int64_t>());
}

StepSend ReadSend(const json& e, std::size_t i, const NodeLookup& nodes, RationalCache& rationals,
                  const std::string& file) {
  const std::string item = SendItem(i);
  if (!e.is_object())
    throw InputError(file, item, std::string("must be an object, got ") + e.type_name());
  StepSend s;
  s.source = nodes.Find(RequireField(e, "source", file, item), "source", item);
  s.from = nodes.Find(RequireField(e, "from", file, item), "from", item);
  s.to = nodes.Find(RequireField(e, "to", file, item), "to", item);
  s.step = IntField(RequireField(e, "step", file, item), "step", INT32_MIN, file, item);
  const json& chunk = RequireField(e, "chunk", file, item);
  if (!chunk.is_array()) {
    throw InputError(
        file, item,
        std::string("field 'chunk' must be an array of [lo, hi] pairs, got ") + chunk.type_name());
  }
  if (chunk.empty()) throw InputError(file, item, "field 'chunk' is empty (a send carries data)");
  s.chunk.reserve(chunk.size());
  for (std::size_t k = 0; k < chunk.size(); ++k) {
    const json& iv = chunk[k];
    if (!iv.is_array() || iv.size() != 2) {
      throw InputError(file, item + ".chunk[" + std::to_string(k) + "]",
                       "must be a pair [lo, hi] of exact rationals, got " + iv.dump());
    }
    const std::string sub = item + ".chunk[" + std::to_string(k) + "]";
    Interval in;
    in.lo = rationals.Get(iv[0], sub);
    in.hi = rationals.Get(iv[1], sub);
    if (in.lo < 0 || in.hi > 1 || in.lo >= in.hi) {
      throw InputError(file, sub,
                       "interval [" + ToString(in.lo) + ", " + ToString(in.hi) +
                           ") must satisfy 0 <= lo < hi <= 1");
    }
    s.chunk.push_back(std::move(in));
  }
  return s;
}

}  // namespace

StepSchedule StepScheduleFromJson(const json& j, const Topology& g, const std::string& file) {
  if (!j.is_object()) {
    throw InputError(file, "top level",
                     std::string("expected a JSON object, got ") + j.type_name());
  }
  StepSchedule s;
  const json& format = RequireField(j, "format", file, "top level");
  if (!format.is_string() || format.get<std::string>() != "steps") {
    throw InputError(file, "format", "expected \"steps\", got " + format.dump());
  }
  const json& collective = RequireField(j, "collective", file, "top level");
  std::optional<Collective> parsed;
  if (collective.is_string()) parsed = ParseCollective(collective.get_ref<const std::string&>());
  if (!parsed) {
    throw InputError(
        file, "collective",
        "expected \"allgather\", \"reduce-scatter\", \"allreduce\" or \"broadcast\", got " +
            collective.dump());
  }
  s.collective = *parsed;
  NodeLookup nodes(g, file);
  if (auto it = j.find("root"); it != j.end() && !it->is_null()) {
    s.root = nodes.Find(*it, "root", "root");
    if (!g.IsCompute(*s.root)) {
      throw InputError(file, "root",
                       "the broadcast root '" + g.node(*s.root).name + "' is not a compute node");
    }
  }
  if (s.collective == Collective::kBroadcast && !s.root) {
    throw InputError(file, "top level", "a broadcast schedule needs a \"root\"");
  }
  if (auto it = j.find("rs_steps"); it != j.end() && !it->is_null()) {
    s.rs_steps =
        IntField(*it, "rs_steps", INT32_MIN, file, "rs_steps");  // 0..T: the checker's verdict
  }
  if (s.collective == Collective::kAllreduce && !s.rs_steps) {
    throw InputError(file, "top level",
                     "an allreduce schedule needs \"rs_steps\" (the last reduce-scatter step)");
  }
  if (auto it = j.find("tl"); it != j.end() && !it->is_null()) {
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0 ||
        it->get<std::int64_t>() > INT32_MAX) {
      throw InputError(file, "tl", "must be a non-negative integer, got " + it->dump());
    }
    s.claimed_tl = static_cast<int>(it->get<std::int64_t>());
  }
  if (auto it = j.find("tb"); it != j.end() && !it->is_null()) {
    s.claimed_tb = RationalFromJson(*it, file, "tb");
  }
  const json& sends = RequireField(j, "sends", file, "top level");
  if (!sends.is_array()) {
    throw InputError(file, "sends", std::string("must be an array, got ") + sends.type_name());
  }
  RationalCache rationals(file);
  s.sends.reserve(sends.size());
  for (std::size_t i = 0; i < sends.size(); ++i) {
    s.sends.push_back(ReadSend(sends[i], i, nodes, rationals, file));
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!IsKnownKey(it.key())) s.extra[it.key()] = it.value();
  }
  return s;
}

bool IsStepScheduleMember(const std::string& key) { return IsKnownKey(key); }

StepSchedule StepsFromFlat(const FlatStepSchedule& f) {
  StepSchedule s;
  CopyStepHeader(f, s);
  s.extra = f.extra;
  s.sends.resize(f.num_sends());
  for (std::size_t i = 0; i < f.num_sends(); ++i) {
    StepSend& e = s.sends[i];
    e.source = f.source[i];
    e.from = f.from[i];
    e.to = f.to[i];
    e.step = f.step[i];
    for (auto q = f.interval_begin[i]; q < f.interval_begin[i + 1]; ++q)
      e.chunk.push_back({f.values[f.lo[q]], f.values[f.hi[q]]});
  }
  return s;
}

std::string StepScheduleToJsonText(const StepSchedule& s, const Topology& g) {
  const JsonStrings names = QuotedNodeNames(g);
  JsonWriter w;
  SortedMembers top;  // nlohmann's key order (a JSON tree's dump)
  top.AddJsonMembers(s.extra, IsKnownKey);
  top.Add("format", [](JsonWriter& w) { w.String("steps"); });
  top.Add("collective", [&s](JsonWriter& w) { w.String(CollectiveName(s.collective)); });
  if (s.root) top.Add("root", [&](JsonWriter& w) { w.String(g.node(*s.root).name); });
  if (s.rs_steps) top.Add("rs_steps", [&s](JsonWriter& w) { w.Int(*s.rs_steps); });
  if (s.claimed_tl) top.Add("tl", [&s](JsonWriter& w) { w.Int(*s.claimed_tl); });
  if (s.claimed_tb) top.Add("tb", [&s](JsonWriter& w) { w.RationalString(*s.claimed_tb); });
  top.Add("sends", [&](JsonWriter& w) {
    w.BeginArray();
    for (const StepSend& e : s.sends) {
      w.BeginObject(JsonWriter::KeyOrder::kSorted).Key("chunk").BeginArray();
      for (const Interval& in : e.chunk)
        w.BeginArray().RationalString(in.lo).RationalString(in.hi).EndArray();
      w.EndArray();
      w.Key("from").String(names, e.from);
      w.Key("source").String(names, e.source);
      w.Key("step").Int(e.step);
      w.Key("to").String(names, e.to);
      w.EndObject();
    }
    w.EndArray();
  });
  top.Write(w);
  return w.TakeText();
}

}  // namespace collsynth
