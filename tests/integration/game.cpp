#include "game.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include "eryantis/json/json.hpp"

#include "eryantis/rules/decider.hpp"
#include "eryantis/codec/codec.hpp"

namespace eryantis::integration {

std::optional<rules::State> state_of_view(const Message& m, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<rules::State> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  const rapidjson::Value* view = m.get("view");
  if (!view || !view->IsObject()) return fail("no \"view\" object");
  auto it = view->FindMember("state");
  if (it == view->MemberEnd() || !it->value.IsObject()) return fail("no \"view\".\"state\" object");
  if (it->value.HasMember("seed")) return fail("the view shows the match's secret seed");
  // A view's state is a state without its seed: read it as seed 0.
  rapidjson::Document copy;
  copy.CopyFrom(it->value, copy.GetAllocator());
  copy.AddMember("seed", "0", copy.GetAllocator());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  copy.Accept(writer);
  auto state = codec::state_from_json(std::string_view(buffer.GetString(), buffer.GetSize()));
  if (!state) return fail("the view's state does not decode: " + state.error().message);
  return *state;
}

std::string view_hash(const rules::State& s) {
  return store::hash_to_hex(rules::hash(s));
}

Game::Game(std::string name, GameOptions options, std::uint64_t seed)
    : name_(std::move(name)), options_(options), rng_(seed) {
  players_.resize(static_cast<std::size_t>(options_.players));
  for (int i = 0; i < options_.players; ++i) player(i).nickname = name_ + "_" + std::to_string(i);
}

void Game::connect_all(int port) {
  for (Player& p : players_) {
    p.client = Client::connect(port, p.nickname);
    ASSERT_TRUE(p.client) << p.nickname << ": cannot connect to port " << port;
    auto welcome = p.client->hello(true);
    ASSERT_TRUE(welcome) << p.nickname << ": no reply to hello";
    ASSERT_EQ(welcome->type, "welcome") << welcome->line;
    auto logged = p.client->login(p.nickname);
    ASSERT_TRUE(logged) << p.nickname << ": no reply to login";
    ASSERT_EQ(logged->type, "logged_in") << logged->line;
    p.token = logged->str("token");
    ASSERT_FALSE(p.token.empty()) << logged->line;
  }
}

void Game::create_and_join() {
  create();
  if (::testing::Test::HasFatalFailure()) return;
  join_others();
}

void Game::create() {
  auto created = player(0).client->create(options_.players, rules::mode_name(options_.mode));
  ASSERT_TRUE(created) << name_ << ": no reply to create_match";
  ASSERT_EQ(created->type, "joined") << created->line;
  match_ = created->i64("match");
  ASSERT_GT(match_, 0) << created->line;
  player(0).seat = static_cast<int>(created->i64("seat"));
  ASSERT_EQ(player(0).seat, 0) << created->line;
}

void Game::join_others() {
  for (int i = 1; i < options_.players; ++i) {
    auto joined = player(i).client->join(match_);
    ASSERT_TRUE(joined) << name_ << ": no reply to join_match";
    ASSERT_EQ(joined->type, "joined") << joined->line;
    EXPECT_EQ(joined->i64("match"), match_);
    player(i).seat = static_cast<int>(joined->i64("seat"));
  }
  std::set<int> seats;
  for (Player& p : players_) seats.insert(p.seat);
  EXPECT_EQ(static_cast<int>(seats.size()), options_.players) << "every player has its own seat";
  // Everyone's `state` (sent right after `joined`), unless already handled.
  for (Player& p : players_) {
    if (p.have_state) continue;
    auto state = p.client->wait_type("state", Millis(5000));
    ASSERT_TRUE(state) << p.nickname << ": no state after joining";
    p.client->inbox().push_front(*state);  // handled in order by pump()
  }
  pump();
  for (Player& p : players_) ASSERT_TRUE(p.have_state) << p.nickname;
}

void Game::apply_view(Player& p, const Message& m, bool is_event) {
  std::string error;
  auto state = state_of_view(m, &error);
  ASSERT_TRUE(state) << name_ << "/" << p.nickname << ": " << error << "\n" << m.line;
  const std::string hash = m.str("hash");
  EXPECT_EQ(hash, view_hash(*state)) << name_ << ": the hash does not match the view\n" << m.line;
  const store::Seq seq = m.i64("seq");
  if (is_event) {
    EXPECT_EQ(seq, p.seq + 1) << name_ << "/" << p.nickname << ": event seqs must be dense";
    // Folding the event onto the previous view must give the new view.
    auto event = codec::event_from_json(m.json("event"));
    EXPECT_TRUE(event) << name_
                       << ": the event does not decode: " << (event ? "" : event.error().message)
                       << "\n"
                       << m.line;
    if (event) event_types_[seq] = std::string(rules::command_type(event->command));
    if (event && p.have_state) {
      rules::State folded = rules::apply(p.state, *event);
      folded.seed = rules::MatchSeed{};
      EXPECT_EQ(view_hash(folded), hash) << name_ << "/" << p.nickname << ": applying event " << seq
                                         << " to the previous view does not give the new view\n"
                                         << m.line;
    }
    ++p.events_seen;
  } else {
    // A state never goes back: acknowledged events are durable.
    EXPECT_GE(seq, p.seq) << name_ << "/" << p.nickname << ": the match went back in time";
    if (p.have_state && seq == p.seq) {
      EXPECT_EQ(view_hash(p.state), hash)
          << name_ << "/" << p.nickname << ": same seq " << seq << ", other state";
    }
    if (!acked_.empty()) {
      EXPECT_GE(seq, acked_.rbegin()->first)
          << name_ << ": an acknowledged command is missing after a restart";
    }
  }
  p.state = std::move(*state);
  p.seq = seq;
  p.have_state = true;
  max_seq_ = std::max(max_seq_, seq);
}

void Game::handle(int i, const Message& m) {
  Player& p = player(i);
  ASSERT_TRUE(m.valid) << name_ << "/" << p.nickname << ": the server sent a line that is not a "
                       << "JSON object: " << m.line;
  if (m.type == "state" || m.type == "event") {
    if (match_) {
      EXPECT_EQ(m.i64("match"), match_) << m.line;
    }
    apply_view(p, m, m.type == "event");
  } else if (m.type == "ack") {
    EXPECT_TRUE(replied_ids_.insert(m.id).second) << name_ << ": a second reply to " << m.line;
    ASSERT_TRUE(pending_ && pending_->id == m.id && pending_->player == i)
        << name_ << "/" << p.nickname << ": an ack for no command of ours: " << m.line;
    const store::Seq seq = m.i64("seq");
    EXPECT_EQ(seq, pending_->expected_seq + 1) << m.line;
    EXPECT_FALSE(m.has("replayed")) << m.line;
    ++acked_[seq];
    awaited_seq_ = std::max(awaited_seq_, seq);
    pending_.reset();
  } else if (m.type == "error") {
    const bool ours = pending_ && pending_->id == m.id && pending_->player == i;
    if (ours) {
      EXPECT_TRUE(replied_ids_.insert(m.id).second) << name_ << ": a second reply to " << m.line;
      if (!options_.tolerate_command_errors)
        ADD_FAILURE() << name_ << "/" << p.nickname << ": legal command " << pending_->command
                      << " refused: " << m.line;
      pending_.reset();
    } else if (!options_.tolerate_command_errors) {
      ADD_FAILURE() << name_ << "/" << p.nickname << ": unexpected error: " << m.line;
    }
  } else if (m.type == "game_over") {
    EXPECT_EQ(m.i64("match"), match_) << m.line;
    EXPECT_TRUE(m.has("result")) << m.line;
    EXPECT_FALSE(p.game_over) << name_ << "/" << p.nickname << ": game_over twice";
    EXPECT_EQ(p.state.phase, rules::Phase::GameOver)
        << name_ << "/" << p.nickname << ": game_over before the final event";
    p.game_over = true;
  } else if (m.type == "ping") {
    p.client->send_line("");  // any line is a sign of life
  } else if (m.type == "shutdown") {
    p.shutdown_seen = true;
  }
  // seats, pong, welcome, ...: nothing to do.
}

void Game::pump() {
  for (int i = 0; i < options_.players; ++i) {
    Player& p = player(i);
    if (!p.client) continue;
    p.client->pump();
    while (p.client && !p.client->inbox().empty()) {
      Message m = std::move(p.client->inbox().front());
      p.client->inbox().pop_front();
      handle(i, m);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

bool Game::maybe_act() {
  if (options_.paused || pending_ || over() || match_ == 0) return false;
  const Player* any = nullptr;
  std::set<int> connected;
  for (const Player& p : players_) {
    if (!p.client || p.client->closed()) continue;
    if (!p.have_state || p.seq != max_seq_ || p.seq < awaited_seq_) return false;  // catching up
    connected.insert(p.seat);
    any = &p;
  }
  if (!any || any->state.phase == rules::Phase::GameOver) return false;
  std::vector<rules::Seat> seats;
  for (rules::Seat s : rules::seats_to_act(any->state))
    if (connected.count(s)) seats.push_back(s);
  if (seats.empty()) return false;  // an absent seat must act: the server's timers decide
  const rules::Seat seat = seats[rng_() % seats.size()];
  const auto legal = rules::legal_commands(any->state, seat);
  EXPECT_FALSE(legal.empty()) << name_ << ": seat " << int(seat) << " must act but has no command";
  if (legal.empty()) return false;
  const std::string command = codec::command_to_json(legal[rng_() % legal.size()]);
  for (int i = 0; i < options_.players; ++i) {
    Player& p = player(i);
    if (p.seat != seat) continue;
    ++commands_sent_;
    const std::string id =
        p.client->send_play(command, p.seq, name_ + "-c" + std::to_string(commands_sent_));
    pending_ = Pending{i, id, command, p.seq};
    return true;
  }
  return false;
}

int Game::count_events(const std::string& type) const {
  int n = 0;
  for (const auto& [seq, t] : event_types_) n += t == type;
  return n;
}

bool Game::idle() const {
  if (pending_) return false;
  for (const Player& p : players_)
    if (p.client && !p.client->closed() &&
        (!p.have_state || p.seq != max_seq_ || p.seq < awaited_seq_))
      return false;
  return true;
}

bool Game::over() const {
  for (const Player& p : players_)
    if (!p.game_over) return false;
  return true;
}

void Game::disconnect(int i) {
  player(i).client.reset();
}

void Game::lost_server() {
  for (Player& p : players_) p.client.reset();
  pending_.reset();  // its outcome is unknown: the next state tells
}

std::optional<Message> Game::reconnect(int i, int port) {
  Player& p = player(i);
  p.client = Client::connect(port, p.nickname);
  EXPECT_TRUE(p.client) << p.nickname << ": cannot reconnect";
  if (!p.client) return std::nullopt;
  auto welcome = p.client->hello(true);
  EXPECT_TRUE(welcome && welcome->type == "welcome") << (welcome ? welcome->line : "(nothing)");
  auto logged = p.client->login(p.nickname, p.token);
  EXPECT_TRUE(logged) << p.nickname << ": no reply to login";
  if (!logged) return std::nullopt;
  EXPECT_EQ(logged->type, "logged_in") << logged->line;
  EXPECT_EQ(logged->str("token"), p.token) << logged->line;
  if (logged->has("match")) {
    EXPECT_EQ(logged->i64("match"), match_) << logged->line;
    EXPECT_EQ(logged->i64("seat"), p.seat) << logged->line;
  } else if (!p.game_over) {
    // The match ended while we were away (its game_over was lost with the server).
    p.game_over = true;
    ended_while_away_ = true;
  }
  return logged;
}

bool drive(const std::vector<Game*>& games, std::chrono::milliseconds timeout,
           const std::function<bool()>& stop) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    for (Game* g : games) {
      g->pump();
      if (::testing::Test::HasFatalFailure()) return false;
    }
    if (stop && stop()) return true;
    bool all_over = true;
    for (Game* g : games) {
      g->maybe_act();
      all_over = all_over && g->over();
    }
    if (all_over) return true;
    std::vector<pollfd> fds;
    for (Game* g : games)
      for (int i = 0; i < g->players(); ++i)
        if (const auto& c = g->player(i).client; c && !c->closed())
          fds.push_back(pollfd{c->fd(), POLLIN, 0});
    if (fds.empty()) return false;
    ::poll(fds.data(), fds.size(), 20);
  }
  return false;
}

}  // namespace eryantis::integration
