#pragma once
// The 64-bit FNV-1a hash (Fowler-Noll-Vo, offset basis 14695981039346656037, prime
// 1099511628211): a digest that names a value (a definition, a subset of rows) in a file, so that a
// later run can tell whether it changed. Not cryptographic.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace geomsim {

inline constexpr std::uint64_t kFnv1aOffsetBasis = 14695981039346656037ULL;

// The hash `h` continued over `bytes` (start from kFnv1aOffsetBasis).
inline std::uint64_t fnv1a_update(std::uint64_t h, std::string_view bytes) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// The hash as 16 lower-case hex digits.
inline std::string fnv1a_hex(std::uint64_t h) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

}  // namespace geomsim
