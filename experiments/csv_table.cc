#include "experiments/csv_table.h"

#include <algorithm>
#include <map>

#include "core/input_error.h"

namespace collsynth::experiments {
namespace {

std::string Exact(const std::optional<Rational>& x) { return x ? ToString(*x) : ""; }
std::string Decimal(const std::optional<Rational>& x) { return x ? FormatDecimal(*x) : ""; }

const char* VerifiedName(Verified v) {
  switch (v) {
    case Verified::kYes:
      return "yes";
    case Verified::kNo:
      return "no";
    case Verified::kNotApplicable:
      return "n/a";
  }
  return "n/a";
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", s);
  return buf;
}

bool IsTimeColumn(const std::string& name) {
  const std::string suffix = "_seconds";
  return name.size() >= suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string Quote(const std::string& field) {
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string q = "\"";
  for (char c : field) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

}  // namespace

int CsvTable::Column(const std::string& name) const {
  auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

const std::vector<std::string>& FixedColumns() {
  static const std::vector<std::string> kColumns = {"instance",
                                                    "algorithm",
                                                    "collective",
                                                    "nodes",
                                                    "tl",
                                                    "tl_decimal",
                                                    "tb",
                                                    "tb_decimal",
                                                    "tb_unit",
                                                    "lower_bound",
                                                    "lower_bound_decimal",
                                                    "ratio_to_bound",
                                                    "ratio_to_bound_decimal",
                                                    "verified",
                                                    "wall_seconds"};
  return kColumns;
}

std::string FormatDecimal(const Rational& x, int places) {
  BigInt scale = 1;
  for (int i = 0; i < places; ++i) scale *= 10;
  const bool negative = x < 0;
  const Rational a = negative ? Rational(-x) : x;
  const BigInt scaled = Floor(a * Rational(scale) + Rational(1, 2));  // half away from zero
  std::string digits = ToString(scaled);
  if (static_cast<int>(digits.size()) <= places) {
    digits.insert(0, static_cast<size_t>(places + 1 - static_cast<int>(digits.size())), '0');
  }
  std::string out = digits.substr(0, digits.size() - static_cast<size_t>(places));
  if (places > 0) out += "." + digits.substr(digits.size() - static_cast<size_t>(places));
  const bool zero = scaled == 0;
  return (negative && !zero ? "-" : "") + out;
}

CsvTable RowsToTable(const std::vector<ExperimentRow>& rows) {
  CsvTable t;
  t.header = FixedColumns();
  std::map<std::string, size_t> extra_index;
  for (const auto& r : rows) {
    for (const auto& [name, value] : r.extra) {
      if (extra_index.count(name) ||
          std::find(t.header.begin(), t.header.end(), name) != t.header.end()) {
        if (!extra_index.count(name)) {
          throw std::logic_error("extra column '" + name + "' clashes with a fixed column");
        }
        continue;
      }
      extra_index[name] = t.header.size();
      t.header.push_back(name);
    }
  }
  for (const auto& r : rows) {
    std::optional<Rational> ratio;
    if (r.tb && r.lower_bound && *r.lower_bound != 0) ratio = *r.tb / *r.lower_bound;
    std::vector<std::string> cells = {r.instance,
                                      r.algorithm,
                                      r.collective ? CollectiveName(*r.collective) : "",
                                      std::to_string(r.nodes),
                                      Exact(r.tl),
                                      Decimal(r.tl),
                                      Exact(r.tb),
                                      Decimal(r.tb),
                                      r.tb_unit,
                                      Exact(r.lower_bound),
                                      Decimal(r.lower_bound),
                                      Exact(ratio),
                                      Decimal(ratio),
                                      VerifiedName(r.verified),
                                      Seconds(r.wall_seconds)};
    cells.resize(t.header.size());
    for (const auto& [name, value] : r.extra) cells[extra_index.at(name)] = value;
    t.rows.push_back(std::move(cells));
  }
  return t;
}

std::string FormatCsv(const CsvTable& table) {
  std::string out;
  auto line = [&out](const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) out += ',';
      out += Quote(fields[i]);
    }
    out += '\n';
  };
  line(table.header);
  for (const auto& r : table.rows) line(r);
  return out;
}

CsvTable ParseCsv(const std::string& text, const std::string& file) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, field_started = false;
  size_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
    } else if (c == '"' && !field_started) {
      quoted = field_started = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      field_started = false;
    } else if (c == '\n') {
      record.push_back(std::move(field));
      records.push_back(std::move(record));
      field.clear();
      record.clear();
      field_started = false;
      ++line;
    } else if (c != '\r') {
      field += c;
      field_started = true;
    }
  }
  if (quoted) throw InputError(file, "line " + std::to_string(line), "unterminated quoted field");
  if (field_started || !record.empty()) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  if (records.empty()) throw InputError(file, "line 1", "empty CSV (no header)");
  CsvTable t;
  t.header = std::move(records[0]);
  for (size_t i = 1; i < records.size(); ++i) {
    if (records[i].size() != t.header.size()) {
      throw InputError(file, "record " + std::to_string(i),
                       "has " + std::to_string(records[i].size()) + " fields, header has " +
                           std::to_string(t.header.size()));
    }
    t.rows.push_back(std::move(records[i]));
  }
  return t;
}

CsvTable StripTimeColumns(const CsvTable& table) {
  std::vector<size_t> keep;
  for (size_t i = 0; i < table.header.size(); ++i) {
    if (!IsTimeColumn(table.header[i])) keep.push_back(i);
  }
  CsvTable t;
  for (size_t i : keep) t.header.push_back(table.header[i]);
  for (const auto& r : table.rows) {
    std::vector<std::string> cells;
    for (size_t i : keep) cells.push_back(r[i]);
    t.rows.push_back(std::move(cells));
  }
  return t;
}

}  // namespace collsynth::experiments
