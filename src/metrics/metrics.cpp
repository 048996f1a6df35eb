#include "eryantis/metrics/metrics.hpp"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <map>
#include <sstream>
#include <utility>

namespace eryantis::metrics {

namespace {
using prometheus::BuildCounter;
using prometheus::BuildGauge;
using prometheus::BuildHistogram;
using prometheus::Counter;
using prometheus::Family;
using prometheus::Gauge;
using prometheus::Histogram;

// Latencies from 0.1 ms (an ack on a quiet server) to 2.5 s (a stalled disk).
const Histogram::BucketBoundaries kSeconds = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                              0.025,  0.05,    0.1,    0.25,  0.5,    1.0,   2.5};
// Writes per group commit: 1 on a quiet server, hundreds under load.
const Histogram::BucketBoundaries kBatch = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
}  // namespace

struct Metrics::Impl {
  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  Family<Gauge>& connections = BuildGauge()
                                   .Name("eryantis_connections")
                                   .Help("Open connections, by state")
                                   .Register(*registry);
  Gauge& sessions =
      BuildGauge().Name("eryantis_sessions").Help("Logged-in players").Register(*registry).Add({});
  Family<Gauge>& matches = BuildGauge()
                               .Name("eryantis_matches")
                               .Help("Matches the database holds, by status")
                               .Register(*registry);
  Counter& created = BuildCounter()
                         .Name("eryantis_matches_created_total")
                         .Help("Matches created by this server")
                         .Register(*registry)
                         .Add({});
  Family<Counter>& ended = BuildCounter()
                               .Name("eryantis_matches_ended_total")
                               .Help("Matches this server ended, by their final status")
                               .Register(*registry);
  Family<Gauge>& build = BuildGauge()
                             .Name("eryantis_build_info")
                             .Help("The server's version and the commit it was built from (1)")
                             .Register(*registry);
  Gauge& queued = BuildGauge()
                      .Name("eryantis_queued_outgoing_bytes")
                      .Help("Bytes queued for clients, not yet taken by the kernel")
                      .Register(*registry)
                      .Add({});
  Gauge& resident = BuildGauge()
                        .Name("eryantis_resident_memory_bytes")
                        .Help("Resident memory of the process")
                        .Register(*registry)
                        .Add({});
  Family<Counter>& commands = BuildCounter()
                                  .Name("eryantis_commands_total")
                                  .Help("Requests answered, by result (accepted or an error code)")
                                  .Register(*registry);
  Counter& accepted = commands.Add({{"result", "accepted"}});
  Counter& rate_limit_hits = BuildCounter()
                                 .Name("eryantis_rate_limit_hits_total")
                                 .Help("Requests refused with RATE_LIMITED")
                                 .Register(*registry)
                                 .Add({});
  Counter& events = BuildCounter()
                        .Name("eryantis_events_appended_total")
                        .Help("Events durably appended")
                        .Register(*registry)
                        .Add({});
  Family<Counter>& restores = BuildCounter()
                                  .Name("eryantis_restored_matches_total")
                                  .Help("Matches restored at start, by outcome")
                                  .Register(*registry);
  Counter& heap_trims = BuildCounter()
                            .Name("eryantis_heap_trims_total")
                            .Help("Times freed heap memory was given back to the system")
                            .Register(*registry)
                            .Add({});
  Histogram& batch = BuildHistogram()
                         .Name("eryantis_commit_batch_writes")
                         .Help("Writes completed together by one group commit")
                         .Register(*registry)
                         .Add({}, kBatch);
  Histogram& commit = BuildHistogram()
                          .Name("eryantis_commit_latency_seconds")
                          .Help("From a write's submission to its durable completion")
                          .Register(*registry)
                          .Add({}, kSeconds);
  Histogram& ack = BuildHistogram()
                       .Name("eryantis_ack_latency_seconds")
                       .Help("From a play request read to its reply queued")
                       .Register(*registry)
                       .Add({}, kSeconds);
  Histogram& lag = BuildHistogram()
                       .Name("eryantis_event_loop_lag_seconds")
                       .Help("How late a 100 ms timer of the event loop fired")
                       .Register(*registry)
                       .Add({}, kSeconds);
  std::map<std::string, Counter*, std::less<>> refused;
  std::map<std::string, Gauge*, std::less<>> connection_states;
  std::map<std::string, Gauge*, std::less<>> match_statuses;
  std::map<std::string, Counter*, std::less<>> ended_statuses;
  // The last total each sampled counter was moved to.
  std::map<const Counter*, double> totals;
  void move_to(Counter& counter, double total) {
    double& last = totals[&counter];
    if (total > last) counter.Increment(total - last);
    last = total;
  }

  // Registered by the first set_cluster().
  struct Cluster {
    Gauge* leases = nullptr;
    Gauge* renewal_lag = nullptr;
    Counter* renewals_ok = nullptr;
    Counter* renewals_failed = nullptr;
    Counter* adoptions = nullptr;
    Counter* fenced = nullptr;
    Counter* lost = nullptr;
    Counter* redirects = nullptr;
    Gauge* postgresql = nullptr;
    Gauge* listen = nullptr;
  };
  std::unique_ptr<Cluster> cluster;
  Cluster& cluster_series() {
    if (cluster) return *cluster;
    cluster = std::make_unique<Cluster>();
    cluster->leases = &BuildGauge()
                           .Name("eryantis_cluster_leases")
                           .Help("Match leases this node holds")
                           .Register(*registry)
                           .Add({});
    cluster->renewal_lag = &BuildGauge()
                                .Name("eryantis_cluster_lease_renewal_lag_seconds")
                                .Help("Since this node's leases were last renewed (or it held "
                                      "none)")
                                .Register(*registry)
                                .Add({});
    auto& renewals = BuildCounter()
                         .Name("eryantis_cluster_lease_renewals_total")
                         .Help("Lease renewals, by result (ok or failed)")
                         .Register(*registry);
    cluster->renewals_ok = &renewals.Add({{"result", "ok"}});
    cluster->renewals_failed = &renewals.Add({{"result", "failed"}});
    cluster->adoptions = &BuildCounter()
                              .Name("eryantis_cluster_adoptions_total")
                              .Help("Matches this node adopted (asked for, or swept up)")
                              .Register(*registry)
                              .Add({});
    auto& dropped = BuildCounter()
                        .Name("eryantis_cluster_matches_dropped_total")
                        .Help("Matches this node stopped serving, by reason (fenced or "
                              "lease_lost)")
                        .Register(*registry);
    cluster->fenced = &dropped.Add({{"reason", "fenced"}});
    cluster->lost = &dropped.Add({{"reason", "lease_lost"}});
    cluster->redirects = &BuildCounter()
                              .Name("eryantis_cluster_redirects_total")
                              .Help("Clients sent to the node serving their match")
                              .Register(*registry)
                              .Add({});
    auto& connected = BuildGauge()
                          .Name("eryantis_cluster_postgresql_up")
                          .Help("1 when this node's last round trip to PostgreSQL succeeded, by "
                                "connection (writer or listen)")
                          .Register(*registry);
    cluster->postgresql = &connected.Add({{"connection", "writer"}});
    cluster->listen = &connected.Add({{"connection", "listen"}});
    return *cluster;
  }

  template <class T>
  T& labelled(Family<T>& family, std::map<std::string, T*, std::less<>>& cache,
              const std::string& label, std::string_view value) {
    auto it = cache.find(value);
    if (it == cache.end())
      it = cache.emplace(std::string(value), &family.Add({{label, std::string(value)}})).first;
    return *it->second;
  }
};

Metrics::Metrics() : impl_(std::make_unique<Impl>()) {}
Metrics::~Metrics() = default;

void Metrics::set_connections(std::string_view state, double count) {
  impl_->labelled(impl_->connections, impl_->connection_states, "state", state).Set(count);
}
void Metrics::set_sessions(double count) {
  impl_->sessions.Set(count);
}
void Metrics::set_matches(std::string_view status, double count) {
  impl_->labelled(impl_->matches, impl_->match_statuses, "status", status).Set(count);
}
void Metrics::set_queued_outgoing_bytes(double bytes) {
  impl_->queued.Set(bytes);
}
void Metrics::set_resident_bytes(double bytes) {
  impl_->resident.Set(bytes);
}
void Metrics::set_build_info(std::string_view version, std::string_view commit) {
  impl_->build.Add({{"version", std::string(version)}, {"commit", std::string(commit)}}).Set(1);
}
void Metrics::set_cluster(const ClusterSample& s) {
  Impl::Cluster& c = impl_->cluster_series();
  c.leases->Set(s.leases);
  c.renewal_lag->Set(s.renewal_lag_seconds);
  impl_->move_to(*c.renewals_ok, static_cast<double>(s.renewals));
  impl_->move_to(*c.renewals_failed, static_cast<double>(s.renewals_failed));
  impl_->move_to(*c.adoptions, static_cast<double>(s.adoptions));
  impl_->move_to(*c.fenced, static_cast<double>(s.fenced));
  impl_->move_to(*c.lost, static_cast<double>(s.lost));
  impl_->move_to(*c.redirects, static_cast<double>(s.redirects));
  c.postgresql->Set(s.postgresql_up ? 1 : 0);
  c.listen->Set(s.listen_up ? 1 : 0);
}
void Metrics::declare_results(const std::vector<std::string>& codes) {
  for (const std::string& code : codes)
    if (code != "accepted") impl_->labelled(impl_->commands, impl_->refused, "result", code);
}
void Metrics::set_matches_created(std::uint64_t total) {
  impl_->move_to(impl_->created, static_cast<double>(total));
}
void Metrics::set_matches_ended(std::string_view status, std::uint64_t total) {
  impl_->move_to(impl_->labelled(impl_->ended, impl_->ended_statuses, "status", status),
                 static_cast<double>(total));
}
void Metrics::command_accepted() {
  impl_->accepted.Increment();
}
void Metrics::command_refused(std::string_view code) {
  impl_->labelled(impl_->commands, impl_->refused, "result", code).Increment();
}
void Metrics::rate_limited() {
  impl_->rate_limit_hits.Increment();
}
void Metrics::events_appended(std::uint64_t count) {
  impl_->events.Increment(static_cast<double>(count));
}
void Metrics::restored(std::uint64_t matches, std::uint64_t quarantined) {
  impl_->restores.Add({{"outcome", "restored"}}).Increment(static_cast<double>(matches));
  impl_->restores.Add({{"outcome", "quarantined"}}).Increment(static_cast<double>(quarantined));
}
void Metrics::heap_trimmed() {
  impl_->heap_trims.Increment();
}
void Metrics::observe_commit_batch(std::size_t writes) {
  impl_->batch.Observe(static_cast<double>(writes));
}
void Metrics::observe_commit_latency(double seconds) {
  impl_->commit.Observe(seconds);
}
void Metrics::observe_ack_latency(double seconds) {
  impl_->ack.Observe(seconds);
}
void Metrics::observe_loop_lag(double seconds) {
  impl_->lag.Observe(seconds);
}

namespace {
prometheus::MetricFamily process_family(std::string name, std::string help,
                                        prometheus::MetricType type, double value) {
  prometheus::MetricFamily f{std::move(name), std::move(help), type, {}};
  prometheus::ClientMetric m;
  if (type == prometheus::MetricType::Counter)
    m.counter.value = value;
  else
    m.gauge.value = value;
  f.metric.push_back(std::move(m));
  return f;
}
}  // namespace

std::string Metrics::metrics_text() const {
  std::vector<prometheus::MetricFamily> families = impl_->registry->Collect();
  // The standard process_* series (the names the Prometheus client libraries use).
  const ProcessSample p = read_process();
  using prometheus::MetricType;
  const std::pair<prometheus::MetricFamily, double> process[] = {
      {process_family("process_cpu_seconds_total", "Total user and system CPU time spent in seconds",
                      MetricType::Counter, p.cpu_seconds),
       p.cpu_seconds},
      {process_family("process_resident_memory_bytes", "Resident memory size in bytes",
                      MetricType::Gauge, p.resident_bytes),
       p.resident_bytes},
      {process_family("process_virtual_memory_bytes", "Virtual memory size in bytes",
                      MetricType::Gauge, p.virtual_bytes),
       p.virtual_bytes},
      {process_family("process_open_fds", "Number of open file descriptors", MetricType::Gauge,
                      p.open_fds),
       p.open_fds},
      {process_family("process_max_fds", "Maximum number of open file descriptors",
                      MetricType::Gauge, p.max_fds),
       p.max_fds},
      {process_family("process_start_time_seconds",
                      "Start time of the process since unix epoch in seconds", MetricType::Gauge,
                      p.start_time_seconds),
       p.start_time_seconds},
  };
  for (const auto& [family, value] : process)
    if (value >= 0) families.push_back(family);
  std::ostringstream out;
  prometheus::TextSerializer().Serialize(out, families);
  return out.str();
}

}  // namespace eryantis::metrics
