#include "schedules/steps_text_reader.h"

#include <climits>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/input_error.h"
#include "core/json_io.h"
#include "core/rational.h"

namespace collsynth {
namespace {

using nlohmann::json;

bool IsJsonSpace(int c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
bool IsSimpleChar(int c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\'; }

// Header values nested deeper than this are left to the JSON reader (whose kMaxJsonDepth
// counts the top-level object too).
constexpr int kMaxSkipDepth = 32;

// Tokens of the subset; every function skips JSON whitespace first and returns false for
// anything else (the caller then gives up: the plain read decides).
class Scanner {
 public:
  explicit Scanner(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  void Space() {
    while (p_ != end_ && IsJsonSpace(*p_)) ++p_;
  }
  bool AtEnd() {
    Space();
    return p_ == end_;
  }
  bool Eat(char c) {
    Space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool Peek(char c) {
    Space();
    return p_ != end_ && *p_ == c;
  }
  // A string of printable ASCII without escapes: the text between the quotes.
  bool SimpleString(std::string_view* out) {
    if (!Eat('"')) return false;
    const char* begin = p_;
    while (p_ != end_ && IsSimpleChar(static_cast<unsigned char>(*p_))) ++p_;
    if (p_ == end_ || *p_ != '"') return false;
    *out = std::string_view(begin, static_cast<std::size_t>(p_ - begin));
    ++p_;
    return true;
  }
  // An unsigned JSON integer of 1..max_digits digits (max_digits <= 18), no leading zero;
  // what follows must not continue a number.
  bool Unsigned(int max_digits, std::int64_t* out) {
    Space();
    const char* begin = p_;
    std::int64_t v = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      if (p_ - begin == max_digits) return false;
      v = v * 10 + (*p_ - '0');
      ++p_;
    }
    if (p_ == begin || (p_ - begin > 1 && *begin == '0')) return false;
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || *p_ == '-' || *p_ == '+'))
      return false;
    *out = v;
    return true;
  }
  // The text of one JSON value of any kind, not validated (the JSON reader reads it):
  // a string, a container (up to its matching bracket) or a scalar (up to a delimiter).
  bool SkipValue(std::string_view* out) {
    Space();
    const char* begin = p_;
    if (p_ == end_) return false;
    if (*p_ == '"') {
      if (!SkipString()) return false;
    } else if (*p_ == '{' || *p_ == '[') {
      int depth = 0;
      do {
        const char c = *p_;
        if (c == '"') {
          if (!SkipString()) return false;
          continue;
        }
        if (c == '{' || c == '[') {
          if (++depth > kMaxSkipDepth) return false;
        } else if (c == '}' || c == ']') {
          --depth;
        }
        ++p_;
      } while (depth > 0 && p_ != end_);
      if (depth > 0) return false;
    } else {
      while (p_ != end_ && *p_ != ',' && *p_ != '}' && *p_ != ']' && !IsJsonSpace(*p_)) ++p_;
    }
    *out = std::string_view(begin, static_cast<std::size_t>(p_ - begin));
    return !out->empty();
  }

 private:
  bool SkipString() {  // at the opening quote
    ++p_;
    while (p_ != end_ && *p_ != '"') {
      if (*p_ == '\\' && ++p_ == end_) return false;
      ++p_;
    }
    if (p_ == end_) return false;
    ++p_;
    return true;
  }

  const char* p_;
  const char* end_;
};

class StepsTextReader {
 public:
  StepsTextReader(std::string_view text, const Topology& g, const std::string& file,
                  bool keep_extra)
      : in_(text), g_(g), file_(file), keep_extra_(keep_extra) {}

  std::optional<FlatStepSchedule> Read() {
    if (!in_.Eat('{') || in_.Peek('}')) return std::nullopt;
    json header = json::object();
    std::set<std::string_view> keys;
    FlatStepSchedule f;
    f.values = {Rational(0), Rational(1)};  // kZero, kOne: the integer endpoints
    in_unit_ = {1, 1};
    bool have_sends = false;
    do {
      std::string_view key;
      if (!in_.SimpleString(&key) || !in_.Eat(':')) return std::nullopt;
      if (key == "sends") {
        if (have_sends || !Sends(&f)) return std::nullopt;
        have_sends = true;
        continue;
      }
      std::string_view text;
      if (!in_.SkipValue(&text)) return std::nullopt;
      if (!keys.emplace(key).second) return std::nullopt;  // a key repeated
      const bool metadata = !IsContractKey(key);
      json value;
      try {
        // Producer metadata the caller does not keep is read with the same rules and
        // dropped array element by array element (a BFB schedule's certificates are 10^4
        // objects).
        value = metadata && !keep_extra_ ? ParseJsonText(std::string(text), file_,
                                                         [](const std::vector<std::string>&, json&,
                                                            const json&) { return true; })
                                         : ParseJsonText(std::string(text), file_);
      } catch (const InputError&) {
        return std::nullopt;
      }
      if (key == "format" && value != "steps") return std::nullopt;
      if (metadata && !keep_extra_) continue;
      header.emplace(std::string(key), std::move(value));
    } while (in_.Eat(','));
    if (!in_.Eat('}') || !in_.AtEnd() || !have_sends) return std::nullopt;
    // The header with the plain read's rules (and its order of checks).
    header["sends"] = json::array();
    StepSchedule s;
    try {
      s = StepScheduleFromJson(header, g_, file_);
    } catch (const InputError&) {
      return std::nullopt;
    }
    f.collective = s.collective;
    f.root = s.root;
    f.rs_steps = s.rs_steps;
    f.claimed_tl = s.claimed_tl;
    f.claimed_tb = std::move(s.claimed_tb);
    f.extra = std::move(s.extra);
    return f;
  }

 private:
  static constexpr std::int32_t kZero = 0, kOne = 1;  // indices of 0 and 1 in values

  bool Sends(FlatStepSchedule* f) {
    if (!in_.Eat('[')) return false;
    if (in_.Eat(']')) return true;
    do {
      if (!Send(f)) return false;
    } while (in_.Eat(','));
    return in_.Eat(']');
  }

  // {"source", "chunk", "from", "to", "step"} in any order, each once.
  bool Send(FlatStepSchedule* f) {
    if (!in_.Eat('{')) return false;
    unsigned seen = 0;
    int source = -1, from = -1, to = -1;
    std::int64_t step = 0;
    do {
      std::string_view key;
      if (!in_.SimpleString(&key) || !in_.Eat(':')) return false;
      unsigned bit = 0;
      bool ok = false;
      if (key == "source") {
        bit = 1;
        ok = Node(&source);
      } else if (key == "chunk") {
        bit = 2;
        ok = (seen & bit) == 0 && Chunk(f);
      } else if (key == "from") {
        bit = 4;
        ok = Node(&from);
      } else if (key == "to") {
        bit = 8;
        ok = Node(&to);
      } else if (key == "step") {
        bit = 16;
        ok = in_.Unsigned(9, &step);  // < 2^31
      }
      if (!ok || (seen & bit) != 0) return false;
      seen |= bit;
    } while (in_.Eat(','));
    if (seen != 31 || !in_.Eat('}')) return false;
    f->source.push_back(source);
    f->from.push_back(from);
    f->to.push_back(to);
    f->step.push_back(static_cast<int>(step));
    f->interval_begin.push_back(static_cast<std::int64_t>(f->lo.size()));
    return true;
  }

  // [[lo, hi], ...]: at least one interval, each 0 <= lo < hi <= 1 (the plain read's rule).
  bool Chunk(FlatStepSchedule* f) {
    if (!in_.Eat('[')) return false;
    do {
      std::int32_t lo = 0, hi = 0;
      if (!in_.Eat('[') || !Endpoint(f, &lo) || !in_.Eat(',') || !Endpoint(f, &hi) || !in_.Eat(']'))
        return false;
      if (!in_unit_[lo] || !in_unit_[hi] || lo == hi || !(f->values[lo] < f->values[hi]))
        return false;
      f->lo.push_back(lo);
      f->hi.push_back(hi);
    } while (in_.Eat(','));
    return in_.Eat(']');
  }

  bool Node(int* id) {
    std::string_view name;
    if (!in_.SimpleString(&name)) return false;
    auto it = nodes_.find(name);
    if (it == nodes_.end()) {
      const std::optional<int> v = g_.FindNode(std::string(name));
      if (!v) return false;
      it = nodes_.emplace(name, *v).first;
    }
    *id = it->second;
    return true;
  }

  // A string read by ParseRational (as RationalFromJson reads it) or an unsigned integer
  // (only 0 and 1 lie in [0, 1]: any other is refused by the plain read's interval rule).
  bool Endpoint(FlatStepSchedule* f, std::int32_t* id) {
    if (!in_.Peek('"')) {
      std::int64_t v = 0;
      if (!in_.Unsigned(18, &v) || v > 1) return false;
      *id = v == 0 ? kZero : kOne;
      return true;
    }
    std::string_view text;
    if (!in_.SimpleString(&text)) return false;
    if (auto it = endpoints_.find(text); it != endpoints_.end()) {
      *id = it->second;
      return true;
    }
    Rational value;
    try {
      value = ParseRational(text);
    } catch (const std::invalid_argument&) {
      return false;
    }
    if (f->values.size() >= static_cast<std::size_t>(INT32_MAX)) return false;
    *id = static_cast<std::int32_t>(f->values.size());
    in_unit_.push_back(value >= 0 && value <= 1 ? 1 : 0);
    f->values.push_back(std::move(value));
    endpoints_.emplace(text, *id);
    return true;
  }

  // The members of the "steps" contract (docs/formats.md); any other is producer metadata.
  static bool IsContractKey(std::string_view key) {
    return key == "format" || key == "collective" || key == "root" || key == "rs_steps" ||
           key == "sends" || key == "tl" || key == "tb";
  }

  Scanner in_;
  const Topology& g_;
  const std::string& file_;
  const bool keep_extra_;
  std::unordered_map<std::string_view, int> nodes_;               // views into the text
  std::unordered_map<std::string_view, std::int32_t> endpoints_;  // text -> index into values
  std::vector<char> in_unit_;                                     // per value: 0 <= it <= 1
};

// The scan behind ScanTopLevelFormat; next() gives the next byte (0..255) or -1 at the end.
template <typename Next>
std::optional<std::string> ScanFormat(Next next) {
  int c = next();
  while (IsJsonSpace(c)) c = next();
  if (c != '{') return std::nullopt;
  int depth = 1;
  bool expect_key = true;   // at depth 1: the next string is a member's key
  bool format_key = false;  // the last key at depth 1 was "format"
  while ((c = next()) != -1) {
    if (c == '"') {
      std::string s;
      bool simple = depth == 1 && expect_key;
      while ((c = next()) != -1 && c != '"') {
        if (c == '\\') {
          simple = false;
          if (next() == -1) return std::nullopt;
        } else if (simple) {
          s.push_back(static_cast<char>(c));
          simple = s.size() <= 6;  // longer than "format"
        }
      }
      if (c == -1) return std::nullopt;
      if (depth == 1 && expect_key) {
        format_key = simple && s == "format";
        expect_key = false;
      }
    } else if (c == ':' && depth == 1 && format_key) {
      c = next();
      while (IsJsonSpace(c)) c = next();
      if (c != '"') return std::nullopt;
      std::string value;
      while ((c = next()) != -1 && IsSimpleChar(c)) value.push_back(static_cast<char>(c));
      if (c != '"') return std::nullopt;
      return value;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return std::nullopt;
    } else if (c == ',' && depth == 1) {
      expect_key = true;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<FlatStepSchedule> FlatStepScheduleFromStepsText(std::string_view text,
                                                              const Topology& g,
                                                              const std::string& file,
                                                              bool keep_extra) {
  return StepsTextReader(text, g, file, keep_extra).Read();
}

std::optional<StepSchedule> StepScheduleFromStepsText(std::string_view text, const Topology& g,
                                                      const std::string& file) {
  std::optional<FlatStepSchedule> f = FlatStepScheduleFromStepsText(text, g, file, true);
  if (!f) return std::nullopt;
  return StepsFromFlat(*f);
}

std::optional<std::string> ScanTopLevelFormat(std::streambuf& in) {
  return ScanFormat([&in] {
    const auto c = in.sbumpc();
    return std::char_traits<char>::eq_int_type(c, std::char_traits<char>::eof())
               ? -1
               : static_cast<int>(
                     static_cast<unsigned char>(std::char_traits<char>::to_char_type(c)));
  });
}

std::optional<std::string> ScanTopLevelFormat(std::string_view text) {
  std::size_t i = 0;
  return ScanFormat([&] {
    return i < text.size() ? static_cast<int>(static_cast<unsigned char>(text[i++])) : -1;
  });
}

}  // namespace collsynth
