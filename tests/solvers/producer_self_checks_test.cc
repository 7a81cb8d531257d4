// The producers check themselves with assert() (STYLE rule 5, e.g. the pipeline builder's
// assert(CheckPipelineSchedule(...).ok)); those checks run in the checking build
// (scripts/sanitize.sh: CMAKE_BUILD_TYPE=Debug, -UNDEBUG, ASan + UBSan), CI stage 2, the
// Debug build of docs/fuzzing.md "The checking build". This test fails there if its flags ever stop
// enabling assert(): tests/CMakeLists.txt defines COLLSYNTH_CHECKING_BUILD when COLLSYNTH_SANITIZE
// is on, and every target of that build is compiled with the same flags as this file.
#include <gtest/gtest.h>

#include <cassert>

namespace collsynth {
namespace {

TEST(ProducerSelfChecksTest, CheckingBuildHasAssertionsOn) {
#if defined(COLLSYNTH_CHECKING_BUILD)
#if defined(NDEBUG)
  FAIL() << "the checking build defines NDEBUG: the producers' self-checks do not run";
#else
  bool evaluated = false;
  assert((evaluated = true));
  EXPECT_TRUE(evaluated);
#endif
#else
  GTEST_SKIP() << "Release build: assert() is off; the checking build runs the self-checks";
#endif
}

}  // namespace
}  // namespace collsynth
