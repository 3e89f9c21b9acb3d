#pragma once
// Text that may become a file name another program's script names. gnuplot's single-quoted
// strings (the only ones in which it substitutes neither `command` nor @macro) hold no escapes,
// so a line break in an output path would end `set output '...'` and run the rest of the name
// as gnuplot code (whose system() runs a shell command). Such a path cannot be quoted: it is
// refused, before anything runs.
#include <string>

namespace geomsim {

// Whether `c` is a control character: a byte below 0x20 (a line break, a carriage return, a tab,
// an escape) or 0x7f.
bool is_control_character(char c);

// Whether `text` holds a control character.
bool has_control_character(const std::string& text);

// "" when `text` holds no control character; otherwise the requirement it breaks, completing the
// sentence "--ARGUMENT ...": "must not hold control characters (line breaks, tabs, ...), got
// 'o5\nsystem(...)'" with each control character shown as an escape (\n, \r, \t, \xNN).
std::string control_character_problem(const std::string& text);

// Throws InvalidArgument(argument, control_character_problem(text)) when `text` holds one.
void require_no_control_characters(const std::string& text, const std::string& argument);

}  // namespace geomsim
