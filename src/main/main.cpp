// eryantis-server: reads the configuration, restores every unfinished match from
// the database, then serves players on one libuv loop until SIGINT/SIGTERM.
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#ifdef ERYANTIS_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>

#include "eryantis/log/escaping_formatter.hpp"
#include "eryantis/log/reopenable_file_sink.hpp"
#include "eryantis/main/admin_commands.hpp"
#include "eryantis/main/cluster_node.hpp"
#include "eryantis/main/config_file.hpp"
#include "eryantis/main/heap_trim.hpp"
#include "eryantis/main/lobby_listener.hpp"
#include "eryantis/main/metered.hpp"
#include "eryantis/main/metrics_feed.hpp"
#include "eryantis/main/periodic_backup.hpp"
#include "eryantis/main/preflight.hpp"
#include "eryantis/main/load.hpp"
#include "eryantis/main/store_persistence.hpp"
#include "eryantis/metrics/metrics.hpp"
#include "eryantis/net/admin_socket.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/net/http_server.hpp"
#include "eryantis/net/tcp_server.hpp"
#include "eryantis/net/transport_router.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/computer_pool.hpp"
#include "eryantis/server/secret_source.hpp"
#include "eryantis/server/server.hpp"
#include "eryantis/store/open_store.hpp"
#include "eryantis/store/pg_store.hpp"
#include "eryantis/store/quick_check.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "eryantis/store/writer_lock.hpp"
#include "eryantis/util/command_line.hpp"

#include "build_info.hpp"  // generated: ERYANTIS_VERSION, ERYANTIS_COMMIT

using namespace eryantis;

namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Standard error, and log.file rotated by size or reopened on SIGHUP. Returns the
// sink SIGHUP reopens (null when there is none). Every line goes through the
// escaping formatter: client text never writes a control byte into the log.
std::shared_ptr<logging::ReopenableFileSink> setup_logging(const app::LogConfig& c) {
  std::vector<spdlog::sink_ptr> sinks;
  std::shared_ptr<logging::ReopenableFileSink> reopenable;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  if (!c.file.empty()) {
    std::error_code ec;
    const auto parent = std::filesystem::path(c.file).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (c.rotation == app::LogRotation::Reopen) {
      reopenable = std::make_shared<logging::ReopenableFileSink>(c.file);
      sinks.push_back(reopenable);
    } else {
      sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
          c.file, c.max_bytes, static_cast<std::size_t>(c.max_files)));
    }
  }
  auto logger = std::make_shared<spdlog::logger>("eryantis", sinks.begin(), sinks.end());
  logger->set_formatter(std::make_unique<logging::EscapingFormatter>());
  logger->set_level(spdlog::level::from_str(c.level));
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return reopenable;
}

// Why a start stopped, and its exit code: 2 for what the configuration or the
// machine must change (a database this user cannot write), 1 otherwise.
struct StartFailure {
  std::string message;
  int exit_code = 1;
};

// A web listener without its web client answers / with 404 and nothing else says
// why (the Debian package's working directory has no web/dist): one line at start.
void warn_without_web_client(const std::string& static_dir) {
  std::error_code ec;
  const std::filesystem::path dir(static_dir);
  if (!static_dir.empty() && std::filesystem::is_regular_file(dir / "index.html", ec)) return;
  const std::string resolved =
      dir.is_absolute() || static_dir.empty()
          ? std::string()
          : " (" + std::filesystem::absolute(dir, ec).lexically_normal().string() + ")";
  spdlog::warn(
      "web.static_dir {}{} has no index.html: / answers 404. Build the web client (target "
      "eryantis-web) or point web.static_dir at it (the Debian package's is "
      "/usr/share/eryantis/web)",
      static_dir.empty() ? "\"\"" : static_dir, resolved);
}

// Every unfinished match, as the store folds it; quarantined ones are reported and skipped.
// `connection` keeps the restore's connection open for the caller to close once
// the group committer opened its own: SQLite drops the WAL index when the last
// connection closes, and the next one rebuilds it by reading the whole WAL (after
// a kill with 5,000 running matches, 16 MiB in ~3,700 reads: 130 ms before listening).
std::expected<app::Loaded, StartFailure> load_unfinished_matches(const store::StoreLocation& location,
                                                   store::Options options,
                                                   std::unique_ptr<store::EventStore>& connection) {
  // The group committer opens the file right after: its first commit checkpoints,
  // on the writer thread, instead of this close on the way to listening.
  options.checkpoint_on_close = false;
  auto db = store::open_store(location, options);
  if (!db) {
    // What preflight could not see (a file SQLite opened read-only) is the same mistake.
    const bool not_writable = db.error().code == store::StoreCode::ReadOnly;
    return std::unexpected(StartFailure{db.error().message, not_writable ? 2 : 1});
  }
  // An SQLite file's pages are checked; PostgreSQL checks its own.
  if (auto* file = dynamic_cast<store::SqliteStore*>(db->get())) {
    const auto checking = std::chrono::steady_clock::now();
    if (auto sound = store::quick_check(*file); !sound)
      return std::unexpected(StartFailure{sound.error().message});
    spdlog::info("database pages checked in {} ms",
                 std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - checking)
                     .count());
  }
  const auto started = std::chrono::steady_clock::now();
  auto restored = app::load_matches(**db);
  if (!restored) return std::unexpected(StartFailure{restored.error()});
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  spdlog::info("restored {} unfinished match(es) in {} ms ({} quarantined)",
               restored->matches.size(), ms.count(), restored->quarantined);
  connection = std::move(*db);
  return std::move(*restored);
}

// A cluster node (docs/cluster.md) restores nothing at start: the unfinished
// matches belong to whichever node holds their lease, and this node adopts one
// when a client asks for it. It records where clients reach it.
std::expected<app::Loaded, StartFailure> join_cluster(const store::StoreLocation& location,
                                                        const store::Options& options,
                                                        const app::ClusterConfig& cluster) {
  auto db = store::PgStore::open(location.target, options);
  if (!db) return std::unexpected(StartFailure{db.error().message});
  if (auto registered = app::register_node(*db, cluster); !registered)
    return std::unexpected(StartFailure{registered.error().message});
  spdlog::info("cluster: node {} at {} (lease {} ms); matches are adopted on demand", cluster.node,
               cluster.public_address, cluster.lease_ms);
  app::Loaded joined;
  auto counted = db->count_by_status();
  if (!counted) return std::unexpected(StartFailure{counted.error().message});
  joined.matches_by_status = *counted;
  return joined;
}

}  // namespace

// The whole life of the server; main() only turns what escapes it into an exit code.
int serve(int argc, char** argv) {
  CLI::App app{"Eryantis: an authoritative, event-sourced Eriantys game server."};
  std::string config_path = "config/eryantis.toml";
  std::optional<std::string> listen, db, log_level;
  std::optional<int> port;
  bool check_only = false;
  std::optional<std::string> web_listen;
  std::optional<int> web_port;
  bool no_web = false;
  app.add_option("--config", config_path, "configuration file (TOML)")->capture_default_str();
  app.add_option("--listen", listen, "address to listen on (overrides network.listen)");
  app.add_option("--port", port, "TCP port, 0 = any free port (overrides network.port)")
      ->check(CLI::Range(0, 65535));
  app.add_option("--db", db, "SQLite database file (overrides storage.database)");
  app.add_option("--log-level", log_level,
                 "trace, debug, info, warn, error, critical, off (overrides log.level)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.add_option("--web-listen", web_listen, "address of the web listener (overrides web.listen)");
  app.add_option("--web-port", web_port,
                 "HTTP/WebSocket port, 0 = any free port (overrides web.port)")
      ->check(CLI::Range(0, 65535));
  app.add_flag("--no-web", no_web, "no web listener (overrides web.enabled)");
  app.add_flag("--check-config", check_only, "validate the configuration and exit");
  if (auto exit = util::parse_command_line(app, argc, argv)) return *exit;

  // Without --config, a missing default file means the built-in defaults (which
  // are the values config/eryantis.toml documents); an explicit file must exist.
  const bool explicit_config = app.count("--config") > 0;
  if (check_only && !std::filesystem::exists(config_path)) {
    std::fprintf(stderr, "eryantis-server: %s: no such configuration file\n", config_path.c_str());
    return 2;
  }
  auto loaded = (!explicit_config && !std::filesystem::exists(config_path))
                    ? std::expected<app::Config, app::ConfigError>(app::Config{})
                    : app::load_config(config_path);
  if (!loaded) {
    std::fprintf(stderr, "eryantis-server: %s\n", loaded.error().message.c_str());
    return 2;
  }
  app::Config config = *loaded;
  if (listen) config.server.listen = *listen;
  if (port) config.server.port = *port;
  if (db) config.storage.database = *db;
  if (log_level) config.log.level = *log_level;
  if (web_listen) config.web.listen = *web_listen;
  if (web_port) config.web.port = *web_port;
  if (no_web) config.web.enabled = false;
  // What a start checks, before anything is created: a mistake is exit code 2.
  if (auto v = app::preflight(config); !v) {
    std::fprintf(stderr, "eryantis-server: %s: %s\n", config_path.c_str(),
                 v.error().message.c_str());
    return 2;
  }
  if (check_only) {
    std::printf("%s: OK (listen %s:%d, database %s)\n", config_path.c_str(),
                config.server.listen.c_str(), config.server.port,
                app::store_location(config.storage).describe().c_str());
    return 0;
  }
  std::shared_ptr<logging::ReopenableFileSink> reopenable_log;
  try {
    reopenable_log = setup_logging(config.log);
  } catch (const spdlog::spdlog_ex& e) {
    std::fprintf(stderr, "eryantis-server: log.file: %s\n", e.what());
    return 2;
  }

  std::error_code ec;
  const std::string& database = config.storage.database;
  const store::StoreLocation location = app::store_location(config.storage);
  const bool on_sqlite = location.backend == store::Backend::Sqlite;
  const std::string shown = location.describe();
  // Declared before every store: it must outlive each SQLite connection of this
  // process (closing its descriptor would drop their POSIX locks: writer_lock.hpp).
  std::optional<store::WriterLock> writer_lock;
  if (on_sqlite) {
    const auto parent = std::filesystem::path(database).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    // One writer per database file, whatever path reaches it, for this process's
    // whole life (exit code 2, like a configuration mistake: a second server on the
    // same file is one, and so is a file that cannot be opened to lock it). On
    // PostgreSQL several servers share the database (docs/cluster.md).
    auto lock = store::WriterLock::acquire(database);
    if (!lock) {
      spdlog::critical("not starting: {}", lock.error().message);
      return 2;
    }
    writer_lock.emplace(std::move(*lock));
  }
  // Tokens and match seeds come from the kernel's CSPRNG only.
  auto secrets = server::SystemSecretSource::open();
  if (!secrets) {
    spdlog::critical("not starting: no secure random source: {}", secrets.error());
    return 1;
  }

  const store::Options store_options = app::store_options(config.storage);
  std::unique_ptr<store::EventStore> load_connection;  // closed once the committer opened
  auto restored = config.cluster.enabled() ? join_cluster(location, store_options, config.cluster)
                                           : load_unfinished_matches(location, store_options, load_connection);
  if (!restored) {
    spdlog::critical("cannot open {}: {}", shown, restored.error().message);
    return restored.error().exit_code;
  }

  net::EventLoop loop;
  std::shared_ptr<net::Wakeup> wakeup;
  std::unique_ptr<app::StorePersistence> persistence;
  auto notify = [&wakeup] {
    if (wakeup) wakeup->notify();
  };
  // PostgreSQL: whether the writer's connection reaches it (/readyz).
  std::shared_ptr<const std::atomic<bool>> postgresql_reachable;
  auto committer = [&]() -> store::Result<std::unique_ptr<store::GroupCommitter>> {
    if (on_sqlite) return store::GroupCommitter::start(database, {store_options, 512}, notify);
    auto connection = store::open_store(location, store_options);
    if (!connection) return std::unexpected(connection.error());
    if (auto* pg = dynamic_cast<store::PgStore*>(connection->get()))
      postgresql_reachable = pg->reachable();
    return store::GroupCommitter::start(std::move(*connection), {store_options, 512}, notify);
  }();
  load_connection.reset();
  if (!committer) {
    spdlog::critical("cannot open {}: {}", shown, committer.error().message);
    return 1;
  }
  // Move logs (`move_log`) are read on a connection of their own, read-only.
  persistence = std::make_unique<app::StorePersistence>(
      **committer, app::read_only_opener(location, store_options), notify);
  std::uint64_t events_counted = 0;
  metrics::Metrics* metrics_for_commits = nullptr;  // set once the metrics exist
  wakeup = loop.make_wakeup([&persistence, &metrics_for_commits] {
    const std::size_t delivered = persistence->deliver();
    if (metrics_for_commits && delivered > 0) metrics_for_commits->observe_commit_batch(delivered);
  });

  net::TcpServerOptions net_options;
  net_options.max_connections = static_cast<std::size_t>(config.server.limits.max_connections);
  net_options.max_line_bytes = config.server.limits.max_line_bytes;
  net_options.max_outgoing_bytes = config.server.limits.max_outgoing_bytes;
  net_options.max_outgoing_bytes_total = config.server.limits.max_outgoing_bytes_total;
  net_options.max_incoming_bytes_total = config.server.limits.max_incoming_bytes_total;
  net_options.busy_line =
      protocol::JsonLine("shutdown").field("message", "the server is full; try again later").str();
  net::TcpServer tcp(loop, net_options);
  // The web listener's WebSockets are connections like the TCP ones, with the same
  // limits; the server sees both through one Transport.
  net::HttpServerOptions web_options;
  web_options.allowed_origins = config.web.allowed_origins;
  web_options.allowed_hosts = app::web_host_names(config);
  web_options.static_root = config.web.static_dir;
  web_options.max_connections = static_cast<std::size_t>(config.web.max_connections);
  web_options.max_header_bytes = static_cast<std::size_t>(config.web.max_request_bytes);
  web_options.max_body_bytes = static_cast<std::size_t>(config.web.max_request_bytes);
  web_options.request_timeout_ms = static_cast<std::uint64_t>(config.web.request_timeout_ms);
  web_options.max_message_bytes = config.server.limits.max_line_bytes;
  web_options.max_outgoing_bytes = config.server.limits.max_outgoing_bytes;
  web_options.max_outgoing_bytes_total = config.server.limits.max_outgoing_bytes_total;
  net::HttpServer web(loop, web_options);
  web.set_first_id(net::TransportRouter::kSecondFirstId);
  net::TransportRouter transport(tcp, web);
  // Metrics read the lines going by (metered.hpp); with [metrics] off the server
  // talks to the transports directly.
  metrics::Metrics metrics;
  app::MeteredTransport metered_transport(transport, metrics);
  transport::Transport& server_transport =
      config.metrics.enabled ? static_cast<transport::Transport&>(metered_transport) : transport;
  // Computer seats decide on [computer] workers threads; their results reach the
  // loop the way the store's completions do (a wakeup, then deliver() on the loop).
  std::shared_ptr<net::Wakeup> computer_wakeup;
  server::ComputerPool computers(
      {config.server.computer.workers, config.server.computer.think_ms, {}}, [&computer_wakeup] {
        if (computer_wakeup) computer_wakeup->notify();
      });
  computer_wakeup = loop.make_wakeup([&computers] { computers.deliver(); });
  server::Server server(config.server, server_transport, *persistence, unix_ms, *secrets);
  server.set_decision_runner(&computers);
  std::optional<app::ClusterNode> cluster_node;
  std::optional<app::LobbyListener> lobby_listener;
  if (config.cluster.enabled()) {
    cluster_node.emplace(**committer, config.cluster);
    server.set_cluster(&*cluster_node);
    // Lobby changes of the other nodes by LISTEN/NOTIFY; polled while it is down.
    lobby_listener.emplace(loop, **committer, location.target, server);
    lobby_listener->start();
  }
  app::MeteredEvents metered_events(server, metered_transport);
  if (config.metrics.enabled) {
    tcp.set_events(metered_events);
    web.set_events(metered_events);
  } else {
    tcp.set_events(server);
    web.set_events(server);
  }
  metrics.restored(restored->matches.size(), restored->quarantined);
  if (config.metrics.enabled) {
    metrics_for_commits = &metrics;
    persistence->set_metrics(&metrics);
  }
  server.load_matches(std::move(restored->matches), restored->next_match_id);
  server.load_unseen_endings(std::move(restored->unseen_endings));
  app::MetricsFeed metrics_feed(metrics, restored->matches_by_status, config.cluster.enabled());
  metrics.set_build_info(ERYANTIS_VERSION, ERYANTIS_COMMIT);
  if (config.metrics.enabled) {
    metrics_feed.sample(server.stats(), unix_ms());  // the matches' count from the start
    // Gauges every second; event-loop lag from a 100 ms timer's lateness.
    loop.every(1'000, [&] {
      metrics_feed.sample(server.stats(), unix_ms());
      metrics.set_queued_outgoing_bytes(static_cast<double>(tcp.queued_bytes()));
      metrics.set_resident_bytes(static_cast<double>(app::resident_bytes()));
      const auto committed = (*committer)->stats();
      metrics.events_appended(committed.events - events_counted);
      events_counted = committed.events;
    });
    // The other nodes of a cluster change statuses too: recounted every minute
    // (one scan of the status index, between two commits of the writer).
    if (config.cluster.enabled())
      loop.every(60'000, [&] {
        (*committer)->run_on_writer([&](store::EventStore& db) -> std::function<void()> {
          auto counted = db.count_by_status();
          if (!counted) return [] {};
          return [&metrics_feed, &server, counted = *counted] {
            metrics_feed.recount(counted, server.stats());
          };
        });
      });
    loop.every(100, [&metrics, last = std::chrono::steady_clock::now()]() mutable {
      const auto now = std::chrono::steady_clock::now();
      const double late = std::chrono::duration<double>(now - last).count() - 0.100;
      metrics.observe_loop_lag(late > 0 ? late : 0);
      last = now;
    });
  }

  // Timers and signal handlers come before listen: a SIGTERM right after the
  // "listening" line must already mean a graceful shutdown.
  loop.every(100, [&server, &cluster_node] {
    // Before the tick: matches whose lease may have run out leave memory now.
    if (cluster_node) cluster_node->check_time_fence();
    server.tick();
  });
  // Give memory freed by bursts back to the system once 4 MiB of it stay resident
  // (jemalloc's count; with glibc: the resident heap grew by 4 MiB since the last
  // trim; see heap_trim.hpp). Checking costs one read of /proc/self/status and a
  // refresh of jemalloc's statistics, so it can run every second.
  app::HeapTrimmer trimmer(std::size_t{4} << 20, app::anonymous_resident_bytes, app::trim_allocator,
                           app::allocator_unused_bytes);
  loop.every(1'000, [&trimmer, &metrics] {
    const auto start = std::chrono::steady_clock::now();
    const app::HeapTrimmer::Tick tick = trimmer.tick();
    if (tick.trimmed) {
      metrics.heap_trimmed();
      spdlog::debug("memory: trimmed the heap, resident {} -> {} KiB, in {} µs",
                    tick.resident_before >> 10, tick.resident_after >> 10,
                    std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    }
  });
  bool stopping = false;
  // SIGINT/SIGTERM, and the end of an admin drain: persist, then tell, then close.
  auto begin_shutdown = [&](std::string_view why) {
    if (stopping) return;
    stopping = true;
    spdlog::info("{}: shutting down (no new connections, pending writes commit first)", why);
#ifdef ERYANTIS_SYSTEMD
    sd_notify(0, "STOPPING=1");
#endif
    tcp.stop_accepting();
    web.stop_accepting();
    server.begin_shutdown("the server is shutting down; your match is saved, reconnect later");
    // Wait for every write already submitted.
    loop.every(10, [&] {
      persistence->deliver();
      if (!server.idle()) return;
      // A cluster node hands its matches over now that its last write committed.
      if (!server.leases_released()) return;
      computers.stop();  // no more computer moves: the workers finish and exit
      (*committer)->stop();
      persistence->deliver();
      tcp.close_all();
      web.close_all(net::ws_close::normal);
      loop.stop();
    });
  };
  loop.on_signals([&](int signum) { begin_shutdown("signal " + std::to_string(signum)); });

  // The operator's channel (eryantis-admin) and the periodic backups.
  // No file to back up on PostgreSQL: the admin backup command says so.
  app::AdminCommands admin_commands(loop, server, on_sqlite ? database : std::string(),
                                    [&] { begin_shutdown("drained"); });
  if (config.metrics.enabled)
    admin_commands.set_metrics_text([&metrics] { return metrics.metrics_text(); });
  net::AdminSocketOptions admin_options;
  admin_options.max_connections = static_cast<std::size_t>(config.admin.max_connections);
  admin_options.idle_timeout_ms = static_cast<std::uint64_t>(config.admin.idle_timeout_ms);
  admin_options.busy_line =
      protocol::JsonLine::object()
          .field("ok", false)
          .field("error", "busy: " + std::to_string(config.admin.max_connections) +
                              " admin connections are open (admin.max_connections); try again")
          .str();
  admin_options.idle_line =
      protocol::JsonLine::object()
          .field("ok", false)
          .field("error", "no request line within " + std::to_string(config.admin.idle_timeout_ms) +
                              " ms (admin.idle_timeout_ms); connection closed")
          .str();
  net::AdminSocket admin_socket(
      loop,
      [&admin_commands](std::string_view request, net::AdminSocket::Reply reply) {
        admin_commands.handle(request, std::move(reply));
      },
      admin_options);
  if (config.admin.enabled) {
    const std::string socket_path = app::admin_socket_path(config);
    if (auto ok = admin_socket.listen(socket_path); !ok) {
      spdlog::critical("not starting: admin socket: {}", ok.error());
      return 1;
    }
    spdlog::info("admin socket {} (eryantis-admin --socket {})", socket_path,
                 std::filesystem::absolute(socket_path, ec).string());
  }
  app::PeriodicBackup periodic_backup(loop, database, config.backup);

  // SIGHUP: logrotate renamed the log file (log.rotation = "reopen"). Without a
  // handler it would end the process (the default action).
  loop.on_signal(SIGHUP, [&reopenable_log] {
    if (!reopenable_log) {
      spdlog::info("SIGHUP: no log file to reopen (log.rotation is \"size\" or log.file is empty)");
      return;
    }
    try {
      reopenable_log->reopen();
      spdlog::info("SIGHUP: log file {} reopened", reopenable_log->path());
    } catch (const spdlog::spdlog_ex& e) {
      spdlog::error("SIGHUP: cannot reopen the log file: {}", e.what());
    }
  });
  // The operator's HTTP surface on the web listener (docs/operations.md, "Monitor").
  // Routes answer on the loop thread, so an answer to /healthz proves the loop turns.
  web.add_route("/healthz",
                [](const net::HttpRequest&) { return net::HttpResponse::text(200, "ok\n"); });
  // Ready: matches were restored before anything listens; the database takes writes
  // unless the server went degraded; a draining server takes no new matches.
  web.add_route("/readyz", [&server, &postgresql_reachable](const net::HttpRequest&) {
    if (server.degraded())
      return net::HttpResponse::text(503, "degraded: the database refuses writes\n");
    // PostgreSQL restarted or away: writes fail (STORE_FAILURE) until the writer's
    // connection is back; it reconnects by itself (docs/cluster.md).
    if (postgresql_reachable && !postgresql_reachable->load())
      return net::HttpResponse::text(503, "degraded: PostgreSQL is unreachable, reconnecting\n");
    if (server.draining()) return net::HttpResponse::text(503, "draining\n");
    return net::HttpResponse::text(200, "ready\n");
  });
  if (config.metrics.enabled)
    web.add_route("/metrics", [&metrics](const net::HttpRequest&) {
      net::HttpResponse r = net::HttpResponse::text(200, metrics.metrics_text());
      r.content_type = "text/plain; version=0.0.4; charset=utf-8";  // Prometheus text format
      return r;
    });
  if (config.web.enabled) {
    auto web_bound = web.listen(config.web.listen, config.web.port);
    if (!web_bound) {
      spdlog::critical("cannot listen for the web on {}:{}: {}", config.web.listen, config.web.port,
                       web_bound.error());
      return 1;
    }
    spdlog::info("web listening on http://{}:{}/ (WebSocket /ws, files from {})", config.web.listen,
                 *web_bound, config.web.static_dir);
    warn_without_web_client(config.web.static_dir);
  }
  auto bound = tcp.listen(config.server.listen, config.server.port);
  if (!bound) {
    spdlog::critical("cannot listen on {}:{}: {}", config.server.listen, config.server.port,
                     bound.error());
    return 1;
  }
  spdlog::info("eryantis-server listening on {}:{} (database {}, durability {})",
               config.server.listen, *bound, shown,
               config.storage.durability == store::Durability::Full ? "full" : "normal");

#ifdef ERYANTIS_SYSTEMD
  sd_notify(0, "READY=1");  // systemd's Type=notify: started (packaging/eryantis.service.in)
#endif

  loop.run();
  const auto st = (*committer)->stats();
  spdlog::info("stopped: {} batch(es), {} event(s) written", st.batches, st.events);
  return 0;
}

int main(int argc, char** argv) {
  // libuv failures in the event loop's own set-up (uv_loop_init, a signal watcher)
  // arrive as exceptions from net::EventLoop: say what failed and exit 1, rather
  // than std::terminate's bare abort.
  try {
    return serve(argc, argv);
  } catch (const std::exception& e) {
    spdlog::critical("the event loop failed: {}", e.what());
    return 1;
  }
}
