// An experiment definition: the declarative file experiments/<name>.json.
//
//   {"name": "<file stem>", "title": "...", "kind": "<registered kind>",
//    "params": {...}, "seeds": [1, 2], "quick": false,
//    "plots": [{"file": "tb.png", "title": "...", "x": "nodes", "y": "tb_decimal",
//               "group": "algorithm", "style": "linespoints", "logx": false,
//               "logy": false, "xlabel": "...", "ylabel": "...",
//               "where": {"collective": "allreduce"}}],
//    "readme": ["markdown line", ...]}
//
// x, y, group and the keys of "where" name CSV columns (experiments/csv_table.h); "where"
// keeps the rows whose column equals the given string. style is a gnuplot style (lines,
// linespoints, points, boxes). Every problem is an InputError naming the file and the item.
#ifndef COLLSYNTH_EXPERIMENTS_DEFINITION_H_
#define COLLSYNTH_EXPERIMENTS_DEFINITION_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace collsynth::experiments {

struct PlotSpec {
  std::string file;  // PNG file name inside the output folder
  std::string title;
  std::string x, y, group;
  // One panel per value of this column (in order of first appearance), so that no line joins
  // rows of different panels (e.g. "instance": one panel per topology); "" = one plot.
  std::string panels;
  std::string style = "linespoints";
  bool logx = false, logy = false;
  std::string xlabel, ylabel;
  std::vector<std::pair<std::string, std::string>> where;
};

struct ExperimentDefinition {
  std::string path;  // the file it was read from
  std::string name, title, kind;
  nlohmann::json params = nlohmann::json::object();
  std::vector<uint64_t> seeds;
  bool quick = false;  // runs in seconds (used by the README's main command)
  std::vector<PlotSpec> plots;
  std::vector<std::string> readme;
  nlohmann::json raw;  // the whole file, recorded in meta.json
};

// Reads and validates one definition (the kind must be registered).
ExperimentDefinition LoadExperimentDefinition(const std::string& path);

// All definitions in dir (files *.json directly in it), sorted by name.
std::vector<ExperimentDefinition> LoadExperimentDefinitions(const std::string& dir);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_DEFINITION_H_
