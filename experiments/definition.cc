#include "experiments/definition.h"

#include <algorithm>
#include <filesystem>

#include "core/input_error.h"
#include "core/json_io.h"
#include "experiments/csv_table.h"
#include "experiments/experiment.h"
#include "experiments/params.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

// A column name as used by the CSV: letters, digits, '_' only (so gnuplot and the
// notebook can address it without quoting).
bool IsColumnName(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

PlotSpec ReadPlot(const Params& p) {
  const std::string item = p.Path("");
  PlotSpec s;
  s.file = p.String("file");
  // Letters, digits, '.', '_', '-' only: the name reaches gnuplot scripts and file systems.
  const bool plain =
      s.file.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == std::string::npos;
  if (s.file.size() < 5 || s.file.substr(s.file.size() - 4) != ".png" || !plain ||
      s.file[0] == '.') {
    throw InputError(
        p.file(), item + ".file",
        "must be a plain file name ([A-Za-z0-9._-], not starting with '.') ending in .png");
  }
  s.title = p.String("title", "");
  s.x = p.String("x");
  s.y = p.String("y");
  s.group = p.String("group", "");
  s.panels = p.String("panels", "");
  for (const auto* col : {&s.x, &s.y, &s.group, &s.panels}) {
    if (!col->empty() && !IsColumnName(*col)) {
      throw InputError(p.file(), item, "column name '" + *col + "' is not [A-Za-z0-9_]+");
    }
  }
  std::string style = p.String("style", "");
  if (!style.empty()) {
    static const std::vector<std::string> kStyles = {"lines", "linespoints", "points", "boxes"};
    if (std::find(kStyles.begin(), kStyles.end(), style) == kStyles.end()) {
      throw InputError(p.file(), item + ".style",
                       "unknown style '" + style + "' (lines, linespoints, points, boxes)");
    }
    s.style = style;
  }
  s.logx = p.Bool("logx", false);
  s.logy = p.Bool("logy", false);
  s.xlabel = p.String("xlabel", "");
  s.ylabel = p.String("ylabel", "");
  for (const auto& [k, v] : p.Members("where")) {
    if (!IsColumnName(k)) throw p.Error("where." + k, "bad column name");
    if (!v->is_string()) throw p.Error("where." + k, "must be a string");
    s.where.emplace_back(k, v->get<std::string>());
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
                                      {"group", &p.group},
                                      {"panels", &p.panels}}) {
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
  if (!doc.is_object()) throw InputError(path, "(top level)", "must be a JSON object");
  const Params r(doc, path, "");
  ExperimentDefinition def;
  def.path = path;
  def.raw = doc;
  def.name = r.String("name");
  const std::string stem = std::filesystem::path(path).stem().string();
  if (def.name != stem) {
    throw InputError(path, "name", "'" + def.name + "' must equal the file name '" + stem + "'");
  }
  if (def.name.empty() ||
      def.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos) {
    throw InputError(path, "name", "must use only a-z, 0-9, '-' and '_'");
  }
  def.title = r.String("title", "");
  def.kind = r.String("kind");
  if (FindExperimentKind(def.kind) == nullptr) {
    std::string known;
    for (const auto& k : ExperimentKindNames()) known += (known.empty() ? "" : ", ") + k;
    throw InputError(path, "kind",
                     "unknown experiment kind '" + def.kind + "' (known: " + known + ")");
  }
  if (r.Has("params")) def.params = r.Object("params").Raw();
  for (std::int64_t seed : r.Ints("seeds", {}, 0, INT64_MAX)) {
    def.seeds.push_back(static_cast<std::uint64_t>(seed));
  }
  def.quick = r.Bool("quick", false);
  for (const Params& plot : r.Objects("plots")) def.plots.push_back(ReadPlot(plot));
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
