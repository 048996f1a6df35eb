// docs/renaissance/rules.md says what the code does: its tables of development cards (1.3) and
// leaders (1.4) are read back and compared with the code's data, row by row.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "eryantis/renaissance/rules/cards.hpp"

namespace eryantis::renaissance {
namespace {

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream in(row);
  std::string cell;
  std::getline(in, cell, '|');  // before the first bar
  while (std::getline(in, cell, '|')) {
    const auto b = cell.find_first_not_of(' ');
    const auto e = cell.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  if (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

// "2 coin + 1 servant" -> amounts; "1 faith" goes to `faith`.
Amounts amounts(const std::string& text, int* faith = nullptr) {
  Amounts a{};
  std::stringstream in(text);
  std::string word;
  int n = 0;
  while (in >> word) {
    if (word == "+") continue;
    if (std::isdigit(static_cast<unsigned char>(word[0]))) {
      n = std::stoi(word);
      continue;
    }
    if (word == "faith" && faith != nullptr) *faith += n;
    for (Resource r : kAllResources)
      if (word == resource_name(r)) a[index(r)] = static_cast<std::uint8_t>(a[index(r)] + n);
  }
  return a;
}

std::vector<std::vector<std::string>> rows(char prefix) {
  std::ifstream doc(RENAISSANCE_RULES_DOC);
  EXPECT_TRUE(doc.good()) << RENAISSANCE_RULES_DOC;
  std::vector<std::vector<std::string>> out;
  std::string line;
  while (std::getline(doc, line))
    if (line.size() > 4 && line[0] == '|' && line[2] == prefix && std::isdigit(static_cast<unsigned char>(line[3])))
      out.push_back(cells(line));
  return out;
}

TEST(DocsTable, TheDevelopmentCardTableIsTheCodes) {
  const auto table = rows('D');
  ASSERT_EQ(table.size(), static_cast<std::size_t>(kDevelopmentCards));
  for (const auto& row : table) {
    ASSERT_EQ(row.size(), 7u) << row[0];
    const int id = std::stoi(row[0].substr(1));
    const DevelopmentCard& c = development_card(id);
    EXPECT_EQ(std::stoi(row[1]), c.level) << row[0];
    EXPECT_EQ(row[2], colour_name(c.colour)) << row[0];
    EXPECT_EQ(std::stoi(row[3]), c.vp) << row[0];
    EXPECT_EQ(amounts(row[4]), c.cost) << row[0];
    EXPECT_EQ(amounts(row[5]), c.input) << row[0];
    int faith = 0;
    EXPECT_EQ(amounts(row[6], &faith), c.output) << row[0];
    EXPECT_EQ(faith, c.faith) << row[0];
  }
}

TEST(DocsTable, TheLeaderTableIsTheCodes) {
  const auto table = rows('L');
  ASSERT_EQ(table.size(), static_cast<std::size_t>(kLeaders));
  const std::map<std::string, LeaderKind> kinds = {{"discount", LeaderKind::Discount},
                                                   {"extra depot", LeaderKind::ExtraDepot},
                                                   {"white marble", LeaderKind::WhiteMarble},
                                                   {"extra production", LeaderKind::Production}};
  for (const auto& row : table) {
    ASSERT_EQ(row.size(), 5u) << row[0];
    const int id = std::stoi(row[0].substr(1));
    const LeaderCard& l = leader_card(id);
    EXPECT_EQ(kinds.at(row[1]), l.kind) << row[0];
    EXPECT_EQ(std::stoi(row[4]), l.vp) << row[0];
    // The ability names the leader's resource; the requirement its cards or resources.
    EXPECT_NE(row[3].find(std::string(resource_name(l.resource))), std::string::npos) << row[0];
    for (Colour c : kAllColours) {
      const std::string colour(colour_name(c));
      const bool named = row[2].find(colour) != std::string::npos;
      EXPECT_EQ(named, l.cards[index(c)] > 0 || l.level_two == c) << row[0] << " " << colour;
      if (l.cards[index(c)] > 0) {
        EXPECT_NE(row[2].find(std::to_string(l.cards[index(c)]) + " " + colour), std::string::npos) << row[0];
      }
    }
    if (l.resources_needed > 0) {
      EXPECT_EQ(row[2], std::to_string(l.resources_needed) + " " +
                            std::string(resource_name(l.requirement_resource)))
          << row[0];
    }
    if (l.level_two) {
      EXPECT_NE(row[2].find("level 2"), std::string::npos) << row[0];
    }
  }
}

}  // namespace
}  // namespace eryantis::renaissance
