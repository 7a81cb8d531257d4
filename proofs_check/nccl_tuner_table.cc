#include "proofs_check/nccl_tuner_table.h"

#include <algorithm>
#include <cstddef>

namespace collsynth {
namespace {

// plugin.c: MAX_LINE_LENGTH 256, read with fgets (at most 255 characters per read).
constexpr std::size_t kPluginLineBuffer = 256;
constexpr std::size_t kRequiredFields = 8, kMaxFields = 10;

const std::vector<std::string>& Collectives() {
  static const std::vector<std::string> v = {"broadcast", "reduce", "allgather", "reducescatter",
                                             "allreduce"};
  return v;
}
const std::vector<std::string>& Algorithms() {
  static const std::vector<std::string> v = {
      "tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
  return v;
}
const std::vector<std::string>& Protocols() {
  static const std::vector<std::string> v = {"ll", "ll128", "simple"};
  return v;
}

bool Known(const std::vector<std::string>& names, const std::string& s) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

// A whole unsigned decimal that fits 64 bits (what strtoull reads exactly).
std::optional<std::uint64_t> Unsigned(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

// -1 or a whole decimal in [0, 2^31) (what atoi reads exactly).
std::optional<int> Signed(const std::string& s) {
  if (s == "-1") return -1;
  const std::optional<std::uint64_t> v = Unsigned(s);
  if (!v || *v > 0x7fffffffULL) return std::nullopt;
  return static_cast<int>(*v);
}

// The plugin's tokens: strtok on ',' (empty fields vanish), each trimmed of spaces and tabs.
std::vector<std::string> Tokens(const std::string& line, bool* empty_field) {
  std::vector<std::string> out;
  std::size_t i = 0;
  *empty_field = false;
  while (i <= line.size()) {
    const std::size_t j = std::min(line.find(',', i), line.size());
    std::string t = line.substr(i, j - i);
    if (t.empty()) {
      *empty_field = true;
    } else {
      const std::size_t a = t.find_first_not_of(" \t");
      const std::size_t b = t.find_last_not_of(" \t");
      out.push_back(a == std::string::npos ? std::string() : t.substr(a, b - a + 1));
    }
    i = j + 1;
  }
  return out;
}

// One config line; appends its problems ("line N: ...") and returns whether it was kept.
bool ParseConfig(const std::string& line, int number, NcclTunerTable& table) {
  const std::string at = "line " + std::to_string(number) + ": ";
  bool empty_field = false;
  const std::vector<std::string> f = Tokens(line, &empty_field);
  if (f.size() < kRequiredFields || f.size() > kMaxFields) {
    table.problems.push_back(at + std::to_string(f.size()) +
                             " fields (the plugin keeps 8 to 10, drops or truncates this line)");
    return false;
  }
  if (empty_field) table.problems.push_back(at + "an empty field (strtok skips it)");
  NcclTunerConfig c;
  c.line = number;
  c.collective = f[0];
  c.algorithm = f[3];
  c.protocol = f[4];
  if (!Known(Collectives(), c.collective)) {
    table.problems.push_back(at + "unknown collective '" + c.collective + "' (read as allreduce)");
  }
  if (!Known(Algorithms(), c.algorithm)) {
    table.problems.push_back(at + "unknown algorithm '" + c.algorithm + "' (read as ring)");
  }
  if (!Known(Protocols(), c.protocol)) {
    table.problems.push_back(at + "unknown protocol '" + c.protocol + "' (read as simple)");
  }
  const std::optional<std::uint64_t> lo = Unsigned(f[1]), hi = Unsigned(f[2]);
  if (!lo || !hi) {
    table.problems.push_back(at + "min_bytes and max_bytes must be whole decimal byte counts");
  } else {
    c.min_bytes = *lo;
    c.max_bytes = *hi;
    if (*lo > *hi) table.problems.push_back(at + "min_bytes > max_bytes (never selected)");
  }
  int* ints[] = {&c.channels, &c.nodes, &c.ranks, &c.pipe_ops, &c.reg_buff};
  for (std::size_t k = 5; k < f.size(); ++k) {
    const std::optional<int> v = Signed(f[k]);
    if (!v) {
      table.problems.push_back(at + "field " + std::to_string(k + 1) + " '" + f[k] +
                               "' is not -1 or a whole number");
    } else {
      *ints[k - 5] = *v;
    }
  }
  table.configs.push_back(c);
  return true;
}

bool Matches(const NcclTunerConfig& c, const std::string& collective, std::uint64_t bytes,
             int ranks, int nodes) {
  return c.collective == collective && bytes >= c.min_bytes && bytes <= c.max_bytes &&
         (c.nodes == -1 || c.nodes == nodes) && (c.ranks == -1 || c.ranks == ranks) &&
         (c.pipe_ops == -1 || c.pipe_ops == 1) && (c.reg_buff == -1 || c.reg_buff == 0) &&
         NcclTunerAlgorithmApplies(collective, c.algorithm) && c.protocol == "simple";
}

std::string Bound(const std::optional<std::uint64_t>& b) {
  return std::to_string(b.value_or(kNcclTunerNoUpperBound));
}

// Ordered, disjoint and covering [0, 2^64 - 1]; each tuned size inside its range.
std::string CheckRanges(const std::vector<NcclTunerExpectedRange>& ranges) {
  if (ranges.empty()) return "no byte range";
  std::uint64_t next = 0;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const NcclTunerExpectedRange& r = ranges[i];
    const std::string at = "range " + std::to_string(i) + ": ";
    if (r.min_bytes != next)
      return at + "starts at " + std::to_string(r.min_bytes) + ", expected " + std::to_string(next);
    if (r.max_bytes.has_value() == (i + 1 == ranges.size())) {
      return at + "only the last range has no upper bound";
    }
    if (r.max_bytes && *r.max_bytes < r.min_bytes) return at + "ends before it starts";
    for (std::uint64_t s : r.sizes) {
      if (s < r.min_bytes || (r.max_bytes && s > *r.max_bytes)) {
        return at + "tuned size " + std::to_string(s) + " outside it";
      }
    }
    if (r.max_bytes) next = *r.max_bytes + 1;
  }
  return "";
}

// The lookup at each probe of each range selects the range's algorithm (or nothing).
std::string CheckLookups(const NcclTunerTable& t, const std::string& collective, int ranks,
                         const std::vector<NcclTunerExpectedRange>& ranges) {
  for (const NcclTunerExpectedRange& r : ranges) {
    std::vector<std::uint64_t> probes = r.sizes;
    probes.push_back(r.min_bytes);
    probes.push_back(r.max_bytes.value_or(kNcclTunerNoUpperBound));
    for (std::uint64_t b : probes) {
      for (int nodes : {1, ranks}) {
        const NcclTunerConfig* c = NcclTunerLookup(t, collective, b, ranks, nodes);
        const std::string got = c ? c->algorithm : std::string("no config");
        const std::string want = r.algorithm.empty() ? std::string("no config") : r.algorithm;
        if (got != want) {
          return "the plugin selects " + got + " at " + std::to_string(b) + " bytes (" +
                 std::to_string(nodes) + " nodes), expected " + want;
        }
      }
    }
  }
  return "";
}

}  // namespace

NcclTunerTable ParseNcclTunerTable(const std::string& text) {
  NcclTunerTable table;
  std::size_t pos = 0;
  int number = 0;
  while (pos < text.size()) {
    ++number;
    // One fgets: up to and including '\n', at most kPluginLineBuffer - 1 characters.
    const std::size_t nl = text.find('\n', pos);
    const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    if (end - pos > kPluginLineBuffer - 1) {
      table.problems.push_back("line " + std::to_string(number) + ": longer than " +
                               std::to_string(kPluginLineBuffer - 2) +
                               " characters (the plugin reads it in pieces)");
      pos = end;
      continue;
    }
    std::string line = text.substr(pos, end - pos);
    pos = end;
    if (line[0] == '#' || line[0] == '\n') continue;
    line = line.substr(0, line.find('\n'));
    if (line.find('\0') != std::string::npos) {
      table.problems.push_back("line " + std::to_string(number) + ": a NUL byte");
      continue;
    }
    ParseConfig(line, number, table);
  }
  return table;
}

bool NcclTunerAlgorithmApplies(const std::string& collective, const std::string& algorithm) {
  if (collective == "broadcast" || collective == "reduce") return algorithm == "ring";
  if (collective == "allgather" || collective == "reducescatter") {
    return algorithm == "ring" || algorithm == "pat" || algorithm == "nvls" ||
           algorithm == "collnet_direct";
  }
  return collective == "allreduce" && Known(Algorithms(), algorithm) && algorithm != "pat";
}

const NcclTunerConfig* NcclTunerLookup(const NcclTunerTable& table, const std::string& collective,
                                       std::uint64_t bytes, int ranks, int nodes) {
  for (const NcclTunerConfig& c : table.configs) {
    if (Matches(c, collective, bytes, ranks, nodes)) return &c;
  }
  return nullptr;
}

std::string CheckNcclTunerTable(const std::string& text, const std::string& collective, int ranks,
                                const std::vector<NcclTunerExpectedRange>& ranges) {
  const NcclTunerTable t = ParseNcclTunerTable(text);
  if (!t.problems.empty()) return t.problems.front();
  if (std::string e = CheckRanges(ranges); !e.empty()) return e;
  std::size_t k = 0;
  for (const NcclTunerExpectedRange& r : ranges) {
    if (r.algorithm.empty()) continue;
    if (k == t.configs.size()) return "no line for bytes " + std::to_string(r.min_bytes) + "..";
    const NcclTunerConfig& c = t.configs[k++];
    const std::string at = "line " + std::to_string(c.line) + ": ";
    if (c.collective != collective) return at + "collective " + c.collective;
    if (c.min_bytes != r.min_bytes || c.max_bytes != r.max_bytes.value_or(kNcclTunerNoUpperBound)) {
      return at + "bytes " + std::to_string(c.min_bytes) + ".." + std::to_string(c.max_bytes) +
             ", expected " + std::to_string(r.min_bytes) + ".." + Bound(r.max_bytes);
    }
    if (c.algorithm != r.algorithm)
      return at + "algorithm " + c.algorithm + ", expected " + r.algorithm;
    if (!NcclTunerAlgorithmApplies(collective, c.algorithm)) {
      return at + "NCCL has no " + c.algorithm + " " + collective + " (the plugin ignores it)";
    }
    if (c.protocol != "simple") return at + "protocol " + c.protocol + ", expected simple";
    if (c.ranks != ranks)
      return at + "nRanks " + std::to_string(c.ranks) + ", expected " + std::to_string(ranks);
  }
  if (k != t.configs.size()) return "line " + std::to_string(t.configs[k].line) + ": not expected";
  return CheckLookups(t, collective, ranks, ranges);
}

}  // namespace collsynth
