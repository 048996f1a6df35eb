// One protocol client: connects, logs in (resuming its seat with its token),
// mirrors its match and plays random legal moves of its game (a command type
// first, then one of its commands: client/random_choice.hpp) at a paced rate.
#include "bot.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cstdio>

#include "eryantis/client/random_choice.hpp"

namespace eryantis::bot {

using client::ClientProtocol;
using client::MessageType;
using client::ServerMessage;

namespace {

// Chaos requests carry ids "x<n>", normal plays "c<n>": errors are told apart by id.
bool is_chaos_id(std::string_view id) {
  return id.starts_with("\"x");
}

}  // namespace

Bot::Bot(Runner& runner, Table& table, int index, std::string nickname, std::uint64_t seed)
    : runner_(runner),
      table_(table),
      index_(index),
      nickname_(std::move(nickname)),
      home_(runner.options().first_node(table.index(), index)),
      node_(home_),
      conn_(runner.pool(), *this),
      mirror_(*runner.options().registry),
      prng_(seed),
      chaos_rng_(seed ^ 0xc4a05ULL) {}

void Bot::connect() {
  if (phase_ == Phase::Dead || runner_.stopping()) return;
  phase_ = Phase::Connecting;
  conn_.connect(node_);
}

void Bot::on_connected() {
  // A node answered: the next refused connection waits the shortest back-off
  // again. Only refused connections in a row grow it (on_closed).
  backoff_ms_ = kBackoffStartMs;
  if (runner_.options().floor) {
    // The floor's handshake; its {"type":"start"} comes once the table is complete.
    phase_ = Phase::Joining;
    conn_.send(fmt::format("floor {} {}", table_.index(), index_));
    return;
  }
  // hello and login in one write: the server reads them in order, and the storm of
  // 10,000 reconnections after a restart costs one round trip less per connection.
  conn_.send(ClientProtocol::hello(
      "eryantis-bot", runner_.options().full_updates ? client::Updates::Full : client::Updates::Events));
  login();
}

void Bot::spend_token() {
  token_wait_ms();  // refills
  tokens_ -= 1;
}

double Bot::token_wait_ms() {
  const auto now = Clock::now();
  const double rate = runner_.options().rate;
  const double burst = std::max(1.0, rate / 4);
  tokens_ =
      std::min(burst, tokens_ + rate * std::chrono::duration<double>(now - tokens_at_).count());
  tokens_at_ = now;
  return tokens_ >= 1 ? 0.0 : (1 - tokens_) * 1000.0 / rate;
}

void Bot::retry_later(std::uint64_t delay_ms) {
  if (retry_scheduled_) return;
  retry_scheduled_ = true;
  const std::uint64_t gen = generation_;
  runner_.loop().after(delay_ms, [this, gen] {
    // A retry of an earlier connection must not touch this one's flag: went_offline
    // cleared it, and a new retry may be scheduled already.
    if (gen != generation_) return;
    retry_scheduled_ = false;
    if (runner_.options().floor)
      maybe_act_floor();
    else
      maybe_act();
  });
}

void Bot::login() {
  spend_token();
  phase_ = Phase::LoggingIn;
  conn_.send(ClientProtocol::login(
      nickname_, token_.empty() ? std::nullopt : std::optional<std::string_view>(token_)));
}

void Bot::on_line(std::string_view line) {
  if (runner_.options().floor) {
    on_floor_line(line);
    return;
  }
  // The bot plays from its mirror's legal commands: the server's `legal` goes unread.
  auto m = client::parse_server_message(line, client::ParseOptions{.legal = false});
  if (!m) {
    ++runner_.stats().errors["UNREADABLE_LINE"];
    return;
  }
  if (Recorder* r = runner_.recorder(); r && r->wants(table_.index(), index_) && m->seq) {
    if (m->type == MessageType::Event) r->event(table_.index(), index_, *m->seq, line);
    if (m->type == MessageType::Ack && m->id == pending_id_ && awaiting_ack_)
      r->ack(table_.index(), index_, *m->seq, line);
  }
  if (Recorder* r = runner_.recorder(); r && m->type == MessageType::GameOver)
    r->game_over(table_.index(), index_);
  handle(*m);
}

// Floor mode: the lines are parsed as a real client would (the same JSON reader),
// but the bot keeps no game: it plays the transcript's step when it is its seat's.
void Bot::on_floor_line(std::string_view line) {
  Stats& st = runner_.stats();
  auto m = client::parse_server_message(line);
  if (!m) {
    ++st.errors["UNREADABLE_LINE"];
    return;
  }
  const Transcript& t = *runner_.options().floor;
  switch (m->type) {
    case MessageType::Ack: {
      if (!awaiting_ack_) break;
      awaiting_ack_ = false;
      const auto us =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent_at_).count();
      runner_.on_ack(static_cast<std::uint32_t>(std::min<std::int64_t>(us, UINT32_MAX)));
      break;
    }
    case MessageType::Event:
      ++st.events_applied;
      ++floor_events_;
      if (floor_events_ % t.steps.size() == 0 && index_ == 0) runner_.on_game_finished();
      break;
    case MessageType::Error:
      ++st.errors[m->code.empty() ? std::string("FLOOR") : m->code];
      return;
    default:
      if (m->type_name != "start") return;
      phase_ = Phase::InMatch;
      if (index_ == 0) {
        ++st.games_started;
        runner_.on_seated();
      }
      break;
  }
  maybe_act_floor();
}

void Bot::maybe_act_floor() {
  if (phase_ != Phase::InMatch || awaiting_ack_ || retry_scheduled_ || runner_.stopping()) return;
  // As in a game: the event of our previous command must have arrived (its ack comes first).
  if (floor_sent_ && floor_events_ <= floor_sent_at_) return;
  const Transcript& t = *runner_.options().floor;
  const TranscriptStep& step = t.steps[floor_events_ % t.steps.size()];
  if (step.seat != index_) return;
  if (const double wait = token_wait_ms(); wait > 0) {
    retry_later(static_cast<std::uint64_t>(wait) + 1);
    return;
  }
  if (!paced()) return;
  spend_token();
  conn_.send(step.play);
  floor_sent_ = true;
  floor_sent_at_ = floor_events_;
  awaiting_ack_ = true;
  sent_at_ = Clock::now();
  ++runner_.stats().commands_sent;
}

bool Bot::paced() {
  if (runner_.options().target_rate <= 0) return true;
  if (pace_granted_) {
    pace_granted_ = false;
    return true;
  }
  if (!pace_waiting_) {
    pace_waiting_ = true;
    runner_.wait_for_pace(*this);
  }
  return false;
}

void Bot::on_pace() {
  pace_waiting_ = false;
  pace_granted_ = true;
  if (runner_.options().floor)
    maybe_act_floor();
  else
    maybe_act();
}

void Bot::handle(const ServerMessage& m) {
  Stats& st = runner_.stats();
  switch (m.type) {
    case MessageType::Welcome:  // the login went with the hello
      break;
    case MessageType::LoggedIn: {
      token_ = m.token;
      if (!repeat_line_.empty()) {
        // Here after a redirect: the join goes again (its answer resets the hops).
        phase_ = Phase::Joining;
        spend_token();
        conn_.send(repeat_line_);
        repeat_line_.clear();
        break;
      }
      hops_.reset();
      node_tries_ = 0;
      if (offline_since_) {
        ++st.reconnects;
        offline_since_.reset();
        ever_reconnected_ = true;
      }
      if (!ever_logged_in_) {
        ever_logged_in_ = true;
        runner_.on_logged_in();
      }
      if (m.match) {
        phase_ = Phase::InMatch;  // our seat is back; its state follows
        table_.on_resumed(index_, *m.match);
      } else {
        phase_ = Phase::Lobby;
        mirror_.clear();
        table_.on_lobby();
      }
      break;
    }
    case MessageType::Joined:
      hops_.reset();
      phase_ = Phase::InMatch;
      mirror_.clear();
      acked_seq_ = 0;
      if (index_ == 0 && m.match) table_.on_created(*m.match);
      table_.on_joined();
      break;
    case MessageType::State:
      if (phase_ != Phase::InMatch) break;
      sync_requested_ = false;
      note_seats(m.seats);
      if (!mirror_.load_state(m)) {
        // The first few say why (a desync or a client that cannot read the game's view).
        if (st.errors["MIRROR_BAD_STATE"]++ < 3)
          std::fprintf(stderr, "eryantis-bot: %s: unreadable state: %s\n", nickname_.c_str(),
                       mirror_.problem().c_str());
        break;
      }
      maybe_act();
      break;
    case MessageType::Event: {
      if (phase_ != Phase::InMatch) break;
      const auto update = mirror_.on_event(m);
      if (update == client::MatchMirror::Update::NeedsSync) {
        ++st.syncs;
        request_sync();
        break;
      }
      if (update == client::MatchMirror::Update::Applied) ++st.events_applied;
      maybe_act();
      break;
    }
    case MessageType::Ack: {
      if (m.id != pending_id_ || !awaiting_ack_) break;
      awaiting_ack_ = false;
      acked_seq_ = m.seq.value_or(acked_seq_);
      if (m.seq) runner_.record_ack(mirror_.match(), *m.seq, pending_command_id_, node_);
      const auto us =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent_at_).count();
      runner_.on_ack(static_cast<std::uint32_t>(std::min<std::int64_t>(us, UINT32_MAX)));
      table_.on_ack();
      maybe_act();
      break;
    }
    case MessageType::GameOver:
      // An ending kept for us while we were away arrives right after a login that
      // landed in the lobby: our table may have moved on to its next match already.
      table_.on_game_over(m.match.value_or(0));
      if (phase_ == Phase::InMatch) {
        mirror_.clear();
        awaiting_ack_ = false;
        acked_seq_ = 0;
        phase_ = Phase::Lobby;
      }
      if (phase_ == Phase::Lobby) table_.on_lobby();
      break;
    case MessageType::Error:
      on_error(m);
      break;
    case MessageType::Seats:
      if (phase_ != Phase::InMatch) break;
      note_seats(m.seats);
      maybe_act();  // the last free seat may just have been taken
      break;
    case MessageType::Ping:
      conn_.send(ClientProtocol::pong());
      break;
    case MessageType::Shutdown:
      // The server closes next; on_closed reconnects.
      break;
    case MessageType::Redirect:
      on_redirect(m);
      break;
    default:
      break;
  }
}

void Bot::on_error(const ServerMessage& m) {
  Stats& st = runner_.stats();
  const bool chaos = runner_.options().chaos > 0;
  if (is_chaos_id(m.id)) {
    ++st.expected_errors[m.code];
    return;
  }
  if (m.id.empty() && m.code == "BAD_JSON" && pending_malformed_ > 0) {
    --pending_malformed_;
    ++st.expected_errors[m.code];
    return;
  }
  if (m.code == "NICKNAME_TAKEN" && phase_ == Phase::LoggingIn) {
    // The server has not yet seen our previous connection close (after a chaos drop).
    ++(chaos ? st.expected_errors : st.errors)[m.code];
    const std::uint64_t gen = generation_;
    runner_.loop().after(200, [this, gen] {
      if (gen == generation_ && phase_ == Phase::LoggingIn) login();
    });
    return;
  }
  if (phase_ == Phase::LoggingIn && (m.code == "STORE_FAILURE" || m.code == "SERVER_DEGRADED" ||
                                     m.code == "SHUTTING_DOWN" || m.code == "RATE_LIMITED")) {
    // Refused for now (the database away, say a PostgreSQL restart): the same
    // login again a little later, as eryantis-cli does. Without it the bot sat
    // logged out for good after a node dropped its matches during an outage.
    ++st.errors[m.code];
    const std::uint64_t gen = generation_;
    runner_.loop().after(250, [this, gen] {
      if (gen == generation_ && phase_ == Phase::LoggingIn) login();
    });
    return;
  }
  if (m.code == "ALREADY_IN_MATCH" && phase_ == Phase::Joining && ever_reconnected_) {
    // The server holds a seat for us that we never heard of: a join or create it
    // committed just before it was killed, whose reply died with it (seen about once
    // in eight runs of EndToEnd.EveryTablePlaysAgainAfterServerKills). Logging in
    // again with our token puts us back in that seat.
    ++st.expected_errors[m.code];
    conn_.close();
    went_offline(true);
    schedule_reconnect(10);
    return;
  }
  ++st.errors[m.code];
  if (!m.id.empty() && m.id == pending_id_ && awaiting_ack_) {
    awaiting_ack_ = false;
    if (m.seq && *m.seq != mirror_.seq()) {
      request_sync();
      return;
    }
    retry_later(100);  // rate limited or a rules error: choose again a little later
    return;
  }
  if (phase_ == Phase::Joining && !join_line_.empty()) {
    // create/join refused (rate limit, server busy): ask again a little later.
    const std::uint64_t gen = generation_;
    runner_.loop().after(200, [this, gen] {
      if (gen != generation_ || phase_ != Phase::Joining) return;
      spend_token();
      conn_.send(join_line_);
    });
  }
}

void Bot::note_seats(const std::vector<client::SeatInfo>& seats) {
  if (seats.empty()) return;  // not told: keep what we knew
  seats_free_ = std::any_of(seats.begin(), seats.end(),
                            [](const client::SeatInfo& s) { return !s.nickname.has_value(); });
  computer_seats_.clear();
  for (const auto& s : seats)
    if (s.computer) computer_seats_.push_back(s.seat);
}

void Bot::request_sync() {
  if (sync_requested_) return;
  sync_requested_ = true;
  spend_token();
  if (!mirror_.needs_sync()) mirror_.mark_needs_sync("requested");
  conn_.send(ClientProtocol::sync());
}

void Bot::maybe_act() {
  if (phase_ != Phase::InMatch || awaiting_ack_ || retry_scheduled_ || !mirror_.synced() ||
      runner_.stopping())
    return;
  if (mirror_.seq() < acked_seq_) return;  // the event of our last command has not arrived yet
  // A match with a free seat (resumed after a restart that lost a join) does not
  // start: a play would only earn WRONG_PHASE. The seat is taken again, then we play.
  if (seats_free_) return;
  if (runner_.options().idle) return;
  if (out_of_turn_armed_ && !mirror_.my_turn()) send_out_of_turn();
  if (!mirror_.my_turn()) return;
  // In setup several seats may choose at once: the lowest goes first, so the bots
  // never race each other for the same wizard (legal play must show no errors).
  // The server's computer players go before any bot: they decide off our clock, so
  // only waiting for their event rules out a race (a STALE_SEQ or a taken wizard).
  const auto to_act = mirror_.to_act();
  if (to_act.empty() || to_act.front() != mirror_.seat()) return;
  const bool computer_to_act = std::any_of(to_act.begin(), to_act.end(), [this](game::Seat seat) {
    return std::find(computer_seats_.begin(), computer_seats_.end(), seat) != computer_seats_.end();
  });
  if (computer_to_act) return;

  if (const double wait = token_wait_ms(); wait > 0) {
    retry_later(static_cast<std::uint64_t>(wait) + 1);
    return;
  }
  if (!paced()) return;
  const double chaos = runner_.options().chaos;
  Stats& st = runner_.stats();
  if (chaos > 0 && std::uniform_real_distribution<double>(0, 1)(chaos_rng_) < chaos) {
    switch (chaos_rng_() % 3) {
      case 0:  // drop the connection, then resume with the token
        ++st.chaos_drops;
        conn_.close();
        went_offline(true);
        schedule_reconnect(10);
        return;
      case 1:  // a malformed line first (BAD_JSON without id), then the real command
        ++st.chaos_malformed;
        ++pending_malformed_;
        conn_.send(R"({"type":"play","command":{"type":"move_to_dining")");
        break;
      default:  // an out-of-turn command as soon as it is someone else's turn
        ++st.chaos_out_of_turn;
        out_of_turn_armed_ = true;
        break;
    }
  }
  auto legal = mirror_.legal_commands();
  if (legal.empty()) return;
  spend_token();
  const game::Game& game = *mirror_.game();
  const game::Command& command = client::pick_random_command(game, legal, prng_);
  ++counter_;
  const std::string command_id = fmt::format("{}-{}", nickname_, counter_);
  pending_id_ = ClientProtocol::string_id(fmt::format("c{}", counter_));
  pending_command_id_ = command_id;
  std::string play = ClientProtocol::play(game, command, command_id, mirror_.seq(), pending_id_);
  if (Recorder* r = runner_.recorder(); r && r->wants(table_.index(), index_))
    r->play(table_.index(), index_, play);
  conn_.send(play);
  awaiting_ack_ = true;
  sent_at_ = Clock::now();
  ++st.commands_sent;
}

void Bot::send_out_of_turn() {
  const auto to_act = mirror_.to_act();
  if (to_act.empty()) return;
  // Something the seat to act could play, sent by us with the seq we saw: refused
  // with NOT_YOUR_TURN (or STALE_SEQ if the match moved on), never applied.
  const game::Game& game = *mirror_.game();
  auto legal = game.legal_commands(mirror_.state(), to_act.front());
  if (legal.empty()) return;
  out_of_turn_armed_ = false;
  spend_token();
  ++counter_;
  conn_.send(ClientProtocol::play(game, legal[prng_.below(static_cast<std::uint32_t>(legal.size()))],
                                  std::nullopt, mirror_.seq(),
                                  ClientProtocol::string_id(fmt::format("x{}", counter_))));
}

void Bot::went_offline(bool intentional) {
  ++generation_;
  const Phase was = phase_;
  phase_ = Phase::Offline;
  mirror_.clear();
  awaiting_ack_ = false;
  retry_scheduled_ = false;  // its timer belongs to the old generation and does nothing
  pace_granted_ = false;     // a grant still queued finds the bot not ready and is spent
  seats_free_ = false;
  computer_seats_.clear();
  sync_requested_ = false;
  pending_malformed_ = 0;
  out_of_turn_armed_ = false;
  acked_seq_ = 0;
  if (!offline_since_) offline_since_ = Clock::now();
  if (!intentional) {
    ++runner_.stats().disconnects;
    if (was >= Phase::Lobby) table_.on_disconnect(*offline_since_);
  }
}

void Bot::on_redirect(const ServerMessage& m) {
  Stats& st = runner_.stats();
  // A node that answers is no outage: while a killed node's lease runs, the live
  // nodes send its clients to the dead address, and a back-off doubled along that
  // chain (50 ms up to 500 ms) delayed each client up to 0.5 s after its match
  // was adopted elsewhere (docs/cluster.md section 4).
  backoff_ms_ = kBackoffStartMs;
  auto to = client::redirect_endpoint(m, node_.websocket());
  const bool follow = to.has_value() && hops_.follow();
  if (!to) {
    ++st.errors["BAD_REDIRECT"];
    if (!runner_.options().quiet)
      std::fprintf(stderr, "eryantis-bot: %s: %s\n", nickname_.c_str(), to.error().c_str());
  } else if (!follow) {
    ++st.redirect_loops;
    ++st.errors["TOO_MANY_REDIRECTS"];
  }
  // A join answered with a redirect is repeated there; a login (resuming a seat)
  // or a redirect of its own (the match moved) needs only the login.
  const bool repeat = phase_ == Phase::Joining && !join_line_.empty();
  const std::string join = join_line_;
  const auto outage = offline_since_;
  conn_.close();
  went_offline(true);
  offline_since_ = outage;  // moving is not an outage: only a lost connection is
  if (!follow) {
    // Not followable: start again from the first node after a pause, as after a
    // lost connection (its login lands in the lobby and the table seats it again).
    hops_.reset();
    node_ = home_;
    schedule_reconnect(backoff_ms_);
    return;
  }
  ++st.redirects;
  if (repeat) repeat_line_ = join;
  node_ = *to;
  connect();
}

client::Endpoint Bot::next_node() {
  const auto& nodes = runner_.options().nodes;
  if (nodes.size() < 2) return home_;
  const std::size_t first = static_cast<std::size_t>(table_.index() + index_) % nodes.size();
  ++node_tries_;
  return nodes[(first + node_tries_) % nodes.size()];
}

void Bot::on_closed(std::string_view reason) {
  if (runner_.stopping()) return;
  // A node that cannot be reached (dead, or lost before the login): the next one
  // of --nodes, starting from the first; any node redirects to the match's owner.
  if (phase_ == Phase::Connecting || phase_ == Phase::LoggingIn) node_ = next_node();
  repeat_line_.clear();
  const bool was_connecting = phase_ == Phase::Connecting;
  // A redirect to a node nobody answers at (killed: its lease runs for up to
  // lease_ms more) ends that chain of redirects: what follows is a reconnect after
  // an outage, not a loop between live nodes, so the hops start again.
  if (was_connecting) hops_.reset();
  went_offline(false);
  if (offline_since_ &&
      Clock::now() - *offline_since_ > std::chrono::duration<double>(runner_.options().give_up_s)) {
    phase_ = Phase::Dead;
    ++runner_.stats().errors["GAVE_UP"];
    if (!runner_.options().quiet)
      std::fprintf(stderr, "eryantis-bot: %s gives up after %.0f s offline: %.*s\n",
                   nickname_.c_str(), runner_.options().give_up_s, static_cast<int>(reason.size()),
                   reason.data());
    runner_.on_dead();
    return;
  }
  schedule_reconnect(was_connecting ? backoff_ms_ : 20 + chaos_rng_() % 80);
  if (was_connecting) backoff_ms_ = std::min(backoff_ms_ * 2, kBackoffMaxMs);
}

void Bot::schedule_reconnect(std::uint64_t delay_ms) {
  const std::uint64_t gen = generation_;
  const std::uint64_t jitter = delay_ms / 4 ? chaos_rng_() % (delay_ms / 4) : 0;
  runner_.loop().after(delay_ms + jitter, [this, gen] {
    if (gen == generation_ && phase_ == Phase::Offline) connect();
  });
}

void Bot::send_create() {
  const Options& o = runner_.options();
  client::CreateMatch request;
  request.game = o.game;
  request.players = o.players;
  request.mode = o.mode;
  request.options_json = o.options_json;
  request.computers = o.computers;
  if (o.computers > 0) request.level = o.level;
  phase_ = Phase::Joining;
  join_line_ = ClientProtocol::create_match(request);
  spend_token();
  conn_.send(join_line_);
}

void Bot::send_join(std::int64_t match) {
  phase_ = Phase::Joining;
  join_line_ = ClientProtocol::join_match(match);
  spend_token();
  conn_.send(join_line_);
}

}  // namespace eryantis::bot
