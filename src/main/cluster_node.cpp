#include "eryantis/main/cluster_node.hpp"

#include <spdlog/fmt/fmt.h>

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

// Who serves match `id` now that taking it failed: the holder's address, or why not.
Located holder_of(store::PgStore& db, store::MatchId id, const store::StoreError& refused) {
  if (refused.code != store::StoreCode::Conflict) return failed(refused.message);
  auto lease = db.lease(id);
  if (!lease) return failed(lease.error().message);
  if (!*lease) return failed(refused.message);
  auto info = db.node_info((*lease)->node);
  if (!info) return failed(info.error().message);
  if (!*info)
    return failed(fmt::format("node {} serves it but never recorded its address", (*lease)->node));
  Located out;
  out.kind = Located::Kind::Elsewhere;
  out.holder = server::NodeAddress{(*info)->public_address, (*info)->public_web};
  return out;
}

}  // namespace

std::expected<server::RestoredMatch, std::string> read_match(store::EventStore& db,
                                                             store::MatchId id,
                                                             store::MatchStatus status) {
  auto folded =
      db.fold(id, store::FoldPolicy{store::FoldStart::NewestSnapshot, db.options().restore_hashes});
  if (!folded) return std::unexpected(folded.error().message);
  if (folded->divergence)
    return std::unexpected(fmt::format("its log diverges: {}", folded->divergence->reason));
  server::RestoredMatch m;
  m.id = id;
  m.status = status;
  m.last_seq = folded->seq;
  m.state = std::move(folded->state);
  auto seats = db.seats(id);
  if (!seats) return std::unexpected(seats.error().message);
  m.seats = std::move(*seats);
  auto recent = db.recent_command_ids(id, server::kRecentCommands);
  if (!recent) return std::unexpected(recent.error().message);
  m.recent_commands = std::move(*recent);
  auto deadline = db.deadline(id);
  if (!deadline) return std::unexpected(deadline.error().message);
  if (*deadline) m.deadline = from_record(**deadline);
  return m;
}

store::Result<void> register_node(store::PgStore& db, const ClusterConfig& config) {
  std::optional<std::string> web;
  if (!config.public_web.empty()) web = config.public_web;
  return db.register_node(store::NodeInfo{config.node, config.public_address, web});
}

ClusterNode::ClusterNode(store::GroupCommitter& committer, const ClusterConfig& config)
    : committer_(committer), config_(config) {}

void ClusterNode::new_match(NewMatchDone done) {
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

void ClusterNode::locate(store::MatchId id, LocateDone done) {
  committer_.run_on_writer([this, id, done = std::move(done)](store::EventStore& db) {
    auto found = [&]() -> Located {
      store::PgStore* pg = as_pg(db);
      if (!pg) return failed(not_postgresql().error().message);
      auto status = pg->match_status(id);
      if (!status) return failed(status.error().message);
      if (!*status ||
          (**status != store::MatchStatus::Lobby && **status != store::MatchStatus::Running))
        return Located{};  // Missing
      auto lease = pg->acquire_lease(id, config_.node, ttl());
      if (!lease) return holder_of(*pg, id, lease.error());
      auto match = read_match(*pg, id, **status);
      if (!match) {
        (void)pg->release_lease(id, lease->fence());
        return failed(fmt::format("match {} cannot be served: {}", id, match.error()));
      }
      Located out;
      out.kind = Located::Kind::Adopted;
      out.adopted = server::Adopted{lease->epoch, std::move(*match)};
      return out;
    }();
    return std::function<void()>(
        [done, found = std::move(found)]() mutable { done(std::move(found)); });
  });
}

void ClusterNode::seat_of(const std::string& nickname, SeatDone done) {
  committer_.run_on_writer([nickname, done = std::move(done)](store::EventStore& db) {
    store::PgStore* pg = as_pg(db);
    store::Result<std::optional<store::MatchId>> seat =
        pg ? pg->unfinished_seat_of(nickname)
           : store::Result<std::optional<store::MatchId>>(not_postgresql());
    return std::function<void()>(
        [done, seat = std::move(seat)]() mutable { done(std::move(seat)); });
  });
}

void ClusterNode::renew(std::vector<store::HeldLease> held, RenewDone done) {
  // Ahead of the look-ups waiting: behind a crowd of adoptions it came too late.
  committer_.run_on_writer_first(
      [this, held = std::move(held), done = std::move(done)](store::EventStore& db) {
        store::PgStore* pg = as_pg(db);
        store::Result<std::vector<store::MatchId>> lost =
            pg ? pg->renew_leases(config_.node, held, ttl())
               : store::Result<std::vector<store::MatchId>>(not_postgresql());
        // The nicknames logged in here run out with the leases unless renewed too.
        if (lost)
          if (auto renewed = pg->renew_nicknames(config_.node, ttl()); !renewed)
            lost = std::unexpected(renewed.error());
        return std::function<void()>(
            [done, lost = std::move(lost)]() mutable { done(std::move(lost)); });
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
        out.push_back(server::ListedMatch{m.id, m.players, std::move(m.mode), std::move(m.seats)});
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
  committer_.run_on_writer([this, nickname, done = std::move(done)](store::EventStore& db) {
    store::PgStore* pg = as_pg(db);
    store::Result<std::optional<std::string>> holder =
        pg ? pg->claim_nickname(nickname, config_.node, ttl())
           : store::Result<std::optional<std::string>>(not_postgresql());
    return std::function<void()>(
        [done, holder = std::move(holder)]() mutable { done(std::move(holder)); });
  });
}

void ClusterNode::release_nickname(const std::string& nickname) {
  committer_.run_on_writer([this, nickname](store::EventStore& db) {
    // A release that fails leaves the claim to run out after lease_ms.
    if (store::PgStore* pg = as_pg(db)) (void)pg->release_nickname(nickname, config_.node);
    return std::function<void()>();
  });
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
