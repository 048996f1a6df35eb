#pragma once
// Recorded games, line for line, as the real server played them with the bots:
// for each command, the seat that sent it, the `play` line, the `ack` line and
// the `event` line each seat received. `eryantis-bot --record` writes it from
// real matches (the first game of tables 0-15, one after the other: a floor match
// replays them all in turn); the floor server (bench/floor_server.cpp) answers with it and
// `eryantis-bot --floor` plays it, so both see exactly the real traffic's
// sizes and turn order without the rules or any JSON decoding.
//
// File format (text, one record per line; every protocol line is one JSON line
// without a newline):
//   eryantis-floor-transcript 2
//   players <P>
//   game <name>            the match's game (the floor creates a match of it)
//   options <JSON>         its options as the game writes them (options_json)
//   step <seat>            then: <play line>, <ack line>, P x <event line>
// Version 1 (before games had names) has neither `game` nor `options`: an Eriantys
// game of P players, simple mode (what every version-1 transcript recorded).
#include <cstddef>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace eryantis::bot {

struct TranscriptStep {
  int seat = 0;
  std::string play;
  std::string ack;
  std::vector<std::string> events;  // one per seat, in seat order
};

struct Transcript {
  int players = 0;
  std::string game;     // the game's name; "" in a version-1 file (Eriantys)
  std::string options;  // the game's options_json; "" in a version-1 file
  std::vector<TranscriptStep> steps;

  bool write(const std::string& path) const {
    std::ofstream out(path, std::ios::trunc);
    out << "eryantis-floor-transcript 2\nplayers " << players << "\ngame " << game
        << "\noptions " << options << '\n';
    for (const TranscriptStep& s : steps) {
      out << "step " << s.seat << '\n' << s.play << '\n' << s.ack << '\n';
      for (const std::string& e : s.events) out << e << '\n';
    }
    return static_cast<bool>(out.flush());
  }

  // nullopt (with `error` set) for a missing, foreign or truncated file.
  static std::optional<Transcript> read(const std::string& path, std::string& error) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line) ||
        (line != "eryantis-floor-transcript 1" && line != "eryantis-floor-transcript 2")) {
      error = path + ": not a transcript (eryantis-bot --record writes one)";
      return std::nullopt;
    }
    const bool named = line.back() == '2';
    Transcript t;
    if (!std::getline(in, line) || !line.starts_with("players ")) {
      error = path + ": no players line";
      return std::nullopt;
    }
    t.players = std::stoi(line.substr(8));
    if (t.players < 2 || t.players > 4) {
      error = path + ": players must be 2, 3 or 4";
      return std::nullopt;
    }
    if (named) {
      if (!std::getline(in, line) || !line.starts_with("game ") || line.size() == 5) {
        error = path + ": no game line";
        return std::nullopt;
      }
      t.game = line.substr(5);
      if (!std::getline(in, line) || !line.starts_with("options ")) {
        error = path + ": no options line";
        return std::nullopt;
      }
      t.options = line.substr(8);
    }
    while (std::getline(in, line)) {
      if (!line.starts_with("step ")) {
        error = path + ": expected a step line, got: " + line.substr(0, 40);
        return std::nullopt;
      }
      TranscriptStep s;
      s.seat = std::stoi(line.substr(5));
      s.events.resize(static_cast<std::size_t>(t.players));
      bool complete =
          s.seat >= 0 && s.seat < t.players && std::getline(in, s.play) && std::getline(in, s.ack);
      for (std::string& e : s.events) complete = complete && std::getline(in, e);
      if (!complete) {
        error = path + ": truncated step " + std::to_string(t.steps.size());
        return std::nullopt;
      }
      t.steps.push_back(std::move(s));
    }
    if (t.steps.empty()) {
      error = path + ": no steps";
      return std::nullopt;
    }
    return t;
  }
};

}  // namespace eryantis::bot
