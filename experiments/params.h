// Params: typed reads of one JSON object of a file, for every experiment kind's "params" and
// for the shard files `experiment merge` reads (meta.json, rows.json). Each read checks the
// JSON type (and the range, where one is given) before converting, so no nlohmann
// type_error can escape; every problem is an InputError naming the file and the key path from
// the top of the file, e.g.
//   experiments/x.json: params.cases[0].topology: expected a string, got an array
//   shard-0-of-2/meta.json: jobs: expected an integer, got a string
// A key that is absent takes the fallback where one is given and is "missing" otherwise; null
// is a value of the wrong type, never "absent". Topology expressions are checked when read
// (syntax, arguments, sizes: EstimateTopologyExpressionSize, O(length)), so a bad one is
// reported before any task runs, with the key that holds it.
//
// A Params is a view: the JSON it was made from must outlive it. Reads are O(size of the value).
#ifndef COLLSYNTH_EXPERIMENTS_PARAMS_H_
#define COLLSYNTH_EXPERIMENTS_PARAMS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "core/rational.h"

namespace collsynth::experiments {

struct ExperimentInput;

// "a string", "an integer", "a number", "an array", "an object", "a boolean", "null".
std::string JsonTypePhrase(const nlohmann::json& value);

class Params {
 public:
  // `object` at `path` ("" for the top of `file`, "params" for a definition's parameters).
  // A value that is not an object is reported here.
  Params(const nlohmann::json& object, std::string file, std::string path);
  // A kind's parameters: in.params at "params" of in.file.
  explicit Params(const ExperimentInput& in);

  const nlohmann::json& Raw() const { return *object_; }
  const std::string& file() const { return file_; }
  bool Has(const std::string& key) const { return object_->contains(key); }
  std::string Path(const std::string& key) const;  // the key path of `key` ("" = this object)
  InputError Error(const std::string& key, const std::string& problem) const;

  std::string String(const std::string& key) const;
  std::string String(const std::string& key, const std::string& fallback) const;
  bool Bool(const std::string& key, bool fallback) const;
  std::int64_t Int(const std::string& key) const;
  std::int64_t Int(const std::string& key, std::int64_t fallback) const;
  // Int, and lo <= value <= hi ("must be in lo..hi").
  std::int64_t Int(const std::string& key, std::int64_t fallback, std::int64_t lo,
                   std::int64_t hi) const;
  // Int, required, and lo <= value <= hi.
  std::int64_t IntIn(const std::string& key, std::int64_t lo, std::int64_t hi) const;
  std::uint64_t Unsigned(const std::string& key) const;
  std::uint64_t Unsigned(const std::string& key, std::uint64_t fallback) const;
  double Number(const std::string& key, double fallback) const;  // any JSON number
  // Number, and > 0 ("must be a positive number (unit)").
  double PositiveNumber(const std::string& key, double fallback, const std::string& unit) const;
  // An exact rational: a JSON integer or a "p/q" / decimal string (core/rational.h).
  Rational Exact(const std::string& key) const;
  Rational Exact(const std::string& key, const std::string& fallback) const;
  // Arrays; an absent key is an empty list.
  std::vector<std::string> Strings(const std::string& key) const;
  std::vector<std::int64_t> Ints(const std::string& key) const;
  // Ints, `fallback` when absent, each in lo..hi.
  std::vector<std::int64_t> Ints(const std::string& key, std::vector<std::int64_t> fallback,
                                 std::int64_t lo, std::int64_t hi) const;
  std::vector<Params> Objects(const std::string& key) const;
  Params Object(const std::string& key) const;  // required
  // The (key, value) members of the object at `key` (absent: none), each value unchecked.
  std::vector<std::pair<std::string, const nlohmann::json*>> Members(const std::string& key) const;
  // A `topo gen` expression, checked now (see the header comment).
  std::string Topology(const std::string& key) const;
  std::vector<std::string> Topologies(const std::string& key) const;
  // Checks `expr` (read from `key`) as Topology does.
  void CheckTopology(const std::string& key, const std::string& expr) const;

  // The value at `key` after a type check (`what`: "a string", ...; `ok` its predicate).
  const nlohmann::json& Typed(const std::string& key, bool (*ok)(const nlohmann::json&),
                              const char* what) const;

 private:
  const nlohmann::json* object_;
  std::string file_, path_;
};

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_PARAMS_H_
