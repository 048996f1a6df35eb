#include "bot.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cstdio>

#include "eryantis/protocol/codec.hpp"

namespace eryantis::bot {

using client::ClientProtocol;
using client::MessageType;
using client::ServerMessage;

namespace {

std::int64_t ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
}

// Percentile of a sample (sorted in place partially); 0 when empty.
double percentile_ms(std::vector<std::uint32_t>& v, double p) {
  if (v.empty()) return 0;
  const std::size_t k =
      std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k] / 1000.0;
}

std::string counts_text(const std::map<std::string, std::uint64_t>& m) {
  if (m.empty()) return "none";
  std::string out;
  for (const auto& [code, n] : m) out += fmt::format("{}{}={}", out.empty() ? "" : " ", code, n);
  return out;
}

std::string counts_json(const std::map<std::string, std::uint64_t>& m) {
  std::string out = "{";
  for (const auto& [code, n] : m)
    out += fmt::format("{}{}:{}", out.size() > 1 ? "," : "", protocol::json_quote(code), n);
  return out + "}";
}

// Chaos requests carry ids "x<n>", normal plays "c<n>": errors are told apart by id.
bool is_chaos_id(std::string_view id) {
  return id.starts_with("\"x");
}

}  // namespace

std::uint64_t Stats::unexpected_error_total() const {
  std::uint64_t n = 0;
  for (const auto& [code, count] : errors) n += count;
  return n;
}

// ---------------------------------------------------------------------------
// Bot

Bot::Bot(Runner& runner, Table& table, int index, std::string nickname, std::uint64_t seed)
    : runner_(runner),
      table_(table),
      index_(index),
      nickname_(std::move(nickname)),
      conn_(runner.pool(), *this),
      prng_(seed),
      chaos_rng_(seed ^ 0xc4a05ULL) {}

void Bot::connect() {
  if (phase_ == Phase::Dead || runner_.stopping()) return;
  phase_ = Phase::Connecting;
  conn_.connect(runner_.options().host, runner_.options().port);
}

void Bot::on_connected() {
  phase_ = Phase::Greeting;
  conn_.send(ClientProtocol::hello("eryantis-bot", client::Updates::Events));
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
    retry_scheduled_ = false;
    if (gen == generation_) maybe_act();
  });
}

void Bot::login() {
  spend_token();
  phase_ = Phase::LoggingIn;
  conn_.send(ClientProtocol::login(
      nickname_, token_.empty() ? std::nullopt : std::optional<std::string_view>(token_)));
}

void Bot::on_line(std::string_view line) {
  auto m = client::parse_server_message(line);
  if (!m) {
    ++runner_.stats().errors["UNREADABLE_LINE"];
    return;
  }
  handle(*m);
}

void Bot::handle(const ServerMessage& m) {
  Stats& st = runner_.stats();
  switch (m.type) {
    case MessageType::Welcome:
      login();
      break;
    case MessageType::LoggedIn: {
      token_ = m.token;
      if (offline_since_) {
        ++st.reconnects;
        offline_since_.reset();
      }
      backoff_ms_ = 50;
      if (m.match) {
        phase_ = Phase::InMatch;  // our seat is back; its state follows
      } else {
        phase_ = Phase::Lobby;
        mirror_.clear();
        table_.on_lobby();
      }
      if (!ever_logged_in_) {
        ever_logged_in_ = true;
        runner_.on_logged_in();
      }
      break;
    }
    case MessageType::Joined:
      phase_ = Phase::InMatch;
      mirror_.clear();
      acked_seq_ = 0;
      if (index_ == 0 && m.match) table_.on_created(*m.match);
      table_.on_joined();
      break;
    case MessageType::State:
      if (phase_ != Phase::InMatch) break;
      sync_requested_ = false;
      if (!mirror_.load_state(m)) {
        ++st.errors["MIRROR_BAD_STATE"];
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
      const auto us =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent_at_).count();
      runner_.on_ack(static_cast<std::uint32_t>(std::min<std::int64_t>(us, UINT32_MAX)));
      table_.on_ack();
      maybe_act();
      break;
    }
    case MessageType::GameOver:
      table_.on_game_over();
      mirror_.clear();
      awaiting_ack_ = false;
      acked_seq_ = 0;
      phase_ = Phase::Lobby;
      table_.on_lobby();
      break;
    case MessageType::Error:
      on_error(m);
      break;
    case MessageType::Ping:
      conn_.send(ClientProtocol::pong());
      break;
    case MessageType::Shutdown:
      // The server closes next; on_closed reconnects.
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
  if (runner_.options().idle) return;
  if (out_of_turn_armed_ && !mirror_.my_turn()) send_out_of_turn();
  if (!mirror_.my_turn()) return;
  // In setup several seats may choose at once: the lowest goes first, so the bots
  // never race each other for the same wizard (legal play must show no errors).
  const auto to_act = mirror_.to_act();
  if (to_act.empty() || to_act.front() != mirror_.seat()) return;

  if (const double wait = token_wait_ms(); wait > 0) {
    retry_later(static_cast<std::uint64_t>(wait) + 1);
    return;
  }
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
  const rules::Command& command = legal[prng_.below(static_cast<std::uint32_t>(legal.size()))];
  ++counter_;
  const std::string command_id = fmt::format("{}-{}", nickname_, counter_);
  pending_id_ = ClientProtocol::string_id(fmt::format("c{}", counter_));
  conn_.send(ClientProtocol::play(command, command_id, mirror_.seq(), pending_id_));
  awaiting_ack_ = true;
  sent_at_ = Clock::now();
  ++st.commands_sent;
}

void Bot::send_out_of_turn() {
  const auto to_act = mirror_.to_act();
  if (to_act.empty()) return;
  // Something the seat to act could play, sent by us with the seq we saw: refused
  // with NOT_YOUR_TURN (or STALE_SEQ if the match moved on), never applied.
  auto legal = rules::legal_commands(mirror_.state(), to_act.front());
  if (legal.empty()) return;
  out_of_turn_armed_ = false;
  spend_token();
  ++counter_;
  conn_.send(ClientProtocol::play(legal[prng_.below(static_cast<std::uint32_t>(legal.size()))],
                                  std::nullopt, mirror_.seq(),
                                  ClientProtocol::string_id(fmt::format("x{}", counter_))));
}

void Bot::went_offline(bool intentional) {
  ++generation_;
  const Phase was = phase_;
  phase_ = Phase::Offline;
  mirror_.clear();
  awaiting_ack_ = false;
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

void Bot::on_closed(std::string_view reason) {
  if (runner_.stopping()) return;
  const bool was_connecting = phase_ == Phase::Connecting;
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
  if (was_connecting) backoff_ms_ = std::min<std::uint64_t>(backoff_ms_ * 2, 500);
}

void Bot::schedule_reconnect(std::uint64_t delay_ms) {
  const std::uint64_t gen = generation_;
  const std::uint64_t jitter = delay_ms / 4 ? chaos_rng_() % (delay_ms / 4) : 0;
  runner_.loop().after(delay_ms + jitter, [this, gen] {
    if (gen == generation_ && phase_ == Phase::Offline) connect();
  });
}

void Bot::send_create(const rules::MatchOptions& options) {
  phase_ = Phase::Joining;
  join_line_ = ClientProtocol::create_match(options);
  spend_token();
  conn_.send(join_line_);
}

void Bot::send_join(std::int64_t match) {
  phase_ = Phase::Joining;
  join_line_ = ClientProtocol::join_match(match);
  spend_token();
  conn_.send(join_line_);
}

// ---------------------------------------------------------------------------
// Table

void Table::on_lobby() {
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
  const Options& o = runner_.options();
  bots_[0]->send_create(rules::MatchOptions{static_cast<std::uint8_t>(o.players), o.mode});
}

void Table::on_created(std::int64_t match) {
  if (state_ != State::Creating) return;
  state_ = State::Filling;
  match_ = match;
  for (std::size_t i = 1; i < bots_.size(); ++i) bots_[i]->send_join(match);
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

// ---------------------------------------------------------------------------
// Runner

Runner::Runner(Options options) : options_(std::move(options)), pool_(loop_) {
  if (options_.name_prefix.empty()) {
    std::random_device rd;
    options_.name_prefix = fmt::format("b{:05x}", rd() & 0xfffff);
  }
  for (int t = 0; t < options_.matches; ++t) {
    auto table = std::make_unique<Table>(*this, t);
    for (int s = 0; s < options_.players; ++s) {
      const std::uint64_t seed = options_.seed * 1'000'003ULL +
                                 static_cast<std::uint64_t>(t) * 7919ULL +
                                 static_cast<std::uint64_t>(s);
      table->add(std::make_unique<Bot>(*this, *table, s,
                                       fmt::format("{}t{}s{}", options_.name_prefix, t, s), seed));
    }
    tables_.push_back(std::move(table));
  }
  seating_allowed_ = !(options_.idle && options_.stage_pause_s > 0);
}

bool Runner::may_start_game() const {
  if (stopping_ || !seating_allowed_) return false;
  if (options_.idle) return true;
  return options_.games <= 0 || stats_.games_started < static_cast<std::uint64_t>(options_.games);
}

bool Runner::measuring(Clock::time_point now) const {
  return now - started_ >= std::chrono::duration<double>(options_.warmup_s);
}

void Runner::queue_connect(Bot& bot) {
  connect_queue_.push_back(&bot);
}

void Runner::tick_connects() {
  for (int i = 0; i < options_.connects_per_tick && connect_head_ < connect_queue_.size(); ++i)
    connect_queue_[connect_head_++]->connect();
}

void Runner::on_logged_in() {
  ++logged_in_;
  const std::size_t total = tables_.size() * static_cast<std::size_t>(options_.players);
  if (logged_in_ == total && !announced_connected_) {
    announced_connected_ = true;
    std::fprintf(stderr, "eryantis-bot: stage connected %zu connections logged in after %lld ms\n",
                 total, static_cast<long long>(ms_between(started_, Clock::now())));
    if (!seating_allowed_)
      loop_.after(static_cast<std::uint64_t>(options_.stage_pause_s * 1000), [this] {
        seating_allowed_ = true;
        for (auto& t : tables_) t->start_if_ready();
      });
  }
}

void Runner::on_seated() {
  ++seated_;
  if (seated_ == tables_.size())
    std::fprintf(stderr, "eryantis-bot: stage seated %zu matches after %lld ms\n", seated_,
                 static_cast<long long>(ms_between(started_, Clock::now())));
}

void Runner::on_game_finished() {
  ++stats_.games_finished;
  if (options_.games > 0 && stats_.games_finished >= static_cast<std::uint64_t>(options_.games))
    finish();
}

void Runner::on_ack(std::uint32_t latency_us) {
  const auto now = Clock::now();
  ++stats_.commands_acked;
  stats_.window_us.push_back(latency_us);
  if (!measuring(now)) return;
  if (!first_ack_) first_ack_ = now;
  last_ack_ = now;
  ++stats_.acked_measured;
  stats_.latency_us.push_back(latency_us);
  stats_.max_us = std::max(stats_.max_us, latency_us);
}

void Runner::on_dead() {
  if (++dead_ == tables_.size() * static_cast<std::size_t>(options_.players)) {
    std::fprintf(stderr, "eryantis-bot: every connection gave up\n");
    finish();
  }
}

void Runner::outage_started(Clock::time_point at) {
  if (tables_in_outage_++ == 0 && !outage_started_) {
    outage_started_ = at;
    if (!options_.quiet) std::fprintf(stderr, "eryantis-bot: connection lost, resuming\n");
  }
}

void Runner::outage_ended(Clock::time_point since) {
  const auto now = Clock::now();
  outage_table_max_ms_ = std::max<std::int64_t>(outage_table_max_ms_, ms_between(since, now));
  if (tables_in_outage_ > 0 && --tables_in_outage_ == 0 && outage_started_) {
    const std::int64_t total = ms_between(*outage_started_, now);
    stats_.recovery_max_ms = std::max(stats_.recovery_max_ms, total);
    std::fprintf(
        stderr,
        "eryantis-bot: recovered: every table playing again %lld ms after the first disconnect "
        "(slowest table %lld ms)\n",
        static_cast<long long>(total), static_cast<long long>(outage_table_max_ms_));
    outage_started_.reset();
    outage_table_max_ms_ = 0;
  }
}

void Runner::report(bool final) {
  const auto now = Clock::now();
  const double since_last = std::chrono::duration<double>(now - last_report_).count();
  const std::uint64_t window_acks = stats_.commands_acked - acked_at_last_report_;
  std::size_t connected = 0, running = 0;
  for (auto& t : tables_) {
    running += t->seated();
    for (auto& b : t->bots()) connected += b->connected();
  }
  auto& w = stats_.window_us;
  const double p50 = percentile_ms(w, 0.50), p99 = percentile_ms(w, 0.99);
  const double wmax = w.empty() ? 0 : *std::max_element(w.begin(), w.end()) / 1000.0;
  if (!options_.quiet || final)
    std::fprintf(stderr,
                 "eryantis-bot: %s%5.1fs conns %zu/%zu | matches running %zu finished %llu | acked "
                 "%.0f/s (total "
                 "%llu) | ack ms p50 %.2f p99 %.2f max %.2f | errors: %s | expected: %s\n",
                 final ? "final " : "", std::chrono::duration<double>(now - started_).count(),
                 connected, tables_.size() * static_cast<std::size_t>(options_.players), running,
                 static_cast<unsigned long long>(stats_.games_finished),
                 since_last > 0 ? static_cast<double>(window_acks) / since_last : 0.0,
                 static_cast<unsigned long long>(stats_.commands_acked), p50, p99, wmax,
                 counts_text(stats_.errors).c_str(), counts_text(stats_.expected_errors).c_str());
  w.clear();
  acked_at_last_report_ = stats_.commands_acked;
  last_report_ = now;
}

void Runner::finish() {
  if (stopping_) return;
  stopping_ = true;
  loop_.after(0, [this] { loop_.stop(); });
}

int Runner::run() {
  started_ = last_report_ = Clock::now();
  for (auto& t : tables_)
    for (auto& b : t->bots()) queue_connect(*b);
  loop_.every(5, [this] { tick_connects(); });
  loop_.every(1000, [this] { report(false); });
  if (options_.duration_s > 0)
    loop_.after(static_cast<std::uint64_t>(options_.duration_s * 1000), [this] { finish(); });
  loop_.on_signals([this](int) { finish(); });
  tick_connects();
  loop_.run();

  report(true);
  const auto end = last_ack_.value_or(Clock::now());
  const double seconds =
      first_ack_ ? std::chrono::duration<double>(end - *first_ack_).count() : 0.0;
  const double rate = seconds > 0 ? static_cast<double>(stats_.acked_measured) / seconds : 0.0;
  auto& lat = stats_.latency_us;
  const double p50 = percentile_ms(lat, 0.50), p99 = percentile_ms(lat, 0.99);
  std::fprintf(
      stderr,
      "eryantis-bot: summary: %llu game(s) finished, %llu command(s) acked, %.0f commands/s, ack "
      "ms p50 "
      "%.2f p99 %.2f max %.2f, %llu unexpected error(s), %llu reconnect(s), %llu sync(s)\n",
      static_cast<unsigned long long>(stats_.games_finished),
      static_cast<unsigned long long>(stats_.commands_acked), rate, p50, p99,
      stats_.max_us / 1000.0, static_cast<unsigned long long>(stats_.unexpected_error_total()),
      static_cast<unsigned long long>(stats_.reconnects),
      static_cast<unsigned long long>(stats_.syncs));
  if (options_.json) {
    std::printf(
        "{\"games_started\":%llu,\"games_finished\":%llu,\"commands_sent\":%llu,\"commands_acked\":"
        "%llu,"
        "\"commands_measured\":%llu,\"measured_s\":%.3f,\"commands_per_s\":%.1f,\"ack_p50_ms\":%."
        "3f,"
        "\"ack_p99_ms\":%.3f,\"ack_max_ms\":%.3f,\"errors\":%s,\"expected_errors\":%s,\"unexpected_"
        "errors\":%llu,"
        "\"chaos\":{\"drops\":%llu,\"malformed\":%llu,\"out_of_turn\":%llu},\"disconnects\":%llu,"
        "\"reconnects\":%llu,\"syncs\":%llu,\"events_applied\":%llu,\"recovery_max_ms\":%lld,"
        "\"connections\":%zu}\n",
        static_cast<unsigned long long>(stats_.games_started),
        static_cast<unsigned long long>(stats_.games_finished),
        static_cast<unsigned long long>(stats_.commands_sent),
        static_cast<unsigned long long>(stats_.commands_acked),
        static_cast<unsigned long long>(stats_.acked_measured), seconds, rate, p50, p99,
        stats_.max_us / 1000.0, counts_json(stats_.errors).c_str(),
        counts_json(stats_.expected_errors).c_str(),
        static_cast<unsigned long long>(stats_.unexpected_error_total()),
        static_cast<unsigned long long>(stats_.chaos_drops),
        static_cast<unsigned long long>(stats_.chaos_malformed),
        static_cast<unsigned long long>(stats_.chaos_out_of_turn),
        static_cast<unsigned long long>(stats_.disconnects),
        static_cast<unsigned long long>(stats_.reconnects),
        static_cast<unsigned long long>(stats_.syncs),
        static_cast<unsigned long long>(stats_.events_applied),
        static_cast<long long>(stats_.recovery_max_ms),
        tables_.size() * static_cast<std::size_t>(options_.players));
    std::fflush(stdout);
  }
  if (stats_.unexpected_error_total() > 0) return 1;
  if (options_.games > 0 && stats_.games_finished < static_cast<std::uint64_t>(options_.games))
    return 1;
  return 0;
}

}  // namespace eryantis::bot
