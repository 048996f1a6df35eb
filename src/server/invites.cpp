// Private matches and their invite codes (docs/accounts.md, "Invite links and private
// matches"; docs/protocol.md, "Private matches"). The codes are made and checked by
// accounts/invite.hpp (128 bits from the OS CSPRNG, only a digest stored); this file
// decides who may use or revoke one. A private match is never listed (lobby.cpp), and
// without its code it reads as a match that does not exist.
#include <spdlog/spdlog.h>

#include <cassert>

#include "eryantis/accounts/invite.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

namespace {

accounts::Invite to_accounts(const store::MatchInvite& row) {
  return accounts::Invite{row.digest,     row.match_id, row.created_ms, row.expires_ms,
                          row.max_uses,   row.uses,     row.revoked};
}

store::MatchInvite to_store(const accounts::Invite& invite) {
  return store::MatchInvite{invite.digest,   invite.match, invite.created_ms, invite.expires_ms,
                            invite.max_uses, invite.uses,  invite.revoked};
}

}  // namespace

std::expected<std::size_t, Server::InviteRefusal> Server::check_invite(
    const Room& room, const std::optional<std::string>& code, bool join) const {
  // No code, or one that opens nothing: the same answer as a match id that does not exist
  // (missing_match), so trying ids tells nobody which private matches are running.
  const auto missing = [&] {
    return std::unexpected(InviteRefusal{std::string(error_code_name(ErrorCode::NoSuchMatch)),
                                         missing_match(room.id, join, code.has_value())});
  };
  if (!code) return missing();
  const auto refuse = [](const accounts::AccountError& e) {
    return std::unexpected(InviteRefusal{std::string(accounts::code_name(e.code)), e.message});
  };
  // A malformed code is refused before the match is looked up (malformed_invite), so this
  // answer says nothing about the match either.
  auto digest = accounts::invite_digest(*code);
  if (!digest) return refuse(digest.error());
  for (std::size_t i = 0; i < room.invites.size(); ++i) {
    if (room.invites[i].digest != *digest) continue;
    accounts::Invite trial = to_accounts(room.invites[i]);
    if (!join) trial.uses = 0;  // a watch takes no use: only revoked and expired count
    if (auto redeemed = accounts::redeem_invite(trial, room.id, clock_()); !redeemed)
      return refuse(redeemed.error());
    return i;
  }
  // A code of another match, or of none.
  return missing();
}

std::string Server::missing_match(store::MatchId mid, bool join, bool with_code) {
  std::string words = join ? "there is no open match " : "there is no match ";
  words.append(std::to_string(mid));
  if (with_code) words.append(" that this invite code opens: ask for a new link");
  return words;
}

std::optional<Server::InviteRefusal> Server::malformed_invite(
    const std::optional<std::string>& code) {
  if (!code) return std::nullopt;
  auto digest = accounts::invite_digest(*code);
  if (digest) return std::nullopt;
  return InviteRefusal{std::string(accounts::code_name(digest.error().code)),
                       digest.error().message};
}

std::string Server::new_invite(Room& room, MatchWrite& w) {
  // PRECONDITION: the arguments are within make_invite's bounds, so it cannot refuse.
  auto made = accounts::make_invite(room.id, accounts::kMaxInviteUses,
                                    accounts::kDefaultInviteLifetimeMs, clock_());
  assert(made);
  room.invites.push_back(to_store(made->invite));
  w.invites.push_back(room.invites.back());
  return std::move(made->code);
}

std::string Server::invite_line(const std::string& id, store::MatchId match,
                                const std::optional<std::string>& code) {
  protocol::JsonLine line("invite", id);
  line.field("match", match);
  if (code)
    line.field("code", *code);
  else
    line.null_field("code");
  return line.str();
}

void Server::handle(Session& s, const std::string& id, const protocol::RevokeInvite& m) {
  auto it = s.spectator ? seated_in_.end() : seated_in_.find(*s.nickname);
  Room* room = it == seated_in_.end() ? nullptr : find_room(it->second);
  if (!room) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch),
               "you are not in a match: only a private match's creator revokes its invite");
    return;
  }
  const ConnectionId conn = s.id;
  const store::MatchId mid = room->id;
  const std::string nickname = *s.nickname;
  const bool renew = m.renew;
  room->enqueue(conn, id, [this, conn, id, mid, nickname, renew] {
    Room* room = find_room(mid);
    if (!room) return;
    if (!room->private_match) {
      send_error(conn, id, error_code_name(ErrorCode::NotPrivate),
                 "match " + std::to_string(mid) +
                     " is public: it has no invite code (create a match with \"private\":true)",
                 room);
      return;
    }
    if (match_owner(*room) != nickname) {
      send_error(conn, id, error_code_name(ErrorCode::NotCreator),
                 "only " + match_owner(*room) + ", who created match " + std::to_string(mid) +
                     ", may revoke its invite",
                 room);
      return;
    }
    MatchWrite w;
    w.match = mid;
    w.expected_seq = room->seq;
    const std::vector<store::MatchInvite> before = room->invites;
    for (store::MatchInvite& invite : room->invites) {
      if (invite.revoked) continue;
      invite.revoked = true;
      w.invites.push_back(invite);
    }
    std::optional<std::string> code;
    if (renew) code = new_invite(*room, w);
    room->persist(std::move(w), [this, conn, id, mid, code, before](
                                    store::Result<store::AppendOutcome> done, Room* room) {
      if (!done) {
        if (room) room->invites = before;  // nothing changed on disk: the old code still works
        send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                   "the invite could not be revoked: " + done.error().message);
        return;
      }
      spdlog::info("match {}: invite revoked{}", mid, code ? ", a new one issued" : "");
      send(conn, invite_line(id, mid, code));
    });
  });
}

}  // namespace eryantis::server
