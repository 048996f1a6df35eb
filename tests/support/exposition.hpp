#pragma once
// A strict reader of the Prometheus text exposition format (version 0.0.4), for
// tests that check what /metrics serves. It reports every departure that
// Prometheus's own parser or `promtool check metrics` would: a line that does
// not parse, a name or label that is not valid, a bad escape, a sample before
// its family's TYPE, a family split in two or typed twice, a series given twice,
// a counter that is negative or not named *_total, a histogram whose buckets are
// not cumulative or lack +Inf, _sum or _count, a family without HELP, and text
// that does not end with a newline.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace eryantis::test {

struct Exposition {
  std::map<std::string, std::string> types;  // family -> counter/gauge/histogram/summary/untyped
  std::map<std::string, std::string> help;   // family -> its HELP text (unescaped)
  // "name{labels}" exactly as written (labels in the order given) -> value.
  std::map<std::string, double> samples;
  std::vector<std::string> problems;  // "line N: what is wrong: the line"
};

Exposition parse_exposition(std::string_view text);

}  // namespace eryantis::test
