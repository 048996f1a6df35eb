// --record: the first games of tables 0 to 15 as the floor's transcript (tools/bot/transcript.hpp).
#include <cstdio>

#include "bot.hpp"

namespace eryantis::bot {

Recorder::Recorder(std::string path, int players, std::string game, std::string options)
    : path_(std::move(path)),
      players_(players),
      game_(std::move(game)),
      options_(std::move(options)),
      tables_(kRecordedTables) {
  for (TableRecord& t : tables_) {
    t.over.assign(static_cast<std::size_t>(players), false);
    t.last_play.resize(static_cast<std::size_t>(players));
  }
}

void Recorder::play(int t, int seat, std::string line) {
  if (TableRecord* r = table(t)) r->last_play[static_cast<std::size_t>(seat)] = std::move(line);
}

void Recorder::ack(int t, int seat, std::int64_t seq, std::string_view line) {
  TableRecord* r = table(t);
  if (!r) return;
  std::string& play = r->last_play[static_cast<std::size_t>(seat)];
  if (play.empty()) return;
  r->steps.push_back(Step{seat, std::move(play), std::string(line), seq});
  play.clear();
}

void Recorder::event(int t, int seat, std::int64_t seq, std::string_view line) {
  TableRecord* r = table(t);
  if (!r) return;
  auto& lines = r->events[seq];
  lines.resize(static_cast<std::size_t>(players_));
  lines[static_cast<std::size_t>(seat)] = line;
}

void Recorder::game_over(int t, int seat) {
  if (TableRecord* r = table(t)) r->over[static_cast<std::size_t>(seat)] = true;
}

bool Recorder::write() const {
  Transcript t;
  t.players = players_;
  t.game = game_;
  t.options = options_;
  int tables = 0;
  for (const TableRecord& r : tables_) {
    const std::size_t before = t.steps.size();
    for (const Step& s : r.steps) {
      auto it = r.events.find(s.seq);
      if (it == r.events.end()) continue;
      bool complete = true;
      for (const std::string& e : it->second) complete = complete && !e.empty();
      if (!complete) continue;
      t.steps.push_back(TranscriptStep{s.seat, s.play, s.ack, it->second});
    }
    if (t.steps.size() > before) ++tables;
  }
  if (t.steps.empty()) {
    std::fprintf(stderr, "eryantis-bot: --record: no complete command was recorded\n");
    return false;
  }
  if (!t.write(path_)) {
    std::fprintf(stderr, "eryantis-bot: --record: cannot write %s\n", path_.c_str());
    return false;
  }
  std::fprintf(stderr, "eryantis-bot: recorded %zu commands of %d table(s) in %s\n", t.steps.size(),
               tables, path_.c_str());
  return true;
}

}  // namespace eryantis::bot
