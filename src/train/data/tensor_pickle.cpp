#include "geomsim/train/data/tensor_pickle.hpp"

#include <cstdint>
#include <initializer_list>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

// How an opcode's argument is laid out in the stream (pickle protocols 0 to 5).
enum class Argument {
  none,
  fixed,     // `width` bytes
  counted,   // a little-endian length of `width` bytes, then that many bytes
  line,      // bytes up to a newline
  two_lines  // GLOBAL and INST: module and name, each up to a newline
};

struct Opcode {
  Argument argument = Argument::none;
  int width = 0;
  bool known = false;
  bool memo_put = false;  // BINPUT, LONG_BINPUT (explicit index) or MEMOIZE (the next index)
};

constexpr Opcode op(Argument argument, int width = 0, bool memo_put = false) { return {argument, width, true, memo_put}; }

struct OpcodeTable {
  Opcode code[256]{};
  constexpr Opcode& at(char c) { return code[static_cast<unsigned char>(c)]; }  // a char is signed here
  constexpr OpcodeTable() {
    for (const unsigned char c : std::initializer_list<unsigned char>{'(', '.', '0', '1', '2', 'N', ']', '}', ')', 'a', 'e', 's', 'u', 'b', 'R', 't', 'l', 'd', 'o',
                                  'Q', 0x81, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x97, 0x98}) {
      code[c] = op(Argument::none);
    }
    code[0x94] = op(Argument::none, 0, true);  // MEMOIZE
    code[0x80] = op(Argument::fixed, 1);       // PROTO
    code[0x95] = op(Argument::fixed, 8);       // FRAME
    at('K') = op(Argument::fixed, 1);        // BININT1
    at('M') = op(Argument::fixed, 2);        // BININT2
    at('J') = op(Argument::fixed, 4);        // BININT
    at('G') = op(Argument::fixed, 8);        // BINFLOAT
    at('h') = op(Argument::fixed, 1);        // BINGET
    at('j') = op(Argument::fixed, 4);        // LONG_BINGET
    at('q') = op(Argument::fixed, 1, true);  // BINPUT
    at('r') = op(Argument::fixed, 4, true);  // LONG_BINPUT
    code[0x82] = op(Argument::fixed, 1);       // EXT1
    code[0x83] = op(Argument::fixed, 2);       // EXT2
    code[0x84] = op(Argument::fixed, 4);       // EXT4
    code[0x8a] = op(Argument::counted, 1);     // LONG1
    code[0x8b] = op(Argument::counted, 4);     // LONG4
    at('U') = op(Argument::counted, 1);      // SHORT_BINSTRING
    at('T') = op(Argument::counted, 4);      // BINSTRING
    at('C') = op(Argument::counted, 1);      // SHORT_BINBYTES
    at('B') = op(Argument::counted, 4);      // BINBYTES
    code[0x8e] = op(Argument::counted, 8);     // BINBYTES8
    code[0x96] = op(Argument::counted, 8);     // BYTEARRAY8
    code[0x8c] = op(Argument::counted, 1);     // SHORT_BINUNICODE
    at('X') = op(Argument::counted, 4);      // BINUNICODE
    code[0x8d] = op(Argument::counted, 8);     // BINUNICODE8
    for (const unsigned char c : std::initializer_list<unsigned char>{'I', 'L', 'S', 'V', 'F', 'P', 'g'}) code[c] = op(Argument::line);
    at('p') = op(Argument::line, 0, true);  // PUT
    at('c') = op(Argument::two_lines);      // GLOBAL
    at('i') = op(Argument::two_lines);      // INST
  }
};
constexpr OpcodeTable kOpcodes;

}  // namespace

void check_tensor_pickle(std::string_view pickle, const std::string& path, const std::string& argument) {
  std::uint64_t at = 0, memo_size = 0;
  const auto fail = [&](std::uint64_t offset, const std::string& why) {
    throw InvalidArgument(argument, path + ": its pickle (data.pkl) is corrupt: " + why + " at byte " + std::to_string(offset) +
                                        " of " + std::to_string(pickle.size()));
  };
  const auto little_endian = [&](std::uint64_t offset, int width) {
    std::uint64_t value = 0;
    for (int k = width - 1; k >= 0; --k) value = (value << 8) | static_cast<unsigned char>(pickle[offset + static_cast<std::uint64_t>(k)]);
    return value;
  };
  const auto remaining = [&] { return static_cast<std::uint64_t>(pickle.size()) - at; };
  while (at < pickle.size()) {
    const std::uint64_t start = at;
    const auto byte = static_cast<unsigned char>(pickle[at++]);
    const Opcode& code = kOpcodes.code[byte];
    if (!code.known) fail(start, "byte " + std::to_string(byte) + " is not a pickle opcode");
    const auto width = static_cast<std::uint64_t>(code.width);
    switch (code.argument) {
      case Argument::none:
        break;
      case Argument::fixed:
        if (remaining() < width) fail(start, "an opcode's argument is cut short");
        if (code.memo_put) {
          const std::uint64_t index = little_endian(at, code.width);
          // Python's pickler numbers its memo 0, 1, 2, ...; libtorch grows its table to any index.
          if (index > memo_size) fail(start, "memo index " + std::to_string(index) + " skips past the " + std::to_string(memo_size) + " set");
          if (index == memo_size) ++memo_size;
        }
        at += width;
        break;
      case Argument::counted: {
        if (remaining() < width) fail(start, "a length field is cut short");
        const std::uint64_t length = little_endian(at, code.width);
        at += width;
        if (length > remaining()) {
          fail(start, "a length field claims " + std::to_string(length) + " bytes where " + std::to_string(remaining()) + " remain");
        }
        at += length;
        break;
      }
      case Argument::line:
      case Argument::two_lines:
        for (int line = 0; line < (code.argument == Argument::line ? 1 : 2); ++line) {
          const auto newline = pickle.find('\n', at);
          if (newline == std::string_view::npos) fail(start, "a text argument has no end of line");
          at = newline + 1;
        }
        if (code.memo_put) ++memo_size;
        break;
    }
    if (code.memo_put && code.argument == Argument::none) ++memo_size;  // MEMOIZE
    if (byte == '.') {
      if (at != pickle.size()) fail(start, "STOP comes before the pickle's last byte");
      return;
    }
  }
  fail(at, "the pickle ends without STOP");
}

}  // namespace geomsim::train
