#include "solvers/baselines/torus_baseline.h"

#include "core/input_error.h"
#include "solvers/baselines/ring_baselines.h"

namespace collsynth {

StepSchedule TraditionalTorusAllgather(const Topology& g, const Grid& grid,
                                       const std::string& file) {
  const int n = g.num_nodes();
  const int k = static_cast<int>(grid.dims.size());
  std::vector<int> stride(k);
  for (int q = k - 1, s = 1; q >= 0; --q) {
    stride[q] = s;
    s *= grid.dims[q];
  }
  // Links along every dimension; bidirectional when every -1 link exists too.
  bool bidirectional = true;
  for (int idx = 0; idx < n; ++idx) {
    std::vector<int> x = grid.coord[grid.node_at[idx]];
    for (int q = 0; q < k; ++q) {
      int c = x[q];
      int up = idx + ((c + 1) % grid.dims[q] - c) * stride[q];
      int down = idx + ((c - 1 + grid.dims[q]) % grid.dims[q] - c) * stride[q];
      int v = grid.node_at[idx];
      if (!g.FindLink(v, grid.node_at[up])) {
        throw InputError(file, "link " + g.node(v).name + " -> " + g.node(grid.node_at[up]).name,
                         "missing: not a torus with dimensions as inferred");
      }
      if (!g.FindLink(v, grid.node_at[down])) bidirectional = false;
    }
  }
  StepSchedule s;
  s.extra["baseline"] = "torus";
  s.extra["dims"] = grid.dims;
  for (int i = 0; i < k; ++i) {
    Rational lo(i, k), hi(i + 1, k);
    std::vector<int> done;
    int offset = 0;
    for (int j = 0; j < k; ++j) {
      int q = (i + j) % k;
      int d = grid.dims[q];
      std::vector<int> positions(d);
      for (int c = 0; c < d; ++c) positions[c] = c;
      StepSchedule line;
      if (bidirectional) {
        AppendRingAllgather(positions, +1, lo, (lo + hi) / 2, line);
        AppendRingAllgather(positions, -1, (lo + hi) / 2, hi, line);
      } else {
        AppendRingAllgather(positions, +1, lo, hi, line);
      }
      for (int base = 0; base < n; ++base) {
        if ((base / stride[q]) % d != 0) continue;
        int src_base = base;
        for (int p : done) src_base -= ((base / stride[p]) % grid.dims[p]) * stride[p];
        for (const StepSend& ls : line.sends) {
          int from = grid.node_at[base + ls.from * stride[q]];
          int to = grid.node_at[base + ls.to * stride[q]];
          std::vector<int> digits(done.size(), 0);
          while (true) {
            int src = src_base + ls.source * stride[q];
            for (std::size_t r = 0; r < done.size(); ++r) src += digits[r] * stride[done[r]];
            s.sends.push_back(StepSend{grid.node_at[src], ls.chunk, from, to, ls.step + offset});
            std::size_t r = 0;
            while (r < digits.size() && ++digits[r] == grid.dims[done[r]]) digits[r++] = 0;
            if (r == digits.size()) break;
          }
        }
      }
      done.push_back(q);
      offset += d - 1;
    }
  }
  return s;
}

}  // namespace collsynth
