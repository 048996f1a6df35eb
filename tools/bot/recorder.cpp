// --record: table 0's first game as the floor's transcript (tools/bot/transcript.hpp).
#include <cstdio>

#include "bot.hpp"

namespace eryantis::bot {

Recorder::Recorder(std::string path, int players, std::string game, std::string options)
    : path_(std::move(path)),
      players_(players),
      game_(std::move(game)),
      options_(std::move(options)),
      over_(static_cast<std::size_t>(players), false),
      last_play_(static_cast<std::size_t>(players)) {}

void Recorder::play(int seat, std::string line) {
  last_play_[static_cast<std::size_t>(seat)] = std::move(line);
}

void Recorder::ack(int seat, std::int64_t seq, std::string_view line) {
  std::string& play = last_play_[static_cast<std::size_t>(seat)];
  if (play.empty()) return;
  steps_.push_back(Step{seat, std::move(play), std::string(line), seq});
  play.clear();
}

void Recorder::event(int seat, std::int64_t seq, std::string_view line) {
  auto& lines = events_[seq];
  lines.resize(static_cast<std::size_t>(players_));
  lines[static_cast<std::size_t>(seat)] = line;
}

bool Recorder::write() const {
  Transcript t;
  t.players = players_;
  t.game = game_;
  t.options = options_;
  for (const Step& s : steps_) {
    auto it = events_.find(s.seq);
    if (it == events_.end()) continue;
    bool complete = true;
    for (const std::string& e : it->second) complete = complete && !e.empty();
    if (!complete) continue;
    t.steps.push_back(TranscriptStep{s.seat, s.play, s.ack, it->second});
  }
  if (t.steps.empty()) {
    std::fprintf(stderr, "eryantis-bot: --record: no complete command was recorded\n");
    return false;
  }
  if (!t.write(path_)) {
    std::fprintf(stderr, "eryantis-bot: --record: cannot write %s\n", path_.c_str());
    return false;
  }
  std::fprintf(stderr, "eryantis-bot: recorded %zu commands of table 0 in %s\n", t.steps.size(),
               path_.c_str());
  return true;
}

}  // namespace eryantis::bot
