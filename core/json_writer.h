// JsonWriter: the one streaming JSON writer of collsynth (docs/performance.md "Writers: one
// streaming JSON writer"). Every file format the project writes (topology JSON, "steps",
// "steps-compact", "pipeline"; docs/formats.md) is written through it, as text, without building a
// JSON tree (a 1,077,248-send "steps" document: 13-15× faster than nlohmann's tree + dump();
// docs/performance.md, "Writers").
//
// Bytes: with Spacing::kCompact the text is exactly what nlohmann::json::dump() (no indent)
// prints for the same values in the same order. Strings are escaped by nlohmann itself: a
// string with a control character, '"', '\\' or a non-ASCII byte goes through
// nlohmann::json::dump (so invalid UTF-8 throws nlohmann's type_error, as a tree would), any
// other is copied between quotes. Spacing::kSpaced puts a blank after ':' and ',' (the
// topology format). Key order is the caller's: nlohmann's tree sorts keys, so a writer that
// must equal dump() opens the object with KeyOrder::kSorted (the writer then checks that
// each key is greater than the one before) or collects its members in a SortedMembers.
// LineBreak() starts the next element on a new line (after the comma): the only deviation
// from dump()'s single line (strings never hold a raw line break; they are escaped).
//
// Exact numbers, as the formats specify: Int (any int64), BigInteger (a JSON integer when
// 0 <= z < 2^63, else its decimal string), RationalString ("p/q", or "p" when integral),
// IntegerOrRational (a JSON integer when integral and 0 <= r < 2^63, else "p/q"), Fraction
// (num/den in lowest terms, printed as RationalString prints it, without GMP).
//
// Misuse (a key inside an array, a value in an object without its key, an unbalanced end, a
// second top-level value, a key out of order in a kSorted object) throws std::logic_error: a
// program fault, never the input's. Cost: O(bytes written); the text grows in one string,
// appended 16 KiB at a time; nothing else is allocated except for strings that need escapes.
// A writer made with a std::ostream (JsonWriter(out)) hands each 16 KiB chunk to the stream
// instead and never holds the text: memory O(16 KiB) whatever the document's size (a 3,456-host
// pipeline schedule is 1.5 GB of text; docs/performance.md "Symmetric pipeline schedules").
// Nesting is not limited here (readers refuse depth > kMaxJsonDepth; the formats stay far below).
#ifndef COLLSYNTH_CORE_JSON_WRITER_H_
#define COLLSYNTH_CORE_JSON_WRITER_H_

#include <charconv>
#include <cstdint>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/rational.h"

namespace collsynth {

// Strings escaped once and written many times (node names: a large schedule names each node
// ~10^6 times). JsonWriter::String(table, i) writes exactly what String(s) would.
class JsonStrings {
 public:
  // Appends s (escaped now; nlohmann's type_error on invalid UTF-8); returns its index.
  int Add(std::string_view s);
  std::size_t size() const { return quoted_.size(); }

 private:
  friend class JsonWriter;
  std::vector<std::string> quoted_;
};

class JsonWriter {
 public:
  enum class Spacing {
    kCompact,  // "k":v,"k":v — nlohmann's dump()
    kSpaced,   // "k": v, "k": v — the topology format
  };
  enum class KeyOrder {
    kAsWritten,
    kSorted,  // keys must be strictly increasing (byte order, as nlohmann's std::map sorts)
  };

  explicit JsonWriter(Spacing spacing = Spacing::kCompact);
  // Streaming: the text goes to `out` a chunk at a time (`out` must outlive the writer). Call
  // FlushToStream() once complete(); the stream's state says whether the bytes were written.
  explicit JsonWriter(std::ostream& out, Spacing spacing = Spacing::kCompact);
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  // The text written so far, handed to the caller (call it once complete()); the writer is
  // then empty and may write a new document.
  std::string TakeText();
  // Streaming writer: hands the bytes staged so far to the stream (TakeText would return "").
  void FlushToStream() { Flush(); }

  JsonWriter& BeginObject(KeyOrder order = KeyOrder::kAsWritten);
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  // Inside an object: the next member's key; the next call writes its value.
  JsonWriter& Key(std::string_view key);

  JsonWriter& String(std::string_view s);
  JsonWriter& String(const JsonStrings& table, int index);
  JsonWriter& Int(std::int64_t v);
  JsonWriter& BigInteger(const BigInt& z);
  JsonWriter& RationalString(const Rational& r);
  JsonWriter& IntegerOrRational(const Rational& r);
  JsonWriter& Fraction(std::int64_t num, std::int64_t den);  // den > 0
  // Any value (producer metadata passed through), as v.dump() prints it; Spacing does not
  // apply inside v.
  JsonWriter& Json(const nlohmann::json& v);

  // The next element (array value or object member) starts on a new line indented by
  // `indent` blanks (0..1024); the comma before it, if any, stays on the previous line.
  JsonWriter& LineBreak(int indent = 0);

  // True once one complete top-level value has been written.
  bool complete() const { return depth_ == 0 && started_; }

 private:
  struct Level {
    bool object = false;
    bool first = true;  // no element written yet
    bool sorted = false;
  };

  // Bytes are staged in chunk_ and appended to text_ a chunk at a time (no per-value call
  // into std::string). Room(n) (n <= kChunk) is space for n more bytes at chunk_ + used_.
  static constexpr std::size_t kChunk = 16384;
  char* Room(std::size_t n) {
    if (used_ + n > kChunk) Flush();
    return chunk_ + used_;
  }
  void Flush() {
    if (out_ != nullptr) {
      out_->write(chunk_, static_cast<std::streamsize>(used_));
    } else {
      text_.append(chunk_, used_);
    }
    used_ = 0;
  }
  void Put(char c) {
    *Room(1) = c;
    ++used_;
  }
  void Put(std::string_view s) {
    if (s.size() > kChunk) {
      Flush();
      if (out_ != nullptr) {
        out_->write(s.data(), static_cast<std::streamsize>(s.size()));
      } else {
        text_.append(s);
      }
      return;
    }
    std::memcpy(Room(s.size()), s.data(), s.size());
    used_ += s.size();
  }
  void PutInt(std::int64_t v) {
    char* p = Room(24);
    used_ += static_cast<std::size_t>(std::to_chars(p, p + 24, v).ptr - p);
  }
  void PutQuoted(std::string_view s);  // as nlohmann's dump() prints the string s
  void PutEscaped(std::string_view s);

  // What precedes a value: nothing after a key, else the separator (and a pending line
  // break); checks that a value may stand here.
  void BeforeValue() {
    if (after_key_) {
      after_key_ = false;
    } else if (depth_ == 0 || cur_.object) {
      BeforeTopLevelValue();
    } else {
      Separate();
    }
  }
  void BeforeTopLevelValue();
  // The comma, or the pending line break, before the next element of the open container.
  void Separate() {
    if (line_break_ >= 0) {
      SeparateWithBreak();
    } else {
      if (!cur_.first) Put(item_separator_);
      cur_.first = false;
    }
  }
  void SeparateWithBreak() {
    if (!cur_.first) Put(',');
    cur_.first = false;
    const auto indent = static_cast<std::size_t>(line_break_);
    char* p = Room(1 + indent);  // indent <= LineBreak's limit < kChunk
    p[0] = '\n';
    std::memset(p + 1, ' ', indent);
    used_ += 1 + indent;
    line_break_ = -1;
  }
  void CheckKeyOrder(std::string_view key);
  void Open(char bracket, bool object, bool sorted);
  void Close(char bracket, bool object);
  [[noreturn]] static void Misuse(const char* what);

  std::ostream* out_ = nullptr;  // streaming: where the chunks go (then text_ stays empty)
  std::string text_;             // the text so far, then chunk_[0, used_)
  std::size_t used_ = 0;
  char chunk_[kChunk];
  std::string_view item_separator_;  // "," or ", "
  std::string_view key_separator_;   // ":" or ": "
  Level cur_;                        // the innermost open container (when depth_ > 0)
  std::vector<Level> outer_;         // the containers around it
  // Per depth: the last key of a kSorted object (short keys without touching the heap).
  struct LastKey {
    static constexpr std::size_t kShort = 32;
    std::size_t size = 0;
    char text[kShort];
    std::string spill;  // a key longer than kShort
    std::string_view view() const {
      return size <= kShort ? std::string_view(text, size) : std::string_view(spill);
    }
  };
  std::vector<LastKey> last_keys_;
  std::size_t depth_ = 0;
  bool after_key_ = false;
  bool started_ = false;  // a top-level value has begun
  int line_break_ = -1;   // indent of a pending LineBreak, or -1
};

// ---- inline: the per-value path ----

inline void JsonWriter::PutQuoted(std::string_view s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) {  // dump() escapes or validates it
      PutEscaped(s);
      return;
    }
  }
  if (s.size() + 2 > kChunk) {
    Put('"');
    Put(s);
    Put('"');
    return;
  }
  char* p = Room(s.size() + 2);
  p[0] = '"';
  std::memcpy(p + 1, s.data(), s.size());
  p[s.size() + 1] = '"';
  used_ += s.size() + 2;
}

inline void JsonWriter::Open(char bracket, bool object, bool sorted) {
  BeforeValue();
  Put(bracket);
  if (depth_ > 0) outer_.push_back(cur_);
  cur_ = Level{object, true, sorted};
  ++depth_;
  if (sorted && last_keys_.size() < depth_) last_keys_.resize(depth_);
}

inline void JsonWriter::Close(char bracket, bool object) {
  if (depth_ == 0 || cur_.object != object || after_key_) {
    Misuse(object ? "EndObject without a matching BeginObject (or right after a key)"
                  : "EndArray without a matching BeginArray");
  }
  Put(bracket);
  line_break_ = -1;
  if (--depth_ > 0) {
    cur_ = outer_.back();
    outer_.pop_back();
  }
}

inline JsonWriter& JsonWriter::BeginObject(KeyOrder order) {
  Open('{', true, order == KeyOrder::kSorted);
  return *this;
}

inline JsonWriter& JsonWriter::EndObject() {
  Close('}', true);
  return *this;
}

inline JsonWriter& JsonWriter::BeginArray() {
  Open('[', false, false);
  return *this;
}

inline JsonWriter& JsonWriter::EndArray() {
  Close(']', false);
  return *this;
}

inline void JsonWriter::CheckKeyOrder(std::string_view key) {
  LastKey& last = last_keys_[depth_ - 1];
  if (!cur_.first && !(last.view() < key))
    Misuse("keys of a sorted object out of order or repeated");
  if (key.size() <= LastKey::kShort)
    std::memcpy(last.text, key.data(), key.size());
  else
    last.spill.assign(key);
  last.size = key.size();
}

inline JsonWriter& JsonWriter::Key(std::string_view key) {
  if (depth_ == 0 || !cur_.object || after_key_)
    Misuse("a key outside an object or right after a key");
  if (cur_.sorted) CheckKeyOrder(key);
  Separate();
  PutQuoted(key);
  Put(key_separator_);
  after_key_ = true;
  return *this;
}

inline JsonWriter& JsonWriter::String(std::string_view s) {
  BeforeValue();
  PutQuoted(s);
  return *this;
}

inline JsonWriter& JsonWriter::String(const JsonStrings& table, int index) {
  BeforeValue();
  Put(table.quoted_[static_cast<std::size_t>(index)]);
  return *this;
}

inline JsonWriter& JsonWriter::Int(std::int64_t v) {
  BeforeValue();
  PutInt(v);
  return *this;
}

// The members of one object, written in nlohmann's key order (byte order of the keys) whatever
// the order they were added in: for documents whose bytes must equal dump() of their tree
// when the keys are not known in advance (producer metadata beside the contract's fields).
// Keys must be distinct (std::logic_error otherwise, when written).
class SortedMembers {
 public:
  using WriteValue = std::function<void(JsonWriter&)>;
  void Add(std::string key, WriteValue value) {
    members_.emplace_back(std::move(key), std::move(value));
  }
  // Adds every member of the object `extra` that `skip` does not reject, written as its
  // value. `extra` must outlive Write.
  void AddJsonMembers(const nlohmann::json& extra,
                      const std::function<bool(const std::string&)>& skip);
  // BeginObject(kSorted), the members, EndObject.
  void Write(JsonWriter& w);

 private:
  std::vector<std::pair<std::string, WriteValue>> members_;
};

}  // namespace collsynth

#endif  // COLLSYNTH_CORE_JSON_WRITER_H_
