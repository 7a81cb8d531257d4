#include "export/msccl_xml.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "core/input_error.h"

namespace collsynth {

std::string MscclCollName(Collective collective, MscclExportProfile profile) {
  switch (collective) {
    case Collective::kReduceScatter:
      return profile == MscclExportProfile::kLegacy ? "reduce_scatter" : "reducescatter";
    case Collective::kAllgather:
      return "allgather";
    case Collective::kAllreduce:
      return "allreduce";
    case Collective::kBroadcast:
      return "broadcast";
    case Collective::kAlltoall:
      return "alltoall";
  }
  throw std::logic_error("MscclCollName: unknown collective");
}

std::int64_t MscclWrittenMaxBytes(const MscclProgram& p, MscclExportProfile profile) {
  if (profile == MscclExportProfile::kLegacy && p.max_bytes == 0) {
    return kMscclLegacyUnboundedMaxBytes;
  }
  return p.max_bytes;
}

std::int64_t MscclMaxScratchChunks(const MscclProgram& p) {
  std::int64_t most = 0;
  for (const MscclGpu& gpu : p.gpus) most = std::max(most, gpu.s_chunks);
  return most;
}

namespace {

// Attribute values: the lexer reads up to the next '"' and knows no entities, so a value
// keeps only characters that need no escaping.
std::string SafeValue(const std::string& text) {
  std::string out;
  for (char c : text) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.';
    out += ok ? c : '_';
    if (out.size() >= 200) break;
  }
  return out.empty() ? "collsynth" : out;
}

void Attr(std::string* out, const char* name, const std::string& value) {
  *out += ' ';
  *out += name;
  *out += "=\"";
  *out += value;
  *out += '"';
}

void Attr(std::string* out, const char* name, std::int64_t value) {
  Attr(out, name, std::to_string(value));
}

}  // namespace

std::string MscclXmlText(const MscclProgram& p, MscclExportProfile profile) {
  std::string out;
  out += "<algo";
  Attr(&out, "name", SafeValue(p.name));
  Attr(&out, "proto", p.proto);
  Attr(&out, "nchannels", p.nchannels);
  Attr(&out, "nchunksperloop", p.nchunksperloop);
  Attr(&out, "ngpus", p.ngpus);
  Attr(&out, "coll", MscclCollName(p.collective, profile));
  Attr(&out, "inplace", p.inplace ? 1 : 0);
  Attr(&out, "outofplace", p.inplace ? 0 : 1);
  // Every runtime reads the camel-case names on <algo> (the legacy one too: microsoft/msccl
  // src/graph/topo.cc; its lower-case spelling belongs to the <load> element of a config file).
  Attr(&out, "minBytes", p.min_bytes);
  Attr(&out, "maxBytes", MscclWrittenMaxBytes(p, profile));
  out += ">\n";
  for (std::size_t g = 0; g < p.gpus.size(); ++g) {
    const MscclGpu& gpu = p.gpus[g];
    out += "  <gpu";
    Attr(&out, "id", static_cast<std::int64_t>(g));
    Attr(&out, "i_chunks", gpu.i_chunks);
    Attr(&out, "o_chunks", gpu.o_chunks);
    Attr(&out, "s_chunks", gpu.s_chunks);
    out += ">\n";
    for (std::size_t b = 0; b < gpu.blocks.size(); ++b) {
      const MscclBlock& tb = gpu.blocks[b];
      out += "    <tb";
      Attr(&out, "id", static_cast<std::int64_t>(b));
      Attr(&out, "send", tb.send);
      Attr(&out, "recv", tb.recv);
      Attr(&out, "chan", tb.chan);
      out += ">\n";
      for (std::size_t s = 0; s < tb.steps.size(); ++s) {
        const MscclStep& st = tb.steps[s];
        out += "      <step";
        Attr(&out, "s", static_cast<std::int64_t>(s));
        Attr(&out, "type", st.type);
        Attr(&out, "srcbuf", std::string(1, st.srcbuf));
        Attr(&out, "srcoff", st.srcoff);
        Attr(&out, "dstbuf", std::string(1, st.dstbuf));
        Attr(&out, "dstoff", st.dstoff);
        Attr(&out, "cnt", st.cnt);
        Attr(&out, "depid", st.depid);
        Attr(&out, "deps", st.deps);
        Attr(&out, "hasdep", st.hasdep ? 1 : 0);
        out += "/>\n";
      }
      out += "    </tb>\n";
    }
    out += "  </gpu>\n";
  }
  out += "</algo>\n";
  return out;
}

std::string MscclFileName(const MscclProgram& p, MscclExportProfile profile) {
  char range[64];
  std::snprintf(range, sizeof range, "%020lld-%020lld", static_cast<long long>(p.min_bytes),
                static_cast<long long>(MscclWrittenMaxBytes(p, profile)));
  return MscclCollName(p.collective, profile) + "-n" + std::to_string(p.ngpus) + "-" + p.proto +
         "-" + (p.inplace ? "inplace" : "outofplace") + "-" + range + ".xml";
}

void CheckMscclLegacyScratchRange(const MscclProgram& p, const MscclExportOptions& o) {
  if (o.profile != MscclExportProfile::kLegacy || o.max_bytes != 0) return;
  if (MscclMaxScratchChunks(p) == 0) return;
  throw InputError("<args>", "--max-bytes",
                   "the legacy runtime allocates maxBytes * s_chunks / nchunksperloop bytes of "
                   "scratch (here s_chunks " +
                       std::to_string(MscclMaxScratchChunks(p)) + ", nchunksperloop " +
                       std::to_string(p.nchunksperloop) +
                       ") and has no unbounded maxBytes: give --max-bytes with --profile legacy");
}

}  // namespace collsynth
