// docs/experiments.md "Provenance": every shipped output notebooks_data/NAME/ must come from the
// definition experiments/NAME.json as it is in the tree. The check uses the runner's own
// fingerprint (experiments/shards.h DefinitionHash) on three things: the definition in the
// tree, the definition recorded in meta.json ("definition") and the recorded
// "definition_hash" (written by every run). An output that lacks the field or
// whose definition changed since the run fails, named, with the command that regenerates it,
// unless tests/experiments/provenance_allowlist.txt lists it (long experiments: regenerate on
// a cluster with scripts/regenerate_all.sh) pinned to the exact tree hash it was checked
// against, so any later change to such a definition fails too. Reads files only: well under
// a second. The last two tests run scripts/regenerate_all.sh on a small git repository (a
// copy of quick-start): it refuses a dirty tree and bad options, regenerates from a clean
// HEAD, and never replaces a committed CSV that a rerun does not reproduce (about 2 s).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "experiments/definition.h"
#include "experiments/shards.h"
#include "test_util.h"

namespace collsynth::experiments {
namespace {

namespace fs = std::filesystem;
using ::collsynth::testing::SourcePath;
using ::collsynth::testing::TempPath;
using nlohmann::json;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// NAME -> tree hash the allowlist pins it to. Lines "NAME fnv1a64:HASH reason ...";
// '#' starts a comment line.
std::map<std::string, std::string> ReadAllowlist(const std::string& path) {
  std::map<std::string, std::string> pinned;
  std::istringstream in(ReadAll(path));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name, hash;
    if (!(words >> name) || name[0] == '#') continue;
    words >> hash;
    pinned[name] = hash;
  }
  return pinned;
}

// One line per shipped output whose provenance does not hold (empty: all hold).
std::vector<std::string> ProvenanceProblems(const std::string& data_dir,
                                            const std::string& experiments_dir,
                                            const std::map<std::string, std::string>& allowed) {
  std::vector<std::string> problems;
  std::map<std::string, bool> allow_used;
  for (const auto& [name, hash] : allowed) allow_used[name] = false;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(data_dir)) {
    if (e.is_directory()) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    const std::string name = dir.filename().string();
    const std::string redo = " (regenerate: build/collsynth experiment run " + name + ")";
    if (!fs::exists(dir / "meta.json")) {
      problems.push_back(name + ": no meta.json" + redo);
      continue;
    }
    const std::string def_path = (fs::path(experiments_dir) / (name + ".json")).string();
    if (!fs::exists(def_path)) {
      problems.push_back(name + ": shipped, but " + def_path + " is not in the tree");
      continue;
    }
    const std::string tree_hash = DefinitionHash(LoadExperimentDefinition(def_path));
    const json meta = json::parse(ReadAll((dir / "meta.json").string()));
    ExperimentDefinition recorded;
    recorded.raw = meta.value("definition", json(nullptr));
    const std::string recorded_hash = DefinitionHash(recorded);
    const auto pin = allowed.find(name);
    if (pin != allowed.end()) {
      allow_used[name] = true;
      if (pin->second != tree_hash) {
        problems.push_back(name + ": allowlisted for " + pin->second + " but the definition is " +
                           tree_hash + " now" + redo);
      } else if (meta.contains("definition_hash") && recorded_hash == tree_hash &&
                 meta["definition_hash"] == tree_hash) {
        problems.push_back(name + ": regenerated, remove it from the allowlist");
      }
      continue;
    }
    if (!meta.contains("definition_hash")) {
      problems.push_back(name + ": meta.json has no definition_hash" + redo);
    } else if (meta["definition_hash"] != tree_hash) {
      problems.push_back(name + ": meta.json definition_hash " + meta["definition_hash"].dump() +
                         " but the definition is " + tree_hash + redo);
    } else if (recorded_hash != tree_hash) {
      problems.push_back(name + ": the definition recorded in meta.json hashes to " +
                         recorded_hash + ", the tree's to " + tree_hash + redo);
    }
  }
  for (const auto& [name, used] : allow_used) {
    if (!used) problems.push_back(name + ": allowlisted but not shipped");
  }
  return problems;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "\n  " + l;
  return s;
}

TEST(Provenance, ShippedOutputsComeFromTheDefinitionsInTheTree) {
  const auto problems =
      ProvenanceProblems(SourcePath("notebooks_data"), SourcePath("experiments"),
                         ReadAllowlist(SourcePath("tests/experiments/provenance_allowlist.txt")));
  EXPECT_TRUE(problems.empty()) << "shipped outputs not from the tree's definitions:"
                                << Joined(problems);
}

// A temp copy of one definition and a meta.json as the runner writes it: clean, then every
// kind of drift is caught and named.
TEST(Provenance, ChangedDefinitionMissingHashAndStaleAllowlistFail) {
  const fs::path root = TempPath("provenance");
  fs::remove_all(root);
  const fs::path exps = root / "experiments", data = root / "data";
  fs::create_directories(exps);
  fs::create_directories(data / "quick-start");
  const std::string def_path = (exps / "quick-start.json").string();
  fs::copy_file(SourcePath("experiments/quick-start.json"), def_path);
  const auto def = LoadExperimentDefinition(def_path);
  const auto write_meta = [&](const json& meta) {
    std::ofstream(data / "quick-start" / "meta.json") << meta.dump(2);
  };
  json meta = {{"experiment", "quick-start"},
               {"definition", def.raw},
               {"definition_hash", DefinitionHash(def)}};
  write_meta(meta);
  const std::string d = data.string(), e = exps.string();
  EXPECT_EQ(Joined(ProvenanceProblems(d, e, {})), "");

  // The definition changes after the run (one word of the title).
  json changed = def.raw;
  changed["title"] = changed.value("title", "") + " (changed)";
  std::ofstream(def_path) << changed.dump(2);
  const std::string new_hash = DefinitionHash(LoadExperimentDefinition(def_path));
  ASSERT_NE(new_hash, DefinitionHash(def));
  EXPECT_EQ(Joined(ProvenanceProblems(d, e, {})),
            "\n  quick-start: meta.json definition_hash \"" + DefinitionHash(def) +
                "\" but the definition is " + new_hash +
                " (regenerate: build/collsynth experiment run quick-start)");

  // An older meta.json without the field.
  meta.erase("definition_hash");
  meta["definition"] = changed;
  write_meta(meta);
  EXPECT_EQ(Joined(ProvenanceProblems(d, e, {})),
            "\n  quick-start: meta.json has no definition_hash (regenerate: build/collsynth "
            "experiment run quick-start)");
  // Allowlisted at the current hash: accepted; at another hash: fails.
  EXPECT_EQ(Joined(ProvenanceProblems(d, e, {{"quick-start", new_hash}})), "");
  EXPECT_EQ(Joined(ProvenanceProblems(d, e, {{"quick-start", DefinitionHash(def)}})),
            "\n  quick-start: allowlisted for " + DefinitionHash(def) + " but the definition is " +
                new_hash + " now (regenerate: build/collsynth experiment run quick-start)");

  // The field is there but the recorded definition differs (hand-edited meta.json).
  meta["definition_hash"] = new_hash;
  meta["definition"] = def.raw;
  write_meta(meta);
  EXPECT_EQ(Joined(ProvenanceProblems(d, e, {})),
            "\n  quick-start: the definition recorded in meta.json hashes to " +
                DefinitionHash(def) + ", the tree's to " + new_hash +
                " (regenerate: build/collsynth experiment run quick-start)");

  // A regenerated output still on the allowlist, and an allowlisted name not shipped.
  meta["definition"] = changed;
  write_meta(meta);
  EXPECT_EQ(Joined(ProvenanceProblems(d, e, {{"quick-start", new_hash}, {"gone", "x"}})),
            "\n  quick-start: regenerated, remove it from the allowlist\n  gone: allowlisted but "
            "not shipped");
  fs::remove_all(root);
}

// Runs `bash scripts/regenerate_all.sh ARGS` in `repo` (a shell: this tests a shell script);
// returns the exit code, stdout+stderr in *output.
int RunRegenerate(const fs::path& repo, const std::string& args, std::string* output) {
  const fs::path log = repo / ".." / "regenerate.log";
  const std::string cmd =
      "cd '" + repo.string() + "' && bash scripts/regenerate_all.sh --binary '" +
      std::string(COLLSYNTH_BINARY) + "' " + args + " > '" + log.string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  *output = ReadAll(log.string());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int Git(const fs::path& repo, const std::string& args) {
  const std::string cmd = "git -C '" + repo.string() +
                          "' -c user.name=t -c user.email=t@t -c commit.gpgsign=false " + args +
                          " > /dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A git repository holding the two scripts, quick-start's definition and its shipped output.
fs::path QuickStartRepo(const std::string& tag) {
  const fs::path repo = fs::path(TempPath(tag)) / "repo";
  fs::remove_all(repo.parent_path());
  fs::create_directories(repo / "scripts");
  fs::create_directories(repo / "experiments");
  fs::create_directories(repo / "notebooks_data" / "quick-start");
  for (const char* f : {"scripts/regenerate_all.sh", "scripts/compare_experiments.py",
                        "experiments/quick-start.json", "notebooks_data/quick-start/results.csv",
                        "notebooks_data/quick-start/meta.json"}) {
    fs::copy_file(SourcePath(f), repo / f);
  }
  std::ofstream(repo / ".gitignore") << "build/\n";
  EXPECT_EQ(Git(repo, "init -q"), 0);
  EXPECT_EQ(Git(repo, "add -A"), 0);
  EXPECT_EQ(Git(repo, "commit -q -m init"), 0);
  return repo;
}

TEST(Provenance, RegenerateAllRefusesADirtyTreeAndBadOptions) {
  const fs::path repo = QuickStartRepo("regen-dirty");
  std::string out;
  EXPECT_EQ(RunRegenerate(repo, "--only sometimes", &out), 2);
  EXPECT_NE(out.find("--only: 'sometimes' is not quick, long or all"), std::string::npos) << out;
  EXPECT_EQ(RunRegenerate(repo, "--slurm", &out), 2);
  EXPECT_NE(out.find("--slurm needs --shards N"), std::string::npos) << out;
  std::ofstream(repo / "experiments" / "quick-start.json", std::ios::app) << "\n";
  EXPECT_EQ(RunRegenerate(repo, "", &out), 2);
  EXPECT_NE(out.find("the tree has local changes"), std::string::npos) << out;
  EXPECT_NE(out.find("M experiments/quick-start.json"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(repo / "build" / "regenerate" / "quick-start"));
  fs::remove_all(repo.parent_path());
}

// From a clean tree: the output is rerun, compared and copied, and records the commit, a
// clean tree and the definition hash. A committed CSV that differs is reported, not replaced.
TEST(Provenance, RegenerateAllRunsFromCleanHeadAndNeverCopiesADifferentCsv) {
  const fs::path repo = QuickStartRepo("regen-clean");
  std::string out;
  ASSERT_EQ(RunRegenerate(repo, "--only quick", &out), 0) << out;
  EXPECT_NE(out.find("regenerated: quick-start"), std::string::npos) << out;
  const json meta = json::parse(ReadAll((repo / "notebooks_data/quick-start/meta.json").string()));
  EXPECT_EQ(meta["environment"]["git_dirty"], false);
  EXPECT_EQ(meta["definition_hash"],
            DefinitionHash(LoadExperimentDefinition(SourcePath("experiments/quick-start.json"))));
  ASSERT_EQ(Git(repo, "commit -q -a -m regenerated"), 0);

  // A committed cell that a run does not reproduce: exit 1, the cell named, nothing copied.
  const fs::path csv = repo / "notebooks_data/quick-start/results.csv";
  std::string text = ReadAll(csv.string());
  const size_t at = text.find(",yes,");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 5, ",no,");
  std::ofstream(csv, std::ios::trunc) << text;
  ASSERT_EQ(Git(repo, "commit -q -a -m tampered"), 0);
  EXPECT_EQ(RunRegenerate(repo, "quick-start", &out), 1);
  EXPECT_NE(out.find("column verified: 'no' -> 'yes'"), std::string::npos) << out;
  EXPECT_NE(out.find("differ from the committed CSVs (not copied): quick-start"), std::string::npos)
      << out;
  EXPECT_EQ(ReadAll(csv.string()), text);
  fs::remove_all(repo.parent_path());
}

}  // namespace
}  // namespace collsynth::experiments
