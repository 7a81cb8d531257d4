// The MSCCL XML reader recurses once per nesting level, so it refuses a document nested deeper
// than kMscclLexerDepthGuard levels before reading the next element (proofs_check/
// msccl_xml_lexer.h): a 94 KB file nested 13,400 levels deep under a valid header used to
// overflow the stack of `replay` and `simulate`.
#include <gtest/gtest.h>

#include <string>

#include "proofs_check/msccl_xml_lexer.h"

namespace collsynth {
namespace {

// A valid <algo>/<gpu> header with `levels` nested <tb> elements below it.
std::string Nested(int levels) {
  std::string x =
      "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"1\" ngpus=\"1\" "
      "coll=\"allgather\" inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n"
      "<gpu id=\"0\" i_chunks=\"1\" o_chunks=\"1\" s_chunks=\"0\">\n";
  for (int i = 0; i < levels; ++i) x += "<tb id=\"0\">";
  for (int i = 0; i < levels; ++i) x += "</tb>";
  return x + "\n</gpu>\n</algo>\n";
}

TEST(MscclXmlLexerDepth, NestingIsBoundedBeforeTheReaderRecurses) {
  // <algo> and <gpu> are levels 1 and 2.
  const MscclXmlDocument at_limit = LexMscclXml(Nested(kMscclLexerDepthGuard - 2));
  EXPECT_TRUE(at_limit.ok) << at_limit.error;
  EXPECT_EQ(at_limit.elements.size(), static_cast<std::size_t>(kMscclLexerDepthGuard));
  const MscclXmlDocument over = LexMscclXml(Nested(kMscclLexerDepthGuard - 1));
  ASSERT_FALSE(over.ok);
  EXPECT_EQ(over.error_line, 3);
  EXPECT_NE(over.error.find("elements nested more than 256 levels deep (a resource guard of this "
                            "checker, not a runtime rule"),
            std::string::npos)
      << over.error;
  const MscclXmlDocument deep = LexMscclXml(Nested(13400));
  EXPECT_FALSE(deep.ok);
  EXPECT_EQ(deep.error, over.error);
}

}  // namespace
}  // namespace collsynth
