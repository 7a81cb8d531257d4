#include "solvers/baselines/ring_baselines.h"

namespace collsynth {
namespace {

int Mod(int a, int n) { return ((a % n) + n) % n; }

}  // namespace

void AppendRingAllgather(const std::vector<int>& order, int direction, const Rational& lo,
                         const Rational& hi, StepSchedule& out) {
  int n = static_cast<int>(order.size());
  for (int t = 1; t <= n - 1; ++t) {
    for (int i = 0; i < n; ++i) {
      int src = order[Mod(i - direction * (t - 1), n)];
      out.sends.push_back(
          StepSend{src, {Interval{lo, hi}}, order[i], order[Mod(i + direction, n)], t});
    }
  }
}

void AppendBfbRingAllgather(const std::vector<int>& order, const Rational& lo, const Rational& hi,
                            StepSchedule& out) {
  int n = static_cast<int>(order.size());
  int full = (n - 1) / 2;
  for (int t = 1; t <= full; ++t) {
    for (int i = 0; i < n; ++i) {
      for (int dir : {+1, -1}) {
        int src = order[Mod(i - dir * (t - 1), n)];
        out.sends.push_back(StepSend{src, {Interval{lo, hi}}, order[i], order[Mod(i + dir, n)], t});
      }
    }
  }
  if (n % 2 == 0) {
    // Step N/2: the node opposite the source gets [lo, mid) from one side, [mid, hi) from the
    // other.
    Rational mid = (lo + hi) / 2;
    int t = n / 2;
    for (int i = 0; i < n; ++i) {
      int src = order[i];
      int target = Mod(i + n / 2, n);
      out.sends.push_back(
          StepSend{src, {Interval{lo, mid}}, order[Mod(target - 1, n)], order[target], t});
      out.sends.push_back(
          StepSend{src, {Interval{mid, hi}}, order[Mod(target + 1, n)], order[target], t});
    }
  }
}

StepSchedule UniRingAllgather(const std::vector<int>& order) {
  StepSchedule s;
  s.extra["baseline"] = "uniring";
  AppendRingAllgather(order, +1, 0, 1, s);
  return s;
}

StepSchedule BiRingAllgather(const std::vector<int>& order) {
  StepSchedule s;
  s.extra["baseline"] = "biring";
  AppendRingAllgather(order, +1, 0, Rational(1, 2), s);
  AppendRingAllgather(order, -1, Rational(1, 2), 1, s);
  return s;
}

StepSchedule BiRingBfbAllgather(const std::vector<int>& order) {
  StepSchedule s;
  s.extra["baseline"] = "biring-bfb";
  AppendBfbRingAllgather(order, 0, 1, s);
  return s;
}

StepSchedule ShiftedRingAllgather(const std::vector<int>& node_of, const std::vector<int>& shifts,
                                  bool bfb) {
  StepSchedule s;
  s.extra["baseline"] = bfb ? "shiftedbfbring" : "shiftedring";
  s.extra["shifts"] = shifts;
  int n = static_cast<int>(node_of.size());
  int k = static_cast<int>(shifts.size());
  for (int j = 0; j < k; ++j) {
    std::vector<int> order(n);
    for (int m = 0; m < n; ++m) order[m] = node_of[static_cast<long long>(m) * shifts[j] % n];
    Rational lo(j, k), hi(j + 1, k);
    if (bfb) {
      AppendBfbRingAllgather(order, lo, hi, s);
    } else {
      Rational mid = (lo + hi) / 2;
      AppendRingAllgather(order, +1, lo, mid, s);
      AppendRingAllgather(order, -1, mid, hi, s);
    }
  }
  return s;
}

}  // namespace collsynth
