#include "experiments/outputs.h"

#include <coin/CbcConfig.h>
#include <coin/ClpConfig.h>
#include <gmp.h>
#include <lemon/config.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <boost/version.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "core/input_error.h"
#include "core/rational.h"
#include "experiments/params.h"
#include "experiments/program_run.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "";
}

// A cell's numeric value for plotting (float is fine here: plots only).
bool CellNumber(const std::string& cell, double* out) {
  if (cell.empty()) return false;
  try {
    *out = ParseRational(cell).convert_to<double>();
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw InputError(path, "", "cannot write output file");
}

// A gnuplot string literal for any text. Single-quoted: gnuplot runs `backquoted` text as a
// shell command inside double-quoted strings (and on the command line), never inside single
// quotes, where only '' (a quote) is special. A line break would end the command, so control
// characters become spaces.
std::string GnuplotString(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "''";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      q += ' ';
    } else {
      q += c;
    }
  }
  return q + "'";
}

}  // namespace

json EnvironmentJson(const std::string& source_root) {
  json env;
  // git without a shell; "" when git is missing or fails.
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"git", "-C", source_root});
    ProgramRun r = RunProgram(args, "", StderrMode::kDiscard);
    return r.spawn_error == 0 && r.exit_status == 0 ? r.output : std::string();
  };
  std::string commit = git({"rev-parse", "HEAD"});
  if (!commit.empty() && commit.back() == '\n') commit.pop_back();
  env["git_commit"] = commit.empty() ? json(nullptr) : json(commit);
  if (!commit.empty()) {
    env["git_dirty"] = !git({"status", "--porcelain", "--untracked-files=no"}).empty();
  }
  utsname u{};
  if (uname(&u) == 0) {
    env["machine"] = {{"system", u.sysname},
                      {"release", u.release},
                      {"arch", u.machine},
                      {"hostname", u.nodename}};
  }
  env["machine"]["cpu"] = CpuModel();
  env["machine"]["hardware_threads"] = std::thread::hardware_concurrency();
  env["libraries"] = {{"compiler", std::string("g++ ") + __VERSION__},
                      {"boost", BOOST_LIB_VERSION},
                      {"gmp", gmp_version},
                      {"clp", CLP_VERSION},
                      {"cbc", CBC_VERSION},
                      {"lemon", LEMON_VERSION},
                      {"nlohmann_json", std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                            std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                            std::to_string(NLOHMANN_JSON_VERSION_PATCH)}};
  return env;
}

PlotFiles MakePlotFiles(const PlotSpec& plot, const CsvTable& table) {
  const int xc = table.Column(plot.x), yc = table.Column(plot.y);
  const int gc = plot.group.empty() ? -1 : table.Column(plot.group);
  const int pc = plot.panels.empty() ? -1 : table.Column(plot.panels);
  if (xc < 0 || yc < 0 || (!plot.group.empty() && gc < 0) || (!plot.panels.empty() && pc < 0)) {
    throw InputError(plot.file, "columns",
                     "plot names a column the CSV does not have (x '" + plot.x + "', y '" + plot.y +
                         "', group '" + plot.group + "', panels '" + plot.panels + "')");
  }
  std::vector<std::pair<int, std::string>> where;
  for (const auto& [col, value] : plot.where) {
    const int c = table.Column(col);
    if (c < 0) throw InputError(plot.file, "where." + col, "no such CSV column");
    where.emplace_back(c, value);
  }
  // Rows kept, in panels and groups in order of first appearance (one panel without `panels`).
  struct Panel {
    std::string name;
    std::vector<std::string> groups;
    std::map<std::string, std::vector<size_t>> members;
    std::vector<std::string> categories;  // category axis: x values in order of appearance
    std::map<std::string, size_t> category_index;
  };
  std::vector<Panel> panels;
  std::map<std::string, size_t> panel_index;
  if (pc < 0) panels.emplace_back();
  bool numeric_x = true;
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const auto& r = table.rows[i];
    bool keep = true;
    for (const auto& [c, v] : where) keep = keep && r[static_cast<size_t>(c)] == v;
    double y;
    if (!keep || !CellNumber(r[static_cast<size_t>(yc)], &y)) continue;
    double x;
    if (!CellNumber(r[static_cast<size_t>(xc)], &x)) numeric_x = false;
    size_t pi = 0;
    if (pc >= 0) {
      const std::string& name = r[static_cast<size_t>(pc)];
      auto [it, added] = panel_index.emplace(name, panels.size());
      if (added) panels.push_back(Panel{name, {}, {}, {}, {}});
      pi = it->second;
    }
    Panel& panel = panels[pi];
    const std::string g = gc < 0 ? plot.y : r[static_cast<size_t>(gc)];
    if (!panel.members.count(g)) panel.groups.push_back(g);
    panel.members[g].push_back(i);
  }
  if (!numeric_x) {
    for (Panel& panel : panels) {
      for (const auto& g : panel.groups) {
        for (size_t i : panel.members[g]) {
          const std::string& x = table.rows[i][static_cast<size_t>(xc)];
          if (!panel.category_index.count(x)) {
            panel.category_index[x] = panel.categories.size();
            panel.categories.push_back(x);
          }
        }
      }
    }
  }
  // One data block per (panel, group).
  std::ostringstream data;
  data.precision(17);
  size_t blocks = 0;
  for (Panel& panel : panels) {
    for (const auto& g : panel.groups) {
      if (blocks++) data << "\n\n";
      data << "# " << (pc < 0 ? g : panel.name + " / " + g) << "\n";
      std::vector<std::pair<double, double>> points;
      for (size_t i : panel.members[g]) {
        const auto& r = table.rows[i];
        double x = 0, y = 0;
        CellNumber(r[static_cast<size_t>(yc)], &y);
        if (numeric_x) {
          CellNumber(r[static_cast<size_t>(xc)], &x);
        } else {
          x = static_cast<double>(panel.category_index[r[static_cast<size_t>(xc)]]);
        }
        points.emplace_back(x, y);
      }
      std::stable_sort(points.begin(), points.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [x, y] : points) data << x << " " << y << "\n";
    }
  }
  const std::string stem = plot.file.substr(0, plot.file.size() - 4);
  std::ostringstream gp;
  std::string comment_stem = stem;  // a line break would end the comment
  for (char& c : comment_stem) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  // Panels: two columns of 700 x 450 pixels each (one column for one panel).
  const size_t columns = std::min<size_t>(2, std::max<size_t>(1, panels.size()));
  const size_t panel_rows = (panels.size() + columns - 1) / std::max<size_t>(1, columns);
  gp << "# Generated by collsynth experiment; run from this folder: gnuplot " << comment_stem
     << ".gp\n";
  if (pc < 0) {
    gp << "set terminal pngcairo size 960,600 noenhanced font 'sans,10'\n"
       << "set output " << GnuplotString(plot.file) << "\n"
       << "set title " << GnuplotString(plot.title) << "\n";
  } else {
    gp << "set terminal pngcairo size " << 700 * columns << ","
       << 450 * std::max<size_t>(1, panel_rows) << " noenhanced font 'sans,10'\n"
       << "set output " << GnuplotString(plot.file) << "\n";
  }
  gp << "set xlabel " << GnuplotString(plot.xlabel.empty() ? plot.x : plot.xlabel) << "\n"
     << "set ylabel " << GnuplotString(plot.ylabel.empty() ? plot.y : plot.ylabel) << "\n"
     << (pc < 0 ? "set key outside right top\n" : "set key inside top left\n") << "set grid\n";
  if (plot.logx) gp << "set logscale x\n";
  if (plot.logy) gp << "set logscale y\n";
  if (pc >= 0) {
    if (panels.empty()) {
      gp << "set title " << GnuplotString(plot.title) << "\n";
    } else {
      gp << "set multiplot layout " << panel_rows << "," << columns << " title "
         << GnuplotString(plot.title) << "\n";
    }
  }
  size_t block = 0;
  for (Panel& panel : panels) {
    if (pc >= 0) gp << "set title " << GnuplotString(panel.name) << "\n";
    if (!numeric_x) {
      gp << "set xtics rotate by -40 (";
      for (size_t i = 0; i < panel.categories.size(); ++i) {
        gp << (i ? ", " : "") << GnuplotString(panel.categories[i]) << " " << i;
      }
      gp << ")\nset xrange [-0.5:" << panel.categories.size() << "-0.5]\n";
    }
    if (plot.style == "boxes") {
      const double width = 0.8 / std::max<size_t>(1, panel.groups.size());
      gp << "set style fill solid 0.6\nset boxwidth " << width << "\n";
    }
    if (panel.groups.empty()) {
      gp << "set label 1 'no data' at graph 0.5, graph 0.5 center\nplot [0:1] [0:1] NaN "
            "notitle\n";
      continue;
    }
    gp << "plot ";
    for (size_t gi = 0; gi < panel.groups.size(); ++gi) {
      gp << (gi ? ", \\\n     " : "") << GnuplotString(stem + ".dat") << " index " << block++;
      if (plot.style == "boxes" && panel.groups.size() > 1) {
        const double width = 0.8 / panel.groups.size();
        gp << " using ($1-0.4+" << width * (gi + 0.5) << "):2";
      } else {
        gp << " using 1:2";
      }
      gp << " with " << plot.style << " title " << GnuplotString(panel.groups[gi]);
    }
    gp << "\n";
  }
  if (panels.empty()) {
    gp << "set label 1 'no data' at graph 0.5, graph 0.5 center\nplot [0:1] [0:1] NaN notitle\n";
  }
  if (pc >= 0 && !panels.empty()) gp << "unset multiplot\n";
  return {data.str(), gp.str()};
}

json NotebookJson(const ExperimentDefinition& def) {
  auto lines = [](const std::string& text) {
    json src = json::array();
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> all;
    while (std::getline(in, line)) all.push_back(line);
    for (size_t i = 0; i < all.size(); ++i)
      src.push_back(all[i] + (i + 1 < all.size() ? "\n" : ""));
    return src;
  };
  auto markdown = [&](const std::string& text) {
    return json{{"cell_type", "markdown"}, {"metadata", json::object()}, {"source", lines(text)}};
  };
  auto code = [&](const std::string& text) {
    return json{{"cell_type", "code"},
                {"execution_count", nullptr},
                {"metadata", json::object()},
                {"outputs", json::array()},
                {"source", lines(text)}};
  };
  std::string intro = "# " + (def.title.empty() ? def.name : def.title) + "\n\n";
  for (const auto& l : def.readme) intro += l + "\n";
  intro += "\nRegenerate the data with `collsynth experiment run " + def.name +
           "`. The cells compute through the Python package (`import collsynth`, docs/python.md; "
           "start Jupyter with `PYTHONPATH=build/python` from the repository root).";
  json cells = json::array();
  cells.push_back(markdown(intro));
  // Python string literals: JSON strings are valid Python literals for any text.
  const std::string name = json(def.name).dump();
  cells.push_back(code(
      "import os\n\nimport collsynth\n\n"
      "NAME = " +
      name +
      "\nDEFINITIONS = os.path.join('..', '..', 'experiments')  # this folder is "
      "notebooks_data/NAME\n"
      "# Recompute the rows through the package, or read the shipped results.csv exactly;\n"
      "# COLLSYNTH_RECOMPUTE=1 or 0 overrides the default (" +
      std::string(def.quick ? "recompute: a quick experiment" : "read: a long experiment") +
      ").\n"
      "RECOMPUTE = os.environ.get('COLLSYNTH_RECOMPUTE', '" +
      std::string(def.quick ? "1" : "0") +
      "') == '1'\n"
      "shipped = collsynth.experiments.load('.', frame=False)\n"
      "if RECOMPUTE:\n"
      "    rows = collsynth.experiments.run(NAME, dir=DEFINITIONS, frame=False)\n"
      "    def timeless(r):\n"
      "        return {k: v for k, v in r.items()\n"
      "                if not k.endswith('_seconds') and k != 'time_to_optimal'}\n"
      "    same = [timeless(r) for r in rows] == [timeless(r) for r in shipped]\n"
      "    print(len(rows), 'rows recomputed; equal to the shipped results.csv (times aside):', "
      "same)\n"
      "else:\n"
      "    rows = shipped\n"
      "print(len(rows), 'rows; columns:', list(rows[0]) if rows else [])\n\n"
      "try:\n"
      "    import matplotlib.pyplot as plt\n"
      "except ImportError:  # the figures' data are still computed below\n"
      "    plt = None\n"
      "figures = {}"));
  for (const auto& p : def.plots) {
    std::ostringstream c;
    auto opt = [](const std::string& col) { return col.empty() ? "None" : json(col).dump(); };
    c << "fig = collsynth.experiments.figure_series(\n"
      << "    rows, x=" << json(p.x).dump() << ", y=" << json(p.y).dump()
      << ", group=" << opt(p.group) << ", panels=" << opt(p.panels) << ",\n"
      << "    where="
      << json(std::map<std::string, std::string>(p.where.begin(), p.where.end())).dump() << ")\n"
      << "figures[" << json(p.file).dump() << "] = fig\n"
      << "if plt is not None:\n"
      << "    n = len(fig['panels']) or 1\n"
      << "    cols = min(n, 2)\n"
      << "    f, axes = plt.subplots((n + cols - 1) // cols, cols, figsize=(7 * cols, 4.5 * ((n "
         "+ cols - 1) // cols)), squeeze=False)\n"
      << "    for ax, panel in zip(axes.flat, fig['panels']):\n"
      << "        for line in panel['lines']:\n"
      << "            ax.plot([float(a) for a, _ in line['points']], [float(b) for _, b in "
         "line['points']], marker='o', "
      << (p.style == "points" ? "linestyle='none', " : "") << "label=line['name'])\n"
      << "        if panel['categories']:\n"
      << "            ax.set_xticks(range(len(panel['categories'])), panel['categories'], "
         "rotation=40, ha='right')\n"
      << (p.logx ? "        ax.set_xscale('log')\n" : "")
      << (p.logy ? "        ax.set_yscale('log')\n" : "") << "        ax.set_xlabel("
      << json(p.xlabel.empty() ? p.x : p.xlabel).dump() << ")\n"
      << "        ax.set_ylabel(" << json(p.ylabel.empty() ? p.y : p.ylabel).dump() << ")\n"
      << "        ax.set_title(panel['name'] or " << json(p.title).dump() << ")\n"
      << "        ax.legend(fontsize='small')\n"
      << "    f.suptitle(" << json(p.title).dump() << ")\n"
      << "    plt.show()";
    cells.push_back(markdown("## " + (p.title.empty() ? p.file : p.title)));
    cells.push_back(code(c.str()));
  }
  return {
      {"cells", cells},
      {"metadata",
       {{"kernelspec", {{"display_name", "Python 3"}, {"language", "python"}, {"name", "python3"}}},
        {"language_info", {{"name", "python"}}}}},
      {"nbformat", 4},
      {"nbformat_minor", 5}};
}

std::string ReadmeMarkdown(const ExperimentDefinition& def, const CsvTable& table,
                           const json& meta) {
  std::ostringstream md;
  md << "# " << (def.title.empty() ? def.name : def.title) << "\n\n";
  for (const auto& l : def.readme) md << l << "\n";
  md << "\n";
  for (const auto& p : def.plots) md << "![" << p.title << "](" << p.file << ")\n\n";
  const int vc = table.Column("verified");
  size_t yes = 0, na = 0;
  for (const auto& r : table.rows) {
    if (vc >= 0 && r[static_cast<size_t>(vc)] == "yes") ++yes;
    if (vc >= 0 && r[static_cast<size_t>(vc)] == "n/a") ++na;
  }
  md << "## Data\n\n"
     << "- `results.csv`: " << table.rows.size() << " rows (" << yes
     << " backed by a schedule the proofs_check checker accepted, " << na
     << " formula-only rows); exact values as p/q with a decimal column beside each.\n"
     << "- `meta.json`: commit, parameters, seeds, machine, library versions.\n"
     << "- `" << def.name << ".ipynb`: loads the CSV and redraws the figures.\n\n"
     << "Definition: `experiments/" << def.name << ".json` (kind `" << def.kind << "`).\n"
     << "Regenerate: `build/collsynth experiment run " << def.name << "`";
  if (meta.contains("jobs")) md << " (this run: --jobs " << meta["jobs"].dump() << ")";
  md << ".\n";
  if (meta.contains("environment") && meta["environment"].contains("git_commit") &&
      meta["environment"]["git_commit"].is_string()) {
    md << "Produced from commit `" << meta["environment"]["git_commit"].get<std::string>() << "`"
       << (meta["environment"].value("git_dirty", false) ? " with local changes" : "") << ".\n";
  }
  return md.str();
}

void CheckReadmeMeta(const json& meta, const std::string& file) {
  const Params m(meta, file, "");
  if (!m.Has("environment")) return;
  const Params env = m.Object("environment");
  if (env.Has("git_commit") && !env.Raw()["git_commit"].is_null()) env.String("git_commit");
  env.Bool("git_dirty", false);
}

std::vector<std::string> WriteExperimentOutputs(const ExperimentDefinition& def,
                                                const CsvTable& table, const json& meta,
                                                const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir, "", "cannot create output folder: " + ec.message());
  WriteFile(dir + "/results.csv", FormatCsv(table));
  WriteFile(dir + "/meta.json", meta.dump(2) + "\n");
  WriteFile(dir + "/" + def.name + ".ipynb", NotebookJson(def).dump(1) + "\n");
  WriteFile(dir + "/README.md", ReadmeMarkdown(def, table, meta));
  std::vector<std::string> scripts;
  for (const auto& p : def.plots) {
    const PlotFiles files = MakePlotFiles(p, table);
    const std::string stem = dir + "/" + p.file.substr(0, p.file.size() - 4);
    WriteFile(stem + ".dat", files.data);
    WriteFile(stem + ".gp", files.script);
    scripts.push_back(stem + ".gp");
  }
  return scripts;
}

std::vector<PlotRender> RenderPlots(const std::vector<std::string>& scripts) {
  namespace fs = std::filesystem;
  std::vector<PlotRender> out;
  for (const auto& s : scripts) {
    const fs::path p(s);
    PlotRender r;
    r.script = s;
    r.png = (p.parent_path() / p.stem()).string() + ".png";
    out.push_back(r);
  }
  if (scripts.empty()) return out;
  const ProgramRun probe = RunProgram({"gnuplot", "--version"}, "", StderrMode::kMerge);
  if (probe.spawn_error == ENOENT) {
    for (auto& r : out) {
      r.outcome = PlotOutcome::kGnuplotMissing;
      r.diagnostics = "gnuplot not found on PATH";
    }
    return out;
  }
  for (auto& r : out) {
    const fs::path p(r.script);
    std::error_code ec;
    fs::remove(r.png, ec);  // a PNG left afterwards is this run's (a directory stays: failure)
    const std::string folder = p.parent_path().empty() ? "." : p.parent_path().string();
    // "./NAME.gp": a script name starting with '-' is not taken for an option.
    const ProgramRun run =
        RunProgram({"gnuplot", "./" + p.filename().string()}, folder, StderrMode::kMerge);
    r.diagnostics = run.output;
    if (run.spawn_error != 0) {
      r.diagnostics +=
          std::string("cannot start gnuplot in ") + folder + ": " + std::strerror(run.spawn_error);
      continue;
    }
    if (run.exit_status != 0) {
      r.diagnostics += run.exit_status < 0
                           ? "gnuplot was killed by a signal"
                           : "gnuplot exited with status " + std::to_string(run.exit_status);
      continue;
    }
    struct stat st {};
    if (stat(r.png.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
      r.diagnostics += "gnuplot exited 0 but left no non-empty " + r.png;
      continue;
    }
    r.outcome = PlotOutcome::kRendered;
  }
  return out;
}

}  // namespace collsynth::experiments
