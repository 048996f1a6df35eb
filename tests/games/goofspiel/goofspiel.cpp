// Goofspiel's rules, codecs and words, described for the engine's adapter
// (eryantis/game/adapter.hpp). Small on purpose: docs/games.md quotes it.
#include "games/goofspiel/goofspiel.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "eryantis/game/adapter.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"

namespace eryantis::goofspiel {

namespace {

using game::Seat;
constexpr int kMaxCards = 13;

struct Options {
  int cards = 5;
  friend bool operator==(const Options&, const Options&) = default;
};

enum class End : std::uint8_t { None, Cards, Forfeit, Resign, Ended, Abandoned };
constexpr std::array<std::string_view, 6> kEndNames = {"none",   "cards", "forfeit",
                                                       "resign", "ended", "abandoned"};

struct State {
  std::uint8_t cards = 0;  // 0 = before create_match
  // The prize deck, top first. In a view, prizes not shown yet are 0.
  std::array<std::uint8_t, kMaxCards> prizes{};
  std::uint8_t round = 0;                 // prizes[round] is the one bid for
  std::array<std::uint16_t, 2> hands{};   // bit v-1: card v still in hand
  std::array<std::int8_t, 2> bids{};      // this round's bid: 0 none; -1 hidden (views)
  std::array<std::uint8_t, 2> scores{};
  End end = End::None;
  std::uint8_t winners = 0;  // bit per seat
  std::uint32_t events = 0;
  friend bool operator==(const State&, const State&) = default;
};

struct CreateMatch {
  Options options;
  game::Seed seed;
  friend bool operator==(const CreateMatch&, const CreateMatch&) = default;
};
struct Bid {
  std::uint8_t card = 0;  // 0 in an event shown to the other player: hidden
  friend bool operator==(const Bid&, const Bid&) = default;
};
struct SkipTurn {  // the absent seat bids its lowest card
  friend bool operator==(const SkipTurn&, const SkipTurn&) = default;
};
struct AwardForfeit {
  friend bool operator==(const AwardForfeit&, const AwardForfeit&) = default;
};
struct EndMatch {
  friend bool operator==(const EndMatch&, const EndMatch&) = default;
};
struct Resign {
  friend bool operator==(const Resign&, const Resign&) = default;
};
struct AbandonMatch {  // nobody played it for the platform's time: nobody wins
  friend bool operator==(const AbandonMatch&, const AbandonMatch&) = default;
};
using Command =
    std::variant<CreateMatch, Bid, SkipTurn, AwardForfeit, EndMatch, Resign, AbandonMatch>;
constexpr std::array<std::string_view, 7> kTypes = {
    "create_match", "bid", "skip_turn", "award_forfeit", "end_match", "resign", "abandon_match"};

struct Event {
  Seat seat = game::kNoSeat;
  Command command;
  std::vector<std::uint8_t> prizes;  // create_match: the shuffled deck (the only chance)
  friend bool operator==(const Event&, const Event&) = default;
};

game::RuleError refuse(std::string code, std::string message) {
  return {std::move(code), std::move(message)};
}
int lowest(std::uint16_t hand) { return std::countr_zero(hand) + 1; }

// --- the rules ---------------------------------------------------------------

game::Ruled<Event> check(const State& s, Seat seat, const Command& c, game::Authority a) {
  const bool server = a == game::Authority::Server;
  if (const auto* create = std::get_if<CreateMatch>(&c)) {
    if (!server) return std::unexpected(refuse("server_only", "only the server creates matches"));
    if (s.cards != 0) return std::unexpected(refuse("match_already_created", "already created"));
    const int n = create->options.cards;
    if (n < 3 || n > kMaxCards) return std::unexpected(refuse("invalid_options", "cards: 3..13"));
    Event e{game::kNoSeat, c, {}};
    e.prizes.resize(n);
    std::iota(e.prizes.begin(), e.prizes.end(), std::uint8_t{1});
    std::mt19937_64 rng(create->seed.hi ^ (create->seed.lo * 0x9e3779b97f4a7c15ull));
    std::shuffle(e.prizes.begin(), e.prizes.end(), rng);
    return e;
  }
  if (s.cards == 0) return std::unexpected(refuse("wrong_phase", "the match is not created"));
  if (s.end != End::None) return std::unexpected(refuse("match_over", "the match is over"));
  if (seat < 0 || seat > 1) return std::unexpected(refuse("invalid_seat", "seat 0 or 1"));
  const bool server_only = std::holds_alternative<SkipTurn>(c) ||
                           std::holds_alternative<AwardForfeit>(c) ||
                           std::holds_alternative<EndMatch>(c) ||
                           std::holds_alternative<AbandonMatch>(c);
  if (server_only && !server)
    return std::unexpected(refuse("server_only", "only the server sends that"));
  if (std::holds_alternative<SkipTurn>(c) || std::holds_alternative<Bid>(c)) {
    if (s.bids[seat] != 0)
      return std::unexpected(refuse("not_your_turn", "you bid already; wait for the other"));
  }
  if (const auto* bid = std::get_if<Bid>(&c)) {
    if (bid->card < 1 || bid->card > s.cards || !(s.hands[seat] & (1u << (bid->card - 1))))
      return std::unexpected(refuse("card_not_in_hand", "bid a card you still hold"));
  }
  return Event{seat, c, {}};
}

void finish(State& s, End end, std::uint8_t winners) {
  s.end = end;
  s.winners = winners;
}

void apply_in_place(State& s, const Event& e) {
  ++s.events;
  std::visit(
      [&](const auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, CreateMatch>) {
          s.cards = static_cast<std::uint8_t>(c.options.cards);
          std::copy(e.prizes.begin(), e.prizes.end(), s.prizes.begin());
          const auto all = static_cast<std::uint16_t>((1u << s.cards) - 1);
          s.hands = {all, all};
        } else if constexpr (std::is_same_v<T, Bid> || std::is_same_v<T, SkipTurn>) {
          int card = 0;
          if constexpr (std::is_same_v<T, Bid>)
            card = c.card;
          else
            card = lowest(s.hands[e.seat]);
          s.bids[e.seat] = static_cast<std::int8_t>(card);
          s.hands[e.seat] &= static_cast<std::uint16_t>(~(1u << (card - 1)));
          if (s.bids[0] > 0 && s.bids[1] > 0) {  // both bid: the round resolves
            if (s.bids[0] != s.bids[1]) s.scores[s.bids[0] > s.bids[1] ? 0 : 1] += s.prizes[s.round];
            s.bids = {0, 0};
            if (++s.round == s.cards) {
              const std::uint8_t w = s.scores[0] > s.scores[1]   ? 1
                                     : s.scores[1] > s.scores[0] ? 2
                                                                 : 3;
              finish(s, End::Cards, w);
            }
          }
        } else if constexpr (std::is_same_v<T, AwardForfeit>) {
          finish(s, End::Forfeit, static_cast<std::uint8_t>(1u << e.seat));
        } else if constexpr (std::is_same_v<T, Resign>) {
          finish(s, End::Resign, static_cast<std::uint8_t>(1u << (1 - e.seat)));
        } else if constexpr (std::is_same_v<T, AbandonMatch>) {
          finish(s, End::Abandoned, 0);
        } else {
          finish(s, End::Ended, 0);
        }
      },
      e.command);
}

// --- JSON --------------------------------------------------------------------

using Writer = rapidjson::Writer<json::StringSink>;

template <class Body>
std::string write(Body body) {
  std::string out;
  out.reserve(128);
  json::StringSink sink(out);
  Writer w(sink);
  body(w);
  sink.finish();
  return out;
}
void key(Writer& w, const char* k) { w.Key(k); }
void str(Writer& w, std::string_view v) { w.String(v.data(), static_cast<unsigned>(v.size())); }
std::string hex128(const game::Seed& s) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(s.hi),
                static_cast<unsigned long long>(s.lo));
  return buf;
}

void write_command(Writer& w, const Command& c) {
  w.StartObject();
  key(w, "type");
  str(w, kTypes[c.index()]);
  if (const auto* b = std::get_if<Bid>(&c)) {
    key(w, "card");
    w.Uint(b->card);
  }
  if (const auto* m = std::get_if<CreateMatch>(&c)) {
    key(w, "cards");
    w.Int(m->options.cards);
    key(w, "seed");
    str(w, hex128(m->seed));
  }
  w.EndObject();
}

struct Reader {
  const json::Value& v;
  std::string error;
  const json::Value* member(const char* k) const { return json::present_member(v, k); }
  std::optional<std::int64_t> integer(const char* k, std::int64_t lo, std::int64_t hi) {
    const json::Value* m = member(k);
    if (m && m->IsInt64() && m->GetInt64() >= lo && m->GetInt64() <= hi) return m->GetInt64();
    if (error.empty())
      error = "\"" + std::string(k) + "\" must be an integer " + std::to_string(lo) + ".." +
              std::to_string(hi);
    return std::nullopt;
  }
};

// `in_event`: the command of an event, which may be another seat's bid as a viewer
// is sent it (card 0: hidden, event_for); a player's command never is.
game::Decoded<Command> read_command(const json::Value& v, bool in_event = false) {
  if (!v.IsObject()) return std::unexpected(game::DecodeError{"a command is an object"});
  const json::Value* type = json::present_member(v, "type");
  if (!type || !type->IsString()) return std::unexpected(game::DecodeError{"\"type\" is missing"});
  const std::string_view t(type->GetString(), type->GetStringLength());
  Reader r{v, {}};
  if (t == "bid") {
    auto card = r.integer("card", in_event ? 0 : 1, kMaxCards);
    if (!card) return std::unexpected(game::DecodeError{r.error});
    return Bid{static_cast<std::uint8_t>(*card)};
  }
  if (t == "create_match") {
    auto cards = r.integer("cards", 3, kMaxCards);
    const json::Value* seed = r.member("seed");
    if (!cards || !seed || !seed->IsString() || seed->GetStringLength() != 32)
      return std::unexpected(game::DecodeError{"create_match needs cards and a 32-digit seed"});
    const std::string hex = seed->GetString();
    game::Seed s{std::stoull(hex.substr(0, 16), nullptr, 16),
                 std::stoull(hex.substr(16), nullptr, 16)};
    return CreateMatch{Options{static_cast<int>(*cards)}, s};
  }
  if (t == "skip_turn") return SkipTurn{};
  if (t == "award_forfeit") return AwardForfeit{};
  if (t == "end_match") return EndMatch{};
  if (t == "resign") return Resign{};
  if (t == "abandon_match") return AbandonMatch{};
  return std::unexpected(game::DecodeError{"unknown command type \"" + std::string(t) + "\""});
}

template <class T, class F>
game::Decoded<T> parse(std::string_view text, F read) {
  json::LineDocument line;
  auto& doc = line.doc();
  try {
    if (doc.Parse(text.data(), text.size()).HasParseError())
      return std::unexpected(game::DecodeError{"not JSON"});
    return read(static_cast<const json::Value&>(doc));
  } catch (const json::JsonAssertion&) {
    return std::unexpected(game::DecodeError{"not the expected JSON"});
  }
}

void write_state(Writer& w, const State& s) {
  w.StartObject();
  key(w, "cards");
  w.Uint(s.cards);
  key(w, "prizes");
  w.StartArray();
  for (int i = 0; i < s.cards; ++i) w.Uint(s.prizes[i]);
  w.EndArray();
  key(w, "round");
  w.Uint(s.round);
  for (const char* name : {"hands", "bids", "scores"}) {
    key(w, name);
    w.StartArray();
    for (int p = 0; p < 2; ++p) {
      const int v = name[0] == 'h' ? s.hands[p] : name[0] == 'b' ? s.bids[p] : s.scores[p];
      w.Int(v);
    }
    w.EndArray();
  }
  key(w, "end");
  str(w, kEndNames[static_cast<int>(s.end)]);
  key(w, "winners");
  w.Uint(s.winners);
  key(w, "events");
  w.Uint(s.events);
  w.EndObject();
}

game::Decoded<State> read_state(const json::Value& v) {
  if (!v.IsObject()) return std::unexpected(game::DecodeError{"a state is an object"});
  Reader r{v, {}};
  State s;
  auto cards = r.integer("cards", 0, kMaxCards);
  auto round = r.integer("round", 0, kMaxCards);
  auto winners = r.integer("winners", 0, 3);
  auto events = r.integer("events", 0, 1 << 30);
  if (!cards || !round || !winners || !events) return std::unexpected(game::DecodeError{r.error});
  s.cards = static_cast<std::uint8_t>(*cards);
  s.round = static_cast<std::uint8_t>(*round);
  s.winners = static_cast<std::uint8_t>(*winners);
  s.events = static_cast<std::uint32_t>(*events);
  const json::Value* prizes = r.member("prizes");
  if (!prizes || !prizes->IsArray() || prizes->Size() != s.cards)
    return std::unexpected(game::DecodeError{"\"prizes\" must list every card"});
  for (unsigned i = 0; i < s.cards; ++i) {
    if (!(*prizes)[i].IsUint() || (*prizes)[i].GetUint() > s.cards)
      return std::unexpected(game::DecodeError{"a prize is 0..cards"});
    s.prizes[i] = static_cast<std::uint8_t>((*prizes)[i].GetUint());
  }
  for (const char* name : {"hands", "bids", "scores"}) {
    const json::Value* a = r.member(name);
    if (!a || !a->IsArray() || a->Size() != 2 || !(*a)[0].IsInt() || !(*a)[1].IsInt())
      return std::unexpected(game::DecodeError{"\"" + std::string(name) + "\": two integers"});
    for (int p = 0; p < 2; ++p) {
      const int x = (*a)[p].GetInt();
      if (name[0] == 'h' && x >= 0 && x < (1 << kMaxCards))
        s.hands[p] = static_cast<std::uint16_t>(x);
      else if (name[0] == 'b' && x >= -1 && x <= kMaxCards)
        s.bids[p] = static_cast<std::int8_t>(x);
      else if (name[0] == 's' && x >= 0 && x <= 91)
        s.scores[p] = static_cast<std::uint8_t>(x);
      else
        return std::unexpected(game::DecodeError{"\"" + std::string(name) + "\" out of range"});
    }
  }
  const json::Value* end = r.member("end");
  const auto it = end && end->IsString() ? std::find(kEndNames.begin(), kEndNames.end(),
                                                     std::string_view(end->GetString()))
                                         : kEndNames.end();
  if (it == kEndNames.end()) return std::unexpected(game::DecodeError{"\"end\" is unknown"});
  s.end = static_cast<End>(it - kEndNames.begin());
  return s;
}

struct Goofspiel {
  using State = goofspiel::State;
  using Command = goofspiel::Command;
  using Event = goofspiel::Event;
  using Options = goofspiel::Options;

  static constexpr std::string_view kName = "goofspiel";
  static constexpr std::string_view kTitle = "Goofspiel";
  static constexpr int kVersion = 1;
  static constexpr int kMinSeats = 2;
  static constexpr int kMaxSeats = 2;
  static constexpr bool kViewsArePublic = false;  // a bid is hidden until both have bid
  static constexpr int kEventSchema = 1;
  static constexpr int kStateSchema = 1;

  static game::Ruled<Options> options_from_request(int seats, const json::Value* o) {
    if (seats != 2) return std::unexpected(refuse("invalid_options", "Goofspiel is for 2"));
    Options out;
    if (!o) return out;
    if (!o->IsObject()) return std::unexpected(refuse("invalid_options", "options: an object"));
    for (auto it = o->MemberBegin(); it != o->MemberEnd(); ++it) {
      if (std::string_view(it->name.GetString()) != "cards")
        return std::unexpected(refuse("invalid_options", "unknown option \"" +
                                                             std::string(it->name.GetString()) +
                                                             "\" (Goofspiel has: cards)"));
      if (!it->value.IsInt() || it->value.GetInt() < 3 || it->value.GetInt() > kMaxCards)
        return std::unexpected(refuse("invalid_options", "option \"cards\" must be 3..13"));
      out.cards = it->value.GetInt();
    }
    return out;
  }
  static std::string options_json(const Options& o) {
    return "{\"players\":2,\"cards\":" + std::to_string(o.cards) + "}";
  }
  static game::Decoded<Options> options_from_json(std::string_view text) {
    return parse<Options>(text, [](const json::Value& v) -> game::Decoded<Options> {
      const json::Value* cards = v.IsObject() ? json::present_member(v, "cards") : nullptr;
      if (!cards || !cards->IsInt()) return std::unexpected(game::DecodeError{"no cards"});
      return Options{cards->GetInt()};
    });
  }
  static int seats(const Options&) { return 2; }
  static Options options(const State& s) { return Options{s.cards}; }

  static game::Ruled<Event> create_match(const Options& o, const game::Seed& seed) {
    return check(State{}, game::kNoSeat, CreateMatch{o, seed}, game::Authority::Server);
  }
  static game::Ruled<std::pair<Event, State>> decide(const State& s, Seat seat, const Command& c,
                                                      game::Authority a) {
    auto e = check(s, seat, c, a);
    if (!e) return std::unexpected(std::move(e.error()));
    State next = s;
    apply_in_place(next, *e);
    return std::pair<Event, State>{std::move(*e), std::move(next)};
  }
  static State apply(const State& s, const Event& e) {
    State next = s;
    apply_in_place(next, e);
    return next;
  }
  static std::expected<void, game::RuleError> apply_checked(State& s, const Event& e) {
    auto again = check(s, e.seat, e.command,
                       is_server_command(e.command) ? game::Authority::Server
                                                    : game::Authority::Player);
    if (!again) return std::unexpected(std::move(again.error()));
    if (*again != e)
      return std::unexpected(refuse("inconsistent_event", "the recorded deck is not the seed's"));
    apply_in_place(s, e);
    return {};
  }
  static std::vector<Command> legal_commands(const State& s, Seat seat) {
    std::vector<Command> out;
    if (s.cards == 0 || s.end != End::None || seat < 0 || seat > 1 || s.bids[seat] != 0)
      return out;
    for (int v = 1; v <= s.cards; ++v)
      if (s.hands[seat] & (1u << (v - 1))) out.push_back(Bid{static_cast<std::uint8_t>(v)});
    return out;
  }
  static std::vector<game::ToAct> to_act(const State& s) {
    std::vector<game::ToAct> out;
    if (s.cards == 0 || s.end != End::None) return out;
    for (Seat p = 0; p < 2; ++p)
      if (s.bids[p] == 0) out.push_back({p, game::Wait::Turn});  // both bid at once
    return out;
  }
  static game::Stage stage(const State& s) {
    return s.end != End::None ? game::Stage::Over : game::Stage::Play;
  }
  static int seats(const State&) { return 2; }
  static std::optional<game::Outcome> outcome(const State& s) {
    if (s.end == End::None) return std::nullopt;
    game::Outcome o;
    o.reason = std::string(kEndNames[static_cast<int>(s.end)]);
    for (Seat p = 0; p < 2; ++p)
      if (s.winners & (1u << p)) o.winners.push_back(p);
    o.draw = o.winners.size() == 2;
    o.places = {s.winners & 1 || s.winners == 0 ? 1 : 2, s.winners & 2 || s.winners == 0 ? 1 : 2};
    o.details_json = "\"scores\":[" + std::to_string(s.scores[0]) + "," +
                     std::to_string(s.scores[1]) + "]";
    return o;
  }
  static std::uint64_t hash(const State& s) {
    // FNV-1a over the fields in declaration order: the same on every machine.
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&](std::uint64_t v) {
      for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * 0x100000001b3ull;
    };
    mix(s.cards);
    for (auto p : s.prizes) mix(p);
    mix(s.round);
    for (auto v : s.hands) mix(v);
    for (auto v : s.bids) mix(static_cast<std::uint8_t>(v));
    for (auto v : s.scores) mix(v);
    mix(static_cast<std::uint8_t>(s.end));
    mix(s.winners);
    mix(s.events);
    return h;
  }
  static State view(const State& s, Seat viewer) {
    State v = s;
    for (int i = s.round + 1; i < kMaxCards; ++i) v.prizes[i] = 0;  // the deck below the top
    for (Seat p = 0; p < 2; ++p)
      if (p != viewer && v.bids[p] > 0) {  // someone else's bid: made, not shown
        v.hands[p] |= static_cast<std::uint16_t>(1u << (v.bids[p] - 1));
        v.bids[p] = -1;
      }
    return v;
  }
  static Event event_for(const Event& e, Seat viewer) {
    Event out = e;
    if (std::holds_alternative<CreateMatch>(out.command)) {
      std::get<CreateMatch>(out.command).seed = {};
      for (std::size_t i = 1; i < out.prizes.size(); ++i) out.prizes[i] = 0;
    } else if (auto* b = std::get_if<Bid>(&out.command); b && e.seat != viewer) {
      b->card = 0;
    }
    return out;
  }
  static std::string invariant_violation(const State& s) {
    if (s.cards == 0) return {};
    for (int p = 0; p < 2; ++p)
      if (std::popcount(s.hands[p]) + s.round + (s.bids[p] > 0) != s.cards)
        return "seat " + std::to_string(p) + " holds the wrong number of cards";
    return {};
  }
  static std::string_view phase_name(const State& s) {
    return s.cards == 0 ? "setup" : s.end == End::None ? "bidding" : "game_over";
  }
  static int round(const State& s) { return s.round + (s.cards != 0); }

  static Command skip_turn() { return SkipTurn{}; }
  static Command award_forfeit() { return AwardForfeit{}; }
  static Command end_match() { return EndMatch{}; }
  static Command resign() { return Resign{}; }
  static Command abandon_match() { return AbandonMatch{}; }
  static std::string_view command_type(const Command& c) { return kTypes[c.index()]; }
  static bool is_server_command(const Command& c) {
    return !std::holds_alternative<Bid>(c) && !std::holds_alternative<Resign>(c);
  }

  static std::string command_to_json(const Command& c) {
    return write([&](Writer& w) { write_command(w, c); });
  }
  static game::Decoded<Command> command_from_json(const json::Value& v) { return read_command(v); }
  static game::Decoded<Command> command_from_json(std::string_view text) {
    return parse<Command>(text, [](const json::Value& v) { return read_command(v); });
  }
  static std::string event_to_json(const Event& e) {
    return write([&](Writer& w) {
      w.StartObject();
      key(w, "v");
      w.Int(kEventSchema);
      key(w, "type");
      str(w, kTypes[e.command.index()]);
      key(w, "seat");
      w.Int(e.seat);
      key(w, "command");
      write_command(w, e.command);
      key(w, "prizes");
      w.StartArray();
      for (auto p : e.prizes) w.Uint(p);
      w.EndArray();
      w.EndObject();
    });
  }
  static game::Decoded<Event> event_from_json(std::string_view text) {
    return parse<Event>(text, [](const json::Value& v) -> game::Decoded<Event> {
      if (!v.IsObject()) return std::unexpected(game::DecodeError{"an event is an object"});
      Reader r{v, {}};
      auto seat = r.integer("seat", -1, 1);
      const json::Value* command = r.member("command");
      const json::Value* prizes = r.member("prizes");
      if (!seat || !command || !prizes || !prizes->IsArray() || prizes->Size() > kMaxCards)
        return std::unexpected(game::DecodeError{"an event has seat, command and prizes"});
      auto c = read_command(*command, true);
      if (!c) return std::unexpected(std::move(c.error()));
      Event e{static_cast<Seat>(*seat), std::move(*c), {}};
      for (const auto& p : prizes->GetArray()) {
        if (!p.IsUint() || p.GetUint() > kMaxCards)
          return std::unexpected(game::DecodeError{"a prize is 0..13"});
        e.prizes.push_back(static_cast<std::uint8_t>(p.GetUint()));
      }
      return e;
    });
  }
  static std::string state_to_json(const State& s) {
    return write([&](Writer& w) { write_state(w, s); });
  }
  static game::Decoded<State> state_from_json(std::string_view text) {
    return parse<State>(text, read_state);
  }
  // The snapshot: the JSON text (a test game has no need to be compact).
  static std::string state_to_binary(const State& s) { return state_to_json(s); }
  static game::Decoded<State> state_from_binary(std::string_view bytes) {
    return state_from_json(bytes);
  }
  static std::string view_to_json(const State& v, Seat viewer) {
    return write([&](Writer& w) {
      w.StartObject();
      key(w, "viewer");
      w.Int(viewer);
      key(w, "state");
      write_state(w, v);
      w.EndObject();
    });
  }
  static game::Decoded<State> view_from_json(std::string_view text) {
    return parse<State>(text, [](const json::Value& v) -> game::Decoded<State> {
      const json::Value* s = v.IsObject() ? json::present_member(v, "state") : nullptr;
      if (!s) return std::unexpected(game::DecodeError{"a view has a state"});
      return read_state(*s);
    });
  }

  static std::string describe_event(const State& before, const Event& e, const State& after,
                                    const game::Names& names) {
    auto who = [&](Seat p) {
      return p >= 0 && !names[p].empty() ? names[p] : "seat " + std::to_string(p);
    };
    if (std::holds_alternative<CreateMatch>(e.command))
      return "a match of " + std::to_string(after.cards) + " cards was dealt";
    if (std::holds_alternative<Resign>(e.command)) return who(e.seat) + " resigned";
    if (std::holds_alternative<AwardForfeit>(e.command)) return who(e.seat) + " won by forfeit";
    if (std::holds_alternative<EndMatch>(e.command)) return "the match was ended";
    if (std::holds_alternative<AbandonMatch>(e.command))
      return "the match was abandoned: nobody played it";
    std::string text = who(e.seat) + (std::holds_alternative<SkipTurn>(e.command)
                                          ? " was away: the lowest card was bid"
                                          : " bid");
    if (after.round != before.round) {  // the round resolved: both bids are shown
      const int prize = before.prizes[before.round];
      const int mine = std::holds_alternative<Bid>(e.command)
                           ? std::get<Bid>(e.command).card
                           : lowest(before.hands[e.seat]);
      const int theirs = before.bids[1 - e.seat];
      text += " " + std::to_string(mine) + " against " + std::to_string(theirs) + ": ";
      text += mine == theirs ? "nobody takes the " + std::to_string(prize)
                             : who(mine > theirs ? e.seat : 1 - e.seat) + " takes the " +
                                   std::to_string(prize);
    }
    return text;
  }
  static std::string render_board(const State& s, const game::BoardOptions& b) {
    auto who = [&](int p) {
      return !b.names[p].empty() ? b.names[p] : "seat " + std::to_string(p);
    };
    std::string out = "Goofspiel, " + std::to_string(s.cards) + " cards, round " +
                      std::to_string(round(s)) + "\n";
    if (s.cards != 0 && s.end == End::None)
      out += "prize: " + std::to_string(s.prizes[s.round]) + "\n";
    for (int p = 0; p < 2; ++p) {
      // Appended piece by piece: g++ 12 warns (-Wrestrict) on chains of + here.
      out.append(who(p)).append(p == b.viewer ? " (you)" : "").append(": ");
      out.append(std::to_string(s.scores[p])).append(" points, hand");
      for (int v = 1; v <= s.cards; ++v)
        if (s.hands[p] & (1u << (v - 1))) out.append(" ").append(std::to_string(v));
      if (s.bids[p] > 0) out.append(", bid ").append(std::to_string(s.bids[p]));
      if (s.bids[p] < 0) out.append(", has bid");
      out.append("\n");
    }
    if (auto o = outcome(s)) out += "game over: " + o->reason + "\n";
    return out;
  }
  static std::string legal_summary(const State& s, Seat seat) {
    return legal_commands(s, seat).empty() ? "" : "bid a card";
  }
  static std::vector<std::string> help_topics() { return {"bid"}; }
  static std::optional<std::string> help(std::string_view topic) {
    if (topic.empty() || topic == "bid")
      return std::string("bid N: offer card N for this round's prize; the higher bid takes it.\n");
    return std::nullopt;
  }
  static std::expected<std::optional<Command>, std::string> command_from_words(
      std::string_view line) {
    if (line.rfind("bid", 0) != 0) return std::optional<Command>{};
    try {
      const int v = std::stoi(std::string(line.substr(3)));
      if (v >= 1 && v <= kMaxCards) return std::optional<Command>{Bid{static_cast<std::uint8_t>(v)}};
    } catch (const std::exception&) {
    }
    return std::unexpected(std::string("type bid and a card: bid 3"));
  }
  static std::string command_words(const Command& c) {
    if (const auto* b = std::get_if<Bid>(&c)) return "bid " + std::to_string(b->card);
    return std::string(kTypes[c.index()]);
  }
  static std::vector<std::string> complete_words(std::string_view before, std::string_view word,
                                                 std::span<const Command> legal) {
    std::vector<std::string> out;
    if (before.empty()) {
      if (std::string_view("bid").starts_with(word)) out.push_back("bid");
      return out;
    }
    for (const Command& c : legal)
      if (const auto* b = std::get_if<Bid>(&c))
        if (std::string v = std::to_string(b->card); v.starts_with(word)) out.push_back(v);
    return out;
  }

  static State determinise(const State& v, Seat seat, std::uint64_t rng_seed) {
    State s = v;
    std::mt19937_64 rng(rng_seed);
    // The prizes not shown yet: every value not among those shown, in a random order.
    std::vector<std::uint8_t> unseen;
    for (int value = 1; value <= s.cards; ++value)
      if (std::find(s.prizes.begin(), s.prizes.begin() + s.round + 1, value) ==
          s.prizes.begin() + s.round + 1)
        unseen.push_back(static_cast<std::uint8_t>(value));
    std::shuffle(unseen.begin(), unseen.end(), rng);
    for (std::size_t i = 0; i < unseen.size(); ++i) s.prizes[s.round + 1 + i] = unseen[i];
    // The other's hidden bid (the view keeps the card in their hand): any card of it.
    const int other = 1 - seat;
    if (s.bids[other] < 0) {
      std::vector<int> hand;
      for (int value = 1; value <= s.cards; ++value)
        if (s.hands[other] & (1u << (value - 1))) hand.push_back(value);
      const int bid = hand[rng() % hand.size()];
      s.bids[other] = static_cast<std::int8_t>(bid);
      s.hands[other] &= static_cast<std::uint16_t>(~(1u << (bid - 1)));
    }
    return s;
  }
  static std::array<double, game::kMaxSeats> evaluate(const State& s) {
    std::array<double, game::kMaxSeats> out{};
    if (auto o = outcome(s)) {
      for (int p = 0; p < 2; ++p) out[p] = o->places[p] == 1 ? (o->draw ? 0.0 : 1000.0) : -1000.0;
      return out;
    }
    out[0] = s.scores[0] - s.scores[1];
    out[1] = -out[0];
    return out;
  }
};

static_assert(game::Rules<Goofspiel>);

}  // namespace

std::unique_ptr<const game::Game> make_game() {
  return std::make_unique<const game::Adapter<Goofspiel>>();
}

}  // namespace eryantis::goofspiel
