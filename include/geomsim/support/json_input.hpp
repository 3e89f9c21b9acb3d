#pragma once
// JSON from a user's file or text, read as hostile input. nlohmann's parser itself is iterative,
// but dumping, comparing or walking a value recurses once per level, so a value nested 100 000
// deep overflows the stack wherever it is later used (an error message that dumps it, above all).
// Every JSON a user gives is therefore parsed with its nesting bounded, and a value shown in a
// message is rendered bounded in both depth and length, never dumped whole.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "geomsim/support/input_files.hpp"

namespace geomsim {

// Deeper than any JSON geomsim reads (a definition or a description nests 4 or 5 levels), far
// shallower than what recursion on a thread's stack can take.
inline constexpr int kMaxJsonDepth = 64;

// Parses `text`. `where` starts the messages: a path ("sims/a.json"), or a phrase such as
// "holds a model description that". Throws InvalidArgument(argument, ...):
//   "<where> is not valid JSON (<the parser's words, shortened>)", or
//   "<where> nests arrays or objects more than 64 levels deep (the most a geomsim input may)".
// `also` is called as nlohmann's parser callback after the depth check (e.g. to watch for
// duplicate keys); what it returns decides, as in nlohmann, whether a value is kept.
nlohmann::json parse_json_input(const std::string& text, const std::string& argument, const std::string& where,
                                const nlohmann::json::parser_callback_t& also = nullptr, int max_depth = kMaxJsonDepth);

// read_whole_file (a regular file only, bounded by its size and by memory) and parse_json_input.
nlohmann::json read_json_file(const std::string& path, const std::string& argument, std::uint64_t max_bytes = kNoSizeLimit,
                              const std::string& what = "JSON file");

// `value` as compact JSON text for a message: containers nested deeper than `max_depth` are shown
// as [...] or {...}, and the text is cut at `max_chars` characters with "..." after it. Its cost
// is bounded by max_chars, whatever the size or depth of `value`.
std::string json_excerpt(const nlohmann::json& value, std::size_t max_chars = 80, int max_depth = 3);

}  // namespace geomsim
