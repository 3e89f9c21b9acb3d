// IDX and CIFAR readers: round trips through files written here (plain and gzipped), every
// corruption refused with the file named, and the real Fashion-MNIST.
#include <boost/iostreams/copy.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_streambuf.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/image_files.hpp"

using namespace geomsim;
using namespace geomsim::train;
namespace fs = std::filesystem;

namespace {
std::string idx_bytes(std::vector<std::uint32_t> shape, const std::vector<std::uint8_t>& data) {
  std::string out{'\0', '\0', '\x08', static_cast<char>(shape.size())};
  for (auto d : shape) {
    for (int k = 3; k >= 0; --k) out += static_cast<char>((d >> (8 * k)) & 0xff);
  }
  out.append(data.begin(), data.end());
  return out;
}
std::string gzip(const std::string& raw) {
  std::istringstream in(raw);
  boost::iostreams::filtering_streambuf<boost::iostreams::input> zip;
  zip.push(boost::iostreams::gzip_compressor());
  zip.push(in);
  std::ostringstream out;
  boost::iostreams::copy(zip, out);
  return out.str();
}
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("geomsim-idx-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path / name, std::ios::binary) << bytes;
    return (path / name).string();
  }
};
}  // namespace

TEST_CASE("IDX files round-trip, gzipped or not", "[train][data]") {
  const TempDir dir;
  std::vector<std::uint8_t> pixels(3 * 2 * 2);
  for (std::size_t k = 0; k < pixels.size(); ++k) pixels[k] = static_cast<std::uint8_t>(k * 20);
  const std::string images = idx_bytes({3, 2, 2}, pixels), labels = idx_bytes({3}, {7, 0, 9});
  for (bool zipped : {false, true}) {
    const auto img = dir.write(zipped ? "i.gz" : "i", zipped ? gzip(images) : images);
    const auto lab = dir.write(zipped ? "l.gz" : "l", zipped ? gzip(labels) : labels);
    const LabelledImages data = read_idx_pair(img, lab, "data");
    CHECK(data.images.shape == std::vector<std::uint32_t>{3, 2, 2});
    CHECK(data.images.count() == 3);
    CHECK(data.images.item_size() == 4);
    CHECK(data.images.data == pixels);
    CHECK(data.labels == std::vector<int>{7, 0, 9});
  }
}

TEST_CASE("Corrupt IDX files are refused with the file named", "[train][data][errors]") {
  const TempDir dir;
  const std::string good = idx_bytes({2, 2}, {1, 2, 3, 4});
  const auto expect = [&](const std::string& name, const std::string& bytes, const std::string& why) {
    const auto path = dir.write(name, bytes);
    CHECK_THROWS_WITH(read_idx(path, "data"), Catch::Contains(path) && Catch::Contains(why));
  };
  expect("magic", std::string("\x01\x00\x08\x01", 4) + good.substr(4), "not an IDX file");
  expect("type", std::string("\x00\x00\x0d\x02", 4) + good.substr(4), "not supported");
  expect("short-header", good.substr(0, 6), "truncated inside its header");
  expect("truncated", good.substr(0, good.size() - 1), "truncated: the header promises 4 bytes");
  expect("trailing", good + "x", "1 bytes after the data");
  expect("bad-gzip", gzip(good).substr(0, 15), "corrupt or truncated gzip");
  CHECK_THROWS_WITH(read_idx((dir.path / "missing").string(), "data"), Catch::Contains("cannot read"));
  // Sizes that are not data: a zero dimension, a shape whose product overflows 64 bits, a shape
  // larger than memory.
  expect("zero", idx_bytes({3, 0, 28}, {}), "has a dimension of size 0 (shape 3 x 0 x 28)");
  const std::string huge = std::string("\x00\x00\x08\x04", 4) + std::string(16, '\xff');
  expect("overflow", huge, "whose size overflows");
  expect("too-large", std::string("\x00\x00\x08\x03\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00", 16),
         "the header promises 281474976710656 bytes, the file holds 0");
  // A gzip bomb: a valid 2 x 2 header followed by 64 MB of zeros that compress to 64 kB. It is
  // refused after inflating 5 bytes past the data, not 64 MB.
  expect("bomb.gz", gzip(good + std::string(64 << 20, '\0')), "more bytes after the data the header describes");
  const auto img = dir.write("img", idx_bytes({2, 1, 1}, {1, 2}));
  const auto lab = dir.write("lab", idx_bytes({3}, {1, 2, 3}));
  CHECK_THROWS_WITH(read_idx_pair(img, lab, "data"), Catch::Contains("holds 2 images but") && Catch::Contains("3 labels"));
}

TEST_CASE("IDX and CIFAR claims are checked against the file's size before anything is allocated", "[train][data][errors]") {
  const TempDir dir;
  const auto refused = [&](const std::string& name, const std::string& bytes, const std::string& why) {
    const auto path = dir.write(name, bytes);
    CHECK_THROWS_WITH(read_idx(path, "images"), Catch::Contains(path) && Catch::Contains(why));
  };
  // The fuzzer's reproducers: a tiny gzip whose header claims 1 x 2 450 484 834 bytes (2.45 GB),
  // and a 16-byte raw header that claims 3 x 1000 x 1 000 000 (3 GB). Neither is allocated.
  const std::string lying_gzip = gzip(idx_bytes({1, 2450484834u}, {}));
  refused("claim.gz", lying_gzip, "whose header promises 2450484834 bytes (shape 1 x 2450484834), more than the 1032 times its size");
  refused("claim.idx", idx_bytes({3, 1000, 1000000}, {}), "is truncated: the header promises 3000000000 bytes, the file holds 0");
  // A gzip stream whose claim is plausible for its size but which holds less: the buffer grows
  // only with the bytes that arrive, and the shortfall is named.
  refused("short.gz", gzip(idx_bytes({1, 30000}, std::vector<std::uint8_t>(100, 7))), "is truncated: the header promises 30000 bytes, the file holds 100");
  // Not regular files: refused at once, never opened (a FIFO would block, /dev/zero never ends).
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_idx(fifo, "images"), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
  CHECK_THROWS_WITH(read_idx("/dev/zero", "images"), Catch::Contains("is a character device; only regular files are read"));
  // A label file's fault names the option that gave it.
  const auto one_image = dir.write("one", idx_bytes({1, 1, 1}, {0}));
  CHECK_THROWS_MATCHES(read_idx_pair(one_image, fifo, "images", "labels"), InvalidArgument,
                       Catch::Predicate<InvalidArgument>([](const InvalidArgument& e) { return e.argument() == "labels"; }, "names --labels"));
  CHECK_THROWS_WITH(read_cifar_binary({fifo}, 1, 0, "cifar"), Catch::Contains("is a FIFO (named pipe)"));
  CHECK_THROWS_WITH(read_cifar_binary({"/dev/zero"}, 1, 0, "cifar"), Catch::Contains("is a character device"));
  // CIFAR batches may be gzipped: read whole, then checked as records.
  std::string record(1 + 3072, '\0');
  record[0] = 4;
  const auto zipped = dir.write("batch.bin.gz", gzip(record + record));
  CHECK(read_cifar_binary({zipped}, 1, 0, "cifar").labels == std::vector<int>{4, 4});
  const auto cut = dir.write("cut.bin.gz", gzip(record).substr(0, 30));
  CHECK_THROWS_WITH(read_cifar_binary({cut}, 1, 0, "cifar"), Catch::Contains("corrupt or truncated gzip"));
}

TEST_CASE("CIFAR binary records are read and checked", "[train][data]") {
  const TempDir dir;
  std::string record(2 + 3072, '\0');
  record[0] = 3;   // coarse
  record[1] = 42;  // fine
  record[2] = 9;   // first pixel
  const auto path = dir.write("batch.bin", record + record);
  const LabelledImages coarse = read_cifar_binary({path}, 2, 0, "data");
  CHECK(coarse.labels == std::vector<int>{3, 3});
  CHECK(coarse.images.shape == std::vector<std::uint32_t>{2, 3, 32, 32});
  CHECK(coarse.images.data[0] == 9);
  CHECK(read_cifar_binary({path}, 2, 1, "data").labels == std::vector<int>{42, 42});
  CHECK_THROWS_WITH(read_cifar_binary({path}, 1, 0, "data"), Catch::Contains("not a whole number of 3073-byte"));
}

namespace {
// A CIFAR record in the binary version's layout: label byte(s), then 1024 red, 1024 green and
// 1024 blue bytes, each plane row-major. The pixels encode (record, channel, row, column).
std::string cifar_record(std::vector<int> labels, int record) {
  std::string r;
  for (int l : labels) r += static_cast<char>(l);
  for (int c = 0; c < 3; ++c) {
    for (int y = 0; y < 32; ++y) {
      for (int x = 0; x < 32; ++x) r += static_cast<char>((record * 7 + c * 50 + y * 3 + x) % 256);
    }
  }
  return r;
}
}  // namespace

TEST_CASE("CIFAR-10 and CIFAR-100 folders round-trip in the real byte layout, and truncated batches are refused", "[train][data]") {
  SECTION("CIFAR-10: five training batches and a test batch, in cifar-10-batches-bin") {
    const TempDir dir;
    fs::create_directory(dir.path / "cifar-10-batches-bin");
    for (int b = 1; b <= 5; ++b) dir.write("cifar-10-batches-bin/data_batch_" + std::to_string(b) + ".bin", cifar_record({b}, b) + cifar_record({9}, 10 + b));
    dir.write("cifar-10-batches-bin/test_batch.bin", cifar_record({0}, 99));
    const CifarData train = load_cifar(dir.path.string(), true);
    CHECK(train.kind == "cifar-10");
    CHECK(train.data.labels == std::vector<int>{1, 9, 2, 9, 3, 9, 4, 9, 5, 9});
    CHECK(train.data.images.shape == std::vector<std::uint32_t>{10, 3, 32, 32});
    // Record 2 (batch 2's first), channel 1 (green), row 4, column 5.
    CHECK(train.data.images.data[2 * 3072 + 1 * 1024 + 4 * 32 + 5] == (2 * 7 + 50 + 12 + 5) % 256);
    const CifarData test = load_cifar((dir.path / "cifar-10-batches-bin").string(), false);
    CHECK(test.data.labels == std::vector<int>{0});
    // A batch cut short, or one record of another size, is refused.
    const std::string whole = cifar_record({3}, 1);
    dir.write("cifar-10-batches-bin/data_batch_3.bin", whole + whole.substr(0, 3000));
    CHECK_THROWS_WITH(load_cifar(dir.path.string(), true), Catch::Contains("data_batch_3.bin: 6073 bytes is not a whole number of 3073-byte CIFAR records"));
    dir.write("cifar-10-batches-bin/data_batch_3.bin", whole + "x");
    CHECK_THROWS_WITH(load_cifar(dir.path.string(), true), Catch::Contains("is not a whole number of 3073-byte"));
    // CIFAR-100's 3074-byte records in a CIFAR-10 folder: whole records of neither size, or labels out of range.
    dir.write("cifar-10-batches-bin/data_batch_3.bin", std::string(3073, '\x30'));
    CHECK_THROWS_WITH(load_cifar(dir.path.string(), true), Catch::Contains("has label 48; CIFAR-10's labels are 0..9"));
  }
  SECTION("CIFAR-100: train.bin and test.bin with coarse and fine labels") {
    const TempDir dir;
    // apple (0) is fruit_and_vegetables (4), worm (99) is non-insect_invertebrates (13).
    dir.write("train.bin", cifar_record({4, 0}, 0) + cifar_record({13, 99}, 1));
    dir.write("test.bin", cifar_record({13, 99}, 2));
    const CifarData train = load_cifar(dir.path.string(), true);
    CHECK(train.kind == "cifar-100");
    CHECK(train.data.labels == std::vector<int>{0, 99});
    CHECK(train.data.other_labels == std::vector<int>{4, 13});
    CHECK(load_cifar(dir.path.string(), false).data.labels == std::vector<int>{99});
    dir.write("train.bin", cifar_record({4, 0}, 0) + cifar_record({12, 99}, 1));
    CHECK_THROWS_WITH(load_cifar(dir.path.string(), true), Catch::Contains("record 1 has coarse label 12 and fine label 99, which CIFAR-100 never pairs"));
    dir.write("train.bin", cifar_record({4, 0}, 0).substr(0, 3000));
    CHECK_THROWS_WITH(load_cifar(dir.path.string(), true), Catch::Contains("3000 bytes is not a whole number of 3074-byte CIFAR records"));
  }
  const TempDir empty;
  CHECK_THROWS_WITH(load_cifar(empty.path.string(), true), Catch::Contains("https://www.cs.toronto.edu/~kriz/cifar.html"));
}

TEST_CASE("Fashion-MNIST from the Debian package", "[train][data][fashion-mnist]") {
  // .ci/install-deps installs dataset-fashion-mnist, so this reads the real files.
  const LabelledImages test = load_fashion_mnist(kFashionMnistDir, false);
  CHECK(test.images.shape == std::vector<std::uint32_t>{10000, 28, 28});
  std::vector<int> counts(10, 0);
  for (int y : test.labels) ++counts[static_cast<std::size_t>(y)];
  CHECK(counts == std::vector<int>(10, 1000));
  CHECK(load_fashion_mnist(kFashionMnistDir, true).labels.size() == 60000);
  CHECK_THROWS_WITH(load_fashion_mnist("/nonexistent", true), Catch::Contains("install dataset-fashion-mnist"));
}
