// Independent replay checker for MSCCL executor XML files (design and
// semantics in docs/export.md "Replay checker", runtime facts in "Runtime facts"). Proves that a
// file (any file: ours, msccl-tools', ForestColl's, hand-written) is accepted by the runtime and
// implements its collective. Shares no code with any exporter; never prints.
//
// Stages, run in order; the first stage with a violation ends the check:
//   0 lexical  the runtime's hand-written lexer rules (msccl_xml_lexer.h);
//   1 schema   required attributes per profile, types, ranges and limits (§2.4, §2.7, §8.5
//              H1/H3/H4/H5), dependencies (existing block and step, hasdep, nop chains);
//   2 fifo     per connector (src, dst, channel) the sender's cnt sequence equals the
//              receiver's (H2);
//   3 execute  event-driven symbolic execution of every thread block of every GPU for
//              `iterations` rounds of the chunk loop, on cells holding contribution sets,
//              with the kernel's enabling rules (flags published only by hasdep steps,
//              connectors holding `fifo_depth` one-chunk transfers); reports deadlock (with
//              the wait-for cycle), races (unordered accesses by two blocks to one cell, one
//              a write; happens-before from program order, flag and send->receive edges),
//              double counting, reads of uninitialised cells, writes to the input of an
//              out-of-place run, and the postcondition of allgather / reducescatter /
//              allreduce / broadcast for each of the in-place / out-of-place modes the file
//              claims.
// Complexity: stage 3 keeps vector clocks over the blocks of one GPU (B_g entries) and
// decides pairs they do not order by an exact search of the event graph
// (msccl_execution.h): O(E·B_g) time for E events when the per-GPU clocks suffice, plus a
// search over the events between the two accesses per pair they do not order;
// O(B·B_g + E) memory for B blocks in all. The runtime caps each rank at 4095 counted
// elements (the lexer).
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCL_REPLAY_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCL_REPLAY_H_

#include <string>

#include "proofs_check/replay_report.h"

namespace collsynth {

// Runs the stages on the XML `text`. `file` is the caller's name for it and is not quoted:
// messages locate a fault by line, gpu, tb and step, and the caller prints the file name.
// Never throws for any text (a rejection is a violation); throws std::invalid_argument for
// bad options (fifo_depth < 0, iterations < 1, max_violations < 1).
ReplayResult ReplayMscclXml(const std::string& text, const std::string& file,
                            const ReplayOptions& options);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCL_REPLAY_H_
