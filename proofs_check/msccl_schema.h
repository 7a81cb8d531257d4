// Stage 1 of the MSCCL XML replay checker (proofs_check/msccl_replay.h): schema and limits
// per runtime profile (docs/export.md "The MSCCL XML schema", "Step types,
// dependencies and flags", "Compile-time limits", H1/H3/H4/H5), read from the
// element tree of stage 0 (msccl_xml_lexer.h) into the typed model (msccl_model.h). Every
// violation goes to the reporter; the model is complete only when none was reported.
// Complexity O(elements · log).
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCL_SCHEMA_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCL_SCHEMA_H_

#include "proofs_check/msccl_model.h"
#include "proofs_check/msccl_xml_lexer.h"
#include "proofs_check/replay_report.h"

namespace collsynth::msccl {

// Reads `doc` (lexed without error) into *algo; fills result->coll, proto, ngpus,
// nchunksperloop and notes.
void ReadMscclSchema(const MscclXmlDocument& doc, const ReplayOptions& options, Reporter* rep,
                     Algo* algo, ReplayResult* result);

}  // namespace collsynth::msccl

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCL_SCHEMA_H_
