#include <catch2/catch.hpp>

#include <cmath>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"

using geomsim::format_bytes;

TEST_CASE("Available memory is positive and below what any machine has", "[support][memory]") {
  const double available = static_cast<double>(geomsim::available_memory_bytes());
  CHECK(available > 1e6);   // more than a megabyte is free on any machine that runs the tests
  CHECK(available < 1e15);  // and less than a petabyte
}

TEST_CASE("A request that cannot fit is refused with the argument and both sizes", "[support][memory]") {
  CHECK_NOTHROW(geomsim::require_memory("ny", 1e3, "one matrix"));
  try {
    geomsim::require_memory("ny", 8e18, "the N x N matrix");
    FAIL("8 EB was accepted");
  } catch (const geomsim::InvalidArgument& error) {
    CHECK(error.argument() == "ny");
    CHECK(error.requirement().rfind("would need 8 EB for the N x N matrix, more than the ", 0) == 0);
  }
  CHECK_THROWS_AS(geomsim::require_memory("d", 1e300, "x"), geomsim::InvalidArgument);  // absurd estimates do not overflow
  CHECK_THROWS_AS(geomsim::require_memory("d", std::nan(""), "x"), geomsim::InvalidArgument);
}

TEST_CASE("Byte counts read in decimal units", "[support][memory]") {
  CHECK(format_bytes(512) == "512 bytes");
  CHECK(format_bytes(8e8) == "800 MB");
  CHECK(format_bytes(3.2e9) == "3.2 GB");
  CHECK(format_bytes(1.25e13) == "12.5 TB");
}
