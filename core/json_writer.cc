#include "core/json_writer.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace collsynth {

int JsonStrings::Add(std::string_view s) {
  JsonWriter w;
  w.String(s);
  quoted_.push_back(w.TakeText());
  return static_cast<int>(quoted_.size() - 1);
}

JsonWriter::JsonWriter(Spacing spacing)
    : item_separator_(spacing == Spacing::kCompact ? "," : ", "),
      key_separator_(spacing == Spacing::kCompact ? ":" : ": ") {}

JsonWriter::JsonWriter(std::ostream& out, Spacing spacing) : JsonWriter(spacing) { out_ = &out; }

std::string JsonWriter::TakeText() {
  Flush();
  std::string text = std::move(text_);
  text_.clear();
  depth_ = 0;
  outer_.clear();
  after_key_ = false;
  started_ = false;
  line_break_ = -1;
  return text;
}

void JsonWriter::PutEscaped(std::string_view s) { Put(nlohmann::json(std::string(s)).dump()); }

void JsonWriter::Misuse(const char* what) {
  throw std::logic_error(std::string("JsonWriter: ") + what);
}

void JsonWriter::BeforeTopLevelValue() {
  if (depth_ > 0) Misuse("a value inside an object without its key");
  if (started_) Misuse("a second top-level value");
  started_ = true;
}

JsonWriter& JsonWriter::BigInteger(const BigInt& z) {
  static_assert(sizeof(long) == sizeof(std::int64_t), "mpz_fits_slong_p tests the int64 range");
  const mpz_t& m = z.backend().data();
  if (mpz_sgn(m) >= 0 && mpz_fits_slong_p(m)) return Int(mpz_get_si(m));
  return String(z.str());
}

JsonWriter& JsonWriter::RationalString(const Rational& r) { return String(ToString(r)); }

JsonWriter& JsonWriter::IntegerOrRational(const Rational& r) {
  if (Denominator(r) == 1) return BigInteger(Numerator(r));
  return RationalString(r);
}

JsonWriter& JsonWriter::Fraction(std::int64_t num, std::int64_t den) {
  if (den <= 0) Misuse("Fraction needs a positive denominator");
  BeforeValue();
  const std::int64_t g = std::gcd(num, den);  // > 0 as den > 0
  Put('"');
  PutInt(num / g);
  if (den / g != 1) {
    Put('/');
    PutInt(den / g);
  }
  Put('"');
  return *this;
}

JsonWriter& JsonWriter::Json(const nlohmann::json& v) {
  BeforeValue();
  Put(v.dump());
  return *this;
}

JsonWriter& JsonWriter::LineBreak(int indent) {
  if (indent < 0 || indent > 1024) Misuse("LineBreak indent outside 0..1024");
  line_break_ = indent;
  return *this;
}

void SortedMembers::AddJsonMembers(const nlohmann::json& extra,
                                   const std::function<bool(const std::string&)>& skip) {
  for (auto it = extra.begin(); it != extra.end(); ++it) {
    if (skip(it.key())) continue;
    const nlohmann::json* value = &it.value();
    Add(it.key(), [value](JsonWriter& w) { w.Json(*value); });
  }
}

void SortedMembers::Write(JsonWriter& w) {
  std::sort(members_.begin(), members_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  w.BeginObject(JsonWriter::KeyOrder::kSorted);
  for (const auto& [key, value] : members_) {
    w.Key(key);
    value(w);
  }
  w.EndObject();
}

}  // namespace collsynth
