#include "geomsim/support/number_lists.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

std::uint64_t parse_unsigned(const std::string& token, const std::string& whole, const std::string& argument) {
  std::uint64_t value = 0;
  const char* first = token.data();
  const char* last = first + token.size();
  const auto result = std::from_chars(first, last, value);
  if (token.empty() || result.ec != std::errc() || result.ptr != last) {
    throw InvalidArgument(argument, "must be non-negative integers as '0:4', '0:10:2' or '1,5,7', got '" + whole + "'");
  }
  return value;
}

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

}  // namespace

std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& argument) {
  constexpr std::size_t kMaxSeeds = 100000;
  std::vector<std::uint64_t> seeds;
  for (const std::string& item : split(text, ',')) {
    const auto fields = split(item, ':');
    if (fields.size() == 1) {
      seeds.push_back(parse_unsigned(fields[0], text, argument));
      continue;
    }
    if (fields.size() > 3) throw InvalidArgument(argument, "has a range with too many ':' in '" + text + "'");
    const std::uint64_t lo = parse_unsigned(fields[0], text, argument);
    const std::uint64_t hi = parse_unsigned(fields[1], text, argument);
    const std::uint64_t step = fields.size() == 3 ? parse_unsigned(fields[2], text, argument) : 1;
    if (hi < lo || step == 0) throw InvalidArgument(argument, "needs ranges lo:hi[:step] with lo <= hi and step >= 1, got '" + text + "'");
    if ((hi - lo) / step + seeds.size() >= kMaxSeeds) throw InvalidArgument(argument, "names more than " + std::to_string(kMaxSeeds) + " seeds");
    for (std::uint64_t s = lo;; s += step) {
      seeds.push_back(s);
      if (hi - s < step) break;
    }
  }
  return seeds;
}

std::vector<double> parse_number_list(const std::string& text, const std::string& argument) {
  constexpr std::size_t kMaxValues = 100000;
  const auto number = [&](const std::string& token) {
    double value = 0.0;
    const char* last = token.data() + token.size();
    const auto result = std::from_chars(token.data(), last, value);
    if (token.empty() || result.ec != std::errc() || result.ptr != last) {
      throw InvalidArgument(argument, "must be numbers as '0.5', '0.1,0.5' or '0.5:0.9:0.1', got '" + text + "'");
    }
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
      if (count + static_cast<double>(values.size()) > kMaxValues) throw InvalidArgument(argument, "names more than " + std::to_string(kMaxValues) + " values");
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
    } else {
      throw InvalidArgument(argument, "needs ranges as lo:hi:step, got '" + text + "'");
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

std::vector<int> parse_integer_list(const std::string& text, const std::string& argument, int lo, int hi) {
  std::vector<int> out;
  for (double v : parse_number_list(text, argument)) {
    if (v != std::floor(v) || v < lo || v > hi) {
      throw InvalidArgument(argument, "must be whole numbers in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                          "], got " + format_number(v));
    }
    out.push_back(static_cast<int>(v));
  }
  return out;
}

}  // namespace geomsim
