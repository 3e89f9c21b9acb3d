#pragma once
// The markdown page of an experiment (NAME.md in notebooks-export/): headings, paragraphs,
// tables (cells escaped), images, and the claims table with the paper's words and numbers
// beside the measured contrast and its verdict.
#include <string>
#include <vector>

#include "geomsim/experiments/seed_statistics.hpp"

namespace geomsim {

struct ClaimOutcome {
  std::string statement;  // the claim as tested, in one sentence
  std::string source;     // where the paper makes it: "seed 004, §5 and Table 3"
  std::string quote;      // the paper's words
  std::string paper;      // the paper's number(s) for the same contrast
  std::string measured;   // ours: contrast_text's "+2.31 points, 95% CI [...] (paired, n = 3 seeds, ...)"
  Verdict verdict = Verdict::untestable;
  std::vector<Contrast> contrasts;  // the contrasts the verdict rests on (none when runs are missing)
};

// A table cell: '|' and line breaks would end the cell or the row.
std::string markdown_cell(const std::string& text);

class ExperimentPage {
 public:
  explicit ExperimentPage(const std::string& title);
  void heading(const std::string& text);  // a second-level heading
  void paragraph(const std::string& text);
  // Throws std::logic_error when a row's width differs from the header's.
  void table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);
  void image(const std::string& file, const std::string& caption);
  // The claims table, followed by the paper's words for each claim and the verdict rule
  // (verdict_rule of every outcome's contrasts).
  void claims(const std::vector<ClaimOutcome>& outcomes);
  const std::string& markdown() const { return text_; }

 private:
  std::string text_;
};

}  // namespace geomsim
