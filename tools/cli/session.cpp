// The terminal client's game flow. See session.hpp.
#include "session.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <cstdio>
#include <utility>
#include <variant>

#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/client/random_choice.hpp"
#include "wrap.hpp"

namespace eryantis::cli {

using client::ClientProtocol;
using client::MessageType;
using client::ServerMessage;

namespace {

// The fields a message cannot be used without, as "match, seat" ("" = none missing).
std::string missing_fields(const ServerMessage& m) {
  std::vector<std::string> missing;
  auto need = [&](bool present, const char* name) {
    if (!present) missing.emplace_back(name);
  };
  // Match numbers start at 1: anything else is as good as no number.
  const bool match = m.match.has_value() && *m.match > 0;
  switch (m.type) {
    case MessageType::LoggedIn:
      need(!m.nickname.empty(), "nickname");
      break;
    case MessageType::Joined:
      need(match, "match");
      need(m.seat.has_value(), "seat");
      break;
    case MessageType::Spectating:
    case MessageType::Left:
    case MessageType::Invite:
      need(match, "match");
      break;
    case MessageType::State:
      need(match, "match");
      need(m.seq.has_value(), "seq");
      need(!m.view_json.empty(), "view");
      break;
    case MessageType::Event:
      need(match, "match");
      need(m.seq.has_value(), "seq");
      need(!m.event_json.empty(), "event");
      break;
    case MessageType::GameOver:
      need(m.result.has_value(), "result");
      break;
    case MessageType::Error:
      need(!m.code.empty(), "code");
      break;
    default:
      break;
  }
  std::string out;
  for (const auto& name : missing) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace

std::string result_text(const client::GameResult& result) {
  std::string out;
  for (const auto& n : result.nicknames) {
    if (!out.empty()) out += " and ";
    out += n;
  }
  out += result.draw ? " share the victory" : " won";
  if (!result.reason.empty()) out += " (" + result.reason + ")";
  return out;
}

std::string lobby_text(const ServerMessage& m) {
  std::string out = "matches you can join:\n";
  auto list = [&](const std::vector<client::MatchSummary>& matches, const char* empty) {
    if (matches.empty()) {
      out += std::string("  ") + empty + "\n";
      return;
    }
    for (const auto& e : matches) {
      // Eriantys's matches by their mode, as ever; another game's by its name.
      std::string kind = e.mode;
      if (!e.game.empty() && e.game != "eriantys") kind = e.game + (e.mode.empty() ? "" : " " + e.mode);
      char line[200];
      std::snprintf(line, sizeof line, "  #%-5lld %dp %-6s %-8s", static_cast<long long>(e.match),
                    e.players, kind.c_str(), e.status.c_str());
      out += line;
      for (const auto& s : e.seats) {
        out += ' ';
        out += s.nickname.value_or("(free)");
        if (s.computer) out += " (" + *s.computer + ")";
      }
      out += "\n";
    }
  };
  list(m.open, "none open: create one (create 2) or quick-join (quick)");
  out += "running:\n";
  list(m.running, "none");
  if (m.yours) out += "your match: " + std::to_string(*m.yours) + "\n";
  return out;
}

Session::Session(SessionHost& host, SessionOptions options, client::TokenStore tokens,
                 std::uint64_t seed)
    : host_(host),
      options_(std::move(options)),
      tokens_(std::move(tokens)),
      random_(seed),
      games_(options_.games ? *options_.games : catalogue::games()),
      mirror_(games_),
      node_host_(options_.host),
      node_port_(options_.port) {
  if (options_.account && !options_.sessions_file.empty())
    sessions_.emplace(std::filesystem::path(options_.sessions_file));
}

namespace {
void wipe(std::string& secret) {
  std::fill(secret.begin(), secret.end(), '\0');
  secret.clear();
}
}  // namespace

std::string Session::account_key() const {
  std::string key = options_.nickname;
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

namespace {
const std::string& login_id() {
  static const std::string id = ClientProtocol::string_id("login");
  return id;
}
}  // namespace

// Tokens are kept per node: any node of a cluster accepts them.
std::string Session::server_key() const {
  return node_host_ + ":" + std::to_string(node_port_);
}

void Session::start() {
  host_.print("connecting to " + server_key() + " as " + options_.nickname + " ...");
  host_.connect(node_host_, node_port_);
}

// --- input ------------------------------------------------------------------

void Session::typed(std::string line) {
  // A person at a terminal is obeyed at once: nothing they wait for may hold a quit.
  if (options_.interactive && !quitting_) {
    auto parsed = parse_line(line, game());
    if (parsed && *parsed && std::holds_alternative<Quit>(**parsed)) {
      quit();
      return;
    }
  }
  input_.push_back(std::move(line));
  pump();
}

void Session::input_closed() {
  input_eof_ = true;
  if (options_.interactive) {
    quit();
    return;
  }
  pump();
}

void Session::quit(int exit_code) {
  if (quitting_) return;
  quitting_ = true;
  exit_code_ = exit_code;
  host_.quit();
}

// --- the connection -----------------------------------------------------------

void Session::connected() {
  backoff_ms_ = 250;
  ++connection_generation_;
  // Full updates: a game that hides part of its events from some seats cannot be
  // folded, and the mirror takes its view instead (a public game is still folded).
  host_.send(ClientProtocol::hello("eryantis-cli", client::Updates::Full));
  send_login();
}

void Session::send_login() {
  if (options_.account) {
    // A saved session first (no password needed), else the password given at start.
    session_sent_ = false;
    if (!options_.register_account && sessions_)
      if (auto secret = sessions_->get(server_key(), account_key())) {
        session_sent_ = true;
        host_.send(ClientProtocol::session_login(*secret, login_id()));
        return;
      }
    if (options_.password.empty()) {
      say("cannot log in to account " + options_.nickname + ": no saved session on " +
          server_key() + " and no password (type it at the prompt in a terminal, or give "
          "ERYANTIS_PASSWORD or --password-file). Quitting.");
      quit(kExitLoginRefused);
      return;
    }
    host_.send(ClientProtocol::account_login(options_.register_account, options_.nickname,
                                             options_.password, "eryantis-cli", login_id()));
    return;
  }
  // The token of this session first: after a redirect the new node has none saved.
  auto token = token_.empty() ? tokens_.get(server_key(), options_.nickname)
                              : std::optional<std::string>(token_);
  host_.send(ClientProtocol::login(options_.nickname,
                                   token ? std::optional<std::string_view>(*token) : std::nullopt,
                                   login_id()));
}

void Session::closed(std::string_view reason) {
  if (quitting_) return;
  logged_in_ = false;
  result_due_ = false;  // a result not received by now will not come on this connection
  pending_id_.clear();  // that request's fate is unknown: the state after login tells
  host_.print("connection lost (" + std::string(reason) + "); reconnecting in " +
              std::to_string(backoff_ms_) + " ms");
  if (watching_)
    host_.print("(you will watch match " + std::to_string(*watching_) + " again once back)");
  respectate_id_.clear();
  leaving_ = false;
  repeat_line_.clear();
  if (!node_reached_ && server_key() != options_.host + ":" + std::to_string(options_.port)) {
    // The node a redirect named does not answer (dead, or its lease moved): any
    // node redirects again, so go back to the one of the command line.
    node_host_ = options_.host;
    node_port_ = options_.port;
    host_.print("(trying " + server_key() + " again)");
  }
  host_.after(static_cast<std::uint64_t>(backoff_ms_), [this] {
    if (!quitting_) {
      node_reached_ = false;
      host_.connect(node_host_, node_port_);
    }
  });
  backoff_ms_ = std::min(backoff_ms_ * 2, 5000);
}

void Session::line(std::string_view text) {
  if (quitting_) return;
  auto parsed = client::parse_server_message(text);
  if (!parsed) {
    host_.print("(unreadable line from the server: " + parsed.error() + ")");
    return;
  }
  if (const std::string missing = missing_fields(*parsed); !missing.empty()) {
    host_.print("(ignored a " + parsed->type_name + " from the server without " + missing + ")");
    // A reply is still a reply: the request it answers is no longer awaited.
    if (!pending_id_.empty() && parsed->id == pending_id_) pending_id_.clear();
    pump();
    return;
  }
  handle(*parsed);
  pump();
}

// --- server messages -------------------------------------------------------------

void Session::handle(const ServerMessage& m) {
  // The per-connection RATE_LIMITED carries no id: the line was dropped unread,
  // and with one request in flight at a time that is its only answer.
  const bool answers_pending =
      !pending_id_.empty() && (m.id == pending_id_ || (m.type == MessageType::Error &&
                                                       m.id.empty() && m.code == "RATE_LIMITED"));
  if (m.type == MessageType::Event || m.type == MessageType::State ||
      m.type == MessageType::Seats) {
    autoplay_blocked_ = false;
    if (m.type != MessageType::Seats) {
      if (!m.status.empty()) status_ = m.status;
      if (m.legal_json) server_legal_json_ = m.legal_json;
    }
    on_deadline(m);
    if (!m.clock_control.empty()) clock_control_ = m.clock_control;
    if (!m.clocks.empty()) {
      clocks_ = m.clocks;
      clocks_at_ms_ = host_.now_ms();
    } else if (m.type == MessageType::State) {
      clocks_.clear();  // another match, or one without a clock
      clock_control_.clear();
    }
  }
  switch (m.type) {
    case MessageType::Welcome:
    case MessageType::Pong:
      break;
    case MessageType::LoggedIn:
      on_logged_in(m);
      break;
    case MessageType::MatchList:
      host_.print(lobby_text(m));
      break;
    case MessageType::Joined:
      acked_seq_ = 0;
      watching_.reset();
      server_legal_json_.reset();
      host_.print("joined match " + std::to_string(*m.match) + " as seat " +
                  std::to_string(*m.seat) +
                  " (until it starts, leave gives the seat back; then resign gives up)");
      break;
    case MessageType::Spectating:
      host_.print("watching match " + std::to_string(*m.match) + " (leave stops watching)");
      // Only a spectate of mine is watched again after a reconnection.
      if (answers_pending) watching_ = *m.match;
      server_legal_json_.reset();
      break;
    case MessageType::Left:
      if (watching_)
        host_.print("stopped watching match " + std::to_string(*m.match));
      else
        host_.print("left match " + std::to_string(*m.match) +
                    ": your seat is free again; list shows the matches you can join");
      watching_.reset();
      mirror_.clear();
      server_legal_json_.reset();
      deadline_.reset();
      ++deadline_generation_;
      status_.clear();
      acked_seq_ = 0;
      break;
    case MessageType::State:
      update_names(m.seats);
      if (!mirror_.load_state(m))
        host_.print("(the state could not be read: " + mirror_.problem() + ")");
      draw_board();
      break;
    case MessageType::Seats:
      update_names(m.seats);
      break;
    case MessageType::Event:
      on_event(m);
      break;
    case MessageType::Ack:
      // Our command is durable; its event (this seq) may still be on its way.
      if (m.seq) acked_seq_ = std::max(acked_seq_, *m.seq);
      break;
    case MessageType::GameOver:
      // After a login: a match that ended while I was away (forfeit, abandonment).
      if (m.match && (!mirror_.synced() || mirror_.match() != *m.match || !mirror_.game_over()))
        host_.print("match " + std::to_string(*m.match) + " ended while you were away:");
      host_.print("*** game over: " + result_text(*m.result) + " ***");
      deadline_.reset();
      ++deadline_generation_;
      result_due_ = false;
      autoplay_ = false;
      acked_seq_ = 0;
      break;
    case MessageType::Error:
      on_error(m);
      break;
    case MessageType::Ping:
      host_.send(ClientProtocol::pong());
      break;
    case MessageType::Shutdown:
      host_.print("server: " + m.message);
      break;
    case MessageType::Redirect:
      // The request (or login) it answers goes on at the other node: still awaited.
      on_redirect(m, answers_pending);
      return;
    case MessageType::Chat:
    case MessageType::ChatHistory:
      print_chat(m);
      break;
    case MessageType::ChatSent:  // my line comes as a `chat` push too
      break;
    case MessageType::ChatDeleted:
      host_.print("(an operator deleted a chat message)");
      break;
    case MessageType::Invite:
      if (m.code.empty())
        host_.print("match " + std::to_string(m.match.value_or(0)) +
                    " has no invite code now: nobody else can join it (revoke gives a new one)");
      else
        host_.print("match " + std::to_string(m.match.value_or(0)) +
                    " is private; invite with its code " + m.code + ": join " +
                    std::to_string(m.match.value_or(0)) + " " + m.code +
                    " in eryantis-cli, or the web address followed by #join=" +
                    std::to_string(m.match.value_or(0)) + "&code=" + m.code);
      break;
    case MessageType::Unknown:
      if (m.type_name == "logged_out") {
        if (sessions_) (void)sessions_->erase(server_key(), account_key());
        host_.print("logged out of account " + options_.nickname + "; quitting");
        quit();
        break;
      }
      if (m.type_name == "match_abandoned") {
        host_.print("the match was abandoned: a player stayed away");
        mirror_.clear();
      }
      break;
  }
  if (answers_pending) {
    pending_id_.clear();
    leaving_ = false;
    hops_.reset();
  }
  if (!respectate_id_.empty() && m.id == respectate_id_) respectate_id_.clear();
}

void Session::on_logged_in(const ServerMessage& m) {
  logged_in_ = true;
  node_reached_ = true;
  if (options_.account) {
    // The account's name as registered (its case); the session secret kept for the
    // next start and for reconnections, the password forgotten.
    if (!m.nickname.empty()) options_.nickname = m.nickname;
    wipe(options_.password);
    if (options_.register_account) host_.print("registered account " + options_.nickname);
    options_.register_account = false;
    if (!m.session.empty() && sessions_)
      if (auto saved = sessions_->put(server_key(), account_key(), m.session); !saved)
        host_.print("(could not save the session: " + saved.error() + ")");
  }
  if (m.token.empty()) {
    host_.print("(the server sent no resume token: none saved)");
  } else {
    token_ = m.token;
    if (auto saved = tokens_.put(server_key(), m.nickname, m.token); !saved)
      host_.print("(could not save the resume token: " + saved.error() + ")");
  }
  if (!repeat_line_.empty()) {
    // Here after a redirect: the request goes again, with its id (still awaited).
    host_.print("logged in as " + m.nickname + " on " + server_key());
    host_.send(repeat_line_);
    repeat_line_.clear();
    greeted_ = true;
    return;
  }
  hops_.reset();
  if (m.match) {
    watching_.reset();
    host_.print("logged in as " + m.nickname + ", back in match " + std::to_string(*m.match) +
                " (seat " + std::to_string(m.seat.value_or(-1)) + ")");
  } else if (watching_) {
    // A spectator stays one across a dropped connection or a server restart.
    host_.print("logged in as " + m.nickname + ", watching match " + std::to_string(*watching_) +
                " again");
    const std::int64_t match = *watching_;
    request([&](std::string_view id) { return ClientProtocol::spectate(match, id); });
    respectate_id_ = pending_id_;
  } else {
    host_.print("logged in as " + m.nickname + ". Type help for the commands.");
    if (options_.join) {
      const JoinLink link = *std::exchange(options_.join, std::nullopt);
      act(LobbyJoin{link.match, std::nullopt, link.code});
    } else if (!greeted_) {
      host_.send(ClientProtocol::list_matches());
    }
  }
  greeted_ = true;
}

void Session::on_redirect(const ServerMessage& m, bool answers_request) {
  const bool answers_login = !logged_in_ || m.id == login_id();
  // What cannot be followed ends the request as a refusal would; a login that
  // cannot be followed is tried again later, as after a lost connection.
  auto give_up = [&](const std::string& why) {
    host_.print("✗ " + why);
    hops_.reset();
    if (answers_login) {
      host_.print("(not logged in anywhere: trying " + options_.host + ":" +
                  std::to_string(options_.port) + " again)");
      node_reached_ = false;
      closed("redirected in a loop");
    } else if (answers_request) {
      pending_id_.clear();
      leaving_ = false;
      if (!respectate_id_.empty() && m.id == respectate_id_) {
        respectate_id_.clear();
        watching_.reset();
      }
    }
  };
  auto to = client::redirect_endpoint(m, false);
  if (!to) {
    give_up("REDIRECT: " + to.error());
    return;
  }
  const std::string where = client::redirect_text(m, *to);
  if (!hops_.follow()) {
    give_up("TOO_MANY_REDIRECTS: " + where + ", but that is redirect " +
            std::to_string(client::kMaxRedirectHops + 1) +
            " in a row: the nodes disagree about who serves it. Try again in a moment.");
    return;
  }
  host_.print(where + ": moving there" + (m.reason.empty() ? "" : " (" + m.reason + ")"));
  repeat_line_.clear();
  if (answers_request && !answers_login) {
    repeat_line_ = pending_line_;
  } else if (!answers_login) {
    // Sent on its own (the match moved): a request in flight here has no answer coming.
    pending_id_.clear();
    leaving_ = false;
    respectate_id_.clear();
  }
  logged_in_ = false;
  node_reached_ = false;
  result_due_ = false;
  node_host_ = to->host;
  node_port_ = to->port;
  host_.connect(node_host_, node_port_);  // closes this connection first
}

void Session::on_event(const ServerMessage& m) {
  const game::State before = mirror_.state();
  const auto outcome = mirror_.on_event(m);
  if (outcome == client::MatchMirror::Update::NeedsSync) {
    // An event this client cannot fold (e.g. a newer kind): say it in the
    // server's words, then take the state after it.
    if (!m.text.empty()) host_.print("#" + std::to_string(*m.seq) + " " + m.text);
    host_.send(ClientProtocol::sync());
    return;
  }
  if (outcome != client::MatchMirror::Update::Applied) return;
  std::string sentence;
  if (auto ev = mirror_.game()->event_from_json(m.event_json))
    sentence = mirror_.game()->describe_event(before, *ev, mirror_.state(), names_);
  else
    sentence = m.text;  // an event this client cannot read: the server's words
  if (!sentence.empty()) {
    std::string text = "#";  // built step by step: g++ 12 warns wrongly about "#" + ...
    text += std::to_string(mirror_.seq());
    text += ' ';
    text += sentence;
    host_.print(text);
  }
  if (!autoplay_ || mirror_.my_turn() || mirror_.game_over()) draw_board();
  if (mirror_.game_over() && !result_due_) {
    // game_over (the result) follows this event: hold the input (and the quit
    // at its end) until it is here, or for 2 s if it never comes.
    result_due_ = true;
    host_.after(2000, [this] {
      result_due_ = false;
      pump();
    });
  }
}

void Session::on_error(const ServerMessage& m) {
  say("✗ " + m.code + ": " + with_names(m.message));
  if (leaving_ && m.id == pending_id_ && m.code == "ALREADY_IN_MATCH")
    host_.print("(the match has started: to give it up, type resign)");
  if (!respectate_id_.empty() && m.id == respectate_id_) {
    host_.print("(match " + std::to_string(watching_.value_or(0)) +
                " can no longer be watched: list shows the others)");
    watching_.reset();
    mirror_.clear();
  }
  if (autoplay_) {
    // Wait for news from the server, or half a second, before trying again.
    autoplay_blocked_ = true;
    host_.after(500, [this] {
      autoplay_blocked_ = false;
      pump();
    });
  }
  if (m.code == "STALE_SEQ") host_.send(ClientProtocol::sync());
  if (m.id == login_id()) on_login_refused(m);
}

// Nothing typed can run before a login: a refusal that waiting cannot change ends
// the session (a prompt that accepts lines it will never run is worse than an exit).
void Session::on_login_refused(const ServerMessage& m) {
  if (m.code == "ALREADY_LOGGED_IN") return;  // a login that crossed another: we are in
  if (m.code == "RATE_LIMITED" || m.code == "SHUTTING_DOWN" || m.code == "STORE_FAILURE" ||
      m.code == "SERVER_DEGRADED" || m.code == "BUSY") {
    // The server (or its database) may be back soon: the same login again, with backoff.
    host_.print("(the login is refused for now; trying again in " + std::to_string(backoff_ms_) +
                " ms)");
    host_.after(static_cast<std::uint64_t>(backoff_ms_), [this, gen = connection_generation_] {
      // On this connection only: a new one sends its own login.
      if (!quitting_ && !logged_in_ && gen == connection_generation_) send_login();
    });
    backoff_ms_ = std::min(backoff_ms_ * 2, 5000);
    return;
  }
  if (m.code == "BAD_SESSION" && session_sent_) {
    // Logged out elsewhere, or expired: forgotten; the password (if given) instead.
    if (sessions_) (void)sessions_->erase(server_key(), account_key());
    session_sent_ = false;
    if (!options_.password.empty()) {
      host_.print("(the saved session has ended; logging in with the password)");
      send_login();
      return;
    }
    say("the saved session of account " + options_.nickname +
        " has ended (logged out or expired): start again to type your password. Quitting.");
    quit(kExitLoginRefused);
    return;
  }
  if (options_.account) {
    wipe(options_.password);
    say("cannot log in to account " + options_.nickname + ": " + m.message + " (" + m.code +
        "). Quitting.");
    quit(kExitLoginRefused);
    return;
  }
  if (m.code == "INVALID_NICKNAME")
    say("cannot log in: \"" + options_.nickname +
                "\" is not a nickname this server accepts (1 to 24 letters, digits, '_', '-' or "
                "'.'); choose another with --nickname. Quitting.");
  else
    host_.print("cannot log in as " + options_.nickname + "; quitting");
  quit(kExitLoginRefused);
}

void Session::update_names(const std::vector<client::SeatInfo>& seats) {
  for (const auto& s : seats) {
    if (s.seat < 0 || s.seat >= game::kMaxSeats) continue;
    // A computer seat shows its level: "Computer 1 (strong)".
    const std::string name = s.nickname.value_or("") + (s.computer ? " (" + *s.computer + ")" : "");
    const auto key = static_cast<std::size_t>(s.seat);
    if (!name.empty() && name == names_[key] && connected_[key] != s.connected &&
        name != options_.nickname)
      host_.print(name + (s.connected ? " is back" : " disconnected"));
    else if (!name.empty() && names_[key].empty() && name != options_.nickname)
      host_.print(name + " took seat " + std::to_string(s.seat));
    names_[key] = name;
    connected_[key] = s.connected;
  }
}

void Session::draw_board() {
  if (!mirror_.synced()) return;
  const game::Game& g = *mirror_.game();
  game::BoardOptions o;
  o.names = names_;
  o.color = options_.color;
  o.viewer = mirror_.seat();
  o.compact = options_.compact;
  for (std::size_t seat = 0; seat < names_.size(); ++seat)
    o.away[seat] = !names_[seat].empty() && !connected_[seat];
  std::string text = g.render_board(mirror_.state(), o);
  if (status_ == "lobby") {
    // The match waits for players: the setup line above lists empty seats too.
    const int seats = g.seats(mirror_.state());
    int seated = 0;
    for (int seat = 0; seat < seats && seat < game::kMaxSeats; ++seat)
      seated += names_[static_cast<std::size_t>(seat)].empty() ? 0 : 1;
    text += "Waiting for players: " + std::to_string(seated) + " of " + std::to_string(seats) +
            " seats taken (leave gives your seat back)\n";
  }
  if (const std::string d = deadline_text(); !d.empty()) text += "⏱ " + d + "\n";
  if (const std::string c = clocks_text(); !c.empty()) text += c + "\n";
  if (options_.redraw_in_place) text = "\033[2J\033[H" + text;
  host_.print(text);
}

// --- requests ---------------------------------------------------------------------

void Session::request(const std::function<std::string(std::string_view id)>& build) {
  pending_id_ = ClientProtocol::number_id(++ids_);
  pending_line_ = build(pending_id_);
  host_.send(pending_line_);
}

// Handles queued input lines while nothing is in flight.
void Session::pump() {
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

void Session::run(const std::string& line) {
  auto parsed = parse_line(line, game());
  if (!parsed) {
    say("? " + parsed.error());
    return;
  }
  if (!*parsed) return;
  std::visit([&](const auto& a) { act(a); }, **parsed);
}

void Session::send_play(const game::Command& c) {
  const std::string command_id = options_.nickname + "-" + std::to_string(random_());
  // In setup everyone chooses at once, so the seq moves under us: no expected_seq there.
  std::optional<std::int64_t> expected;
  if (mirror_.stage() != game::Stage::Setup) expected = mirror_.seq();
  const game::Game& g = game();
  request([&](std::string_view id) { return ClientProtocol::play(g, c, command_id, expected, id); });
}

void Session::play_random(const std::vector<game::Command>& legal) {
  game::Prng prng(random_());
  const game::Command& c = client::pick_random_command(game(), legal, prng);
  host_.print("> " + command_text(game(), c));
  send_play(c);
}

void Session::autoplay_step() {
  if (!pending_id_.empty() || !logged_in_ || !mirror_.synced() || autoplay_blocked_) return;
  if (mirror_.seq() < acked_seq_) return;  // act on the state after our own last command
  if (mirror_.game_over()) {
    autoplay_ = false;
    return;
  }
  if (!mirror_.my_turn()) return;
  const auto legal = mirror_.legal_commands();
  if (!legal.empty()) play_random(legal);
}

void Session::act(const GameCommand& g) {
  if (!mirror_.has_match()) {
    host_.print("? you are not in a match: create, join or quick first");
    return;
  }
  send_play(g.command);
}

void Session::act(const LobbyList&) {
  request([](std::string_view id) { return ClientProtocol::list_matches(id); });
}

void Session::act(const LobbyCreate& c) {
  client::CreateMatch r;
  r.game = c.game;
  r.players = c.players;
  r.mode = c.mode;
  r.computers = c.computers;
  r.level = c.level;
  r.private_match = c.private_match;
  r.takeover = c.takeover;
  r.clock = c.clock;
  r.on_timeout = c.on_timeout;
  request([&](std::string_view id) { return ClientProtocol::create_match(r, id); });
}

void Session::act(const LobbyJoin& j) {
  request([&](std::string_view id) {
    return ClientProtocol::join_match(j.match, id, j.seat, j.code);
  });
}

void Session::act(const Logout& l) {
  if (!options_.account) {
    say("logout is for an account (eryantis-cli --login NAME); a guest just quits (quit)");
    return;
  }
  request([&](std::string_view id) { return ClientProtocol::logout(l.all, id); });
}

void Session::act(const RevokeInvite& r) {
  request([&](std::string_view id) { return ClientProtocol::revoke_invite(r.renew, id); });
}

void Session::act(const LobbyQuick& q) {
  std::optional<std::string_view> mode;
  if (q.mode) mode = *q.mode;
  request([&](std::string_view id) { return ClientProtocol::quick_join(q.players, mode, id, q.game); });
}

void Session::act(const LobbyLeave&) {
  request([](std::string_view id) { return ClientProtocol::leave_match(id); });
  leaving_ = true;
}

void Session::act(const Say& s) {
  request([&](std::string_view id) { return ClientProtocol::chat(s.text, id); });
}

void Session::print_chat(const ServerMessage& m) {
  // A line of another match (one left meanwhile) is not this one's.
  if (m.match && mirror_.has_match() && mirror_.match() != *m.match) return;
  auto shown = [](std::string text) {
    for (char& c : text)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';  // never drive the terminal
    return text;
  };
  if (m.type == MessageType::ChatHistory && !m.chat_lines.empty())
    host_.print("chat so far (" + m.channel + "):");
  for (const client::ChatLine& line : m.chat_lines)
    host_.print("[" + m.channel + "] " + shown(line.from) + ": " + shown(line.text));
}

void Session::act(const Watch& w) {
  watching_.reset();  // set by the reply
  request([&](std::string_view id) { return ClientProtocol::spectate(w.match, id, w.code); });
}

void Session::act(const ShowBoard&) {
  if (mirror_.synced())
    draw_board();
  else
    host_.print("no match to show: create, join, quick or watch one");
}

void Session::act(const ShowMoves&) {
  const auto legal = my_legal();
  if (legal.empty()) {
    host_.print(mirror_.has_match() ? "nothing to do: it is not your turn"
                                    : "you are not in a match");
    return;
  }
  constexpr std::size_t kShown = 40;  // a screenful; `auto` picks among all of them
  std::string out = "you may type:";
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (i == kShown) {
      out += "\n  ... and " + std::to_string(legal.size() - kShown) + " more";
      break;
    }
    out += "\n  " + command_text(game(), legal[i]);
  }
  host_.print(out);
}

void Session::act(const AutoMove&) {
  const auto legal = my_legal();
  if (legal.empty()) {
    host_.print("? nothing to play now");
    return;
  }
  play_random(legal);
}

void Session::act(const Help& h) {
  if (h.topic.empty()) {
    say(help_text(game()));
    return;
  }
  auto text = help_topic(h.topic, game());
  say(text ? *text : "? " + text.error());
}

void Session::say(const std::string& text) {
  // Not a terminal: 80 columns. A wide one: at most 100, lines stay readable.
  constexpr std::size_t kDefault = 80, kWidest = 100;
  const std::size_t columns = host_.columns();
  host_.print(wrap_words(text, columns == 0 ? kDefault : std::min(columns, kWidest)));
}

void Session::act(const Resign& r) {
  if (!mirror_.has_match() || !mirror_.game() || mirror_.seat() == game::kNoSeat ||
      mirror_.game_over()) {
    host_.print("? you are not playing a match");
    return;
  }
  if (status_ == "lobby") {
    host_.print("? the match has not started: leave gives your seat back");
    return;
  }
  if (!r.confirmed) {
    // A seat that shares its side with another (Eriantys with 4: 0+2 against 1+3).
    const game::Game& g = *mirror_.game();
    bool partner = false;
    if (!mirror_.state().empty()) {
      const int seats = g.seats(mirror_.state());
      const int mine = g.team(mirror_.state(), mirror_.seat());
      for (int seat = 0; seat < seats && mine >= 0; ++seat)
        if (seat != mirror_.seat() && g.team(mirror_.state(), static_cast<game::Seat>(seat)) == mine)
          partner = true;
    }
    host_.print(partner
                    ? "resigning ends the match: your team loses and your partner is told. "
                      "Type resign yes to confirm."
                    : "resigning ends the match: you lose. Type resign yes to confirm.");
    return;
  }
  const std::string command_id = options_.nickname + "-" + std::to_string(random_());
  request([&](std::string_view id) { return ClientProtocol::resign(command_id, id); });
}

std::vector<std::string> Session::completions(std::string_view before,
                                              std::string_view word) const {
  return cli::completions(before, word, my_legal(), game());
}

std::vector<game::Command> Session::my_legal() const {
  if (server_legal_json_ && mirror_.synced())
    return client::decode_commands(*mirror_.game(), *server_legal_json_);
  return mirror_.legal_commands();
}

const game::Game& Session::game() const {
  return mirror_.game() ? *mirror_.game() : games_.default_game();
}

std::string Session::seat_name(int seat) const {
  if (seat >= 0 && seat < game::kMaxSeats && !names_[static_cast<std::size_t>(seat)].empty()) {
    // Names come from the server: no terminal escapes from them.
    std::string name = names_[static_cast<std::size_t>(seat)];
    for (char& c : name)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return name;
  }
  return "seat " + std::to_string(seat);
}

std::string Session::with_names(std::string text) const {
  for (const char* word : {"seat ", "Seat "}) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
      const std::size_t digit = at + 5;
      if (digit >= text.size() || text[digit] < '0' || text[digit] > '3') continue;
      if (digit + 1 < text.size() && text[digit + 1] >= '0' && text[digit + 1] <= '9') continue;
      const std::string& name = names_[static_cast<std::size_t>(text[digit] - '0')];
      if (name.empty()) continue;
      text.replace(at, 6, name);
    }
  }
  return text;
}

namespace {

// "42 s", "2 min 05 s"
std::string duration_text(std::uint64_t ms) {
  const std::uint64_t s = (ms + 999) / 1000;
  if (s < 60) return std::to_string(s) + " s";
  std::string sec = std::to_string(s % 60);
  if (sec.size() < 2) sec = "0" + sec;
  return std::to_string(s / 60) + " min " + sec + " s";
}

}  // namespace

// "Clock 10m+5s: alice 9 min 58 s (running), bob 10 min 00 s": the running clock
// counted down from the message that told it (its delay first).
std::string Session::clocks_text() const {
  if (clocks_.empty()) return {};
  const std::uint64_t now = host_.now_ms();
  const auto spent = static_cast<std::int64_t>(now > clocks_at_ms_ ? now - clocks_at_ms_ : 0);
  std::string text = "Clock " + clock_control_ + ":";
  for (std::size_t seat = 0; seat < clocks_.size(); ++seat) {
    const client::SeatClock& c = clocks_[seat];
    std::int64_t left = c.left_ms;
    if (c.running) left -= std::max<std::int64_t>(0, spent - c.delay_ms);
    const std::string name = seat < names_.size() && !names_[seat].empty()
                                 ? names_[seat]
                                 : "seat " + std::to_string(seat);
    text.append(seat ? ", " : " ").append(name).append(" ");
    if (c.untimed)
      text.append("(computer, untimed)");
    else
      text.append(duration_text(static_cast<std::uint64_t>(std::max<std::int64_t>(0, left))))
          .append(c.running ? " (running)" : "");
  }
  return text;
}

std::string Session::deadline_text() const {
  if (!deadline_) return {};
  const client::Deadline& d = *deadline_;
  const std::uint64_t now = host_.now_ms();
  const std::string left = duration_text(deadline_end_ms_ > now ? deadline_end_ms_ - now : 0);
  const bool me = d.seat && mirror_.seat() != game::kNoSeat && *d.seat == mirror_.seat();
  std::string who = d.nickname;
  if (who.empty() && d.seat && *d.seat >= 0 && *d.seat < game::kMaxSeats) who = seat_name(*d.seat);
  if (who.empty()) who = "a player";
  if (d.action == "skip_turn")
    return me ? "your turn is skipped in " + left
              : who + " is offline — their turn is skipped in " + left;
  if (d.action == "take_over") return who + " is offline — a computer takes their seat in " + left;
  if (d.action == "forfeit")
    return me ? "you forfeit the match in " + left
              : who + " is offline — they forfeit the match in " + left;
  if (d.action == "abandon") return "the match is abandoned in " + left + " unless someone returns";
  if (d.action == "remove")
    return me ? "choose now: you are removed from the match in " + left
              : who + " has not chosen yet — they are removed from the match in " + left;
  return who + ": " + d.action + " in " + left;
}

void Session::on_deadline(const ServerMessage& m) {
  if (!m.deadline_sent) return;  // an older server: nothing known
  if (!m.deadline) {
    if (deadline_) ++deadline_generation_;
    deadline_.reset();
    return;
  }
  const std::uint64_t end = host_.now_ms() + static_cast<std::uint64_t>(m.deadline->in_ms);
  // The same deadline comes with every message, its in_ms counted down: only a new
  // one (another action or seat, or an end moved by more than 2 s) is announced.
  const bool same =
      deadline_ && deadline_->action == m.deadline->action && deadline_->seat == m.deadline->seat &&
      (end > deadline_end_ms_ ? end - deadline_end_ms_ : deadline_end_ms_ - end) <= 2000;
  deadline_ = *m.deadline;
  if (same) return;
  deadline_end_ms_ = end;
  const std::uint64_t generation = ++deadline_generation_;
  host_.print("⏱ " + deadline_text());
  // Reminders 30 s and 10 s before, while that deadline is still in force.
  for (const std::uint64_t before : {30000ULL, 10000ULL}) {
    const auto in_ms = static_cast<std::uint64_t>(m.deadline->in_ms);
    if (in_ms > before + 1000)
      host_.after(in_ms - before, [this, generation] { remind_deadline(generation); });
  }
}

void Session::remind_deadline(std::uint64_t generation) {
  if (quitting_ || generation != deadline_generation_ || !deadline_) return;
  host_.print("⏱ " + deadline_text());
}

}  // namespace eryantis::cli
