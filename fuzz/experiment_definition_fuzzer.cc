// libFuzzer target: experiment definitions (experiments/definition.h). The reader takes a
// path whose stem must equal the definition's "name", so each input is written to
// <tmp>/collsynth-fuzz-<pid>/fuzz.json: corpus files use "name": "fuzz". Only reading and
// validation are fuzzed (running an experiment is not bounded in time).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "experiments/definition.h"
#include "fuzz/fuzz_common.h"

namespace {

const std::string& InputPath() {
  static const std::string path = [] {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("collsynth-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return (dir / "fuzz.json").string();
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collsynth;
  if (size > fuzz::kMaxInputBytes) return -1;
  const std::string& path = InputPath();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) fuzz::Fail("cannot write " + path);
  if (size > 0 && std::fwrite(data, 1, size, f) != size) fuzz::Fail("cannot write " + path);
  std::fclose(f);
  fuzz::ExpectInputErrorOnly([&] {
    const experiments::ExperimentDefinition def = experiments::LoadExperimentDefinition(path);
    fuzz::Require(def.name == "fuzz", "definition read with name '" + def.name + "'");
  });
  return 0;
}
