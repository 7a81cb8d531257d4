#include "proofs_check/msccl_xml_lexer.h"

#include <cstdint>
#include <cstdio>
#include <map>

namespace collsynth {

const std::string* MscclXmlElement::Find(const std::string& key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

namespace {

// A character as the runtime's messages quote it.
std::string Show(int c) {
  if (c < 0) return "end of file";
  switch (c) {
    case '\n':
      return "'\\n'";
    case '\r':
      return "'\\r'";
    case '\t':
      return "'\\t'";
    default:
      break;
  }
  if (c < 0x20 || c >= 0x7f) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "'\\x%02X'", c & 0xff);
    return buf;
  }
  return std::string("'") + static_cast<char>(c) + "'";
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  MscclXmlDocument Run() {
    if (!SkipSpaceAndComments()) return Fail();
    if (Peek() < 0) return Error("the file holds no element"), Fail();
    if (Peek() != '<') return Error("expecting '<', got " + Show(Peek())), Fail();
    if (!Element(-1, 1)) return Fail();
    if (!SkipSpaceAndComments()) return Fail();
    if (Peek() >= 0) {
      Error("content after the closing tag of <" + doc_.elements[0].name + ">: got " +
            Show(Peek()) + " (only whitespace and comments may follow)");
      return Fail();
    }
    if (!CountPerRank()) return Fail();
    doc_.ok = true;
    return std::move(doc_);
  }

 private:
  int Peek() const { return pos_ < text_.size() ? static_cast<unsigned char>(text_[pos_]) : -1; }
  int Get() {
    const int c = Peek();
    if (c < 0) return c;
    ++pos_;
    if (c == '\n') {
      ++line_;
      line_start_ = pos_;
    }
    return c;
  }
  bool StartsWith(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }

  // Records the first error at the current position (the character just read or to read).
  void Error(const std::string& problem, bool at_previous = false) {
    if (!error_.empty()) return;
    std::size_t p = at_previous && pos_ > 0 ? pos_ - 1 : pos_;
    int line = line_;
    std::size_t start = line_start_;
    if (p < start) {  // the previous character was the newline itself
      --line;
      start = text_.rfind('\n', p == 0 ? 0 : p - 1);
      start = start == std::string_view::npos ? 0 : start + 1;
    }
    error_line_ = line;
    error_ = "line " + std::to_string(line) + " column " + std::to_string(p - start + 1) + ": " +
             problem;
  }
  MscclXmlDocument Fail() {
    MscclXmlDocument d;
    d.ok = false;
    d.error = error_.empty() ? "unreadable" : error_;
    d.error_line = error_line_;
    d.notes = std::move(doc_.notes);
    return d;
  }

  // Whitespace is ' ', '\n', '\r'; comments <!-- ... --> count as whitespace.
  bool SkipSpaceAndComments() {
    for (;;) {
      const int c = Peek();
      if (c == ' ' || c == '\n' || c == '\r') {
        Get();
      } else if (StartsWith("<!--")) {
        const std::size_t end = text_.find("-->", pos_ + 4);
        if (end == std::string_view::npos) {
          Error("comment not closed before the end of the file");
          return false;
        }
        while (pos_ < end + 3) Get();
      } else {
        return true;
      }
    }
  }

  // Reads a name up to (not including) ' ', '>', '/', '\n', '\r', '=' or end of file.
  bool Name(std::string* out, const char* what) {
    out->clear();
    for (;;) {
      const int c = Peek();
      if (c < 0 || c == ' ' || c == '>' || c == '/' || c == '\n' || c == '\r' || c == '=') break;
      out->push_back(static_cast<char>(Get()));
      if (out->size() >= static_cast<std::size_t>(kMscclMaxStrLen)) {
        Error(std::string(what) + " longer than " + std::to_string(kMscclMaxStrLen - 1) +
              " characters");
        return false;
      }
    }
    return true;
  }

  // After '<' of an opening tag. parent = -1 for the top-level element, depth 1.
  bool Element(int parent, int depth) {
    Get();  // '<'
    if (depth > kMscclLexerDepthGuard) {
      // Checked before the element is read, so the recursion stays within the guard.
      Error("elements nested more than " + std::to_string(kMscclLexerDepthGuard) +
            " levels deep (a resource guard of this checker, not a runtime rule; the runtimes' "
            "schema has 4 levels: algo, gpu, tb, step)");
      return false;
    }
    if (doc_.elements.size() >= static_cast<std::size_t>(kMscclLexerElementGuard)) {
      Error("more than " + std::to_string(kMscclLexerElementGuard) +
            " elements (a resource guard of this checker, not a runtime rule)");
      return false;
    }
    const int index = static_cast<int>(doc_.elements.size());
    doc_.elements.emplace_back();
    doc_.elements[index].parent = parent;
    doc_.elements[index].line = line_;
    std::string name;
    if (!Name(&name, "element name")) return false;
    if (name.empty()) {
      Error("expected an element name, got " + Show(Peek()));
      return false;
    }
    doc_.elements[index].name = name;
    if (parent >= 0) {
      auto& siblings = doc_.elements[parent].children;
      if (siblings.size() >= static_cast<std::size_t>(kMscclMaxSubs)) {
        Error("<" + doc_.elements[parent].name + "> has more than " +
              std::to_string(kMscclMaxSubs) + " children (MAX_SUBS)");
        return false;
      }
      siblings.push_back(index);
    }
    int c = Peek();
    int count = 0;
    while (c == ' ') {
      Get();
      std::string key;
      if (!Name(&key, "attribute name")) return false;
      c = Peek();
      if (key.empty() && (c == '>' || c == '/')) break;  // one space before the end
      if (c != '=') {
        Error("expected =, got " + Show(c) + " after attribute name '" + key + "'");
        return false;
      }
      Get();
      const int quote = Get();
      if (quote != '"' && quote != '\'') {
        Error("expected a double quote, got " + Show(quote), true);
        return false;
      }
      std::string value;
      for (;;) {
        const int v = Get();
        if (v < 0) {
          Error("end of file inside the value of attribute '" + key + "'");
          return false;
        }
        if (v == '"') break;
        value.push_back(static_cast<char>(v));
        if (value.size() >= static_cast<std::size_t>(kMscclMaxStrLen)) {
          Error("value of attribute '" + key + "' longer than " +
                std::to_string(kMscclMaxStrLen - 1) + " characters");
          return false;
        }
      }
      ++count;
      MscclXmlElement& e = doc_.elements[index];
      if (count > kMscclMaxAttrCount) {
        doc_.notes.push_back("line " + std::to_string(line_) + ": <" + name + "> attribute '" +
                             key + "' ignored (more than " + std::to_string(kMscclMaxAttrCount) +
                             " attributes)");
      } else if (e.Find(key) != nullptr) {
        doc_.notes.push_back("line " + std::to_string(line_) + ": <" + name +
                             "> repeats attribute '" + key + "'; the first value is used");
      } else {
        e.attributes.emplace_back(std::move(key), std::move(value));
      }
      c = Peek();
    }
    bool single = false;
    if (c == '/') {
      Get();
      single = true;
      c = Peek();
    }
    if (c != '>') {
      Error("expected >, got " + Show(c));
      return false;
    }
    Get();
    if (single) return true;
    // Children until the matching closing tag.
    for (;;) {
      if (!SkipSpaceAndComments()) return false;
      c = Peek();
      if (c < 0) {
        Error("end of file: <" + name + "> (line " + std::to_string(doc_.elements[index].line) +
              ") is not closed");
        return false;
      }
      if (c != '<') {
        Error("expecting '<', got " + Show(c));
        return false;
      }
      if (StartsWith("</")) {
        Get();
        Get();
        std::string closing;
        if (!Name(&closing, "element name")) return false;
        if (closing != name) {
          Error("closing tag </" + closing + "> does not match <" + name + "> (line " +
                std::to_string(doc_.elements[index].line) + ")");
          return false;
        }
        if (Peek() != '>') {
          Error("expected >, got " + Show(Peek()));
          return false;
        }
        Get();
        return true;
      }
      if (!Element(index, depth + 1)) return false;
    }
  }

  // MAX_NODES as the runtime applies it: a rank loading the file counts the top-level element,
  // every <gpu> child of it, and the <tb> children and their <step> children of the <gpu>
  // whose id is its rank only; the count must stay below kMscclMaxNodes (checked before every
  // read, closing tags included). Checked for every id that a <gpu> carries.
  bool CountPerRank() {
    const MscclXmlElement& top = doc_.elements[0];
    std::int64_t gpus = 0;
    std::map<std::string, std::pair<std::int64_t, int>> own;  // id -> (tb + step, first line)
    for (int gi : top.children) {
      const MscclXmlElement& g = doc_.elements[gi];
      if (g.name != "gpu") continue;
      ++gpus;
      const std::string* id = g.Find("id");
      if (id == nullptr) continue;
      auto [it, fresh] = own.try_emplace(*id, 0, g.line);
      for (int ti : g.children) {
        const MscclXmlElement& tb = doc_.elements[ti];
        if (tb.name != "tb") continue;
        ++it->second.first;
        for (int si : tb.children) it->second.first += doc_.elements[si].name == "step" ? 1 : 0;
      }
    }
    for (const auto& [id, counted] : own) {
      const std::int64_t total = 1 + gpus + counted.first;
      if (total >= kMscclMaxNodes) {
        error_line_ = counted.second;
        error_ = "line " + std::to_string(counted.second) + ": rank " + id + " counts " +
                 std::to_string(total) + " elements (<" + top.name + ">, " + std::to_string(gpus) +
                 " <gpu>, " + std::to_string(counted.first) +
                 " <tb>/<step> of its own <gpu>), the runtime's parser allows at most " +
                 std::to_string(kMscclMaxNodes - 1) + " (MAX_NODES)";
        return false;
      }
    }
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;
  std::string error_;
  int error_line_ = 0;
  MscclXmlDocument doc_;
};

}  // namespace

MscclXmlDocument LexMscclXml(std::string_view text) { return Lexer(text).Run(); }

}  // namespace collsynth
