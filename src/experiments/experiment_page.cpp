#include "geomsim/experiments/experiment_page.hpp"

#include <set>
#include <stdexcept>

namespace geomsim {

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

ExperimentPage::ExperimentPage(const std::string& title) : text_("# " + title + "\n\n") {}

void ExperimentPage::heading(const std::string& text) { text_ += "## " + text + "\n\n"; }

void ExperimentPage::paragraph(const std::string& text) { text_ += text + "\n\n"; }

void ExperimentPage::table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  const auto line = [&](const std::vector<std::string>& cells) {
    if (cells.size() != header.size()) throw std::logic_error("ExperimentPage::table: a row's width differs from the header's");
    std::string out = "|";
    for (const auto& cell : cells) out += " " + markdown_cell(cell) + " |";
    return out + "\n";
  };
  text_ += line(header);
  text_ += "|";
  for (std::size_t i = 0; i < header.size(); ++i) text_ += "---|";
  text_ += "\n";
  for (const auto& row : rows) text_ += line(row);
  text_ += "\n";
}

void ExperimentPage::image(const std::string& file, const std::string& caption) {
  text_ += "![" + markdown_cell(caption) + "](" + file + ")\n\n*" + caption + "*\n\n";
}

void ExperimentPage::claims(const std::vector<ClaimOutcome>& outcomes) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& o : outcomes) rows.push_back({o.statement, o.source, o.paper, o.measured, "**" + verdict_text(o.verdict) + "**"});
  table({"claim", "where", "the paper", "measured here", "verdict"}, rows);
  std::set<std::string> quoted;  // claims that share a sentence show it once
  for (const auto& o : outcomes) {
    if (!o.quote.empty() && quoted.insert(o.quote).second) text_ += "- " + o.source + ": \"" + o.quote + "\"\n";
  }
  std::vector<Contrast> contrasts;
  for (const auto& o : outcomes) contrasts.insert(contrasts.end(), o.contrasts.begin(), o.contrasts.end());
  text_ += "\n" + verdict_rule(contrasts) + "\n\n";
}

}  // namespace geomsim
