// Writes the fuzz targets' seed corpus: real commands, events and states from
// random games with fixed seeds, real request lines from the client library's
// builders, server lines in the server's format (state + the events that follow it,
// with their hashes), the walk-through lines of docs/protocol.md and the reference
// configuration split into its sections. Deterministic: rerunning it rewrites the
// same files.
//   build-fuzz/fuzz_make_corpus tests/fuzz/corpus <source dir>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_api.hpp"

namespace {

using namespace eryantis;
namespace fs = std::filesystem;

class CorpusDir {
 public:
  CorpusDir(const fs::path& root, const std::string& target) : dir_(root / target) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void add(const std::string& kind, std::string_view bytes) {
    const fs::path file = dir_ / (kind + "-" + std::to_string(++count_));
    std::ofstream(file, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  int count() const { return count_; }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
  int count_ = 0;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct Step {
  rules::Event event;
  rules::State after;
};

struct Game {
  rules::MatchOptions options;
  std::uint64_t seed;
  std::vector<Step> steps;
};

std::vector<Game> play_games() {
  std::vector<Game> games = {{{2, rules::Mode::Expert}, 7, {}},
                             {{3, rules::Mode::Expert}, 11, {}},
                             {{4, rules::Mode::Simple}, 13, {}},
                             {{2, rules::Mode::Simple}, 17, {}}};
  for (Game& g : games)
    rules::play_random_game(g.options, g.seed, [&](const rules::Event& e, const rules::State& s) {
      g.steps.push_back({e, s});
    });
  return games;
}

std::string hex(std::uint64_t v) {
  return client::hash_hex(v);
}

// The server's `state` line for `seat` (lobby.cpp's send_state, without its seats list).
std::string state_line(const rules::State& s, std::int64_t seq, rules::Seat seat) {
  const rules::View v = rules::view(s, seat);
  protocol::JsonArray to_act;
  for (rules::Seat p : rules::seats_to_act(s)) to_act.number(p);
  protocol::JsonLine line("state", "7");
  line.field("match", 1)
      .field("seq", seq)
      .field("status", s.phase == rules::Phase::GameOver ? "finished" : "running")
      .field("hash", hex(rules::hash(v.state)))
      .raw_field("to_act", to_act.str())
      .raw_field("allowed", "[]");
  if (seat == rules::kNoSeat)
    line.null_field("seat");
  else
    line.field("seat", seat);
  line.raw_field("view", fuzz::encode_view(v));
  return line.str();
}

// The server's `event` line (match_flow.cpp's broadcast_event).
std::string event_line(const rules::Event& e, const rules::State& after, std::int64_t seq,
                       rules::Seat seat, bool full_view) {
  rules::Event public_event = e;
  if (auto* create = std::get_if<rules::CreateMatch>(&public_event.command)) create->seed = rules::MatchSeed{};
  const rules::View v = rules::view(after, seat);
  protocol::JsonArray to_act;
  for (rules::Seat p : rules::seats_to_act(after)) to_act.number(p);
  protocol::JsonLine line("event");
  line.field("match", 1)
      .field("seq", seq)
      .field("hash", hex(rules::hash(v.state)))
      .raw_field("event", fuzz::encode_event(public_event))
      .raw_field("to_act", to_act.str())
      .raw_field("allowed", "[]");
  if (full_view) line.raw_field("view", fuzz::encode_view(v));
  return line.str();
}

// Indices spread over a game: setup, early, middle, late, the end.
std::vector<std::size_t> spread(std::size_t n, std::size_t points) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < points; ++i) out.push_back(i * (n - 1) / (points - 1));
  return out;
}

void write_commands_and_events(const std::vector<Game>& games, CorpusDir& commands,
                               CorpusDir& events) {
  // Every command type, a few times each, from different games and phases.
  std::map<std::string, int> seen;
  for (const Game& g : games)
    for (const Step& step : g.steps) {
      const std::string type(rules::command_type(step.event.command));
      if (seen[type]++ >= 3) continue;
      commands.add(type, fuzz::encode_command(step.event.command));
      events.add(type, fuzz::encode_event(step.event));
    }
}

void write_states(const std::vector<Game>& games, CorpusDir& json, CorpusDir& binary) {
  for (const Game& g : games)
    for (std::size_t at : spread(g.steps.size(), 7)) {
      const rules::State& s = g.steps[at].after;
      const std::string kind = std::to_string(int{g.options.players}) + "p-" +
                               std::string(rules::mode_name(g.options.mode)) + "-" +
                               std::to_string(at);
      json.add(kind, fuzz::encode_state_json(s));
      binary.add(kind, fuzz::encode_state_binary(s));
    }
}

void write_requests(const std::vector<Game>& games, CorpusDir& out) {
  using client::ClientProtocol;
  const std::string id = ClientProtocol::string_id("x1");
  auto create = [](int players, std::string mode) {
    client::CreateMatch r;
    r.players = players;
    r.mode = std::move(mode);
    return r;
  };
  const std::vector<std::string> lines = {
      ClientProtocol::hello("eryantis-cli/0.1"),
      ClientProtocol::hello("bot", client::Updates::Full, ClientProtocol::number_id(1)),
      ClientProtocol::login("alice", std::nullopt, ClientProtocol::number_id(2)),
      ClientProtocol::login("bob", "6d2e5ee6d7fd151c8a20529b9bf8793a", id),
      ClientProtocol::list_matches(id),
      ClientProtocol::create_match(create(2, "simple")),
      ClientProtocol::create_match(create(4, "expert"), ClientProtocol::number_id(3)),
      ClientProtocol::join_match(12, id),
      ClientProtocol::quick_join(3, "expert"),
      ClientProtocol::quick_join(std::nullopt, std::nullopt, id),
      ClientProtocol::leave_match(),
      ClientProtocol::spectate(5, id),
      ClientProtocol::sync(ClientProtocol::number_id(9)),
      ClientProtocol::ping("\"p1\""),
  };
  for (const std::string& line : lines) out.add("request", line + "\n");
  // play: one of each command type, with and without command_id / expected_seq.
  std::map<std::string, int> seen;
  std::int64_t seq = 0;
  for (const Game& g : games)
    for (const Step& step : g.steps) {
      ++seq;
      if (step.event.seat == rules::kNoSeat) continue;
      const std::string type(rules::command_type(step.event.command));
      if (seen[type]++ >= 1) continue;
      const std::string cid = "c" + std::to_string(seq);
      out.add("play",
              ClientProtocol::play(fuzz::client_games().default_game(),
                                   game::Command::of(step.event.command),
                                   seq % 2 ? std::optional<std::string_view>(cid) : std::nullopt,
                                   seq % 3 ? std::optional<std::int64_t>(seq) : std::nullopt,
                                   ClientProtocol::number_id(seq)) +
                  "\n");
    }
  // Streams: several requests, CRLF endings, an empty keep-alive, a line over the
  // fuzz target's 256-byte limit, an unfinished last line.
  out.add("stream", lines[0] + "\r\n" + lines[2] + "\n\n" + lines[4] + "\r\n");
  out.add("stream", lines[1] + "\n" + std::string(300, 'x') + "\n" + lines[12] + "\n" + lines[13]);
  out.add("stream", lines[6] + "\n" + lines[7] + "\r\n" + lines[5].substr(0, 20));
}

void write_server_lines(const std::vector<Game>& games, CorpusDir& out) {
  const std::string welcome =
      R"({"type":"welcome","id":1,"server":"eryantis/0.1.0","protocol":1,"heartbeat_ms":5000,"timeout_ms":15000,"max_line_bytes":65536})";
  for (const Game& g : games) {
    // A state, then the events that follow it, for a seat and for a spectator.
    for (std::size_t at : spread(g.steps.size() - 6, 3)) {
      for (rules::Seat seat : {rules::Seat{0}, rules::kNoSeat}) {
        std::string text =
            welcome + "\n" + state_line(g.steps[at].after, static_cast<std::int64_t>(at + 1), seat);
        for (std::size_t next = at + 1; next < at + 6; ++next)
          text += "\n" + event_line(g.steps[next].event, g.steps[next].after,
                                    static_cast<std::int64_t>(next + 1), seat, next % 2 == 0);
        out.add("mirror", text + "\n");
      }
    }
  }
  // The first events of a match as a client sees them from the lobby on.
  const Game& g = games.front();
  std::string text = state_line(g.steps[0].after, 1, 1);
  for (std::size_t next = 1; next < 5; ++next)
    text += "\n" + event_line(g.steps[next].event, g.steps[next].after,
                              static_cast<std::int64_t>(next + 1), 1, false);
  out.add("mirror", text);
}

// The walk-through lines of docs/protocol.md ("C: {...}" requests, "S: {...}" server
// lines), a few consecutive lines to a file as they arrive on one connection.
void write_doc_lines(const fs::path& protocol_md, CorpusDir& requests, CorpusDir& server) {
  std::istringstream in(read_file(protocol_md));
  std::string line;
  std::string batch[2];
  int batched[2] = {0, 0};
  CorpusDir* out[2] = {&requests, &server};
  while (std::getline(in, line)) {
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos || colon > 12 || line.size() < colon + 3) continue;
    const std::string who = line.substr(0, colon);
    const std::string body = line.substr(colon + 2);
    if (body.front() != '{' && body != "garbage") continue;
    if (!who.starts_with("C") && !who.starts_with("S")) continue;
    const int side = who.starts_with("C") ? 0 : 1;
    batch[side] += body + "\n";
    if (++batched[side] % 4 == 0) {
      out[side]->add("doc", batch[side]);
      batch[side].clear();
    }
  }
  for (int side : {0, 1})
    if (!batch[side].empty()) out[side]->add("doc", batch[side]);
}

// The reference configuration whole and section by section.
void write_configs(const fs::path& reference, CorpusDir& out) {
  const std::string text = read_file(reference);
  out.add("reference", text);
  std::size_t start = text.find("\n[");
  while (start != std::string::npos) {
    const std::size_t end = text.find("\n[", start + 1);
    out.add("section", text.substr(start + 1, end == std::string::npos ? end : end - start));
    start = end;
  }
  // Each key alone under its table, with the reference value.
  std::istringstream lines(text);
  std::string line;
  std::string table;
  while (std::getline(lines, line)) {
    if (line.starts_with("["))
      table = line;
    else if (!table.empty() && !line.empty() && line.front() != '#')
      out.add("key", table + "\n" + line + "\n");
  }
  out.add("empty", "");
  out.add("small", "[network]\nport = 7000\n[limits]\nmax_line_bytes = 4096\n");
  out.add("durability", "[storage]\ndurability = \"normal\"\nsnapshot_every = 1\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: fuzz_make_corpus <corpus dir> <source dir>\n";
    return 2;
  }
  const fs::path root = argv[1];
  const fs::path source = argv[2];
  const std::vector<Game> games = play_games();

  CorpusDir request(root, "request");
  CorpusDir command(root, "command");
  CorpusDir event(root, "event");
  CorpusDir state_json(root, "state_json");
  CorpusDir state_binary(root, "state_binary");
  CorpusDir config(root, "config");
  CorpusDir client(root, "client");

  write_requests(games, request);
  write_commands_and_events(games, command, event);
  write_states(games, state_json, state_binary);
  write_server_lines(games, client);
  write_doc_lines(source / "docs/protocol.md", request, client);
  write_configs(source / "config/eryantis.toml", config);

  for (const CorpusDir* d :
       {&request, &command, &event, &state_json, &state_binary, &config, &client})
    std::cout << d->dir().string() << ": " << d->count() << " files\n";
  return 0;
}
