// The web listener of the real eryantis-server: a WebSocket client is a client
// like a TCP one (same lobby, same sessions, same limits, heartbeats and
// shutdown), and hostile WebSocket input ends only its own connection.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "fixture.hpp"
#include "eryantis/eriantys/words/words.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/renaissance/render/render.hpp"
#include "support/websocket_client.hpp"

namespace eryantis::integration {
namespace {

using test::WsClient;

bool has(const std::optional<std::string>& message, std::string_view part) {
  return message && message->find(part) != std::string::npos;
}

class WebTest : public ServerFixture {
 protected:
  void start_web(TestConfig config = {}) {
    const std::string path = write_config(dir_, "eryantis.toml", db_, config);
    std::ofstream(path, std::ios::app) << "\n[web]\nenabled = true\nport = 0\n";
    start_with(path);
    static constexpr std::string_view kListening = "web listening on http://127.0.0.1:";
    const std::string log = server_->log();
    const std::size_t at = log.find(kListening);
    ASSERT_NE(at, std::string::npos) << log;
    web_port_ = std::atoi(log.c_str() + at + kListening.size());
    ASSERT_GT(web_port_, 0);
  }

  // A WebSocket client past hello (and login when a nickname is given).
  std::optional<WsClient> player(const std::string& nickname = {}) {
    auto c = WsClient::connect(web_port_);
    if (!c) return std::nullopt;
    auto upgraded = c->upgrade();
    if (!upgraded || upgraded->status != 101) return std::nullopt;
    c->send_text(R"({"type":"hello","id":1,"protocol":1,"client":"web-test"})");
    if (!has(c->read_text(), R"("type":"welcome")")) return std::nullopt;
    if (!nickname.empty()) {
      c->send_text(R"({"type":"login","id":2,"nickname":")" + nickname + R"("})");
      if (!has(c->read_text(), R"("type":"logged_in")")) return std::nullopt;
    }
    return c;
  }

  // The next text message containing `part` (others are skipped), within the deadline.
  static std::optional<std::string> wait_for(WsClient& c, std::string_view part,
                                             Millis timeout = Millis(5000)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto text = c.read_text(
          std::chrono::duration_cast<Millis>(deadline - std::chrono::steady_clock::now()));
      if (!text) return std::nullopt;
      if (text->find(part) != std::string::npos) return text;
    }
    return std::nullopt;
  }

  int web_port_ = 0;
};

TEST_F(WebTest, AWebSocketPlayerAndATcpPlayerShareTheLobbyAndAMatch) {
  start_web();
  auto web = player("webby");
  ASSERT_TRUE(web);
  web->send_text(R"({"type":"create_match","id":3,"players":2,"mode":"expert"})");
  auto created = wait_for(*web, R"("id":3)");
  ASSERT_TRUE(has(created, R"("type":"joined")")) << created.value_or("(nothing)");

  auto tcp = Client::connect(port(), "tcp");
  ASSERT_TRUE(tcp);
  ASSERT_TRUE(tcp->hello());
  auto listed = tcp->request(R"("type":"list_matches")");
  ASSERT_TRUE(listed);
  EXPECT_NE(listed->line.find("webby"), std::string::npos) << listed->line;
  auto logged = tcp->login("tcpy");
  ASSERT_TRUE(logged && logged->type == "logged_in");
  auto joined = tcp->request(R"("type":"quick_join")");
  ASSERT_TRUE(joined) << "no reply to quick_join";
  // The web player sees the match start through the same pushes a TCP player gets.
  EXPECT_TRUE(wait_for(*web, "tcpy")) << "the web player never saw the TCP player join";
  // A WebSocket ping frame is answered by the transport; the protocol's ping by the server.
  web->send_frame(WsClient::kPing, "frame-ping");
  web->send_text(R"({"type":"ping","id":9})");
  EXPECT_TRUE(wait_for(*web, R"("type":"pong","id":9)"));
}

TEST_F(WebTest, RateLimitsAndLineLimitsAreTheTcpOnes) {
  TestConfig config;
  config.commands_per_second = 5;
  config.max_line_bytes = 2048;
  start_web(config);
  auto c = player();
  ASSERT_TRUE(c);
  for (int i = 0; i < 30; ++i) c->send_text(R"({"type":"list_matches"})");
  EXPECT_TRUE(wait_for(*c, "RATE_LIMITED")) << "30 requests at once were not rate-limited";

  auto big = player();
  ASSERT_TRUE(big);
  big->send_text(std::string(4096, ' '));  // longer than max_line_bytes
  EXPECT_EQ(big->read_close(), 1009);
  EXPECT_TRUE(big->wait_closed());
  auto after = player();  // the server goes on
  EXPECT_TRUE(after);
}

TEST_F(WebTest, HostileFramesCloseOnlyTheirConnection) {
  start_web();
  auto bystander = player("bystander");
  ASSERT_TRUE(bystander);
  for (int round = 0; round < 3; ++round) {
    auto binary = player();
    ASSERT_TRUE(binary);
    binary->send_frame(WsClient::kBinary, R"({"type":"ping"})");
    EXPECT_EQ(binary->read_close(), 1003);
    auto unmasked = player();
    ASSERT_TRUE(unmasked);
    unmasked->send_frame(WsClient::kText, R"({"type":"ping"})", true, false);
    EXPECT_EQ(unmasked->read_close(), 1002);
    auto garbage = WsClient::connect(web_port_);
    ASSERT_TRUE(garbage);
    ASSERT_EQ(garbage->upgrade()->status, 101);
    garbage->send_all(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 12));
    EXPECT_TRUE(garbage->wait_closed());
  }
  // A client that does not read its replies holds up nobody (the net tests flood
  // one until it is cut: WebSocket.AClientThatNeverReadsIsCutAndOthersAreServed).
  auto never_reads = WsClient::connect(web_port_, 4096);
  ASSERT_TRUE(never_reads);
  ASSERT_EQ(never_reads->upgrade()->status, 101);
  never_reads->send_text(R"({"type":"hello","protocol":1})");
  bystander->send_text(R"({"type":"list_matches","id":"still"})");
  EXPECT_TRUE(wait_for(*bystander, R"("id":"still")"));
}

// A text frame is one line; the frame is not split at newlines: a frame of only
// "\n", or two lines in one frame, is one line that is not a JSON object
// (BAD_JSON, one error), while a message followed by "\n" is that message (JSON
// allows whitespace after it). Only an empty frame is the keep-alive.
TEST_F(WebTest, AFrameIsOneLineNewlinesInsideItAreNotSeparators) {
  start_web();
  auto c = player();
  ASSERT_TRUE(c);
  auto code_of = [](const std::optional<std::string>& message) -> std::string {
    if (!message) return "(nothing)";
    const std::size_t at = message->find(R"("code":")");
    if (at == std::string::npos) return *message;
    return message->substr(at + 8, message->find('"', at + 8) - at - 8);
  };
  c->send_text("\n");
  EXPECT_EQ(code_of(c->read_text()), "BAD_JSON");
  c->send_text("\r\n");
  EXPECT_EQ(code_of(c->read_text()), "BAD_JSON");
  c->send_text(R"({"type":"ping","id":1})"
               "\n"
               R"({"type":"ping","id":2})");
  EXPECT_EQ(code_of(c->read_text()), "BAD_JSON");
  c->send_text("");  // the keep-alive: no reply
  c->send_text(R"({"type":"ping","id":3})"
               "\n");
  auto pong = c->read_text();
  ASSERT_TRUE(pong);
  EXPECT_NE(pong->find(R"("type":"pong","id":3)"), std::string::npos) << *pong;
  // Exactly one reply per frame: the next one answers the next request.
  c->send_text(R"({"type":"ping","id":4})");
  pong = c->read_text();
  ASSERT_TRUE(pong);
  EXPECT_NE(pong->find(R"("id":4)"), std::string::npos) << *pong;
}

// DNS rebinding against the real server: its web listener answers localhost, IP
// addresses and [web] allowed_hosts; a rebound name gets 421, WebSocket included.
TEST_F(WebTest, TheWebListenerAnswersOnlyItsOwnHostNames) {
  const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
  std::ofstream(path, std::ios::app)
      << "\n[web]\nenabled = true\nport = 0\nallowed_hosts = [\"game.example.test\"]\n";
  start_with(path);
  static constexpr std::string_view kListening = "web listening on http://127.0.0.1:";
  const std::string log = server_->log();
  ASSERT_NE(log.find(kListening), std::string::npos) << log;
  web_port_ = std::atoi(log.c_str() + log.find(kListening) + kListening.size());
  const std::string port = std::to_string(web_port_);
  auto status = [&](std::string_view target, const std::string& host,
                    const std::string& extra = {}) {
    auto c = WsClient::connect(web_port_);
    if (!c) return 0;
    c->send_all("GET " + std::string(target) + " HTTP/1.1\r\nHost: " + host + "\r\n" + extra +
                "\r\n");
    auto reply = c->read_reply();
    return reply ? reply->status : 0;
  };
  const std::string upgrade =
      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
  const std::string evil = "evil.example:" + port;
  EXPECT_EQ(status("/healthz", evil, "Origin: http://" + evil + "\r\n"), 421);
  EXPECT_EQ(status("/metrics", evil), 421);
  EXPECT_EQ(status("/ws", evil, upgrade + "Origin: http://" + evil + "\r\n"), 421);
  EXPECT_NE(server_->log().find(R"(for host "evil.example:)"), std::string::npos);
  for (const std::string& own : std::vector<std::string>{"127.0.0.1:" + port, "localhost:" + port,
                                                         "game.example.test:" + port}) {
    SCOPED_TRACE(own);
    EXPECT_EQ(status("/healthz", own), 200);
    EXPECT_EQ(status("/ws", own, upgrade + "Origin: http://" + own + "\r\n"), 101);
  }
}

TEST_F(WebTest, HeartbeatsAreTheProtocolsAndSilenceCloses) {
  TestConfig config;
  config.heartbeat_interval_ms = 200;
  config.heartbeat_timeout_ms = 1000;
  start_web(config);
  auto silent = player();
  ASSERT_TRUE(silent);
  EXPECT_TRUE(wait_for(*silent, R"({"type":"ping"})", Millis(3000)));
  EXPECT_TRUE(wait_for(*silent, R"("type":"shutdown","message":"no heartbeat)", Millis(4000)));
  EXPECT_EQ(silent->read_close(), 1000);
}

TEST_F(WebTest, ShutdownTellsWebSocketClientsThenCloses1000) {
  start_web();
  auto c = player("leaving");
  ASSERT_TRUE(c);
  server_->signal_term();
  EXPECT_TRUE(wait_for(*c, R"("type":"shutdown")"));
  EXPECT_EQ(c->read_close(), 1000);
  c->close();  // the server's close completes at our end of the stream
  auto code = server_->wait_exit(std::chrono::seconds(30));
  ASSERT_TRUE(code);
  EXPECT_EQ(*code, 0);
}

TEST_F(WebTest, StaticFilesComeFromTheConfiguredFolder) {
  start_web();
  // The test's server runs with the default static_dir (web/dist, relative to its
  // working directory): whether or not it exists there, nothing outside is served.
  auto status = [&](std::string_view target, std::string_view method = "GET") {
    auto c = WsClient::connect(web_port_);
    if (!c) return 0;
    auto reply = c->get(target, "Content-Length: 0\r\n", method);
    return reply ? reply->status : 0;
  };
  EXPECT_EQ(status("/../../etc/passwd"), 404);
  EXPECT_EQ(status("/%2e%2e/%2e%2e/etc/passwd"), 404);
  EXPECT_EQ(status("/ws"), 400);  // a plain GET of the WebSocket path
  EXPECT_EQ(status("/", "DELETE"), 405);
}

}  // namespace
}  // namespace eryantis::integration

namespace eryantis::integration {
namespace {

// The operator's endpoints on the web listener: /healthz, /readyz and /metrics in the
// Prometheus text format, whose counters have seen the play of a match.
TEST_F(WebTest, HealthReadinessAndMetricsAreServed) {
  start_web();
  auto get = [&](std::string_view target) -> std::optional<test::HttpReply> {
    auto c = WsClient::connect(web_port_);
    if (!c) return std::nullopt;
    return c->get(target);
  };
  auto health = get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health->status, 200);
  auto ready = get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200) << ready->body;

  Game game("ops", GameOptions{}, test_seed());
  game.connect_all(port());
  ASSERT_FALSE(HasFatalFailure());
  game.create_and_join();
  ASSERT_FALSE(HasFatalFailure());
  drive({&game}, std::chrono::milliseconds(500));
  auto metrics = get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->status, 200);
  std::string type;
  for (const auto& [name, value] : metrics->headers)
    if (name == "content-type") type = value;
  EXPECT_NE(type.find("text/plain; version=0.0.4"), std::string::npos) << type;
  for (const char* series : {"eryantis_commands_total{result=\"accepted\"}",
                             "eryantis_events_appended_total", "eryantis_ack_latency_seconds_bucket",
                             "eryantis_event_loop_lag_seconds_count"})
    EXPECT_NE(metrics->body.find(series), std::string::npos) << series << "\n" << metrics->body;
}

}  // namespace
}  // namespace eryantis::integration

namespace eryantis::integration {
namespace {

// The web client's rules panel reads GET /help/<game>: the terminal client's help
// texts, word for word (the CLI prints Game::help, which is words::help and render::help).
TEST_F(WebTest, HelpServesEachGamesTextsAsJsonAndCodedErrors) {
  start_web();
  auto get = [&](std::string_view target, std::string_view method = "GET") {
    auto c = WsClient::connect(web_port_);
    std::optional<test::HttpReply> reply;
    if (c) reply = c->get(target, "Content-Length: 0\r\n", method);
    return reply;
  };
  auto parse = [](const std::string& body) {
    rapidjson::Document d;
    d.Parse(body.c_str());
    return d;
  };
  auto eriantys = get("/help/eriantys");
  ASSERT_TRUE(eriantys);
  ASSERT_EQ(eriantys->status, 200) << eriantys->body;
  ASSERT_NE(eriantys->header("content-type"), nullptr);
  EXPECT_EQ(*eriantys->header("content-type"), "application/json");
  auto e = parse(eriantys->body);
  ASSERT_TRUE(e.IsObject() && e["topics"].IsObject()) << eriantys->body;
  EXPECT_STREQ(e["game"].GetString(), "eriantys");
  EXPECT_EQ(std::string(e["overview"].GetString()), *eriantys::words::help(""));
  EXPECT_EQ(e["topics"].MemberCount(), eriantys::words::help_topics().size());
  for (const std::string& topic : eriantys::words::help_topics()) {
    ASSERT_TRUE(e["topics"].HasMember(topic.c_str())) << topic;
    EXPECT_EQ(std::string(e["topics"][topic.c_str()].GetString()), *eriantys::words::help(topic));
  }

  auto renaissance = get("/help/renaissance");
  ASSERT_TRUE(renaissance);
  ASSERT_EQ(renaissance->status, 200) << renaissance->body;
  auto r = parse(renaissance->body);
  ASSERT_TRUE(r.IsObject() && r["topics"].IsObject()) << renaissance->body;
  EXPECT_EQ(r["topics"].MemberCount(), renaissance::render::help_topics().size());
  for (const char* topic : {"turn", "market", "L05", "D17"}) {
    ASSERT_TRUE(r["topics"].HasMember(topic)) << topic;
    EXPECT_EQ(std::string(r["topics"][topic].GetString()), *renaissance::render::help(topic));
  }

  // Bad input: a coded JSON error, never a crash; the echo of a long name stays short.
  auto unknown = get("/help/chess");
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->status, 404);
  EXPECT_STREQ(parse(unknown->body)["code"].GetString(), "UNKNOWN_GAME") << unknown->body;
  auto empty = get("/help/");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->status, 404);
  auto long_name = get("/help/" + std::string(8000, 'x'));
  ASSERT_TRUE(long_name);
  EXPECT_EQ(long_name->status, 404);
  EXPECT_LT(long_name->body.size(), 300u) << long_name->body;
  EXPECT_STREQ(parse(long_name->body)["code"].GetString(), "UNKNOWN_GAME");
  auto markup = get("/help/%22%3Cb%3E");  // `"<b>`: echoed as sent, still valid JSON
  ASSERT_TRUE(markup);
  EXPECT_EQ(markup->status, 404);
  EXPECT_TRUE(parse(markup->body).IsObject()) << markup->body;
  auto huge = get("/help/" + std::string(20000, 'x'));  // past max_header_bytes (16 KiB)
  ASSERT_TRUE(huge);
  EXPECT_EQ(huge->status, 431);
  auto posted = get("/help/eriantys", "POST");
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted->status, 405);
  EXPECT_STREQ(parse(posted->body)["code"].GetString(), "METHOD_NOT_ALLOWED");
  // The server is still up and answering.
  auto again = get("/help/eriantys");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 200);
}

}  // namespace
}  // namespace eryantis::integration
