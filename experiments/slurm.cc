#include "experiments/slurm.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/input_error.h"
#include "experiments/program_run.h"

namespace collsynth::experiments {
namespace {

namespace fs = std::filesystem;

// Characters allowed in values written to #SBATCH lines.
bool SbatchSafe(const std::string& s) {
  return !s.empty() && s.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                           "._/+,=:@-") == std::string::npos;
}

void RequireSafe(const std::string& value, const std::string& option) {
  if (!SbatchSafe(value)) {
    throw InputError(option, "",
                     "'" + value +
                         "' cannot go into a Slurm batch script: use only letters, digits and "
                         "._/+,=:@- (no spaces, '%' or quotes)");
  }
}

std::string Header(const SlurmSubmitSpec& spec, const std::string& job_name,
                   const std::string& log) {
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "#SBATCH --job-name=" << job_name << "\n"
    << "#SBATCH --output=" << log << "\n"
    << "#SBATCH --chdir=" << spec.workdir << "\n";
  if (!spec.partition.empty()) s << "#SBATCH --partition=" << spec.partition << "\n";
  if (!spec.time.empty()) s << "#SBATCH --time=" << spec.time << "\n";
  return s.str();
}

void WriteScript(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw InputError(path, "", "cannot write the batch script");
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
}

// sbatch --parsable prints "JOBID" or "JOBID;CLUSTER".
std::string Sbatch(const std::vector<std::string>& args, const std::string& script) {
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(script);
  const ProgramRun run = RunProgram(argv, "", StderrMode::kCapture);
  if (run.spawn_error == ENOENT) {
    throw InputError("sbatch", "",
                     "not found on PATH: submit from a host with Slurm's client tools "
                     "(Debian: slurm-client), or run the shards yourself with experiment run "
                     "--shard I/N");
  }
  std::string err = run.errors;
  for (char& c : err) {
    if (c == '\n') c = ' ';
  }
  while (!err.empty() && err.back() == ' ') err.pop_back();
  if (run.spawn_error != 0 || run.exit_status != 0) {
    throw InputError("sbatch", script,
                     "submission refused (exit " + std::to_string(run.exit_status) +
                         "): " + (err.empty() ? std::string("no message") : err));
  }
  std::string id = run.output.substr(0, run.output.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    throw InputError("sbatch", script, "did not print a job id (printed '" + run.output + "')");
  }
  return id;
}

// Key=Value fields of one whitespace-separated record; the first occurrence of a key wins.
std::string Field(const std::string& line, const std::string& key) {
  std::istringstream in(line);
  std::string token;
  while (in >> token) {
    if (token.size() > key.size() && token.compare(0, key.size(), key) == 0 &&
        token[key.size()] == '=') {
      return token.substr(key.size() + 1);
    }
  }
  return "";
}

std::optional<size_t> TaskNumber(const std::string& s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoul(s);
}

}  // namespace

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

SlurmScripts MakeSlurmScripts(const SlurmSubmitSpec& spec) {
  if (spec.shards == 0) throw InputError("--shards", "", "must be at least 1");
  RequireSafe(spec.out, "--out");
  RequireSafe(spec.workdir, "the current directory");
  RequireSafe(spec.name, "the experiment name");
  if (!spec.partition.empty()) RequireSafe(spec.partition, "--partition");
  if (!spec.time.empty()) RequireSafe(spec.time, "--time");
  SlurmScripts s;
  s.log_dir = spec.out + "/slurm";
  s.array_path = s.log_dir + "/array.sbatch";
  s.merge_path = s.log_dir + "/merge.sbatch";
  const std::string n = std::to_string(spec.shards);
  const std::string c = std::to_string(spec.cpus_per_task);
  std::ostringstream a;
  a << Header(spec, "collsynth-" + spec.name, s.log_dir + "/shard-%a.log") << "#SBATCH --array=0-"
    << spec.shards - 1 << "\n"
    << "#SBATCH --cpus-per-task=" << c << "\n"
    << "# Written by `collsynth experiment submit " << spec.name << " --slurm --shards " << n
    << "`: array task I runs shard I of " << n << ".\n"
    << "# Rerun one failed shard: sbatch --array=I " << s.array_path << "\n"
    << "exec " << ShellQuote(spec.binary) << " experiment run " << ShellQuote(spec.definition)
    << " --shard \"${SLURM_ARRAY_TASK_ID}/" << n << "\" --out " << ShellQuote(spec.out)
    << " --jobs " << c << "\n";
  s.array_script = a.str();
  std::ostringstream m;
  m << Header(spec, "collsynth-" + spec.name + "-merge", s.log_dir + "/merge.log")
    << "#SBATCH --cpus-per-task=1\n"
    << "# Written by `collsynth experiment submit " << spec.name << " --slurm --shards " << n
    << "`: submitted with --dependency=afterok:<array job>.\n"
    << "# After rerunning a shard, merge again: sbatch " << s.merge_path << "\n"
    << "exec " << ShellQuote(spec.binary) << " experiment merge " << ShellQuote(spec.definition)
    << " --out " << ShellQuote(spec.out) << " --shards " << n
    << (spec.no_plots ? " --no-plots" : "") << "\n";
  s.merge_script = m.str();
  return s;
}

std::string SlurmTaskLog(const SlurmScripts& scripts, size_t task) {
  return scripts.log_dir + "/shard-" + std::to_string(task) + ".log";
}

std::string SlurmMergeLog(const SlurmScripts& scripts) { return scripts.log_dir + "/merge.log"; }

SlurmJobIds SubmitSlurmJobs(const SlurmScripts& scripts) {
  std::error_code ec;
  fs::create_directories(scripts.log_dir, ec);
  if (ec) throw InputError(scripts.log_dir, "", "cannot create folder: " + ec.message());
  WriteScript(scripts.array_path, scripts.array_script);
  WriteScript(scripts.merge_path, scripts.merge_script);
  SlurmJobIds ids;
  ids.array = Sbatch({}, scripts.array_path);
  try {
    ids.merge = Sbatch({"--dependency=afterok:" + ids.array, "--kill-on-invalid-dep=yes"},
                       scripts.merge_path);
  } catch (const InputError& e) {
    // No array without its merge: cancel it (best effort) and say so.
    const ProgramRun cancel = RunProgram({"scancel", ids.array}, "", StderrMode::kDiscard);
    throw InputError(e.file(), e.item(),
                     e.problem() + (cancel.spawn_error == 0 && cancel.exit_status == 0
                                        ? "; array job " + ids.array + " cancelled"
                                        : "; could not cancel array job " + ids.array));
  }
  return ids;
}

std::vector<SlurmJobRecord> ParseScontrolJobs(const std::string& text) {
  std::vector<SlurmJobRecord> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    SlurmJobRecord r;
    r.job_id = Field(line, "JobId");
    if (r.job_id.empty()) continue;
    r.array_task = TaskNumber(Field(line, "ArrayTaskId"));
    r.state = Field(line, "JobState");
    r.exit_code = Field(line, "ExitCode");
    r.reason = Field(line, "Reason");
    out.push_back(r);
  }
  return out;
}

std::vector<SlurmJobRecord> ParseSacctJobs(const std::string& text) {
  std::vector<SlurmJobRecord> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    std::string cell;
    while (std::getline(fields, cell, '|')) f.push_back(cell);
    if (f.size() < 3 || f[0].empty()) continue;
    SlurmJobRecord r;
    const auto underscore = f[0].find('_');
    r.job_id = f[0].substr(0, underscore);
    if (underscore != std::string::npos) r.array_task = TaskNumber(f[0].substr(underscore + 1));
    r.state = f[1].substr(0, f[1].find(' '));  // "CANCELLED by 0"
    r.exit_code = f[2];
    out.push_back(r);
  }
  return out;
}

bool IsFinalSlurmState(const std::string& s) {
  for (const char* f : {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
                        "PREEMPTED", "BOOT_FAIL", "DEADLINE"}) {
    if (s == f) return true;
  }
  return false;
}

QueueStatus SlurmQueueStatus(const std::vector<std::string>& job_ids, std::string* error) {
  std::string list;
  for (const auto& id : job_ids) list += (list.empty() ? "" : ",") + id;
  const ProgramRun run =
      RunProgram({"squeue", "-h", "-j", list, "-o", "%i"}, "", StderrMode::kCapture);
  if (run.spawn_error != 0) {
    *error = "squeue: cannot be started (not on PATH?)";
    return QueueStatus::kError;
  }
  if (run.exit_status != 0) {
    if (run.errors.find("Invalid job id") != std::string::npos) return QueueStatus::kGone;
    *error = "squeue: " + run.errors;
    while (!error->empty() && error->back() == '\n') error->pop_back();
    return QueueStatus::kError;
  }
  return run.output.find_first_not_of(" \n") == std::string::npos ? QueueStatus::kGone
                                                                  : QueueStatus::kQueued;
}

std::vector<SlurmJobRecord> SlurmJobRecords(const std::string& job_id) {
  const ProgramRun run =
      RunProgram({"scontrol", "show", "job", "-o", job_id}, "", StderrMode::kDiscard);
  if (run.spawn_error == 0 && run.exit_status == 0) {
    auto records = ParseScontrolJobs(run.output);
    if (!records.empty()) return records;
  }
  const ProgramRun acct =
      RunProgram({"sacct", "-n", "-P", "-X", "-j", job_id, "-o", "JobID,State,ExitCode"}, "",
                 StderrMode::kDiscard);
  if (acct.spawn_error == 0 && acct.exit_status == 0) return ParseSacctJobs(acct.output);
  return {};
}

}  // namespace collsynth::experiments
