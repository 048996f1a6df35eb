// eryantis-bot is a random player of any game: eryantis-test-bot (the bot over the
// tests' games) plays a whole match of Goofspiel — hidden bids, so full updates —
// against a scripted server that runs the match with the game's own interface
// (decide, view, event_for, hash) and plays the computer's seat itself. The real
// server serves only Eriantys for now (docs/games.md), so this is the bot's side
// of the proof.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/fake_server.hpp"
#include "eryantis/client/match_mirror.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "games/games.hpp"
#include "support/child_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis {
namespace {

// One match of `game`: the bot in seat 0, the "computer" in seat 1 (it bids first,
// as the server's computers go before any bot), everything sent as the server would.
class ScriptedMatch {
 public:
  explicit ScriptedMatch(const game::Game& g) : g_(g) {}

  test::FakeServer::Reply serve(const std::string& line) {
    std::lock_guard lock(mutex_);
    lines_.push_back(line);
    json::LineDocument pooled;
    auto& doc = pooled.doc();
    doc.Parse(line.c_str());
    if (doc.HasParseError() || !doc.IsObject()) return {};
    const json::Value* type = json::present_member(doc, "type");
    const json::Value* id = json::present_member(doc, "id");
    // `"id":X,` to echo (requests without one get replies without one).
    const std::string id_json = id ? R"("id":)" + json::text(*id) + "," : std::string();
    const std::string t = type && type->IsString() ? type->GetString() : "";
    if (t == "hello") return {R"({"type":"welcome","protocol":1,"server":"scripted"})" "\n"};
    if (t == "login") return {R"({"type":"logged_in","nickname":"bot","token":"t1"})" "\n"};
    if (t == "create_match") return {create(doc, id_json)};
    if (t == "sync") return {state_line()};
    if (t == "play") return {play(doc, id_json)};
    return {};
  }

  std::vector<std::string> lines() const {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  int refused() const {
    std::lock_guard lock(mutex_);
    return refused_;
  }
  int plays() const {
    std::lock_guard lock(mutex_);
    return plays_;
  }
  bool over() const {
    std::lock_guard lock(mutex_);
    return !state_.empty() && g_.stage(state_) == game::Stage::Over;
  }

 private:
  std::string hash() const { return client::hash_hex(g_.hash(g_.view(state_, 0))); }

  std::string state_line() const {
    return R"({"type":"state","match":1,"game":")" + std::string(g_.name()) +
           R"(","seq":)" + std::to_string(seq_) + R"(,"status":"running","hash":")" + hash() +
           R"(","seats":[{"seat":0,"nickname":"bot","connected":true,"computer":null},)"
           R"({"seat":1,"nickname":"Computer 1","connected":true,"computer":"random"}],)"
           R"("seat":0,"view":)" +
           g_.view_to_json(g_.view(state_, 0), 0) + "}\n";
  }

  // The event as seat 0 is sent it (full updates: with its view), after it is applied.
  std::string event_line(const game::Event& e) const {
    return R"({"type":"event","match":1,"seq":)" + std::to_string(seq_) + R"(,"hash":")" +
           hash() + R"(","event":)" + g_.event_to_json(g_.event_for(e, 0)) + R"(,"view":)" +
           g_.view_to_json(g_.view(state_, 0), 0) + "}\n";
  }

  // The computer bids (its first legal card) whenever it is to act; then the end, if it is.
  std::string computer_then_end() {
    std::string out;
    for (const auto& t : g_.to_act(state_)) {
      if (t.seat != 1) continue;
      auto d = g_.decide(state_, 1, g_.legal_commands(state_, 1).front());
      if (!d) break;
      state_ = d->next;
      ++seq_;
      out += event_line(d->event);
    }
    if (g_.stage(state_) == game::Stage::Over) {
      const auto o = g_.outcome(state_);
      out += R"({"type":"game_over","match":1,"result":{"reason":")" +
             (o ? o->reason : std::string("over")) + R"(","winners":[],"nicknames":[],"draw":false}})" "\n";
    }
    return out;
  }

  std::string create(const json::Value& doc, const std::string& id) {
    const json::Value* options = json::present_member(doc, "options");
    auto o = g_.options_from_request(2, options);
    if (!o) return R"({"type":"error",)" + id + R"("code":"BAD_OPTIONS","message":"no"})" "\n";
    auto created = g_.create_match(*o, game::Seed{7, 9});
    if (!created) return {};
    state_ = g_.apply(g_.empty_state(), *created);
    seq_ = 1;
    std::string out = R"({"type":"joined",)" + id + R"("match":1,"seat":0})" "\n";
    // The computer bids before the bot is told the state (it goes first): its event
    // is folded into the state the bot loads.
    computer_then_end();
    return out + state_line();
  }

  std::string play(const json::Value& doc, const std::string& id) {
    ++plays_;
    const json::Value* c = json::present_member(doc, "command");
    auto command = g_.command_from_json(c ? json::text(*c) : std::string("{}"));
    if (!command) {
      ++refused_;
      return R"({"type":"error",)" + id + R"("code":"INVALID_COMMAND","message":"unreadable"})" "\n";
    }
    auto d = g_.decide(state_, 0, *command);
    if (!d) {
      ++refused_;
      return R"({"type":"error",)" + id + R"("code":")" + d.error().code +
             R"(","message":"refused","match":1,"seq":)" + std::to_string(seq_) + "}\n";
    }
    state_ = d->next;
    ++seq_;
    std::string out = R"({"type":"ack",)" + id + R"("match":1,"seq":)" +
                      std::to_string(seq_) + R"(,"hash":")" + hash() + "\"}\n";
    out += event_line(d->event);
    return out + computer_then_end();
  }

  const game::Game& g_;
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
  game::State state_;
  std::int64_t seq_ = 0;
  int refused_ = 0;
  int plays_ = 0;
};

TEST(AnyGameBot, PlaysAWholeMatchOfGoofspielWithTheGameFromTheStateMessage) {
  const game::Game* goofspiel = test::games().find("goofspiel");
  ASSERT_NE(goofspiel, nullptr);
  ScriptedMatch match(*goofspiel);
  test::FakeServer server([&](int, const std::string& line) { return match.serve(line); });
  ASSERT_GT(server.port(), 0);
  test::TempDir dir("eryantis-any-game-bot");
  test::ChildProcess bot(test::Spawn{
      .argv = {ERYANTIS_TEST_BOT_BIN, "--json", "--quiet", "--port", std::to_string(server.port()),
               "--game", "goofspiel", "--options", R"({"cards":4})", "--players", "2",
               "--computers", "1", "--games", "1", "--duration", "30", "--seed", "3"},
      .stdout_file = dir.file("bot.out"),
      .stderr_file = dir.file("bot.log")});
  const auto code = bot.wait_exit(std::chrono::seconds(90));
  const std::string log = test::read_file(dir.file("bot.log"));
  ASSERT_TRUE(code.has_value()) << log;
  EXPECT_EQ(*code, 0) << log;
  std::istringstream out(test::read_file(dir.file("bot.out")));
  std::string last;
  for (std::string l; std::getline(out, l);)
    if (!l.empty()) last = l;
  rapidjson::Document r;
  r.Parse(last.c_str());
  ASSERT_TRUE(!r.HasParseError() && r.IsObject()) << last << "\n" << log;
  EXPECT_EQ(r["games_finished"].GetUint64(), 1u) << last;
  EXPECT_STREQ(r["game"].GetString(), "goofspiel") << last;
  EXPECT_EQ(r["unexpected_errors"].GetUint64(), 0u) << last;
  EXPECT_EQ(r["syncs"].GetUint64(), 0u) << last;  // every event's view and hash taken
  EXPECT_TRUE(match.over());
  EXPECT_EQ(match.refused(), 0);   // every command the bot chose was legal
  EXPECT_EQ(match.plays(), 4);     // four cards, one bid a round
  // It asked for full updates (Goofspiel hides a bid until both are made) and
  // created the match of its --game with its --options.
  const auto lines = match.lines();
  bool full = false, created = false;
  for (const auto& l : lines) {
    if (l.find(R"("type":"hello")") != std::string::npos)
      full = l.find(R"("updates":"full")") != std::string::npos;
    if (l.find(R"("type":"create_match")") != std::string::npos) {
      created = true;
      EXPECT_NE(l.find(R"("game":"goofspiel")"), std::string::npos) << l;
      EXPECT_NE(l.find(R"("options":{"cards":4})"), std::string::npos) << l;
      EXPECT_NE(l.find(R"("computers":1)"), std::string::npos) << l;
      EXPECT_EQ(l.find(R"("mode")"), std::string::npos) << l;  // Eriantys's shortcut: not sent
    }
  }
  EXPECT_TRUE(full);
  EXPECT_TRUE(created);
}

}  // namespace
}  // namespace eryantis
