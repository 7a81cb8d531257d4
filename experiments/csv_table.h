// The CSV of an experiment: fixed columns, then the kinds' extra columns, one row per
// (instance, algorithm). Exact values print as "p/q" (or "p") and, in the *_decimal column
// next to them, as a decimal rounded half-up at 6 places, computed exactly — so the CSV is a
// pure function of the rows. Time columns (wall_seconds, and extras named *_seconds) are
// the only nondeterministic ones; StripTimeColumns removes them for comparisons.
//
// Fixed columns, in order:
//   instance, algorithm, collective, nodes, tl, tl_decimal, tb, tb_decimal, tb_unit,
//   lower_bound, lower_bound_decimal, ratio_to_bound, ratio_to_bound_decimal, verified,
//   wall_seconds
// ratio_to_bound = tb / lower_bound (empty when either is missing or the bound is 0);
// verified is "yes", "no" or "n/a".
#ifndef COLLSYNTH_EXPERIMENTS_CSV_TABLE_H_
#define COLLSYNTH_EXPERIMENTS_CSV_TABLE_H_

#include <string>
#include <vector>

#include "core/rational.h"
#include "experiments/experiment.h"

namespace collsynth::experiments {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  int Column(const std::string& name) const;  // -1 when absent
};

const std::vector<std::string>& FixedColumns();

// Exact decimal rounding (half away from zero) to `places` digits after the point.
std::string FormatDecimal(const Rational& x, int places = 6);

// Header = fixed columns + extra column names in order of first appearance.
CsvTable RowsToTable(const std::vector<ExperimentRow>& rows);

// RFC 4180: fields with ',', '"' or newlines are quoted; lines end in "\n".
std::string FormatCsv(const CsvTable& table);
CsvTable ParseCsv(const std::string& text, const std::string& file);  // InputError if malformed

// Drops wall_seconds and every column whose name ends in "_seconds".
CsvTable StripTimeColumns(const CsvTable& table);

}  // namespace collsynth::experiments

#endif  // COLLSYNTH_EXPERIMENTS_CSV_TABLE_H_
