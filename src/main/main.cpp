// eryantis-server: reads the configuration, restores every unfinished match from
// the database, then serves players on one libuv loop until SIGINT/SIGTERM.
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#ifdef ERYANTIS_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
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
#include "eryantis/main/account_route.hpp"
#include "eryantis/main/help_route.hpp"
#include "eryantis/main/metrics_feed.hpp"
#include "eryantis/main/standings.hpp"
#include "eryantis/main/periodic_backup.hpp"
#include "eryantis/main/preflight.hpp"
#include "eryantis/main/load.hpp"
#include "eryantis/main/store_accounts.hpp"
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

// The games it plays: the build's catalogue. The test server (tests/games, the
// same source built with ERYANTIS_TEST_GAMES) plays the tests' registry, which
// adds the test games: no platform file names a game.
#ifdef ERYANTIS_TEST_GAMES
#include "games/games.hpp"
#define kGames (eryantis::test::games())
#else
#include "eryantis/catalogue/catalogue.hpp"
#define kGames (eryantis::catalogue::games())
#endif

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
  if (restored->unserved > 0)
    spdlog::warn("{} unfinished match(es) left as stored for a build that serves their game",
                 restored->unserved);
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

// The command line and the configuration file, overrides applied and checked
// before anything is created. The error is the exit code to return at once: 0
// after --check-config or --help, 2 for a mistake in the configuration.
std::expected<app::Config, int> configure(int argc, char** argv) {
  CLI::App app{"Eryantis: an authoritative, event-sourced server for turn-based board games."};
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
  if (auto exit = util::parse_command_line(app, argc, argv)) return std::unexpected(*exit);

  // Without --config, a missing default file means the built-in defaults (which
  // are the values config/eryantis.toml documents); an explicit file must exist.
  const bool explicit_config = app.count("--config") > 0;
  if (check_only && !std::filesystem::exists(config_path)) {
    std::fprintf(stderr, "eryantis-server: %s: no such configuration file\n", config_path.c_str());
    return std::unexpected(2);
  }
  auto loaded = (!explicit_config && !std::filesystem::exists(config_path))
                    ? std::expected<app::Config, app::ConfigError>(app::Config{})
                    : app::load_config(config_path);
  if (!loaded) {
    std::fprintf(stderr, "eryantis-server: %s\n", loaded.error().message.c_str());
    return std::unexpected(2);
  }
  app::Config config = std::move(*loaded);
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
    return std::unexpected(2);
  }
  if (check_only) {
    std::printf("%s: OK (listen %s:%d, database %s)\n", config_path.c_str(),
                config.server.listen.c_str(), config.server.port,
                app::store_location(config.storage).describe().c_str());
    return std::unexpected(0);
  }
  return config;
}

net::TcpServerOptions tcp_options(const app::Config& config) {
  net::TcpServerOptions o;
  o.max_connections = static_cast<std::size_t>(config.server.limits.max_connections);
  o.max_line_bytes = config.server.limits.max_line_bytes;
  o.max_outgoing_bytes = config.server.limits.max_outgoing_bytes;
  o.max_outgoing_bytes_total = config.server.limits.max_outgoing_bytes_total;
  o.max_incoming_bytes_total = config.server.limits.max_incoming_bytes_total;
  o.busy_line =
      protocol::JsonLine("shutdown").field("message", "the server is full; try again later").str();
  return o;
}

// The web listener's WebSockets are connections like the TCP ones, with the same
// limits; the server sees both through one Transport.
net::HttpServerOptions web_options(const app::Config& config) {
  net::HttpServerOptions o;
  o.allowed_origins = config.web.allowed_origins;
  o.allowed_hosts = app::web_host_names(config);
  o.static_root = config.web.static_dir;
  o.max_connections = static_cast<std::size_t>(config.web.max_connections);
  o.max_header_bytes = static_cast<std::size_t>(config.web.max_request_bytes);
  o.max_body_bytes = static_cast<std::size_t>(config.web.max_request_bytes);
  o.request_timeout_ms = static_cast<std::uint64_t>(config.web.request_timeout_ms);
  o.max_message_bytes = config.server.limits.max_line_bytes;
  o.max_outgoing_bytes = config.server.limits.max_outgoing_bytes;
  o.max_outgoing_bytes_total = config.server.limits.max_outgoing_bytes_total;
  return o;
}

net::AdminSocketOptions admin_options(const app::Config& config) {
  net::AdminSocketOptions o;
  o.max_connections = static_cast<std::size_t>(config.admin.max_connections);
  o.idle_timeout_ms = static_cast<std::uint64_t>(config.admin.idle_timeout_ms);
  o.busy_line = protocol::JsonLine::object()
                    .field("ok", false)
                    .field("error", "busy: " + std::to_string(config.admin.max_connections) +
                                        " admin connections are open (admin.max_connections); "
                                        "try again")
                    .str();
  o.idle_line =
      protocol::JsonLine::object()
          .field("ok", false)
          .field("error", "no request line within " + std::to_string(config.admin.idle_timeout_ms) +
                              " ms (admin.idle_timeout_ms); connection closed")
          .str();
  return o;
}

app::Config with_games(app::Config config, const game::Registry& games) {
  config.server.games = &games;
  return config;
}

// One running server: everything serve() starts, as members in the order they
// are made (so they are destroyed in the reverse order: the listeners and the
// server before the store that they write to, the store before the writer lock
// that every SQLite connection of this process depends on). Each step is one
// member function; a step that fails returns the exit code.
class Process {
 public:
  // `games`: what it plays (the build's catalogue; the test server's adds test games).
  Process(app::Config config, std::shared_ptr<logging::ReopenableFileSink> reopenable_log,
          const game::Registry& games)
      : config_(with_games(std::move(config), games)),
        reopenable_log_(std::move(reopenable_log)),
        location_(app::store_location(config_.storage)),
        on_sqlite_(location_.backend == store::Backend::Sqlite),
        shown_(location_.describe()),
        store_options_(app::store_options(config_.storage, games)) {}

  // The database: locked (SQLite), checked, every unfinished match folded, and the
  // group committer that writes from now on.
  std::optional<int> open_storage();
  // The listeners, the server and what feeds it (computer seats, a cluster's lobby).
  void make_server();
  // Prometheus gauges, sampled every second, and the event loop's lag.
  void start_metrics();
  // The server's clock tick and the heap trimmer.
  void start_housekeeping();
  // SIGINT/SIGTERM and an admin drain end with a graceful shutdown; SIGHUP reopens the log.
  void handle_signals();
  // eryantis-admin's socket and the periodic backups.
  std::optional<int> start_admin();
  // /healthz, /readyz, /help/<game> and /metrics on the web listener.
  void add_routes();
  std::optional<int> listen();
  // Until the shutdown stopped the loop.
  int run();

 private:
  // Persist, then tell, then close: no new connections, every pending write commits.
  void begin_shutdown(std::string_view why);
  // Reads the finished matches after the last read into standings_ (on the reader
  // thread), unless a read is out already: then once more after it.
  void refresh_standings();

  app::Config config_;
  std::shared_ptr<logging::ReopenableFileSink> reopenable_log_;
  store::StoreLocation location_;
  bool on_sqlite_ = false;
  std::string shown_;  // the database, as the log names it
  store::Options store_options_;
  // Made before every store: it must outlive each SQLite connection of this
  // process (closing its descriptor would drop their POSIX locks: writer_lock.hpp).
  std::optional<store::WriterLock> writer_lock_;
  std::optional<server::SystemSecretSource> secrets_;
  std::optional<app::Loaded> restored_;
  net::EventLoop loop_;
  std::shared_ptr<net::Wakeup> wakeup_;
  std::unique_ptr<store::GroupCommitter> committer_;
  // PostgreSQL: whether the writer's connection reaches it (/readyz).
  std::shared_ptr<const std::atomic<bool>> postgresql_reachable_;
  std::unique_ptr<app::StorePersistence> persistence_;
  std::uint64_t events_counted_ = 0;
  metrics::Metrics* metrics_for_commits_ = nullptr;  // set once metrics are on
  std::optional<net::TcpServer> tcp_;
  std::optional<net::HttpServer> web_;
  std::optional<net::TransportRouter> transport_;
  metrics::Metrics metrics_;
  std::optional<app::MeteredTransport> metered_transport_;
  std::shared_ptr<net::Wakeup> computer_wakeup_;
  std::optional<server::ComputerPool> computers_;
  // Passwords are hashed on their own threads; their outcomes reach the loop through
  // this wakeup (declared first: the pool's destructor still wakes it).
  std::shared_ptr<net::Wakeup> password_wakeup_;
  std::optional<accounts::PasswordPool> passwords_;
  std::optional<app::StoreAccounts> account_store_;
  std::optional<server::Server> server_;
  std::optional<app::ClusterNode> cluster_node_;
  std::optional<app::LobbyListener> lobby_listener_;
  std::optional<app::MeteredEvents> metered_events_;
  std::optional<app::MetricsFeed> metrics_feed_;
  std::optional<app::HeapTrimmer> trimmer_;
  bool stopping_ = false;
  std::optional<app::AdminCommands> admin_commands_;
  std::optional<net::AdminSocket> admin_socket_;
  std::optional<app::PeriodicBackup> periodic_backup_;
  // Ratings and histories (standings.hpp): folded from the finished matches.
  std::optional<app::Standings> standings_;
  bool standings_reading_ = false;
  bool standings_again_ = false;
  bool standings_failed_ = false;
  std::uint64_t finished_seen_ = 0;      // the server's finished count at the last read
  std::int64_t standings_read_ms_ = 0;  // when the last read was asked
};

std::optional<int> Process::open_storage() {
  std::error_code ec;
  const std::string& database = config_.storage.database;
  if (on_sqlite_) {
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
    writer_lock_.emplace(std::move(*lock));
  }
  // Tokens and match seeds come from the kernel's CSPRNG only.
  auto secrets = server::SystemSecretSource::open();
  if (!secrets) {
    spdlog::critical("not starting: no secure random source: {}", secrets.error());
    return 1;
  }
  secrets_.emplace(std::move(*secrets));

  std::unique_ptr<store::EventStore> load_connection;  // closed once the committer opened
  auto restored = config_.cluster.enabled()
                      ? join_cluster(location_, store_options_, config_.cluster)
                      : load_unfinished_matches(location_, store_options_, load_connection);
  if (!restored) {
    spdlog::critical("cannot open {}: {}", shown_, restored.error().message);
    return restored.error().exit_code;
  }
  restored_.emplace(std::move(*restored));

  auto notify = [this] {
    if (wakeup_) wakeup_->notify();
  };
  auto committer = [&]() -> store::Result<std::unique_ptr<store::GroupCommitter>> {
    if (on_sqlite_)
      return store::GroupCommitter::start(database, {store_options_, 512}, notify);
    auto connection = store::open_store(location_, store_options_);
    if (!connection) return std::unexpected(connection.error());
    if (auto* pg = dynamic_cast<store::PgStore*>(connection->get()))
      postgresql_reachable_ = pg->reachable();
    return store::GroupCommitter::start(std::move(*connection), {store_options_, 512}, notify);
  }();
  load_connection.reset();
  if (!committer) {
    spdlog::critical("cannot open {}: {}", shown_, committer.error().message);
    return 1;
  }
  committer_ = std::move(*committer);
  // Move logs (`move_log`) are read on a connection of their own, read-only.
  persistence_ = std::make_unique<app::StorePersistence>(
      *committer_, app::read_only_opener(location_, store_options_), notify);
  wakeup_ = loop_.make_wakeup([this] {
    const std::size_t delivered = persistence_->deliver();
    if (metrics_for_commits_ && delivered > 0) metrics_for_commits_->observe_commit_batch(delivered);
  });
  return std::nullopt;
}

void Process::make_server() {
  tcp_.emplace(loop_, tcp_options(config_));
  web_.emplace(loop_, web_options(config_));
  web_->set_first_id(net::TransportRouter::kSecondFirstId);
  transport_.emplace(*tcp_, *web_);
  // Metrics read the lines going by (metered.hpp); with [metrics] off the server
  // talks to the transports directly.
  metered_transport_.emplace(*transport_, metrics_);
  transport::Transport& server_transport =
      config_.metrics.enabled ? static_cast<transport::Transport&>(*metered_transport_)
                              : *transport_;
  // Computer seats decide on [computer] workers threads; their results reach the
  // loop the way the store's completions do (a wakeup, then deliver() on the loop).
  computers_.emplace(server::ComputerPool::Options{config_.server.computer.workers,
                                                   config_.server.computer.think_ms, {}},
                     [this] {
                       if (computer_wakeup_) computer_wakeup_->notify();
                     });
  computer_wakeup_ = loop_.make_wakeup([this] { computers_->deliver(); });
  server_.emplace(config_.server, server_transport, *persistence_, unix_ms, *secrets_);
  server_->set_decision_runner(&*computers_);
  // Accounts (docs/accounts.md): the names every account holds, read before any
  // guest logs in, so none takes one.
  password_wakeup_ = loop_.make_wakeup([this] {
    if (server_) server_->password_work_done();
  });
  accounts::PasswordPoolConfig pool = config_.server.accounts.pool;
  // Hashing is meant to be slow; the players' acks are not: the workers run under
  // SCHED_IDLE, so a burst of logins takes only the CPU nothing else wants (bench/load.sh
  // l: ack p99 2.15x quiet with it, 2.58x at nice +10, on a 2-core machine).
  pool.on_thread_start = [] {
    const sched_param idle{};
    if (int e = pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle); e != 0)
      spdlog::warn("password worker: could not lower its priority: {}", std::strerror(e));
  };
  passwords_.emplace(std::move(pool), [wakeup = password_wakeup_] { wakeup->notify(); });
  account_store_.emplace(*committer_);
  server_->set_accounts(&*account_store_, &*passwords_);
  {
    store::Options read_only = store_options_;
    read_only.read_only = true;
    std::optional<std::vector<std::string>> keys;
    auto reader = store::open_store(location_, read_only);
    auto listed = reader ? (*reader)->list_accounts()
                         : store::Result<std::vector<store::AccountRecord>>(
                               std::unexpected(reader.error()));
    if (listed) {
      keys.emplace();
      for (store::AccountRecord& a : *listed) keys->push_back(std::move(a.name_key));
      spdlog::info("{} accounts", keys->size());
    } else {
      spdlog::error("could not read the accounts' names ({}): guests are refused until a "
                    "restart reads them (accounts may log in)", listed.error().message);
    }
    server_->load_account_names(std::move(keys));
  }
  if (config_.cluster.enabled()) {
    cluster_node_.emplace(*committer_, config_.cluster);
    server_->set_cluster(&*cluster_node_);
    // Lobby changes of the other nodes by LISTEN/NOTIFY; polled while it is down.
    lobby_listener_.emplace(loop_, *committer_, location_.target, *server_);
    lobby_listener_->start();
  }
  metered_events_.emplace(*server_, *metered_transport_);
  if (config_.metrics.enabled) {
    tcp_->set_events(*metered_events_);
    web_->set_events(*metered_events_);
  } else {
    tcp_->set_events(*server_);
    web_->set_events(*server_);
  }
  metrics_.restored(restored_->matches.size(), restored_->quarantined);
  if (config_.metrics.enabled) {
    metrics_for_commits_ = &metrics_;
    persistence_->set_metrics(&metrics_);
  }
  // Ratings: every finished match is read at start (off the loop), then the new ones.
  standings_.emplace(*config_.server.games, config_.web.replay_url);
  refresh_standings();
  server_->load_matches(std::move(restored_->matches), restored_->next_match_id);
  server_->load_unseen_endings(std::move(restored_->unseen_endings));
}

void Process::start_metrics() {
  metrics_feed_.emplace(metrics_, restored_->matches_by_status, config_.cluster.enabled(),
                        *config_.server.games);
  metrics_.set_build_info(ERYANTIS_VERSION, ERYANTIS_COMMIT);
  if (!config_.metrics.enabled) return;
  metrics_feed_->sample(server_->stats(), unix_ms());  // the matches' count from the start
  // Gauges every second; event-loop lag from a 100 ms timer's lateness.
  loop_.every(1'000, [this] {
    metrics_feed_->sample(server_->stats(), unix_ms());
    metrics_.set_queued_outgoing_bytes(static_cast<double>(tcp_->queued_bytes()));
    metrics_.set_resident_bytes(static_cast<double>(app::resident_bytes()));
    const auto committed = committer_->stats();
    metrics_.events_appended(committed.events - events_counted_);
    events_counted_ = committed.events;
  });
  // The other nodes of a cluster change statuses too: recounted every minute
  // (one scan of the status index, between two commits of the writer).
  if (config_.cluster.enabled())
    loop_.every(60'000, [this] {
      committer_->run_on_writer([this](store::EventStore& db) -> std::function<void()> {
        auto counted = db.count_by_status();
        if (!counted) return [] {};
        return [this, counted = *counted] { metrics_feed_->recount(counted, server_->stats()); };
      });
    });
  loop_.every(100, [this, last = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    const double late = std::chrono::duration<double>(now - last).count() - 0.100;
    metrics_.observe_loop_lag(late > 0 ? late : 0);
    last = now;
  });
}

void Process::start_housekeeping() {
  loop_.every(100, [this] {
    // Before the tick: matches whose lease may have run out leave memory now.
    if (cluster_node_) cluster_node_->check_time_fence();
    server_->tick();
    // This server finished matches since the last read (a cluster's other nodes finish
    // theirs unseen: read every 10 s there). At most two reads a second: the reader
    // also serves move logs and chat histories.
    const std::uint64_t finished =
        server_->stats().entered[static_cast<std::size_t>(store::MatchStatus::Finished)];
    if ((finished != finished_seen_ && unix_ms() - standings_read_ms_ >= 500) ||
        (standings_failed_ && unix_ms() - standings_read_ms_ >= 5'000) ||
        (cluster_node_ && unix_ms() - standings_read_ms_ >= 10'000)) {
      finished_seen_ = finished;
      refresh_standings();
    }
  });
  // Give memory freed by bursts back to the system once 4 MiB of it stay resident
  // (jemalloc's count; with glibc: the resident heap grew by 4 MiB since the last
  // trim; see heap_trim.hpp). Checking costs one read of /proc/self/status and a
  // refresh of jemalloc's statistics, so it can run every second.
  trimmer_.emplace(std::size_t{4} << 20, app::anonymous_resident_bytes, app::trim_allocator,
                   app::allocator_unused_bytes);
  loop_.every(1'000, [this] {
    const auto start = std::chrono::steady_clock::now();
    const app::HeapTrimmer::Tick tick = trimmer_->tick();
    if (tick.trimmed) {
      metrics_.heap_trimmed();
      spdlog::debug("memory: trimmed the heap, resident {} -> {} KiB, in {} µs",
                    tick.resident_before >> 10, tick.resident_after >> 10,
                    std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    }
  });
}

void Process::begin_shutdown(std::string_view why) {
  if (stopping_) return;
  stopping_ = true;
  spdlog::info("{}: shutting down (no new connections, pending writes commit first)", why);
#ifdef ERYANTIS_SYSTEMD
  sd_notify(0, "STOPPING=1");
#endif
  tcp_->stop_accepting();
  web_->stop_accepting();
  server_->begin_shutdown("the server is shutting down; your match is saved, reconnect later");
  // Wait for every write already submitted.
  loop_.every(10, [this] {
    persistence_->deliver();
    if (!server_->idle()) return;
    // A cluster node hands its matches over now that its last write committed.
    if (!server_->leases_released()) return;
    computers_->stop();  // no more computer moves: the workers finish and exit
    committer_->stop();
    persistence_->deliver();
    tcp_->close_all();
    web_->close_all(net::ws_close::normal);
    loop_.stop();
  });
}

void Process::handle_signals() {
  loop_.on_signals([this](int signum) { begin_shutdown("signal " + std::to_string(signum)); });
  // SIGHUP: logrotate renamed the log file (log.rotation = "reopen"). Without a
  // handler it would end the process (the default action).
  loop_.on_signal(SIGHUP, [this] {
    if (!reopenable_log_) {
      spdlog::info("SIGHUP: no log file to reopen (log.rotation is \"size\" or log.file is empty)");
      return;
    }
    try {
      reopenable_log_->reopen();
      spdlog::info("SIGHUP: log file {} reopened", reopenable_log_->path());
    } catch (const spdlog::spdlog_ex& e) {
      spdlog::error("SIGHUP: cannot reopen the log file: {}", e.what());
    }
  });
}

std::optional<int> Process::start_admin() {
  // No file to back up on PostgreSQL: the admin backup command says so.
  admin_commands_.emplace(loop_, *server_,
                          on_sqlite_ ? config_.storage.database : std::string(),
                          [this] { begin_shutdown("drained"); });
  if (config_.metrics.enabled)
    admin_commands_->set_metrics_text([this] { return metrics_.metrics_text(); });
  admin_socket_.emplace(
      loop_,
      [this](std::string_view request, net::AdminSocket::Reply reply) {
        admin_commands_->handle(request, std::move(reply));
      },
      admin_options(config_));
  if (config_.admin.enabled) {
    const std::string socket_path = app::admin_socket_path(config_);
    if (auto ok = admin_socket_->listen(socket_path); !ok) {
      spdlog::critical("not starting: admin socket: {}", ok.error());
      return 1;
    }
    std::error_code ec;
    spdlog::info("admin socket {} (eryantis-admin --socket {})", socket_path,
                 std::filesystem::absolute(socket_path, ec).string());
  }
  periodic_backup_.emplace(loop_, config_.storage.database, config_.backup);
  return std::nullopt;
}

void Process::refresh_standings() {
  if (standings_reading_) {
    standings_again_ = true;
    return;
  }
  standings_reading_ = true;
  standings_read_ms_ = unix_ms();
  persistence_->read_rated(
      standings_->read_from(),
      [this](store::Result<std::vector<app::RatedMatch>> rated) {
        standings_reading_ = false;
        standings_failed_ = !rated;
        if (rated) {
          const std::size_t before = standings_->finished();
          standings_->add(std::move(*rated));
          if (before == 0 && standings_->finished() > 0)
            spdlog::info("ratings: {} finished match(es) read, {} rated",
                         standings_->finished(), standings_->book().applied());
        } else {
          spdlog::warn("ratings: the finished matches could not be read: {}",
                       rated.error().message);
          standings_failed_ = true;  // asked again by the tick, 5 s later
        }
        if (standings_again_) {
          standings_again_ = false;
          refresh_standings();
        }
      });
}

void Process::add_routes() {
  // Routes answer on the loop thread, so an answer to /healthz proves the loop turns.
  web_->add_route("/healthz",
                  [](const net::HttpRequest&) { return net::HttpResponse::text(200, "ok\n"); });
  // Ready: matches were restored before anything listens; the database takes writes
  // unless the server went degraded; a draining server takes no new matches.
  web_->add_route("/readyz", [this](const net::HttpRequest&) {
    if (server_->degraded())
      return net::HttpResponse::text(503, "degraded: the database refuses writes\n");
    // PostgreSQL restarted or away: writes fail (STORE_FAILURE) until the writer's
    // connection is back; it reconnects by itself (docs/cluster.md).
    if (postgresql_reachable_ && !postgresql_reachable_->load())
      return net::HttpResponse::text(503, "degraded: PostgreSQL is unreachable, reconnecting\n");
    if (server_->draining()) return net::HttpResponse::text(503, "draining\n");
    return net::HttpResponse::text(200, "ready\n");
  });
  // The games' help texts for the web client's rules panel (docs/web.md, "Rules").
  web_->add_route(std::string(app::kHelpRoute), [this](const net::HttpRequest& request) {
    return app::help_response(*config_.server.games, request.method, request.path);
  });
  // Ratings and histories (docs/web.md, "Ratings and history").
  web_->add_route(std::string(app::kRatingsRoute), [this](const net::HttpRequest& request) {
    return standings_->ratings_response(request, unix_ms());
  });
  web_->add_route(std::string(app::kHistoryRoute), [this](const net::HttpRequest& request) {
    return standings_->history_response(request, unix_ms());
  });
  // The web page's session cookie (docs/accounts.md, "The web page's cookie").
  web_->add_route(std::string(app::kAccountRoute), [this](const net::HttpRequest& request) {
    return app::account_response(
        request, web_->origin_allowed(request),
        [this](std::string_view ticket) -> std::optional<app::SessionGrant> {
          auto grant = server_->redeem_cookie_ticket(ticket);
          if (!grant) return std::nullopt;
          return app::SessionGrant{std::move(grant->secret), std::move(grant->name),
                                   grant->max_age_s};
        },
        app::AccountRouteOptions{config_.web.secure_cookie});
  });
  if (config_.metrics.enabled)
    web_->add_route("/metrics", [this](const net::HttpRequest&) {
      net::HttpResponse r = net::HttpResponse::text(200, metrics_.metrics_text());
      r.content_type = "text/plain; version=0.0.4; charset=utf-8";  // Prometheus text format
      return r;
    });
}

std::optional<int> Process::listen() {
  if (config_.web.enabled) {
    auto web_bound = web_->listen(config_.web.listen, config_.web.port);
    if (!web_bound) {
      spdlog::critical("cannot listen for the web on {}:{}: {}", config_.web.listen,
                       config_.web.port, web_bound.error());
      return 1;
    }
    spdlog::info("web listening on http://{}:{}/ (WebSocket /ws, files from {})",
                 config_.web.listen, *web_bound, config_.web.static_dir);
    warn_without_web_client(config_.web.static_dir);
  }
  auto bound = tcp_->listen(config_.server.listen, config_.server.port);
  if (!bound) {
    spdlog::critical("cannot listen on {}:{}: {}", config_.server.listen, config_.server.port,
                     bound.error());
    return 1;
  }
  spdlog::info("eryantis-server listening on {}:{} (database {}, durability {})",
               config_.server.listen, *bound, shown_,
               config_.storage.durability == store::Durability::Full ? "full" : "normal");
#ifdef ERYANTIS_SYSTEMD
  sd_notify(0, "READY=1");  // systemd's Type=notify: started (packaging/eryantis.service.in)
#endif
  return std::nullopt;
}

int Process::run() {
  loop_.run();
  const auto st = committer_->stats();
  spdlog::info("stopped: {} batch(es), {} event(s) written", st.batches, st.events);
  return 0;
}

}  // namespace

// The whole life of the server; main() only turns what escapes it into an exit code.
int serve(int argc, char** argv, const game::Registry& games) {
  auto config = configure(argc, argv);
  if (!config) return config.error();
  std::shared_ptr<logging::ReopenableFileSink> reopenable_log;
  try {
    reopenable_log = setup_logging(config->log);
  } catch (const spdlog::spdlog_ex& e) {
    std::fprintf(stderr, "eryantis-server: log.file: %s\n", e.what());
    return 2;
  }
  Process process(std::move(*config), std::move(reopenable_log), games);
  if (auto failed = process.open_storage()) return *failed;
  process.make_server();
  process.start_metrics();
  // Timers and signal handlers come before listen: a SIGTERM right after the
  // "listening" line must already mean a graceful shutdown.
  process.start_housekeeping();
  process.handle_signals();
  if (auto failed = process.start_admin()) return *failed;
  process.add_routes();
  if (auto failed = process.listen()) return *failed;
  return process.run();
}

int main(int argc, char** argv) {
  // libuv failures in the event loop's own set-up (uv_loop_init, a signal watcher)
  // arrive as exceptions from net::EventLoop: say what failed and exit 1, rather
  // than std::terminate's bare abort.
  try {
    return serve(argc, argv, kGames);
  } catch (const std::exception& e) {
    spdlog::critical("the event loop failed: {}", e.what());
    return 1;
  }
}
