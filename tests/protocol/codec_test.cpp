#include "eryantis/protocol/codec.hpp"

#include <gtest/gtest.h>

#include <string>

#include "eryantis/codec/codec.hpp"
#include "eryantis/eriantys/game/game.hpp"

namespace eryantis::protocol {
namespace {

// The game that reads a play's command: Eriantys, as for a player in one of its matches.
const game::Game& eriantys() {
  static const auto g = eryantis::eriantys::make_game();
  return *g;
}

std::expected<Envelope, ProtocolError> decode_request(std::string_view line) {
  return protocol::decode_request(line, eriantys());
}

ProtocolError error_of(std::string_view line) {
  auto r = decode_request(line);
  EXPECT_FALSE(r.has_value()) << line;
  return r ? ProtocolError{} : r.error();
}

TEST(Codec, DecodesEveryRequestType) {
  auto hello =
      decode_request(R"({"type":"hello","protocol":1,"client":"t","updates":"events","id":1})");
  ASSERT_TRUE(hello);
  EXPECT_EQ(hello->id, "1");
  EXPECT_EQ(std::get<Hello>(hello->request).protocol, 1);
  EXPECT_FALSE(std::get<Hello>(hello->request).full_views);

  auto login = decode_request(R"({"type":"login","nickname":"alice","token":"abc","id":"x"})");
  ASSERT_TRUE(login);
  EXPECT_EQ(login->id, "\"x\"");
  EXPECT_EQ(std::get<Login>(login->request).nickname, "alice");
  EXPECT_EQ(std::get<Login>(login->request).token, "abc");

  auto create = decode_request(R"({"type":"create_match","players":4,"mode":"expert"})");
  ASSERT_TRUE(create);
  EXPECT_EQ(std::get<CreateMatchRequest>(create->request).players, 4);
  // The top-level mode is the shorthand of options.mode: the game reads one object.
  EXPECT_EQ(std::get<CreateMatchRequest>(create->request).game, "");
  EXPECT_EQ(std::get<CreateMatchRequest>(create->request).game_options, R"({"mode":"expert"})");

  EXPECT_EQ(
      std::get<JoinMatch>(decode_request(R"({"type":"join_match","match":7})")->request).match, 7);
  EXPECT_EQ(std::get<Spectate>(decode_request(R"({"type":"spectate","match":9})")->request).match,
            9);
  auto quick = decode_request(R"({"type":"quick_join","players":3})");
  ASSERT_TRUE(quick);
  EXPECT_EQ(std::get<QuickJoin>(quick->request).players, 3);
  EXPECT_FALSE(std::get<QuickJoin>(quick->request).mode);
  EXPECT_TRUE(
      std::holds_alternative<ListMatches>(decode_request(R"({"type":"list_matches"})")->request));
  EXPECT_TRUE(
      std::holds_alternative<LeaveMatch>(decode_request(R"({"type":"leave_match"})")->request));
  EXPECT_TRUE(std::holds_alternative<Sync>(decode_request(R"({"type":"sync"})")->request));
  EXPECT_TRUE(std::holds_alternative<Ping>(decode_request(R"({"type":"ping"})")->request));
  // move_log: from seq 1 unless told; a seq below 1 or not an integer is refused.
  auto log = decode_request(R"({"type":"move_log","id":"l"})");
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_EQ(std::get<MoveLog>(log->request).from, 1);
  EXPECT_EQ(std::get<MoveLog>(decode_request(R"({"type":"move_log","from":41})")->request).from,
            41);
  for (const char* bad : {R"({"type":"move_log","from":0})", R"({"type":"move_log","from":"2"})",
                          R"({"type":"move_log","from":1.5})"}) {
    auto refused = decode_request(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().code, ErrorCode::InvalidField) << bad;
  }

  auto play = decode_request(
      R"({"type":"play","id":5,"expected_seq":12,"command_id":"c1","command":{"type":"move_to_island","color":"red","island":4}})");
  ASSERT_TRUE(play) << play.error().message;
  const auto& p = std::get<Play>(play->request);
  EXPECT_EQ(p.expected_seq, 12);
  EXPECT_EQ(p.command_id, "c1");
  EXPECT_EQ(p.command.get<rules::Command>(),
            (rules::Command{rules::MoveToIsland{rules::Color::Red, 4}}));
}

TEST(Codec, BadInputGetsItsError) {
  EXPECT_EQ(error_of("not json").code, ErrorCode::BadJson);
  EXPECT_EQ(error_of("").code, ErrorCode::BadJson);
  EXPECT_EQ(error_of("[1,2]").code, ErrorCode::BadJson);
  EXPECT_EQ(error_of("\"text\"").code, ErrorCode::BadJson);
  EXPECT_EQ(error_of(R"({"type":"ping"} trailing)").code, ErrorCode::BadJson);
  EXPECT_EQ(error_of(R"({"id":3})").code, ErrorCode::MissingField);
  EXPECT_EQ(error_of(R"({"type":42})").code, ErrorCode::InvalidField);
  auto unknown = error_of(R"({"type":"dance","id":3})");
  EXPECT_EQ(unknown.code, ErrorCode::UnknownType);
  EXPECT_EQ(unknown.id, "3");
  EXPECT_NE(unknown.message.find("dance"), std::string::npos);
  EXPECT_EQ(error_of(R"({"type":"login"})").code, ErrorCode::MissingField);
  EXPECT_EQ(error_of(R"({"type":"login","nickname":5})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"create_match","players":5})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"create_match","players":"2"})").code, ErrorCode::InvalidField);
  // A mode is a word the game reads (BAD_OPTIONS from the server when it has no
  // such mode); anything else is not a mode at all.
  EXPECT_TRUE(decode_request(R"({"type":"create_match","players":2,"mode":"hard"})"));
  EXPECT_EQ(error_of(R"({"type":"create_match","players":2,"mode":"Hard!"})").code,
            ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"create_match","players":2,"mode":5})").code,
            ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"create_match","players":0})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"join_match","match":-1})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"join_match","match":1.5})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"play"})").code, ErrorCode::MissingField);
  EXPECT_EQ(error_of(R"({"type":"play","command":[]})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"play","command":{"type":"fly"}})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"play","command":{"type":"play_assistant"}})").code,
            ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"ping","id":{"a":1}})").code, ErrorCode::InvalidField);
  EXPECT_EQ(error_of(R"({"type":"ping","id":1e400})").code, ErrorCode::BadJson);  // number too big
  EXPECT_EQ(error_of("{\"type\":\"ping\",\"x\":\"\xff\xfe\"}").code, ErrorCode::BadJson);
}

TEST(Codec, DuplicateKeysAreRefusedAtAnyDepth) {
  auto top = error_of(R"({"type":"ping","type":"hello","id":1})");
  EXPECT_EQ(top.code, ErrorCode::BadJson);
  EXPECT_NE(top.message.find("\"type\""), std::string::npos);
  EXPECT_EQ(top.id, "");  // which id would it be?
  EXPECT_EQ(
      error_of(
          R"({"type":"play","command":{"type":"use_jester","from_card":{"red":1,"red":2},"from_entrance":{"blue":1}}})")
          .code,
      ErrorCode::BadJson);
  EXPECT_TRUE(decode_request(R"({"type":"ping","a":{"x":1},"b":{"x":1}})").has_value());
}

TEST(Codec, TheIdIsEchoedByValue) {
  auto zero = decode_request(R"({"type":"ping","id":-0})");
  ASSERT_TRUE(zero.has_value());
  EXPECT_EQ(zero->id, "0");  // -0 is the integer 0
  auto escaped = decode_request(R"({"type":"ping","id":"\u0041b"})");
  ASSERT_TRUE(escaped.has_value());
  EXPECT_EQ(escaped->id, "\"Ab\"");  // the same string, written the server's way
}

TEST(Codec, ANicknameOfAnyLengthIsLeftToTheServer) {
  auto long_name =
      decode_request(R"({"type":"login","nickname":")" + std::string(300, 'a') + "\"}");
  ASSERT_TRUE(long_name.has_value());  // the server answers INVALID_NICKNAME
  EXPECT_EQ(std::get<Login>(long_name->request).nickname.size(), 300u);
}

TEST(Codec, ResignIsAPlayCommand) {
  auto r = decode_request(R"({"type":"play","command":{"type":"resign"}})");
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(std::holds_alternative<rules::Resign>(
      std::get<Play>(r->request).command.get<rules::Command>()));
}

// "play" reads its command from the parsed line: what it accepts and the messages
// it gives are the command codec's own.
TEST(Codec, PlayCommandsDecodeAsTheCommandCodecDoes) {
  for (const std::string command : {
           R"({"type":"move_to_island","color":"red","island":4})",
           R"({"type":"use_jester","from_card":{"red":1},"from_entrance":{"blue":1}})",
           R"({"type":"create_match","players":2,"mode":"simple","seed":"36893488147419103234"})",
           R"({"type":"fly"})",
           R"({"type":"play_assistant","value":300})",
           R"({"type":"use_minstrel","from_entrance":{"gold":1},"from_dining":{}})",
       }) {
    auto request = decode_request(R"({"type":"play","id":1,"command":)" + command + "}");
    auto direct = codec::command_from_json(command);
    if (direct) {
      ASSERT_TRUE(request) << command << ": " << request.error().message;
      EXPECT_EQ(std::get<Play>(request->request).command.get<rules::Command>(), *direct)
          << command;
    } else {
      ASSERT_FALSE(request) << command;
      EXPECT_EQ(request.error().code, ErrorCode::InvalidField);
      EXPECT_EQ(request.error().message, "command: " + direct.error().message);
    }
  }
}

TEST(Codec, DeepNestingAndHugeNumbersDoNotCrash) {
  std::string deep(1 << 20, '[');
  EXPECT_EQ(error_of(deep).code, ErrorCode::BadJson);
  EXPECT_EQ(error_of(R"({"type":"join_match","match":123456789012345678901234567890})").code,
            ErrorCode::InvalidField);
}

TEST(Codec, EncodesOneLine) {
  std::string line = JsonLine("welcome", "\"abc\"")
                         .field("protocol", 1)
                         .field("name", "a\nb")
                         .field("ok", true)
                         .str();
  EXPECT_EQ(line, R"({"type":"welcome","id":"abc","protocol":1,"name":"a\nb","ok":true})");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  std::string with_raw =
      JsonLine("x").raw_field("list", JsonArray().number(1).string("q").str()).str();
  EXPECT_EQ(with_raw, R"({"type":"x","list":[1,"q"]})");
  EXPECT_EQ(json_quote("a\"b"), R"("a\"b")");
}

}  // namespace
TEST(CreateMatchGameAndOptions, AreDecodedForTheGameToRead) {
  auto plain = decode_request(R"({"type":"create_match","players":2})");
  ASSERT_TRUE(plain);
  EXPECT_EQ(std::get<CreateMatchRequest>(plain->request).game, "");
  EXPECT_FALSE(std::get<CreateMatchRequest>(plain->request).game_options);

  auto named = decode_request(
      R"({"type":"create_match","players":3,"game":"eriantys","options":{"mode":"expert","x":1}})");
  ASSERT_TRUE(named);
  const auto& n = std::get<CreateMatchRequest>(named->request);
  EXPECT_EQ(n.game, "eriantys");
  EXPECT_EQ(n.game_options, R"({"mode":"expert","x":1})");  // unknown members: the game's call

  // options' own mode wins; the top-level one is merged in only when options lacks it.
  auto both = decode_request(
      R"({"type":"create_match","players":2,"mode":"simple","options":{"mode":"expert"}})");
  ASSERT_TRUE(both);
  EXPECT_EQ(std::get<CreateMatchRequest>(both->request).game_options, R"({"mode":"expert"})");
  auto merged =
      decode_request(R"({"type":"create_match","players":2,"mode":"expert","options":{"a":1}})");
  ASSERT_TRUE(merged);
  EXPECT_EQ(std::get<CreateMatchRequest>(merged->request).game_options,
            R"({"mode":"expert","a":1})");
  auto empty =
      decode_request(R"({"type":"create_match","players":2,"mode":"expert","options":{}})");
  ASSERT_TRUE(empty);
  EXPECT_EQ(std::get<CreateMatchRequest>(empty->request).game_options, R"({"mode":"expert"})");

  for (const char* bad : {R"({"type":"create_match","players":2,"options":[1]})",
                          R"({"type":"create_match","players":2,"options":"expert"})",
                          R"({"type":"create_match","players":2,"game":7})"}) {
    auto r = decode_request(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::InvalidField) << bad;
  }
  auto quick = decode_request(R"({"type":"quick_join","game":"eriantys"})");
  ASSERT_TRUE(quick);
  EXPECT_EQ(std::get<QuickJoin>(quick->request).game, "eriantys");
  EXPECT_EQ(error_code_name(ErrorCode::UnknownGame), "UNKNOWN_GAME");
  EXPECT_EQ(error_code_name(ErrorCode::BadOptions), "BAD_OPTIONS");
  EXPECT_EQ(error_code_name(ErrorCode::UnservedGame), "UNSERVED_GAME");
}

// Private matches (docs/protocol.md, "Private matches"): `private` on create_match,
// `code` on join_match and spectate, and revoke_invite.
TEST(Codec, DecodesPrivateMatchesAndInviteCodes) {
  auto create = decode_request(R"({"type":"create_match","players":2,"private":true})");
  ASSERT_TRUE(create);
  EXPECT_TRUE(std::get<CreateMatchRequest>(create->request).private_match);
  EXPECT_FALSE(std::get<CreateMatchRequest>(
                   decode_request(R"({"type":"create_match","players":2})")->request)
                   .private_match);
  auto join = decode_request(R"({"type":"join_match","match":7,"code":"abc"})");
  ASSERT_TRUE(join);
  EXPECT_EQ(std::get<JoinMatch>(join->request).code, "abc");
  EXPECT_FALSE(
      std::get<JoinMatch>(decode_request(R"({"type":"join_match","match":7})")->request).code);
  auto watch = decode_request(R"({"type":"spectate","match":7,"code":"abc"})");
  ASSERT_TRUE(watch);
  EXPECT_EQ(std::get<Spectate>(watch->request).code, "abc");
  auto revoke = decode_request(R"({"type":"revoke_invite"})");
  ASSERT_TRUE(revoke);
  EXPECT_TRUE(std::get<RevokeInvite>(revoke->request).renew);
  EXPECT_FALSE(std::get<RevokeInvite>(
                   decode_request(R"({"type":"revoke_invite","renew":false})")->request)
                   .renew);
  for (const char* bad : {R"({"type":"create_match","players":2,"private":1})",
                          R"({"type":"join_match","match":7,"code":7})",
                          R"({"type":"revoke_invite","renew":"no"})"}) {
    auto r = decode_request(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::InvalidField) << bad;
  }
  EXPECT_EQ(error_code_name(ErrorCode::NotPrivate), "NOT_PRIVATE");
}

// Accounts (docs/protocol.md, "Accounts"): `login` with a password or a session is an
// AccountLogin; without either it stays a guest's Login.
TEST(Codec, DecodesTheAccountRequests) {
  auto reg = decode_request(
      R"({"type":"register","name":"Alice","password":"correct horse","label":"cli"})");
  ASSERT_TRUE(reg);
  EXPECT_EQ(std::get<Register>(reg->request).name, "Alice");
  EXPECT_EQ(std::get<Register>(reg->request).password, "correct horse");
  EXPECT_EQ(std::get<Register>(reg->request).label, "cli");
  auto with_password = decode_request(R"({"type":"login","name":"alice","password":"pw"})");
  ASSERT_TRUE(with_password);
  EXPECT_EQ(std::get<AccountLogin>(with_password->request).name, "alice");
  EXPECT_FALSE(std::get<AccountLogin>(with_password->request).session);
  auto with_session = decode_request(R"({"type":"login","session":"abc"})");
  ASSERT_TRUE(with_session);
  EXPECT_EQ(std::get<AccountLogin>(with_session->request).session, "abc");
  EXPECT_TRUE(std::holds_alternative<Login>(
      decode_request(R"({"type":"login","nickname":"bob"})")->request));
  EXPECT_FALSE(std::get<Logout>(decode_request(R"({"type":"logout"})")->request).all);
  EXPECT_TRUE(std::get<Logout>(decode_request(R"({"type":"logout","all":true})")->request).all);
  auto reset = decode_request(
      R"({"type":"reset_password","name":"Alice","code":"c0de","password":"new one!"})");
  ASSERT_TRUE(reset);
  EXPECT_EQ(std::get<ResetPassword>(reset->request).code, "c0de");
  for (const char* missing : {R"({"type":"register","name":"Alice"})",
                              R"({"type":"login","name":"alice","password":null})",
                              R"({"type":"reset_password","name":"Alice","password":"x"})"}) {
    auto r = decode_request(missing);
    ASSERT_FALSE(r) << missing;
    EXPECT_EQ(r.error().code, ErrorCode::MissingField) << missing;
  }
  auto bad = decode_request(R"({"type":"logout","all":"yes"})");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::InvalidField);
  EXPECT_EQ(error_code_name(ErrorCode::BadLogin), "BAD_LOGIN");
  EXPECT_EQ(error_code_name(ErrorCode::NameTaken), "NAME_TAKEN");
  EXPECT_EQ(error_code_name(ErrorCode::AccountDisabled), "ACCOUNT_DISABLED");
  EXPECT_EQ(error_code_name(ErrorCode::BadSession), "BAD_SESSION");
  EXPECT_EQ(error_code_name(ErrorCode::GuestsOff), "GUESTS_OFF");
  EXPECT_EQ(error_code_name(ErrorCode::BadResetCode), "BAD_RESET_CODE");
  EXPECT_EQ(error_code_name(ErrorCode::AccountsOff), "ACCOUNTS_OFF");
}

// create_match's `takeover`: a computer level, or null / absent for none.
TEST(Codec, DecodesTakeover) {
  auto create = decode_request(R"({"type":"create_match","players":3,"takeover":"strong"})");
  ASSERT_TRUE(create);
  EXPECT_EQ(std::get<CreateMatchRequest>(create->request).takeover, "strong");
  for (const char* none : {R"({"type":"create_match","players":3,"takeover":null})",
                           R"({"type":"create_match","players":3})"}) {
    auto r = decode_request(none);
    ASSERT_TRUE(r) << none;
    EXPECT_FALSE(std::get<CreateMatchRequest>(r->request).takeover) << none;
  }
  for (const char* bad : {R"({"type":"create_match","players":3,"takeover":"expert"})",
                          R"({"type":"create_match","players":3,"takeover":true})"}) {
    auto r = decode_request(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::InvalidField) << bad;
    EXPECT_NE(r.error().message.find("takeover"), std::string::npos) << bad;
  }
}

}  // namespace eryantis::protocol
