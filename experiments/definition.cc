#include "experiments/definition.h"

#include <algorithm>
#include <filesystem>

#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

// Typed field access with errors naming the file and the JSON path.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  std::string String(const json& obj, const std::string& key, const std::string& item,
                     bool required) const {
    if (!obj.contains(key)) {
      if (required) throw InputError(file_, item + key, "missing (a string is required)");
      return "";
    }
    if (!obj[key].is_string()) throw InputError(file_, item + key, "must be a string");
    return obj[key].get<std::string>();
  }

  bool Bool(const json& obj, const std::string& key, const std::string& item) const {
    if (!obj.contains(key)) return false;
    if (!obj[key].is_boolean()) throw InputError(file_, item + key, "must be true or false");
    return obj[key].get<bool>();
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

// A column name as used by the CSV: letters, digits, '_' only (so gnuplot and the
// notebook can address it without quoting).
bool IsColumnName(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

PlotSpec ReadPlot(const Reader& r, const json& p, const std::string& item) {
  if (!p.is_object()) throw InputError(r.file(), item, "must be an object");
  PlotSpec s;
  s.file = r.String(p, "file", item + ".", true);
  // Letters, digits, '.', '_', '-' only: the name reaches gnuplot scripts and file systems.
  const bool plain =
      s.file.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == std::string::npos;
  if (s.file.size() < 5 || s.file.substr(s.file.size() - 4) != ".png" || !plain ||
      s.file[0] == '.') {
    throw InputError(
        r.file(), item + ".file",
        "must be a plain file name ([A-Za-z0-9._-], not starting with '.') ending in .png");
  }
  s.title = r.String(p, "title", item + ".", false);
  s.x = r.String(p, "x", item + ".", true);
  s.y = r.String(p, "y", item + ".", true);
  s.group = r.String(p, "group", item + ".", false);
  for (const auto* col : {&s.x, &s.y, &s.group}) {
    if (!col->empty() && !IsColumnName(*col)) {
      throw InputError(r.file(), item, "column name '" + *col + "' is not [A-Za-z0-9_]+");
    }
  }
  std::string style = r.String(p, "style", item + ".", false);
  if (!style.empty()) {
    static const std::vector<std::string> kStyles = {"lines", "linespoints", "points", "boxes"};
    if (std::find(kStyles.begin(), kStyles.end(), style) == kStyles.end()) {
      throw InputError(r.file(), item + ".style",
                       "unknown style '" + style + "' (lines, linespoints, points, boxes)");
    }
    s.style = style;
  }
  s.logx = r.Bool(p, "logx", item + ".");
  s.logy = r.Bool(p, "logy", item + ".");
  s.xlabel = r.String(p, "xlabel", item + ".", false);
  s.ylabel = r.String(p, "ylabel", item + ".", false);
  if (p.contains("where")) {
    if (!p["where"].is_object()) throw InputError(r.file(), item + ".where", "must be an object");
    for (const auto& [k, v] : p["where"].items()) {
      if (!IsColumnName(k)) throw InputError(r.file(), item + ".where." + k, "bad column name");
      if (!v.is_string()) throw InputError(r.file(), item + ".where." + k, "must be a string");
      s.where.emplace_back(k, v.get<std::string>());
    }
  }
  return s;
}

// Every column a plot names must be one the kind's CSV can have: a fixed column or one the
// kind declares (experiments/experiment.h). Checked when the definition is read, so a typo
// is reported before the experiment runs, not after it wrote its files.
void CheckPlotColumns(const ExperimentDefinition& def) {
  const std::vector<std::string>* declared = ExperimentKindColumns(def.kind);
  if (declared == nullptr) return;  // unknown kinds are reported by the caller
  auto known = [&](const std::string& c) {
    const auto& fixed = FixedColumns();
    return std::find(fixed.begin(), fixed.end(), c) != fixed.end() ||
           IsDeclaredColumn(*declared, c);
  };
  auto refuse = [&](const std::string& item, const std::string& c) {
    std::string columns;
    for (const auto& f : FixedColumns()) columns += (columns.empty() ? "" : ", ") + f;
    for (const auto& d : *declared) columns += ", " + d;
    throw InputError(def.path, item,
                     "no CSV column '" + c + "' in an experiment of kind " + def.kind +
                         " (columns: " + columns + ")");
  };
  for (size_t i = 0; i < def.plots.size(); ++i) {
    const PlotSpec& p = def.plots[i];
    const std::string item = "plots[" + std::to_string(i) + "].";
    for (const auto& [key, column] : {std::pair<const char*, const std::string*>{"x", &p.x},
                                      {"y", &p.y},
                                      {"group", &p.group}}) {
      if (!column->empty() && !known(*column)) refuse(item + key, *column);
    }
    for (const auto& [column, value] : p.where) {
      if (!known(column)) refuse(item + "where." + column, column);
    }
  }
}

}  // namespace

ExperimentDefinition LoadExperimentDefinition(const std::string& path) {
  const json doc = ParseJsonText(ReadTextFile(path), path);
  Reader r(path);
  if (!doc.is_object()) throw InputError(path, "(top level)", "must be a JSON object");
  ExperimentDefinition def;
  def.path = path;
  def.raw = doc;
  def.name = r.String(doc, "name", "", true);
  const std::string stem = std::filesystem::path(path).stem().string();
  if (def.name != stem) {
    throw InputError(path, "name", "'" + def.name + "' must equal the file name '" + stem + "'");
  }
  if (def.name.empty() ||
      def.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos) {
    throw InputError(path, "name", "must use only a-z, 0-9, '-' and '_'");
  }
  def.title = r.String(doc, "title", "", false);
  def.kind = r.String(doc, "kind", "", true);
  if (FindExperimentKind(def.kind) == nullptr) {
    std::string known;
    for (const auto& k : ExperimentKindNames()) known += (known.empty() ? "" : ", ") + k;
    throw InputError(path, "kind",
                     "unknown experiment kind '" + def.kind + "' (known: " + known + ")");
  }
  if (doc.contains("params")) {
    if (!doc["params"].is_object()) throw InputError(path, "params", "must be an object");
    def.params = doc["params"];
  }
  if (doc.contains("seeds")) {
    if (!doc["seeds"].is_array()) throw InputError(path, "seeds", "must be an array of integers");
    for (size_t i = 0; i < doc["seeds"].size(); ++i) {
      const json& s = doc["seeds"][i];
      if (!s.is_number_unsigned()) {
        throw InputError(path, "seeds[" + std::to_string(i) + "]",
                         "must be a non-negative integer");
      }
      def.seeds.push_back(s.get<uint64_t>());
    }
  }
  def.quick = r.Bool(doc, "quick", "");
  if (doc.contains("plots")) {
    if (!doc["plots"].is_array()) throw InputError(path, "plots", "must be an array");
    for (size_t i = 0; i < doc["plots"].size(); ++i) {
      def.plots.push_back(ReadPlot(r, doc["plots"][i], "plots[" + std::to_string(i) + "]"));
    }
  }
  CheckPlotColumns(def);
  if (doc.contains("readme")) {
    const json& md = doc["readme"];
    if (md.is_string()) {
      def.readme.push_back(md.get<std::string>());
    } else if (md.is_array()) {
      for (size_t i = 0; i < md.size(); ++i) {
        if (!md[i].is_string()) {
          throw InputError(path, "readme[" + std::to_string(i) + "]", "must be a string");
        }
        def.readme.push_back(md[i].get<std::string>());
      }
    } else {
      throw InputError(path, "readme", "must be a string or an array of strings");
    }
  }
  return def;
}

std::vector<ExperimentDefinition> LoadExperimentDefinitions(const std::string& dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir))
    throw InputError(dir, "", "not a directory of experiment definitions");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<ExperimentDefinition> defs;
  for (const auto& f : files) defs.push_back(LoadExperimentDefinition(f));
  return defs;
}

}  // namespace collsynth::experiments
