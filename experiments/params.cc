#include "experiments/params.h"

#include <stdexcept>

#include "experiments/experiment.h"
#include "graphs/expression.h"

namespace collsynth::experiments {

using nlohmann::json;

namespace {

bool IsString(const json& v) { return v.is_string(); }
bool IsBool(const json& v) { return v.is_boolean(); }
bool IsInteger(const json& v) { return v.is_number_integer(); }
bool IsNumber(const json& v) { return v.is_number(); }
bool IsArray(const json& v) { return v.is_array(); }
bool IsObject(const json& v) { return v.is_object(); }

std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// The errors of a `topo gen` expression, moved to the key that holds it.
void CheckExpression(const std::string& file, const std::string& path, const std::string& expr) {
  try {
    EstimateTopologyExpressionSize(expr);
  } catch (const InputError& e) {
    throw InputError(file, path, (e.item().empty() ? "" : e.item() + ": ") + e.problem());
  }
}

}  // namespace

std::string JsonTypePhrase(const json& value) {
  switch (value.type()) {
    case json::value_t::string:
      return "a string";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    default:
      return "a binary value";
  }
}

Params::Params(const json& object, std::string file, std::string path)
    : object_(&object), file_(std::move(file)), path_(std::move(path)) {
  if (!object.is_object()) throw Error("", "expected an object, got " + JsonTypePhrase(object));
}

Params::Params(const ExperimentInput& in) : Params(in.params, in.file, "params") {}

std::string Params::Path(const std::string& key) const {
  if (key.empty()) return path_;
  return path_.empty() ? key : path_ + "." + key;
}

InputError Params::Error(const std::string& key, const std::string& problem) const {
  return InputError(file_, Path(key), problem);
}

const json& Params::Typed(const std::string& key, bool (*ok)(const json&), const char* what) const {
  if (!Has(key)) throw Error(key, std::string("missing (") + what + " is required)");
  const json& v = (*object_)[key];
  if (!ok(v)) throw Error(key, std::string("expected ") + what + ", got " + JsonTypePhrase(v));
  return v;
}

std::string Params::String(const std::string& key) const {
  return Typed(key, &IsString, "a string").get<std::string>();
}

std::string Params::String(const std::string& key, const std::string& fallback) const {
  return Has(key) ? String(key) : fallback;
}

bool Params::Bool(const std::string& key, bool fallback) const {
  return Has(key) ? Typed(key, &IsBool, "true or false").get<bool>() : fallback;
}

std::int64_t Params::Int(const std::string& key) const {
  const json& v = Typed(key, &IsInteger, "an integer");
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX) {
    throw Error(key, "above " + std::to_string(INT64_MAX));
  }
  return v.get<std::int64_t>();
}

std::int64_t Params::Int(const std::string& key, std::int64_t fallback) const {
  return Has(key) ? Int(key) : fallback;
}

std::int64_t Params::Int(const std::string& key, std::int64_t fallback, std::int64_t lo,
                         std::int64_t hi) const {
  const std::int64_t v = Int(key, fallback);
  if (v < lo || v > hi) {
    throw Error(key, "must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                         std::to_string(v));
  }
  return v;
}

std::int64_t Params::IntIn(const std::string& key, std::int64_t lo, std::int64_t hi) const {
  Int(key);  // "missing (an integer is required)" when absent
  return Int(key, 0, lo, hi);
}

std::uint64_t Params::Unsigned(const std::string& key) const {
  const json& v = Typed(key, &IsInteger, "a non-negative integer");
  if (!v.is_number_unsigned()) throw Error(key, "expected a non-negative integer, got " + v.dump());
  return v.get<std::uint64_t>();
}

std::uint64_t Params::Unsigned(const std::string& key, std::uint64_t fallback) const {
  return Has(key) ? Unsigned(key) : fallback;
}

double Params::Number(const std::string& key, double fallback) const {
  return Has(key) ? Typed(key, &IsNumber, "a number").get<double>() : fallback;
}

double Params::PositiveNumber(const std::string& key, double fallback,
                              const std::string& unit) const {
  const double v = Number(key, fallback);
  if (!(v > 0)) throw Error(key, "must be a positive number (" + unit + ")");
  return v;
}

Rational Params::Exact(const std::string& key) const {
  if (!Has(key)) throw Error(key, "missing (an exact number is required)");
  const json& v = (*object_)[key];
  try {
    if (v.is_string()) return ParseRational(v.get<std::string>());
    if (v.is_number_integer()) return Int(key);
  } catch (const std::invalid_argument& e) {
    throw Error(key, e.what());
  }
  throw Error(key, "expected an integer or a \"p/q\" / decimal string, got " + JsonTypePhrase(v));
}

Rational Params::Exact(const std::string& key, const std::string& fallback) const {
  return Has(key) ? Exact(key) : ParseRational(fallback);
}

std::vector<std::string> Params::Strings(const std::string& key) const {
  std::vector<std::string> out;
  if (!Has(key)) return out;
  const json& a = Typed(key, &IsArray, "an array of strings");
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) {
      throw InputError(file_, Index(Path(key), i),
                       "expected a string, got " + JsonTypePhrase(a[i]));
    }
    out.push_back(a[i].get<std::string>());
  }
  return out;
}

std::vector<std::int64_t> Params::Ints(const std::string& key) const {
  std::vector<std::int64_t> out;
  if (!Has(key)) return out;
  const json& a = Typed(key, &IsArray, "an array of integers");
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number_integer() ||
        (a[i].is_number_unsigned() && a[i].get<std::uint64_t>() > INT64_MAX)) {
      throw InputError(file_, Index(Path(key), i),
                       "expected an integer, got " +
                           (a[i].is_number_integer() ? a[i].dump() : JsonTypePhrase(a[i])));
    }
    out.push_back(a[i].get<std::int64_t>());
  }
  return out;
}

std::vector<std::int64_t> Params::Ints(const std::string& key, std::vector<std::int64_t> fallback,
                                       std::int64_t lo, std::int64_t hi) const {
  if (!Has(key)) return fallback;
  std::vector<std::int64_t> out = Ints(key);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < lo || out[i] > hi) {
      throw InputError(file_, Index(Path(key), i),
                       "must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                           std::to_string(out[i]));
    }
  }
  return out;
}

std::vector<Params> Params::Objects(const std::string& key) const {
  std::vector<Params> out;
  if (!Has(key)) return out;
  const json& a = Typed(key, &IsArray, "an array of objects");
  for (size_t i = 0; i < a.size(); ++i) out.emplace_back(a[i], file_, Index(Path(key), i));
  return out;
}

Params Params::Object(const std::string& key) const {
  return Params(Typed(key, &IsObject, "an object"), file_, Path(key));
}

std::vector<std::pair<std::string, const json*>> Params::Members(const std::string& key) const {
  std::vector<std::pair<std::string, const json*>> out;
  if (!Has(key)) return out;
  for (const auto& [k, v] : Typed(key, &IsObject, "an object").items()) out.emplace_back(k, &v);
  return out;
}

void Params::CheckTopology(const std::string& key, const std::string& expr) const {
  CheckExpression(file_, Path(key), expr);
}

std::string Params::Topology(const std::string& key) const {
  std::string expr = String(key);
  CheckTopology(key, expr);
  return expr;
}

std::vector<std::string> Params::Topologies(const std::string& key) const {
  std::vector<std::string> out = Strings(key);
  for (size_t i = 0; i < out.size(); ++i) CheckExpression(file_, Index(Path(key), i), out[i]);
  return out;
}

}  // namespace collsynth::experiments
