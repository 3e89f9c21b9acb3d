// The one list syntax of every numeric option and definition key (number_lists.hpp): integer lists
// take "2:5" (step 1), "lo:hi:step" and comma lists; real lists "lo:hi:step" and comma lists; a
// refusal names the argument and the accepted forms.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/number_lists.hpp"

using namespace geomsim;

namespace {
// The requirement of the InvalidArgument that `parse` throws, checked to name `argument`.
template <class Parse>
std::string refusal(Parse parse, const std::string& argument) {
  try {
    parse();
  } catch (const InvalidArgument& error) {
    CHECK(error.argument() == argument);
    return error.requirement();
  }
  FAIL("no InvalidArgument");
  return "";
}
}  // namespace

TEST_CASE("Integer lists take a value, lo:hi, lo:hi:step and comma mixtures", "[support][number_lists]") {
  CHECK(parse_integer_list("3", "K", 2, 10) == std::vector<int>{3});
  CHECK(parse_integer_list("2:5", "K", 2, 10) == std::vector<int>{2, 3, 4, 5});
  CHECK(parse_integer_list("2:9:3", "K", 2, 10) == std::vector<int>{2, 5, 8});
  CHECK(parse_integer_list("2:3,7,9:10", "K", 2, 10) == std::vector<int>{2, 3, 7, 9, 10});
  CHECK(parse_integer_list("4:4", "K", 2, 10) == std::vector<int>{4});
  CHECK(parse_integer_list("3.0,1e1", "K", 2, 10) == std::vector<int>{3, 10});  // whole numbers written as reals
  // Seeds: the same syntax, up to 2^64 - 1.
  CHECK(parse_seed_list("0:4", "seeds") == std::vector<std::uint64_t>{0, 1, 2, 3, 4});
  CHECK(parse_seed_list("0:10:5,18446744073709551615", "seeds") ==
        std::vector<std::uint64_t>{0, 5, 10, 18446744073709551615ULL});
  CHECK(format_seed_list(parse_seed_list("0:3,7", "seeds")) == "0:3,7");
}

TEST_CASE("Real lists take a value, lo:hi:step and comma mixtures, rounded to the written decimals", "[support][number_lists]") {
  CHECK(parse_number_list("0.5", "alpha") == std::vector<double>{0.5});
  CHECK(parse_number_list("0.1:0.3:0.1", "alpha") == std::vector<double>{0.1, 0.2, 0.3});
  CHECK(parse_number_list("0.5,0.6:0.7:0.1,1", "alpha") == std::vector<double>{0.5, 0.6, 0.7, 1.0});
}

TEST_CASE("A malformed list is refused naming the argument and the accepted forms", "[support][number_lists]") {
  const std::string x = refusal([] { parse_integer_list("2,x", "K", 2, 10); }, "K");
  CHECK(x.find("must be whole numbers in [2, 10]") != std::string::npos);
  CHECK(x.find("'2:5'") != std::string::npos);
  CHECK(x.find("got 'x' in '2,x'") != std::string::npos);
  CHECK(refusal([] { parse_integer_list("2.5", "d", 2, 10); }, "d") == "must be whole numbers in [2, 10], got 2.5");
  CHECK(refusal([] { parse_integer_list("1:5", "K", 2, 10); }, "K") == "must be whole numbers in [2, 10], got 1");
  CHECK(refusal([] { parse_integer_list("5:2", "K", 2, 10); }, "K").find("lo <= hi and step >= 1") != std::string::npos);
  CHECK(refusal([] { parse_integer_list("2:5:0", "K", 2, 10); }, "K").find("lo <= hi and step >= 1") != std::string::npos);
  CHECK(refusal([] { parse_integer_list("2:5:1:1", "K", 2, 10); }, "K").find("too many ':'") != std::string::npos);
  CHECK(refusal([] { parse_integer_list("", "K", 2, 10); }, "K").find("got ''") != std::string::npos);
  CHECK(refusal([] { parse_seed_list("-1", "seeds"); }, "seeds") == "must be non-negative whole numbers, got -1");
  CHECK(refusal([] { parse_seed_list("0:1000000", "seeds"); }, "seeds").find("more than 100000 values") != std::string::npos);
  const std::string pair = refusal([] { parse_number_list("0.5:0.9", "alpha"); }, "alpha");
  CHECK(pair.find("needs a step") != std::string::npos);
  CHECK(pair.find("'0.5:0.9:0.1'") != std::string::npos);
  CHECK(refusal([] { parse_number_list("0.5,y", "tau"); }, "tau").find("must be numbers: a value '0.5'") != std::string::npos);
  CHECK(refusal([] { parse_number_list("0.9:0.5:0.1", "tau"); }, "tau").find("lo <= hi and step > 0") != std::string::npos);
  CHECK(refusal([] { parse_number_list("nan", "tau"); }, "tau").find("finite") != std::string::npos);
}
