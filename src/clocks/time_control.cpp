#include "eryantis/clocks/time_control.hpp"

#include <array>
#include <utility>

namespace eryantis::clocks {

namespace {
std::unexpected<ClockError> refuse(ClockErrorCode code, std::string message) {
  return std::unexpected(ClockError{code, std::move(message)});
}

// "'text'" then `rest`, built by appending (g++ 12 warns falsely on "'" + std::string(...)).
std::string quoted(std::string_view text, std::string_view rest) {
  std::string out;
  out.reserve(text.size() + rest.size() + 2);
  out += '\'';
  out += text;
  out += '\'';
  out += rest;
  return out;
}

struct Unit {
  char letter;
  Millis ms;
};
constexpr std::array<Unit, 4> kUnits{{{'d', 86'400'000}, {'h', 3'600'000}, {'m', 60'000}, {'s', 1'000}}};

// "90s", "10m", "24h", "2d": at most 4 digits, then one unit; or the digits alone when the
// place has a unit of its own (`bare_ms`: chess's "10+5" is minutes + seconds).
std::expected<Millis, ClockError> parse_duration(std::string_view text, Millis bare_ms = 0) {
  const auto bad = [&] {
    return refuse(ClockErrorCode::BadName, quoted(text, " is not a duration: write a number and s, m, h or d, e.g. 90s, 10m, 24h"));
  };
  if (text.empty() || text.size() > 5) return bad();
  const bool bare = text.back() >= '0' && text.back() <= '9';
  if (bare && (bare_ms == 0 || text.size() > 4)) return bad();
  const std::string_view digits = bare ? text : text.substr(0, text.size() - 1);
  if (digits.empty()) return bad();
  Millis n = 0;
  for (const char ch : digits) {
    if (ch < '0' || ch > '9') return bad();
    n = n * 10 + (ch - '0');
  }
  if (bare) return n * bare_ms;
  for (const Unit& u : kUnits)
    if (text.back() == u.letter) return n * u.ms;
  return bad();
}

std::string duration_text(Millis ms) {
  if (ms == 0) return "0s";
  for (const Unit& u : kUnits)
    if (ms % u.ms == 0) return std::to_string(ms / u.ms) + u.letter;
  return std::to_string(ms) + "ms";
}
}  // namespace

std::string_view code_name(ClockErrorCode code) {
  switch (code) {
    case ClockErrorCode::BadTimeControl:
      return "BAD_TIME_CONTROL";
    case ClockErrorCode::BadName:
      return "BAD_NAME";
  }
  return "BAD_TIME_CONTROL";
}

std::expected<void, ClockError> check_time_control(const TimeControl& c) {
  const auto bad = [](std::string why) { return refuse(ClockErrorCode::BadTimeControl, std::move(why)); };
  switch (c.kind) {
    case ClockKind::None:
      if (c.bank_ms != 0 || c.increment_ms != 0 || c.per_turn_ms != 0 || c.delay_ms != 0)
        return bad("a match without a clock has no bank, increment, delay or time per turn");
      return {};
    case ClockKind::RealTime:
      if (c.per_turn_ms != 0) return bad("a real-time clock has a bank and an increment, not a time per turn");
      if (c.bank_ms < kMinBankMs || c.bank_ms > kMaxBankMs)
        return bad("a real-time bank is between 10 seconds and 12 hours");
      if (c.increment_ms < 0 || c.increment_ms > kMaxIncrementMs)
        return bad("an increment is between 0 and 10 minutes");
      if (c.delay_ms < 0 || c.delay_ms > kMaxDelayMs) return bad("a delay is between 0 and 10 minutes");
      return {};
    case ClockKind::TurnBased:
      if (c.bank_ms != 0 || c.increment_ms != 0 || c.delay_ms != 0)
        return bad("a turn-based clock has a time per turn, not a bank, an increment or a delay");
      if (c.per_turn_ms < kMinPerTurnMs || c.per_turn_ms > kMaxPerTurnMs)
        return bad("a turn-based clock gives between 1 minute and 30 days per turn");
      return {};
  }
  return bad("unknown clock kind");
}

std::string_view kind_name(ClockKind kind) {
  switch (kind) {
    case ClockKind::None:
      return "none";
    case ClockKind::RealTime:
      return "real_time";
    case ClockKind::TurnBased:
      return "turn_based";
  }
  return "none";
}

std::expected<ClockKind, ClockError> kind_from_name(std::string_view name) {
  for (ClockKind k : {ClockKind::None, ClockKind::RealTime, ClockKind::TurnBased})
    if (kind_name(k) == name) return k;
  return refuse(ClockErrorCode::BadName,
                quoted(name, " is not a clock: none, real_time or turn_based"));
}

std::string_view on_timeout_name(OnTimeout action) {
  switch (action) {
    case OnTimeout::Skip:
      return "skip";
    case OnTimeout::Computer:
      return "computer";
    case OnTimeout::Forfeit:
      return "forfeit";
  }
  return "skip";
}

std::expected<OnTimeout, ClockError> on_timeout_from_name(std::string_view name) {
  for (OnTimeout a : {OnTimeout::Skip, OnTimeout::Computer, OnTimeout::Forfeit})
    if (on_timeout_name(a) == name) return a;
  return refuse(ClockErrorCode::BadName,
                quoted(name, " is not what a timeout does: skip, computer or forfeit"));
}

std::expected<TimeControl, ClockError> parse_time_control(std::string_view text, OnTimeout on_timeout) {
  constexpr Millis kMinute = 60'000;
  constexpr Millis kSecond = 1'000;
  TimeControl c;
  c.on_timeout = on_timeout;
  if (text == "none") return c;
  const auto fail = [](ClockError e) { return std::unexpected(std::move(e)); };
  std::string_view per_turn_text;
  for (const std::string_view suffix : {std::string_view("/turn"), std::string_view("/move")})
    if (text.size() > suffix.size() && text.ends_with(suffix)) per_turn_text = text.substr(0, text.size() - suffix.size());
  if (!per_turn_text.empty()) {
    auto per_turn = parse_duration(per_turn_text);
    if (!per_turn) return fail(std::move(per_turn.error()));
    c.kind = ClockKind::TurnBased;
    c.per_turn_ms = *per_turn;
  } else {
    std::string_view main = text;
    bool has_delay = false;
    if (const auto semi = text.find(';'); semi != std::string_view::npos) {
      const std::string_view delay = text.substr(semi + 1);
      if (!delay.starts_with('d'))
        return refuse(ClockErrorCode::BadName, quoted(text, " is not a time control: a delay is written ;d and a duration, e.g. 5m;d3s"));
      auto ms = parse_duration(delay.substr(1), kSecond);
      if (!ms) return fail(std::move(ms.error()));
      c.delay_ms = *ms;
      has_delay = true;
      main = text.substr(0, semi);
    }
    const auto plus = main.find('+');
    const std::string_view bank_text = main.substr(0, plus);
    const bool bare_alone = plus == std::string_view::npos && !has_delay && !bank_text.empty() &&
                            bank_text.back() >= '0' && bank_text.back() <= '9';
    if (bare_alone)
      return refuse(ClockErrorCode::BadName,
                    quoted(text, " is not a time control: none, a bank and an increment (10+5, 10m+5s), a bank "
                                 "and a delay (5m;d3s) or a time per move (24h/turn, 3d/move)"));
    auto bank = parse_duration(bank_text, kMinute);
    if (!bank) return fail(std::move(bank.error()));
    c.kind = ClockKind::RealTime;
    c.bank_ms = *bank;
    if (plus != std::string_view::npos) {
      auto increment = parse_duration(main.substr(plus + 1), kSecond);
      if (!increment) return fail(std::move(increment.error()));
      c.increment_ms = *increment;
    }
  }
  if (auto ok = check_time_control(c); !ok) return fail(std::move(ok.error()));
  return c;
}

std::string time_control_text(const TimeControl& c) {
  switch (c.kind) {
    case ClockKind::None:
      return "none";
    case ClockKind::RealTime:
      if (c.delay_ms != 0)
        return duration_text(c.bank_ms) + "+" + duration_text(c.increment_ms) + ";d" + duration_text(c.delay_ms);
      return duration_text(c.bank_ms) + "+" + duration_text(c.increment_ms);
    case ClockKind::TurnBased:
      return duration_text(c.per_turn_ms) + "/turn";
  }
  return "none";
}

}  // namespace eryantis::clocks
