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

// "90s", "10m", "24h", "2d": at most 4 digits, then one unit.
std::expected<Millis, ClockError> parse_duration(std::string_view text) {
  const auto bad = [&] {
    return refuse(ClockErrorCode::BadName, quoted(text, " is not a duration: write a number and s, m, h or d, e.g. 90s, 10m, 24h"));
  };
  if (text.size() < 2 || text.size() > 5) return bad();
  Millis n = 0;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return bad();
    n = n * 10 + (text[i] - '0');
  }
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
      if (c.bank_ms != 0 || c.increment_ms != 0 || c.per_turn_ms != 0)
        return bad("a match without a clock has no bank, increment or time per turn");
      return {};
    case ClockKind::RealTime:
      if (c.per_turn_ms != 0) return bad("a real-time clock has a bank and an increment, not a time per turn");
      if (c.bank_ms < kMinBankMs || c.bank_ms > kMaxBankMs)
        return bad("a real-time bank is between 10 seconds and 12 hours");
      if (c.increment_ms < 0 || c.increment_ms > kMaxIncrementMs)
        return bad("an increment is between 0 and 10 minutes");
      return {};
    case ClockKind::TurnBased:
      if (c.bank_ms != 0 || c.increment_ms != 0)
        return bad("a turn-based clock has a time per turn, not a bank or an increment");
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
  TimeControl c;
  c.on_timeout = on_timeout;
  if (text == "none") return c;
  constexpr std::string_view kPerTurn = "/turn";
  if (text.size() > kPerTurn.size() && text.ends_with(kPerTurn)) {
    auto per_turn = parse_duration(text.substr(0, text.size() - kPerTurn.size()));
    if (!per_turn) return std::unexpected(std::move(per_turn.error()));
    c.kind = ClockKind::TurnBased;
    c.per_turn_ms = *per_turn;
  } else if (const auto plus = text.find('+'); plus != std::string_view::npos) {
    auto bank = parse_duration(text.substr(0, plus));
    if (!bank) return std::unexpected(std::move(bank.error()));
    auto increment = parse_duration(text.substr(plus + 1));
    if (!increment) return std::unexpected(std::move(increment.error()));
    c.kind = ClockKind::RealTime;
    c.bank_ms = *bank;
    c.increment_ms = *increment;
  } else {
    return refuse(ClockErrorCode::BadName, quoted(text, " is not a time control: none, a bank and an increment (10m+5s) or a time "
                            "per turn (24h/turn)"));
  }
  if (auto ok = check_time_control(c); !ok) return std::unexpected(std::move(ok.error()));
  return c;
}

std::string time_control_text(const TimeControl& c) {
  switch (c.kind) {
    case ClockKind::None:
      return "none";
    case ClockKind::RealTime:
      return duration_text(c.bank_ms) + "+" + duration_text(c.increment_ms);
    case ClockKind::TurnBased:
      return duration_text(c.per_turn_ms) + "/turn";
  }
  return "none";
}

}  // namespace eryantis::clocks
