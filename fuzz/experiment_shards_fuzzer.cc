// libFuzzer target: experiment shard folders through `experiment merge` (experiments/shards.h
// MergeShards, then the CSV the merge writes). The input is one shard folder: meta.json's text,
// then a line "--- rows.json ---", then rows.json's text (no such line: all of it is meta.json
// and rows.json is empty). Every "@HASH@" is replaced by the definition's DefinitionHash, so
// inputs reach past the foreign-shard check. The definition is fixed (a collective-compare
// "fuzz", written with the folder under $TMPDIR/collsynth-fuzz-shards-PID/); the shard folder is
// OUT/shard-0-of-1/ unless meta.json says otherwise (then the merge names the missing shards).
// Checks: InputError is the only failure; a merge that succeeds gives rows whose CSV reads
// back to the same table (experiments/csv_table.h).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "experiments/csv_table.h"
#include "experiments/definition.h"
#include "experiments/shards.h"
#include "fuzz/fuzz_common.h"

namespace {

namespace fs = std::filesystem;

const char kDefinition[] = R"j({"name": "fuzz", "kind": "collective-compare",
  "params": {"collective": "allgather",
             "cases": [{"topology": "torus(3)", "algorithms": ["bfb"]}]}})j";
const char kSeparator[] = "\n--- rows.json ---\n";

struct Fixture {
  fs::path dir;  // holds fuzz.json and the shard folder
  collsynth::experiments::ExperimentDefinition def;
  std::string hash;
};

const Fixture& TheFixture() {
  static const Fixture fixture = [] {
    Fixture f;
    f.dir = fs::temp_directory_path() / ("collsynth-fuzz-shards-" + std::to_string(getpid()));
    fs::create_directories(f.dir / "shard-0-of-1");
    const std::string def_path = (f.dir / "fuzz.json").string();
    std::FILE* out = std::fopen(def_path.c_str(), "wb");
    if (out == nullptr) collsynth::fuzz::Fail("cannot write " + def_path);
    std::fputs(kDefinition, out);
    std::fclose(out);
    f.def = collsynth::experiments::LoadExperimentDefinition(def_path);
    f.hash = collsynth::experiments::DefinitionHash(f.def);
    return f;
  }();
  return fixture;
}

void WriteFile(const fs::path& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) collsynth::fuzz::Fail("cannot write " + path.string());
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), f) != text.size())
    collsynth::fuzz::Fail("cannot write " + path.string());
  std::fclose(f);
}

std::string WithHash(std::string text, const std::string& hash) {
  for (std::size_t at = text.find("@HASH@"); at != std::string::npos;
       at = text.find("@HASH@", at + hash.size())) {
    text.replace(at, 6, hash);
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const Fixture& fixture = TheFixture();
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = input.find(kSeparator);
  const std::string meta = input.substr(0, cut);
  const std::string rows =
      cut == std::string::npos ? "" : input.substr(cut + sizeof(kSeparator) - 1);
  const fs::path shard = fixture.dir / "shard-0-of-1";
  WriteFile(shard / "meta.json", WithHash(meta, fixture.hash));
  WriteFile(shard / "rows.json", WithHash(rows, fixture.hash));
  fuzz::ExpectInputErrorOnly([&] {
    const experiments::MergedShards merged =
        experiments::MergeShards(fixture.def, {shard.string()});
    fuzz::Require(merged.shards.size() == 1, "one shard merged into several");
    const experiments::CsvTable table = experiments::RowsToTable(merged.rows);
    fuzz::Require(table.rows.size() == merged.rows.size(), "rows lost on the way to the CSV");
    const std::string csv = experiments::FormatCsv(table);
    const experiments::CsvTable back = experiments::ParseCsv(csv, "merged.csv");
    fuzz::Require(back.header == table.header && back.rows == table.rows,
                  "the merged CSV does not read back to its table");
  });
  return 0;
}
