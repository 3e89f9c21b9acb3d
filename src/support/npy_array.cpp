#include "geomsim/support/npy_array.hpp"

#include <cstring>
#include <fstream>
#include <limits>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/memory_budget.hpp"

namespace geomsim {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLength = 6;
constexpr std::size_t kMaxHeader = 1 << 20;  // NumPy's own headers are a few hundred bytes

// A recursive-descent reader of the Python literal dictionary in the header.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path, const std::string& argument)
      : text_(text), path_(path), argument_(argument) {}

  void parse(NpyHeader& h) {
    bool have_descr = false, have_order = false, have_shape = false, fortran = false;
    skip_space();
    expect('{');
    skip_space();
    while (!at('}')) {
      const std::string key = string_literal("a key");
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        if (have_descr) fail("the key 'descr' appears twice");
        if (at('[')) fail("has a structured dtype (a list of fields); only plain numeric arrays are read");
        h.descr = string_literal("the dtype string of 'descr'");
        have_descr = true;
      } else if (key == "fortran_order") {
        if (have_order) fail("the key 'fortran_order' appears twice");
        if (word("True")) {
          fortran = true;
        } else if (!word("False")) {
          fail("'fortran_order' must be True or False");
        }
        have_order = true;
      } else if (key == "shape") {
        if (have_shape) fail("the key 'shape' appears twice");
        h.shape = shape_tuple();
        have_shape = true;
      } else {
        fail("has an unknown key '" + key + "' (a .npy header holds 'descr', 'fortran_order' and 'shape')");
      }
      skip_space();
      if (at(',')) {
        ++pos_;
        skip_space();
      } else if (!at('}')) {
        fail("the header dictionary is malformed at byte " + std::to_string(pos_));
      }
    }
    ++pos_;
    skip_space();
    if (pos_ != text_.size()) fail("has text after the header dictionary");
    if (!have_descr || !have_order || !have_shape) {
      fail(std::string("the header lacks the key '") + (!have_descr ? "descr" : !have_order ? "fortran_order" : "shape") + "'");
    }
    if (fortran) fail("is in Fortran order; save a C-order array (numpy.ascontiguousarray) instead");
    dtype(h);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw InvalidArgument(argument_, path_ + ": " + why); }
  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  void expect(char c) {
    if (!at(c)) fail(std::string("the header dictionary is malformed: expected '") + c + "' at byte " + std::to_string(pos_));
    ++pos_;
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n')) ++pos_;
  }
  bool word(const char* w) {
    const std::size_t n = std::strlen(w);
    if (text_.compare(pos_, n, w) != 0) return false;
    pos_ += n;
    return true;
  }
  std::string string_literal(const char* what) {
    if (!at('\'') && !at('"')) fail(std::string("the header dictionary is malformed: expected ") + what + " in quotes at byte " + std::to_string(pos_));
    const char quote = text_[pos_++];
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string::npos) fail("the header dictionary has an unterminated string");
    std::string s = text_.substr(pos_, end - pos_);
    if (s.find('\\') != std::string::npos) fail("the header has an escaped string, which NumPy never writes");
    pos_ = end + 1;
    return s;
  }
  std::vector<std::size_t> shape_tuple() {
    std::vector<std::size_t> shape;
    expect('(');
    skip_space();
    bool trailing_comma = false;
    while (!at(')')) {
      if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '9') {
        fail("'shape' must be a tuple of integers >= 0; found '" + text_.substr(pos_, 12) + "'");
      }
      std::size_t value = 0;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        const auto digit = static_cast<std::size_t>(text_[pos_++] - '0');
        if (value > (std::numeric_limits<std::size_t>::max() - digit) / 10) fail("a dimension of 'shape' overflows");
        value = value * 10 + digit;
      }
      if (at('L')) ++pos_;  // Python 2's long suffix
      shape.push_back(value);
      skip_space();
      trailing_comma = at(',');
      if (trailing_comma) {
        ++pos_;
        skip_space();
      } else if (!at(')')) {
        fail("'shape' must be a tuple of integers >= 0; found '" + text_.substr(pos_, 12) + "'");
      }
    }
    if (shape.size() == 1 && !trailing_comma) fail("'shape' (n) is not a tuple; NumPy writes (n,)");
    ++pos_;
    return shape;
  }
  void dtype(NpyHeader& h) const {
    const std::string& d = h.descr;
    if (d.size() >= 2 && d[1] == 'O') fail("holds Python objects (dtype '" + d + "'), not numbers; save a float or integer array");
    if (d.size() < 3) fail("dtype '" + d + "' is not a numeric dtype NumPy writes");
    const char order = d[0], kind = d[1];
    std::size_t size = 0;
    for (std::size_t k = 2; k < d.size(); ++k) {
      if (d[k] < '0' || d[k] > '9' || size > 64) fail("dtype '" + d + "' is not a numeric dtype NumPy writes");
      size = size * 10 + static_cast<std::size_t>(d[k] - '0');
    }
    if (kind == 'O') fail("holds Python objects (dtype '" + d + "'), not numbers; save a float or integer array");
    if (kind != 'f' && kind != 'i' && kind != 'u') {
      fail("has dtype '" + d + "'; only float32, float64 and integer arrays are read");
    }
    const bool valid_size = kind == 'f' ? (size == 4 || size == 8) : (size == 1 || size == 2 || size == 4 || size == 8);
    if (!valid_size) fail("has dtype '" + d + "'; only float32, float64 and integers of 1, 2, 4 or 8 bytes are read");
    if (order == '>' && size > 1) fail("is big-endian (dtype '" + d + "'); save it little-endian (array.astype('<" + d.substr(1) + "'))");
    if (order != '<' && order != '|' && order != '=' && order != '>') fail("dtype '" + d + "' has no byte order NumPy writes");
    h.kind = kind;
    h.item_size = size;
  }

  const std::string& text_;
  const std::string& path_;
  const std::string& argument_;
  std::size_t pos_ = 0;
};

std::uint32_t little_endian(const unsigned char* bytes, std::size_t count) {
  std::uint32_t v = 0;
  for (std::size_t k = count; k-- > 0;) v = (v << 8) | bytes[k];
  return v;
}

std::string header_bytes(const std::string& descr, const std::vector<std::size_t>& shape) {
  std::string dims;
  for (std::size_t k = 0; k < shape.size(); ++k) dims += (k ? ", " : "") + std::to_string(shape[k]);
  if (shape.size() == 1) dims += ",";
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t unpadded = kMagicLength + 2 + 2 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicLength);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>((dict.size() >> 8) & 0xff);
  return out + dict;
}

template <class T>
std::string npy_of(const std::string& descr, const std::vector<std::size_t>& shape, const std::vector<T>& values) {
  std::string out = header_bytes(descr, shape);
  const std::size_t start = out.size();
  out.resize(start + values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(&out[start], values.data(), values.size() * sizeof(T));  // little-endian machine
  return out;
}

// The data bytes of a checked header.
std::vector<unsigned char> read_data(const std::string& path, const std::string& argument, const NpyHeader& h, double extra_bytes,
                                     const std::string& what) {
  const double bytes = static_cast<double>(h.count()) * static_cast<double>(h.item_size);
  require_memory(argument, bytes + extra_bytes, what + " of " + path);
  InputFile file = open_regular_file(path, argument, kNoSizeLimit, ".npy file");
  std::vector<unsigned char> data(h.count() * h.item_size);
  if (file.size != h.data_offset + data.size()) throw InvalidArgument(argument, path + ": changed while it was read");
  file.stream.seekg(static_cast<std::streamoff>(h.data_offset));
  if (!data.empty()) file.stream.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()));
  if (!file.stream) throw InvalidArgument(argument, path + ": cannot read the data");
  return data;
}

}  // namespace

std::size_t NpyHeader::count() const {
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  return n;
}

NpyHeader read_npy_header(const std::string& path, const std::string& argument) {
  const auto fail = [&](const std::string& why) { throw InvalidArgument(argument, path + ": " + why); };
  // A regular file only (a FIFO would block, /dev/zero never ends); its size bounds every read.
  InputFile file = open_regular_file(path, argument, kNoSizeLimit, ".npy file");
  std::ifstream& in = file.stream;
  const auto file_size = static_cast<std::size_t>(file.size);
  unsigned char prefix[12] = {};
  in.read(reinterpret_cast<char*>(prefix), std::min<std::streamsize>(12, static_cast<std::streamsize>(file_size)));
  if (file_size < 10 || std::memcmp(prefix, kMagic, kMagicLength) != 0) fail("is not a .npy file (it must start with \\x93NUMPY)");
  const int major = prefix[6], minor = prefix[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    fail("has .npy format version " + std::to_string(major) + "." + std::to_string(minor) + "; versions 1.0, 2.0 and 3.0 are read");
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (file_size < 8 + length_bytes) fail("is truncated inside its header");
  const std::size_t header_length = little_endian(prefix + 8, length_bytes);
  NpyHeader h;
  h.data_offset = 8 + length_bytes + header_length;
  if (header_length > kMaxHeader) fail("declares a " + std::to_string(header_length) + "-byte header, more than NumPy ever writes");
  if (file_size < h.data_offset) fail("is truncated inside its header");
  std::string text(header_length, '\0');
  in.seekg(static_cast<std::streamoff>(8 + length_bytes));
  in.read(text.data(), static_cast<std::streamsize>(header_length));
  if (!in) fail("cannot be read");
  if (text.empty() || text.back() != '\n') fail("has a header that does not end in a newline");
  for (char c : text) {
    if (static_cast<unsigned char>(c) > 127 || (c < ' ' && c != '\n')) fail("has a header that is not printable ASCII");
  }
  HeaderParser(text, path, argument).parse(h);
  // The size the shape states, as NumPy bounds it: the product of its nonzero dimensions and the
  // item size must fit a signed 64-bit size (an array of shape (0, 2^64 - 1) holds nothing, but
  // no NumPy makes one, and its dimensions fit no index). Checked exactly, before anything is
  // allocated, then against what the file holds.
  std::uint64_t nonzero_bytes = h.item_size;
  bool empty = false;
  for (std::size_t dimension : h.shape) {
    if (dimension == 0) {
      empty = true;
      continue;
    }
    if (nonzero_bytes > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / dimension) {
      fail("has shape " + npy_shape_text(h.shape) + ", whose size overflows (no NumPy array has it)");
    }
    nonzero_bytes *= dimension;
  }
  const std::uint64_t promised = empty ? 0 : nonzero_bytes;
  const std::size_t body = file_size - h.data_offset;
  if (promised > body) {
    fail("is truncated: its shape " + npy_shape_text(h.shape) + " needs " + std::to_string(promised) + " bytes of data, the file holds " +
         std::to_string(body));
  }
  if (promised < body) fail("has " + std::to_string(body - promised) + " bytes after the data its shape " + npy_shape_text(h.shape) + " describes");
  return h;
}

std::string npy_shape_text(const std::vector<std::size_t>& shape) {
  std::string out = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

std::vector<double> read_npy_floats(const std::string& path, const std::string& argument, NpyHeader& h, const std::string& what) {
  h = read_npy_header(path, argument);
  if (h.kind != 'f') throw InvalidArgument(argument, path + ": has dtype '" + h.descr + "'; " + what + " must be float32 or float64");
  const std::vector<unsigned char> data = read_data(path, argument, h, 8.0 * static_cast<double>(h.count()), what);
  std::vector<double> out(h.count());
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (h.item_size == 4) {
      float v;
      std::memcpy(&v, &data[4 * k], 4);
      out[k] = v;
    } else {
      std::memcpy(&out[k], &data[8 * k], 8);
    }
  }
  return out;
}

std::vector<int> read_npy_integers(const std::string& path, const std::string& argument, NpyHeader& h) {
  h = read_npy_header(path, argument);
  if (h.kind == 'f') throw InvalidArgument(argument, path + ": has dtype '" + h.descr + "'; labels must be an integer array");
  const std::vector<unsigned char> data = read_data(path, argument, h, 4.0 * static_cast<double>(h.count()), "labels");
  std::vector<int> out(h.count());
  for (std::size_t k = 0; k < out.size(); ++k) {
    const unsigned char* p = &data[k * h.item_size];
    std::uint64_t u = 0;
    for (std::size_t b = h.item_size; b-- > 0;) u = (u << 8) | p[b];
    // The label as its own type says, in the message too: an unsigned 64-bit label above
    // INT64_MAX has no signed value (converting it was undefined, found by fuzz_npy).
    std::string shown;
    std::int64_t label = 0;
    bool fits = false;
    if (h.kind == 'u') {
      shown = std::to_string(u);
      fits = u <= static_cast<std::uint64_t>(std::numeric_limits<int>::max());
      if (fits) label = static_cast<std::int64_t>(u);
    } else {
      const unsigned bits = static_cast<unsigned>(8 * h.item_size);
      if (bits < 64 && (u >> (bits - 1)) != 0) u |= ~std::uint64_t{0} << bits;  // sign-extend
      std::memcpy(&label, &u, 8);
      shown = std::to_string(label);
      fits = label >= std::numeric_limits<int>::min() && label <= std::numeric_limits<int>::max();
    }
    if (!fits) throw InvalidArgument(argument, path + ": label " + shown + " at index " + std::to_string(k) + " is outside int");
    out[k] = static_cast<int>(label);
  }
  return out;
}

std::string npy_bytes(const std::vector<std::size_t>& shape, const std::vector<double>& values) { return npy_of("<f8", shape, values); }
std::string npy_bytes(const std::vector<std::size_t>& shape, const std::vector<std::int64_t>& values) {
  return npy_of("<i8", shape, values);
}

}  // namespace geomsim
