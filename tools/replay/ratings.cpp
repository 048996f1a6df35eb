// eryantis-replay DB ratings: the ratings recomputed from the log (docs/accounts.md,
// "Ratings and history"). Every finished match, in (finished_ms, match) order, is folded
// from its first event; its game names the places and teams; the rating book folds the
// results. The server folds the same matches in the same order (reading the places it
// stored with each match's last event), so both print the same numbers.
#include <spdlog/fmt/fmt.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/ratings/book.hpp"
#include "eryantis/store/event_store.hpp"
#include "eryantis/store/rating_results.hpp"

namespace eryantis::replay {

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void put(Writer& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

int run_ratings(const Games& games, const std::string& path, const RatingsArgs& args) {
  auto db = open_db(games, path);
  if (!db) return kExitError;
  auto finished = db->finished_matches(store::FinishCursor{});
  if (!finished) {
    std::fprintf(stderr, "eryantis-replay: cannot list the finished matches: %s\n",
                 finished.error().message.c_str());
    return kExitError;
  }
  store::FoldPolicy policy;
  policy.start = store::FoldStart::FirstEvent;
  policy.hashes = store::HashCheck::Last;
  int exit = kExitOk;
  ratings::RatingBook book;
  std::vector<ratings::Skipped> skipped;
  std::size_t unrated = 0;
  store::KeyNames names;
  for (const store::FinishedMatch& m : *finished) {
    names.note(m);
    auto placing = store::log_placing(*db, m.id, policy);
    if (!placing) {
      std::fprintf(stderr, "eryantis-replay: match %lld is left out: %s\n",
                   static_cast<long long>(m.id), placing.error().message.c_str());
      exit = kExitFinding;
      continue;
    }
    // What the server folds: the places it stored with the last event (when it did).
    if (m.result) {
      if (auto stored = store::stored_placing(*m.result); stored && *stored != *placing) {
        std::fprintf(stderr,
                     "eryantis-replay: match %lld: the places stored in matches.result differ "
                     "from the log's; the log's are used\n",
                     static_cast<long long>(m.id));
        exit = kExitFinding;
      }
    }
    auto result = store::rating_result(m, *placing);
    if (!result) {
      ++unrated;
      continue;
    }
    if (auto applied = book.apply(*result); !applied)
      skipped.push_back(ratings::Skipped{m.id, std::move(applied.error())});
  }
  const std::int64_t at = args.at_ms.value_or(now_ms());
  const auto pools = book.pools();

  if (args.json) {
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.StartObject();
    put(w, "at");
    w.Int64(at);
    put(w, "matches");
    w.Uint64(finished->size());
    put(w, "rated");
    w.Int64(book.applied());
    put(w, "unrated");
    w.Uint64(unrated);
    put(w, "skipped");
    w.StartArray();
    for (const ratings::Skipped& s : skipped) {
      w.StartObject();
      put(w, "match");
      w.Int64(s.match);
      put(w, "code");
      put(w, ratings::code_name(s.error.code));
      put(w, "message");
      put(w, s.error.message);
      w.EndObject();
    }
    w.EndArray();
    put(w, "pools");
    w.StartArray();
    for (const ratings::PoolKey& pool : pools) {
      w.StartObject();
      put(w, "game");
      put(w, pool.game);
      put(w, "players");
      w.Int(pool.seats);
      put(w, "ratings");
      w.StartArray();
      for (const ratings::Standing& s :
           book.leaderboard(pool.game, pool.seats, at, SIZE_MAX, args.with_provisional)) {
        w.StartObject();
        put(w, "player");
        put(w, s.player);
        put(w, "name");
        put(w, names.shown(s.player));
        put(w, "rating");
        w.Double(s.rating.rating.rating);
        put(w, "deviation");
        w.Double(s.rating.rating.deviation);
        put(w, "volatility");
        w.Double(s.rating.rating.volatility);
        put(w, "games");
        w.Int(s.rating.matches);
        put(w, "wins");
        w.Int(s.rating.wins);
        put(w, "draws");
        w.Int(s.rating.draws);
        put(w, "losses");
        w.Int(s.rating.losses);
        put(w, "provisional");
        w.Bool(s.provisional);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    std::printf("%s\n", buffer.GetString());
    return exit;
  }

  std::printf("%zu finished match(es): %lld rated, %zu unrated, %zu refused by the book\n",
              finished->size(), static_cast<long long>(book.applied()), unrated, skipped.size());
  for (const ratings::Skipped& s : skipped)
    std::printf("  match %lld: %s %s\n", static_cast<long long>(s.match),
                std::string(ratings::code_name(s.error.code)).c_str(), s.error.message.c_str());
  for (const ratings::PoolKey& pool : pools) {
    std::printf("\n%s, %d players\n", pool.game.c_str(), pool.seats);
    std::printf("  %-4s %-24s %8s %6s %8s %6s %s\n", "#", "player", "rating", "RD", "vol", "games",
                "W-D-L");
    int rank = 0;
    for (const ratings::Standing& s :
         book.leaderboard(pool.game, pool.seats, at, SIZE_MAX, args.with_provisional)) {
      const ratings::PlayerRating& r = s.rating;
      std::printf("  %-4s %-24s %8.1f %6.1f %8.5f %6d %d-%d-%d\n",
                  s.provisional ? "?" : std::to_string(++rank).c_str(),
                  names.shown(s.player).c_str(), r.rating.rating, r.rating.deviation,
                  r.rating.volatility, r.matches, r.wins, r.draws, r.losses);
    }
  }
  std::printf("\n? = provisional (deviation above %.0f): off the server's leaderboard\n",
              book.config().provisional_deviation);
  return exit;
}

}  // namespace eryantis::replay
