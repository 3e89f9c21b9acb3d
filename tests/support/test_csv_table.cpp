// CSV tables of numbers (--embeddings x.csv, --labels x.csv): read as a stream from regular files
// only, refused at the first wrong byte or field.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "geomsim/support/csv_table.hpp"
#include "geomsim/support/errors.hpp"

using namespace geomsim;
namespace fs = std::filesystem;

namespace {
struct Folder {
  fs::path path = fs::temp_directory_path() / ("geomsim-csv-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
  std::string file(const std::string& name, const std::string& bytes) const {
    const std::string p = (path / name).string();
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
};
}  // namespace

TEST_CASE("A CSV of numbers reads with or without a header, blank lines and spaces allowed", "[support][csv]") {
  const Folder folder;
  const NumericTable plain = read_numeric_csv(folder.file("a.csv", "1, 2\n\n 3 ,4.5\r\n"), "embeddings");
  CHECK(plain.header.empty());
  CHECK(plain.rows == 2);
  CHECK(plain.columns == 2);
  CHECK(plain.values == std::vector<double>{1, 2, 3, 4.5});
  const NumericTable named = read_numeric_csv(folder.file("b.csv", "label,subclass\n0,1\n1,3"), "labels");
  CHECK(named.header == std::vector<std::string>{"label", "subclass"});
  CHECK(named.rows == 2);
  CHECK(integer_column(named, "subclass", "b.csv", "labels") == std::vector<int>{1, 3});
  CHECK(integer_column(named, "0", "b.csv", "labels") == std::vector<int>{0, 1});
}

TEST_CASE("A CSV that is not a table of numbers is refused where it goes wrong", "[support][csv]") {
  const Folder folder;
  const auto refused = [&](const std::string& bytes, const std::string& message) {
    CHECK_THROWS_WITH(read_numeric_csv(folder.file("x.csv", bytes), "embeddings"), Catch::Contains(message));
  };
  refused("1,2\n3\n", "x.csv: line 2 has 1 fields, the first line 2");
  refused("1,2\n3,4,5\n", "line 2 has more than 2 fields, the first line 2");
  refused("1,2\n3,x\n", "line 2, column 2: 'x' is not a number");
  refused("1,2\n3,\n", "line 2, column 2: '' is not a number");
  refused("1,2\n3,inf\n", "line 2, column 2 is not finite ('inf')");
  refused("a,b\n", "holds no rows of numbers");
  refused("", "holds no rows of numbers");
  // Not text: refused at the first control byte, whatever follows (a sparse file of zeros).
  refused(std::string("1,2\n\0\0\0", 7), "byte 4 (line 2) is the control character 0x00; a CSV file is text");
  refused(std::string(1 << 20, '\0'), "byte 0 (line 1) is the control character 0x00");
  // A field longer than any number or name is refused when it passes the bound, not held.
  refused(std::string(1 << 20, '7'), "line 1, column 1 holds a field of more than 1024 bytes");
}

TEST_CASE("A CSV that is not a regular file is refused unopened", "[support][csv]") {
  const Folder folder;
  const std::string fifo = (folder.path / "fifo.csv").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: an open for reading would block
  CHECK_THROWS_WITH(read_numeric_csv(fifo, "labels"), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
  CHECK_THROWS_WITH(read_numeric_csv("/dev/zero", "embeddings"), Catch::Contains("/dev/zero is a character device"));
  CHECK_THROWS_WITH(read_numeric_csv((folder.path / "none.csv").string(), "labels"), Catch::Contains("cannot read"));
}
