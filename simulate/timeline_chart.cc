#include "simulate/timeline_chart.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

namespace collsynth {
namespace {

// Tableau 10: distinguishable colours; key i takes colour i mod 10.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
constexpr int kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);
constexpr int kLegendKeys = 20;  // keys listed in the legend at most

constexpr double kPlotWidth = 900, kRowHeight = 18, kBarHeight = 14, kTop = 40, kCharWidth = 7;

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A coordinate or a time for people: a decimal, never the value that is reported.
std::string Num(double v, const char* format = "%.2f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string KeyText(TimelineColouring c, bool two_phases, int phase, int group) {
  const std::string prefix = two_phases ? (phase == 0 ? "RS " : "AG ") : "";
  switch (c) {
    case TimelineColouring::kStep:
      return prefix + "step " + std::to_string(group);
    case TimelineColouring::kTree:
      return prefix + "tree " + std::to_string(group);
    case TimelineColouring::kGpu:
      return "gpu " + std::to_string(group);
  }
  return "";
}

}  // namespace

std::int64_t TimelineBarCount(const FlowSimulation& sim) {
  std::int64_t n = 0;
  for (int t = 0; t < sim.num_transfers(); ++t) {
    if (!sim.IsBarrier(t)) n += static_cast<std::int64_t>(sim.Links(t).size());
  }
  return n;
}

TimelineChart BuildTimelineChart(const FlowSimulation& sim, const FlowSimulationResult& r,
                                 TimelineColouring colouring,
                                 const std::vector<std::vector<std::string>>& key_names) {
  TimelineChart chart;
  const Topology& g = sim.topology();
  bool two_phases = false;
  for (int t = 0; t < sim.num_transfers(); ++t) {
    two_phases = two_phases || (!sim.IsBarrier(t) && sim.Label(t).phase == 1);
  }
  // MSCCL labels keep the sending GPU in `group`, step and pipeline labels the step or tree.
  std::map<std::pair<int, int>, int> key_of;  // (phase, group) -> key, in sorted order
  for (int t = 0; t < sim.num_transfers(); ++t) {
    if (sim.IsBarrier(t)) continue;
    const TransferLabel& l = sim.Label(t);
    key_of.emplace(colouring == TimelineColouring::kGpu ? std::make_pair(0, l.group)
                                                        : std::make_pair(l.phase, l.group),
                   0);
  }
  for (auto& [pg, key] : key_of) {
    key = static_cast<int>(chart.keys.size());
    std::string text = KeyText(colouring, two_phases, pg.first, pg.second);
    const auto [phase, group] = pg;
    if (phase >= 0 && group >= 0 && static_cast<std::size_t>(phase) < key_names.size() &&
        static_cast<std::size_t>(group) < key_names[phase].size()) {
      text += " (" + key_names[phase][group] + ")";
    }
    chart.keys.push_back(text);
  }
  std::vector<bool> used(g.num_links(), false);
  for (int t = 0; t < sim.num_transfers(); ++t) {
    if (sim.IsBarrier(t)) continue;
    const TransferLabel& l = sim.Label(t);
    const int key =
        key_of.at(colouring == TimelineColouring::kGpu ? std::make_pair(0, l.group)
                                                       : std::make_pair(l.phase, l.group));
    std::int64_t slot = sim.FirstSlot(t);
    for (int e : sim.Links(t)) {
      TimelineBar b;
      b.transfer = t;
      b.link = e;
      b.key = key;
      b.start = r.SlotStart(slot);
      b.end = r.SlotEnd(slot);
      ++slot;
      if (b.end > chart.end) chart.end = b.end;
      used[e] = true;
      chart.bars.push_back(std::move(b));
    }
  }
  for (int e = 0; e < g.num_links(); ++e) {
    if (used[e]) chart.rows.push_back(e);
  }
  return chart;
}

std::string TimelineSvg(const Topology& g, const TimelineChart& chart, const std::string& title) {
  auto row_name = [&](int e) {
    return g.node(g.link(e).from).name + " \u2192 " + g.node(g.link(e).to).name;
  };
  std::size_t label_chars = 8;
  for (int e : chart.rows) label_chars = std::max(label_chars, row_name(e).size());
  const double left = 20 + kCharWidth * static_cast<double>(label_chars);
  const double rows_bottom = kTop + kRowHeight * static_cast<double>(chart.rows.size());
  const int legend_lines = std::min<int>(static_cast<int>(chart.keys.size()), kLegendKeys) +
                           (static_cast<int>(chart.keys.size()) > kLegendKeys ? 1 : 0);
  const double width = left + kPlotWidth + 60;  // room for the last tick label
  const double height = rows_bottom + 50 + kRowHeight * legend_lines + 10;
  const double end = chart.end > 0 ? chart.end.convert_to<double>() : 1.0;
  auto x_of = [&](const Rational& t) { return left + kPlotWidth * t.convert_to<double>() / end; };

  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Num(width) << "\" height=\""
    << Num(height) << "\" viewBox=\"0 0 " << Num(width) << ' ' << Num(height)
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect x=\"0\" y=\"0\" width=\"" << Num(width) << "\" height=\"" << Num(height)
    << "\" fill=\"white\"/>\n"
    << "<text class=\"title\" x=\"10\" y=\"20\" font-size=\"14\">" << Escape(title) << "</text>\n";
  // Bars grouped by row (link id order); within a row in transfer order.
  std::vector<int> row_of(g.num_links(), -1);
  for (std::size_t i = 0; i < chart.rows.size(); ++i) row_of[chart.rows[i]] = static_cast<int>(i);
  std::vector<std::vector<const TimelineBar*>> by_row(chart.rows.size());
  for (const TimelineBar& b : chart.bars) by_row[row_of[b.link]].push_back(&b);
  for (std::size_t i = 0; i < chart.rows.size(); ++i) {
    const int e = chart.rows[i];
    const double y = kTop + kRowHeight * static_cast<double>(i);
    s << "<g class=\"row\" data-from=\"" << Escape(g.node(g.link(e).from).name) << "\" data-to=\""
      << Escape(g.node(g.link(e).to).name) << "\">\n"
      << "<rect x=\"" << Num(left) << "\" y=\"" << Num(y) << "\" width=\"" << Num(kPlotWidth)
      << "\" height=\"" << Num(kRowHeight) << "\" fill=\"" << (i % 2 ? "#ffffff" : "#f4f4f4")
      << "\"/>\n"
      << "<text x=\"" << Num(left - 6) << "\" y=\"" << Num(y + kRowHeight - 5)
      << "\" text-anchor=\"end\">" << Escape(row_name(e)) << "</text>\n";
    for (const TimelineBar* b : by_row[i]) {
      const double x0 = x_of(b->start), x1 = x_of(b->end);
      s << "<rect class=\"bar\" data-transfer=\"" << b->transfer << "\" data-start=\""
        << ToString(b->start) << "\" data-end=\"" << ToString(b->end) << "\" x=\""
        << Num(x0, "%.4f") << "\" y=\"" << Num(y + (kRowHeight - kBarHeight) / 2) << "\" width=\""
        << Num(x1 - x0, "%.4f") << "\" height=\"" << Num(kBarHeight) << "\" fill=\""
        << kPalette[b->key % kPaletteSize] << "\" stroke=\"#333333\" stroke-width=\"0.3\"><title>"
        << "transfer " << b->transfer << ", " << Escape(chart.keys[b->key]) << ": "
        << Num(b->start.convert_to<double>(), "%.6g") << " s to "
        << Num(b->end.convert_to<double>(), "%.6g") << " s</title></rect>\n";
    }
    s << "</g>\n";
  }
  // Time axis: five intervals of the chart's span, labelled in seconds (decimals).
  s << "<g class=\"axis\">\n<line x1=\"" << Num(left) << "\" y1=\"" << Num(rows_bottom)
    << "\" x2=\"" << Num(left + kPlotWidth) << "\" y2=\"" << Num(rows_bottom)
    << "\" stroke=\"black\"/>\n";
  for (int k = 0; k <= 5; ++k) {
    const double x = left + kPlotWidth * k / 5;
    s << "<line x1=\"" << Num(x) << "\" y1=\"" << Num(rows_bottom) << "\" x2=\"" << Num(x)
      << "\" y2=\"" << Num(rows_bottom + 5) << "\" stroke=\"black\"/>\n"
      << "<text x=\"" << Num(x) << "\" y=\"" << Num(rows_bottom + 18)
      << "\" text-anchor=\"middle\">" << Num(chart.end.convert_to<double>() * k / 5, "%.4g")
      << "</text>\n";
  }
  s << "<text x=\"" << Num(left + kPlotWidth / 2) << "\" y=\"" << Num(rows_bottom + 34)
    << "\" text-anchor=\"middle\">time (s)</text>\n</g>\n";
  // Legend.
  s << "<g class=\"legend\">\n";
  for (int k = 0; k < legend_lines; ++k) {
    const double y = rows_bottom + 44 + kRowHeight * k;
    if (k == kLegendKeys) {
      s << "<text x=\"" << Num(left) << "\" y=\"" << Num(y + 12) << "\">... "
        << chart.keys.size() - kLegendKeys << " more (colours repeat every " << kPaletteSize
        << ")</text>\n";
      break;
    }
    s << "<rect x=\"" << Num(left) << "\" y=\"" << Num(y) << "\" width=\"14\" height=\"14\" fill=\""
      << kPalette[k % kPaletteSize] << "\"/>\n<text x=\"" << Num(left + 20) << "\" y=\""
      << Num(y + 12) << "\">" << Escape(chart.keys[k]) << "</text>\n";
  }
  s << "</g>\n</svg>\n";
  return s.str();
}

}  // namespace collsynth
