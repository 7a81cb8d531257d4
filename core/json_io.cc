#include "core/json_io.h"

#include <cctype>
#include <charconv>
#include <climits>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "core/input_error.h"

namespace collsynth {

using nlohmann::json;

namespace {

// Reads a stream to its end, refusing more than kMaxInputBytes (pipes, devices, stdin).
std::string ReadStreamBounded(std::istream& in, const std::string& file) {
  std::string s;
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    s.append(buf, static_cast<std::size_t>(in.gcount()));
    if (s.size() > kMaxInputBytes) {
      throw InputError(file, "",
                       "input is larger than " + std::to_string(kMaxInputBytes) + " bytes");
    }
  }
  if (in.bad()) throw InputError(file, "", "cannot read file");
  return s;
}

}  // namespace

std::string ReadTextFile(const std::string& path) {
  if (path == "-") return ReadStreamBounded(std::cin, "<stdin>");
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) throw InputError(path, "", "is a directory, not a file");
  // Devices (/dev/zero, a terminal) and sockets are no input files; pipes are (<(cmd)).
  if (fs::is_character_file(st) || fs::is_block_file(st) || fs::is_socket(st)) {
    throw InputError(path, "", "is a device or socket, not a regular file or pipe");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open file (missing or unreadable)");
  // A pipe or a device; also regular files that report size 0 but have content (/proc).
  if (!fs::is_regular_file(st) || fs::file_size(path, ec) == 0) return ReadStreamBounded(in, path);
  in.seekg(0, std::ios::end);
  auto size = in.tellg();
  if (size < 0) throw InputError(path, "", "cannot read file");
  if (static_cast<std::size_t>(size) > kMaxInputBytes) {
    throw InputError(path, "", "file is larger than " + std::to_string(kMaxInputBytes) + " bytes");
  }
  in.seekg(0, std::ios::beg);
  std::string s(static_cast<std::size_t>(size), '\0');
  in.read(s.data(), size);
  if (!in) throw InputError(path, "", "cannot read file");
  return s;
}

void WriteTextFile(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(path, "", "cannot open file for writing");
  out << text;
  if (!out) throw InputError(path, "", "write failed");
}

namespace {

// A pointer into the JSON text that records, on every step, how far the parser has read: the
// SAX callbacks learn their byte position from it (nlohmann passes positions only to
// parse_error). One store per byte.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* p, const char** read_up_to) : p_(p), read_up_to_(read_up_to) {}
  reference operator*() const { return *p_; }
  TrackingIterator& operator++() {
    *read_up_to_ = ++p_;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& o) const { return p_ == o.p_; }
  bool operator!=(const TrackingIterator& o) const { return p_ != o.p_; }

 private:
  const char* p_;
  const char** read_up_to_;
};

// The same over a stream buffer (ParseJsonFile): reads one byte at a time from the buffer
// and counts them. A default-constructed iterator is the end; any iterator at the end of its
// buffer equals it.
class CountingStreamIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  CountingStreamIterator() = default;
  CountingStreamIterator(std::streambuf* buf, std::size_t* count, std::size_t* first_nul)
      : buf_(buf), count_(count), first_nul_(first_nul) {}
  char operator*() const { return std::char_traits<char>::to_char_type(buf_->sgetc()); }
  CountingStreamIterator& operator++() {
    if (buf_->sbumpc() == 0 && *first_nul_ == 0) *first_nul_ = *count_ + 1;
    ++*count_;
    return *this;
  }
  CountingStreamIterator operator++(int) {
    CountingStreamIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingStreamIterator& o) const { return AtEnd() == o.AtEnd(); }
  bool operator!=(const CountingStreamIterator& o) const { return !(*this == o); }

 private:
  bool AtEnd() const {
    return buf_ == nullptr ||
           std::char_traits<char>::eq_int_type(buf_->sgetc(), std::char_traits<char>::eof());
  }
  std::streambuf* buf_ = nullptr;
  std::size_t* count_ = nullptr;
  std::size_t* first_nul_ = nullptr;  // 1-based position of the first NUL read, 0 for none
};

bool IsIntegerLiteral(const std::string& s) {
  std::size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

// Longest nlohmann message quoted in an error (it may quote a token of any length).
constexpr std::size_t kMaxJsonMessage = 300;

// SAX handler that builds the document like nlohmann's own DOM parser, with three changes:
// containers nested deeper than kMaxJsonDepth and duplicate object keys are refused while
// parsing (so no deep tree is ever built: copies, dumps and destructors of nlohmann values
// recurse), integer literals beyond (u)int64 are kept exactly as strings of their digits,
// and every error is an InputError naming the file and the byte.
class BoundedDomBuilder {
 public:
  // `bytes_read()` is how far the parser has read (asked only for an error message).
  BoundedDomBuilder(json& root, const std::string& file, std::function<std::size_t()> bytes_read,
                    std::size_t max_memory, const JsonElementHook* hook)
      : root_(root),
        file_(file),
        bytes_read_(std::move(bytes_read)),
        max_memory_(max_memory),
        hook_(hook != nullptr && *hook ? hook : nullptr) {}

  bool null() { return Add(nullptr); }
  bool boolean(bool v) { return Add(v); }
  bool number_integer(json::number_integer_t v) { return Add(v); }
  bool number_unsigned(json::number_unsigned_t v) { return Add(v); }
  bool number_float(json::number_float_t v, const json::string_t& text) {
    // The lexer reads an integer literal that overflows (u)int64 as a double; keep its digits.
    if (IsIntegerLiteral(text)) return Add(text);
    return Add(v);
  }
  bool string(json::string_t& v) {
    Charge(kStringBytes + v.size());
    return Add(std::move(v));
  }
  bool binary(json::binary_t& v) { return Add(std::move(v)); }
  bool start_object(std::size_t /*len*/) { return Open(json::value_t::object); }
  bool start_array(std::size_t /*len*/) { return Open(json::value_t::array); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(json::string_t& k) {
    Charge(kMemberBytes + k.size());
    if (hook_) pending_key_ = k;
    auto [it, inserted] = stack_.back()->get_ref<json::object_t&>().emplace(std::move(k), nullptr);
    if (!inserted) Fail("duplicate key \"" + Abbreviated(it->first) + "\" in an object");
    pending_ = &it->second;
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t byte, const std::string& last_token, const Exception& ex) {
    std::string item = "byte " + std::to_string(byte);
    if (ex.id == 406) {  // out_of_range: a number literal beyond double's range
      if (IsIntegerLiteral(last_token)) {
        throw InputError(file_, item,
                         "integer " + Abbreviated(last_token) +
                             " is too long to be read as a JSON number; write it as a string");
      }
      throw InputError(file_, item,
                       "number " + Abbreviated(last_token) +
                           " is out of range (and floating-point numbers are not exact)");
    }
    // nlohmann quotes the whole last token (an unterminated string: the rest of the file).
    std::string what = ex.what();
    if (what.size() > kMaxJsonMessage) what = what.substr(0, kMaxJsonMessage) + "...'";
    throw InputError(file_, item, "malformed JSON: " + what);
  }

 private:
  [[noreturn]] void Fail(const std::string& problem) const {
    throw InputError(file_, "byte " + std::to_string(bytes_read_()), problem);
  }
  template <class Value>
  json* Insert(Value&& v) {
    if (stack_.empty()) {
      root_ = json(std::forward<Value>(v));
      return &root_;
    }
    if (stack_.back()->is_array()) {
      auto& a = stack_.back()->get_ref<json::array_t&>();
      a.emplace_back(std::forward<Value>(v));
      return &a.back();
    }
    *pending_ = json(std::forward<Value>(v));
    return pending_;
  }
  template <class Value>
  bool Add(Value&& v) {
    Charge(kValueBytes);
    Insert(std::forward<Value>(v));
    return true;
  }
  // The document's memory, approximately (nlohmann values, containers, map nodes, strings):
  // refused past kMaxJsonMemory, so a file under the byte limit cannot exhaust memory (a file
  // of small objects needs ~25 times its size).
  void Charge(std::size_t bytes) {
    used_ += bytes;
    if (used_ > max_memory_) {
      Fail("the JSON document would need more than " + std::to_string(max_memory_ >> 10) +
           " KiB in memory (docs/formats.md, \"Limits\")");
    }
  }
  bool Open(json::value_t t) {
    const std::size_t used_before = used_;
    Charge(t == json::value_t::object ? kObjectBytes : kArrayBytes);
    if (stack_.size() >= kMaxJsonDepth) {
      Fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    }
    if (hook_) {  // where the container sits: its key, or its index in the enclosing array
      if (stack_.empty()) {
        path_.emplace_back();
      } else if (stack_.back()->is_array()) {
        path_.push_back(std::to_string(stack_.back()->size()));
      } else {
        path_.push_back(pending_key_);
      }
      charged_.push_back(used_before);
    }
    stack_.push_back(Insert(t));
    return true;
  }
  // Closes the innermost container; an array element is offered to the hook, which may
  // consume it (it is then replaced by null and its memory charge returned).
  bool Close() {
    json* done = stack_.back();
    stack_.pop_back();
    if (!hook_) return true;
    const std::size_t used_before = charged_.back();
    charged_.pop_back();
    if (!stack_.empty() && stack_.back()->is_array() && (*hook_)(path_, *done, root_)) {
      *done = nullptr;
      used_ = used_before + kValueBytes;
    }
    path_.pop_back();
    return true;
  }

  json& root_;
  const std::string& file_;
  std::function<std::size_t()> bytes_read_;
  std::vector<json*> stack_;  // open containers, innermost last
  json* pending_ = nullptr;   // the value slot of the last key
  std::size_t max_memory_;
  std::size_t used_ = 0;  // approximate bytes of the document so far
  const JsonElementHook* hook_;
  std::vector<std::string> path_;     // with a hook: keys / indices of the open containers
  std::vector<std::size_t> charged_;  // with a hook: used_ before each open container
  std::string pending_key_;
  // Approximate costs (x86-64 libstdc++): a json value, a string's heap block, an array's
  // vector (amortised growth included per element via kValueBytes), an object's map and each
  // member's tree node with its key.
  static constexpr std::size_t kValueBytes = 24, kStringBytes = 32, kArrayBytes = 48,
                               kObjectBytes = 64, kMemberBytes = 96;
};

[[noreturn]] void ThrowNulByte(const std::string& file, std::size_t byte) {
  throw InputError(file, "byte " + std::to_string(byte), "NUL character (JSON text has none)");
}

}  // namespace

json ParseJsonText(const std::string& text, const std::string& file, std::size_t max_memory) {
  return ParseJsonText(text, file, JsonElementHook(), max_memory);
}

json ParseJsonText(const std::string& text, const std::string& file, const JsonElementHook& hook,
                   std::size_t max_memory) {
  // nlohmann's lexer takes a NUL byte for the end of the input, so "{}\0junk" would read as {}
  // and a NUL inside a value would be reported as a premature end: name the byte instead.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    ThrowNulByte(file, nul + 1);
  json root;
  const char* begin = text.data();
  const char* read_up_to = begin;
  BoundedDomBuilder builder(
      root, file, [&] { return static_cast<std::size_t>(read_up_to - begin); }, max_memory, &hook);
  try {
    // The builder throws on every error, so a false return would be a broken invariant.
    if (!json::sax_parse(TrackingIterator(begin, &read_up_to),
                         TrackingIterator(begin + text.size(), &read_up_to), &builder)) {
      throw std::logic_error("JSON SAX parse of " + file + " stopped without an error");
    }
  } catch (const json::exception& e) {  // not expected: the builder reports its own errors
    throw InputError(file, "byte " + std::to_string(read_up_to - begin),
                     std::string("malformed JSON: ") + e.what());
  }
  return root;
}

json ParseJsonFile(const std::string& path, const std::string& file, const JsonElementHook& hook,
                   std::size_t max_memory) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  // Anything but a non-empty regular file (stdin, pipes, /proc files, errors): as ReadTextFile.
  if (path == "-" || !fs::is_regular_file(st) || fs::file_size(path, ec) == 0) {
    return ParseJsonText(ReadTextFile(path), file, hook, max_memory);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open file (missing or unreadable)");
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size < 0) throw InputError(path, "", "cannot read file");
  if (static_cast<std::size_t>(size) > kMaxInputBytes) {
    throw InputError(path, "", "file is larger than " + std::to_string(kMaxInputBytes) + " bytes");
  }
  in.seekg(0, std::ios::beg);
  json root;
  std::size_t read = 0, first_nul = 0;
  BoundedDomBuilder builder(
      root, file, [&read] { return read; }, max_memory, &hook);
  try {
    if (!json::sax_parse(CountingStreamIterator(in.rdbuf(), &read, &first_nul),
                         CountingStreamIterator(), &builder)) {
      throw std::logic_error("JSON SAX parse of " + file + " stopped without an error");
    }
  } catch (const json::exception& e) {  // not expected: the builder reports its own errors
    throw InputError(file, "byte " + std::to_string(read),
                     std::string("malformed JSON: ") + e.what());
  } catch (const InputError&) {  // a NUL ended the input early: name it (as ParseJsonText)
    if (first_nul != 0) ThrowNulByte(file, first_nul);
    throw;
  }
  if (first_nul != 0) ThrowNulByte(file, first_nul);
  // A read error ends the buffer early: a parse error above, or (after a complete value) here.
  if (read != static_cast<std::size_t>(size)) throw InputError(path, "", "cannot read file");
  return root;
}

Rational RationalFromJson(const json& v, const std::string& file, const std::string& item) {
  if (v.is_number_integer()) {
    return v.is_number_unsigned() ? Rational(v.get<std::uint64_t>())
                                  : Rational(v.get<std::int64_t>());
  }
  if (v.is_number_float()) {
    throw InputError(file, item,
                     "floating-point number " + v.dump() +
                         " is not exact; write it as an integer or a string such as \"5/2\"");
  }
  if (v.is_string()) {
    try {
      return ParseRational(v.get_ref<const std::string&>());
    } catch (const std::invalid_argument& e) {
      throw InputError(file, item, e.what());
    }
  }
  throw InputError(
      file, item,
      "expected a number or an exact rational string, got " + std::string(v.type_name()));
}

}  // namespace collsynth
