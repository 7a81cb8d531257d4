#include "graphs/machine_import.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "core/input_error.h"
#include "graphs/generators/family_args.h"

namespace collsynth {
namespace {

// ---------------------------------------------------------------------------------------------
// The machine before replication: named nodes and duplex or directed edges, each NVLink or not.

struct MachineEdge {
  int a = -1, b = -1;
  Rational bandwidth;
  std::int64_t multiplicity = 1;
  bool nvlink = false;
  bool duplex = true;
};

struct Machine {
  std::vector<std::string> names;
  std::vector<NodeKind> kinds;
  std::unordered_map<std::string, int> by_name;
  std::vector<MachineEdge> edges;
  std::vector<int> nics;           // NIC nodes in rail order
  std::vector<Rational> nic_rate;  // their network bandwidth

  // Adds a node; InputError (file, item) when the name is invalid or taken.
  int Add(const std::string& name, NodeKind kind, const std::string& file,
          const std::string& item) {
    if (name.empty()) throw InputError(file, item, "empty device name");
    if (std::string p = NameProblem(name); !p.empty()) {
      throw InputError(file, item, "device name '" + Abbreviated(name) + "': " + p);
    }
    if (by_name.count(name)) {
      throw InputError(file, item, "device '" + Abbreviated(name) + "' appears twice");
    }
    by_name[name] = static_cast<int>(names.size());
    names.push_back(name);
    kinds.push_back(kind);
    return static_cast<int>(names.size()) - 1;
  }
  void Link(int a, int b, const Rational& bw, std::int64_t mult = 1, bool nvlink = false,
            bool duplex = true) {
    edges.push_back({a, b, bw, mult, nvlink, duplex});
  }
};

const Rational& Pick(const MachineImportOptions& o, const std::string& type,
                     const Rational& table_value) {
  auto it = o.link_bandwidth.find(type);
  return it == o.link_bandwidth.end() ? table_value : it->second;
}

// The machine as a Topology, replicated `options.nodes` times and joined through its NICs.
Topology Materialize(const Machine& m, const std::string& name, const std::string& file,
                     const MachineImportOptions& o) {
  std::vector<bool> keep(m.names.size(), true);
  if (o.nvlink_only) {
    std::vector<bool> on_nvlink(m.names.size(), false);
    for (const MachineEdge& e : m.edges) {
      if (e.nvlink) on_nvlink[e.a] = on_nvlink[e.b] = true;
    }
    for (std::size_t v = 0; v < keep.size(); ++v) {
      keep[v] = m.kinds[v] == NodeKind::kCompute || on_nvlink[v];
    }
  }
  const std::int64_t k = o.nodes;
  if (k < 1) throw InputError("<args>", "--nodes", "must be >= 1");
  if (k > 1 && o.nvlink_only) {
    throw InputError("<args>", "--nodes", "cannot join nodes with --nvlink-only (no NICs)");
  }
  if (k > 1 && m.nics.empty()) {
    throw InputError(file, "--nodes",
                     "the machine has no NIC to join " + std::to_string(k) + " nodes through");
  }
  {
    // The size before building, with topo gen's limits (graphs/generators/family_args.h).
    BigInt directed = 0;
    for (const MachineEdge& e : m.edges) directed += e.duplex ? 2 : 1;
    const BigInt r = static_cast<std::int64_t>(m.nics.size());
    const BigInt kk = k;
    BigInt nodes = kk * static_cast<std::int64_t>(m.names.size());
    BigInt links = kk * directed;
    if (k > 1) {
      nodes += r + (o.fabric == MachineFabric::kFatTree ? kk : BigInt(0));
      links += (o.fabric == MachineFabric::kFatTree ? 4 : 2) * kk * r;
    }
    try {
      CheckTopologySize(nodes, links, std::to_string(k) + " nodes");
    } catch (const std::invalid_argument& e) {
      throw InputError("<args>", "--nodes", e.what());
    }
  }
  Topology g(k == 1 ? name
                    : name + " x" + std::to_string(k) +
                          (o.fabric == MachineFabric::kRail ? " rail" : " fattree"));
  std::vector<int> id(m.names.size(), -1);
  std::vector<std::vector<int>> ids(static_cast<std::size_t>(k));
  for (std::int64_t c = 0; c < k; ++c) {
    std::vector<int>& at = ids[c];
    at.assign(m.names.size(), -1);
    for (std::size_t v = 0; v < m.names.size(); ++v) {
      if (!keep[v]) continue;
      at[v] =
          g.AddNode(k == 1 ? m.names[v] : "n" + std::to_string(c) + "." + m.names[v], m.kinds[v]);
    }
  }
  for (std::int64_t c = 0; c < k; ++c) {
    const std::vector<int>& at = ids[c];
    for (const MachineEdge& e : m.edges) {
      if (o.nvlink_only && !e.nvlink) continue;
      if (at[e.a] < 0 || at[e.b] < 0) continue;
      if (e.duplex) {
        g.AddDuplexLink(at[e.a], at[e.b], e.bandwidth, e.multiplicity);
      } else {
        g.AddLink(at[e.a], at[e.b], e.bandwidth, e.multiplicity);
      }
    }
  }
  if (k == 1) return g;
  const std::size_t r = m.nics.size();
  if (o.fabric == MachineFabric::kRail) {
    for (std::size_t i = 0; i < r; ++i) {
      const int rail = g.AddSwitch("rail" + std::to_string(i));
      const Rational& bw = Pick(o, "NET", m.nic_rate[i]);
      for (std::int64_t c = 0; c < k; ++c) g.AddDuplexLink(ids[c][m.nics[i]], rail, bw);
    }
  } else {
    std::vector<int> leaf(static_cast<std::size_t>(k)), spine(r);
    for (std::int64_t c = 0; c < k; ++c) leaf[c] = g.AddSwitch("leaf" + std::to_string(c));
    for (std::size_t i = 0; i < r; ++i) spine[i] = g.AddSwitch("spine" + std::to_string(i));
    for (std::int64_t c = 0; c < k; ++c) {
      for (std::size_t i = 0; i < r; ++i) {
        const Rational& bw = Pick(o, "NET", m.nic_rate[i]);
        g.AddDuplexLink(ids[c][m.nics[i]], leaf[c], bw);
        g.AddDuplexLink(leaf[c], spine[i], Pick(o, "FABRIC", bw));
      }
    }
  }
  return g;
}

// ---------------------------------------------------------------------------------------------
// The bandwidth table (docs/machine_import.md "Bandwidth table"), GB/s per direction.

struct GenerationRow {
  const char* model;  // the GPU model
  int sm;             // its compute capability (NCCL's key for the NVLink bandwidth)
  Rational nvlink, pcie, sys, net;
};

Rational Q(long p, long q = 1) { return Rational(p, q); }

const std::vector<GenerationRow>& GenerationTable() {
  // NVLINK: NCCL's per-link figure for the compute capability (NVIDIA/nccl src/graph/topo.h
  // SM60..SM100_NVLINK_BW); PCIE: the x16 link of the GPU's PCIe generation as NCCL computes it
  // (width * per-lane speed / 80, src/graph/topo.cc kvDictPciGen); SYS: NCCL's inter-socket
  // figure for the CPU of the reference DGX box (topo.h *_QPI_BW, AMD_BW); NET: the reference
  // box's InfiniBand NIC (EDR 100, HDR 200, NDR 400 Gb/s) divided by 8.
  static const std::vector<GenerationRow> table = {
      {"P100", 60, Q(18), Q(12), Q(6), Q(25, 2)},
      {"V100", 70, Q(20), Q(12), Q(6), Q(25, 2)},
      {"A100", 80, Q(20), Q(24), Q(16), Q(25)},
      {"A800", 80, Q(20), Q(24), Q(16), Q(25)},
      {"H100", 90, Q(103, 5), Q(48), Q(22), Q(50)},
      {"H800", 90, Q(103, 5), Q(48), Q(22), Q(50)},
      {"H200", 90, Q(103, 5), Q(48), Q(22), Q(50)},
      {"B200", 100, Q(401, 10), Q(48), Q(40), Q(50)},
      {"GB200", 100, Q(401, 10), Q(48), Q(40), Q(50)},
  };
  return table;
}

// The row used when the model is unknown: NCCL's defaults (SM80_NVLINK_BW, PCI_BW for Gen3
// x16, BDW_QPI_BW, NET_BW rounded to 100 Gb/s).
GenerationRow GenericRow() { return {"generic", 0, Q(20), Q(12), Q(6), Q(25, 2)}; }

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// NCCL's ncclTopoNVLinkBw (src/graph/topo.h): per-link NVLink bandwidth for a compute
// capability.
Rational NcclNvLinkBw(int sm) {
  if (sm >= 100) return Q(401, 10);
  if (sm >= 90) return Q(103, 5);
  if (sm == 86) return Q(12);
  if (sm >= 80) return Q(20);
  if (sm >= 70) return Q(20);
  if (sm >= 60) return Q(18);
  return Q(20);
}

// ---------------------------------------------------------------------------------------------
// nvidia-smi topo -m

std::vector<std::string> Tokens(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

// Removes ANSI escape sequences (ESC '[' ... final letter) that a terminal capture may hold.
std::string StripAnsi(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      i += 2;
      while (i < s.size() && !std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

bool IsGpuName(const std::string& s) {
  return s.size() > 3 && s.compare(0, 3, "GPU") == 0 &&
         std::all_of(s.begin() + 3, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Level at which two devices meet: 1 behind one PCIe switch, 2 one host bridge, 3 one socket,
// 4 different sockets; 0 for NV# (an NVLink hides the PCIe path), -1 for X.
struct Entry {
  int level = -1;
  int nvlinks = 0;
  std::string text;
};

std::optional<Entry> ParseEntry(const std::string& t) {
  Entry e;
  e.text = t;
  if (t == "X") return e;
  if (t == "PIX" || t == "PXB")
    e.level = 1;
  else if (t == "PHB")
    e.level = 2;
  else if (t == "NODE")
    e.level = 3;
  else if (t == "SYS" || t == "SOC")
    e.level = 4;
  else if (t.size() > 2 && t.size() <= 5 && t.compare(0, 2, "NV") == 0 &&
           std::all_of(t.begin() + 2, t.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    e.level = 0;
    e.nvlinks = std::stoi(t.substr(2));
    if (e.nvlinks < 1) return std::nullopt;
  } else {
    return std::nullopt;
  }
  return e;
}

struct UnionFind {
  std::vector<int> p;
  explicit UnionFind(int n) : p(n) { std::iota(p.begin(), p.end(), 0); }
  int Find(int x) { return p[x] == x ? x : p[x] = Find(p[x]); }
  void Unite(int a, int b) { p[Find(a)] = Find(b); }
};

const char* Where(int level) {
  switch (level) {
    case 1:
      return "behind one PCIe switch (PIX/PXB)";
    case 2:
      return "under one host bridge (PHB)";
    case 3:
      return "in one CPU socket (NODE)";
    default:
      return "in different CPU sockets (SYS)";
  }
}

std::string LineItem(int line) { return "line " + std::to_string(line); }

// A NUL byte would end the text early for a C-string parser; name it instead.
void RejectNul(const std::string& text, const std::string& file) {
  const std::size_t z = text.find('\0');
  if (z == std::string::npos) return;
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + z, '\n'));
  throw InputError(file, LineItem(line), "NUL byte");
}

GenerationRow ModelRow(const std::string& model, const std::vector<std::string>& lines) {
  if (!model.empty()) {
    for (const GenerationRow& r : GenerationTable()) {
      if (Upper(model) == r.model) return r;
    }
    std::string known;
    for (const GenerationRow& r : GenerationTable())
      known += std::string(known.empty() ? "" : ", ") + r.model;
    throw InputError("<args>", "--gpu-model",
                     "unknown model '" + Abbreviated(model) + "'; one of " + known);
  }
  // The first model named anywhere in the text (e.g. `nvidia-smi -L` lines kept with the
  // matrix); longer names first so that GB200 is not read as B200.
  std::vector<GenerationRow> rows = GenerationTable();
  std::stable_sort(rows.begin(), rows.end(), [](const GenerationRow& a, const GenerationRow& b) {
    return std::string(a.model).size() > std::string(b.model).size();
  });
  for (const std::string& l : lines) {
    const std::string u = Upper(l);
    for (const GenerationRow& r : rows) {
      if (u.find(r.model) != std::string::npos) return r;
    }
  }
  return GenericRow();
}

}  // namespace

const std::vector<std::string>& MachineLinkTypes() {
  static const std::vector<std::string> types = {"NVLINK", "PCIE", "SYS", "NET", "FABRIC"};
  return types;
}

void ParseLinkBandwidthOverride(const std::string& text, const std::string& item,
                                std::map<std::string, Rational>* out) {
  const std::size_t eq = text.find('=');
  std::string types;
  for (const std::string& t : MachineLinkTypes()) types += (types.empty() ? "" : ", ") + t;
  if (eq == std::string::npos) {
    throw InputError("<args>", item,
                     "'" + Abbreviated(text) + "' is not TYPE=VALUE (TYPE one of " + types + ")");
  }
  const std::string type = Upper(text.substr(0, eq));
  const auto& all = MachineLinkTypes();
  if (std::find(all.begin(), all.end(), type) == all.end()) {
    throw InputError(
        "<args>", item,
        "unknown connection type '" + Abbreviated(text.substr(0, eq)) + "'; one of " + types);
  }
  Rational v;
  try {
    v = ParseRational(text.substr(eq + 1));
  } catch (const std::invalid_argument& e) {
    throw InputError("<args>", item, type + ": " + e.what());
  }
  if (v <= 0) throw InputError("<args>", item, type + ": bandwidth must be > 0");
  (*out)[type] = v;
}

Topology ImportNvidiaSmiTopology(const std::string& raw, const std::string& file,
                                 const MachineImportOptions& o) {
  RejectNul(raw, file);
  std::vector<std::string> lines;
  {
    std::string cur;
    for (char c : raw) {
      if (c == '\n') {
        lines.push_back(StripAnsi(cur));
        cur.clear();
      } else if (c != '\r') {
        cur += c;
      }
    }
    if (!cur.empty()) lines.push_back(StripAnsi(cur));
  }
  // The header: the first line whose first token is GPU0.
  std::size_t h = 0;
  while (h < lines.size()) {
    std::vector<std::string> t = Tokens(lines[h]);
    if (!t.empty() && t[0] == "GPU0") break;
    ++h;
  }
  if (h == lines.size()) {
    throw InputError(file, "header",
                     "no line starting with GPU0 (the column header of `nvidia-smi topo -m`)");
  }
  const std::vector<std::string> head = Tokens(lines[h]);
  std::vector<std::string> dev;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const std::string& t = head[i];
    if (t == "CPU" || t == "NUMA" || (t == "GPU" && i + 1 < head.size() && head[i + 1] == "NUMA")) {
      break;
    }
    dev.push_back(t);
  }
  bool numa_column = false;
  for (std::size_t i = 0; i + 1 < head.size(); ++i) {
    if (head[i] == "NUMA" && head[i + 1] == "Affinity" && i > 0 && head[i - 1] == "Affinity")
      numa_column = true;
  }
  const int d = static_cast<int>(dev.size());
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < i; ++j) {
      if (dev[i] == dev[j])
        throw InputError(file, LineItem(static_cast<int>(h) + 1),
                         "device '" + Abbreviated(dev[i]) + "' appears twice in the header");
    }
  }
  // The rows: one per device, in header order.
  std::vector<std::vector<Entry>> m(d, std::vector<Entry>(d));
  std::vector<int> row_line(d, 0);
  std::vector<std::optional<std::string>> numa(d);
  for (int i = 0; i < d; ++i) {
    const std::size_t li = h + 1 + static_cast<std::size_t>(i);
    const int line_no = static_cast<int>(li) + 1;
    if (li >= lines.size() || Tokens(lines[li]).empty()) {
      throw InputError(file, LineItem(line_no),
                       "row of " + Abbreviated(dev[i]) + " missing (the header has " +
                           std::to_string(d) + " devices)");
    }
    const std::vector<std::string> t = Tokens(lines[li]);
    if (t[0] != dev[i]) {
      throw InputError(file, LineItem(line_no),
                       "row '" + Abbreviated(t[0]) + "' where the header's order expects " +
                           Abbreviated(dev[i]));
    }
    if (static_cast<int>(t.size()) < d + 1) {
      throw InputError(file, LineItem(line_no),
                       "row " + Abbreviated(dev[i]) + " has " + std::to_string(t.size() - 1) +
                           " entries, the header has " + std::to_string(d) + " devices");
    }
    row_line[i] = line_no;
    for (int j = 0; j < d; ++j) {
      std::optional<Entry> e = ParseEntry(t[j + 1]);
      if (!e) {
        throw InputError(file, LineItem(line_no),
                         Abbreviated(dev[i]) + " column " + Abbreviated(dev[j]) + ": '" +
                             Abbreviated(t[j + 1]) +
                             "' is not a connection type (X, NV#, PIX, PXB, PHB, NODE, SYS)");
      }
      if ((i == j) != (e->text == "X")) {
        throw InputError(file, LineItem(line_no),
                         Abbreviated(dev[i]) + " column " + Abbreviated(dev[j]) + ": " +
                             (i == j ? "the diagonal must be X, not '" + Abbreviated(e->text) + "'"
                                     : std::string("X off the diagonal")));
      }
      if (e->level == 0 && !(IsGpuName(dev[i]) && IsGpuName(dev[j]))) {
        throw InputError(file, LineItem(line_no),
                         Abbreviated(dev[i]) + " column " + Abbreviated(dev[j]) + ": NVLinks (" +
                             e->text + ") join GPUs only");
      }
      m[i][j] = *e;
    }
    // NUMA Affinity: after CPU Affinity on GPU rows.
    if (numa_column && static_cast<int>(t.size()) >= d + 3) {
      const std::string& n = t[d + 2];
      if (!n.empty() &&
          std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }))
        numa[i] = n;
    }
  }
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < i; ++j) {
      if (m[i][j].text != m[j][i].text) {
        throw InputError(file, LineItem(row_line[i]),
                         Abbreviated(dev[i]) + " to " + Abbreviated(dev[j]) + " is " +
                             m[i][j].text + " but " + Abbreviated(dev[j]) + " to " +
                             Abbreviated(dev[i]) + " (line " + std::to_string(row_line[j]) +
                             ") is " + m[j][i].text);
      }
    }
  }
  // The PCIe tree: switch, host-bridge and socket groups (docs/machine_import.md).
  UnionFind sw(d), hb(d), sock(d);
  std::vector<bool> placed(d, false);
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) {
      const int l = m[i][j].level;
      if (l < 1) continue;
      placed[i] = placed[j] = true;
      if (l <= 1) sw.Unite(i, j);
      if (l <= 2) hb.Unite(i, j);
      if (l <= 3) sock.Unite(i, j);
    }
  }
  {
    std::map<std::string, int> first_in_numa;
    int first_unplaced = -1;
    for (int i = 0; i < d; ++i) {
      if (numa[i]) {
        auto [it, fresh] = first_in_numa.emplace(*numa[i], i);
        if (!fresh) sock.Unite(i, it->second);
      } else if (!placed[i]) {
        if (first_unplaced < 0)
          first_unplaced = i;
        else
          sock.Unite(i, first_unplaced);
      }
    }
  }
  std::vector<int> sw_size(d, 0);
  for (int i = 0; i < d; ++i) ++sw_size[sw.Find(i)];
  for (int i = 0; i < d; ++i) {
    for (int j = 0; j < d; ++j) {
      const int l = m[i][j].level;
      if (l < 1) continue;
      const int built = sw.Find(i) == sw.Find(j)       ? 1
                        : hb.Find(i) == hb.Find(j)     ? 2
                        : sock.Find(i) == sock.Find(j) ? 3
                                                       : 4;
      if (built != l) {
        throw InputError(
            file, LineItem(row_line[i]),
            Abbreviated(dev[i]) + " to " + Abbreviated(dev[j]) + " is " + m[i][j].text +
                ", but the other entries (and NUMA affinities) place them " + Where(built));
      }
    }
  }
  // "NIC Legend:" (recent nvidia-smi) names the NIC<n> columns: "  NIC0: mlx5_0".
  std::map<std::string, std::string> legend;
  for (std::size_t li = h + 1 + static_cast<std::size_t>(d); li < lines.size(); ++li) {
    const std::vector<std::string> t = Tokens(lines[li]);
    if (t.size() == 2 && t[0].size() > 1 && t[0].back() == ':') {
      legend[t[0].substr(0, t[0].size() - 1)] = t[1];
    }
  }
  const GenerationRow row = ModelRow(o.gpu_model, lines);
  const Rational& nvlink = Pick(o, "NVLINK", row.nvlink);
  const Rational& pcie = Pick(o, "PCIE", row.pcie);
  const Rational& sys = Pick(o, "SYS", row.sys);
  Machine mach;
  std::vector<int> node(d);
  for (int pass = 0; pass < 2; ++pass) {  // GPUs first, then NICs
    for (int i = 0; i < d; ++i) {
      if (IsGpuName(dev[i]) != (pass == 0)) continue;
      auto named = legend.find(dev[i]);
      const std::string& name = pass == 1 && named != legend.end() ? named->second : dev[i];
      node[i] = mach.Add(name, pass == 0 ? NodeKind::kCompute : NodeKind::kSwitch, file,
                         LineItem(static_cast<int>(h) + 1));
      if (pass == 1) {
        mach.nics.push_back(node[i]);
        mach.nic_rate.push_back(row.net);
      }
    }
  }
  for (int i = 0; i < d; ++i) {
    for (int j = i + 1; j < d; ++j) {
      if (m[i][j].level == 0)
        mach.Link(node[i], node[j], nvlink * m[i][j].nvlinks, m[i][j].nvlinks, true);
    }
  }
  std::map<int, int> sw_node, hb_node, cpu_node;
  auto group_node = [&](std::map<int, int>& nodes, int root, const std::string& prefix) {
    auto it = nodes.find(root);
    if (it != nodes.end()) return it->second;
    const int v = mach.Add(prefix + std::to_string(nodes.size()), NodeKind::kSwitch, file, "");
    nodes[root] = v;
    return v;
  };
  for (int i = 0; i < d; ++i) {
    const int c = group_node(cpu_node, sock.Find(i), "cpu");
    const bool new_hb = !hb_node.count(hb.Find(i));
    const int b = group_node(hb_node, hb.Find(i), "hostbridge");
    if (new_hb) mach.Link(b, c, pcie);
    if (sw_size[sw.Find(i)] >= 2) {
      const bool new_sw = !sw_node.count(sw.Find(i));
      const int s = group_node(sw_node, sw.Find(i), "pcie");
      if (new_sw) mach.Link(s, b, pcie);
      mach.Link(node[i], s, pcie);
    } else {
      mach.Link(node[i], b, pcie);
    }
  }
  std::vector<int> cpus;
  for (const auto& [root, v] : cpu_node) cpus.push_back(v);
  std::sort(cpus.begin(), cpus.end());
  for (std::size_t a = 0; a < cpus.size(); ++a) {
    for (std::size_t b = a + 1; b < cpus.size(); ++b) mach.Link(cpus[a], cpus[b], sys);
  }
  return Materialize(mach, std::string("nvidia-smi ") + row.model, file, o);
}

// ---------------------------------------------------------------------------------------------
// NCCL topology XML

namespace {

class XmlReader {
 public:
  XmlReader(const std::string& file, const MachineImportOptions& o) : file_(file), o_(o) {}

  Topology Read(const std::string& text) {
    RejectNul(text, file_);
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
      throw InputError(file_, LineItem(doc.ErrorLineNum()),
                       std::string("not well-formed XML: ") + doc.ErrorName());
    }
    const tinyxml2::XMLElement* system = doc.RootElement();
    if (system == nullptr || std::string(system->Name()) != "system") {
      throw InputError(file_, system ? Item(system) : "root", "the root element must be <system>");
    }
    for (const auto* e = system->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (std::string(e->Name()) == "cpu") ReadCpu(e);
    }
    if (cpus_.empty()) throw InputError(file_, Item(system), "no <cpu> element");
    for (const auto& [gpu, el] : gpu_elements_) ReadNvLinks(gpu, el);
    for (std::size_t a = 0; a < cpus_.size(); ++a) {
      for (std::size_t b = a + 1; b < cpus_.size(); ++b)
        m_.Link(cpus_[a], cpus_[b], Pick(o_, "SYS", sys_bw_));
    }
    if (gpu_count_ == 0) throw InputError(file_, Item(system), "no GPU in the file");
    return Materialize(m_, "nccl-xml", file_, o_);
  }

 private:
  std::string Item(const tinyxml2::XMLElement* e) const {
    return "<" + Abbreviated(e->Name()) + "> at line " + std::to_string(e->GetLineNum());
  }
  std::optional<std::string> Attr(const tinyxml2::XMLElement* e, const char* name) const {
    const char* v = e->Attribute(name);
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  }
  std::string Required(const tinyxml2::XMLElement* e, const char* name) const {
    std::optional<std::string> v = Attr(e, name);
    if (!v) throw InputError(file_, Item(e), std::string("attribute ") + name + " missing");
    return *v;
  }
  // A decimal integer attribute (NCCL's xmlGetAttrInt, strtol base 0: hex "0x.." allowed).
  std::optional<long long> Int(const tinyxml2::XMLElement* e, const char* name,
                               bool required) const {
    std::optional<std::string> v = Attr(e, name);
    if (!v) {
      if (required) throw InputError(file_, Item(e), std::string("attribute ") + name + " missing");
      return std::nullopt;
    }
    std::string s = *v;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t pos = 0;
    long long x = 0;
    try {
      x = std::stoll(s, &pos, 0);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (s.empty() || pos != s.size()) {
      throw InputError(
          file_, Item(e),
          std::string("attribute ") + name + "=\"" + Abbreviated(*v) + "\" is not an integer");
    }
    return x;
  }
  static std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  void ReadCpu(const tinyxml2::XMLElement* e) {
    const long long numa = Int(e, "numaid", true).value();
    const int cpu = m_.Add("cpu" + std::to_string(numa), NodeKind::kSwitch, file_, Item(e));
    if (cpus_.empty()) sys_bw_ = InterCpuBw(e);
    cpus_.push_back(cpu);
    for (const auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string n = c->Name();
      // A NIC directly under a CPU joins it at NCCL's LOC_BW (src/graph/topo.cc ncclTopoAddCpu).
      if (n == "pci") ReadPci(c, cpu, cpu);
      if (n == "nic") ReadNic(c, cpu, Q(5000));
    }
  }

  // NCCL's ncclTopoGetInterCpuBw (src/graph/topo.cc) from the <cpu> attributes.
  Rational InterCpuBw(const tinyxml2::XMLElement* e) const {
    const std::string arch = Attr(e, "arch").value_or("");
    const std::string vendor = Attr(e, "vendor").value_or("");
    if (arch == "ppc64") return Q(32);
    if (arch == "arm64") return Q(6);
    if (arch == "x86_64" && vendor == "GenuineIntel") {
      const long long fam = Int(e, "familyid", false).value_or(0);
      const long long model = Int(e, "modelid", false).value_or(0);
      if (fam == 6 && (model >= 0xCF || model == 0xAD || model == 0xAE || model == 0xAF))
        return Q(40);
      if (fam == 6 && model >= 0x8F) return Q(22);
      if (fam == 6 && model >= 0x55) return Q(10);
      return Q(6);
    }
    if (arch == "x86_64" && vendor == "AuthenticAMD") return Q(16);
    return Q(5000);
  }

  // A PCIe link's bandwidth: link_width * per-lane speed / 80 GB/s (NCCL's ncclTopoAddPci and
  // kvDictPciGen, speeds in units of 100 Mb/s per lane; width 0 reads as 16, an unknown speed as
  // 60).
  Rational PciBw(const tinyxml2::XMLElement* e) const {
    long long width = Int(e, "link_width", false).value_or(16);
    if (width == 0) width = 16;
    if (width < 0 || width > 1024) {
      throw InputError(file_, Item(e),
                       "link_width " + std::to_string(width) + " is not a PCIe width");
    }
    static const std::map<std::string, int> gen = {
        {"2.5 GT/s", 15},        {"5 GT/s", 30},         {"8 GT/s", 60},
        {"16 GT/s", 120},        {"32 GT/s", 240},       {"2.5 GT/s PCIe", 15},
        {"5.0 GT/s PCIe", 30},   {"8.0 GT/s PCIe", 60},  {"16.0 GT/s PCIe", 120},
        {"32.0 GT/s PCIe", 240}, {"64.0 GT/s PCIe", 480}};
    auto it = gen.find(Attr(e, "link_speed").value_or(""));
    const int speed = it == gen.end() ? 60 : it->second;
    return Pick(o_, "PCIE", Rational(width * speed, 80));
  }

  void ReadPci(const tinyxml2::XMLElement* e, int parent, int cpu) {
    const std::string busid = Lower(Required(e, "busid"));
    const std::string cls = Lower(Required(e, "class"));
    const Rational bw = PciBw(e);
    const tinyxml2::XMLElement* gpu = e->FirstChildElement("gpu");
    const tinyxml2::XMLElement* nic = e->FirstChildElement("nic");
    if (gpu != nullptr) {
      const long long dev = Int(gpu, "dev", true).value();
      const long long sm = Int(gpu, "sm", true).value();
      const int v = m_.Add("GPU" + std::to_string(dev), NodeKind::kCompute, file_, Item(gpu));
      ++gpu_count_;
      AddBus(busid, v, e);
      gpu_sm_[v] = sm;
      gpu_cpu_[v] = cpu;
      m_.Link(v, parent, bw);
      gpu_elements_.emplace_back(v, gpu);
    } else if (nic != nullptr) {
      ReadNic(nic, parent, bw);
    } else if (cls.compare(0, 4, "0x03") == 0) {
      // A GPU that NCCL fills in at run time (NCCL_TOPO_FILE): known by its PCIe link only.
      const int v = m_.Add("GPU[" + busid + "]", NodeKind::kCompute, file_, Item(e));
      ++gpu_count_;
      AddBus(busid, v, e);
      m_.Link(v, parent, bw);
    } else if (cls.compare(0, 4, "0x02") == 0) {
      // A NIC without <nic><net>: NCCL's speed fallback, 10000 Mb/s.
      const int v = m_.Add("NIC[" + busid + "]", NodeKind::kSwitch, file_, Item(e));
      AddBus(busid, v, e);
      m_.Link(v, parent, bw);
      m_.nics.push_back(v);
      m_.nic_rate.push_back(Q(5, 4));
    } else {
      const int v = m_.Add("pci[" + busid + "]", NodeKind::kSwitch, file_, Item(e));
      AddBus(busid, v, e);
      m_.Link(v, parent, bw);
      for (const auto* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        if (std::string(c->Name()) == "pci") ReadPci(c, v, cpu);
        if (std::string(c->Name()) == "nic") ReadNic(c, v, bw);
      }
    }
  }

  void AddBus(const std::string& busid, int v, const tinyxml2::XMLElement* e) {
    if (!bus_.emplace(busid, v).second) {
      throw InputError(file_, Item(e), "busid " + Abbreviated(busid) + " appears twice");
    }
  }

  // Each <net> (one network device, NCCL's NET node) becomes a NIC node on the parent's link.
  void ReadNic(const tinyxml2::XMLElement* nic, int parent, const Rational& bw) {
    int count = 0;
    for (const auto* n = nic->FirstChildElement("net"); n; n = n->NextSiblingElement("net")) {
      if (!Attr(n, "dev")) continue;  // NCCL ignores a <net> without dev (ncclTopoAddNic)
      const long long dev = Int(n, "dev", true).value();
      const std::string name = Attr(n, "name").value_or("net" + std::to_string(dev));
      const int v = m_.Add(name, NodeKind::kSwitch, file_, Item(n));
      long long mbps = Int(n, "speed", false).value_or(0);
      if (mbps <= 0) mbps = 10000;  // NCCL: "Some NICs define speed = -1"
      if (mbps > 1000000000LL)
        throw InputError(file_, Item(n), "speed " + std::to_string(mbps) + " Mb/s is absurd");
      m_.Link(v, parent, bw);
      m_.nics.push_back(v);
      m_.nic_rate.push_back(Rational(mbps, 8000));
      ++count;
    }
    if (count == 0) throw InputError(file_, Item(nic), "no <net> element");
  }

  void ReadNvLinks(int gpu, const tinyxml2::XMLElement* el) {
    for (const auto* n = el->FirstChildElement("nvlink"); n; n = n->NextSiblingElement("nvlink")) {
      const long long count = Int(n, "count", true).value();
      if (count < 1 || count > 1024)
        throw InputError(
            file_, Item(n),
            "count " + std::to_string(count) + " is not a number of NVLinks (1..1024)");
      const std::string tclass = Lower(Required(n, "tclass"));
      const Rational bw = Pick(o_, "NVLINK", NcclNvLinkBw(static_cast<int>(gpu_sm_[gpu]))) * count;
      if (tclass.compare(0, 4, "0x03") == 0) {
        const std::string target = Lower(Required(n, "target"));
        auto it = bus_.find(target);
        if (it == bus_.end() || m_.kinds[it->second] != NodeKind::kCompute) {
          throw InputError(file_, Item(n),
                           "target " + Abbreviated(target) + " is no GPU of the file");
        }
        if (it->second == gpu)
          throw InputError(file_, Item(n), "target " + Abbreviated(target) + " is the GPU itself");
        m_.Link(gpu, it->second, bw, count, true, /*duplex=*/false);
      } else if (tclass == "0x068000") {
        if (nvswitch_ < 0) nvswitch_ = m_.Add("nvswitch", NodeKind::kSwitch, file_, Item(n));
        m_.Link(gpu, nvswitch_, bw, count, true);
      } else if (tclass == "0x068001") {
        m_.Link(gpu, gpu_cpu_[gpu], bw, count, true);
      } else {
        throw InputError(file_, Item(n),
                         "tclass " + Abbreviated(tclass) +
                             " is not a GPU (0x03...), NVSwitch (0x068000) or CPU (0x068001)");
      }
    }
  }

  std::string file_;
  const MachineImportOptions& o_;
  Machine m_;
  std::vector<int> cpus_;
  Rational sys_bw_;
  std::unordered_map<std::string, int> bus_;
  std::map<int, long long> gpu_sm_;
  std::map<int, int> gpu_cpu_;
  std::vector<std::pair<int, const tinyxml2::XMLElement*>> gpu_elements_;
  int gpu_count_ = 0;
  int nvswitch_ = -1;
};

}  // namespace

Topology ImportNcclTopologyXml(const std::string& text, const std::string& file,
                               const MachineImportOptions& o) {
  return XmlReader(file, o).Read(text);
}

}  // namespace collsynth
