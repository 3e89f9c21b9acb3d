// The .npy reader: round trips through files written here in NumPy's byte layout, and a
// refusal, naming the file and the fault, of every malformed header.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/npy_array.hpp"

using namespace geomsim;

namespace {
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& bytes)
      : path((std::filesystem::temp_directory_path() / ("geomsim-npy-" + std::to_string(::getpid()) + ".npy")).string()) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

// A version 1.0 file with this header dictionary (padded as NumPy pads it) and data bytes.
std::string npy_with(const std::string& dict, const std::string& data, const std::string& version = std::string("\x01\x00", 2)) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = std::string("\x93NUMPY", 6) + version;
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string doubles(std::initializer_list<double> values) {
  std::string out(values.size() * 8, '\0');
  std::memcpy(&out[0], values.begin(), out.size());
  return out;
}
}  // namespace

TEST_CASE("npy arrays round-trip in float64, float32 and integers", "[support][npy]") {
  const TempFile f(npy_bytes({2, 3}, std::vector<double>{1, 2, 3, 4, 5, -6.5}));
  NpyHeader h;
  CHECK(read_npy_floats(f.path, "embeddings", h, "embeddings") == std::vector<double>{1, 2, 3, 4, 5, -6.5});
  CHECK(h.shape == std::vector<std::size_t>{2, 3});
  CHECK(h.descr == "<f8");
  const float f32[] = {0.5f, -1.25f};
  const TempFile g(npy_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", std::string(reinterpret_cast<const char*>(f32), 8)));
  CHECK(read_npy_floats(g.path, "embeddings", h, "embeddings") == std::vector<double>{0.5, -1.25});
  const TempFile i(npy_bytes({3}, std::vector<std::int64_t>{0, 7, -2}));
  CHECK(read_npy_integers(i.path, "labels", h) == std::vector<int>{0, 7, -2});
  const TempFile u(npy_with("{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", "\x05\xff"));
  CHECK(read_npy_integers(u.path, "labels", h) == std::vector<int>{5, 255});
  const TempFile s(npy_with("{'descr': '<i2', 'fortran_order': False, 'shape': (1,), }", "\xfe\xff"));
  CHECK(read_npy_integers(s.path, "labels", h) == std::vector<int>{-2});
  // Version 2.0 (4-byte header length) and an empty array.
  std::string v2 = npy_bytes({0, 4}, std::vector<double>{});
  v2 = std::string("\x93NUMPY\x02\x00", 8) + v2.substr(8, 2) + std::string(2, '\0') + v2.substr(10);
  const TempFile e(v2);
  CHECK(read_npy_floats(e.path, "embeddings", h, "embeddings").empty());
  CHECK(h.shape == std::vector<std::size_t>{0, 4});
}

TEST_CASE("Every malformed npy file is refused, saying what is wrong", "[support][npy]") {
  const std::string two = doubles({1, 2});
  const auto refused = [](const std::string& bytes, const std::string& message) {
    const TempFile f(bytes);
    NpyHeader h;
    CAPTURE(message);
    CHECK_THROWS_WITH(read_npy_floats(f.path, "embeddings", h, "embeddings"), Catch::StartsWith("embeddings " + f.path + ": ") && Catch::Contains(message));
    try {
      read_npy_floats(f.path, "embeddings", h, "embeddings");
    } catch (const InvalidArgument& error) {
      CHECK(error.argument() == "embeddings");
    }
  };
  const auto dict = [](const std::string& descr, const std::string& order, const std::string& shape) {
    return "{'descr': " + descr + ", 'fortran_order': " + order + ", 'shape': " + shape + ", }";
  };
  refused("not a numpy file at all", "is not a .npy file");
  refused(std::string("\x93NUMPY", 6), "is not a .npy file");
  refused(npy_with(dict("'<f8'", "False", "(2,)"), two, std::string("\x04\x00", 2)), "version 4.0");
  refused(npy_with(dict("'<f8'", "False", "(2,)"), two).substr(0, 40), "truncated inside its header");
  std::string no_newline = npy_with(dict("'<f8'", "False", "(2,)"), two);
  no_newline[no_newline.size() - 17] = ' ';
  refused(no_newline, "does not end in a newline");
  refused(npy_with("{'descr': '<f8', 'shape': (2,), }", two), "lacks the key 'fortran_order'");
  refused(npy_with("{'descr': '<f8', 'fortran_order': False, }", two), "lacks the key 'shape'");
  refused(npy_with(dict("'<f8'", "False", "(2,)") + "x", two), "has text after the header dictionary");
  refused(npy_with("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", two), "'descr' appears twice");
  refused(npy_with("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'extra': 1}", two), "unknown key 'extra'");
  refused(npy_with("{'descr': '<f8' 'fortran_order': False, 'shape': (2,)}", two), "malformed");
  refused(npy_with("{descr: '<f8', 'fortran_order': False, 'shape': (2,)}", two), "expected a key in quotes");
  refused(npy_with(dict("'<f8", "False", "(2,)"), two), "malformed");
  refused(npy_with(dict("'<f8'", "Maybe", "(2,)"), two), "'fortran_order' must be True or False");
  refused(npy_with(dict("'<f8'", "True", "(2,)"), two), "is in Fortran order");
  refused(npy_with(dict("'<f8'", "False", "(-2,)"), two), "'shape' must be a tuple of integers >= 0");
  refused(npy_with(dict("'<f8'", "False", "(2)"), two), "'shape' (n) is not a tuple");
  refused(npy_with(dict("'<f8'", "False", "[2]"), two), "expected '('");
  refused(npy_with(dict("'<f8'", "False", "(2.5,)"), two), "'shape' must be a tuple of integers");
  refused(npy_with(dict("'<f8'", "False", "(99999999999999999999999,)"), two), "overflows");
  refused(npy_with(dict("'<f8'", "False", "(4294967296, 4294967296)"), two), "has shape (4294967296, 4294967296), whose size overflows");
  // An empty array whose other dimension fits no index: refused with the shape the file states.
  refused(npy_with(dict("'<f8'", "False", "(0, 18446744073709551615)"), ""), "has shape (0, 18446744073709551615), whose size overflows");
  refused(npy_with(dict("'<f8'", "False", "(0, 4294967296, 4294967296)"), ""), "has shape (0, 4294967296, 4294967296), whose size overflows");
  refused(npy_with(dict("'<f8'", "False", "(1152921504606846976,)"), two), "whose size overflows");  // 2^60 items of 8 bytes
  refused(npy_with(dict("'<f8'", "False", "(1048576, 1048576)"), two), "is truncated: its shape (1048576, 1048576) needs 8796093022208 bytes");
  refused(npy_with(dict("'>f8'", "False", "(2,)"), two), "is big-endian");
  refused(npy_with(dict("'|O'", "False", "(2,)"), two), "holds Python objects");
  refused(npy_with(dict("[('a', '<f8')]", "False", "(2,)"), two), "structured dtype");
  refused(npy_with(dict("'<c16'", "False", "(1,)"), std::string(16, '\0')), "only float32, float64 and integer arrays");
  refused(npy_with(dict("'<U3'", "False", "(2,)"), std::string(24, 'a')), "only float32, float64 and integer arrays");
  refused(npy_with(dict("'<f2'", "False", "(2,)"), std::string(4, '\0')), "only float32, float64 and integers of 1, 2, 4 or 8 bytes");
  refused(npy_with(dict("'<i8'", "False", "(2,)"), std::string(16, '\0')), "embeddings must be float32 or float64");
  refused(npy_with(dict("'<f8'", "False", "(3,)"), two), "is truncated: its shape (3,) needs 24 bytes of data, the file holds 16");
  refused(npy_with(dict("'<f8'", "False", "(1,)"), two), "has 8 bytes after the data");
  std::string huge_header = npy_with(dict("'<f8'", "False", "(2,)"), two);
  huge_header[8] = '\xff';
  huge_header[9] = '\xff';
  refused(huge_header, "truncated inside its header");
  std::string control = npy_with(dict("'<f8'", "False", "(2,)"), two);
  control[20] = '\x01';
  refused(control, "not printable ASCII");
  NpyHeader h;
  const TempFile big(npy_with(dict("'<i8'", "False", "(1,)"), std::string("\x00\x00\x00\x00\x01\x00\x00\x00", 8)));
  CHECK_THROWS_WITH(read_npy_integers(big.path, "labels", h), Catch::Contains("label 4294967296 at index 0 is outside int"));
  // An unsigned 64-bit label above INT64_MAX (fuzz_npy's find: its message converted it to a
  // signed value, undefined behaviour), and small labels of every width and sign that fit.
  const TempFile huge(npy_with(dict("'<u8'", "False", "(2,)"), std::string("\x00\x00\x00\x00\x00\x00\x00\x00"
                                                                          "\xfd\xff\xff\xff\xff\xff\xff\xff", 16)));
  CHECK_THROWS_WITH(read_npy_integers(huge.path, "labels", h),
                    Catch::Contains("label 18446744073709551613 at index 1 is outside int"));
  const TempFile small(npy_with(dict("'|i1'", "False", "(3,)"), std::string("\x00\xff\x7f", 3)));
  CHECK(read_npy_integers(small.path, "labels", h) == std::vector<int>{0, -1, 127});
  const TempFile unsigned_small(npy_with(dict("'|u1'", "False", "(2,)"), std::string("\x00\xff", 2)));
  CHECK(read_npy_integers(unsigned_small.path, "labels", h) == std::vector<int>{0, 255});
  const TempFile floats(npy_bytes({2}, std::vector<double>{1, 2}));
  CHECK_THROWS_WITH(read_npy_integers(floats.path, "labels", h), Catch::Contains("labels must be an integer array"));
  CHECK_THROWS_WITH(read_npy_header("/no/such/file.npy", "labels"), Catch::Contains("cannot read /no/such/file.npy"));
}

TEST_CASE("npy files that are not regular files are refused unopened", "[support][npy]") {
  // A FIFO with no writer would block the open forever; /dev/zero would never end.
  const std::string fifo = (std::filesystem::temp_directory_path() / ("geomsim-npy-fifo-" + std::to_string(::getpid()))).string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  NpyHeader h;
  CHECK_THROWS_WITH(read_npy_floats(fifo, "embeddings", h, "embeddings"), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
  std::filesystem::remove(fifo);
  CHECK_THROWS_WITH(read_npy_integers("/dev/zero", "labels", h), Catch::Contains("/dev/zero is a character device"));
  CHECK_THROWS_WITH(read_npy_header(std::filesystem::temp_directory_path().string(), "labels"), Catch::Contains("is a directory"));
  CHECK(npy_shape_text({}) == "()");
  CHECK(npy_shape_text({5}) == "(5,)");
  CHECK(npy_shape_text({0, 2}) == "(0, 2)");
}
