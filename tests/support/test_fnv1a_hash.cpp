// FNV-1a (support/fnv1a_hash.hpp) against the published 64-bit test vectors.
#include <catch2/catch.hpp>

#include "geomsim/support/fnv1a_hash.hpp"

using namespace geomsim;

TEST_CASE("FNV-1a matches the published 64-bit test vectors", "[support][hash]") {
  CHECK(fnv1a_update(kFnv1aOffsetBasis, "") == 0xcbf29ce484222325ULL);
  CHECK(fnv1a_update(kFnv1aOffsetBasis, "a") == 0xaf63dc4c8601ec8cULL);
  CHECK(fnv1a_update(kFnv1aOffsetBasis, "foobar") == 0x85944171f73967e8ULL);
  // Continuing over pieces equals hashing them joined.
  CHECK(fnv1a_update(fnv1a_update(kFnv1aOffsetBasis, "foo"), "bar") == fnv1a_update(kFnv1aOffsetBasis, "foobar"));
  CHECK(fnv1a_hex(0xaf63dc4c8601ec8cULL) == "af63dc4c8601ec8c");
  CHECK(fnv1a_hex(1) == "0000000000000001");
}
