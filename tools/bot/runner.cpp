// All the bots on one loop: connection pacing, progress lines, the outage
// figures of the restart benchmark, and the final report.
#include <spdlog/fmt/fmt.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "bot.hpp"

namespace eryantis::bot {

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

// utime + stime of a process in clock ticks, from /proc/<pid>/stat (-1 if unreadable).
long long cpu_ticks(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return -1;
  // The command name (field 2) may hold spaces: count fields after its ')'.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  long long utime = -1, stime = -1;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoll(field);
    if (i == 15) stime = std::stoll(field);
  }
  return utime < 0 || stime < 0 ? -1 : utime + stime;
}

double ticks_to_s(long long ticks) {
  return static_cast<double>(ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK));
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
    out += fmt::format("{}{}:{}", out.size() > 1 ? "," : "", client::ClientProtocol::string_id(code), n);
  return out + "}";
}

}  // namespace

std::uint64_t Stats::unexpected_error_total() const {
  std::uint64_t n = 0;
  for (const auto& [code, count] : errors) n += count;
  return n;
}

Runner::Runner(Options options) : options_(std::move(options)), pool_(loop_) {
  if (options_.name_prefix.empty()) {
    std::random_device rd;
    options_.name_prefix = fmt::format("b{:05x}", rd() & 0xfffff);
  }
  for (int t = 0; t < options_.matches; ++t) {
    auto table = std::make_unique<Table>(*this, t);
    for (int s = 0; s < options_.humans(); ++s) {  // the computer seats are the server's
      const std::uint64_t seed = options_.seed * 1'000'003ULL +
                                 static_cast<std::uint64_t>(t) * 7919ULL +
                                 static_cast<std::uint64_t>(s);
      table->add(std::make_unique<Bot>(*this, *table, s,
                                       fmt::format("{}t{}s{}", options_.name_prefix, t, s), seed));
    }
    tables_.push_back(std::move(table));
  }
  seating_allowed_ = !(options_.idle && options_.stage_pause_s > 0);
  if (!options_.record_path.empty())
    recorder_ = std::make_unique<Recorder>(options_.record_path, options_.players,
                                           options_.game_name, options_.canonical_options);
  if (!options_.acks_path.empty()) {
    acks_ = std::fopen(options_.acks_path.c_str(), "w");
    if (acks_) {
      std::setvbuf(acks_, nullptr, _IOLBF, 1 << 16);  // whole lines, even if we are killed
    } else {
      std::fprintf(stderr, "eryantis-bot: --acks: cannot write %s\n", options_.acks_path.c_str());
      ++stats_.errors["ACKS_FILE"];
    }
  }
}

Runner::~Runner() {
  if (acks_) std::fclose(acks_);
}

// "<unix ms> <match> <seq> <command id> <host:port>": what the failover tests check
// against the database (every acknowledged command stored once, by its node's epoch).
void Runner::record_ack(std::int64_t match, std::int64_t seq, const std::string& command_id,
                        const client::Endpoint& node) {
  if (!acks_) return;
  const auto unix_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
  std::fprintf(acks_, "%lld %lld %lld %s %s:%d\n", static_cast<long long>(unix_ms),
               static_cast<long long>(match), static_cast<long long>(seq), command_id.c_str(),
               node.host.c_str(), node.port);
}

void Runner::wait_for_pace(Bot& bot) {
  pace_queue_.push_back(&bot);
}

// Every millisecond: tokens at --target-rate (at most 10 ms' worth saved up: a
// loaded machine runs the 1 ms timer late),
// one per waiting bot, first come first served.
void Runner::release_paced() {
  const auto now = Clock::now();
  const double rate = options_.target_rate;
  pace_tokens_ =
      std::min(std::max(1.0, rate * 0.002),
               pace_tokens_ + rate * std::chrono::duration<double>(now - pace_at_).count());
  pace_at_ = now;
  while (pace_tokens_ >= 1 && pace_head_ < pace_queue_.size()) {
    pace_tokens_ -= 1;
    Bot* bot = pace_queue_[pace_head_++];
    bot->on_pace();
  }
  if (pace_head_ == pace_queue_.size()) {
    pace_queue_.clear();
    pace_head_ = 0;
  }
}

void Runner::start_measuring() {
  bot_ticks0_ = cpu_ticks("self");
  if (options_.watch_pid > 0) server_ticks0_ = cpu_ticks(std::to_string(options_.watch_pid));
}

bool Runner::may_start_game() const {
  if (stopping_ || draining_ || !seating_allowed_) return false;
  if (options_.idle) return true;
  return options_.games <= 0 || stats_.games_started < static_cast<std::uint64_t>(options_.games);
}

bool Runner::measuring(Clock::time_point now) const {
  return measure_from_ && now >= *measure_from_;
}

void Runner::begin_warmup() {
  // From when every match is seated: on a loaded machine seating 1,000 matches can
  // take longer than the warm-up, and its logins and joins are not commands.
  measure_from_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options_.warmup_s));
  loop_.after(static_cast<std::uint64_t>(options_.warmup_s * 1000), [this] { start_measuring(); });
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
  const std::size_t total = tables_.size() * static_cast<std::size_t>(options_.humans());
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
  if (seated_ == tables_.size() && options_.warmup_s > 0) begin_warmup();
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
  if (++dead_ == tables_.size() * static_cast<std::size_t>(options_.humans())) {
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
                 connected, tables_.size() * static_cast<std::size_t>(options_.humans()), running,
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
  if (bot_ticks0_ >= 0) {
    const long long bot = cpu_ticks("self");
    if (bot >= 0) stats_.bot_cpu_s = ticks_to_s(bot - bot_ticks0_);
  }
  if (server_ticks0_ >= 0) {
    const long long server = cpu_ticks(std::to_string(options_.watch_pid));
    if (server >= 0) stats_.server_cpu_s = ticks_to_s(server - server_ticks0_);
  }
  loop_.after(0, [this] { loop_.stop(); });
}

void Runner::end_run() {
  if (options_.drain_s <= 0 || stopping_) {
    finish();
    return;
  }
  if (draining_) return;
  draining_ = true;
  std::fprintf(stderr, "eryantis-bot: draining: no new game, up to %.0f s for the running ones\n",
               options_.drain_s);
  loop_.after(static_cast<std::uint64_t>(options_.drain_s * 1000), [this] { finish(); });
  // A table is idle once every bot is back in the lobby after its game_over.
  loop_.every(50, [this] {
    if (std::all_of(tables_.begin(), tables_.end(), [](const auto& t) { return t->idle(); }))
      finish();
  });
}

int Runner::run() {
  started_ = last_report_ = Clock::now();
  for (auto& t : tables_)
    for (auto& b : t->bots()) queue_connect(*b);
  loop_.every(5, [this] { tick_connects(); });
  loop_.every(1000, [this] { report(false); });
  if (options_.target_rate > 0) {
    pace_at_ = Clock::now();
    loop_.every(1, [this] { release_paced(); });
  }
  if (options_.warmup_s <= 0) {
    measure_from_ = started_;
    loop_.after(0, [this] { start_measuring(); });
  }  // else from when every match is seated (begin_warmup)
  if (options_.duration_s > 0)
    loop_.after(static_cast<std::uint64_t>(options_.duration_s * 1000), [this] { end_run(); });
  // A second signal while draining ends the run at once.
  loop_.on_signals([this](int) { draining_ ? finish() : end_run(); });
  tick_connects();
  loop_.run();

  report(true);
  if (recorder_) recorder_->write();
  for (auto& t : tables_) {
    stats_.tables_in_outage += t->in_outage();
    // What a stalled table was waiting for (the crash tests print the bot's stderr).
    if (t->in_outage())
      std::fprintf(stderr, "eryantis-bot: never played again: %s\n", t->describe().c_str());
    stats_.games_unfinished += !t->idle();
  }
  const auto end = last_ack_.value_or(Clock::now());
  const double seconds =
      first_ack_ ? std::chrono::duration<double>(end - *first_ack_).count() : 0.0;
  const double rate = seconds > 0 ? static_cast<double>(stats_.acked_measured) / seconds : 0.0;
  auto& lat = stats_.latency_us;
  const double p50 = percentile_ms(lat, 0.50), p99 = percentile_ms(lat, 0.99);
  const double measured = static_cast<double>(std::max<std::uint64_t>(1, stats_.acked_measured));
  const double bot_us = stats_.bot_cpu_s < 0 ? -1 : stats_.bot_cpu_s * 1e6 / measured;
  const double server_us = stats_.server_cpu_s < 0 ? -1 : stats_.server_cpu_s * 1e6 / measured;
  std::fprintf(
      stderr,
      "eryantis-bot: summary: %llu game(s) finished, %llu command(s) acked, %.0f commands/s, ack "
      "ms p50 "
      "%.2f p99 %.2f max %.2f, %llu unexpected error(s), %llu reconnect(s), %llu sync(s), %llu "
      "redirect(s)\n",
      static_cast<unsigned long long>(stats_.games_finished),
      static_cast<unsigned long long>(stats_.commands_acked), rate, p50, p99,
      stats_.max_us / 1000.0, static_cast<unsigned long long>(stats_.unexpected_error_total()),
      static_cast<unsigned long long>(stats_.reconnects),
      static_cast<unsigned long long>(stats_.syncs),
      static_cast<unsigned long long>(stats_.redirects));
  if (options_.json) {
    // The game the bots asked for (without --game: the build's default, as the server's).
    const std::string game_name =
        !options_.game.empty() || !options_.registry
            ? options_.game
            : std::string(options_.registry->default_game().name());
    std::printf(
        "{\"games_started\":%llu,\"games_finished\":%llu,\"commands_sent\":%llu,\"commands_acked\":"
        "%llu,"
        "\"commands_measured\":%llu,\"measured_s\":%.3f,\"commands_per_s\":%.1f,\"ack_p50_ms\":%."
        "3f,"
        "\"ack_p99_ms\":%.3f,\"ack_max_ms\":%.3f,\"errors\":%s,\"expected_errors\":%s,\"unexpected_"
        "errors\":%llu,"
        "\"chaos\":{\"drops\":%llu,\"malformed\":%llu,\"out_of_turn\":%llu},\"disconnects\":%llu,"
        "\"reconnects\":%llu,\"redirects\":%llu,\"redirect_loops\":%llu,\"syncs\":%llu,\"events_"
        "applied\":%llu,\"recovery_max_ms\":%lld,"
        "\"tables_in_outage\":%llu,\"games_unfinished\":%llu,\"connections\":%zu,\"bot_cpu_s\":%."
        "2f,"
        "\"bot_cpu_us_per_command\":%.1f,\"server_cpu_s\":%.2f,\"server_cpu_us_per_command\":%.1f,"
        "\"computers\":%d,\"transport\":\"%s\",\"game\":%s}\n",
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
        static_cast<unsigned long long>(stats_.redirects),
        static_cast<unsigned long long>(stats_.redirect_loops),
        static_cast<unsigned long long>(stats_.syncs),
        static_cast<unsigned long long>(stats_.events_applied),
        static_cast<long long>(stats_.recovery_max_ms),
        static_cast<unsigned long long>(stats_.tables_in_outage),
        static_cast<unsigned long long>(stats_.games_unfinished),
        tables_.size() * static_cast<std::size_t>(options_.humans()), stats_.bot_cpu_s, bot_us,
        stats_.server_cpu_s, server_us, options_.computers,
        options_.websocket_path.empty() ? "tcp" : "websocket",
        client::ClientProtocol::string_id(game_name).c_str());
    std::fflush(stdout);
  }
  if (stats_.unexpected_error_total() > 0) return 1;
  if (options_.drain_s > 0 && stats_.games_unfinished > 0) return 1;
  if (options_.games > 0 && stats_.games_finished < static_cast<std::uint64_t>(options_.games))
    return 1;
  return 0;
}

}  // namespace eryantis::bot
