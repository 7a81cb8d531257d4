// The XML writer's lexical profile and file naming (export/msccl_xml.h).
#include "export/msccl_xml.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <sstream>

namespace collsynth {
namespace {

MscclProgram SmallProgram(const std::string& coll) {
  MscclProgram p;
  p.name = "two ring \"quoted\"";
  p.collective = *ParseCollective(coll);
  p.nchannels = 1;
  p.nchunksperloop = 2;
  p.ngpus = 2;
  p.gpus.resize(2);
  for (int g = 0; g < 2; ++g) {
    p.gpus[g].i_chunks = 1;
    p.gpus[g].o_chunks = 2;
    MscclBlock send{1 - g, -1, 0, {}};
    MscclStep s;
    s.type = "s";
    s.srcbuf = s.dstbuf = 'i';
    send.steps.push_back(s);
    MscclBlock recv{-1, 1 - g, 0, {}};
    MscclStep r;
    r.type = "r";
    r.srcbuf = r.dstbuf = 'o';
    r.srcoff = r.dstoff = 1 - g;
    recv.steps.push_back(r);
    p.gpus[g].blocks = {send, recv};
  }
  return p;
}

// Attributes of one element line: name="value" pairs separated by single spaces.
std::vector<std::string> AttributeNames(const std::string& line) {
  std::vector<std::string> names;
  std::regex attr(" ([A-Za-z_]+)=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), attr); it != std::sregex_iterator();
       ++it) {
    names.push_back((*it)[1]);
  }
  return names;
}

TEST(MscclXml, LexicalProfile) {
  const std::string text = MscclXmlText(SmallProgram("allgather"), MscclExportProfile::kExecutor);
  EXPECT_EQ(text.rfind("<algo ", 0), 0u);  // no declaration: <algo> is the first element
  EXPECT_EQ(text.find('\t'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find('\''), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  std::istringstream in(text);
  std::string line;
  int lines = 0;
  std::vector<std::string> stack;
  // One element per line, attributes on that line, indentation two spaces per level.
  std::regex element("^( *)<(/?)([a-z]+)((?: [A-Za-z_]+=\"[^\"]*\")*)(/?)>$");
  while (std::getline(in, line)) {
    ++lines;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, element)) << line;
    const bool closing = m[2] == "/", empty = m[5] == "/";
    if (closing) {
      ASSERT_FALSE(stack.empty());
      EXPECT_EQ(stack.back(), m[3].str());
      stack.pop_back();
    }
    EXPECT_EQ(m[1].length(), 2 * stack.size()) << line;
    if (!closing && !empty) stack.push_back(m[3]);
    EXPECT_LE(AttributeNames(line).size(), 16u) << line;
  }
  EXPECT_TRUE(stack.empty());
  EXPECT_EQ(lines, 1 + 2 * (2 + 2 * 3) + 1);
  std::string first = text.substr(0, text.find('\n'));
  EXPECT_EQ(AttributeNames(first),
            (std::vector<std::string>{"name", "proto", "nchannels", "nchunksperloop", "ngpus",
                                      "coll", "inplace", "outofplace", "minBytes", "maxBytes"}));
  EXPECT_NE(first.find("name=\"two_ring__quoted_\""),
            std::string::npos);  // no quote can end a value early
  EXPECT_NE(
      text.find(
          "<step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" cnt=\"1\" "
          "depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>"),
      std::string::npos);
}

TEST(MscclXml, CollectiveSpellingPerProfile) {
  EXPECT_NE(MscclXmlText(SmallProgram("reduce-scatter"), MscclExportProfile::kExecutor)
                .find("coll=\"reducescatter\""),
            std::string::npos);
  EXPECT_NE(MscclXmlText(SmallProgram("reduce-scatter"), MscclExportProfile::kRccl)
                .find("coll=\"reducescatter\""),
            std::string::npos);
  EXPECT_NE(MscclXmlText(SmallProgram("reduce-scatter"), MscclExportProfile::kLegacy)
                .find("coll=\"reduce_scatter\""),
            std::string::npos);
}

TEST(MscclXml, LegacyWritesCamelCaseAndAlwaysBoundsMaxBytes) {
  // microsoft/msccl src/graph/topo.cc reads minBytes/maxBytes on <algo> (case-sensitive
  // names) and selects a file for bytes < maxBytes, so "unbounded" is a finite value there.
  MscclProgram p = SmallProgram("allgather");
  EXPECT_NE(MscclXmlText(p, MscclExportProfile::kExecutor).find("maxBytes=\"0\""),
            std::string::npos);
  const std::string legacy = MscclXmlText(p, MscclExportProfile::kLegacy);
  EXPECT_NE(legacy.find(" minBytes=\"0\" maxBytes=\"1099511627776\">"), std::string::npos)
      << legacy;
  EXPECT_EQ(legacy.find("maxbytes"), std::string::npos);
  EXPECT_EQ(legacy.find("minbytes"), std::string::npos);
  p.min_bytes = 1024;
  p.max_bytes = 65536;
  EXPECT_NE(
      MscclXmlText(p, MscclExportProfile::kLegacy).find(" minBytes=\"1024\" maxBytes=\"65536\">"),
      std::string::npos);
}

TEST(MscclXml, FileNamesSortLikeSizes) {
  MscclProgram p = SmallProgram("allgather");
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
      {1048576, 0}, {0, 1023}, {1024, 1048575}, {1099511627776, 0}};
  std::vector<std::string> names;
  for (auto [lo, hi] : ranges) {
    p.min_bytes = lo;
    p.max_bytes = hi;
    names.push_back(MscclFileName(p, MscclExportProfile::kExecutor));
  }
  EXPECT_EQ(names[1],
            "allgather-n2-Simple-outofplace-00000000000000000000-00000000000000001023.xml");
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::string>{names[1], names[2], names[0], names[3]}));
}

}  // namespace
}  // namespace collsynth
