#include "eryantis/metrics/metrics.hpp"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <map>
#include <sstream>

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
                               .Help("Matches held in memory, by status")
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

std::string Metrics::metrics_text() const {
  std::ostringstream out;
  prometheus::TextSerializer().Serialize(out, impl_->registry->Collect());
  return out.str();
}

}  // namespace eryantis::metrics
