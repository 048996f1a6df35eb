// One match's bots: creates the match, seats the others, starts the next game,
// and gathers them again after a server restart.
#include <algorithm>
#include <string>

#include <spdlog/fmt/fmt.h>

#include "bot.hpp"

namespace eryantis::bot {

void Table::on_lobby() {
  // A restart of the server forgets a join that was not yet durable: that bot is
  // in the lobby while the others sit in the match, which waits for its seat.
  // Join again (a bot that is still offline comes here once it logs in).
  const bool someone_seated = std::any_of(
      bots_.begin(), bots_.end(), [](const auto& b) { return b->phase() == Bot::Phase::InMatch; });
  if (match_ != 0 && !saw_game_over_ && someone_seated &&
      (state_ == State::Filling || state_ == State::Playing)) {
    for (auto& b : bots_)
      if (b->phase() == Bot::Phase::Lobby) b->send_join(match_);
    return;
  }
  for (auto& b : bots_)
    if (b->phase() != Bot::Phase::Lobby) return;
  // Everyone is back in the lobby: the game (if one was running) is over.
  if (state_ != State::Idle) {
    if (saw_game_over_) runner_.on_game_finished();
    state_ = State::Idle;
    match_ = 0;
    saw_game_over_ = false;
    seated_ = false;
  }
  start_if_ready();
}

void Table::start_if_ready() {
  if (state_ != State::Idle || !runner_.may_start_game()) return;
  for (auto& b : bots_)
    if (b->phase() != Bot::Phase::Lobby) return;
  state_ = State::Creating;
  ++runner_.stats().games_started;
  bots_[0]->send_create();
}

void Table::on_created(std::int64_t match) {
  if (state_ != State::Creating) return;
  state_ = State::Filling;
  match_ = match;
  // Only bots in the lobby can join now; one still offline joins once it is back.
  // (The computer seats are taken by the server with the match: no bot joins them.)
  for (std::size_t i = 1; i < bots_.size(); ++i)
    if (bots_[i]->phase() == Bot::Phase::Lobby) bots_[i]->send_join(match);
}

void Table::on_resumed(int index, std::int64_t match) {
  // The creator's match was stored but its `joined` reply lost to a restart: the
  // match exists, so it is filled like a fresh one.
  if (index == 0 && state_ == State::Creating) on_created(match);
  on_lobby();  // seats others whose join was lost
}

void Table::on_joined() {
  if (seated_) return;
  for (auto& b : bots_)
    if (b->phase() != Bot::Phase::InMatch) return;
  seated_ = true;
  state_ = State::Playing;
  runner_.on_seated();
}

void Table::on_disconnect(Clock::time_point at) {
  if (outage_since_) return;
  outage_since_ = at;
  runner_.outage_started(at);
}

void Table::on_ack() {
  if (!outage_since_) return;
  for (auto& b : bots_)
    if (!b->connected()) return;
  const auto since = *outage_since_;
  outage_since_.reset();
  runner_.outage_ended(since);
}

std::string Table::describe() const {
  static constexpr const char* kStates[] = {"idle", "creating", "filling", "playing"};
  static constexpr const char* kPhases[] = {"offline", "connecting", "logging-in", "lobby",
                                            "joining", "in-match",   "dead"};
  std::string phases;
  for (const auto& b : bots_) {
    if (!phases.empty()) phases += ',';
    phases += kPhases[static_cast<std::size_t>(b->phase())];
  }
  return fmt::format("table {}: {} match {}{}, bots {}", index_,
                     kStates[static_cast<std::size_t>(state_)], match_,
                     saw_game_over_ ? " (game over seen)" : "", phases);
}

}  // namespace eryantis::bot
