// MAX_NODES of the runtime's MSCCL XML parser is a limit per loading rank, not per file
// (proofs_check/msccl_xml_lexer.h): a rank counts <algo>, every <gpu>, and the <tb>/<step> of
// its own <gpu> only, at most 4095 in all. Files far above 4096 elements in total load.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "proofs_check/msccl_xml_lexer.h"

namespace collsynth {
namespace {

// <algo> with one <gpu> per entry of own; gpu r holds own[r] = {steps of tb 0, of tb 1, ...}.
std::string Algo(const std::vector<std::vector<int>>& own) {
  std::string x = "<algo name=\"t\">\n";
  for (std::size_t r = 0; r < own.size(); ++r) {
    x += "  <gpu id=\"" + std::to_string(r) + "\">\n";
    for (int steps : own[r]) {
      x += "    <tb id=\"0\">\n";
      for (int s = 0; s < steps; ++s) x += "      <step s=\"0\"/>\n";
      x += "    </tb>\n";
    }
    x += "  </gpu>\n";
  }
  return x + "</algo>\n";
}

TEST(MscclXmlLexerRankLimit, OtherGpusChildrenAreNotCounted) {
  // Two ranks of 1 + 2 + 4 + 4088 = 4095 counted elements each: 8187 elements in the file.
  const std::vector<int> full = {1022, 1022, 1022, 1022};
  const MscclXmlDocument d = LexMscclXml(Algo({full, full}));
  EXPECT_TRUE(d.ok) << d.error;
  EXPECT_EQ(d.elements.size(), 8187u);
}

TEST(MscclXmlLexerRankLimit, OneRankAtExactly4095IsAcceptedAnd4096IsRejected) {
  // Three gpus: rank 1 counts 1 + 3 + 4 tbs + 4087 steps = 4095, one step more is 4096.
  const std::vector<int> ok_rank = {1022, 1022, 1022, 1021};
  const std::vector<int> at_limit = {1022, 1022, 1022, 1022};
  const MscclXmlDocument ok = LexMscclXml(Algo({{1}, ok_rank, {1}}));
  EXPECT_TRUE(ok.ok) << ok.error;
  const MscclXmlDocument bad = LexMscclXml(Algo({{1}, at_limit, {1}}));
  ASSERT_FALSE(bad.ok);
  EXPECT_EQ(bad.error,
            "line 7: rank 1 counts 4096 elements (<algo>, 3 <gpu>, 4092 <tb>/<step> of its own "
            "<gpu>), the runtime's parser allows at most 4095 (MAX_NODES)");
  EXPECT_EQ(bad.error_line, 7);
}

}  // namespace
}  // namespace collsynth
