#include "cli/replay_request.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/input_error.h"
#include "core/json_io.h"
#include "proofs_check/mscclpp_replay.h"
#include "proofs_check/replay_report.h"

namespace collsynth::cli {
namespace {

constexpr std::uintmax_t kMaxXmlBytes = std::uintmax_t{256} << 20;

// The ranges the command's options check (CLI11), for callers that do not go through them.
void RequireInRange(int value, int lo, int hi, const char* option) {
  if (value < lo || value > hi) {
    throw InputError("<args>", option,
                     std::to_string(value) + " is not in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
  }
}

}  // namespace

std::string ReadReplayFile(const std::string& path) {
  if (path != "-") {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (std::filesystem::is_regular_file(st)) {
      const std::uintmax_t size = std::filesystem::file_size(path, ec);
      if (!ec && size > kMaxXmlBytes) {
        throw InputError(path, "",
                         "file is larger than 256 MiB; no MSCCL XML or MSCCL++ plan is that large");
      }
    }
  }
  return ReadTextFile(path);  // missing, directory, device: InputError
}

bool IsMscclppPlan(const std::string& name, const std::string& text) {
  if (name.size() >= 5 && name.compare(name.size() - 5, 5, ".json") == 0) return true;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{';
}

ReplayOutcome ReplayText(const std::string& text, const std::string& name, bool plan,
                         const ReplayRequest& request) {
  const ReplayOptions& given = request.options;
  RequireInRange(given.max_violations, 1, 1000000, "--max-violations");
  RequireInRange(given.fifo_depth, 0, 1024, "--fifo");
  RequireInRange(given.root, 0, 1 << 20, "--root");
  RequireInRange(given.iterations, 1, 8, "--rounds");
  ReplayOutcome o;
  o.plan = plan;
  if (plan) {
    MscclppReplayOptions po;
    po.max_violations = request.options.max_violations;
    o.result = ReplayMscclppPlan(text, name, po);
    for (const std::string& option : request.xml_only_given) {
      o.result.notes.push_back(option +
                               " applies to MSCCL XML files only; ignored for an MSCCL++ plan");
    }
    o.profile = "mscclpp";
    return o;
  }
  ReplayOptions options = request.options;
  try {
    options.profile = ParseMscclProfile(request.profile);
  } catch (const std::invalid_argument& e) {
    throw InputError("<args>", "--profile", e.what());
  }
  o.result = ReplayMscclXml(text, name, options);
  o.profile = request.profile;
  return o;
}

nlohmann::json ReplayJson(const ReplayOutcome& o) {
  const ReplayResult& r = o.result;
  const bool plan = o.plan;
  const std::string& profile = o.profile;
  nlohmann::json violations = nlohmann::json::array();
  for (const ReplayViolation& v : r.violations) {
    nlohmann::json j = {{"stage", static_cast<int>(v.stage)},
                        {"stage_name", ReplayStageName(v.stage)},
                        {"kind", ReplayViolationKindName(v.kind)},
                        {"message", v.message}};
    if (v.gpu >= 0) j["gpu"] = v.gpu;
    if (v.tb >= 0) j["tb"] = v.tb;
    if (v.step >= 0) j["step"] = v.step;
    if (!v.cycle.empty()) {
      nlohmann::json c = nlohmann::json::array();
      for (const ReplayStepRef& s : v.cycle) {
        c.push_back({{"gpu", s.gpu}, {"tb", s.tb}, {"step", s.step}, {"round", s.iteration}});
      }
      j["cycle"] = c;
    }
    violations.push_back(j);
  }
  nlohmann::json pairs = nlohmann::json::array();
  for (const ReplayPairChunks& p : r.bytes_per_pair) {
    pairs.push_back({{"src", p.src}, {"dst", p.dst}, {"chunks", p.chunks}});
  }
  return {{"ok", r.ok},
          {"format", plan ? "mscclpp-plan" : "msccl-xml"},
          {"coll", r.coll},
          {"ngpus", r.ngpus},
          {"nchunksperloop", r.nchunksperloop},
          {"proto", r.proto},
          {"profile", profile},
          {"fifo_depth", r.fifo_depth},
          {"modes", r.modes},
          {"violations", violations},
          {"violations_total", r.violations_total},
          {"notes", r.notes},
          {"bytes_per_pair", pairs}};
}

}  // namespace collsynth::cli
