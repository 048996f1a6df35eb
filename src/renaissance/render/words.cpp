// The terminal client's words (docs/renaissance/protocol.md section 9): one verb per command,
// 1-based rows, columns and slots as a person counts them, resources by name.
//   leaders 3 14                      resources coin shield | resources coin:1 shield:1 -
//   market row 2 [white coin coin] [layout coin:1 - stone:3 L05:2]
//   buy 2 purple slot 1 [pay coin:1/0/2 ...]     (depot/leader/strongbox per type)
//   produce [base coin coin stone] [slot 1]... [leader L13 coin]... [pay ...]
//   activate L07   discard L07   arrange <layout>   end   resign
// A layout is three depot words (`-` empty, `coin:2`) and `L05:2` words, or only resource names
// (`coin shield shield`): those placed the canonical way, smaller amounts in smaller depots.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "eryantis/renaissance/render/render.hpp"
#include "text.hpp"

namespace eryantis::renaissance::render {

namespace {

using Words = std::vector<std::string>;
using Result = std::expected<std::optional<Command>, std::string>;

constexpr std::array<std::string_view, 10> kVerbs = {"leaders", "resources", "market",  "buy",
                                                     "produce", "activate",  "discard", "arrange",
                                                     "end",     "resign"};

Words split(std::string_view line) {
  Words out;
  std::string word;
  for (char ch : line) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

std::string join(const Words& words) {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += " ";
    out += w;
  }
  return out;
}

std::optional<int> number(std::string_view w) {
  int v = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
  if (ec != std::errc() || end != w.data() + w.size() || v < 0 || v > 255) return std::nullopt;
  return v;
}

std::optional<Resource> resource(std::string_view w) {
  for (Resource r : kAllResources)
    if (w == resource_name(r) || w == resource_name(r).substr(0, 2) ||
        (w.size() > 1 && w.back() == 's' && w.substr(0, w.size() - 1) == resource_name(r)))
      return r;
  if (w == "faith") return kFaithName;  // decision 42: the rules refuse it with the field's code
  return std::nullopt;
}

std::optional<Colour> colour(std::string_view w) {
  for (Colour c : kAllColours)
    if (w == colour_name(c)) return c;
  return std::nullopt;
}

// "L07", "l7" or "7".
std::optional<std::uint8_t> leader_id(std::string_view w) {
  if (!w.empty() && w[0] == 'l') w.remove_prefix(1);
  const auto n = number(w);
  if (!n) return std::nullopt;
  return static_cast<std::uint8_t>(*n);
}

// A resource as typed; "faith" too (decision 42: the rules refuse it by the field's code).
std::string_view resource_word(Resource r) {
  return r == kFaithName ? std::string_view("faith") : resource_name(r);
}

std::string leader_word(int id) {
  return is_leader_id(id) ? std::string(leader_name(id)) : std::to_string(id);
}

// The canonical layout of `content` in the basic depots (decision 58: smaller amounts into
// smaller depots, ties in resource order), or nullopt when it does not fit.
std::optional<Layout> layout_of_content(const Amounts& content) {
  std::vector<std::pair<int, Resource>> types;
  for (Resource r : kAllResources)
    if (content[index(r)] > 0) types.emplace_back(content[index(r)], r);
  std::sort(types.begin(), types.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : index(a.second) < index(b.second);
  });
  Layout l;
  int depot = 0;
  for (const auto& [n, r] : types) {
    while (depot < kBasicDepots && depot_capacity(depot) < n) ++depot;
    if (depot == kBasicDepots) return std::nullopt;
    l.depots[depot++] = Depot{r, static_cast<std::uint8_t>(n)};
  }
  return l;
}

std::string depot_word(const Depot& d) {
  if (!d.type) return d.count == 0 ? "-" : "?:" + std::to_string(d.count);
  return std::string(resource_name(*d.type)) + ":" + std::to_string(d.count);
}

std::string layout_words(const Layout& l) {
  // The short form when it says the same.
  Amounts content{};
  bool basic_only = true, resources_only = true;
  for (const Depot& d : l.depots) {
    if (d.type && !is_resource(*d.type)) resources_only = false;
    if (d.count > 0 && d.type && is_resource(*d.type)) content[index(*d.type)] += d.count;
  }
  for (const auto& entry : l.leader_depots) basic_only = basic_only && !entry;
  if (basic_only && resources_only && total(content) > 0 && layout_of_content(content) == l) {
    Words words;
    for (Resource r : kAllResources)
      for (int i = 0; i < content[index(r)]; ++i) words.emplace_back(resource_name(r));
    return join(words);
  }
  Words words;
  for (const Depot& d : l.depots) words.push_back(depot_word(d));
  for (int id = 1; id <= kLeaders; ++id)
    if (l.leader_depots[id - 1])
      words.push_back(std::string(leader_name(id)) + ":" + std::to_string(*l.leader_depots[id - 1]));
  return join(words);
}

constexpr std::string_view kLayoutHelp =
    "a layout is three depot words and any leader depots (`- coin:2 stone:3 L05:2`, `-` for an "
    "empty depot), or only resource names (`coin shield shield`)";

// Reads a layout from words[i..end).
std::expected<Layout, std::string> read_layout(const Words& words, std::size_t i, std::size_t end) {
  if (i == end) return std::unexpected(std::string("name the layout: ") + std::string(kLayoutHelp));
  if (words[i].find(':') == std::string::npos && words[i] != "-") {
    Amounts content{};
    for (std::size_t k = i; k < end; ++k) {
      const auto r = resource(words[k]);
      if (!r || !is_resource(*r))
        return std::unexpected("\"" + words[k] + "\" is not a resource; " + std::string(kLayoutHelp));
      content[index(*r)] += 1;
    }
    auto l = layout_of_content(content);
    if (!l)
      return std::unexpected(std::string("that does not fit the depots as it is; name each depot: ") +
                             std::string(kLayoutHelp));
    return *l;
  }
  Layout l;
  std::size_t depot = 0;
  for (std::size_t k = i; k < end; ++k) {
    const std::string& w = words[k];
    const auto colon = w.find(':');
    if (depot < kBasicDepots) {
      if (w == "-") {
        ++depot;
        continue;
      }
      if (colon == std::string::npos)
        return std::unexpected("\"" + w + "\": " + std::string(kLayoutHelp));
      const auto n = number(std::string_view(w).substr(colon + 1));
      const auto r = resource(std::string_view(w).substr(0, colon));
      if (!n || !r) return std::unexpected("\"" + w + "\": a depot is resource:count, e.g. coin:2");
      l.depots[depot++] = Depot{*r, static_cast<std::uint8_t>(*n)};
      continue;
    }
    const auto id = colon == std::string::npos ? std::nullopt : leader_id(std::string_view(w).substr(0, colon));
    const auto n = colon == std::string::npos ? std::nullopt : number(std::string_view(w).substr(colon + 1));
    if (!id || !n || !is_leader_id(*id))
      return std::unexpected("\"" + w + "\": after the three depots, leader depots as L05:2");
    l.leader_depots[*id - 1] = static_cast<std::uint8_t>(*n);
  }
  if (depot < kBasicDepots)
    return std::unexpected(std::string("name all three depots: ") + std::string(kLayoutHelp));
  return l;
}

std::string payment_words(const Payment& p) {
  Words words{"pay"};
  for (Resource r : kAllResources) {
    const Take& t = p[index(r)];
    if (t.total() == 0) continue;
    words.push_back(std::string(resource_name(r)) + ":" + std::to_string(t.depot) + "/" +
                    std::to_string(t.leader) + "/" + std::to_string(t.strongbox));
  }
  return join(words);
}

std::expected<Payment, std::string> read_payment(const Words& words, std::size_t i, std::size_t end) {
  Payment p{};
  for (std::size_t k = i; k < end; ++k) {
    const std::string& w = words[k];
    const auto colon = w.find(':');
    const auto s1 = w.find('/', colon == std::string::npos ? 0 : colon);
    const auto s2 = s1 == std::string::npos ? s1 : w.find('/', s1 + 1);
    if (colon == std::string::npos || s2 == std::string::npos)
      return std::unexpected("\"" + w + "\": pay each type as resource:depot/leader/strongbox, "
                             "e.g. coin:1/0/2");
    const auto r = resource(std::string_view(w).substr(0, colon));
    const auto d = number(std::string_view(w).substr(colon + 1, s1 - colon - 1));
    const auto l = number(std::string_view(w).substr(s1 + 1, s2 - s1 - 1));
    const auto b = number(std::string_view(w).substr(s2 + 1));
    if (!r || !is_resource(*r) || !d || !l || !b)
      return std::unexpected("\"" + w + "\": pay each type as resource:depot/leader/strongbox");
    p[index(*r)] = Take{static_cast<std::uint8_t>(*d), static_cast<std::uint8_t>(*l),
                        static_cast<std::uint8_t>(*b)};
  }
  return p;
}

std::size_t find_word(const Words& words, std::size_t from, std::string_view w) {
  for (std::size_t k = from; k < words.size(); ++k)
    if (words[k] == w) return k;
  return words.size();
}

std::string err(std::string_view text) {
  return std::string(text);
}

Result market(const Words& w) {
  constexpr std::string_view usage =
      "type market row 1..3 or market column 1..4, then optionally white coin ... (two "
      "white-marble leaders) and layout ...";
  if (w.size() < 3) return std::unexpected(err(usage));
  TakeFromMarket c;
  if (w[1] == "row")
    c.line = Line::Row;
  else if (w[1] == "column" || w[1] == "col")
    c.line = Line::Column;
  else
    return std::unexpected(err(usage));
  const auto n = number(w[2]);
  if (!n || *n < 1) return std::unexpected(err(usage));
  c.index = static_cast<std::uint8_t>(*n - 1);
  const std::size_t layout_at = find_word(w, 3, "layout");
  std::size_t k = 3;
  if (k < layout_at && w[k] == "white") {
    for (++k; k < layout_at; ++k) {
      const auto r = resource(w[k]);
      c.white_choices.push_back(r ? *r : static_cast<Resource>(5));
      if (!r) return std::unexpected("\"" + w[k] + "\" is not a resource");
    }
  }
  if (k != layout_at) return std::unexpected(err(usage));
  if (layout_at < w.size()) {
    auto l = read_layout(w, layout_at + 1, w.size());
    if (!l) return std::unexpected(l.error());
    c.layout = *l;
  }
  return std::optional<Command>{c};
}

Result buy(const Words& w) {
  constexpr std::string_view usage =
      "type buy, a level 1..3, a colour and a slot: buy 2 purple slot 1 (then optionally pay ...)";
  if (w.size() < 5 || w[3] != "slot") return std::unexpected(err(usage));
  const auto level = number(w[1]);
  const auto c = colour(w[2]);
  const auto slot = number(w[4]);
  if (!level || !c || !slot || *slot < 1) return std::unexpected(err(usage));
  BuyCard b{static_cast<std::uint8_t>(*level), *c, static_cast<std::uint8_t>(*slot - 1), std::nullopt};
  if (w.size() > 5) {
    if (w[5] != "pay") return std::unexpected(err(usage));
    auto p = read_payment(w, 6, w.size());
    if (!p) return std::unexpected(p.error());
    b.payment = *p;
  }
  return std::optional<Command>{b};
}

Result produce(const Words& w) {
  constexpr std::string_view usage =
      "type produce and what produces: base coin coin stone (two inputs, one output), slot 1..3, "
      "leader L13 coin; then optionally pay ...";
  Produce p;
  std::size_t k = 1;
  while (k < w.size()) {
    if (w[k] == "base") {
      if (k + 3 >= w.size()) return std::unexpected(err(usage));
      const auto a = resource(w[k + 1]), b = resource(w[k + 2]), out = resource(w[k + 3]);
      if (!a || !b || !out) return std::unexpected(err(usage));
      p.base = BaseProduction{{*a, *b}, *out};
      k += 4;
    } else if (w[k] == "slot" && k + 1 < w.size()) {
      const auto n = number(w[k + 1]);
      if (!n || *n < 1) return std::unexpected(err(usage));
      p.slots.push_back(static_cast<std::uint8_t>(*n - 1));
      k += 2;
    } else if (w[k] == "leader" && k + 2 < w.size()) {
      const auto id = leader_id(w[k + 1]);
      const auto out = resource(w[k + 2]);
      if (!id || !out) return std::unexpected(err(usage));
      p.leaders.push_back(LeaderProduction{*id, *out});
      k += 3;
    } else if (w[k] == "pay") {
      auto pay = read_payment(w, k + 1, w.size());
      if (!pay) return std::unexpected(pay.error());
      p.payment = *pay;
      k = w.size();
    } else {
      return std::unexpected(err(usage));
    }
  }
  if (!p.base && p.slots.empty() && p.leaders.empty()) return std::unexpected(err(usage));
  return std::optional<Command>{p};
}

Result leader_command(const Words& w, bool activate) {
  const std::string usage = std::string("type ") + (activate ? "activate" : "discard") +
                            " and the leader: " + (activate ? "activate" : "discard") + " L07";
  if (w.size() != 2) return std::unexpected(usage);
  const auto id = leader_id(w[1]);
  if (!id) return std::unexpected(usage);
  if (activate) return std::optional<Command>{ActivateLeader{*id}};
  return std::optional<Command>{DiscardLeader{*id}};
}

}  // namespace

Result command_from_words(std::string_view line) {
  const Words w = split(line);
  if (w.empty()) return std::optional<Command>{};
  const std::string& verb = w[0];
  if (verb == "leaders") {
    ChooseLeaders c;
    for (std::size_t k = 1; k < w.size(); ++k) {
      const auto id = leader_id(w[k]);
      if (!id) return std::unexpected("type leaders and the two you keep: leaders L03 L14");
      c.keep.push_back(*id);
    }
    if (c.keep.empty()) return std::unexpected("type leaders and the two you keep: leaders L03 L14");
    return std::optional<Command>{c};
  }
  if (verb == "resources" || verb == "arrange") {
    auto l = read_layout(w, 1, w.size());
    if (!l) return std::unexpected(l.error());
    if (verb == "resources") return std::optional<Command>{ChooseInitialResources{*l}};
    return std::optional<Command>{ArrangeWarehouse{*l}};
  }
  if (verb == "market") return market(w);
  if (verb == "buy") return buy(w);
  if (verb == "produce") return produce(w);
  if (verb == "activate") return leader_command(w, true);
  if (verb == "discard") return leader_command(w, false);
  if (verb == "end") {
    if (w.size() != 1) return std::unexpected("type end to end your turn");
    return std::optional<Command>{EndTurn{}};
  }
  if (verb == "resign") {
    if (w.size() != 1) return std::unexpected("type resign to give up the game");
    return std::optional<Command>{Resign{}};
  }
  return std::optional<Command>{};
}

std::string command_words(const Command& command) {
  return std::visit(
      [](const auto& c) -> std::string {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, ChooseLeaders>) {
          Words w{"leaders"};
          for (auto id : c.keep) w.push_back(leader_word(id));
          return join(w);
        } else if constexpr (std::is_same_v<T, ChooseInitialResources>) {
          return "resources " + layout_words(c.layout);
        } else if constexpr (std::is_same_v<T, ArrangeWarehouse>) {
          return "arrange " + layout_words(c.layout);
        } else if constexpr (std::is_same_v<T, TakeFromMarket>) {
          std::string out = "market " + std::string(line_name(c.line)) + " " + std::to_string(c.index + 1);
          if (!c.white_choices.empty()) {
            out += " white";
            for (Resource r : c.white_choices) out.append(" ").append(resource_word(r));
          }
          if (c.layout) out.append(" layout ").append(layout_words(*c.layout));
          return out;
        } else if constexpr (std::is_same_v<T, BuyCard>) {
          std::string out = "buy " + std::to_string(c.level) + " " + std::string(colour_name(c.colour)) +
                            " slot " + std::to_string(c.slot + 1);
          if (c.payment) out.append(" ").append(payment_words(*c.payment));
          return out;
        } else if constexpr (std::is_same_v<T, Produce>) {
          Words w{"produce"};
          if (c.base) {
            w.push_back("base");
            for (Resource r : c.base->inputs) w.emplace_back(resource_word(r));
            w.emplace_back(resource_word(c.base->output));
          }
          for (auto slot : c.slots) {
            w.push_back("slot");
            w.push_back(std::to_string(slot + 1));
          }
          for (const LeaderProduction& l : c.leaders) {
            w.push_back("leader");
            w.push_back(leader_word(l.leader));
            w.emplace_back(resource_word(l.output));
          }
          std::string out = join(w);
          if (c.payment) out.append(" ").append(payment_words(*c.payment));
          return out;
        } else if constexpr (std::is_same_v<T, ActivateLeader>) {
          return "activate " + leader_word(c.leader);
        } else if constexpr (std::is_same_v<T, DiscardLeader>) {
          return "discard " + leader_word(c.leader);
        } else if constexpr (std::is_same_v<T, EndTurn>) {
          return "end";
        } else {
          return std::string(command_type(Command{c}));
        }
      },
      command);
}

std::vector<std::string> complete_words(std::string_view before, std::string_view word,
                                        std::span<const Command> legal) {
  const Words typed = split(before);
  std::set<std::string> out;
  const std::string prefix = split(word).empty() ? std::string() : split(word)[0];
  if (typed.empty()) {
    for (std::string_view verb : kVerbs)
      if (verb.starts_with(prefix)) out.emplace(verb);
    return {out.begin(), out.end()};
  }
  // The next word of every legal command whose words start with what was typed.
  for (const Command& c : legal) {
    const Words words = split(command_words(c));
    if (words.size() <= typed.size()) continue;
    if (!std::equal(typed.begin(), typed.end(), words.begin())) continue;
    if (words[typed.size()].starts_with(prefix)) out.insert(words[typed.size()]);
  }
  // What may be left out (decision 62) and what may follow it.
  if (typed[0] == "market" && typed.size() >= 3 && std::string_view("layout").starts_with(prefix) &&
      find_word(typed, 3, "layout") == typed.size())
    out.insert("layout");
  if ((typed[0] == "buy" && typed.size() >= 5) && std::string_view("pay").starts_with(prefix) &&
      find_word(typed, 5, "pay") == typed.size())
    out.insert("pay");
  return {out.begin(), out.end()};
}

}  // namespace eryantis::renaissance::render
