#include "support/exposition.hpp"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <utility>

namespace eryantis::test {

namespace {

bool name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool name_char(char c) {
  return name_start(c) || (c >= '0' && c <= '9');
}

// A metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) or, without colons, a label name.
std::size_t read_name(std::string_view s, std::size_t at, bool colons) {
  std::size_t i = at;
  if (i < s.size() && (name_start(s[i]) || (colons && s[i] == ':')))
    ++i;
  else
    return at;
  while (i < s.size() && (name_char(s[i]) || (colons && s[i] == ':'))) ++i;
  return i;
}

// Go's strconv.ParseFloat as Prometheus accepts it: decimal or exponent forms,
// Inf/+Inf/-Inf and NaN.
std::optional<double> read_float(std::string_view s) {
  if (s == "+Inf" || s == "Inf") return INFINITY;
  if (s == "-Inf") return -INFINITY;
  if (s == "NaN") return NAN;
  if (s.empty()) return std::nullopt;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
      return std::nullopt;
  const std::string copy(s);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return v;
}

struct Sample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;
  std::string key;  // name{labels} as written
  double value = 0;
};

// One sample line, or a sentence saying why it is not one.
std::optional<Sample> read_sample(std::string_view line, std::string* why) {
  Sample out;
  std::size_t i = read_name(line, 0, true);
  if (i == 0) return *why = "no metric name", std::nullopt;
  out.name = std::string(line.substr(0, i));
  if (i < line.size() && line[i] == '{') {
    ++i;
    std::set<std::string> seen;
    while (i < line.size() && line[i] != '}') {
      const std::size_t end = read_name(line, i, false);
      if (end == i) return *why = "bad label name", std::nullopt;
      std::string label(line.substr(i, end - i));
      i = end;
      if (i + 1 >= line.size() || line[i] != '=' || line[i + 1] != '"')
        return *why = "label " + label + " without =\"value\"", std::nullopt;
      i += 2;
      std::string value;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\\') {
          if (i + 1 >= line.size()) return *why = "escape at the end", std::nullopt;
          const char e = line[i + 1];
          if (e == 'n')
            value += '\n';
          else if (e == '\\' || e == '"')
            value += e;
          else
            return *why = std::string("bad escape \\") + e + " in a label value", std::nullopt;
          i += 2;
        } else if (line[i] == '\n') {
          return *why = "newline in a label value", std::nullopt;
        } else {
          value += line[i++];
        }
      }
      if (i >= line.size()) return *why = "unterminated label value", std::nullopt;
      ++i;  // closing quote
      if (!seen.insert(label).second) return *why = "label " + label + " twice", std::nullopt;
      out.labels.emplace_back(std::move(label), std::move(value));
      if (i < line.size() && line[i] == ',')
        ++i;
      else if (i < line.size() && line[i] != '}')
        return *why = "expected , or }", std::nullopt;
    }
    if (i >= line.size()) return *why = "unterminated label set", std::nullopt;
    ++i;  // '}'
  }
  out.key = std::string(line.substr(0, i));
  if (i >= line.size() || line[i] != ' ') return *why = "no value", std::nullopt;
  ++i;
  const std::size_t space = line.find(' ', i);
  const auto value =
      read_float(line.substr(i, space == std::string_view::npos ? space : space - i));
  if (!value) return *why = "the value is not a number", std::nullopt;
  out.value = *value;
  if (space != std::string_view::npos) {
    const std::string_view stamp = line.substr(space + 1);
    std::size_t j = stamp.starts_with('-') ? 1 : 0;
    if (j == stamp.size()) return *why = "bad timestamp", std::nullopt;
    for (; j < stamp.size(); ++j)
      if (stamp[j] < '0' || stamp[j] > '9') return *why = "bad timestamp", std::nullopt;
  }
  return out;
}

// The family a sample belongs to: a histogram's _bucket/_sum/_count (a summary's
// _sum/_count) are its own.
std::string family_of(const std::string& name, const std::map<std::string, std::string>& types) {
  for (std::string_view suffix : {"_bucket", "_sum", "_count"}) {
    if (name.size() <= suffix.size() || !name.ends_with(suffix)) continue;
    const std::string base = name.substr(0, name.size() - suffix.size());
    auto it = types.find(base);
    if (it == types.end()) continue;
    if (it->second == "histogram" || (it->second == "summary" && suffix != "_bucket")) return base;
  }
  return name;
}

}  // namespace

Exposition parse_exposition(std::string_view text) {
  Exposition e;
  if (!text.empty() && !text.ends_with('\n'))
    e.problems.push_back("the text does not end with a newline");
  std::set<std::string> closed;  // families whose lines are over (one block each)
  std::string current;           // the family of the lines being read
  // Histogram pieces, by family then by the labels other than le.
  struct Histogram {
    std::vector<std::pair<double, double>> buckets;  // (le, count), in order written
    std::optional<double> sum, count;
  };
  std::map<std::string, std::map<std::string, Histogram>> histograms;
  auto enter = [&](const std::string& family, int number) {
    if (family == current) return;
    if (!current.empty()) closed.insert(current);
    if (closed.contains(family))
      e.problems.push_back("line " + std::to_string(number) + ": family " + family +
                           " appears in two places");
    current = family;
  };
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    auto problem = [&](const std::string& what) {
      e.problems.push_back("line " + std::to_string(number) + ": " + what + ": " +
                           std::string(line));
    };
    if (line.empty()) continue;
    if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
      const bool help = line[2] == 'H';
      const std::size_t at = 7;
      const std::size_t name_end = read_name(line, at, true);
      if (name_end == at || (name_end < line.size() && line[name_end] != ' ')) {
        problem("bad metric name");
        continue;
      }
      const std::string family(line.substr(at, name_end - at));
      const std::string_view rest =
          name_end < line.size() ? line.substr(name_end + 1) : std::string_view{};
      enter(family, number);
      if (help) {
        std::string unescaped;
        for (std::size_t i = 0; i < rest.size(); ++i) {
          if (rest[i] != '\\') {
            unescaped += rest[i];
          } else if (i + 1 < rest.size() && (rest[i + 1] == '\\' || rest[i + 1] == 'n')) {
            unescaped += rest[i + 1] == 'n' ? '\n' : '\\';
            ++i;
          } else {
            problem("bad escape in HELP");
            break;
          }
        }
        if (e.help.contains(family)) problem("second HELP for " + family);
        e.help[family] = unescaped;
      } else {
        static const std::set<std::string_view> kTypes = {"counter", "gauge", "histogram",
                                                          "summary", "untyped"};
        if (!kTypes.contains(rest))
          problem("unknown type");
        else if (e.types.contains(family))
          problem("second TYPE for " + family);
        else
          e.types[family] = std::string(rest);
      }
      continue;
    }
    if (line.starts_with('#')) continue;  // a comment
    std::string why;
    auto sample = read_sample(line, &why);
    if (!sample) {
      problem("does not parse (" + why + ")");
      continue;
    }
    const std::string family = family_of(sample->name, e.types);
    enter(family, number);
    auto type = e.types.find(family);
    if (type == e.types.end()) problem("sample before its TYPE");
    if (!e.samples.emplace(sample->key, sample->value).second) problem("the same series twice");
    if (type == e.types.end()) continue;
    if (type->second == "counter") {
      if (!family.ends_with("_total")) problem("a counter not named *_total");
      if (!(sample->value >= 0)) problem("a counter below zero or NaN");
    }
    if (type->second != "histogram") continue;
    std::string others;
    std::optional<double> le;
    for (const auto& [label, value] : sample->labels) {
      if (label == "le") {
        le = read_float(value);
        if (!le) problem("le is not a number");
      } else {
        others += label + "=" + value + ",";
      }
    }
    Histogram& h = histograms[family][others];
    if (sample->name == family + "_bucket") {
      if (!le)
        problem("a bucket without le");
      else
        h.buckets.emplace_back(*le, sample->value);
    } else {
      if (le) problem("le on a histogram's _sum or _count");
      (sample->name == family + "_sum" ? h.sum : h.count) = sample->value;
    }
  }
  for (const auto& [family, type] : e.types)
    if (!e.help.contains(family)) e.problems.push_back(family + ": no HELP");
  for (const auto& [family, series] : histograms)
    for (const auto& [labels, h] : series) {
      const std::string which = family + "{" + labels + "}";
      if (h.buckets.empty() || !std::isinf(h.buckets.back().first))
        e.problems.push_back(which + ": the last bucket is not le=\"+Inf\"");
      for (std::size_t i = 1; i < h.buckets.size(); ++i) {
        if (!(h.buckets[i].first > h.buckets[i - 1].first))
          e.problems.push_back(which + ": buckets not in increasing le order");
        if (h.buckets[i].second < h.buckets[i - 1].second)
          e.problems.push_back(which + ": bucket counts are not cumulative");
      }
      if (!h.sum || !h.count)
        e.problems.push_back(which + ": no _sum or no _count");
      else if (!h.buckets.empty() && h.buckets.back().second != *h.count)
        e.problems.push_back(which + ": the +Inf bucket differs from _count");
    }
  return e;
}

}  // namespace eryantis::test
