#include "eryantis/main/admin_commands.hpp"

#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>
#include <future>
#include <memory>
#include <sstream>
#include <vector>

#include "eryantis/log/escaping_formatter.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/store/backup.hpp"

namespace eryantis::app {

namespace {

using protocol::JsonArray;
using protocol::JsonLine;

std::string ok_line() {
  return JsonLine::object().field("ok", true).str();
}
std::string error_line(std::string_view message) {
  return JsonLine::object().field("ok", false).field("error", message).str();
}

// The request's words; the rest of the line after `words` words is `rest`.
struct Words {
  std::vector<std::string> words;
  std::string rest;
};
Words split(std::string_view line, std::size_t words) {
  Words out;
  std::size_t at = 0;
  while (out.words.size() < words) {
    while (at < line.size() && line[at] == ' ') ++at;
    if (at >= line.size()) break;
    const std::size_t end = std::min(line.find(' ', at), line.size());
    out.words.emplace_back(line.substr(at, end - at));
    at = end;
  }
  while (at < line.size() && line[at] == ' ') ++at;
  if (at < line.size()) out.rest = std::string(line.substr(at));
  return out;
}

std::optional<std::int64_t> number(const std::string& text) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0) return std::nullopt;
  return v;
}

constexpr std::string_view kHelp =
    "sessions | matches | end MATCH [REASON] | kick NICKNAME [REASON] | drain | drain-status | "
    "backup FILE | reissue-token NICKNAME | chat MATCH | chat-delete MESSAGE [REASON] | metrics | "
    "accounts | reset-password NAME | disable NAME | enable NAME";

// Requests that change nothing: logged at debug, so a tool polling them (a drain
// followed to its end, a scrape through `metrics`) does not fill the log.
bool read_only(std::string_view verb) {
  return verb == "sessions" || verb == "matches" || verb == "drain-status" || verb == "metrics" ||
         verb == "chat" || verb == "accounts" || verb == "help" || verb.empty();
}

// One match as `matches` and the drain's `waiting_for` list it.
std::string match_json(const server::Server::AdminMatch& m) {
  JsonArray names;
  for (const auto& n : m.nicknames) names.string(n);
  return JsonLine::object()
      .field("match", static_cast<std::int64_t>(m.id))
      .field("game", m.game)
      .field("status", store::status_name(m.status))
      .field("players", m.players)
      .field("connected", m.connected)
      .field("spectators", static_cast<std::int64_t>(m.spectators))
      .field("seq", static_cast<std::int64_t>(m.seq))
      .field("phase", m.phase)
      .field("round", m.round)
      .raw_field("nicknames", names.str())
      .raw_field("deadline", m.deadline)
      .str();
}

// The drain's progress: the matches it waits for, and whether the server stops now.
std::string drain_status(const server::Server& server) {
  JsonArray waiting;
  const auto in_play = server.admin_in_play();
  for (const auto& m : in_play) waiting.raw(match_json(m));
  return JsonLine::object()
      .field("ok", true)
      .field("draining", server.draining())
      .field("in_play", static_cast<std::int64_t>(in_play.size()))
      .field("stopping", server.drained())
      .raw_field("waiting_for", waiting.str())
      .str();
}

}  // namespace

void AdminCommands::poll_until(std::uint64_t interval_ms, std::function<bool()> done) {
  if (stopped_) return;
  loop_.after(interval_ms, [this, interval_ms, done = std::move(done)]() mutable {
    if (stopped_ || done()) return;
    poll_until(interval_ms, std::move(done));
  });
}

AdminCommands::AdminCommands(net::EventLoop& loop, server::Server& server, std::string database,
                             std::function<void()> begin_shutdown)
    : loop_(loop),
      server_(server),
      database_(std::move(database)),
      begin_shutdown_(std::move(begin_shutdown)),
      stop_hook_(loop.add_stop_hook([this] { stopped_ = true; })) {}

void AdminCommands::handle(std::string_view request, net::AdminSocket::Reply reply) {
  const Words head = split(request, 1);
  const std::string verb = head.words.empty() ? "" : head.words[0];
  spdlog::log(read_only(verb) ? spdlog::level::debug : spdlog::level::info, "admin: {}", request);

  if (verb == "sessions") {
    JsonArray list;
    for (const auto& s : server_.admin_sessions()) {
      auto o = JsonLine::object();
      o.field("connection", static_cast<std::int64_t>(s.connection))
          .field("peer", s.peer)
          .field("nickname", s.nickname)
          .field("match", static_cast<std::int64_t>(s.match))
          .field("seat", s.seat)
          .field("spectator", s.spectator)
          .field("idle_ms", s.idle_ms)
          .field("rate_limited", static_cast<std::int64_t>(s.rate_limited));
      list.raw(o.str());
    }
    return reply(JsonLine::object().field("ok", true).raw_field("sessions", list.str()).str());
  }
  if (verb == "matches") {
    JsonArray list;
    for (const auto& m : server_.admin_matches()) list.raw(match_json(m));
    return reply(JsonLine::object()
                     .field("ok", true)
                     .field("draining", server_.draining())
                     .raw_field("matches", list.str())
                     .str());
  }
  if (verb == "end") {
    const Words w = split(request, 2);
    const auto id = w.words.size() == 2 ? number(w.words[1]) : std::nullopt;
    if (!id) return reply(error_line("usage: end MATCH [REASON]"));
    const std::string reason = w.rest.empty() ? "no reason given" : w.rest;
    if (auto ok = server_.admin_end_match(static_cast<store::MatchId>(*id), reason); !ok)
      return reply(error_line(ok.error()));
    // Answered once the end_match event is durable (or after 10 s, saying so).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    poll_until(10, [this, id = *id, deadline, reply] {
      const server::Room* room = server_.room(static_cast<store::MatchId>(id));
      const bool done = room == nullptr || room->status == store::MatchStatus::Finished;
      if (done) {
        reply(JsonLine::object()
                  .field("ok", true)
                  .field("match", id)
                  .field("status", "finished")
                  .str());
        return true;
      }
      if (std::chrono::steady_clock::now() < deadline) return false;
      reply(error_line("the end_match event was submitted but is not written yet; see the log"));
      return true;
    });
    return;
  }
  if (verb == "kick") {
    const Words w = split(request, 2);
    if (w.words.size() != 2) return reply(error_line("usage: kick NICKNAME [REASON]"));
    const std::string reason = w.rest.empty() ? "no reason given" : w.rest;
    if (!server_.admin_kick(w.words[1], reason))
      return reply(error_line(logging::escape_control(w.words[1]) + " is not connected"));
    return reply(ok_line());
  }
  if (verb == "drain") {
    const bool first = !server_.draining();
    server_.admin_drain();
    if (first)
      poll_until(200, [this] {
        if (!server_.drained()) return false;
        spdlog::info("drain: the last match in play is over; stopping");
        begin_shutdown_();
        return true;
      });
    return reply(drain_status(server_));
  }
  if (verb == "drain-status") return reply(drain_status(server_));
  if (verb == "backup") {
    const Words w = split(request, 2);
    if (w.words.size() != 2 || !w.rest.empty()) return reply(error_line("usage: backup FILE"));
    if (backup_running_) return reply(error_line("a backup is running; try again when it is done"));
    if (database_.empty())
      return reply(
          error_line("this server stores its matches in PostgreSQL: back it up with pg_dump or "
                     "pg_basebackup (docs/cluster.md)"));
    backup_running_ = true;
    const std::string file = w.words[1];
    auto result = std::make_shared<std::future<store::Result<store::BackupOutcome>>>(
        std::async(std::launch::async, [source = database_, file] {
          auto done = store::backup_database(source, file);
          if (!done) return done;
          if (auto ok = store::integrity_check_file(file); !ok)
            return store::Result<store::BackupOutcome>(std::unexpected(ok.error()));
          return done;
        }));
    poll_until(20, [this, result, file, reply] {
      if (result->wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
      backup_running_ = false;
      auto done = result->get();
      if (!done) {
        spdlog::error("admin: backup to {} failed: {}", file, done.error().message);
        reply(error_line("backup failed: " + done.error().message));
        return true;
      }
      spdlog::info("admin: backup written to {} ({} pages, integrity_check ok)", file, done->pages);
      reply(JsonLine::object()
                .field("ok", true)
                .field("file", file)
                .field("pages", done->pages)
                .field("integrity_check", "ok")
                .str());
      return true;
    });
    return;
  }
  if (verb == "metrics") {
    if (!metrics_text_) return reply(error_line("metrics are off ([metrics] enabled = false)"));
    return reply(JsonLine::object().field("ok", true).field("text", metrics_text_()).str());
  }
  if (verb == "reissue-token") {
    // A player who lost their token gets a new one bound to their seat; the old one
    // stops working. The reply comes once the new token is durable.
    const Words w = split(request, 2);
    if (w.words.size() != 2 || !w.rest.empty())
      return reply(error_line("usage: reissue-token NICKNAME"));
    server_.reissue_token(w.words[1], [reply](std::expected<server::ReissuedToken, std::string> r) {
      if (!r) return reply(error_line(r.error()));
      reply(JsonLine::object()
                .field("ok", true)
                .field("match", static_cast<std::int64_t>(r->match))
                .field("seat", static_cast<std::int64_t>(r->seat))
                .field("token", r->token)
                .str());
    });
    return;
  }
  if (verb == "chat") {
    const Words w = split(request, 2);
    const auto match = w.words.size() == 2 && w.rest.empty() ? number(w.words[1]) : std::nullopt;
    if (!match || *match == 0) return reply(error_line("usage: chat MATCH"));
    server_.admin_chat(*match, [reply, match = *match](
                                   std::expected<std::vector<store::ChatMessage>, std::string> r) {
      if (!r) return reply(error_line(r.error()));
      JsonArray list;
      for (const store::ChatMessage& m : *r) {
        auto o = JsonLine::object();
        o.field("message", m.id)
            .field("channel", store::channel_name(m.channel))
            .field("from", m.sender_name)
            .field("time", m.sent_ms)
            .field("text", m.text);
        if (m.deleted_ms)
          o.field("deleted_ms", *m.deleted_ms).field("deleted_by", m.deleted_by);
        else
          o.null_field("deleted_ms").null_field("deleted_by");
        list.raw(o.str());
      }
      reply(JsonLine::object()
                .field("ok", true)
                .field("match", match)
                .raw_field("messages", list.str())
                .str());
    });
    return;
  }
  if (verb == "chat-delete") {
    const Words w = split(request, 2);
    const auto id = w.words.size() == 2 ? number(w.words[1]) : std::nullopt;
    if (!id || *id == 0) return reply(error_line("usage: chat-delete MESSAGE [REASON]"));
    server_.admin_delete_chat(
        *id, w.rest.empty() ? "no reason given" : w.rest,
        [reply](std::expected<store::ChatMessage, std::string> r) {
          if (!r) return reply(error_line(r.error()));
          reply(JsonLine::object()
                    .field("ok", true)
                    .field("match", r->match)
                    .field("channel", store::channel_name(r->channel))
                    .field("message", r->id)
                    .field("deleted_ms", r->deleted_ms.value_or(0))
                    .field("deleted_by", r->deleted_by)
                    .str());
        });
    return;
  }
  if (verb == "accounts") {
    if (split(request, 1).words.size() != 1 || !split(request, 1).rest.empty())
      return reply(error_line("usage: accounts"));
    server_.admin_accounts(
        [reply](std::expected<std::vector<store::AccountRecord>, std::string> r) {
          if (!r) return reply(error_line(r.error()));
          JsonArray list;
          for (const store::AccountRecord& a : *r)  // never the password's hash
            list.raw(JsonLine::object()
                         .field("id", a.id)
                         .field("name", a.name)
                         .field("created_ms", a.created_ms)
                         .field("password_changed_ms", a.password_changed_ms)
                         .field("disabled", a.disabled)
                         .str());
          reply(JsonLine::object().field("ok", true).raw_field("accounts", list.str()).str());
        });
    return;
  }
  if (verb == "reset-password") {
    const Words w = split(request, 2);
    if (w.words.size() != 2 || !w.rest.empty()) return reply(error_line("usage: reset-password NAME"));
    server_.admin_reset_password(
        w.words[1], [reply, name = w.words[1]](std::expected<std::string, std::string> r) {
          if (!r) return reply(error_line(r.error()));
          reply(JsonLine::object()
                    .field("ok", true)
                    .field("name", name)
                    .field("code", *r)
                    .field("valid_ms", server::Server::kResetCodeMs)
                    .field("message",
                           "give the player this code, once: they send reset_password with it "
                           "and a new password (docs/accounts.md)")
                    .str());
        });
    return;
  }
  if (verb == "disable" || verb == "enable") {
    const Words w = split(request, 2);
    if (w.words.size() != 2 || !w.rest.empty())
      return reply(error_line("usage: " + std::string(verb) + " NAME"));
    server_.admin_disable(w.words[1], verb == "disable",
                          [reply](std::expected<store::AccountRecord, std::string> r) {
                            if (!r) return reply(error_line(r.error()));
                            reply(JsonLine::object()
                                      .field("ok", true)
                                      .field("name", r->name)
                                      .field("disabled", r->disabled)
                                      .str());
                          });
    return;
  }
  if (verb == "help" || verb.empty())
    return reply(JsonLine::object().field("ok", true).field("commands", kHelp).str());
  return reply(error_line("unknown command \"" + logging::escape_control(verb) +
                          "\"; commands: " + std::string(kHelp)));
}

}  // namespace eryantis::app
