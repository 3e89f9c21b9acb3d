// Figures: no string from outside reaches gnuplot as code. Hostile titles and output stems run
// nothing, neither when geomsim renders them nor when a user runs the saved NAME.gp, and the
// figure shows the text as it is.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "scratch_folder.hpp"

using geomsim::GnuplotFigure;
namespace fs = std::filesystem;

namespace {
using geomsim::testing::file_bytes;
using Scratch = geomsim::testing::ScratchFolder;

// The text as gnuplot's SVG terminal writes it: & and < escaped.
std::string as_svg(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '&' ? std::string("&amp;") : c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

// Each payload would create a file named MARK... in the folder if it ran.
const std::vector<std::string> hostile_titles = {
    "a'; system(\"touch MARK1\"); print 'b",
    "a\"; system(\"touch MARK2\"); print \"b",
    "`touch MARK3` in backquotes",
    "macro @MARK4 and a call: system('touch MARK4')",
    "line one\nsystem(\"touch MARK5\")\n! touch MARK6",
    "enhanced text: x_1^2 {braces} & ~tilde \\backslash %s %d",
    "a control\tcharacter and a carriage\rreturn",
};
}  // namespace

TEST_CASE("Hostile titles run nothing and the figure shows them literally", "[figures][security]") {
  Scratch dir("figure");
  for (std::size_t k = 0; k < hostile_titles.size(); ++k) {
    const std::string& title = hostile_titles[k];
    GnuplotFigure fig(400, 300);
    fig.datablock("d", {{0, 0}, {1, 1}});
    fig.line("set title " + GnuplotFigure::text(title));
    fig.line("set xlabel " + GnuplotFigure::text(title));
    fig.line("plot $d using 1:2 with lines title " + GnuplotFigure::text(title));
    const std::string stem = (dir.root / ("fig" + std::to_string(k))).string();
    REQUIRE_NOTHROW(fig.render(stem));
    const std::string svg = file_bytes(stem + ".svg");
    std::istringstream lines(title);
    std::string line;
    while (std::getline(lines, line)) {
      std::string shown = line;
      for (char& c : shown) {
        if (c == '\t' || c == '\r') c = ' ';
      }
      if (shown.find_first_of("\t\r") == std::string::npos && line.find_first_of("\t\r") == std::string::npos) {
        CHECK_THAT(svg, Catch::Contains(as_svg(line)));
      }
    }
    // A user runs the saved script in its folder: nothing runs there either.
    const std::string command = "cd '" + dir.root.string() + "' && gnuplot fig" + std::to_string(k) + ".gp 2>/dev/null";
    CHECK(std::system(command.c_str()) == 0);
  }
  for (const auto& entry : fs::directory_iterator(dir.root)) {
    CHECK_THAT(entry.path().filename().string(), !Catch::StartsWith("MARK"));
  }
  // Where a second line came from a line break, the SVG shows it as a second line of text.
  CHECK_THAT(file_bytes(dir.root / "fig4.svg"), Catch::Contains(">system(\"touch MARK5\")<"));
}

TEST_CASE("Output stems with quotes, pipes and tildes are file names", "[figures][security]") {
  Scratch dir("figure");
  const fs::path previous = fs::current_path();
  fs::current_path(dir.root);  // relative stems, as a user types them
  for (const std::string& stem : {std::string("it's"), std::string("|touch MARK7"), std::string("<touch MARK8"),
                                 std::string("~tilde"), std::string("quote\"d")}) {
    GnuplotFigure fig(300, 200);
    fig.datablock("d", {{0, 0}, {1, 1}});
    fig.line("plot $d using 1:2 with lines notitle");
    CHECK_NOTHROW(fig.render(stem));
    for (const char* extension : {".png", ".svg", ".gp"}) CHECK(fs::file_size(stem + extension) > 0);
  }
  CHECK_FALSE(fs::exists("MARK7"));
  CHECK_FALSE(fs::exists("MARK8"));
  for (const auto& entry : fs::directory_iterator(".")) {  // nothing but the 15 figure files
    CHECK_THAT(entry.path().filename().string(), !Catch::Contains(".tmp.") && !Catch::Contains("partial"));
  }
  fs::current_path(previous);
}

TEST_CASE("An output path with a control character is refused, never quoted", "[figures][security]") {
  // gnuplot's single-quoted strings hold no escapes: a line break in `set output '...'` would end
  // the command and run the rest of the name as gnuplot code (system() runs a shell command).
  CHECK(GnuplotFigure::path_literal("it's") == "'./it''s'");
  CHECK(GnuplotFigure::path_literal("/tmp/|x") == "'/tmp/|x'");
  for (const std::string& path : {std::string("o5\nsystem(\"touch MARK9\")\n#"), std::string("a\rb"), std::string("tab\there"),
                                  std::string("esc\x1b[0m"), std::string("del\x7f"), std::string("nul") + '\0' + "x"}) {
    CHECK_THROWS_AS(GnuplotFigure::path_literal(path), geomsim::InvalidArgument);
    CHECK_THROWS_WITH(GnuplotFigure::path_literal(path, "out"), Catch::StartsWith("out must not hold control characters"));
  }
  // render() refuses such a stem before anything is written or run.
  Scratch dir("figure");
  const fs::path previous = fs::current_path();
  fs::current_path(dir.root);
  GnuplotFigure fig(300, 200);
  fig.datablock("d", {{0, 0}, {1, 1}});
  fig.line("plot $d using 1:2 with lines notitle");
  geomsim::OutputTransaction outputs;
  try {
    fig.render("o5\nsystem(\"touch MARK9\")\n#", outputs, "out");
    FAIL("render accepted a stem with a line break");
  } catch (const geomsim::InvalidArgument& error) {
    CHECK(error.argument() == "out");
    CHECK_THAT(error.requirement(), Catch::Contains("control characters") && Catch::Contains("o5\\nsystem"));
  }
  outputs.commit();
  CHECK(fs::is_empty("."));  // no figure, no temporary, no MARK9
  fs::current_path(previous);
}

TEST_CASE("A script line that would substitute a command is refused before gnuplot sees it", "[figures][security]") {
  GnuplotFigure fig(300, 200);
  CHECK_THROWS_AS(fig.line("set title \"`touch MARK`\""), std::logic_error);
  CHECK_THROWS_AS(fig.line("set title system(\"touch MARK\")"), std::logic_error);
  CHECK_THROWS_AS(fig.line("set title 'a'\nsystem('touch MARK')"), std::logic_error);
  CHECK_NOTHROW(fig.line("set title '`not run`, system(\"not run\")'"));  // inside single quotes: text
  CHECK(GnuplotFigure::text("it's") == "'it''s' noenhanced");
  CHECK(GnuplotFigure::text("a\nb") == "'a'.\"\\n\".'b' noenhanced");
  CHECK(GnuplotFigure::text("") == "'' noenhanced");
}

TEST_CASE("A figure that cannot be written leaves no file and says which", "[figures][errors]") {
  Scratch dir("figure");
  GnuplotFigure fig(300, 200);
  fig.datablock("d", {{0, 0}, {1, 1}});
  fig.line("plot $d using 1:2 with lines notitle");
  geomsim::OutputTransaction outputs;
  CHECK_THROWS_WITH(fig.render((dir.root / "missing" / "fig").string(), outputs), Catch::Contains("does not exist"));
  fig.line("plot $nowhere using 1:2");  // a script error: gnuplot's own message is reported
  CHECK_THROWS_WITH(fig.render((dir.root / "fig").string()), Catch::Contains("gnuplot did not finish"));
  CHECK(fs::is_empty(dir.root));
}

TEST_CASE("A gnuplot that cannot be started is named with the system's reason, and only a missing one asks for the package",
          "[figures][errors]") {
  Scratch dir("figure-spawn");
  fs::create_directories(dir.root / "out");
  fs::create_directories(dir.root / "none");
  fs::create_directories(dir.root / "noexec");
  std::ofstream(dir("noexec/gnuplot")) << "#!/bin/sh\nexit 0\n";  // 0644: not executable
  fs::permissions(dir("noexec/gnuplot"), fs::perms::owner_read | fs::perms::owner_write);
  GnuplotFigure fig(300, 200);
  fig.datablock("d", {{0, 0}, {1, 1}});
  fig.line("plot $d using 1:2 with lines notitle");
  const std::string stem = dir("out/fig");
  // The error of rendering with PATH set to `folders`, PATH restored after.
  const auto error_with_path = [&](const std::string& folders) {
    const char* saved = std::getenv("PATH");
    const std::string kept = saved != nullptr ? saved : "";
    setenv("PATH", folders.c_str(), 1);
    std::string what;
    try {
      fig.render(stem);
    } catch (const geomsim::ComputationFailed& error) {
      what = error.what();
    }
    setenv("PATH", kept.c_str(), 1);
    return what;
  };
  // A gnuplot that is not executable (EACCES): named, with the system's words; gnuplot-nox is installed.
  const std::string denied = error_with_path(dir("noexec"));
  CHECK_THAT(denied, Catch::Contains("cannot start gnuplot (" + dir("noexec/gnuplot") + ", the first on PATH): Permission denied"));
  CHECK_THAT(denied, !Catch::Contains("apt-get"));
  // No gnuplot on PATH at all (ENOENT): the package to install.
  const std::string missing = error_with_path(dir("none"));
  CHECK_THAT(missing, Catch::Contains("no gnuplot program in the folders of PATH=" + dir("none")));
  CHECK_THAT(missing, Catch::Contains("apt-get install gnuplot-nox"));
  CHECK(fs::is_empty(dir.root / "out"));  // no figure, script or temporary left
}
