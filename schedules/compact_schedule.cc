#include "schedules/compact_schedule.h"

#include <limits>
#include <map>
#include <unordered_map>

#include "core/input_error.h"
#include "core/json_writer.h"
#include "graphs/topology_io.h"

namespace collsynth {
namespace {

using nlohmann::json;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

bool IsHeaderKey(const std::string& key) {
  return key == "format" || key == "collective" || key == "root" || key == "rs_steps" ||
         key == "tl" || key == "tb" || key == "nodes" || key == "steps" || key == "sends";
}

// The top-level fields shared by both writers: producer metadata first (in nlohmann's key
// order), then the contract's fields.
void WriteHeader(JsonWriter& w, const CompactStepSchedule& c, const Topology& g,
                 const char* format) {
  for (auto it = c.extra.begin(); it != c.extra.end(); ++it) {
    if (!IsHeaderKey(it.key())) w.Key(it.key()).Json(it.value());
  }
  w.Key("format").String(format);
  w.Key("collective").String(CollectiveName(c.collective));
  if (c.root) w.Key("root").String(g.node(*c.root).name);
  if (c.rs_steps) w.Key("rs_steps").Int(*c.rs_steps);
  if (c.claimed_tl) w.Key("tl").Int(*c.claimed_tl);
  if (c.claimed_tb) w.Key("tb").RationalString(*c.claimed_tb);
}

std::optional<std::int64_t> FitInt64(const BigInt& z) {
  if (z > BigInt(kInt64Max) || z < -BigInt(kInt64Max)) return std::nullopt;
  return z.convert_to<std::int64_t>();
}

// Reader helpers.
const json& Field(const json& obj, const char* key, const std::string& file,
                  const std::string& item) {
  auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, item, std::string("missing field '") + key + "'");
  return *it;
}

std::int64_t IntIn(const json& v, std::int64_t lo, std::int64_t hi, const std::string& file,
                   const std::string& item, const char* what) {
  if (!v.is_number_integer() ||
      (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(kInt64Max)) ||
      v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi) {
    throw InputError(file, item,
                     std::string(what) + " must be an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "], got " + v.dump());
  }
  return v.get<std::int64_t>();
}

}  // namespace

void CompactStep::AddRecord(int from_node, int to_node) {
  from.push_back(from_node);
  to.push_back(to_node);
  record_begin.push_back(static_cast<std::int64_t>(source.size()));
}

void CompactStep::AddSend(int source_node) {
  source.push_back(source_node);
  interval_begin.push_back(static_cast<std::int64_t>(lo.size()));
  ++record_begin.back();
}

void CompactStep::AddInterval(std::int64_t lo_num, std::int64_t hi_num) {
  lo.push_back(lo_num);
  hi.push_back(hi_num);
  ++interval_begin.back();
}

std::size_t CompactStepSchedule::num_sends() const {
  std::size_t n = 0;
  for (const CompactStep& s : steps) n += s.num_sends();
  return n;
}

std::optional<CompactStepSchedule> CompactFromSteps(const StepSchedule& s) {
  CompactStepSchedule c;
  CopyStepHeader(s, c);
  c.extra = s.extra;
  std::map<int, std::vector<std::size_t>> by_step;
  for (std::size_t i = 0; i < s.sends.size(); ++i) by_step[s.sends[i].step].push_back(i);
  for (const auto& [step, sends] : by_step) {
    BigInt lcm = 1;
    for (std::size_t i : sends)
      for (const Interval& iv : s.sends[i].chunk)
        for (const Rational* x : {&iv.lo, &iv.hi}) {
          BigInt d = Denominator(*x);
          if (lcm % d != 0) lcm = lcm / boost::multiprecision::gcd(lcm, d) * d;
        }
    auto den = FitInt64(lcm);
    if (!den) return std::nullopt;
    // Records in order of first appearance of their link.
    std::map<std::pair<int, int>, int> record_of;
    std::vector<std::vector<std::size_t>> records;
    std::vector<std::pair<int, int>> links;
    for (std::size_t i : sends) {
      auto key = std::make_pair(s.sends[i].from, s.sends[i].to);
      auto [it, inserted] = record_of.emplace(key, static_cast<int>(records.size()));
      if (inserted) {
        records.emplace_back();
        links.push_back(key);
      }
      records[it->second].push_back(i);
    }
    CompactStep cs;
    cs.step = step;
    cs.denominator = *den;
    for (std::size_t r = 0; r < records.size(); ++r) {
      cs.AddRecord(links[r].first, links[r].second);
      for (std::size_t i : records[r]) {
        cs.AddSend(s.sends[i].source);
        for (const Interval& iv : s.sends[i].chunk) {
          auto lo = FitInt64(Numerator(iv.lo * Rational(lcm)));
          auto hi = FitInt64(Numerator(iv.hi * Rational(lcm)));
          if (!lo || !hi) return std::nullopt;
          cs.AddInterval(*lo, *hi);
        }
      }
    }
    c.steps.push_back(std::move(cs));
  }
  return c;
}

StepSchedule StepsFromCompact(const CompactStepSchedule& c) {
  StepSchedule s;
  CopyStepHeader(c, s);
  s.extra = c.extra;
  s.sends.reserve(c.num_sends());
  for (const CompactStep& cs : c.steps) {
    for (std::size_t r = 0; r + 1 < cs.record_begin.size(); ++r) {
      for (auto i = cs.record_begin[r]; i < cs.record_begin[r + 1]; ++i) {
        StepSend e;
        e.source = cs.source[i];
        e.from = cs.from[r];
        e.to = cs.to[r];
        e.step = cs.step;
        for (auto k = cs.interval_begin[i]; k < cs.interval_begin[i + 1]; ++k)
          e.chunk.push_back(
              {Rational(cs.lo[k], cs.denominator), Rational(cs.hi[k], cs.denominator)});
        s.sends.push_back(std::move(e));
      }
    }
  }
  return s;
}

namespace {

void WriteCompact(JsonWriter& w, const CompactStepSchedule& c, const Topology& g) {
  w.BeginObject();
  WriteHeader(w, c, g, "steps-compact");
  w.Key("nodes").BeginArray();
  for (int v = 0; v < g.num_nodes(); ++v) w.String(g.node(v).name);
  w.EndArray();
  w.Key("steps").BeginArray();
  for (const CompactStep& cs : c.steps) {
    w.LineBreak().BeginObject();
    w.Key("step").Int(cs.step);
    w.Key("den").Int(cs.denominator);
    w.Key("links").BeginArray();
    for (std::size_t r = 0; r + 1 < cs.record_begin.size(); ++r) {
      w.LineBreak().BeginArray().Int(cs.from[r]).Int(cs.to[r]).BeginArray();
      for (auto i = cs.record_begin[r]; i < cs.record_begin[r + 1]; ++i) {
        w.Int(cs.source[i]).Int(cs.interval_begin[i + 1] - cs.interval_begin[i]);
        for (auto q = cs.interval_begin[i]; q < cs.interval_begin[i + 1]; ++q)
          w.Int(cs.lo[q]).Int(cs.hi[q]);
      }
      w.EndArray().EndArray();
    }
    w.EndArray().EndObject();
  }
  w.EndArray().EndObject();
}

}  // namespace

std::string CompactStepScheduleToText(const CompactStepSchedule& c, const Topology& g) {
  JsonWriter w;
  WriteCompact(w, c, g);
  std::string out = w.TakeText();
  out += '\n';
  return out;
}

void WriteCompactStepScheduleText(const CompactStepSchedule& c, const Topology& g,
                                  std::ostream& out) {
  JsonWriter w(out);
  WriteCompact(w, c, g);
  w.FlushToStream();
  out << '\n';
}

namespace {

void WriteStepsFromCompact(JsonWriter& w, const CompactStepSchedule& c, const Topology& g) {
  const JsonStrings names = QuotedNodeNames(g);
  w.BeginObject();
  WriteHeader(w, c, g, "steps");
  w.Key("sends").BeginArray();
  for (const CompactStep& cs : c.steps) {
    for (std::size_t r = 0; r + 1 < cs.record_begin.size(); ++r) {
      for (auto i = cs.record_begin[r]; i < cs.record_begin[r + 1]; ++i) {
        w.LineBreak().BeginObject();
        w.Key("source").String(names, cs.source[i]);
        w.Key("chunk").BeginArray();
        for (auto q = cs.interval_begin[i]; q < cs.interval_begin[i + 1]; ++q)
          w.BeginArray()
              .Fraction(cs.lo[q], cs.denominator)
              .Fraction(cs.hi[q], cs.denominator)
              .EndArray();
        w.EndArray();
        w.Key("from").String(names, cs.from[r]);
        w.Key("to").String(names, cs.to[r]);
        w.Key("step").Int(cs.step);
        w.EndObject();
      }
    }
  }
  w.EndArray().EndObject();
}

}  // namespace

std::string StepsJsonTextFromCompact(const CompactStepSchedule& c, const Topology& g) {
  JsonWriter w;
  WriteStepsFromCompact(w, c, g);
  std::string out = w.TakeText();
  out += '\n';
  return out;
}

void WriteStepsJsonFromCompact(const CompactStepSchedule& c, const Topology& g, std::ostream& out) {
  JsonWriter w(out);
  WriteStepsFromCompact(w, c, g);
  w.FlushToStream();
  out << '\n';
}

CompactStepSchedule CompactStepScheduleFromJson(const json& j, const Topology& g,
                                                const std::string& file) {
  if (!j.is_object())
    throw InputError(file, "top level",
                     std::string("expected a JSON object, got ") + j.type_name());
  const json& format = Field(j, "format", file, "top level");
  if (!format.is_string() || format.get<std::string>() != "steps-compact")
    throw InputError(file, "format", "expected \"steps-compact\", got " + format.dump());
  // The header fields have the "steps" contract: read them with its reader on a copy
  // without the sends.
  json header = json::object();
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "steps" && it.key() != "nodes" && it.key() != "format")
      header[it.key()] = it.value();
  header["format"] = "steps";
  header["sends"] = json::array();
  StepSchedule h = StepScheduleFromJson(header, g, file);
  CompactStepSchedule c;
  CopyStepHeader(h, c);
  c.extra = std::move(h.extra);

  const json& nodes = Field(j, "nodes", file, "top level");
  if (!nodes.is_array()) throw InputError(file, "nodes", "must be an array of node names");
  std::vector<int> id(nodes.size());
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const std::string item = "nodes[" + std::to_string(k) + "]";
    if (!nodes[k].is_string())
      throw InputError(file, item, "must be a node name (string), got " + nodes[k].dump());
    auto v = g.FindNode(nodes[k].get<std::string>());
    if (!v) throw InputError(file, item, "unknown node '" + nodes[k].get<std::string>() + "'");
    id[k] = *v;
  }
  const std::int64_t num_names = static_cast<std::int64_t>(nodes.size()) - 1;
  const json& steps = Field(j, "steps", file, "top level");
  if (!steps.is_array()) throw InputError(file, "steps", "must be an array");
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const std::string item = "steps[" + std::to_string(k) + "]";
    const json& st = steps[k];
    if (!st.is_object())
      throw InputError(file, item, "must be an object {\"step\", \"den\", \"links\"}");
    CompactStep cs;
    // Any int: a step outside 1..T is the checker's verdict (exit 1 naming the send).
    cs.step = static_cast<int>(
        IntIn(Field(st, "step", file, item), INT32_MIN, INT32_MAX, file, item, "field 'step'"));
    cs.denominator = IntIn(Field(st, "den", file, item), 1, kInt64Max, file, item, "field 'den'");
    const json& links = Field(st, "links", file, item);
    if (!links.is_array())
      throw InputError(file, item + ".links", "must be an array of [from, to, sends]");
    for (std::size_t r = 0; r < links.size(); ++r) {
      const std::string ritem = item + ".links[" + std::to_string(r) + "]";
      const json& rec = links[r];
      if (!rec.is_array() || rec.size() != 3 || !rec[2].is_array())
        throw InputError(file, ritem, "must be [from, to, [source, n, lo, hi, ...]]");
      cs.AddRecord(id[IntIn(rec[0], 0, num_names, file, ritem, "from (an index into nodes)")],
                   id[IntIn(rec[1], 0, num_names, file, ritem, "to (an index into nodes)")]);
      const json& flat = rec[2];
      if (flat.empty()) throw InputError(file, ritem, "a link record lists at least one send");
      std::size_t p = 0;
      while (p < flat.size()) {
        const std::string sitem = ritem + "[2][" + std::to_string(p) + "]";
        if (p + 2 > flat.size())
          throw InputError(file, sitem, "truncated send (expected source, n)");
        cs.AddSend(id[IntIn(flat[p], 0, num_names, file, sitem, "source (an index into nodes)")]);
        const std::int64_t n =
            IntIn(flat[p + 1], 1, INT32_MAX, file, sitem, "the interval count n");
        p += 2;
        if (static_cast<std::int64_t>(flat.size() - p) < 2 * n)
          throw InputError(file, sitem,
                           "truncated send: " + std::to_string(n) + " intervals announced");
        for (std::int64_t q = 0; q < n; ++q, p += 2) {
          const std::string iitem = ritem + "[2][" + std::to_string(p) + "]";
          std::int64_t lo = IntIn(flat[p], 0, cs.denominator, file, iitem, "lo numerator");
          std::int64_t hi = IntIn(flat[p + 1], 0, cs.denominator, file, iitem, "hi numerator");
          if (lo >= hi)
            throw InputError(file, iitem,
                             "interval [" + std::to_string(lo) + ", " + std::to_string(hi) + ")/" +
                                 std::to_string(cs.denominator) +
                                 " must satisfy 0 <= lo < hi <= den");
          cs.AddInterval(lo, hi);
        }
      }
    }
    c.steps.push_back(std::move(cs));
  }
  return c;
}

}  // namespace collsynth
