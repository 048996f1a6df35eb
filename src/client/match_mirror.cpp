// The client's mirror of a match: the game's own apply_checked_view() over the events
// the server pushes (or the view it sends with them), checked against the server's
// seq and hash after every step. What a server sends is input: an illegal event or
// view is a desync, never a crash.
#include "eryantis/client/match_mirror.hpp"

#include <algorithm>

namespace eryantis::client {

std::string hash_hex(std::uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kHex[v & 0xf];
  return out;
}

bool MatchMirror::load_state(const ServerMessage& m) {
  return load_state(m.match.value_or(0), m.seq.value_or(0), m.seat, m.view_json, m.hash, m.game);
}

std::string MatchMirror::read_view(std::string_view view_json, game::State& out) const {
  // The view has no seed (the match's secret): the game reads it as none, which is
  // exactly the state the server hashes for this connection.
  auto view = game_->view_from_json(view_json);
  if (!view) return "unreadable view: " + view.error().message;
  // The rules index arrays with what the view holds: a broken one is refused here.
  if (std::string broken = game_->view_violation(*view); !broken.empty())
    return "the view breaks the game's invariants: " + broken;
  out = std::move(*view);
  return {};
}

bool MatchMirror::load_state(std::int64_t match, std::int64_t seq, std::optional<int> seat,
                             std::string_view view_json, std::string_view hash,
                             std::string_view game) {
  match_ = match;
  seq_ = seq;
  seat_ = seat ? static_cast<game::Seat>(*seat) : game::kNoSeat;
  state_ = game::State{};
  game_ = game.empty() ? &games_->default_game() : games_->find(game);
  if (!game_) {
    fail("this client does not know the game \"" + std::string(game) + "\"");
    return false;
  }
  if (std::string problem = read_view(view_json, state_); !problem.empty()) {
    fail(std::move(problem));
    return false;
  }
  if (!hash.empty()) {
    const std::string mine = hash_hex(game_->hash(state_));
    if (hash != mine) {
      fail("the state's hash " + std::string(hash) + " does not match its view (" + mine + ")");
      return false;
    }
  }
  needs_sync_ = false;
  problem_.clear();
  return true;
}

MatchMirror::Update MatchMirror::on_event(const ServerMessage& m) {
  return on_event(m.match.value_or(0), m.seq.value_or(0), m.event_json, m.hash, m.view_json);
}

MatchMirror::Update MatchMirror::on_event(std::int64_t match, std::int64_t seq,
                                          std::string_view event_json, std::string_view hash,
                                          std::string_view view_json) {
  if (match != match_ || needs_sync_ || !game_ || seq <= seq_) return Update::Ignored;
  if (seq != seq_ + 1)
    return fail("seq gap: mirrored " + std::to_string(seq_) + ", received " + std::to_string(seq));
  game::State next;
  if (!view_json.empty() && !game_->views_are_public()) {
    // A game that hides part of an event from some seats (a bid made, not shown)
    // cannot be folded from what this seat sees: with full updates, the server's
    // view after the event is the truth. A public game is folded even then, so the
    // hash checks that this client's rules agree with the server's.
    if (std::string problem = read_view(view_json, next); !problem.empty())
      return fail("event " + std::to_string(seq) + ": " + problem);
  } else {
    auto event = game_->event_from_json(event_json);
    if (!event)
      return fail("unreadable event " + std::to_string(seq) + ": " + event.error().message);
    // A game whose views hide something folds what this seat was told (the event as
    // it may see it) over its view; a public game's fold is apply_checked's.
    auto folded = game_->apply_checked_view(state_, seat_, *event);
    if (!folded)
      return fail("event " + std::to_string(seq) + " is refused by the rules: " +
                  folded.error().code + " (" + folded.error().message + ")");
    next = std::move(*folded);
  }
  state_ = std::move(next);
  seq_ = seq;
  ++events_applied_;
  if (!hash.empty()) {
    const std::string mine = hash_hex(game_->hash(state_));
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
  game_ = nullptr;
  match_ = 0;
  seq_ = 0;
  seat_ = game::kNoSeat;
  state_ = game::State{};
  needs_sync_ = false;
  problem_.clear();
}

game::Stage MatchMirror::stage() const {
  if (!game_ || state_.empty()) return game::Stage::Setup;
  return game_->stage(state_);
}

bool MatchMirror::game_over() const {
  return stage() == game::Stage::Over;
}

std::vector<game::Seat> MatchMirror::to_act() const {
  if (!synced()) return {};
  std::vector<game::Seat> seats;
  for (const game::ToAct& t : game_->to_act(state_)) seats.push_back(t.seat);
  return seats;
}

bool MatchMirror::my_turn() const {
  if (!synced() || seat_ == game::kNoSeat) return false;
  const auto seats = to_act();
  return std::find(seats.begin(), seats.end(), seat_) != seats.end();
}

std::vector<game::Command> MatchMirror::legal_commands() const {
  if (!my_turn()) return {};
  return game_->legal_commands(state_, seat_);
}

}  // namespace eryantis::client
