#include "match_writer.hpp"

#include <spdlog/fmt/fmt.h>

#include <array>
#include <cstdio>

namespace eryantis::selfplay {

namespace {

constexpr std::array<const char*, game::kMaxSeats> kNicknames = {"alice", "bob", "carol", "dana"};

store::NewEvent new_event(const game::Game& g, const game::Event& e, std::uint64_t hash) {
  store::NewEvent n;
  // Who caused it, as the game says: the store checks this column against the event.
  const game::Seat actor = g.event_actor(e);
  n.actor = actor == game::kNoSeat ? store::Actor::server() : store::Actor::player(actor);
  n.event = e;
  n.state_hash = hash;
  return n;
}

}  // namespace

std::string result_json(const game::Game& g, const game::State& over) {
  const std::optional<game::Outcome> outcome = g.outcome(over);
  if (!outcome) return {};
  std::string winners, nicknames;
  for (const game::Seat p : outcome->winners) {
    if (!winners.empty()) {
      winners += ',';
      nicknames += ',';
    }
    winners += std::to_string(p);
    nicknames += fmt::format("\"{}\"", kNicknames[static_cast<std::size_t>(p)]);
  }
  return fmt::format(
      R"({{"type":"result","reason":"{}","winners":[{}],"nicknames":[{}],"draw":{}{}}})",
      outcome->reason, winners, nicknames, outcome->draw,
      outcome->details_json.empty() ? "" : "," + outcome->details_json);
}

std::optional<MatchWriter> MatchWriter::open(const std::string& path, const game::Registry& games,
                                             int batch) {
  store::Options options;
  options.durability = store::Durability::Normal;  // generated data: no fsync per commit
  options.games = &games;
  auto opened = store::SqliteStore::open(path, options);
  if (!opened) {
    std::fprintf(stderr, "eryantis-selfplay: cannot open %s: %s\n", path.c_str(),
                 opened.error().message.c_str());
    return std::nullopt;
  }
  auto max_id = opened->max_match_id();
  if (!max_id) {
    std::fprintf(stderr, "eryantis-selfplay: %s: %s\n", path.c_str(),
                 max_id.error().message.c_str());
    return std::nullopt;
  }
  return MatchWriter(std::move(*opened), *max_id + 1, batch);
}

bool MatchWriter::add(const PlayedMatch& m) {
  const game::Game& g = *m.game;
  const store::MatchId id = next_id_++;
  store::AppendRequest create =
      store::AppendRequest::of(id, 0, {new_event(g, m.events[0], m.hashes[0])}, m.after_first);
  create.game = &g;
  create.create =
      store::NewMatch{m.options, store::MatchStatus::Lobby, std::string(g.name()), g.version()};
  for (int p = 0; p < g.seats(m.options); ++p) {
    store::SeatRecord seat;
    seat.match_id = id;
    seat.seat = p;
    seat.nickname = kNicknames[static_cast<std::size_t>(p)];
    seat.resume_token_hash = store::hash_to_hex(m.hashes[0] ^ static_cast<std::uint64_t>(p + 1));
    create.seats.push_back(std::move(seat));
  }
  std::vector<store::NewEvent> rest;
  rest.reserve(m.events.size() - 1);
  for (std::size_t i = 1; i < m.events.size(); ++i)
    rest.push_back(new_event(g, m.events[i], m.hashes[i]));
  store::AppendRequest finish = store::AppendRequest::of(id, 1, std::move(rest), m.last);
  finish.game = &g;
  const bool over = g.stage(m.last) == game::Stage::Over;
  finish.status = over ? store::MatchStatus::Finished : store::MatchStatus::Running;
  if (over) finish.result_json = result_json(g, m.last);
  pending_.push_back(std::move(create));
  pending_.push_back(std::move(finish));
  if (static_cast<int>(pending_.size()) >= 2 * batch_) return flush();
  return true;
}

bool MatchWriter::flush() {
  if (pending_.empty()) return true;
  auto results = store_.append_batch(pending_);
  pending_.clear();
  for (const auto& r : results) {
    if (!r) {
      std::fprintf(stderr, "eryantis-selfplay: store: %s\n", r.error().message.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace eryantis::selfplay
