// MSCCL XML text of an MscclProgram in the lexical profile the runtimes' hand-written lexer
// accepts (docs/export.md "The MSCCL XML lexer"): no XML declaration, `<algo ...>` first, two-space
// indentation, one element per line, every attribute on the element's line in double quotes
// separated by single spaces, at most 16 attributes, no tabs, LF line ends. `<algo>` always
// carries name proto nchannels nchunksperloop ngpus coll inplace outofplace minBytes maxBytes
// (this spelling for every runtime: the legacy one reads minBytes/maxBytes on <algo> too,
// microsoft/msccl src/graph/topo.cc, and compares names case-sensitively);
// every step all ten attributes (s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep).
// `coll` is `reducescatter` for the executor and RCCL profiles and `reduce_scatter` for the
// legacy runtime. Cost: linear in the program. Never prints.
#ifndef COLLSYNTH_EXPORT_MSCCL_XML_H_
#define COLLSYNTH_EXPORT_MSCCL_XML_H_

#include <cstdint>
#include <string>

#include "export/msccl_program.h"

namespace collsynth {

// The value of `coll` for the profile ("allgather", "reducescatter"/"reduce_scatter",
// "allreduce", "broadcast").
std::string MscclCollName(Collective collective, MscclExportProfile profile);

// maxBytes as written. The executor and RCCL read 0 as "no bound". The legacy runtime selects
// a file only for bytes < maxBytes (0 selects nothing, a missing maxBytes means 2^27) and
// allocates maxBytes * s_chunks / nchunksperloop bytes of scratch (microsoft/msccl
// src/init.cc), so with the legacy profile an unbounded range (0) is written as
// kMscclLegacyUnboundedMaxBytes, and only for a program without scratch chunks:
// CheckMscclLegacyScratchRange below refuses the rest.
inline constexpr std::int64_t kMscclLegacyUnboundedMaxBytes = std::int64_t{1} << 40;
std::int64_t MscclWrittenMaxBytes(const MscclProgram& p, MscclExportProfile profile);

// The largest s_chunks over the program's GPUs.
std::int64_t MscclMaxScratchChunks(const MscclProgram& p);
// The legacy runtime allocates maxBytes * s_chunks / nchunksperloop bytes of scratch and has no
// unbounded maxBytes: InputError("<args>", "--max-bytes", ...) for --profile legacy without
// --max-bytes when the program uses scratch.
void CheckMscclLegacyScratchRange(const MscclProgram& p, const MscclExportOptions& options);

// The XML document (ends with a newline).
std::string MscclXmlText(const MscclProgram& p, MscclExportProfile profile);

// `<coll>-n<ngpus>-<proto>-<inplace|outofplace>-<minBytes:020d>-<maxBytes:020d>.xml`: the
// executor loads every file of MSCCL_ALGO_DIR and uses the first eligible one in
// lexicographic path order, so zero-padded byte ranges make that order the size order.
std::string MscclFileName(const MscclProgram& p, MscclExportProfile profile);

}  // namespace collsynth

#endif  // COLLSYNTH_EXPORT_MSCCL_XML_H_
