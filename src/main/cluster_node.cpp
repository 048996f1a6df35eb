#include "eryantis/main/cluster_node.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <span>
#include <type_traits>
#include <unordered_map>

#include "eryantis/main/load.hpp"
#include "eryantis/main/store_persistence.hpp"

namespace eryantis::app {

namespace {

using server::Located;

// The writer's connection is PostgreSQL whenever [cluster] is set (validate_config).
store::PgStore* as_pg(store::EventStore& db) {
  return dynamic_cast<store::PgStore*>(&db);
}

std::unexpected<store::StoreError> not_postgresql() {
  return store::fail(store::StoreCode::Invalid, "a cluster needs storage.backend = postgresql");
}

Located failed(std::string message) {
  Located out;
  out.kind = Located::Kind::Failed;
  out.message = std::move(message);
  return out;
}

// Where each node is reached, read once per batch of look-ups.
using NodeCache = std::unordered_map<std::string, store::Result<std::optional<store::NodeInfo>>>;

// Where to send the client of a match `holder` serves.
Located elsewhere(store::PgStore& db, const store::Lease& holder, NodeCache& nodes) {
  auto it = nodes.find(holder.node);
  if (it == nodes.end()) it = nodes.emplace(holder.node, db.node_info(holder.node)).first;
  const auto& info = it->second;
  if (!info) return failed(info.error().message);
  if (!*info)
    return failed(fmt::format("node {} serves it but never recorded its address", holder.node));
  Located out;
  out.kind = Located::Kind::Elsewhere;
  out.holder = server::NodeAddress{(*info)->public_address, (*info)->public_web};
  return out;
}

// Who serves match `id` now that taking it failed: the holder's address, or why not.
Located holder_of(store::PgStore& db, store::MatchId id, const store::StoreError& refused) {
  if (refused.code != store::StoreCode::Conflict) return failed(refused.message);
  auto lease = db.lease(id);
  if (!lease) return failed(lease.error().message);
  if (!*lease) return failed(refused.message);
  NodeCache nodes;
  return elsewhere(db, **lease, nodes);
}

bool unfinished(store::MatchStatus status) {
  return status == store::MatchStatus::Lobby || status == store::MatchStatus::Running;
}

// The server's shape of a match read back, or why it cannot be served.
std::expected<server::LoadedMatch, std::string> to_loaded(store::FoldedMatch loaded) {
  if (loaded.folded.divergence)
    return std::unexpected(fmt::format("its log diverges: {}", loaded.folded.divergence->reason));
  server::LoadedMatch m;
  m.id = loaded.id;
  m.status = loaded.status;
  m.game = loaded.folded.played;
  m.last_seq = loaded.folded.seq;
  m.state = std::move(loaded.folded.state);
  m.seats = std::move(loaded.seats);
  m.recent_commands = std::move(loaded.recent_commands);
  if (loaded.deadline) m.deadline = from_record(*loaded.deadline);
  m.private_match = loaded.privacy.private_match;
  if (loaded.privacy.takeover) m.takeover = game::parse_level(*loaded.privacy.takeover);
  m.invites = std::move(loaded.privacy.invites);
  return m;
}

store::FoldPolicy adoption_policy(const store::EventStore& db) {
  return store::FoldPolicy{store::FoldStart::NewestSnapshot, db.options().load_hashes};
}

Located adopted(std::int64_t epoch, server::LoadedMatch match) {
  Located out;
  out.kind = Located::Kind::Adopted;
  out.adopted = server::Adopted{epoch, std::move(match)};
  return out;
}

Located cannot_serve(store::MatchId id, const std::string& why) {
  return failed(fmt::format("match {} cannot be served: {}", id, why));
}

// A client asked this node for a match of a game it does not serve (a database
// shared with another build) and no live node holds it: the store left its lease
// alone, the client is told why (UNSERVED_GAME: asking here again cannot help),
// and the log says it once per window (other clients may ask too).
Located unserved(const store::StoreError& refused, logging::LogThrottle& log) {
  log.log(spdlog::level::warn, "unserved match asked for",
          fmt::format("cluster: {}; a client asked for it here and was refused (not adopted: a "
                      "node of a build that has the game adopts it)",
                      refused.message));
  Located out;
  out.kind = Located::Kind::Unserved;
  out.message = refused.message;
  return out;
}

// One look-up on its own, a few round trips: what a batch falls back to when one
// of its statements fails (a deadlock with another node's batch, say).
Located locate_one(store::PgStore& pg, store::MatchId id, std::chrono::milliseconds ttl,
                   const std::string& node, logging::LogThrottle& log) {
  auto status = pg.match_status(id);
  if (!status) return failed(status.error().message);
  if (!*status || !unfinished(**status)) return Located{};  // Missing
  auto lease = pg.acquire_lease(id, node, ttl);
  if (!lease && lease.error().code == store::StoreCode::Unserved)
    return unserved(lease.error(), log);
  if (!lease) return holder_of(pg, id, lease.error());
  auto match = load_match(pg, id, **status);
  if (!match) {
    (void)pg.release_lease(id, lease->fence());
    return cannot_serve(id, match.error());
  }
  return adopted(lease->epoch, std::move(*match));
}

}  // namespace

std::expected<server::LoadedMatch, std::string> load_match(store::EventStore& db,
                                                             store::MatchId id,
                                                             store::MatchStatus status) {
  auto folded = db.fold(id, adoption_policy(db));
  if (!folded) return std::unexpected(folded.error().message);
  store::FoldedMatch loaded;
  loaded.id = id;
  loaded.status = status;
  loaded.folded = std::move(*folded);
  if (loaded.folded.divergence) return to_loaded(std::move(loaded));
  auto seats = db.seats(id);
  if (!seats) return std::unexpected(seats.error().message);
  loaded.seats = std::move(*seats);
  auto recent = db.recent_command_ids(id, server::kRecentCommands);
  if (!recent) return std::unexpected(recent.error().message);
  loaded.recent_commands = std::move(*recent);
  auto deadline = db.deadline(id);
  if (!deadline) return std::unexpected(deadline.error().message);
  loaded.deadline = std::move(*deadline);
  auto privacy = db.privacy(id);
  if (!privacy) return std::unexpected(privacy.error().message);
  loaded.privacy = std::move(*privacy);
  const store::MatchPrivacy flags = loaded.privacy;
  auto m = to_loaded(std::move(loaded));
  if (!m) return m;
  if (auto clock = fold_stored_clock(db, *m, flags.clock, flags.on_timeout); !clock)
    return std::unexpected(clock.error());
  return m;
}

store::Result<void> register_node(store::PgStore& db, const ClusterConfig& config) {
  std::optional<std::string> web;
  if (!config.public_web.empty()) web = config.public_web;
  return db.register_node(store::NodeInfo{config.node, config.public_address, web});
}

ClusterNode::ClusterNode(store::GroupCommitter& committer, const ClusterConfig& config,
                         std::function<Clock::time_point()> clock)
    : committer_(committer), config_(config), clock_(std::move(clock)) {}

ClusterNode::Clock::duration ClusterNode::time_fence_margin() const {
  return std::max<Clock::duration>(ttl() / 10, std::chrono::milliseconds(150));
}

void ClusterNode::leased(store::MatchId id, Clock::time_point asked) {
  Clock::time_point& until = leased_until_[id];
  until = std::max(until, asked + ttl());
}

std::vector<store::MatchId> ClusterNode::past_their_lease(
    const std::vector<store::HeldLease>& held) const {
  const Clock::time_point now = clock_();
  std::vector<store::MatchId> out;
  for (const store::HeldLease& lease : held) {
    auto it = leased_until_.find(lease.match_id);
    // Unknown here (never taken through this object): nothing vouches for it.
    if (it == leased_until_.end() || now >= it->second - time_fence_margin())
      out.push_back(lease.match_id);
  }
  return out;
}

void ClusterNode::check_time_fence() {
  if (!renewal_) return;
  std::vector<store::MatchId> lost = past_their_lease(renewal_->held);
  if (lost.empty()) return;
  // The renewal is answered now; its own answer, if it ever comes, is dropped.
  PendingRenewal renewal = std::move(*renewal_);
  renewal_.reset();
  for (store::MatchId id : lost) leased_until_.erase(id);
  renewal.done(std::move(lost));
}

void ClusterNode::finish_renewal(std::uint64_t id,
                                 store::Result<std::vector<store::MatchId>> lost) {
  if (!renewal_ || renewal_->id != id) return;  // answered by the time fence already
  PendingRenewal renewal = std::move(*renewal_);
  renewal_.reset();
  if (lost) {
    // Renewed: what is held and not lost runs lease_ms from when it was asked.
    for (store::MatchId mid : *lost) leased_until_.erase(mid);
    for (const store::HeldLease& lease : renewal.held)
      if (std::find(lost->begin(), lost->end(), lease.match_id) == lost->end())
        leased(lease.match_id, renewal.asked);
    // Forget matches given up long ago (their time passed before this renewal).
    std::erase_if(leased_until_, [&](const auto& entry) { return entry.second < renewal.asked; });
    renewal.done(std::move(lost));
    return;
  }
  // Not renewed (the database away): whatever may have run out meanwhile is lost.
  std::vector<store::MatchId> up = past_their_lease(renewal.held);
  if (!up.empty()) {
    for (store::MatchId mid : up) leased_until_.erase(mid);
    renewal.done(std::move(up));
    return;
  }
  renewal.done(std::move(lost));
}

void ClusterNode::new_match(NewMatchDone done) {
  const Clock::time_point asked = clock_();
  done = [this, asked, done = std::move(done)](store::Result<store::HeldLease> lease) {
    if (lease) leased(lease->match_id, asked);
    done(std::move(lease));
  };
  committer_.run_on_writer([this, done = std::move(done)](store::EventStore& db) {
    auto lease = [&]() -> store::Result<store::HeldLease> {
      store::PgStore* pg = as_pg(db);
      if (!pg) return not_postgresql();
      auto id = pg->next_match_id();
      if (!id) return std::unexpected(id.error());
      auto taken = pg->acquire_lease(*id, config_.node, ttl());
      if (!taken) return std::unexpected(taken.error());
      return store::HeldLease{*id, taken->epoch};
    }();
    return std::function<void()>(
        [done, lease = std::move(lease)]() mutable { done(std::move(lease)); });
  });
}

template <class Done, class Result>
void ClusterNode::answer(Done& done, Result result) {
  if (!done) return;  // a release: nobody waits
  committer_.post(
      [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
}

template <class Request, class Run>
void ClusterNode::drain(BatchQueue<Request>& queue, Run run) {
  committer_.run_on_writer([this, &queue, run](store::EventStore& db) {
    bool more = false;
    const std::size_t limit = std::is_same_v<Request, PendingLocate> ? kLocateBatch : kLoginBatch;
    std::vector<Request> batch = queue.take(limit, more);
    if (store::PgStore* pg = as_pg(db)) {
      (this->*run)(*pg, batch);
    } else {
      for (Request& request : batch) {
        if constexpr (std::is_same_v<Request, PendingLocate>) {
          answer(request.done, failed(not_postgresql().error().message));
        } else {
          answer(request.done, not_postgresql());
        }
      }
    }
    // Behind the appends and jobs queued meanwhile: the next batch.
    if (more) drain(queue, run);
    return std::function<void()>();
  });
}

void ClusterNode::locate(store::MatchId id, LocateDone done) {
  const Clock::time_point asked = clock_();
  done = [this, id, asked, done = std::move(done)](Located found) {
    if (found.kind == Located::Kind::Adopted) leased(id, asked);
    done(std::move(found));
  };
  if (locates_.push(PendingLocate{id, std::move(done)}))
    drain(locates_, &ClusterNode::locate_batch);
}

void ClusterNode::locate_batch(store::PgStore& db, std::vector<PendingLocate>& batch) {
  // A statement of the batch failed: each look-up on its own, as before batches.
  auto one_at_a_time = [&](std::span<PendingLocate> rest) {
    for (PendingLocate& pending : rest)
      answer(pending.done, locate_one(db, pending.key, ttl(), config_.node, unserved_log_));
  };
  std::vector<store::MatchId> ids;
  for (const PendingLocate& pending : batch) ids.push_back(pending.key);
  auto statuses = db.match_statuses(ids);
  if (!statuses) return one_at_a_time(batch);

  // Only unfinished matches are taken; the others are Missing.
  std::vector<PendingLocate> open;
  std::vector<store::MatchStatus> open_status;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if ((*statuses)[i] && unfinished(*(*statuses)[i])) {
      open.push_back(std::move(batch[i]));
      open_status.push_back(*(*statuses)[i]);
    } else {
      answer(batch[i].done, Located{});
    }
  }
  if (open.empty()) return;
  ids.clear();
  for (const PendingLocate& pending : open) ids.push_back(pending.key);
  auto leases = db.acquire_leases(ids, config_.node, ttl());
  if (!leases) return one_at_a_time(open);

  // Another node's lease runs: the client goes there.
  std::vector<store::MatchId> held_elsewhere;
  for (std::size_t i = 0; i < open.size(); ++i)
    if (!(*leases)[i] && (*leases)[i].error().code == store::StoreCode::Conflict)
      held_elsewhere.push_back(open[i].key);
  std::unordered_map<store::MatchId, store::Lease> holders;
  if (!held_elsewhere.empty()) {
    auto rows = db.leases(held_elsewhere);
    if (rows)
      for (store::Lease& lease : *rows) holders.emplace(lease.match_id, std::move(lease));
  }
  NodeCache nodes;
  std::vector<store::MatchId> taken;
  std::unordered_map<store::MatchId, std::size_t> index;  // taken id -> its place in `open`
  for (std::size_t i = 0; i < open.size(); ++i) {
    const auto& lease = (*leases)[i];
    if (lease) {
      taken.push_back(open[i].key);
      index.emplace(open[i].key, i);
      continue;
    }
    auto holder = holders.find(open[i].key);
    if (lease.error().code == store::StoreCode::Unserved) {
      answer(open[i].done, unserved(lease.error(), unserved_log_));
    } else if (lease.error().code != store::StoreCode::Conflict || holder == holders.end()) {
      answer(open[i].done, failed(lease.error().message));
    } else {
      answer(open[i].done, elsewhere(db, holder->second, nodes));
    }
  }
  if (taken.empty()) return;

  // The matches taken, read in one transaction; each served as soon as it is folded.
  std::vector<store::HeldLease> refused;  // taken but not served: given back at once
  std::vector<std::pair<std::size_t, std::string>> refusals;
  auto serve = [&](store::MatchId id, store::Result<store::FoldedMatch> match) {
    const std::size_t i = index.at(id);
    const std::int64_t epoch = (*leases)[i]->epoch;
    if (!match) {
      refused.push_back(store::HeldLease{id, epoch});
      refusals.emplace_back(i, match.error().message);
      return;
    }
    const store::MatchPrivacy flags = match->privacy;
    auto restored = to_loaded(std::move(*match));
    if (restored)
      if (auto clock = fold_stored_clock(db, *restored, flags.clock, flags.on_timeout); !clock)
        restored = std::unexpected(clock.error());
    if (!restored) {
      refused.push_back(store::HeldLease{id, epoch});
      refusals.emplace_back(i, std::move(restored.error()));
      return;
    }
    restored->status = open_status[i];  // read before the lease was taken, as one at a time
    answer(open[i].done, adopted(epoch, std::move(*restored)));
  };
  auto loaded = db.load_matches(taken, adoption_policy(db), server::kRecentCommands, serve);
  if (!loaded) {
    // The leases are taken: read each on its own.
    for (const store::MatchId id : taken) {
      const std::size_t i = index.at(id);
      auto match = load_match(db, id, open_status[i]);
      if (match) {
        answer(open[i].done, adopted((*leases)[i]->epoch, std::move(*match)));
        continue;
      }
      (void)db.release_lease(id, (*leases)[i]->fence());
      answer(open[i].done, cannot_serve(id, match.error()));
    }
    return;
  }
  // A match that cannot be served is left alone: its lease given back (one
  // statement; a failure leaves it to run out), its look-up answered.
  (void)db.release_leases(config_.node, refused);
  for (auto& [i, why] : refusals) answer(open[i].done, cannot_serve(open[i].key, why));
}

void ClusterNode::seat_of(const std::string& nickname, SeatDone done) {
  if (seats_.push(PendingSeat{nickname, std::move(done)})) drain(seats_, &ClusterNode::seat_batch);
}

void ClusterNode::seat_batch(store::PgStore& db, std::vector<PendingSeat>& batch) {
  std::vector<std::string> nicknames;
  for (const PendingSeat& pending : batch) nicknames.push_back(pending.key);
  auto seats = db.unfinished_seats_of(nicknames);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    // The batch's statement failed: each on its own, as before batches.
    answer(batch[i].done, seats ? store::Result<std::optional<store::MatchId>>((*seats)[i])
                                : db.unfinished_seat_of(batch[i].key));
  }
}

void ClusterNode::renew(std::vector<store::HeldLease> held, RenewDone done) {
  const std::uint64_t id = ++renewals_asked_;
  renewal_ = PendingRenewal{id, held, std::move(done), clock_()};
  // Ahead of the look-ups waiting: behind a crowd of adoptions it came too late.
  committer_.run_on_writer_first([this, id, held = std::move(held)](store::EventStore& db) {
    store::PgStore* pg = as_pg(db);
    store::Result<std::vector<store::MatchId>> lost =
        pg ? pg->renew_leases(config_.node, held, ttl())
           : store::Result<std::vector<store::MatchId>>(not_postgresql());
    // The nicknames logged in here run out with the leases unless renewed too.
    if (lost)
      if (auto renewed = pg->renew_nicknames(config_.node, ttl()); !renewed)
        lost = std::unexpected(renewed.error());
    return std::function<void()>(
        [this, id, lost = std::move(lost)]() mutable { finish_renewal(id, std::move(lost)); });
  });
}

void ClusterNode::release(std::vector<store::HeldLease> held, ReleaseDone done) {
  committer_.run_on_writer(
      [this, held = std::move(held), done = std::move(done)](store::EventStore& db) {
        store::PgStore* pg = as_pg(db);
        store::Result<std::size_t> released = pg ? pg->release_leases(config_.node, held)
                                                 : store::Result<std::size_t>(not_postgresql());
        if (released)
          if (auto gone = pg->release_nicknames(config_.node); !gone)
            released = std::unexpected(gone.error());
        return std::function<void()>(
            [done, released = std::move(released)]() mutable { done(std::move(released)); });
      });
}

void ClusterNode::open_matches(std::size_t limit, LobbyDone done) {
  committer_.run_on_writer([limit, done = std::move(done)](store::EventStore& db) {
    store::PgStore* pg = as_pg(db);
    using Listed = store::Result<std::vector<server::ListedMatch>>;
    Listed listed = [&]() -> Listed {
      if (!pg) return not_postgresql();
      auto open = pg->open_matches(limit);
      if (!open) return std::unexpected(open.error());
      std::vector<server::ListedMatch> out;
      for (store::OpenMatch& m : *open)
        out.push_back(server::ListedMatch{m.id, m.players, std::move(m.mode), std::move(m.seats),
                                          std::move(m.game)});
      return out;
    }();
    return std::function<void()>(
        [done, listed = std::move(listed)]() mutable { done(std::move(listed)); });
  });
}

void ClusterNode::due_orphans(std::int64_t due_before_ms, std::size_t limit, OrphansDone done) {
  committer_.run_on_writer([due_before_ms, limit, done = std::move(done)](store::EventStore& db) {
    store::PgStore* pg = as_pg(db);
    store::Result<std::vector<store::MatchId>> due =
        pg ? pg->due_orphans(due_before_ms, limit)
           : store::Result<std::vector<store::MatchId>>(not_postgresql());
    return std::function<void()>([done, due = std::move(due)]() mutable { done(std::move(due)); });
  });
}

void ClusterNode::claim_nickname(const std::string& nickname, ClaimDone done) {
  if (claims_.push(PendingClaim{nickname, std::move(done)}))
    drain(claims_, &ClusterNode::claim_batch);
}

void ClusterNode::claim_batch(store::PgStore& db, std::vector<PendingClaim>& batch) {
  // A batch holds each nickname once (BatchQueue), so releases and claims of
  // different nicknames may run in any order.
  std::vector<PendingClaim> claims;
  for (PendingClaim& pending : batch) {
    if (pending.done) {
      claims.push_back(std::move(pending));
    } else {
      // A release that fails leaves the claim to run out after lease_ms.
      (void)db.release_nickname(pending.key, config_.node);
    }
  }
  if (claims.empty()) return;
  std::vector<std::string> nicknames;
  for (const PendingClaim& pending : claims) nicknames.push_back(pending.key);
  auto claimed = db.claim_nicknames(nicknames, config_.node, ttl());
  for (std::size_t i = 0; i < claims.size(); ++i) {
    // The batch's statement failed: each on its own, as before batches.
    answer(claims[i].done, claimed ? std::move((*claimed)[i])
                                   : db.claim_nickname(claims[i].key, config_.node, ttl()));
  }
}

void ClusterNode::release_nickname(const std::string& nickname) {
  // Through the claims' queue: a release and a later claim of one nickname reach
  // the database in the order the loop asked for them.
  if (claims_.push(PendingClaim{nickname, nullptr})) drain(claims_, &ClusterNode::claim_batch);
}

void ClusterNode::unseen_ending(const std::string& nickname, EndingDone done) {
  committer_.run_on_writer([nickname, done = std::move(done)](store::EventStore& db) {
    store::PgStore* pg = as_pg(db);
    store::Result<std::optional<store::UnseenEnding>> ending =
        pg ? pg->unseen_ending_of(nickname)
           : store::Result<std::optional<store::UnseenEnding>>(not_postgresql());
    return std::function<void()>(
        [done, ending = std::move(ending)]() mutable { done(std::move(ending)); });
  });
}

}  // namespace eryantis::app
