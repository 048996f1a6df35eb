// The client's mirror of a match: the rules' own apply_checked() over the events
// the server pushes, checked against the server's seq and hash after every step.
// What a server sends is input: an illegal event or view is a desync, never a crash.
#include "eryantis/client/match_mirror.hpp"

#include <algorithm>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/invariants.hpp"

namespace eryantis::client {

std::string hash_hex(std::uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kHex[v & 0xf];
  return out;
}

std::string state_hash_hex(const rules::State& s) {
  return hash_hex(rules::hash(s));
}

bool MatchMirror::load_state(const ServerMessage& m) {
  return load_state(m.match.value_or(0), m.seq.value_or(0), m.seat, m.view_json, m.hash);
}

bool MatchMirror::load_state(std::int64_t match, std::int64_t seq, std::optional<int> seat,
                             std::string_view view_json, std::string_view hash) {
  match_ = match;
  seq_ = seq;
  seat_ = seat ? static_cast<rules::Seat>(*seat) : rules::kNoSeat;
  // The view's state has no seed (the match's secret): view_from_json reads it as 0,
  // which is exactly the state the server hashes for clients.
  auto view = codec::view_from_json(view_json);
  if (!view) {
    state_ = rules::State{};
    fail("unreadable view: " + view.error().message);
    return false;
  }
  // The rules index arrays with what the view holds: a broken one is refused here.
  if (view->state.events_applied > 0) {
    if (std::string broken = rules::invariant_violation(view->state); !broken.empty()) {
      state_ = rules::State{};
      fail("the view breaks the game's invariants: " + broken);
      return false;
    }
  }
  state_ = std::move(view->state);
  if (!hash.empty() && hash != state_hash_hex(state_)) {
    fail("the state's hash " + std::string(hash) + " does not match its view (" +
         state_hash_hex(state_) + ")");
    return false;
  }
  needs_sync_ = false;
  problem_.clear();
  return true;
}

MatchMirror::Update MatchMirror::on_event(const ServerMessage& m) {
  return on_event(m.match.value_or(0), m.seq.value_or(0), m.event_json, m.hash);
}

MatchMirror::Update MatchMirror::on_event(std::int64_t match, std::int64_t seq,
                                          std::string_view event_json, std::string_view hash) {
  if (match != match_ || needs_sync_ || seq <= seq_) return Update::Ignored;
  if (seq != seq_ + 1)
    return fail("seq gap: mirrored " + std::to_string(seq_) + ", received " + std::to_string(seq));
  auto event = codec::event_from_json(event_json);
  if (!event) return fail("unreadable event " + std::to_string(seq) + ": " + event.error().message);
  auto next = rules::apply_checked(state_, *event);
  if (!next)
    return fail("event " + std::to_string(seq) + " is refused by the rules: " +
                std::string(rules::rule_code_name(next.error().code)) + " (" +
                next.error().message + ")");
  state_ = std::move(*next);
  seq_ = seq;
  ++events_applied_;
  if (!hash.empty()) {
    const std::string mine = state_hash_hex(state_);
    if (hash != mine)
      return fail("hash mismatch after event " + std::to_string(seq) + ": server " +
                  std::string(hash) + ", mirror " + mine);
  }
  return Update::Applied;
}

MatchMirror::Update MatchMirror::fail(std::string why) {
  if (!needs_sync_) ++syncs_needed_;
  needs_sync_ = true;
  problem_ = std::move(why);
  return Update::NeedsSync;
}

void MatchMirror::mark_needs_sync(std::string why) {
  fail(std::move(why));
}

void MatchMirror::clear() {
  match_ = 0;
  seq_ = 0;
  seat_ = rules::kNoSeat;
  state_ = rules::State{};
  needs_sync_ = false;
  problem_.clear();
}

std::vector<rules::Seat> MatchMirror::to_act() const {
  if (!synced()) return {};
  return rules::seats_to_act(state_);
}

bool MatchMirror::my_turn() const {
  if (!synced() || seat_ == rules::kNoSeat) return false;
  const auto seats = rules::seats_to_act(state_);
  return std::find(seats.begin(), seats.end(), seat_) != seats.end();
}

std::vector<rules::Command> MatchMirror::legal_commands() const {
  if (!my_turn()) return {};
  return rules::legal_commands(state_, seat_);
}

}  // namespace eryantis::client
