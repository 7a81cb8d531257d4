#include "experiments/shards.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "core/checked_output.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "core/rational.h"
#include "experiments/outputs.h"
#include "experiments/params.h"

namespace collsynth::experiments {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr size_t kMaxShards = 100000;

std::string VerifiedName(Verified v) {
  switch (v) {
    case Verified::kYes:
      return "yes";
    case Verified::kNo:
      return "no";
    case Verified::kNotApplicable:
      break;
  }
  return "n/a";
}

json OptionalRational(const std::optional<Rational>& x) {
  return x ? json(ToString(*x)) : json(nullptr);
}

// The commit identity of a shard: git commit (null outside a git tree) and dirty flag.
std::string CommitOf(const json& meta) {
  if (!meta.contains("environment") || !meta["environment"].is_object()) return "(unknown)";
  const json& env = meta["environment"];
  std::string c = env.contains("git_commit") && env["git_commit"].is_string()
                      ? env["git_commit"].get<std::string>()
                      : "(no git commit)";
  if (env.contains("git_dirty") && env["git_dirty"].is_boolean() && env["git_dirty"].get<bool>()) {
    c += " with local changes";
  }
  return c;
}

// The fields of meta.json that the merge reads beyond the shard's identity, type-checked.
void ReadShardRunFields(const std::string& meta_path, ShardInfo& info) {
  const Params meta(info.meta, meta_path, "");
  info.rows = meta.Unsigned("rows", 0);
  info.jobs = static_cast<unsigned>(meta.Int("jobs", 1, 1, UINT32_MAX));
  info.run_seconds = meta.Number("run_seconds", 0);
  if (info.run_seconds < 0) throw meta.Error("run_seconds", "must be >= 0");
  CheckReadmeMeta(info.meta, meta_path);  // environment, git_commit, git_dirty
  if (!meta.Has("environment")) return;
  const Params env = meta.Object("environment");
  if (env.Has("machine")) info.hostname = env.Object("machine").String("hostname", "");
  info.environment = env.Raw();
}

}  // namespace

ShardSpec ParseShardSpec(const std::string& text, const std::string& option) {
  static const std::regex kForm("([0-9]{1,6})/([0-9]{1,6})");
  std::smatch m;
  if (!std::regex_match(text, m, kForm)) {
    throw InputError(option, "", "'" + text + "' is not I/N (shard I of N, 0 <= I < N)");
  }
  ShardSpec s;
  s.index = std::stoul(m[1].str());
  s.count = std::stoul(m[2].str());
  if (s.count == 0 || s.count > kMaxShards || s.index >= s.count) {
    throw InputError(option, "",
                     "'" + text + "': need 0 <= I < N <= " + std::to_string(kMaxShards));
  }
  return s;
}

std::string ShardDirName(const ShardSpec& shard) {
  return "shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count);
}

std::string DefinitionHash(const ExperimentDefinition& def) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
  for (unsigned char c : def.raw.dump()) {
    h ^= c;
    h *= 1099511628211ull;  // FNV 64 prime
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return std::string("fnv1a64:") + buf;
}

std::string PrepareShardDir(const std::string& out, const ShardSpec& shard) {
  const std::string dir = (fs::path(out) / ShardDirName(shard)).string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(dir, "", "cannot create shard folder: " + ec.message());
  for (const char* f : {"meta.json", "rows.json"}) {
    fs::remove(fs::path(dir) / f, ec);
    if (ec) throw InputError(dir + "/" + f, "", "cannot remove the earlier shard file");
  }
  return dir;
}

json RowToJson(const ExperimentRow& r) {
  json extra = json::array();
  for (const auto& [k, v] : r.extra) extra.push_back(json::array({k, v}));
  return {{"instance", r.instance},
          {"algorithm", r.algorithm},
          {"collective", r.collective ? json(CollectiveName(*r.collective)) : json(nullptr)},
          {"nodes", r.nodes},
          {"tl", OptionalRational(r.tl)},
          {"tb", OptionalRational(r.tb)},
          {"lower_bound", OptionalRational(r.lower_bound)},
          {"tb_unit", r.tb_unit},
          {"verified", VerifiedName(r.verified)},
          {"wall_seconds", r.wall_seconds},
          {"extra", extra}};
}

ExperimentRow RowFromJson(const json& j, const std::string& file, const std::string& item) {
  if (!j.is_object()) throw InputError(file, item, "a row must be an object");
  const std::string p = item + ".";
  const Params row(j, file, item);
  ExperimentRow r;
  r.instance = row.String("instance");
  r.algorithm = row.String("algorithm");
  if (!j.contains("collective")) throw InputError(file, p + "collective", "missing");
  if (!j["collective"].is_null()) {
    const auto c = j["collective"].is_string() ? ParseCollective(j["collective"].get<std::string>())
                                               : std::nullopt;
    if (!c) throw InputError(file, p + "collective", "not a collective name");
    r.collective = c;
  }
  if (!j.contains("nodes") || !j["nodes"].is_number_integer()) {
    throw InputError(file, p + "nodes", "missing or not an integer");
  }
  r.nodes = j["nodes"].get<int64_t>();
  for (auto [key, field] :
       {std::pair{"tl", &r.tl}, std::pair{"tb", &r.tb}, std::pair{"lower_bound", &r.lower_bound}}) {
    if (!j.contains(key)) throw InputError(file, p + key, "missing");
    if (j[key].is_null()) continue;
    if (!j[key].is_string()) throw InputError(file, p + key, "must be \"p/q\" or null");
    try {
      *field = ParseRational(j[key].get<std::string>());
    } catch (const std::exception&) {
      throw InputError(file, p + key, "not an exact rational \"p/q\"");
    }
  }
  r.tb_unit = row.String("tb_unit");
  const std::string v = row.String("verified");
  if (v == "yes") {
    r.verified = Verified::kYes;
  } else if (v == "no") {
    r.verified = Verified::kNo;
  } else if (v == "n/a") {
    r.verified = Verified::kNotApplicable;
  } else {
    throw InputError(file, p + "verified", "must be yes, no or n/a");
  }
  if (!j.contains("wall_seconds") || !j["wall_seconds"].is_number()) {
    throw InputError(file, p + "wall_seconds", "missing or not a number");
  }
  r.wall_seconds = j["wall_seconds"].get<double>();
  if (!j.contains("extra") || !j["extra"].is_array()) {
    throw InputError(file, p + "extra", "missing or not an array");
  }
  for (size_t i = 0; i < j["extra"].size(); ++i) {
    const json& e = j["extra"][i];
    if (!e.is_array() || e.size() != 2 || !e[0].is_string() || !e[1].is_string()) {
      throw InputError(file, p + "extra[" + std::to_string(i) + "]",
                       "must be [name, value] (two strings)");
    }
    r.extra.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
  }
  return r;
}

CheckedOutput WriteShard(const std::string& shard_dir, const ExperimentDefinition& def,
                         const ShardSpec& shard, const RunResult& result, const json& environment,
                         unsigned jobs) {
  json tasks = json::array();
  std::map<size_t, size_t> slot;  // task index -> position in `tasks`
  for (size_t t : result.ran_tasks) {
    slot[t] = tasks.size();
    tasks.push_back({{"task", t}, {"rows", json::array()}});
  }
  for (size_t k = 0; k < result.rows.size(); ++k) {
    tasks[slot.at(result.row_task.at(k))]["rows"].push_back(RowToJson(result.rows[k]));
  }
  const std::string rows_text = json{{"tasks", tasks}}.dump(1) + "\n";
  json meta;
  meta["experiment"] = def.name;
  meta["definition_hash"] = DefinitionHash(def);
  meta["shard"] = {{"index", shard.index}, {"count", shard.count}};
  meta["tasks_total"] = result.tasks;
  meta["tasks"] = result.ran_tasks;
  meta["rows"] = result.rows.size();
  meta["jobs"] = jobs;
  meta["run_seconds"] = result.seconds;
  meta["environment"] = environment;
  const std::string meta_text = meta.dump(2) + "\n";
  // rows.json, then meta.json: renamed in this order, so a shard with meta.json is complete.
  const std::vector<const std::string*> texts = {&rows_text, &meta_text};
  std::vector<OutputFile> files;
  for (const char* name : {"/rows.json", "/meta.json"}) {
    const std::string* text = texts[files.size()];
    files.push_back({shard_dir + name, [text](std::ostream& out) { out << *text; }});
  }
  // The bytes on disk are the bytes meant: each file read back whole.
  return WriteChecked(files, [&texts](const std::vector<std::string>& partials) {
    for (std::size_t i = 0; i < partials.size(); ++i) {
      if (ReadTextFile(partials[i]) != *texts[i]) {
        return partials[i] + ": the bytes read back differ from the bytes written";
      }
    }
    return std::string();
  });
}

std::vector<std::string> FindShardDirs(const std::string& out, size_t count) {
  std::vector<std::string> dirs;
  if (count > 0) {
    for (size_t i = 0; i < count; ++i) {
      dirs.push_back((fs::path(out) / ShardDirName({i, count})).string());
    }
    return dirs;
  }
  static const std::regex kName("shard-([0-9]{1,6})-of-([0-9]{1,6})");
  std::vector<std::pair<std::pair<size_t, size_t>, std::string>> found;
  std::error_code ec;
  if (fs::is_directory(out, ec)) {
    for (const auto& e : fs::directory_iterator(out, ec)) {
      const std::string name = e.path().filename().string();
      std::smatch m;
      if (!e.is_directory() || !std::regex_match(name, m, kName)) continue;
      found.push_back({{std::stoul(m[2].str()), std::stoul(m[1].str())}, e.path().string()});
    }
  }
  if (found.empty()) {
    throw InputError(out, "", "no shard folders shard-I-of-N/ here (run the shards first)");
  }
  std::sort(found.begin(), found.end());
  for (auto& f : found) dirs.push_back(f.second);
  return dirs;
}

MergedShards MergeShards(const ExperimentDefinition& def, const std::vector<std::string>& dirs) {
  if (dirs.empty()) throw InputError(def.path, "", "no shards to merge");
  const std::string want_hash = DefinitionHash(def);
  MergedShards merged;
  std::map<size_t, size_t> by_index;  // shard index -> position in merged.shards
  std::string commit;
  size_t tasks_total = 0;
  for (const auto& dir : dirs) {
    const std::string meta_path = (fs::path(dir) / "meta.json").string();
    if (!fs::exists(meta_path)) {
      throw InputError(dir, "",
                       "missing shard: no meta.json (the shard did not run or did not finish; "
                       "rerun it with experiment run " +
                           def.name + " --shard I/N)");
    }
    ShardInfo info;
    info.dir = dir;
    info.meta = ParseJsonText(ReadTextFile(meta_path), meta_path);
    const json& m = info.meta;
    const Params meta(m, meta_path, "");
    const std::string name = meta.String("experiment");
    if (name != def.name) {
      throw InputError(meta_path, "experiment",
                       "foreign shard: of experiment '" + name + "', merging '" + def.name + "'");
    }
    const std::string hash = meta.String("definition_hash");
    if (hash != want_hash) {
      throw InputError(meta_path, "definition_hash",
                       "foreign shard: made from another version of " + def.path + " (" + hash +
                           ", the definition now is " + want_hash + "); rerun it");
    }
    if (!m.contains("shard")) throw InputError(meta_path, "shard", "missing");
    const Params shard = meta.Object("shard");
    info.spec.index = shard.Unsigned("index");
    info.spec.count = shard.Unsigned("count");
    if (info.spec.count == 0 || info.spec.index >= info.spec.count) {
      throw InputError(meta_path, "shard", "index not below count");
    }
    const size_t total = meta.Unsigned("tasks_total");
    ReadShardRunFields(meta_path, info);
    if (merged.shards.empty()) {
      commit = CommitOf(m);
      tasks_total = total;
    } else {
      const ShardInfo& first = merged.shards.front();
      if (info.spec.count != first.spec.count) {
        throw InputError(dir, "shard",
                         "foreign shard: one of " + std::to_string(info.spec.count) +
                             " shards, but " + first.dir + " is one of " +
                             std::to_string(first.spec.count));
      }
      if (CommitOf(m) != commit) {
        throw InputError(dir, "environment.git_commit",
                         "foreign shard: made at commit " + CommitOf(m) + ", but " + first.dir +
                             " at " + commit + "; rerun it");
      }
      if (total != tasks_total) {
        throw InputError(dir, "tasks_total",
                         "foreign shard: " + std::to_string(total) + " tasks in all, but " +
                             first.dir + " has " + std::to_string(tasks_total));
      }
    }
    if (by_index.count(info.spec.index)) {
      throw InputError(dir, "shard",
                       "duplicated shard: shard " + std::to_string(info.spec.index) + " of " +
                           std::to_string(info.spec.count) + " is also in " +
                           merged.shards[by_index[info.spec.index]].dir);
    }
    by_index[info.spec.index] = merged.shards.size();
    merged.shards.push_back(std::move(info));
  }
  const size_t count = merged.shards.front().spec.count;
  // The definition decides how many tasks there are; a shard cannot shrink the run.
  const size_t defined = MakeExperimentTasks(def).size();
  if (tasks_total != defined) {
    throw InputError((fs::path(merged.shards.front().dir) / "meta.json").string(), "tasks_total",
                     std::to_string(tasks_total) + " tasks, but " + def.path + " makes " +
                         std::to_string(defined));
  }
  const fs::path base = fs::path(merged.shards.front().dir).parent_path();
  for (size_t i = 0; i < count; ++i) {
    if (!by_index.count(i)) {
      throw InputError((base / ShardDirName({i, count})).string(), "",
                       "missing shard " + std::to_string(i) + " of " + std::to_string(count));
    }
  }
  std::sort(merged.shards.begin(), merged.shards.end(),
            [](const ShardInfo& a, const ShardInfo& b) { return a.spec.index < b.spec.index; });
  // Rows: every task exactly once, in the shard it belongs to.
  std::vector<std::vector<ExperimentRow>> by_task(tasks_total);
  std::vector<bool> seen(tasks_total, false);
  for (const auto& s : merged.shards) {
    const std::string rows_path = (fs::path(s.dir) / "rows.json").string();
    if (!fs::exists(rows_path)) throw InputError(rows_path, "", "missing (a shard file)");
    const json doc = ParseJsonText(ReadTextFile(rows_path), rows_path);
    if (!doc.is_object() || !doc.contains("tasks") || !doc["tasks"].is_array()) {
      throw InputError(rows_path, "tasks", "missing or not an array");
    }
    size_t expected = 0;  // tasks of this shard: s.index, s.index + N, ...
    for (size_t i = s.spec.index; i < tasks_total; i += count) ++expected;
    if (doc["tasks"].size() != expected) {
      throw InputError(rows_path, "tasks",
                       std::to_string(doc["tasks"].size()) + " tasks, shard " +
                           std::to_string(s.spec.index) + " of " + std::to_string(count) + " of " +
                           std::to_string(tasks_total) + " tasks has " + std::to_string(expected));
    }
    for (size_t k = 0; k < doc["tasks"].size(); ++k) {
      const std::string item = "tasks[" + std::to_string(k) + "]";
      const json& t = doc["tasks"][k];
      const size_t task = Params(t, rows_path, item).Unsigned("task");
      if (task >= tasks_total || task % count != s.spec.index) {
        throw InputError(rows_path, item + ".task",
                         "task " + std::to_string(task) + " does not belong to shard " +
                             std::to_string(s.spec.index) + " of " + std::to_string(count));
      }
      if (seen[task]) {
        throw InputError(rows_path, item + ".task",
                         "task " + std::to_string(task) + " appears twice");
      }
      seen[task] = true;
      if (!t.contains("rows") || !t["rows"].is_array()) {
        throw InputError(rows_path, item + ".rows", "missing or not an array");
      }
      for (size_t j = 0; j < t["rows"].size(); ++j) {
        by_task[task].push_back(
            RowFromJson(t["rows"][j], rows_path, item + ".rows[" + std::to_string(j) + "]"));
      }
    }
  }
  merged.tasks = tasks_total;
  for (auto& rows : by_task) {
    for (auto& r : rows) merged.rows.push_back(std::move(r));
  }
  return merged;
}

}  // namespace collsynth::experiments
