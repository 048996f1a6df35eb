// The web listener on 127.0.0.1: static files (types, validators, traversal),
// routes, request limits and timeouts, and WebSocket connections as transport
// connections, including hostile frames. The loop runs on the test's thread,
// a scripted client on another.
#include "eryantis/net/http_server.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "eryantis/net/static_files.hpp"
#include "eryantis/net/transport_router.hpp"
#include "support/temp_dir.hpp"
#include "support/websocket_client.hpp"
#include "test_client.hpp"

namespace eryantis::net {
namespace {

using namespace std::chrono_literals;
using test::WsClient;
using transport::ConnectionId;

// Records everything and echoes every line back.
struct Events final : transport::ConnectionEvents {
  transport::Transport* transport = nullptr;
  std::function<void(ConnectionId, std::string_view)> on_line_hook;  // replaces the echo
  std::vector<ConnectionId> opened;
  std::map<ConnectionId, int> closed;
  std::vector<std::string> lines;
  std::atomic<int> open_now{0};
  std::atomic<int> closed_total{0};

  void on_open(ConnectionId id, std::string_view) override {
    opened.push_back(id);
    ++open_now;
  }
  void on_line(ConnectionId id, std::string_view line) override {
    lines.emplace_back(line);
    if (on_line_hook) {
      on_line_hook(id, line);
    } else {
      transport->send(id, std::string(line));
    }
  }
  void on_line_too_long(ConnectionId) override {}
  void on_closed(ConnectionId id) override {
    ++closed[id];
    --open_now;
    ++closed_total;
  }
};

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

HttpServerOptions test_options(const std::string& root) {
  HttpServerOptions options;
  options.static_root = root;
  options.max_message_bytes = 1024;
  options.close_timeout_ms = 1000;
  options.request_timeout_ms = 2000;
  return options;
}

class Harness {
 public:
  explicit Harness(std::function<void(HttpServerOptions&)> tweak = {}) {
    const std::filesystem::path root = dir.path() / "www";
    write_file(root / "index.html", "<h1>board</h1>");
    write_file(root / "app.js", "console.log(1)");
    write_file(root / "style.css", "body{}");
    write_file(root / "icons/seat.svg", "<svg/>");
    write_file(root / "sub/index.html", "sub index");
    write_file(dir.path() / "secret.txt", "outside");
    std::filesystem::create_symlink(dir.path() / "secret.txt", root / "link.txt");
    HttpServerOptions options = test_options(root.string());
    if (tweak) tweak(options);
    server = std::make_unique<HttpServer>(loop, options);
    server->set_events(events);
    events.transport = server.get();
    auto bound = server->listen("127.0.0.1", 0);
    EXPECT_TRUE(bound.has_value()) << bound.error();
    port = bound.value_or(0);
  }

  // Runs the loop until `client` returns or `limit` passes; false on timeout.
  bool run(std::function<void(int)> client, std::chrono::milliseconds limit = 15s) {
    bool timed_out = false;
    auto done = loop.make_wakeup([this] { loop.stop(); });
    loop.after(limit.count(), [&] {
      timed_out = true;
      loop.stop();
    });
    std::thread thread([&] {
      client(port);
      done->notify();
    });
    loop.run();
    thread.join();
    return !timed_out;
  }

  void expect_each_closed_once() const {
    std::set<ConnectionId> opened(events.opened.begin(), events.opened.end());
    EXPECT_EQ(opened.size(), events.opened.size()) << "an id was reused";
    EXPECT_EQ(events.closed.size(), opened.size());
    for (const auto& [id, count] : events.closed) EXPECT_EQ(count, 1) << "connection " << id;
  }

  test::TempDir dir;
  EventLoop loop;
  Events events;
  std::unique_ptr<HttpServer> server;
  int port = 0;
};

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds limit = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

WsClient connected(int port) {
  auto client = WsClient::connect(port);
  if (!client) throw std::runtime_error("cannot connect");
  return std::move(*client);
}

// ---------------------------------------------------------------- static files

TEST(RequestPath, DecodesAndRefusesWhatCouldLeaveTheFolder) {
  EXPECT_EQ(decode_request_path("/a%20b/c.js"), "/a b/c.js");
  EXPECT_EQ(decode_request_path("/"), "/");
  for (const char* bad :
       {"", "a", "/../x", "/a/../../x", "/%2e%2e/x", "/%2E%2e/x", "/.%2e/x", "/a%2fb",
        "/a%2F..%2Fb", "/a%5cb", "/a\\b", "/a%00b", "/%zz", "/%2", "/./x", "/a/.."}) {
    EXPECT_FALSE(decode_request_path(bad).has_value()) << bad;
  }
}

TEST(RequestPath, ContentTypesByExtension) {
  EXPECT_EQ(content_type_for("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(content_type_for("app.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(content_type_for("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(content_type_for("a.svg"), "image/svg+xml");
  EXPECT_EQ(content_type_for("a.json"), "application/json");
  EXPECT_EQ(content_type_for("blob"), "application/octet-stream");
}

TEST(HttpServer, ServesFilesWithTheirTypeAndValidators) {
  Harness h;
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    auto index = c.get("/");
    ASSERT_TRUE(index);
    EXPECT_EQ(index->status, 200);
    EXPECT_EQ(index->body, "<h1>board</h1>");
    EXPECT_EQ(*index->header("content-type"), "text/html; charset=utf-8");
    EXPECT_EQ(*index->header("cache-control"), "no-cache");
    ASSERT_NE(index->header("etag"), nullptr);
    const std::string etag = *index->header("etag");

    auto js = c.get("/app.js");  // same connection: kept alive
    ASSERT_TRUE(js);
    EXPECT_EQ(js->status, 200);
    EXPECT_EQ(*js->header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(c.get("/style.css")->header("content-type")->rfind("text/css", 0), 0u);
    EXPECT_EQ(*c.get("/icons/seat.svg")->header("content-type"), "image/svg+xml");
    EXPECT_EQ(c.get("/sub/")->body, "sub index");
    EXPECT_EQ(c.get("/sub")->body, "sub index");

    auto cached = c.get("/", "If-None-Match: " + etag + "\r\n");
    ASSERT_TRUE(cached);
    EXPECT_EQ(cached->status, 304);
    EXPECT_TRUE(cached->body.empty());
    EXPECT_EQ(c.get("/", "If-None-Match: \"other\", W/" + etag + "\r\n")->status, 304);
    EXPECT_EQ(c.get("/", "If-None-Match: \"other\"\r\n")->status, 200);

    auto head = c.get("/app.js", {}, "HEAD");
    ASSERT_TRUE(head);
    EXPECT_EQ(head->status, 200);
    EXPECT_EQ(*head->header("content-length"), "14");
    EXPECT_EQ(c.get("/index.html")->status, 200);  // the HEAD sent no body
  }));
}

TEST(HttpServer, NothingOutsideTheFolderIsServed) {
  Harness h;
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    for (const char* target :
         {"/missing.js", "/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt",
          "/%2E%2E%2Fsecret.txt", "/sub%2f..%2f..%2fsecret.txt", "/..%5csecret.txt", "/link.txt",
          "/sub/%2e%2e/%2e%2e/secret.txt", "/index.html%00.js"}) {
      auto reply = c.get(target);
      ASSERT_TRUE(reply) << target;
      EXPECT_EQ(reply->status, 404) << target;
      EXPECT_EQ(reply->body.find("outside"), std::string::npos) << target;
    }
  }));
}

// Hidden files beside the client (a checkout's .git, a deploy's .env) are never
// served, however the path spells the dot, and neither through a symlink.
TEST(HttpServer, HiddenFilesAreNeverServed) {
  Harness h;
  const std::filesystem::path root = h.dir.path() / "www";
  write_file(root / ".git" / "config", "[remote] secret");
  write_file(root / ".env", "SECRET=1");
  write_file(root / "sub" / ".hidden.js", "secret");
  write_file(root / ".well-known" / "index.html", "secret");
  std::filesystem::create_symlink(root / ".env", root / "env.txt");
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    for (const char* target : {"/.git/config", "/%2egit/config", "/%2Egit/config", "/.git/",
                               "/.git", "/.env", "/%2eenv", "/sub/.hidden.js", "/sub/%2ehidden.js",
                               "/.well-known/", "/env.txt", "/.git/../index.html"}) {
      auto reply = c.get(target);
      ASSERT_TRUE(reply) << target;
      EXPECT_EQ(reply->status, 404) << target;
      EXPECT_EQ(reply->body.find("secret"), std::string::npos) << target;
      EXPECT_EQ(reply->body.find("SECRET"), std::string::npos) << target;
    }
    EXPECT_EQ(c.get("/app.js")->status, 200);  // names with a dot inside are files like others
    EXPECT_EQ(c.get("/sub/")->status, 200);
  }));
}

// DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends
// its own name as Host, with a matching Origin. Only the listener's own names are
// answered (localhost, IP literals, allowed_hosts), for files, routes and the
// WebSocket upgrade alike; the port is not compared.
TEST(HttpServer, OnlyTheListenersOwnHostNamesAreAnswered) {
  Harness h([](HttpServerOptions& o) {
    o.allowed_hosts = {"Game.Example.Test"};
    o.allowed_origins = {"http://evil.example:8080"};  // even a listed origin does not help
  });
  h.server->add_route("/healthz",
                      [](const HttpRequest&) { return HttpResponse::text(200, "ok\n"); });
  ASSERT_TRUE(h.run([](int port) {
    const std::string p = std::to_string(port);
    auto get = [&](const std::string& target, const std::string& host,
                   const std::string& extra = {}) {
      WsClient c = connected(port);
      c.send_all("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n" + extra + "\r\n");
      auto reply = c.read_reply();
      if (reply && reply->status == 421) {
        EXPECT_NE(reply->body.find("allowed_hosts"), std::string::npos) << reply->body;
        EXPECT_TRUE(c.wait_closed()) << host;
      }
      return reply ? reply->status : 0;
    };
    const std::string upgrade =
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
    for (const std::string& evil : std::vector<std::string>{
             "evil.example:" + p, "evil.example", "EVIL.example:" + p,
             "localhost.evil.example:" + p, "127.0.0.1.evil.example", "a:b:c", ":" + p,
             "localhost:http", "[::1", "[evil]:" + p, "game.example.test.evil:" + p, "",
             "evil.example:" + p + "@127.0.0.1"}) {
      SCOPED_TRACE("Host: " + evil);
      const std::string origin = "Origin: http://" + evil + "\r\n";
      EXPECT_EQ(get("/", evil, origin), 421);
      EXPECT_EQ(get("/healthz", evil), 421);
      EXPECT_EQ(get("/ws", evil, upgrade + origin), 421);
    }
    for (const std::string& own :
         std::vector<std::string>{"127.0.0.1:" + p, "127.0.0.1", "localhost:" + p, "LocalHost",
                                  "localhost.", "[::1]:" + p, "[::1]", "10.1.2.3:" + p,
                                  "game.example.test:" + p, "GAME.EXAMPLE.TEST."}) {
      SCOPED_TRACE("Host: " + own);
      EXPECT_EQ(get("/", own), 200);
      EXPECT_EQ(get("/healthz", own), 200);
      EXPECT_EQ(get("/ws", own, upgrade + "Origin: http://" + own + "\r\n"), 101);
    }
    // A program sending no Host at all (HTTP/1.0) is not a browser page.
    WsClient old = connected(port);
    old.send_all("GET / HTTP/1.0\r\n\r\n");
    auto reply = old.read_reply();
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 200);
  }));
  h.expect_each_closed_once();
}

TEST(HttpServer, OtherMethodsGet405) {
  Harness h;
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS"}) {
      auto reply = c.get("/index.html", "Content-Length: 0\r\n", method);
      ASSERT_TRUE(reply) << method;
      EXPECT_EQ(reply->status, 405) << method;
      EXPECT_EQ(*reply->header("allow"), "GET, HEAD");
    }
  }));
}

TEST(HttpServer, AFileLargerThanTheQueueLimitIsServedWhole) {
  const std::string big(3 * 1024 * 1024 + 7, 'b');
  Harness h([](HttpServerOptions& o) { o.max_outgoing_bytes = 64 * 1024; });
  write_file(h.dir.path() / "www" / "bundle.js.map", big);
  ASSERT_TRUE(h.run([&](int port) {
    WsClient c = connected(port);
    auto reply = c.get("/bundle.js.map");
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 200);
    EXPECT_EQ(reply->body.size(), big.size());
    EXPECT_EQ(*reply->header("content-type"), "application/json");
  }));
}

// ---------------------------------------------------------------- routes

TEST(HttpServer, RoutesComeBeforeFilesAndTheLongestWins) {
  Harness h;
  h.server->add_route("/healthz", [](const HttpRequest&) { return HttpResponse::text(200, "ok"); });
  h.server->add_route("/api/", [](const HttpRequest& r) {
    return HttpResponse::json("{\"path\":\"" + r.path + "\",\"query\":\"" + r.query + "\"}");
  });
  h.server->add_route("/api/matches/", [](const HttpRequest& r) {
    if (r.method != "GET") return HttpResponse::text(405, "no");
    return HttpResponse::json("[\"" + r.path + "\"]");
  });
  h.server->add_route("/index.html", [](const HttpRequest&) -> HttpResponse {
    throw std::runtime_error("broken handler");
  });
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    EXPECT_EQ(c.get("/healthz")->body, "ok");
    EXPECT_EQ(c.get("/healthz/x")->status, 404);  // exact route: no prefix
    auto api = c.get("/api/x?y=1");
    EXPECT_EQ(*api->header("content-type"), "application/json");
    EXPECT_EQ(api->body, "{\"path\":\"/api/x\",\"query\":\"y=1\"}");
    EXPECT_EQ(c.get("/api/matches/3/log")->body, "[\"/api/matches/3/log\"]");
    EXPECT_EQ(c.get("/api/matches/3", "Content-Length: 0\r\n", "POST")->status, 405);
    EXPECT_EQ(c.get("/index.html")->status, 500);  // the handler threw; the server lives
    EXPECT_EQ(c.get("/app.js")->status, 200);
  }));
}

// ---------------------------------------------------------------- limits

TEST(HttpServer, OversizedHeadersBodiesAndGarbageAreRefusedAndClosed) {
  Harness h([](HttpServerOptions& o) {
    o.max_header_bytes = 2048;
    o.max_body_bytes = 512;
  });
  ASSERT_TRUE(h.run([](int port) {
    {
      WsClient c = connected(port);
      auto reply = c.get("/", std::string("X-Big: ").append(4096, 'a').append("\r\n"));
      ASSERT_TRUE(reply);
      EXPECT_EQ(reply->status, 431);
      EXPECT_EQ(*reply->header("connection"), "close");
      EXPECT_TRUE(c.wait_closed());
    }
    {
      WsClient c = connected(port);
      auto reply = c.get(std::string("/").append(4096, 'a'));
      ASSERT_TRUE(reply);
      EXPECT_EQ(reply->status, 431);
    }
    {
      WsClient c = connected(port);
      ASSERT_TRUE(
          c.send_all(std::string("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4096\r\n\r\n")
                         .append(4096, 'b')));
      auto reply = c.read_reply();
      ASSERT_TRUE(reply);
      EXPECT_EQ(reply->status, 413);
      EXPECT_TRUE(c.wait_closed());
    }
    {
      WsClient c = connected(port);
      ASSERT_TRUE(c.send_all("NOT HTTP AT ALL\r\n\r\n"));
      auto reply = c.read_reply();
      ASSERT_TRUE(reply);
      EXPECT_EQ(reply->status, 400);
      EXPECT_TRUE(c.wait_closed());
    }
    WsClient c = connected(port);
    EXPECT_EQ(c.get("/")->status, 200);  // nobody else was affected
  }));
}

TEST(HttpServer, SlowRequestsTimeOut) {
  Harness h([](HttpServerOptions& o) { o.request_timeout_ms = 300; });
  ASSERT_TRUE(h.run([](int port) {
    WsClient slow = connected(port);
    ASSERT_TRUE(slow.send_all("GET / HTTP/1.1\r\nHost: x\r\n"));  // never finished
    const auto start = std::chrono::steady_clock::now();
    auto reply = slow.read_reply(false, 3s);
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 408);
    EXPECT_TRUE(slow.wait_closed());
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);

    // A connection that sends nothing (or nothing more after a response) is closed
    // after the same time, without a response: there is no request to answer.
    for (const bool after_a_response : {false, true}) {
      auto idle = testing::TestClient::connect(port);
      ASSERT_TRUE(idle);
      if (after_a_response) {  // a HEAD: the response ends with its headers
        ASSERT_TRUE(idle->send_all("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        std::string response;
        while (auto line = idle->read_line(3s)) {
          if (*line == "\r") break;  // the blank line after the headers
          response += *line;
        }
        EXPECT_EQ(response.rfind("HTTP/1.1 200", 0), 0u) << response;
      }
      const auto quiet = std::chrono::steady_clock::now();
      EXPECT_FALSE(idle->read_line(3s)) << "a response to no request";
      EXPECT_TRUE(idle->saw_eof()) << "not closed within 3 s";
      EXPECT_GE(std::chrono::steady_clock::now() - quiet, 200ms);
    }
  }));
}

TEST(HttpServer, PipelinedRequestsAreAnsweredInOrder) {
  Harness h;
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    ASSERT_TRUE(
        c.send_all("GET /app.js HTTP/1.1\r\nHost: localhost\r\n\r\nGET /style.css "
                   "HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    EXPECT_EQ(c.read_reply()->body, "console.log(1)");
    EXPECT_EQ(c.read_reply()->body, "body{}");
  }));
}

// ---------------------------------------------------------------- WebSocket

TEST(WebSocket, TextFramesAreLinesBothWays) {
  Harness h;
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    auto reply = c.upgrade();
    ASSERT_TRUE(reply);
    ASSERT_EQ(reply->status, 101);
    // RFC 6455 §1.3's own example key and answer.
    EXPECT_EQ(*reply->header("sec-websocket-accept"), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    ASSERT_TRUE(c.send_text(R"({"type":"hello"})"));
    EXPECT_EQ(c.read_text(), R"({"type":"hello"})");
    ASSERT_TRUE(c.send_text(""));  // an empty message is an empty line: a keep-alive
    EXPECT_EQ(c.read_text(), "");
    const std::string big(1000, 'x');  // 126-byte length form
    ASSERT_TRUE(c.send_text(big));
    EXPECT_EQ(c.read_text(), big);
    // A message in three fragments, with a ping between them, is one line.
    ASSERT_TRUE(c.send_frame(WsClient::kText, "ab", false));
    ASSERT_TRUE(c.send_frame(0, "cd", false));
    ASSERT_TRUE(c.send_frame(WsClient::kPing, "p1"));
    ASSERT_TRUE(c.send_frame(0, "ef", true));
    auto pong = c.read_frame();
    ASSERT_TRUE(pong);
    EXPECT_EQ(pong->opcode, WsClient::kPong);
    EXPECT_EQ(pong->payload, "p1");
    EXPECT_EQ(c.read_text(), "abcdef");
    // The client closes: the server answers and reports the connection closed.
    ASSERT_TRUE(c.send_frame(WsClient::kClose, std::string("\x03\xe8", 2)));
    EXPECT_EQ(c.read_close(), 1000);
    EXPECT_TRUE(c.wait_closed());
  }));
  EXPECT_EQ(h.events.lines, (std::vector<std::string>{R"({"type":"hello"})", "",
                                                      std::string(1000, 'x'), "abcdef"}));
  h.expect_each_closed_once();
  EXPECT_EQ(h.server->websocket_count(), 0u);
}

struct Hostile {
  const char* name;
  std::function<void(WsClient&)> send;
  int close_code;
};

TEST(WebSocket, HostileFramesGetAClearCloseCodeAndNobodyElseIsAffected) {
  const std::vector<Hostile> cases = {
      {"binary frame", [](WsClient& c) { c.send_frame(WsClient::kBinary, "\x01\x02"); }, 1003},
      {"unmasked frame",
       [](WsClient& c) { c.send_frame(WsClient::kText, R"({"type":"ping"})", true, false); }, 1002},
      {"oversized message", [](WsClient& c) { c.send_text(std::string(2000, 'a')); }, 1009},
      {"oversized in fragments",
       [](WsClient& c) {
         for (int i = 0; i < 3; ++i)
           c.send_frame(i == 0 ? WsClient::kText : 0, std::string(600, 'a'), false);
       },
       1009},
      {"continuation first", [](WsClient& c) { c.send_frame(0, "abc"); }, 1002},
      {"new message inside a fragmented one",
       [](WsClient& c) {
         c.send_frame(WsClient::kText, "ab", false);
         c.send_frame(WsClient::kText, "cd");
       },
       1002},
      {"reserved opcode", [](WsClient& c) { c.send_frame(3, "x"); }, 1002},
      {"invalid UTF-8", [](WsClient& c) { c.send_text("{\"type\":\"\xff\"}"); }, 1007},
      // Errors of the frame layer itself (wslay alone would close without a status
      // code, 1005 for the client): 1002 as RFC 6455 asks.
      {"fragmented ping", [](WsClient& c) { c.send_frame(WsClient::kPing, "x", false); }, 1002},
      {"control frame over 125 bytes",
       [](WsClient& c) { c.send_frame(WsClient::kPing, std::string(200, 'p')); }, 1002},
      {"64-bit length with its top bit set",
       [](WsClient& c) {
         c.send_all(std::string("\x81\xff\x80\x00\x00\x00\x00\x00\x00\x05\x01\x02\x03\x04", 14));
       },
       1002},
      {"64-bit length with its top bit set, byte by byte",
       [](WsClient& c) {
         for (char b : std::string("\x81\xff\xff\xff\xff\xff\xff\xff\xff\xff", 10))
           c.send_all(std::string(1, b));
       },
       1002},
      {"close frame with a 1-byte payload",
       [](WsClient& c) { c.send_frame(WsClient::kClose, std::string("\x03", 1)); }, 1002},
      {"16-bit length below 126",
       [](WsClient& c) { c.send_all(std::string("\x81\xfe\x00\x05\x01\x02\x03\x04", 8)); }, 1002},
      {"64-bit length below 65536",
       [](WsClient& c) {
         c.send_all(std::string("\x81\xff\x00\x00\x00\x00\x00\x00\x01\x00\x01\x02\x03\x04", 14));
       },
       1002},
      {"reserved bits", [](WsClient& c) { c.send_all(std::string("\xc1\x80\x00\x00\x00\x00", 6)); },
       1002},
  };
  Harness h;
  ASSERT_TRUE(h.run([&](int port) {
    WsClient bystander = connected(port);
    ASSERT_EQ(bystander.upgrade()->status, 101);
    for (const Hostile& hostile : cases) {
      WsClient c = connected(port);
      ASSERT_EQ(c.upgrade()->status, 101) << hostile.name;
      hostile.send(c);
      EXPECT_EQ(c.read_close(), hostile.close_code) << hostile.name;
      EXPECT_TRUE(c.wait_closed()) << hostile.name;
      ASSERT_TRUE(bystander.send_text(hostile.name));
      EXPECT_EQ(bystander.read_text(), hostile.name);
    }
  }));
  h.expect_each_closed_once();
}

TEST(WebSocket, HandshakesThatAreWrongAreRefused) {
  Harness h([](HttpServerOptions& o) { o.allowed_origins = {"http://game.example.test"}; });
  ASSERT_TRUE(h.run([](int port) {
    auto status = [&](const std::string& request) {
      WsClient c = connected(port);
      c.send_all(request);
      auto reply = c.read_reply();
      return reply ? reply->status : 0;
    };
    const std::string key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    const std::string upgrade =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\n";
    EXPECT_EQ(status(upgrade + key + "Sec-WebSocket-Version: 13\r\n\r\n"), 101);
    EXPECT_EQ(status(upgrade + key + "Sec-WebSocket-Version: 8\r\n\r\n"), 426);
    EXPECT_EQ(status(upgrade + "Sec-WebSocket-Version: 13\r\n\r\n"), 400);
    EXPECT_EQ(status(upgrade + "Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n\r\n"),
              400);
    EXPECT_EQ(status("GET /ws HTTP/1.1\r\nHost: localhost\r\n\r\n"), 400);  // a plain GET
    const std::string v13 = key + "Sec-WebSocket-Version: 13\r\n";
    EXPECT_EQ(status(upgrade + v13 + "Origin: http://evil.example.test\r\n\r\n"), 403);
    EXPECT_EQ(status(upgrade + v13 + "Origin: http://127.0.0.1:8080\r\n\r\n"), 101);  // own page
    EXPECT_EQ(status(upgrade + v13 + "Origin: http://game.example.test\r\n\r\n"), 101);
  }));
  EXPECT_EQ(h.events.opened.size(), 3u);
  h.expect_each_closed_once();
}

TEST(WebSocket, ServerCloseFlushesQueuedMessagesThenSends1000) {
  Harness h;
  h.events.on_line_hook = [&](ConnectionId id, std::string_view) {
    h.server->send(id, R"({"type":"shutdown","message":"bye"})");
    h.server->close(id);
    h.server->send(id, "after the close: dropped");
  };
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    ASSERT_EQ(c.upgrade()->status, 101);
    c.send_text("{}");
    EXPECT_EQ(c.read_text(), R"({"type":"shutdown","message":"bye"})");
    EXPECT_EQ(c.read_close(), 1000);
    c.send_frame(WsClient::kClose, std::string("\x03\xe8", 2));
    EXPECT_TRUE(c.wait_closed());
  }));
  h.expect_each_closed_once();
}

TEST(WebSocket, AClientThatNeverReadsIsCutAndOthersAreServed) {
  Harness h([](HttpServerOptions& o) { o.max_outgoing_bytes = 64 * 1024; });
  std::atomic<ConnectionId> sink{0};
  h.events.on_line_hook = [&](ConnectionId id, std::string_view line) {
    if (line == "flood") {
      sink = id;
      for (int i = 0; i < 2000; ++i) h.server->send(id, std::string(1000, 'f'));
      return;
    }
    h.server->send(id, std::string(line));
  };
  ASSERT_TRUE(h.run([&](int port) {
    auto never_reads = WsClient::connect(port, 4096);
    ASSERT_TRUE(never_reads);
    ASSERT_EQ(never_reads->upgrade()->status, 101);
    never_reads->send_text("flood");
    EXPECT_TRUE(eventually([&] { return h.events.closed_total.load() == 1; }));
    WsClient other = connected(port);
    ASSERT_EQ(other.upgrade()->status, 101);
    other.send_text("still here");
    EXPECT_EQ(other.read_text(), "still here");
  }));
  EXPECT_EQ(h.events.closed.count(sink.load()), 1u);
  h.expect_each_closed_once();
}

TEST(WebSocket, IdsStartWhereTheRouterWantsThemAndTheRouterRoutes) {
  Harness h;
  h.server->set_first_id(TransportRouter::kSecondFirstId);
  struct Refuse final : transport::Transport {
    std::vector<ConnectionId> sent;
    void send(ConnectionId id, std::string) override { sent.push_back(id); }
    void close(ConnectionId) override {}
  } tcp;
  TransportRouter router(tcp, *h.server);
  h.events.transport = &router;
  ASSERT_TRUE(h.run([](int port) {
    WsClient c = connected(port);
    ASSERT_EQ(c.upgrade()->status, 101);
    c.send_text("routed");
    EXPECT_EQ(c.read_text(), "routed");
  }));
  ASSERT_EQ(h.events.opened.size(), 1u);
  EXPECT_EQ(h.events.opened[0], TransportRouter::kSecondFirstId);
  router.send(7, "to tcp");
  EXPECT_EQ(tcp.sent, std::vector<ConnectionId>{7});
}

TEST(WebSocket, MaxConnectionsGets503) {
  Harness h([](HttpServerOptions& o) { o.max_connections = 2; });
  ASSERT_TRUE(h.run([](int port) {
    WsClient a = connected(port);
    ASSERT_EQ(a.upgrade()->status, 101);
    WsClient b = connected(port);
    ASSERT_EQ(b.upgrade()->status, 101);
    WsClient c = connected(port);
    auto refused = c.upgrade();
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 503);
    EXPECT_TRUE(c.wait_closed());
  }));
}

TEST(WebSocket, LoopStopClosesEverythingWith1001AndLeavesNoHandles) {
  Harness h;
  std::atomic<bool> got_close{false};
  std::thread client;
  {
    auto done = h.loop.make_wakeup([&] { h.loop.stop(); });
    std::atomic<bool> ready{false};
    client = std::thread([&] {
      WsClient c = connected(h.port);
      if (c.upgrade()->status != 101) return;
      ready = true;
      done->notify();
      got_close = c.read_close() == 1001;
    });
    h.loop.after(10'000, [&] { h.loop.stop(); });
    h.loop.run();
    client.join();
    EXPECT_TRUE(ready);
  }
  EXPECT_TRUE(got_close);
  h.expect_each_closed_once();
}

// As TcpServer.StoppingClosesAnIdlePeerOnceItHasEverything, for a WebSocket peer
// that never answers the server's close frame and an idle kept-alive HTTP
// connection: the stop does not wait for close_timeout_ms (5 s here). The 2 s bound
// tells the two apart on a loaded machine; it is not a speed requirement.
TEST(WebSocket, StoppingClosesIdlePeersOnceTheyHaveEverything) {
  Harness h([](HttpServerOptions& o) { o.close_timeout_ms = 5000; });
  std::optional<WsClient> websocket;  // kept open and unread until the loop is done
  std::optional<WsClient> http;
  std::chrono::steady_clock::time_point stop;
  ASSERT_TRUE(h.run([&](int port) {
    websocket = WsClient::connect(port);
    ASSERT_TRUE(websocket);
    ASSERT_EQ(websocket->upgrade()->status, 101);
    http = WsClient::connect(port);
    ASSERT_TRUE(http);
    ASSERT_EQ(http->get("/")->status, 200);
    stop = std::chrono::steady_clock::now();
  }));
  const auto took = std::chrono::steady_clock::now() - stop;
  std::cout << "[ stopped  ] in "
            << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms\n";
  EXPECT_LT(took, 2s) << "the stop waited for close_timeout_ms";
  EXPECT_EQ(websocket->read_close(), 1001);
  EXPECT_TRUE(websocket->wait_closed(1s));
  EXPECT_TRUE(http->wait_closed(1s));
  h.expect_each_closed_once();
}

}  // namespace
}  // namespace eryantis::net
