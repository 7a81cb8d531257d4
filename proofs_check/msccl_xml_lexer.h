// Stage 0 of the MSCCL XML replay checker (proofs_check/msccl_replay.h): lexical acceptance
// by the rules of the MSCCL executor's hand-written XML lexer, re-implemented from their
// description in docs/export.md "The MSCCL XML lexer" (no foreign parser code), and the element
// tree it builds.
//
// Rules (each a rejection, with line and column of the offending character):
//   - between elements only ' ', '\n' and '\r' (a tab, text or a byte-order mark is
//     "expecting '<'"); comments <!-- ... --> may stand wherever whitespace may;
//   - an element is '<' NAME, then attributes, each introduced by exactly one space:
//     ' ' KEY '=' '"' VALUE '"', then '>' or '/>' (one space before it is tolerated); anything
//     else after a value (a newline, a second space, '?' of an XML declaration) is
//     "expected >";
//   - a value is opened by '"' or '\'' but ends only at the next '"' (so single-quoted values
//     run on and fail), names and values are at most kMaxStrLen-1 = 254 characters;
//   - the first kMaxAttrCount = 16 attributes of an element are kept, further ones are ignored
//     with a note (as the runtime does): a required attribute after the 16th is missing;
//   - at most kMaxSubs = 1024 children per element;
//   - MAX_NODES = 4096 per loading rank, not per file: the runtime's parser (msccl_parser.cc,
//     mscclXmlLoadSub / mscclAlgoXmlGpu) counts an element only when a handler matches it, and
//     only the <gpu> whose id is the loading rank gets the <tb>/<step> handlers. For every
//     <gpu> id r: 1 (top element) + number of <gpu> + <tb> and <step> under gpu r <= 4095 (the
//     count is checked against 4096 before every read, closing tags included). The error
//     names the rank and the line of its <gpu>;
//   - a resource guard of this checker, not a runtime rule: at most kMscclLexerElementGuard
//     elements in all (far above any file a runtime could load for a sane rank count);
//   - a resource guard of this checker, not a runtime rule: elements nest at most
//     kMscclLexerDepthGuard levels (the reader recurses once per level; the runtimes' schema
//     has 4 levels);
//   - closing tags '</NAME>' must match; the file holds one top-level element, followed only by
//     whitespace and comments (conservative: the runtime stops reading there).
// Duplicate attribute names keep the first value (note). Complexity O(|text|).
#ifndef COLLSYNTH_PROOFS_CHECK_MSCCL_XML_LEXER_H_
#define COLLSYNTH_PROOFS_CHECK_MSCCL_XML_LEXER_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collsynth {

inline constexpr int kMscclMaxStrLen = 255;
inline constexpr int kMscclMaxAttrCount = 16;
inline constexpr int kMscclMaxSubs = 1024;
inline constexpr int kMscclMaxNodes = 4096;              // per loading rank (see above)
inline constexpr int kMscclLexerElementGuard = 1 << 22;  // checker resource guard only
inline constexpr int kMscclLexerDepthGuard = 256;        // checker resource guard only

struct MscclXmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // at most 16, in file order
  std::vector<int> children;                                    // indices into elements
  int parent = -1;
  int line = 0;

  // The value of attribute `key`, or nullptr.
  const std::string* Find(const std::string& key) const;
};

struct MscclXmlDocument {
  bool ok = false;
  std::string error;  // when !ok: "line L column C: PROBLEM"
  int error_line = 0;
  std::vector<MscclXmlElement> elements;  // elements[0] is the top-level element when ok
  std::vector<std::string> notes;         // ignored attributes, duplicates
};

// Lexes `text` by the rules above. Never throws for any input.
MscclXmlDocument LexMscclXml(std::string_view text);

}  // namespace collsynth

#endif  // COLLSYNTH_PROOFS_CHECK_MSCCL_XML_LEXER_H_
