// JsonWriter (core/json_writer.h): with Spacing::kCompact its text is nlohmann's dump() of
// the same values in the same order — checked on hand-picked edge cases (escapes, unicode,
// int64 limits, big integers, empty containers) and on seeded random documents — plus its
// exact-number encodings, the spaced style, line breaks, sorted-key checks and misuse errors.
#include "core/json_writer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>

namespace collsynth {
namespace {

using nlohmann::json;
using Order = JsonWriter::KeyOrder;

// Writes v through the writer: objects in nlohmann's (sorted) key order with kSorted, so the
// writer's key check runs too; scalars it has no method for via Json().
void Write(JsonWriter& w, const json& v) {
  if (v.is_object()) {
    w.BeginObject(Order::kSorted);
    for (auto it = v.begin(); it != v.end(); ++it) {
      w.Key(it.key());
      Write(w, it.value());
    }
    w.EndObject();
  } else if (v.is_array()) {
    w.BeginArray();
    for (const json& x : v) Write(w, x);
    w.EndArray();
  } else if (v.is_string()) {
    w.String(v.get_ref<const std::string&>());
  } else if (v.is_number_integer() && !v.is_number_unsigned()) {
    w.Int(v.get<std::int64_t>());
  } else {
    w.Json(v);
  }
}

std::string Written(const json& v) {
  JsonWriter w;
  Write(w, v);
  EXPECT_TRUE(w.complete());
  return w.TakeText();
}

TEST(JsonWriterTest, EqualsDumpOnEdgeCases) {
  const json cases[] = {
      json::object(),
      json::array(),
      json{{"a", json::object()},
           {"b", json::array()},
           {"c", json::array({json::array(), json::object()})}},
      json("plain"),
      json(""),
      json("quote \" backslash \\ slash /"),
      json("controls \x01\x02\b\f\n\r\t\x1f and DEL \x7f"),
      json("unicode é→ñ 日本 \xF0\x9F\x98\x80 (4-byte)"),
      json(std::numeric_limits<std::int64_t>::min()),
      json(std::numeric_limits<std::int64_t>::max()),
      json(std::uint64_t{18446744073709551615u}),
      json(0),
      json(-1),
      json(true),
      json(nullptr),
      json{{"z\"key", 1}, {"é", 2}, {"A", 3}, {"a", {{"nested \n", "x"}}}},
      json::array({1, "two", json::array({3, json::object()}), nullptr, false}),
  };
  for (const json& v : cases) EXPECT_EQ(Written(v), v.dump()) << v.dump();
}

// Seeded random documents (COLLSYNTH_TEST_SEED replays a failure): random nesting, keys and
// strings drawn from characters that nlohmann escapes or passes through.
TEST(JsonWriterTest, EqualsDumpOnRandomDocuments) {
  const char* env = std::getenv("COLLSYNTH_TEST_SEED");
  const unsigned seed = env ? static_cast<unsigned>(std::strtoul(env, nullptr, 10)) : 15u;
  std::mt19937_64 rng(seed);
  const std::string pieces[] = {
      "a",     "Z",    "0",    " ",    "\"", "\\", "/",  "\n",
      "\t",    "\x01", "\x1f", "\x7f", "é",  "→",  "日", "\xF0\x9F\x98\x80",
      "steps", "_"};
  auto text = [&] {
    std::string s;
    for (int n = static_cast<int>(rng() % 6); n > 0; --n) s += pieces[rng() % std::size(pieces)];
    return s;
  };
  std::function<json(int)> value = [&](int depth) -> json {
    switch (rng() % (depth < 4 ? 7 : 4)) {
      case 0:
        return json(text());
      case 1:
        return json(static_cast<std::int64_t>(rng()));
      case 2:
        return json(static_cast<std::int64_t>(rng() % 200) - 100);
      case 3:
        return rng() % 2 ? json(nullptr) : json(rng() % 2 == 0);
      case 4:
      case 5: {
        json a = json::array();
        for (int n = static_cast<int>(rng() % 5); n > 0; --n) a.push_back(value(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (int n = static_cast<int>(rng() % 5); n > 0; --n) o[text()] = value(depth + 1);
        return o;
      }
    }
  };
  for (int i = 0; i < 300; ++i) {
    const json v = value(0);
    ASSERT_EQ(Written(v), v.dump()) << "seed " << seed << ", document " << i;
  }
}

// A writer on a stream writes the same bytes, chunk by chunk, and holds none:
// a document of many 16 KiB chunks, with strings longer than a chunk (written past the
// chunk) and escapes.
TEST(JsonWriterTest, StreamingWriterWritesTheSameBytes) {
  json v = json::array();
  for (int i = 0; i < 5000; ++i) {
    v.push_back({{"from", "node-" + std::to_string(i)}, {"multiplicity", i}, {"t\n", "é\""}});
  }
  v.push_back(std::string(40000, 'x'));  // longer than a chunk
  v.push_back(json::object());
  std::ostringstream out;
  JsonWriter w(out);
  Write(w, v);
  ASSERT_TRUE(w.complete());
  w.FlushToStream();
  const std::string dump = v.dump();
  ASSERT_GT(dump.size(), std::size_t{5} * 16384);
  EXPECT_EQ(out.str(), dump);
  EXPECT_EQ(w.TakeText(), "");  // nothing kept in memory
}

TEST(JsonWriterTest, InvalidUtf8ThrowsAsNlohmannDoes) {
  JsonWriter w;
  EXPECT_THROW(w.String("bad \xC3"), json::type_error);
  EXPECT_THROW(json(std::string("bad \xC3")).dump(), json::type_error);
}

TEST(JsonWriterTest, StringTableWritesWhatStringWrites) {
  const std::string texts[] = {"plain", "a\"b", "c\\d", "é→ñ", "", "x\ny"};
  JsonStrings table;
  for (const std::string& t : texts) table.Add(t);
  ASSERT_EQ(table.size(), std::size(texts));
  for (std::size_t i = 0; i < std::size(texts); ++i) {
    JsonWriter w;
    w.BeginArray().String(table, static_cast<int>(i)).String(texts[i]).EndArray();
    EXPECT_EQ(w.TakeText(), json::array({texts[i], texts[i]}).dump());
  }
}

TEST(JsonWriterTest, ExactNumbers) {
  JsonWriter w;
  const BigInt two63 = BigInt(1) << 63;
  w.BeginArray();
  w.BigInteger(two63 - 1).BigInteger(two63).BigInteger(BigInt("123456789012345678901234567890"));
  w.BigInteger(0).BigInteger(-5);
  w.RationalString(Rational(6, 4)).RationalString(Rational(-3)).RationalString(Rational(0));
  w.IntegerOrRational(Rational(7))
      .IntegerOrRational(Rational(7, 2))
      .IntegerOrRational(Rational(two63));
  w.Fraction(6, 4).Fraction(0, 7).Fraction(8, 4).Fraction(-2, 6).Fraction(9, 1);
  w.Fraction(std::numeric_limits<std::int64_t>::max(),
             std::numeric_limits<std::int64_t>::max() - 1);
  w.EndArray();
  EXPECT_EQ(
      w.TakeText(),
      "[9223372036854775807,\"9223372036854775808\",\"123456789012345678901234567890\",0,\"-5\","
      "\"3/2\",\"-3\",\"0\",7,\"7/2\",\"9223372036854775808\","
      "\"3/2\",\"0\",\"2\",\"-1/3\",\"9\",\"9223372036854775807/9223372036854775806\"]");
  // Fraction prints what RationalString prints for the same value.
  for (auto [p, q] :
       {std::pair<std::int64_t, std::int64_t>{6, 4}, {0, 7}, {8, 4}, {-2, 6}, {35, 14}}) {
    JsonWriter a, b;
    a.Fraction(p, q);
    b.RationalString(Rational(p, q));
    EXPECT_EQ(a.TakeText(), b.TakeText()) << p << "/" << q;
  }
  EXPECT_THROW(JsonWriter().Fraction(1, 0), std::logic_error);
}

TEST(JsonWriterTest, SpacedStyleAndLineBreaks) {
  JsonWriter w(JsonWriter::Spacing::kSpaced);
  w.BeginObject().Key("name").String("t");
  w.LineBreak(1).Key("nodes").BeginArray();
  for (int i = 0; i < 2; ++i)
    w.LineBreak(2).BeginObject().Key("id").Int(i).Key("ok").Json(true).EndObject();
  w.EndArray().LineBreak(1).Key("empty").BeginArray().EndArray().EndObject();
  EXPECT_EQ(w.TakeText(),
            "{\"name\": \"t\",\n \"nodes\": [\n  {\"id\": 0, \"ok\": true},\n  {\"id\": 1, \"ok\": "
            "true}],\n"
            " \"empty\": []}");
  JsonWriter c;
  c.BeginArray().LineBreak().Int(1).LineBreak().Int(2).Int(3).EndArray();
  EXPECT_EQ(c.TakeText(), "[\n1,\n2,3]");
}

TEST(JsonWriterTest, SortedMembersGiveNlohmannsOrder) {
  const json extra = {
      {"zeta", 1}, {"alpha", {{"b", 2}, {"a", 1}}}, {"format", "skipped"}, {"Upper", "x"}};
  JsonWriter w;
  SortedMembers m;
  m.Add("format", [](JsonWriter& w) { w.String("steps"); });
  m.Add("sends", [](JsonWriter& w) { w.BeginArray().EndArray(); });
  m.AddJsonMembers(extra, [](const std::string& k) { return k == "format"; });
  m.Write(w);
  json tree = extra;
  tree["format"] = "steps";
  tree["sends"] = json::array();
  EXPECT_EQ(w.TakeText(), tree.dump());
}

TEST(JsonWriterTest, MisuseIsALogicError) {
  {
    JsonWriter w;
    w.BeginArray();
    EXPECT_THROW(w.Key("k"), std::logic_error);
  }
  {
    JsonWriter w;
    w.BeginObject();
    EXPECT_THROW(w.Int(1), std::logic_error);
    EXPECT_THROW(w.EndArray(), std::logic_error);
  }
  {
    JsonWriter w;
    w.BeginObject(Order::kSorted).Key("b").Int(1);
    EXPECT_THROW(w.Key("a"), std::logic_error);
    EXPECT_THROW(w.Key("b"), std::logic_error);  // repeated
  }
  {
    JsonWriter w;
    w.Int(1);
    EXPECT_TRUE(w.complete());
    EXPECT_THROW(w.Int(2), std::logic_error);
  }
  {
    JsonWriter w;
    SortedMembers m;
    m.Add("k", [](JsonWriter& w) { w.Int(1); });
    m.Add("k", [](JsonWriter& w) { w.Int(2); });
    EXPECT_THROW(m.Write(w), std::logic_error);
  }
}

}  // namespace
}  // namespace collsynth
