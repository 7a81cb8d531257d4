#include "solvers/finder/finder_schedule.h"

#include <stdexcept>

#include "graphs/expression.h"
#include "solvers/bfb/bfb_schedule.h"
#include "solvers/bfb/schedule_expansion.h"

namespace collsynth {
namespace {

FinderSchedule Bfb(const std::string& expr) {
  FinderSchedule r{EvaluateTopologyExpression(expr), {}};
  BfbOptions o;
  o.certificates = false;
  o.file = expr;
  r.schedule = GenerateBfbSchedule(r.topology, o).schedule;
  return r;
}

}  // namespace

FinderSchedule BuildFinderSchedule(const FinderCandidate& c, bool need_bfb) {
  switch (c.method) {
    case FinderMethod::kBfb:
    case FinderMethod::kProduct:
      return Bfb(c.topology);
    case FinderMethod::kLine: {
      FinderSchedule op = BuildFinderSchedule(*c.operands.at(0), true);
      ExpandedSchedule e = LineGraphSchedule(op.topology, op.schedule, c.topology);
      return {std::move(e.topology), std::move(e.schedule)};
    }
    case FinderMethod::kDegree:
    case FinderMethod::kPower: {
      if (need_bfb) return Bfb(c.topology);
      FinderSchedule op = BuildFinderSchedule(*c.operands.at(0), false);
      ExpandedSchedule e =
          c.method == FinderMethod::kDegree
              ? DegreeExpandedSchedule(op.topology, op.schedule, c.power, c.topology)
              : CartesianPowerSchedule(op.topology, op.schedule, c.power, c.topology);
      return {std::move(e.topology), std::move(e.schedule)};
    }
    case FinderMethod::kBidir: {
      // App. F needs G ≅ G^T without opposite link pairs (BidirectionalSchedule's contract).
      FinderSchedule op = BuildFinderSchedule(*c.operands.at(0), false);
      ExpandedSchedule e = BidirectionalSchedule(op.topology, op.schedule, c.topology);
      return {std::move(e.topology), std::move(e.schedule)};
    }
  }
  throw std::logic_error("unknown finder method");
}

Rational ShardTbToMOverB(const Topology& g, const Rational& tb_shard) {
  return tb_shard * g.OutBandwidth(0) / g.num_nodes();
}

}  // namespace collsynth
