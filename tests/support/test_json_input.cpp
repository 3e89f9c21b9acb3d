// JSON from a user: parsed with its nesting bounded (a value 100 000 levels deep would overflow
// the stack wherever it is later dumped or walked), and shown in messages as bounded excerpts.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"

using namespace geomsim;
using nlohmann::json;

namespace {
std::string nested(int depth) { return "{\"0\": " + std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']') + "}"; }
}  // namespace

TEST_CASE("parse_json_input bounds the nesting and names the argument and the source", "[support][json]") {
  CHECK(parse_json_input(R"({"a": [1, {"b": null}]})", "sim", "a.json") == json::parse(R"({"a": [1, {"b": null}]})"));
  // 64 levels in all are read (the object and 63 arrays); 65 are not.
  CHECK_NOTHROW(parse_json_input(nested(kMaxJsonDepth - 1), "sim", "a.json"));
  CHECK_THROWS_WITH(parse_json_input(nested(kMaxJsonDepth), "sim", "a.json"),
                    Catch::Contains("a.json nests arrays or objects more than 64 levels deep"));
  try {
    parse_json_input(nested(100000), "hierarchy", "deep.json");  // the fuzzer's reproducer
    FAIL("a value 100 000 levels deep was accepted");
  } catch (const InvalidArgument& error) {
    CHECK(error.argument() == "hierarchy");
    CHECK_THAT(error.requirement(), Catch::StartsWith("deep.json nests arrays or objects more than 64 levels deep"));
  }
  CHECK_THROWS_WITH(parse_json_input("[[1]]", "sim", "a.json", nullptr, 1), Catch::Contains("more than 1 levels deep"));
  // Invalid JSON: the parser's words, shortened even when the offending token is long.
  CHECK_THROWS_WITH(parse_json_input(R"({"a": 1)", "sim", "a.json"), Catch::Contains("a.json is not valid JSON (") && Catch::Contains("parse error"));
  try {
    parse_json_input("\"" + std::string(1 << 20, 'x'), "sim", "a.json");  // an unterminated string of 1 MB
    FAIL("an unterminated string was accepted");
  } catch (const InvalidArgument& error) {
    CHECK(error.requirement().size() < 400);
  }
}

TEST_CASE("parse_json_input composes a caller's callback after the depth check", "[support][json]") {
  // The label hierarchy's watch for duplicate keys (nlohmann keeps the last of two silently).
  std::set<std::string> keys;
  std::string duplicate;
  const json::parser_callback_t watch = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && !keys.insert(parsed.get<std::string>()).second) duplicate = parsed.get<std::string>();
    return true;
  };
  parse_json_input(R"({"1": 0, "2": 1, "1": 1})", "hierarchy", "h.json", watch);
  CHECK(duplicate == "1");
  // What the callback returns still decides what is kept.
  const json::parser_callback_t drop_b = [](int, json::parse_event_t event, json& parsed) {
    return !(event == json::parse_event_t::key && parsed == "b");
  };
  CHECK(parse_json_input(R"({"a": 1, "b": 2})", "x", "x.json", drop_b) == json::parse(R"({"a": 1})"));
  // The depth bound holds with a callback that would keep everything.
  CHECK_THROWS_WITH(parse_json_input(nested(1000), "hierarchy", "h.json", watch), Catch::Contains("more than 64 levels deep"));
}

TEST_CASE("read_json_file reads regular files only, bounded by size", "[support][json]") {
  const auto dir = std::filesystem::temp_directory_path() / ("geomsim-json-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string ok = (dir / "ok.json").string(), fifo = (dir / "fifo.json").string();
  std::ofstream(ok) << R"({"name": "ok"})";
  CHECK(read_json_file(ok, "sim").at("name") == "ok");
  CHECK_THROWS_WITH(read_json_file(ok, "sim", 4, "sims definition"), Catch::Contains("more than the 4 a sims definition may have"));
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // with no writer: opening it would block forever
  CHECK_THROWS_WITH(read_json_file(fifo, "sim"), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
  CHECK_THROWS_WITH(read_json_file("/dev/zero", "sim"), Catch::Contains("is a character device"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("json_excerpt bounds a value's length and depth in a message", "[support][json]") {
  CHECK(json_excerpt(json(5)) == "5");
  CHECK(json_excerpt(json("fmnist-2")) == "\"fmnist-2\"");
  CHECK(json_excerpt(json::parse(R"({"a": [1, 2], "b": null})")) == R"({"a":[1,2],"b":null})");
  CHECK(json_excerpt(json::parse("[[[[1]]]]"), 80, 2) == "[[[...]]]");
  CHECK(json_excerpt(json::parse("[[]]"), 80, 0) == "[...]");
  CHECK(json_excerpt(json::array()) == "[]");
  const std::string long_text = json_excerpt(json(std::string(1 << 20, 'x')), 20);
  CHECK(long_text == "\"" + std::string(19, 'x') + "...");
  json wide = json::array();
  for (int k = 0; k < 100000; ++k) wide.push_back(k);
  const std::string excerpt = json_excerpt(wide, 30);
  CHECK(excerpt.size() == 33);
  CHECK_THAT(excerpt, Catch::StartsWith("[0,1,2,3,") && Catch::EndsWith("..."));
  // Invalid UTF-8 in a user's string is replaced, not thrown on.
  CHECK_NOTHROW(json_excerpt(json(std::string("a\xff\xfe"))));
  // A value nested deeper than the parser allows (built in code) is still shown bounded.
  json deep = json::array();
  for (int k = 0; k < 10000; ++k) {
    json outer = json::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  CHECK(json_excerpt(deep, 80, 3) == "[[[[...]]]]");
  // Its destruction is nlohmann's (iterative since 3.10): nothing to check but that it returns.
}
