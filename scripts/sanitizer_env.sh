# shellcheck shell=bash
# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: the sanitizer runtime options of the
# checking build (docs/fuzzing.md explains each). Values already set in the environment win.
# - halt_on_error / abort_on_error=0: the first report ends the process with exit code 1
#   (ASan) or the UBSan report (-fno-sanitize-recover=undefined), so ctest sees a failure.
# - detect_leaks=1: leaks are findings too (LeakSanitizer runs at exit).
# - allocator_may_return_null=0: an allocation larger than the machine can give is reported
#   with its stack ("requested allocation size exceeds ...") instead of a null pointer.
# - print_stacktrace=1: UBSan prints where.
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=0:detect_leaks=1:allocator_may_return_null=0:strict_string_checks=1:detect_stack_use_after_return=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
