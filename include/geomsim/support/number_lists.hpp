#pragma once
// The one list syntax every numeric grid takes (CLI flags, sweeps, sims/ definitions):
//   whole numbers  "3", "2:5" (inclusive, step 1), "2:10:2" (lo:hi:step), "2,3,7", and comma
//                  mixtures such as "0:4,10";
//   real numbers   "0.5", "0.5:0.9:0.1" (inclusive; the step is needed), "0.1,0.5,2", and mixtures.
// Each parser throws InvalidArgument(argument) whose requirement names the accepted forms and the
// text it was given, so that "--K 2,x" reads "--K must be whole numbers in [2, 100000] as ...".
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim {

// The most values one list names (a typo such as 0:1e9 is refused before memory is spent on it).
inline constexpr std::size_t kMaxListValues = 100000;

// The forms the two kinds of list accept, for errors and --help texts.
std::string integer_list_forms();  // "a value '3', a range '2:5' or '2:10:2' (lo:hi[:step], inclusive) or a list '2,3,7'"
std::string number_list_forms();   // "a value '0.5', a range '0.5:0.9:0.1' (lo:hi:step, inclusive) or a list '0.1,0.5'"

// Non-negative whole numbers (uint64), e.g. seeds: the integer syntax above.
std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& argument);
// Real numbers: the real syntax above. Every value must be finite.
std::vector<double> parse_number_list(const std::string& text, const std::string& argument);
// Whole numbers in [lo, hi]: the integer syntax above ("2:5" included). A whole number written as
// a real ("3.0", "1e2") is accepted; "2.5" is refused.
std::vector<int> parse_integer_list(const std::string& text, const std::string& argument, int lo, int hi);

// The inverse of parse_seed_list, compact: {0,1,2,3,4} -> "0:4".
std::string format_seed_list(const std::vector<std::uint64_t>& seeds);

}  // namespace geomsim
