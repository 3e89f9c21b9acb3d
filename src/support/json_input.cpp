#include "geomsim/support/json_input.hpp"

#include <algorithm>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

using nlohmann::json;

// The parser's own words can quote the offending token whole (an unterminated string of a
// gigabyte); a message keeps their start.
constexpr std::size_t kMaxParserWords = 200;

std::string shortened(const std::string& text, std::size_t max_chars) {
  return text.size() <= max_chars ? text : text.substr(0, max_chars) + "...";
}

// A scalar (or a string of at most `budget` bytes, as JSON) that cannot throw on bad UTF-8.
std::string scalar_text(const json& value, std::size_t budget) {
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    return json(s.substr(0, budget + 1)).dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Appends `value` to `out`, stopping once `out` passes `max_chars` (the caller cuts it).
void append_excerpt(const json& value, std::string& out, std::size_t max_chars, int depth_left) {
  if (out.size() > max_chars) return;
  if (!value.is_structured()) {
    out += scalar_text(value, max_chars - out.size());
    return;
  }
  const bool object = value.is_object();
  if (depth_left <= 0 && !value.empty()) {
    out += object ? "{...}" : "[...]";
    return;
  }
  out += object ? '{' : '[';
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (out.size() > max_chars) return;
    if (!first) out += ',';
    first = false;
    if (object) out += scalar_text(json(it.key()), max_chars - std::min(max_chars, out.size())) + ':';
    append_excerpt(it.value(), out, max_chars, depth_left - 1);
  }
  out += object ? '}' : ']';
}

}  // namespace

json parse_json_input(const std::string& text, const std::string& argument, const std::string& where,
                      const json::parser_callback_t& also, int max_depth) {
  // nlohmann reports the depth of the container a start event opens as the number of those
  // around it: the top-level value's is 0.
  const json::parser_callback_t bounded = [&](int depth, json::parse_event_t event, json& parsed) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) && depth >= max_depth) {
      throw InvalidArgument(argument, where + " nests arrays or objects more than " + std::to_string(max_depth) +
                                          " levels deep (the most a geomsim input may)");
    }
    return also ? also(depth, event, parsed) : true;
  };
  try {
    return json::parse(text, bounded);
  } catch (const json::exception& error) {
    throw InvalidArgument(argument, where + " is not valid JSON (" + shortened(error.what(), kMaxParserWords) + ")");
  }
}

json read_json_file(const std::string& path, const std::string& argument, std::uint64_t max_bytes, const std::string& what) {
  return parse_json_input(read_whole_file(path, argument, max_bytes, what), argument, path);
}

std::string json_excerpt(const json& value, std::size_t max_chars, int max_depth) {
  std::string out;
  append_excerpt(value, out, max_chars, max_depth);
  return shortened(out, max_chars);
}

}  // namespace geomsim
