// Requests built by ClientProtocol are read back by the server's own decoder;
// server lines built with the server's encoder are read by parse_server_message.
#include "eryantis/client/client_protocol.hpp"

#include <gtest/gtest.h>

#include "eryantis/codec/codec.hpp"
#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/protocol/codec.hpp"

namespace eryantis::client {
namespace {

const game::Game& eriantys() {
  static const auto g = eriantys::make_game();
  return *g;
}

game::Command wrap(const rules::Command& c) {
  return *eriantys().command_from_json(codec::command_to_json(c));
}
std::vector<rules::Command> typed(const std::vector<game::Command>& commands) {
  std::vector<rules::Command> out;
  for (const auto& c : commands) out.push_back(c.get<rules::Command>());
  return out;
}
CreateMatch create_request(int players, std::string mode, int computers = 0,
                           std::string level = {}) {
  CreateMatch r;
  r.players = players;
  r.mode = std::move(mode);
  r.computers = computers;
  r.level = std::move(level);
  return r;
}

template <class T>
T decoded(const std::string& line, std::string* id = nullptr) {
  auto env = protocol::decode_request(line, eriantys());
  EXPECT_TRUE(env.has_value()) << line << ": " << (env ? "" : env.error().message);
  if (!env) return T{};
  if (id) *id = env->id;
  EXPECT_TRUE(std::holds_alternative<T>(env->request)) << line;
  if (!std::holds_alternative<T>(env->request)) return T{};
  return std::get<T>(env->request);
}

TEST(ClientProtocol, RequestsRoundTripThroughTheServerDecoder) {
  std::string id;
  auto hello = decoded<protocol::Hello>(
      ClientProtocol::hello("tests", Updates::Events, ClientProtocol::number_id(4)), &id);
  EXPECT_EQ(hello.protocol, protocol::kProtocolVersion);
  EXPECT_EQ(hello.client, "tests");
  EXPECT_FALSE(hello.full_views);
  EXPECT_EQ(id, "4");
  EXPECT_TRUE(decoded<protocol::Hello>(ClientProtocol::hello("t", Updates::Full)).full_views);

  auto login = decoded<protocol::Login>(
      ClientProtocol::login("alice", "0123abcd", ClientProtocol::string_id("l1")), &id);
  EXPECT_EQ(login.nickname, "alice");
  EXPECT_EQ(login.token, "0123abcd");
  EXPECT_EQ(id, "\"l1\"");
  EXPECT_FALSE(decoded<protocol::Login>(ClientProtocol::login("bob", std::nullopt)).token);

  auto create =
      decoded<protocol::CreateMatchRequest>(ClientProtocol::create_match(create_request(3, "expert")));
  EXPECT_EQ(create.players, 3);
  EXPECT_EQ(create.game_options, R"({"mode":"expert"})");
  EXPECT_EQ(create.computers, 0);
  EXPECT_FALSE(create.level);
  auto against = decoded<protocol::CreateMatchRequest>(
      ClientProtocol::create_match(create_request(2, "expert", 1, "strong")));
  EXPECT_EQ(against.computers, 1);
  EXPECT_EQ(against.level, std::optional<std::string>("strong"));
  // A game's name and its options object (any game's: the server's game reads them).
  CreateMatch of_game = create_request(2, "");
  of_game.game = "eriantys";
  of_game.options_json = R"({"mode":"expert"})";
  auto with_options = decoded<protocol::CreateMatchRequest>(ClientProtocol::create_match(of_game));
  EXPECT_EQ(with_options.game, "eriantys");
  ASSERT_TRUE(with_options.game_options.has_value());
  EXPECT_NE(with_options.game_options->find("expert"), std::string::npos);
  EXPECT_EQ(ClientProtocol::create_match(of_game),
            R"({"type":"create_match","game":"eriantys","players":2,"options":{"mode":"expert"}})");
  EXPECT_EQ(decoded<protocol::QuickJoin>(ClientProtocol::quick_join(2, std::nullopt, {}, "eriantys"))
                .game,
            "eriantys");
  EXPECT_EQ(decoded<protocol::JoinMatch>(ClientProtocol::join_match(42)).match, 42);
  EXPECT_EQ(decoded<protocol::Spectate>(ClientProtocol::spectate(9)).match, 9);
  auto quick = decoded<protocol::QuickJoin>(ClientProtocol::quick_join(4, "simple"));
  EXPECT_EQ(quick.players, 4);
  EXPECT_EQ(quick.mode, std::optional<std::string>("simple"));
  auto any = decoded<protocol::QuickJoin>(ClientProtocol::quick_join(std::nullopt, std::nullopt));
  EXPECT_FALSE(any.players);
  EXPECT_FALSE(any.mode);
  decoded<protocol::LeaveMatch>(ClientProtocol::leave_match());
  decoded<protocol::ListMatches>(ClientProtocol::list_matches());
  decoded<protocol::Sync>(ClientProtocol::sync(ClientProtocol::string_id("s")), &id);
  EXPECT_EQ(id, "\"s\"");
  decoded<protocol::Ping>(ClientProtocol::ping());
  EXPECT_EQ(ClientProtocol::pong(), "");  // an empty line: the keep-alive
}

TEST(ClientProtocol, PlayCarriesCommandSeqAndCommandId) {
  const rules::Command commands[] = {
      rules::PlayAssistant{7}, rules::MoveToIsland{rules::Color::Green, 3}, rules::ChooseCloud{1},
      rules::UseJester{rules::Students{}, rules::Students{}}};
  for (const rules::Command& c : commands) {
    auto play = decoded<protocol::Play>(
        ClientProtocol::play(eriantys(), wrap(c), "alice-1", 17, ClientProtocol::string_id("c1")));
    EXPECT_EQ(play.command.get<rules::Command>(), c);
    EXPECT_EQ(play.expected_seq, 17);
    EXPECT_EQ(play.command_id, "alice-1");
  }
  auto bare = decoded<protocol::Play>(
      ClientProtocol::play(eriantys(), wrap(rules::ChooseWizard{2}), std::nullopt, std::nullopt));
  EXPECT_FALSE(bare.expected_seq);
  EXPECT_FALSE(bare.command_id);
}

TEST(ClientProtocol, ParsesWhatTheServerSends) {
  auto welcome = parse_server_message(protocol::JsonLine("welcome", "1")
                                          .field("server", "eryantis/0.1.0")
                                          .field("protocol", 1)
                                          .field("heartbeat_ms", 5000)
                                          .field("timeout_ms", 15000)
                                          .field("max_line_bytes", std::int64_t{65536})
                                          .str());
  ASSERT_TRUE(welcome);
  EXPECT_EQ(welcome->type, MessageType::Welcome);
  EXPECT_EQ(welcome->id, "1");
  EXPECT_EQ(welcome->heartbeat_ms, 5000);
  EXPECT_EQ(welcome->timeout_ms, 15000);
  EXPECT_EQ(welcome->max_line_bytes, 65536);

  auto logged = parse_server_message(
      R"({"type":"logged_in","id":"l","nickname":"alice","token":"abc","match":3,"seat":1})");
  ASSERT_TRUE(logged);
  EXPECT_EQ(logged->type, MessageType::LoggedIn);
  EXPECT_EQ(logged->id, "\"l\"");
  EXPECT_EQ(logged->token, "abc");
  EXPECT_EQ(logged->match, 3);
  EXPECT_EQ(logged->seat, 1);

  const std::string view = R"({"viewer":0,"state":{"schema":1}})";
  auto state = parse_server_message(
      protocol::JsonLine("state")
          .field("match", 5)
          .field("seq", 9)
          .field("status", "running")
          .field("hash", "00000000deadbeef")
          .raw_field(
              "seats",
              R"([{"type":"seat","seat":0,"nickname":"a","connected":true},{"type":"seat","seat":1,"nickname":null,"connected":false}])")
          .raw_field("to_act", "[0]")
          .raw_field("allowed", R"(["play_assistant"])")
          .null_field("seat")
          .raw_field("view", view)
          .field("surprise", "ignored")
          .str());
  ASSERT_TRUE(state);
  EXPECT_EQ(state->type, MessageType::State);
  EXPECT_EQ(state->match, 5);
  EXPECT_EQ(state->seq, 9);
  EXPECT_EQ(state->status, "running");
  EXPECT_EQ(state->hash, "00000000deadbeef");
  EXPECT_FALSE(state->seat);  // null: a spectator
  EXPECT_EQ(state->to_act, std::vector<int>{0});
  EXPECT_EQ(state->allowed, std::vector<std::string>{"play_assistant"});
  ASSERT_EQ(state->seats.size(), 2u);
  EXPECT_EQ(state->seats[0].nickname, "a");
  EXPECT_TRUE(state->seats[0].connected);
  EXPECT_FALSE(state->seats[1].nickname);
  EXPECT_EQ(state->view_json, view);

  const rules::Event e{1, rules::PlayAssistant{4}, {}, {}};
  auto event = parse_server_message(protocol::JsonLine("event")
                                        .field("match", 5)
                                        .field("seq", 10)
                                        .field("hash", "0123456789abcdef")
                                        .raw_field("event", codec::event_to_json(e))
                                        .raw_field("to_act", "[1]")
                                        .raw_field("allowed", "[]")
                                        .str());
  ASSERT_TRUE(event);
  EXPECT_EQ(event->type, MessageType::Event);
  auto back = codec::event_from_json(event->event_json);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, e);

  auto ack = parse_server_message(R"({"type":"ack","id":"c1","match":5,"seq":10,"replayed":true})");
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->type, MessageType::Ack);
  EXPECT_TRUE(ack->replayed);
  auto error = parse_server_message(
      R"({"type":"error","id":7,"code":"NOT_YOUR_TURN","message":"wait","match":5,"seq":10})");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code, "NOT_YOUR_TURN");
  EXPECT_EQ(error->message, "wait");
  EXPECT_EQ(error->seq, 10);
  auto over = parse_server_message(
      R"({"type":"game_over","match":5,"result":{"type":"result","reason":"last_tower","winners":[0]}})");
  ASSERT_TRUE(over);
  EXPECT_EQ(over->type, MessageType::GameOver);
  EXPECT_NE(over->result_json.find("last_tower"), std::string::npos);
  auto shutdown = parse_server_message(R"({"type":"shutdown","message":"bye"})");
  ASSERT_TRUE(shutdown);
  EXPECT_EQ(shutdown->type, MessageType::Shutdown);
  EXPECT_EQ(shutdown->message, "bye");
  auto list =
      parse_server_message(R"({"type":"match_list","open":[],"running":[{"match":1}],"yours":1})");
  ASSERT_TRUE(list);
  EXPECT_EQ(list->running_json, R"([{"match":1}])");
  EXPECT_EQ(list->yours, 1);
}

TEST(ClientProtocol, ReadsMatchSummariesAndResultsTyped) {
  auto list = parse_server_message(
      R"({"type":"match_list","open":[{"match":3,"players":2,"mode":"expert","status":"lobby",)"
      R"("seats":[{"seat":0,"nickname":"alice","connected":true},{"seat":1,"nickname":null}]},)"
      R"(7,{"players":2},{"match":"4"},{"match":5,"players":"two","mode":1,"seats":{}}],"running":{}})");
  ASSERT_TRUE(list);
  ASSERT_EQ(list->open.size(), 2u);  // entries without an integer match are left out
  EXPECT_EQ(list->open[0].match, 3);
  EXPECT_EQ(list->open[0].players, 2);
  EXPECT_EQ(list->open[0].mode, "expert");
  EXPECT_EQ(list->open[0].status, "lobby");
  ASSERT_EQ(list->open[0].seats.size(), 2u);
  EXPECT_EQ(list->open[0].seats[0].nickname, "alice");
  EXPECT_TRUE(list->open[0].seats[0].connected);
  EXPECT_FALSE(list->open[0].seats[1].nickname);
  EXPECT_EQ(list->open[1].match, 5);  // fields of the wrong type keep their defaults
  EXPECT_EQ(list->open[1].players, 0);
  EXPECT_EQ(list->open[1].mode, "");
  EXPECT_TRUE(list->open[1].seats.empty());
  EXPECT_TRUE(list->running.empty());

  auto over = parse_server_message(
      R"({"type":"game_over","match":1,"result":{"reason":"no_assistants","winners":[1,"x"],)"
      R"("nicknames":["bob",2],"draw":false}})");
  ASSERT_TRUE(over);
  ASSERT_TRUE(over->result);
  EXPECT_EQ(over->result->reason, "no_assistants");
  EXPECT_EQ(over->result->winners, std::vector<int>{1});
  EXPECT_EQ(over->result->nicknames, std::vector<std::string>{"bob"});
  EXPECT_FALSE(over->result->draw);
  auto odd = parse_server_message(R"({"type":"game_over","result":"bob won"})");
  ASSERT_TRUE(odd);
  EXPECT_FALSE(odd->result);
}

TEST(ClientProtocol, RobustToUnknownAndBrokenLines) {
  auto future = parse_server_message(R"({"type":"hologram","x":[1,2,{"y":null}]})");
  ASSERT_TRUE(future);
  EXPECT_EQ(future->type, MessageType::Unknown);
  EXPECT_EQ(future->type_name, "hologram");
  // Fields of the wrong type are left at their defaults, not trusted.
  auto odd = parse_server_message(R"({"type":"ack","match":"five","seq":1.5,"id":{}})");
  ASSERT_TRUE(odd);
  EXPECT_FALSE(odd->match);
  EXPECT_FALSE(odd->seq);
  EXPECT_EQ(odd->id, "");
  EXPECT_FALSE(parse_server_message("{not json"));
  EXPECT_FALSE(parse_server_message("[1,2]"));
  EXPECT_FALSE(parse_server_message(R"({"no_type":1})"));
  EXPECT_FALSE(parse_server_message(""));
  EXPECT_EQ(message_type_name(MessageType::GameOver), "game_over");
}

// The fields of this round (legal, deadline, text), read with type checks, and
// their absence (an older server) told apart from null.
TEST(ClientProtocol, ReadsLegalDeadlineAndText) {
  // Built step by step: g++ 12 warns wrongly about "[" + std::string.
  std::string legal = "[";
  legal += codec::command_to_json(rules::PlayAssistant{3});
  legal += ',';
  legal += codec::command_to_json(rules::MoveMotherNature{2});
  legal += R"(,{"type":"warp"},5,"x"])";
  auto state = parse_server_message(
      R"({"type":"state","match":1,"seq":2,"legal":)" + legal +
      R"(,"deadline":{"action":"skip_turn","seat":1,"nickname":"bob","in_ms":42000}})");
  ASSERT_TRUE(state);
  ASSERT_TRUE(state->legal_json.has_value());
  EXPECT_EQ(typed(decode_commands(eriantys(), *state->legal_json)),
            (std::vector<rules::Command>{rules::PlayAssistant{3}, rules::MoveMotherNature{2}}));
  EXPECT_TRUE(state->deadline_sent);
  ASSERT_TRUE(state->deadline.has_value());
  EXPECT_EQ(state->deadline->action, "skip_turn");
  EXPECT_EQ(state->deadline->seat, 1);
  EXPECT_EQ(state->deadline->nickname, "bob");
  EXPECT_EQ(state->deadline->in_ms, 42000);

  auto event = parse_server_message(
      R"({"type":"event","match":1,"seq":3,"text":"bob resigned","legal":[],"deadline":null})");
  ASSERT_TRUE(event);
  EXPECT_EQ(event->text, "bob resigned");
  ASSERT_TRUE(event->legal_json.has_value());
  EXPECT_TRUE(decode_commands(eriantys(), *event->legal_json).empty());
  EXPECT_TRUE(event->deadline_sent);
  EXPECT_FALSE(event->deadline.has_value());

  // A reader that plays from its mirror leaves `legal` unread.
  auto unread = parse_server_message(
      R"({"type":"state","match":1,"seq":2,"legal":)" + legal + "}", ParseOptions{.legal = false});
  ASSERT_TRUE(unread);
  EXPECT_FALSE(unread->legal_json.has_value());
  EXPECT_EQ(unread->seq, 2);

  auto older = parse_server_message(R"({"type":"seats","match":1,"seats":[]})");
  ASSERT_TRUE(older);
  EXPECT_FALSE(older->deadline_sent);
  EXPECT_FALSE(older->legal_json.has_value());

  // Wrong types: no deadline (but it was sent), a negative delay is due now.
  for (const char* d : {R"({"action":7,"in_ms":5})", R"({"action":"forfeit","in_ms":"5"})",
                        R"({"action":"forfeit"})", "[]", "3"}) {
    auto m = parse_server_message(std::string(R"({"type":"seats","deadline":)") + d + "}");
    ASSERT_TRUE(m) << d;
    EXPECT_TRUE(m->deadline_sent) << d;
    EXPECT_FALSE(m->deadline.has_value()) << d;
  }
  auto due = parse_server_message(
      R"({"type":"seats","deadline":{"action":"forfeit","seat":"x","in_ms":-5}})");
  ASSERT_TRUE(due && due->deadline);
  EXPECT_EQ(due->deadline->in_ms, 0);
  EXPECT_FALSE(due->deadline->seat.has_value());
}

TEST(ClientProtocol, ResignIsAPlayOfTheResignCommand) {
  EXPECT_EQ(ClientProtocol::resign("c-1", "7"),
            R"({"type":"play","id":7,"command":{"type":"resign"},"command_id":"c-1"})");
}

}  // namespace
}  // namespace eryantis::client
