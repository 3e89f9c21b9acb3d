#include "geomsim/support/plain_text.hpp"

#include <cstdio>

#include "geomsim/support/errors.hpp"

namespace geomsim {
bool is_control_character(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

bool has_control_character(const std::string& text) {
  for (char c : text) {
    if (is_control_character(c)) return true;
  }
  return false;
}

std::string control_character_problem(const std::string& text) {
  if (!has_control_character(text)) return "";
  std::string shown;
  for (char c : text) {
    if (c == '\n') shown += "\\n";
    else if (c == '\r') shown += "\\r";
    else if (c == '\t') shown += "\\t";
    else if (is_control_character(c)) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      shown += escape;
    } else {
      shown += c;
    }
  }
  return "must not hold control characters (line breaks, tabs, ...): they are not allowed in a file name that a "
         "figure's script names; got '" + shown + "'";
}

void require_no_control_characters(const std::string& text, const std::string& argument) {
  const std::string problem = control_character_problem(text);
  if (!problem.empty()) throw InvalidArgument(argument, problem);
}

}  // namespace geomsim
