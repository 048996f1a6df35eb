// Accounts (docs/accounts.md; docs/protocol.md, "Accounts"): register, login with a
// password or a session secret, logout, and a password reset with an operator's
// one-time code. An account's name is its nickname: its seats are its own, so a
// login from another connection or device gets back every match it plays through
// the same path a guest's resume takes (login()).
//
// Passwords are hashed and verified on the PasswordPool, off the event loop: a
// request is checked (shapes, rate limits) and submitted, the loop returns to its
// players, and password_work_done() (woken by the pool) carries on. A login never
// tells which accounts exist: an unknown name is verified against a dummy hash (the
// pool does it, same cost) and answered BAD_LOGIN like a wrong password.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "eryantis/accounts/account_name.hpp"
#include "eryantis/accounts/session_secret.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

namespace {
constexpr std::int64_t kDayMs = 24LL * 60 * 60 * 1000;
constexpr std::string_view kBadLogin =
    "wrong name or password (names are not case-sensitive; passwords are)";

// The address limiter's key: the peer without its port ("1.2.3.4:51234" -> "1.2.3.4",
// "[::1]:51234" -> "::1"), so that a new connection does not bring a fresh bucket.
std::string_view peer_address(std::string_view peer) {
  if (!peer.empty() && peer.front() == '[') {
    const std::size_t close = peer.find(']');
    return close == std::string_view::npos ? peer : peer.substr(1, close - 1);
  }
  const std::size_t colon = peer.rfind(':');
  return colon == std::string_view::npos ? peer : peer.substr(0, colon);
}
}  // namespace

void Server::set_accounts(AccountStore* store, accounts::PasswordPool* pool) {
  account_store_ = store;
  password_pool_ = pool;
}

void Server::load_account_names(std::optional<std::vector<std::string>> name_keys) {
  account_names_unread_ = !name_keys;
  if (name_keys)
    for (std::string& key : *name_keys) account_keys_.insert(std::move(key));
}

void Server::account_error(ConnectionId conn, const std::string& id,
                           const accounts::AccountError& e) {
  if (e.code == accounts::AccountErrorCode::RateLimited) {
    ++stats_.errors;
    if (Session* s = session(conn)) note_rate_limited(*s, "accounts");
    send(conn, protocol::JsonLine("error", id)
                   .field("code", accounts::code_name(e.code))
                   .field("message", e.message)
                   .field("retry_after_ms", e.retry_after_ms)
                   .str());
    return;
  }
  send_error(conn, id, accounts::code_name(e.code), e.message);
}

bool Server::guest_refused(Session& s, const std::string& id, const std::string& nickname) {
  if (!config_.accounts.guests) {
    send_error(s.id, id, error_code_name(ErrorCode::GuestsOff),
               "this server plays with accounts only: register or log in with "
               "{\"type\":\"login\",\"name\":\"...\",\"password\":\"...\"}");
    return true;
  }
  if (account_names_unread_) {
    send_error(s.id, id, error_code_name(ErrorCode::StoreFailure),
               "the server could not read its accounts' names, so no guest may log in (one "
               "could take an account's name): log in to an account, or try later");
    return true;
  }
  const std::string key = accounts::fold_name(nickname);
  if (account_keys_.contains(key) || registering_.contains(key)) {
    send_error(s.id, id, error_code_name(ErrorCode::NicknameTaken),
               nickname + " is a registered account: log in with its password, or choose "
                          "another nickname");
    return true;
  }
  return false;
}

bool Server::account_refused(Session& s, const std::string& id, std::string_view name_key) {
  if (!account_store_ || !password_pool_ || cluster_) {
    // A cluster node's login claims the nickname and looks for its seat on every node
    // (cluster.cpp); an account's login does not yet: refused rather than half done.
    send_error(s.id, id, error_code_name(ErrorCode::AccountsOff),
               cluster_ ? "accounts are not available on a cluster of servers yet: log in with "
                          "a nickname"
                        : "this server has no accounts: log in with a nickname");
    return true;
  }
  if (s.nickname) {
    send_error(s.id, id, error_code_name(ErrorCode::AlreadyLoggedIn),
               "you are already logged in as " + *s.nickname + "; log out first");
    return true;
  }
  if (s.account_busy) {
    send_error(s.id, id, error_code_name(ErrorCode::RateLimited),
               "your previous register or login is being answered; wait for it");
    return true;
  }
  // A full queue answers BUSY before any limit is taken: a refusal that tried no
  // password must not cost the player one of their attempts (a client retries BUSY).
  if (password_pool_->full()) {
    account_error(s.id, id, accounts::PasswordPool::busy());
    return true;
  }
  const std::int64_t now = clock_();
  // Both limits are taken, so a flood from one address cannot spare a name's bucket.
  std::int64_t wait = address_limiter_.take(peer_address(s.peer), now);
  if (!name_key.empty()) wait = std::max(wait, account_limiter_.take(name_key, now));
  if (wait > 0) {
    account_error(s.id, id,
                  accounts::AccountError{accounts::AccountErrorCode::RateLimited,
                                         "too many attempts: try again in " +
                                             std::to_string((wait + 999) / 1000) + " s",
                                         wait});
    return true;
  }
  return false;
}

bool Server::submit_password(Session& s, const std::string& id, PasswordWait wait,
                             accounts::PasswordRequest request) {
  request.id = next_password_request_++;
  const std::uint64_t key = request.id;
  wait.conn = s.id;
  wait.id = id;
  if (auto accepted = password_pool_->submit(std::move(request)); !accepted) {
    // BUSY: no password was tried, so the attempt the limits counted is given back (a
    // client retries BUSY; its retries must not lock the name out).
    const std::int64_t now = clock_();
    address_limiter_.give_back(peer_address(s.peer), now);
    if (wait.kind != PasswordWait::Kind::Register)
      account_limiter_.give_back(wait.name.key.empty() ? "?" : wait.name.key, now);
    account_error(s.id, id, accepted.error());
    return false;
  }
  s.account_busy = true;
  password_waits_.emplace(key, std::move(wait));
  return true;
}

void Server::handle(Session& s, const std::string& id, const protocol::Register& m) {
  protocol::Register r = m;  // its password is wiped once handed on
  auto name = accounts::parse_account_name(r.name);
  if (!name) {
    accounts::wipe(r.password);
    account_error(s.id, id, name.error());
    return;
  }
  if (auto ok = accounts::check_password(r.password); !ok) {
    accounts::wipe(r.password);
    account_error(s.id, id, ok.error());
    return;
  }
  if (account_refused(s, id, "")) {
    accounts::wipe(r.password);
    return;
  }
  // Registering must say a name is taken (to choose another): docs/accounts.md. A
  // guest playing under it now (any case) keeps it too.
  bool taken = account_keys_.contains(name->key) || registering_.contains(name->key);
  for (const auto& [nickname, conn] : online_)
    if (!taken && accounts::fold_name(nickname) == name->key) taken = true;
  for (const auto& [nickname, match] : seated_in_)
    if (!taken && accounts::fold_name(nickname) == name->key) taken = true;
  if (taken) {
    accounts::wipe(r.password);
    send_error(s.id, id, error_code_name(ErrorCode::NameTaken),
               name->display + " is taken: choose another name");
    return;
  }
  PasswordWait wait;
  wait.kind = PasswordWait::Kind::Register;
  wait.name = std::move(*name);
  wait.label = r.label;
  wait.cookie = r.cookie;
  const std::string key = wait.name.key;
  // Reserved while it is hashed and stored: no guest logs in under it meanwhile, and
  // no second register takes it (carry_on lets go of it if the register stops).
  if (submit_password(s, id, std::move(wait),
                      accounts::PasswordRequest{0, accounts::PasswordTask::Hash,
                                                std::move(r.password), ""}))
    registering_.insert(key);
}

void Server::handle(Session& s, const std::string& id, const protocol::AccountLogin& m) {
  protocol::AccountLogin l = m;
  if (l.session) {
    std::string secret = std::move(*l.session);
    accounts::wipe(*l.session);
    session_login(s, id, std::move(secret),
                  l.cookie ? SessionReply::Ticket : SessionReply::Secret);
    return;
  }
  if (l.password.size() > accounts::kMaxPasswordBytes) {
    accounts::wipe(l.password);
    send_error(s.id, id, accounts::code_name(accounts::AccountErrorCode::PasswordLength),
               "a password has at most " + std::to_string(accounts::kMaxPasswordChars) +
                   " characters");
    return;
  }
  const std::string key = accounts::fold_name(l.name);
  if (account_refused(s, id, key.empty() ? std::string_view("?") : std::string_view(key))) {
    accounts::wipe(l.password);
    return;
  }
  s.account_busy = true;
  // The stored hash first (the store's writer), then the pool: an unknown name is
  // verified against the pool's dummy hash, at the same cost.
  account_store_->find_account(
      key, [this, conn = s.id, id, key, label = l.label, cookie = l.cookie,
            password = std::move(l.password)](
               store::Result<std::optional<store::AccountRecord>> found) mutable {
        Session* s = session(conn);
        if (!s) {
          accounts::wipe(password);
          return;
        }
        s->account_busy = false;
        if (!found) {
          accounts::wipe(password);
          send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                     "the accounts could not be read; try again");
          return;
        }
        PasswordWait wait;
        wait.kind = PasswordWait::Kind::Login;
        wait.name.key = key;
        wait.account = *found;
        wait.label = std::move(label);
        wait.cookie = cookie;
        std::string stored = *found ? (*found)->password_hash : std::string();
        submit_password(*s, id, std::move(wait),
                        accounts::PasswordRequest{0, accounts::PasswordTask::Verify,
                                                  std::move(password), std::move(stored)});
      });
}

void Server::session_login(Session& s, const std::string& id, std::string secret,
                           SessionReply reply) {
  if (!account_store_ || cluster_) {
    accounts::wipe(secret);
    send_error(s.id, id, error_code_name(ErrorCode::AccountsOff),
               "this server has no accounts: log in with a nickname");
    return;
  }
  if (s.nickname) {
    accounts::wipe(secret);
    send_error(s.id, id, error_code_name(ErrorCode::AlreadyLoggedIn),
               "you are already logged in as " + *s.nickname + "; log out first");
    return;
  }
  if (s.account_busy) {
    accounts::wipe(secret);
    send_error(s.id, id, error_code_name(ErrorCode::RateLimited),
               "your previous register or login is being answered; wait for it");
    return;
  }
  // No address limit here: guessing a secret takes 2^256 tries, and every browser behind
  // one proxy (TLS in front) shares an address, so after a restart their cookie logins
  // would be refused RATE_LIMITED while their clocks run (review finding). A session
  // login costs a store read, no hashing; the per-connection line limit bounds a flood.
  if (!accounts::secret_shaped(secret)) {
    accounts::wipe(secret);
    send_error(s.id, id, error_code_name(ErrorCode::BadSession),
               "that session has ended (logged out, expired or unknown): log in with your "
               "name and password");
    return;
  }
  s.account_busy = true;
  const std::string digest = accounts::secret_digest(secret);
  account_store_->find_session(
      digest, clock_(),
      [this, conn = s.id, id, secret, digest,
       reply](store::Result<std::optional<store::SessionLookup>> found) {
        Session* s = session(conn);
        if (!s) return;
        s->account_busy = false;
        if (!found) {
          send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                     "the accounts could not be read; try again");
          return;
        }
        if (!*found) {
          send_error(conn, id, error_code_name(ErrorCode::BadSession),
                     "that session has ended (logged out, expired or unknown): log in with "
                     "your name and password");
          return;
        }
        if ((*found)->account.disabled) {
          send_error(conn, id, error_code_name(ErrorCode::AccountDisabled),
                     "this account is disabled; ask the server's operator");
          return;
        }
        s->session_digest = digest;
        account_login(conn, id, (*found)->account, secret, reply, (*found)->expires_ms);
      });
}

void Server::on_session_cookie(ConnectionId id, std::string secret) {
  Session* s = session(id);
  if (!s) {
    accounts::wipe(secret);
    return;
  }
  // After the hello (handle(Hello)): a client reads `welcome` first.
  if (s->greeted || secret.size() > 256) {
    accounts::wipe(secret);
    return;
  }
  s->cookie_secret = std::move(secret);
}

std::optional<Server::CookieGrant> Server::redeem_cookie_ticket(std::string_view ticket) {
  auto it = cookie_tickets_.find(std::string(ticket));
  if (it == cookie_tickets_.end()) return std::nullopt;
  CookieTicket found = std::move(it->second);
  cookie_tickets_.erase(it);  // once only, valid or not
  const std::int64_t now = clock_();
  if (found.ticket_expires_ms <= now || found.session_expires_ms <= now) {
    accounts::wipe(found.secret);
    return std::nullopt;
  }
  return CookieGrant{std::move(found.secret), std::move(found.name),
                     (found.session_expires_ms - now) / 1000};
}

void Server::handle(Session& s, const std::string& id, const protocol::ResetPassword& m) {
  protocol::ResetPassword r = m;
  const std::string key = accounts::fold_name(r.name);
  if (auto ok = accounts::check_password(r.password); !ok) {
    accounts::wipe(r.password);
    account_error(s.id, id, ok.error());
    return;
  }
  // A reset is not a login: it may come from a connection logged in as a guest.
  if (!account_store_ || !password_pool_ || cluster_) {
    accounts::wipe(r.password);
    send_error(s.id, id, error_code_name(ErrorCode::AccountsOff), "this server has no accounts");
    return;
  }
  const std::int64_t now = clock_();
  std::int64_t wait_ms = address_limiter_.take(peer_address(s.peer), now);
  wait_ms = std::max(wait_ms, account_limiter_.take(key.empty() ? "?" : key, now));
  if (wait_ms > 0 || s.account_busy) {
    accounts::wipe(r.password);
    account_error(s.id, id,
                  accounts::AccountError{accounts::AccountErrorCode::RateLimited,
                                         "too many attempts: try again later",
                                         std::max<std::int64_t>(wait_ms, 1)});
    return;
  }
  PasswordWait wait;
  wait.kind = PasswordWait::Kind::Reset;
  wait.name.key = key;
  wait.code_digest = accounts::secret_digest(r.code);
  accounts::wipe(r.code);
  submit_password(s, id, std::move(wait),
                  accounts::PasswordRequest{0, accounts::PasswordTask::Hash, std::move(r.password), ""});
}

void Server::handle(Session& s, const std::string& id, const protocol::Logout& m) {
  if (!s.account || !account_store_) {
    send_error(s.id, id, error_code_name(ErrorCode::NotLoggedIn),
               "you are not logged in to an account");
    return;
  }
  std::optional<std::string> which;
  if (!m.all) which = s.session_digest;
  const store::AccountId account = s.account;
  // Logged out at once (the seat stays the account's); the store follows.
  spdlog::info("conn {}: {} logged out{}", s.id, s.nickname.value_or("?"),
               m.all ? " everywhere" : "");
  detach(s);
  if (s.nickname) {
    auto it = online_.find(*s.nickname);
    if (it != online_.end() && it->second == s.id) online_.erase(it);
  }
  s.nickname.reset();
  s.account = 0;
  s.session_digest.clear();
  stats_.logged_in = online_.size();
  account_store_->end_sessions(
      account, which, [this, conn = s.id, id, all = m.all](store::Result<std::int64_t> ended) {
        if (!session(conn)) return;
        if (!ended) {
          send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                     "logged out here, but the sessions could not be ended in the store: "
                     "log out again");
          return;
        }
        send(conn, protocol::JsonLine("logged_out", id)
                       .field("all", all)
                       .field("ended", *ended)
                       .str());
      });
}

void Server::password_work_done() {
  if (!password_pool_) return;
  for (accounts::PasswordOutcome& outcome : password_pool_->take_done()) {
    auto it = password_waits_.find(outcome.id);
    if (it == password_waits_.end()) continue;
    PasswordWait wait = std::move(it->second);
    password_waits_.erase(it);
    carry_on(std::move(wait), std::move(outcome));
  }
}

void Server::carry_on(PasswordWait wait, accounts::PasswordOutcome outcome) {
  Session* s = session(wait.conn);
  // A register that stops here lets go of the name it reserved.
  const bool registering = wait.kind == PasswordWait::Kind::Register;
  if (!s || outcome.error) {
    if (registering) registering_.erase(wait.name.key);
    if (!s) return;  // gone while its password was worked on
  }
  s->account_busy = false;
  const ConnectionId conn = wait.conn;
  const std::string& id = wait.id;
  if (outcome.error) {
    account_error(conn, id, *outcome.error);  // HASH_FAILED
    return;
  }
  const std::int64_t now = clock_();
  switch (wait.kind) {
    case PasswordWait::Kind::Register: {
      s->account_busy = true;
      store::NewAccount account{wait.name.display, wait.name.key, std::move(outcome.hash), now};
      account_store_->create_account(
          std::move(account), [this, conn, id, key = wait.name.key, display = wait.name.display,
                               label = wait.label,
                               cookie = wait.cookie](store::Result<store::AccountRecord> made) {
            Session* s = session(conn);
            registering_.erase(key);
            // Stored, or taken in the store already: either way an account's name now.
            if (made || made.error().code == store::StoreCode::Conflict) account_keys_.insert(key);
            if (!s) return;
            s->account_busy = false;
            if (!made) {
              if (made.error().code == store::StoreCode::Conflict)
                send_error(conn, id, error_code_name(ErrorCode::NameTaken),
                           display + " is taken: choose another name");
              else
                send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                           "the account could not be stored; try again");
              return;
            }
            spdlog::info("conn {}: registered account {} ({})", conn, made->name, made->id);
            open_account_session(conn, id, *made, label,
                                 cookie ? SessionReply::Ticket : SessionReply::Secret);
          });
      return;
    }
    case PasswordWait::Kind::Login: {
      if (!outcome.ok || !wait.account) {
        send_error(conn, id, error_code_name(ErrorCode::BadLogin), kBadLogin);
        return;
      }
      const store::AccountRecord& account = *wait.account;
      if (account.disabled) {
        send_error(conn, id, error_code_name(ErrorCode::AccountDisabled),
                   "this account is disabled; ask the server's operator");
        return;
      }
      // A hash made with older parameters is stored again (migrated) with the session,
      // and both only if the row is still the one verified (open_account_session).
      open_account_session(conn, id, account, wait.label,
                           wait.cookie ? SessionReply::Ticket : SessionReply::Secret,
                           std::move(outcome.hash));
      return;
    }
    case PasswordWait::Kind::Reset: {
      s->account_busy = true;
      account_store_->reset_password(
          wait.code_digest, wait.name.key, std::move(outcome.hash), now,
          [this, conn, id](store::Result<store::AccountRecord> reset) {
            Session* s = session(conn);
            if (!s) return;
            s->account_busy = false;
            if (!reset) {
              if (reset.error().code == store::StoreCode::NotFound)
                send_error(conn, id, error_code_name(ErrorCode::BadResetCode),
                           "that reset code does not open this account (unknown, used or "
                           "expired): ask the operator for a new one");
              else
                send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                           "the new password could not be stored; try again");
              return;
            }
            spdlog::info("conn {}: password of account {} reset", conn, reset->name);
            // Whoever is logged in to it elsewhere (perhaps with the old password) is
            // let go now; its stored sessions ended with the store's change.
            if (auto it = online_.find(reset->name); it != online_.end() && it->second != conn)
              if (Session* other = session(it->second); other && other->account == reset->id)
                admin_kick(reset->name, "the account's password was reset");
            send(conn, protocol::JsonLine("password_reset", id)
                           .field("name", reset->name)
                           .str());
          });
      return;
    }
  }
}

void Server::open_account_session(ConnectionId conn, const std::string& id,
                                  const store::AccountRecord& account, std::string label,
                                  SessionReply reply, std::string rehash) {
  Session* s = session(conn);
  if (!s) return;
  std::string secret = draw_token(secrets_);
  const std::int64_t expires = clock_() + config_.accounts.session_days * kDayMs;
  // Stored only if the account still has the hash this login verified and is enabled: a
  // reset or a disable that landed while the password was worked on wins.
  store::NewSession row{accounts::secret_digest(secret),
                        account.id,
                        clock_(),
                        expires,
                        std::move(label),
                        account.password_hash,
                        std::move(rehash)};
  const std::string digest = row.token_digest;
  s->account_busy = true;
  account_store_->add_session(
      std::move(row),
      [this, conn, id, account, secret, digest, reply, expires](store::Result<void> added) {
        Session* s = session(conn);
        if (!s) return;
        s->account_busy = false;
        if (!added) {
          if (added.error().code == store::StoreCode::NotFound)
            send_error(conn, id, error_code_name(ErrorCode::BadLogin), kBadLogin);
          else
            send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                       "the session could not be stored; log in again");
          return;
        }
        s->session_digest = digest;
        account_login(conn, id, account, secret, reply, expires);
      });
}

void Server::account_login(ConnectionId conn, const std::string& id,
                           const store::AccountRecord& account, const std::string& secret,
                           SessionReply reply, std::int64_t expires_ms) {
  Session* s = session(conn);
  if (!s) return;
  protocol::Login as;
  as.nickname = account.name;
  switch (reply) {
    case SessionReply::Secret:
      login(*s, id, as, &account, secret);
      return;
    case SessionReply::None:
      login(*s, id, as, &account);
      return;
    case SessionReply::Ticket: {
      // Tickets nobody exchanged are dropped once expired; a page exchanges its
      // own within a second, so the map stays small.
      const std::int64_t now = clock_();
      if (cookie_tickets_.size() >= 256)
        std::erase_if(cookie_tickets_, [now](const auto& entry) {
          return entry.second.ticket_expires_ms <= now;
        });
      // Bounded whatever the rate: when still full, the ticket closest to expiry goes
      // (its page logs in again), never memory.
      if (cookie_tickets_.size() >= kMaxCookieTickets)
        cookie_tickets_.erase(std::min_element(
            cookie_tickets_.begin(), cookie_tickets_.end(), [](const auto& a, const auto& b) {
              return a.second.ticket_expires_ms < b.second.ticket_expires_ms;
            }));
      std::string ticket = draw_token(secrets_);
      cookie_tickets_[ticket] = CookieTicket{secret, account.name, now + kCookieTicketMs,
                                             expires_ms};
      login(*s, id, as, &account, ticket, "ticket");
      return;
    }
  }
}

void Server::admin_accounts(AdminAccountsDone done) {
  if (!account_store_) return done(std::unexpected("this server has no accounts"));
  account_store_->list_accounts(
      [done = std::move(done)](store::Result<std::vector<store::AccountRecord>> all) {
        if (!all) return done(std::unexpected("the accounts could not be read: " + all.error().message));
        done(std::move(*all));
      });
}

void Server::admin_reset_password(std::string_view name, AdminResetDone done) {
  if (!account_store_) return done(std::unexpected("this server has no accounts"));
  const std::string key = accounts::fold_name(name);
  account_store_->find_account(key, [this, done = std::move(done)](
                                        store::Result<std::optional<store::AccountRecord>> found) {
    if (!found) return done(std::unexpected("the accounts could not be read: " + found.error().message));
    if (!*found) return done(std::unexpected(std::string("no such account")));
    std::string code = draw_token(secrets_);
    store::NewPasswordReset reset{accounts::secret_digest(code), (*found)->id,
                                  clock_() + kResetCodeMs};
    const std::string who = (*found)->name;
    account_store_->add_password_reset(
        std::move(reset), [done, code, who](store::Result<void> added) {
          if (!added) return done(std::unexpected("the code could not be stored: " + added.error().message));
          spdlog::warn("admin: a password reset code was issued for account {}", who);
          done(code);
        });
  });
}

void Server::admin_disable(std::string_view name, bool disabled, AdminDisableDone done) {
  if (!account_store_) return done(std::unexpected("this server has no accounts"));
  account_store_->set_disabled(
      accounts::fold_name(name), disabled,
      [this, disabled, done = std::move(done)](store::Result<store::AccountRecord> changed) {
        if (!changed) {
          if (changed.error().code == store::StoreCode::NotFound)
            return done(std::unexpected(std::string("no such account")));
          return done(std::unexpected("the account could not be changed: " + changed.error().message));
        }
        spdlog::warn("admin: account {} {}", changed->name, disabled ? "disabled" : "enabled");
        // Its connection ends now; its sessions ended with the store's change.
        if (disabled)
          if (auto it = online_.find(changed->name); it != online_.end())
            if (Session* s = session(it->second); s && s->account == changed->id)
              admin_kick(changed->name, "the account was disabled");
        done(std::move(*changed));
      });
}

}  // namespace eryantis::server
