// eryantis-cli: the terminal client people play with. Connects, logs in (resume
// token kept per server and nickname), shows the lobby, and draws the whole board
// after every update. Reconnects by itself with backoff and lands back in the match.
//
// Input is a queue of typed lines handled one at a time: a line that sends a
// request waits for its reply, `wait` waits for your turn. That makes piped
// scripts behave exactly like a person typing.
#include <CLI/CLI.hpp>
#include <readline/history.h>
#include <readline/readline.h>
#include <unistd.h>
#include <uv.h>

#include "eryantis/codec/json.hpp"

#include <cstdio>
#include <deque>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>

#include "command_line.hpp"
#include "eryantis/client/client_protocol.hpp"
#include "eryantis/client/connection.hpp"
#include "eryantis/client/match_mirror.hpp"
#include "eryantis/client/token_store.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/render/render.hpp"
#include "eryantis/codec/codec.hpp"

using namespace eryantis;
using client::ClientProtocol;
using client::MessageType;

namespace {

struct Options {
  std::string host = "127.0.0.1";
  int port = 7777;
  std::string nickname;
  bool color = true;
  std::string tokens;  // token file; empty = the default under the data directory
};

class Cli;
Cli* g_cli = nullptr;  // readline's callback interface has no user pointer

class Cli final : public client::LineConnection::Handler {
 public:
  Cli(net::EventLoop& loop, Options options, bool tty)
      : loop_(loop), pool_(loop), connection_(pool_, *this), options_(std::move(options)), tty_(tty),
        tokens_(options_.tokens.empty() ? client::TokenStore::default_path().value_or("eryantis-tokens")
                                        : std::filesystem::path(options_.tokens)),
        random_(std::random_device{}()) {}

  void start() {
    print("connecting to " + server_key() + " as " + options_.nickname + " ...");
    connection_.connect(options_.host, options_.port);
  }

  // --- input ------------------------------------------------------------------
  void typed(std::string line) {
    input_.push_back(std::move(line));
    pump();
  }
  void input_closed() {
    input_eof_ = true;
    pump();
  }

  // --- connection callbacks -----------------------------------------------------
  void on_connected() override {
    backoff_ms_ = 250;
    connection_.send(ClientProtocol::hello("eryantis-cli", client::Updates::Events));
    const auto token = tokens_.get(server_key(), options_.nickname);
    connection_.send(ClientProtocol::login(options_.nickname, token ? std::optional<std::string_view>(*token)
                                                                     : std::nullopt, ClientProtocol::string_id("login")));
  }

  void on_closed(std::string_view reason) override {
    logged_in_ = false;
    result_due_ = false;  // a result not received by now will not come on this connection
    pending_id_.clear();  // that request's fate is unknown: the state after login tells
    print("connection lost (" + std::string(reason) + "); reconnecting in " + std::to_string(backoff_ms_) + " ms");
    loop_.after(static_cast<std::uint64_t>(backoff_ms_), [this] {
      if (!quitting_) connection_.connect(options_.host, options_.port);
    });
    backoff_ms_ = std::min(backoff_ms_ * 2, 5000);
  }

  void on_line(std::string_view line) override {
    auto parsed = client::parse_server_message(line);
    if (!parsed) {
      print("(unreadable line from the server: " + parsed.error() + ")");
      return;
    }
    handle(*parsed);
    pump();
  }

 private:
  std::string server_key() const { return options_.host + ":" + std::to_string(options_.port); }

  void print(const std::string& text) {
    if (tty_ && rl_active_) {
      rl_save_prompt();
      rl_replace_line("", 0);
      rl_redisplay();
      std::fputs(text.c_str(), stdout);
      if (text.empty() || text.back() != '\n') std::fputc('\n', stdout);
      rl_restore_prompt();
      rl_on_new_line();
      rl_redisplay();
    } else {
      std::fputs(text.c_str(), stdout);
      if (text.empty() || text.back() != '\n') std::fputc('\n', stdout);
      std::fflush(stdout);
    }
  }

  void draw_board() {
    if (!mirror_.synced()) return;
    render::RenderOptions o;
    o.names = names_;
    o.color = options_.color;
    o.viewer = mirror_.seat();
    std::string text = render::render_board(mirror_.state(), o);
    if (tty_ && options_.color) text = "\033[2J\033[H" + text;  // redraw in place
    print(text);
  }

  std::string next_id() { return ClientProtocol::number_id(++ids_); }

  void request(std::string line_without_id_builder_result, std::string id) {
    pending_id_ = std::move(id);
    connection_.send(line_without_id_builder_result);
  }

  void handle(const client::ServerMessage& m) {
    // The per-connection RATE_LIMITED carries no id: the line was dropped unread,
    // and with one request in flight at a time that is its only answer.
    const bool answers_pending =
        !pending_id_.empty() &&
        (m.id == pending_id_ || (m.type == MessageType::Error && m.id.empty() && m.code == "RATE_LIMITED"));
    if (m.type == MessageType::Event || m.type == MessageType::State || m.type == MessageType::Seats)
      autoplay_blocked_ = false;
    switch (m.type) {
      case MessageType::Welcome:
        break;
      case MessageType::LoggedIn: {
        logged_in_ = true;
        if (auto saved = tokens_.put(server_key(), m.nickname, m.token); !saved)
          print("(could not save the resume token: " + saved.error() + ")");
        if (m.match) {
          print("logged in as " + m.nickname + ", back in match " + std::to_string(*m.match) + " (seat " +
                std::to_string(m.seat.value_or(-1)) + ")");
        } else {
          print("logged in as " + m.nickname + ". Type help for the commands.");
          if (!greeted_) connection_.send(ClientProtocol::list_matches());
        }
        greeted_ = true;
        break;
      }
      case MessageType::MatchList:
        print(lobby_text(m));
        break;
      case MessageType::Joined:
        acked_seq_ = 0;
        print("joined match " + std::to_string(m.match.value_or(0)) + " as seat " + std::to_string(m.seat.value_or(0)));
        break;
      case MessageType::Spectating:
        print("watching match " + std::to_string(m.match.value_or(0)));
        break;
      case MessageType::Left:
        print("left match " + std::to_string(m.match.value_or(0)));
        mirror_.clear();
        acked_seq_ = 0;
        break;
      case MessageType::State:
        update_names(m.seats);
        if (!mirror_.load_state(m)) print("(the state could not be read: " + mirror_.problem() + ")");
        draw_board();
        break;
      case MessageType::Seats:
        update_names(m.seats);
        break;
      case MessageType::Event: {
        const rules::State before = mirror_.state();
        const auto outcome = mirror_.on_event(m);
        if (outcome == client::MatchMirror::Update::Applied) {
          if (auto ev = codec::event_from_json(m.event_json))
            print("#" + std::to_string(mirror_.seq()) + " " + render::describe_event(before, *ev, mirror_.state(), names_));
          if (!autoplay_ || mirror_.my_turn() || mirror_.game_over()) draw_board();
          if (mirror_.game_over() && !result_due_) {
            // game_over (the result) follows this event: hold the input (and the quit
            // at its end) until it is here, or for 2 s if it never comes.
            result_due_ = true;
            loop_.after(2000, [this] {
              result_due_ = false;
              pump();
            });
          }
        } else if (outcome == client::MatchMirror::Update::NeedsSync) {
          connection_.send(ClientProtocol::sync());
        }
        break;
      }
      case MessageType::Ack:
        // Our command is durable; its event (this seq) may still be on its way.
        if (m.seq) acked_seq_ = std::max(acked_seq_, *m.seq);
        break;
      case MessageType::GameOver:
        print("*** game over: " + result_text(m.result_json) + " ***");
        result_due_ = false;
        autoplay_ = false;
        acked_seq_ = 0;
        break;
      case MessageType::Error:
        print("✗ " + m.code + ": " + m.message);
        if (autoplay_) {
          // Wait for news from the server, or half a second, before trying again.
          autoplay_blocked_ = true;
          loop_.after(500, [this] {
            autoplay_blocked_ = false;
            pump();
          });
        }
        if (m.code == "STALE_SEQ") connection_.send(ClientProtocol::sync());
        if (m.code == "BAD_TOKEN" || m.code == "NICKNAME_TAKEN") {
          print("cannot log in as " + options_.nickname + "; quitting");
          quit();
        }
        break;
      case MessageType::Ping:
        connection_.send(R"({"type":"pong"})");
        break;
      case MessageType::Pong:
        break;
      case MessageType::Shutdown:
        print("server: " + m.message);
        break;
      case MessageType::Unknown:
        if (m.type_name == "match_abandoned") {
          print("the match was abandoned: a player stayed away");
          mirror_.clear();
        }
        break;
    }
    if (answers_pending) pending_id_.clear();
  }

  void update_names(const std::vector<client::SeatInfo>& seats) {
    for (const auto& s : seats) {
      if (s.seat < 0 || s.seat >= rules::kMaxPlayers) continue;
      const std::string name = s.nickname.value_or("");
      const auto key = static_cast<std::size_t>(s.seat);
      if (!name.empty() && name == names_[key] && connected_[key] != s.connected && name != options_.nickname)
        print(name + (s.connected ? " is back" : " disconnected"));
      else if (!name.empty() && names_[key].empty() && name != options_.nickname)
        print(name + " took seat " + std::to_string(s.seat));
      names_[key] = name;
      connected_[key] = s.connected;
    }
  }

  static std::string result_text(const std::string& json) {
    rapidjson::Document d;
    d.Parse(json.c_str());
    if (d.HasParseError() || !d.IsObject()) return json;
    std::string out;
    if (d.HasMember("nicknames") && d["nicknames"].IsArray())
      for (auto& n : d["nicknames"].GetArray())
        if (n.IsString()) out += (out.empty() ? "" : " and ") + std::string(n.GetString());
    const bool draw = d.HasMember("draw") && d["draw"].IsBool() && d["draw"].GetBool();
    out += draw ? " share the victory" : " won";
    if (d.HasMember("reason") && d["reason"].IsString()) out += std::string(" (") + d["reason"].GetString() + ")";
    return out;
  }

  static std::string lobby_text(const client::ServerMessage& m) {
    std::string out = "matches you can join:\n";
    auto list = [&](const std::string& json, const char* empty) {
      rapidjson::Document d;
      d.Parse(json.c_str());
      if (d.HasParseError() || !d.IsArray() || d.Empty()) {
        out += std::string("  ") + empty + "\n";
        return;
      }
      for (auto& e : d.GetArray()) {
        if (!e.IsObject()) continue;
        char line[160];
        std::snprintf(line, sizeof line, "  #%-5lld %dp %-6s %-8s", static_cast<long long>(e["match"].GetInt64()),
                      e["players"].GetInt(), e["mode"].GetString(), e["status"].GetString());
        out += line;
        if (e.HasMember("seats") && e["seats"].IsArray())
          for (auto& s : e["seats"].GetArray())
            out += std::string(" ") + (s["nickname"].IsString() ? s["nickname"].GetString() : "(free)");
        out += "\n";
      }
    };
    list(m.open_json, "none open: create one (create 2) or quick-join (quick)");
    out += "running:\n";
    list(m.running_json, "none");
    if (m.yours) out += "your match: " + std::to_string(*m.yours) + "\n";
    return out;
  }

  // Handles queued input lines while nothing is in flight.
  void pump() {
    if (autoplay_) autoplay_step();
    while (!quitting_) {
      if (!pending_id_.empty() || !logged_in_ || result_due_) return;
      if (mirror_.has_match() && mirror_.seq() < acked_seq_) return;  // our event is still coming
      if (waiting_turn_) {
        if (mirror_.synced() && !mirror_.my_turn() && !mirror_.game_over()) return;
        waiting_turn_ = false;
      }
      if (autoplay_) {
        autoplay_step();
        return;
      }
      if (input_.empty()) {
        if (input_eof_) quit();
        return;
      }
      std::string line = std::move(input_.front());
      input_.pop_front();
      run(line);
    }
  }

  void run(const std::string& line) {
    auto parsed = cli::parse_line(line);
    if (!parsed) {
      print("? " + parsed.error());
      return;
    }
    if (!*parsed) return;
    std::visit([&](const auto& a) { act(a); }, **parsed);
  }

  void act(const cli::GameCommand& g) {
    if (!mirror_.has_match()) {
      print("? you are not in a match: create, join or quick first");
      return;
    }
    send_play(g.command);
  }
  void send_play(const rules::Command& c) {
    const std::string id = next_id();
    const std::string command_id = options_.nickname + "-" + std::to_string(random_());
    // In setup everyone chooses at once, so the seq moves under us: no expected_seq there.
    std::optional<std::int64_t> expected;
    if (mirror_.state().phase != rules::Phase::Setup) expected = mirror_.seq();
    request(ClientProtocol::play(c, command_id, expected, id), id);
  }
  void act(const cli::LobbyList&) {
    const std::string id = next_id();
    request(ClientProtocol::list_matches(id), id);
  }
  void act(const cli::LobbyCreate& c) {
    const std::string id = next_id();
    request(ClientProtocol::create_match(c.options, id), id);
  }
  void act(const cli::LobbyJoin& j) {
    const std::string id = next_id();
    std::string line = ClientProtocol::join_match(j.match, id);
    if (j.seat) line.insert(line.size() - 1, ",\"seat\":" + std::to_string(*j.seat));
    request(line, id);
  }
  void act(const cli::LobbyQuick& q) {
    const std::string id = next_id();
    request(ClientProtocol::quick_join(q.players, q.mode, id), id);
  }
  void act(const cli::LobbyLeave&) {
    const std::string id = next_id();
    request(ClientProtocol::leave_match(id), id);
  }
  void act(const cli::Watch& w) {
    const std::string id = next_id();
    request(ClientProtocol::spectate(w.match, id), id);
  }
  void act(const cli::ShowBoard&) {
    if (mirror_.synced()) draw_board();
    else print("no match to show: create, join, quick or watch one");
  }
  void act(const cli::ShowMoves&) {
    const auto legal = mirror_.legal_commands();
    if (legal.empty()) {
      print(mirror_.has_match() ? "nothing to do: it is not your turn" : "you are not in a match");
      return;
    }
    std::string out = "you may type:";
    std::size_t shown = 0;
    for (const auto& c : legal) {
      if (++shown > 40) {
        out += "\n  ... and " + std::to_string(legal.size() - 40) + " more";
        break;
      }
      out += "\n  " + cli::command_text(c);
    }
    print(out);
  }
  void act(const cli::AutoMove&) {
    const auto legal = mirror_.legal_commands();
    if (legal.empty()) {
      print("? nothing to play now");
      return;
    }
    const auto& c = legal[random_() % legal.size()];
    print("> " + cli::command_text(c));
    send_play(c);
  }
  void act(const cli::WaitTurn&) { waiting_turn_ = true; }
  void act(const cli::AutoPlay&) { autoplay_ = true; }
  void act(const cli::Help&) { print(cli::help_text()); }
  void act(const cli::Quit&) { quit(); }

  void autoplay_step() {
    if (!pending_id_.empty() || !logged_in_ || !mirror_.synced() || autoplay_blocked_) return;
    if (mirror_.seq() < acked_seq_) return;  // act on the state after our own last command
    if (mirror_.game_over()) {
      autoplay_ = false;
      return;
    }
    if (!mirror_.my_turn()) return;
    const auto legal = mirror_.legal_commands();
    if (legal.empty()) return;
    const auto& c = legal[random_() % legal.size()];
    print("> " + cli::command_text(c));
    send_play(c);
  }

 public:
  void quit() {
    if (quitting_) return;
    quitting_ = true;
    connection_.close();
    loop_.stop();
  }
  bool tty() const { return tty_; }
  void set_rl_active(bool on) { rl_active_ = on; }

 private:
  net::EventLoop& loop_;
  client::ConnectionPool pool_;
  client::LineConnection connection_;
  Options options_;
  bool tty_;
  client::TokenStore tokens_;
  std::mt19937_64 random_;
  client::MatchMirror mirror_;
  render::Names names_{};
  std::array<bool, rules::kMaxPlayers> connected_{};
  std::deque<std::string> input_;
  bool input_eof_ = false;
  bool logged_in_ = false;
  bool greeted_ = false;
  bool waiting_turn_ = false;
  bool autoplay_ = false;
  bool autoplay_blocked_ = false;  // refused: wait for news from the server before trying again
  bool quitting_ = false;
  bool rl_active_ = false;
  bool result_due_ = false;  // the match's last event is here, its game_over push not yet
  std::string pending_id_;
  std::int64_t acked_seq_ = 0;  // the seq of our last acknowledged command
  std::int64_t ids_ = 0;
  int backoff_ms_ = 250;
};

// readline's completion: the command words first, then colours.
char* complete_word(const char* text, int state) {
  static std::vector<std::string> matches;
  static std::size_t next = 0;
  if (state == 0) {
    matches.clear();
    next = 0;
    std::vector<std::string> candidates = cli::command_words();
    for (const char* extra : {"autoplay", "yellow", "blue", "green", "red", "pink", "black", "white", "grey", "simple",
                              "expert", "monk", "farmer", "herald", "postman", "herbs", "centaur", "jester", "knight",
                              "mushroom", "minstrel", "princess", "thief", "for"})
      candidates.emplace_back(extra);
    const std::string_view prefix(text);
    for (const auto& w : candidates)
      if (w.compare(0, prefix.size(), prefix) == 0) matches.push_back(w);
  }
  if (next >= matches.size()) return nullptr;
  return strdup(matches[next++].c_str());
}

char** complete(const char* text, int, int) {
  rl_attempted_completion_over = 1;
  return rl_completion_matches(text, complete_word);
}

void on_readline(char* line) {
  if (!line) {
    g_cli->input_closed();
    return;
  }
  std::string text(line);
  if (!text.empty()) add_history(line);
  std::free(line);
  g_cli->typed(std::move(text));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"eryantis-cli: play Eriantys in a terminal."};
  Options options;
  bool no_color = false;
  app.add_option("--host", options.host, "server address")->capture_default_str();
  app.add_option("--port", options.port, "server port")->capture_default_str()->check(CLI::Range(1, 65535));
  app.add_option("--nickname", options.nickname, "your nickname (letters, digits, _ - .)")->required();
  app.add_option("--tokens", options.tokens, "resume-token file (default: under $XDG_DATA_HOME/eryantis)");
  app.add_flag("--no-color", no_color, "plain text, no ANSI colours");
  CLI11_PARSE(app, argc, argv);
  const bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  options.color = !no_color && isatty(STDOUT_FILENO);

  net::EventLoop loop;
  Cli cli(loop, options, tty);
  g_cli = &cli;
  loop.on_signals([&](int) { cli.quit(); });

  std::thread reader;
  std::mutex mutex;
  std::deque<std::optional<std::string>> lines;  // nullopt = end of input
  std::shared_ptr<net::Wakeup> wakeup;
  uv_poll_t stdin_poll{};
  if (tty) {
    rl_attempted_completion_function = complete;
    rl_callback_handler_install("eryantis> ", on_readline);
    cli.set_rl_active(true);
    uv_poll_init(loop.raw(), &stdin_poll, STDIN_FILENO);
    uv_poll_start(&stdin_poll, UV_READABLE, [](uv_poll_t*, int, int) { rl_callback_read_char(); });
    // The loop closes every handle at stop(), this one included.
  } else {
    // Piped input: a plain reader thread hands whole lines to the loop.
    wakeup = loop.make_wakeup([&] {
      std::deque<std::optional<std::string>> batch;
      {
        std::lock_guard lock(mutex);
        batch.swap(lines);
      }
      for (auto& l : batch) {
        if (!l) {
          cli.input_closed();
          continue;
        }
        cli.typed(std::move(*l));
      }
    });
    reader = std::thread([&] {
      std::string line;
      while (std::getline(std::cin, line)) {
        std::lock_guard lock(mutex);
        lines.emplace_back(line);
        wakeup->notify();
      }
      std::lock_guard lock(mutex);
      lines.emplace_back(std::nullopt);
      wakeup->notify();
    });
  }
  cli.start();
  loop.run();
  if (tty) {
    rl_callback_handler_remove();
    std::fputc('\n', stdout);
  }
  if (reader.joinable()) reader.detach();  // blocked in getline; the process is ending
  return 0;
}
