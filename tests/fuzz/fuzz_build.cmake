# The fuzz build's compiler flags, included by the top-level CMakeLists.txt before the library's
# targets when GEOMSIM_BUILD_FUZZERS is on. Every source of this build gets libFuzzer's coverage
# instrumentation (fuzzer-no-link) and AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer; tests/fuzz/CMakeLists.txt links the harnesses with libFuzzer's
# main (-fsanitize=fuzzer). Any sanitizer report ends the run: no recovery from UBSan.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "geomsim: GEOMSIM_BUILD_FUZZERS needs clang's libFuzzer; configure with "
                      "-DCMAKE_CXX_COMPILER=clang++ (Debian: apt-get install clang-14 libclang-rt-14-dev)")
endif()
set(GEOMSIM_FUZZ_SANITIZERS -fsanitize=address,undefined -fno-sanitize-recover=all)
# Debian's clang-14 ships libFuzzer's runtime in libclang-rt-14-dev, only a recommendation of
# the compiler: say so here rather than at the first link.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
check_cxx_source_compiles([[
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }]] GEOMSIM_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
if(NOT GEOMSIM_HAVE_LIBFUZZER)
  message(FATAL_ERROR "geomsim: ${CMAKE_CXX_COMPILER} cannot link -fsanitize=fuzzer (Debian: apt-get install libclang-rt-14-dev)")
endif()
# -O1 with line tables (it comes after the build type's -O3 on the command line, so it wins):
# the usual fuzzing trade-off between executions per second, compile time and readable reports.
add_compile_options(-fsanitize=fuzzer-no-link ${GEOMSIM_FUZZ_SANITIZERS} -fno-omit-frame-pointer -O1 -gline-tables-only)
