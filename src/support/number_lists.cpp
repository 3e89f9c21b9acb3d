#include "geomsim/support/number_lists.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <type_traits>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos) return parts;
    begin = end + 1;
  }
}

// A real number spelled by the whole token (no leading '+', no spaces), or nothing.
bool read_real(const std::string& token, double& value) {
  const char* last = token.data() + token.size();
  const auto result = std::from_chars(token.data(), last, value);
  return !token.empty() && result.ec == std::errc() && result.ptr == last;
}

// A whole number of type T spelled by the whole token; a real that is whole ("3.0", "1e2") and fits T
// counts too. Throws InvalidArgument(argument) otherwise: `kind` ("must be whole numbers in [2, 10]")
// for a number that is not whole, `kind` and the forms for a token that is no number.
template <class T>
T read_whole(const std::string& token, const std::string& text, const std::string& argument, const std::string& kind) {
  T value{};
  const char* last = token.data() + token.size();
  const auto result = std::from_chars(token.data(), last, value);
  if (!token.empty() && result.ec == std::errc() && result.ptr == last) return value;
  double real = 0.0;
  if (read_real(token, real) && std::isfinite(real) && real == std::floor(real) &&
      real >= static_cast<double>(std::numeric_limits<T>::min()) && real < 9.0e15) {
    return static_cast<T>(real);
  }
  if (read_real(token, real) && std::isfinite(real)) {  // a number, just not a whole one
    throw InvalidArgument(argument, kind + ", got " + format_number(real));
  }
  throw InvalidArgument(argument, kind + ": " + integer_list_forms() + ", got '" + token + "'" +
                                      (token == text ? std::string() : " in '" + text + "'"));
}

// The integer syntax: items "v", "lo:hi" or "lo:hi:step" separated by commas, every value in [lo, hi].
template <class T>
std::vector<T> parse_whole_list(const std::string& text, const std::string& argument, T lowest, T highest,
                                const std::string& kind) {
  const auto read = [&](const std::string& token) { return read_whole<T>(token, text, argument, kind); };
  const auto in_range = [&](T value, const std::string& token) {
    if (value < lowest || value > highest) throw InvalidArgument(argument, kind + ", got " + token);
    return value;
  };
  std::vector<T> values;
  for (const std::string& item : split(text, ',')) {
    const auto fields = split(item, ':');
    if (fields.size() > 3) throw InvalidArgument(argument, "has a range with too many ':' in '" + text + "'; it takes " + integer_list_forms());
    for (const auto& field : fields) (void)read(field);  // the form first, then the range
    if (fields.size() == 1) {
      values.push_back(in_range(read(fields[0]), fields[0]));
      continue;
    }
    const T lo = read(fields[0]);
    const T hi = read(fields[1]);
    const T step = fields.size() == 3 ? read(fields[2]) : T{1};
    if (hi < lo || step < T{1}) {
      throw InvalidArgument(argument, "needs ranges lo:hi[:step] with lo <= hi and step >= 1, got '" + text + "'");
    }
    in_range(lo, fields[0]);
    in_range(hi, fields[1]);
    // (hi - lo) fits T's unsigned twin: lo <= hi.
    using U = std::make_unsigned_t<T>;
    const U span = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
    if (span / static_cast<U>(step) + values.size() >= kMaxListValues) {
      throw InvalidArgument(argument, "names more than " + std::to_string(kMaxListValues) + " values in '" + text + "'");
    }
    for (T v = lo;; v += step) {
      values.push_back(v);
      if (static_cast<U>(hi - v) < static_cast<U>(step)) break;
    }
  }
  return values;
}

}  // namespace

std::string integer_list_forms() {
  return "a value '3', a range '2:5' or '2:10:2' (lo:hi[:step], inclusive) or a list '2,3,7' (mixtures such as '2:5,8' too)";
}

std::string number_list_forms() {
  return "a value '0.5', a range '0.5:0.9:0.1' (lo:hi:step, inclusive; the step is needed) or a list '0.1,0.5' "
         "(mixtures too)";
}

std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& argument) {
  return parse_whole_list<std::uint64_t>(text, argument, 0, std::numeric_limits<std::uint64_t>::max(),
                                         "must be non-negative whole numbers");
}

std::vector<int> parse_integer_list(const std::string& text, const std::string& argument, int lo, int hi) {
  const auto wide = parse_whole_list<long long>(
      text, argument, lo, hi, "must be whole numbers in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return std::vector<int>(wide.begin(), wide.end());
}

std::vector<double> parse_number_list(const std::string& text, const std::string& argument) {
  const std::string forms = "must be numbers: " + number_list_forms();
  const auto number = [&](const std::string& token) {
    double value = 0.0;
    if (!read_real(token, value)) throw InvalidArgument(argument, forms + ", got '" + text + "'");
    require_finite(argument.c_str(), value);
    return value;
  };
  std::vector<double> values;
  for (const std::string& item : split(text, ',')) {
    const auto fields = split(item, ':');
    if (fields.size() == 1) {
      values.push_back(number(fields[0]));
    } else if (fields.size() == 3) {
      const double lo = number(fields[0]), hi = number(fields[1]), step = number(fields[2]);
      if (!(step > 0.0) || hi < lo) throw InvalidArgument(argument, "needs ranges lo:hi:step with lo <= hi and step > 0, got '" + text + "'");
      const double count = std::floor((hi - lo) / step + 1e-9) + 1.0;
      if (count + static_cast<double>(values.size()) > kMaxListValues) {
        throw InvalidArgument(argument, "names more than " + std::to_string(kMaxListValues) + " values in '" + text + "'");
      }
      // Round to the decimals the user wrote, so 0.1:0.3:0.1 gives 0.3, not 0.30000000000000004.
      const auto decimals = [](const std::string& t) {
        const auto dot = t.find('.');
        return dot == std::string::npos || t.find_first_of("eE") != std::string::npos ? -1 : static_cast<int>(t.size() - dot - 1);
      };
      const int places = std::max(decimals(fields[0]), decimals(fields[2]));
      const double scale = places >= 0 && places <= 15 ? std::pow(10.0, places) : 0.0;
      for (int k = 0; k < static_cast<int>(count); ++k) {
        const double v = lo + k * step;
        values.push_back(scale > 0.0 ? std::round(v * scale) / scale : v);
      }
    } else if (fields.size() == 2) {
      throw InvalidArgument(argument, "needs a step in a range of real numbers, lo:hi:step such as '0.5:0.9:0.1', got '" +
                                          text + "'; it takes " + number_list_forms());
    } else {
      throw InvalidArgument(argument, "has a range with too many ':' in '" + text + "'; it takes " + number_list_forms());
    }
  }
  return values;
}

std::string format_seed_list(const std::vector<std::uint64_t>& seeds) {
  std::string out;
  for (std::size_t i = 0; i < seeds.size();) {
    std::size_t j = i;
    while (j + 1 < seeds.size() && seeds[j + 1] == seeds[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(seeds[i]);
    if (j > i) out += ":" + std::to_string(seeds[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace geomsim
