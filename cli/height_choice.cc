#include "cli/height_choice.h"

#include <iostream>
#include <stdexcept>

#include "cli/command_registry.h"
#include "core/input_error.h"
#include "core/json_io.h"
#include "simulate/simulation_report.h"

namespace collsynth::cli {

using nlohmann::json;

json HeightCandidateJson(const HeightCandidates& all, const HeightCandidate& c) {
  json j;
  j["algorithm"] = c.algorithm;
  j["height_hops"] = c.height_hops;
  j["ratio"] = RationalToJson(c.ratio);
  j["ratio_decimal"] = DecimalString(c.ratio);
  j["verdict"] = c.verdict;
  // Certified: the checker's height lower bound (eccentricity) equals the height.
  j["height_minimal"] = c.height_hops == all.height_lower_bound_hops;
  // Certified: a checker-accepted cut bound equals the ratio.
  j["ratio_optimal"] = all.ratio_lower_bound && *all.ratio_lower_bound == c.ratio;
  return j;
}

json RatioBoundAtHeightJson(const HeightCandidates& all, HeightRatioBounds& bounds,
                            std::int64_t height, const Rational& ratio) {
  std::optional<Rational> bound = all.ratio_lower_bound;
  std::string by = all.ratio_lower_bound_by;
  json j;
  // A bound never exceeds the ratio of a schedule it covers: when the cut bound already meets
  // `ratio`, the relaxation cannot add anything and is not solved.
  if (!(bound && *bound == ratio)) {
    const std::optional<HeightRatioBounds::Bound> b = bounds.At(height);
    if (!b) {
      j["ratio_bound_at_height_why"] = bounds.why();
    } else if (!b->no_schedule && (!bound || b->ratio > *bound)) {
      bound = b->ratio;
      by = "hop-bounded relaxation at height " + std::to_string(height) + " (checked)";
    }
  }
  j["ratio_lower_bound_at_height"] = bound ? json(RationalToJson(*bound)) : json(nullptr);
  j["ratio_lower_bound_at_height_decimal"] = bound ? json(DecimalString(*bound)) : json(nullptr);
  j["ratio_lower_bound_at_height_by"] = by;
  j["ratio_optimal_at_height"] = bound && *bound == ratio;
  return j;
}

OutputCheck WriteHeightCandidate(const Topology& g, const HeightCandidate& c,
                                 const std::string& path) {
  ExpectedCheck expected;
  expected.ratio = c.ratio;
  expected.height_hops = c.height_hops;
  for (PipelineVerdict v :
       {PipelineVerdict::kInvalid, PipelineVerdict::kValid, PipelineVerdict::kOptimalCertified}) {
    if (c.verdict == PipelineVerdictName(v)) expected.verdict = v;
  }
  if (c.symmetric) {
    return WriteCheckedSchedule(g, SymmetricPipelineScheduleToJsonText(*c.symmetric, g) + "\n",
                                path, {}, expected);
  }
  return WriteCheckedSchedule(
      g,
      [&](std::ostream& out) {
        WritePipelineScheduleJson(*c.pipeline, g, out);
        out << '\n';
      },
      {}, path, {}, expected);
}

namespace {

// --height H as a number of links; nullopt for --min-height.
std::optional<std::int64_t> ParseHeightChoice(const HeightChoiceArgs& args) {
  const char* name = args.min_height ? "--min-height" : "--height";
  if (args.min_height && !args.height.empty())
    throw InputError("<args>", "--height", "contradicts --min-height");
  if (args.other_options || args.collective == Collective::kBroadcast) {
    throw InputError("<args>", name,
                     "takes allgather, reduce-scatter or allreduce without --fixed-k, "
                     "--symmetric or --no-symmetric");
  }
  if (args.min_height) return std::nullopt;
  Rational r = -1;
  try {
    r = ParseRational(args.height);
  } catch (const std::invalid_argument&) {
  }
  if (Denominator(r) != 1 || r < 0 || r > Rational(std::int64_t{1} << 40))
    throw InputError("<args>", "--height", "'" + args.height + "' is not a height in links");
  return Numerator(r).convert_to<std::int64_t>();
}

}  // namespace

int RunPipelineHeightChoice(const Topology& g, const HeightChoiceArgs& choice) {
  struct {
    std::string file, output;
    Collective collective;
    bool json;
    std::optional<std::int64_t> height;
  } args{choice.file, choice.output, choice.collective, choice.json, ParseHeightChoice(choice)};
  HeightCandidateOptions options;
  options.max_height = args.height;
  HeightCandidates all = BuildHeightCandidates(g, args.collective, args.file, options);
  const std::optional<std::size_t> pick =
      args.height ? BestRatioAtHeight(all, *args.height) : MinHeightChoice(all);
  if (!pick) {
    PrintFailure(
        "pipeline: no checked schedule of height <= " + std::to_string(args.height.value_or(0)) +
        " links (the height lower bound is " + std::to_string(all.height_lower_bound_hops) + ")");
    return kExitCheckFailed;
  }
  const HeightCandidate& c = all.list[*pick];
  OutputCheck written = WriteHeightCandidate(g, c, args.output);
  if (!written.ok) {
    PrintFailure("pipeline: " + args.output + ": " + written.error + " (nothing written)");
    return kExitCheckFailed;
  }
  json sum = HeightCandidateJson(all, c);
  HeightRatioBounds bounds(g, args.collective);
  if (args.height) {
    sum.update(RatioBoundAtHeightJson(all, bounds, *args.height, c.ratio));
  } else {
    // Every schedule of ratio <= c.ratio is at least this tall: the bounds below it exceed
    // c.ratio (docs/min_height.md "A ratio bound at each height").
    const std::int64_t least =
        bounds.LeastHeightAtRatio(c.ratio, all.height_lower_bound_hops, c.height_hops);
    sum["height_lower_bound_at_ratio_hops"] = least;
    sum["height_gap_at_ratio_hops"] = c.height_hops - least;
    sum["height_minimal"] = c.height_hops == least;
    if (!bounds.why().empty()) sum["height_bound_why"] = bounds.why();
  }
  sum["format"] = c.symmetric ? "pipeline-symmetric" : "pipeline";
  sum["collective"] = CollectiveName(args.collective);
  sum["objective"] = args.height ? "best ratio at height <= " + std::to_string(*args.height)
                                 : std::string("least height at the least ratio");
  if (args.height) sum["max_height_hops"] = *args.height;
  sum["height_lower_bound_hops"] = all.height_lower_bound_hops;
  sum["height_gap_hops"] = c.height_hops - all.height_lower_bound_hops;
  sum["ratio_lower_bound"] =
      all.ratio_lower_bound ? json(RationalToJson(*all.ratio_lower_bound)) : json(nullptr);
  sum["ratio_lower_bound_by"] = all.ratio_lower_bound_by;
  json cands = json::array();
  for (const HeightCandidate& o : all.list) cands.push_back(HeightCandidateJson(all, o));
  sum["candidates"] = cands;
  json skipped = json::array();
  for (const auto& [name, why] : all.skipped)
    skipped.push_back({{"algorithm", name}, {"why", why}});
  sum["skipped"] = skipped;
  AddOutputCheck(sum, written);
  if (args.output == "-") {
    std::cerr << sum.dump() << "\n";
  } else if (args.json) {
    std::cout << sum.dump() << "\n";
  } else {
    std::cout << CollectiveName(args.collective) << ": " << c.algorithm << ", ratio "
              << ToString(c.ratio) << " ("
              << (sum["ratio_optimal"].get<bool>() ? "optimal, certified"
                  : all.ratio_lower_bound ? "lower bound " + ToString(*all.ratio_lower_bound)
                                          : std::string("no certified bound"))
              << "), height " << c.height_hops << " links ("
              << (sum["height_minimal"].get<bool>()
                      ? std::string("minimal: equals the lower bound")
                      : "lower bound " +
                            std::to_string(sum.value("height_lower_bound_at_ratio_hops",
                                                     all.height_lower_bound_hops)) +
                            ", not certified minimal")
              << "); " << c.verdict << "; written to " << args.output << "\n";
  }
  return kExitOk;
}

}  // namespace collsynth::cli
