// The Gantt chart of a simulation (docs/simulate.md "Timeline picture"): one row per link that
// carried bytes, one bar per (transfer, link) from when the transfer took the link to when it
// released it, coloured by what the transfer belongs to (the step of a step schedule, the tree
// of a pipeline, the sending GPU of an MSCCL XML program). The bars are the rows of the
// timeline CSV (simulation_report.h) with the same exact times; the picture's coordinates
// are decimals, each bar carries its exact start and end as "p/q" attributes.
// Builds strings; never prints. Cost O(transfers · links per transfer + |E|).
#ifndef COLLSYNTH_SIMULATE_TIMELINE_CHART_H_
#define COLLSYNTH_SIMULATE_TIMELINE_CHART_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/rational.h"
#include "simulate/flow_simulation.h"

namespace collsynth {

// Bars in one picture at most (a larger chart is not a picture a person can read; the CSV
// has every row).
inline constexpr std::int64_t kMaxTimelineBars = 200000;

// What the colours of the bars mean.
enum class TimelineColouring { kStep, kTree, kGpu };

struct TimelineBar {
  int transfer = 0;
  int link = 0;         // topology link id
  int key = 0;          // index into TimelineChart::keys (the bar's colour)
  Rational start, end;  // exact seconds: when the transfer took and released the link
};

struct TimelineChart {
  std::vector<int> rows;          // the links that carried bytes, by id
  std::vector<TimelineBar> bars;  // in transfer order, then along the transfer's links
  std::vector<std::string> keys;  // legend text per colour key ("step 3", "RS tree 0", "gpu 2")
  Rational end;                   // the latest bar end (0 without bars)
};

// The number of bars BuildTimelineChart would make (transfers × their links, barriers left out).
std::int64_t TimelineBarCount(const FlowSimulation& sim);

// The chart of a finished simulation. `key_names[phase][group]`, when given, is added to the
// legend text of that step or tree (e.g. a pipeline tree's "root c11").
TimelineChart BuildTimelineChart(const FlowSimulation& sim, const FlowSimulationResult& r,
                                 TimelineColouring colouring,
                                 const std::vector<std::vector<std::string>>& key_names = {});

// The SVG text: a title line, one labelled row per link ("from → to"), one
// <rect class="bar" data-transfer data-link data-start data-end> per bar with a <title>
// tooltip, a time axis in seconds and a legend of the colours. Rows in link id order.
std::string TimelineSvg(const Topology& g, const TimelineChart& chart, const std::string& title);

}  // namespace collsynth

#endif  // COLLSYNTH_SIMULATE_TIMELINE_CHART_H_
