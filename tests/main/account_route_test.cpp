// The web page's cookie routes (account_route.hpp), without a server: each refusal
// with its status and code, the cookie's attributes, a ticket redeemed once.
#include "eryantis/main/account_route.hpp"

#include <gtest/gtest.h>

#include <string>

namespace eryantis::app {
namespace {

net::HttpRequest post(std::string path, std::string body,
                      std::string type = "application/json") {
  net::HttpRequest r;
  r.method = "POST";
  r.path = r.target = std::move(path);
  if (!type.empty()) r.headers.emplace_back("content-type", std::move(type));
  r.body = std::move(body);
  return r;
}

const std::string* set_cookie(const net::HttpResponse& r) {
  for (const auto& [name, value] : r.headers)
    if (name == "Set-Cookie") return &value;
  return nullptr;
}

class AccountRoute : public ::testing::Test {
 protected:
  net::HttpResponse answer(const net::HttpRequest& r, bool origin_ok = true,
                           AccountRouteOptions options = {}) {
    return account_response(
        r, origin_ok,
        [this](std::string_view ticket) -> std::optional<SessionGrant> {
          ++asked_;
          if (ticket != "good" || used_) return std::nullopt;
          used_ = true;
          return SessionGrant{std::string(64, 'a'), "Alice", 3600};
        },
        options);
  }
  int asked_ = 0;
  bool used_ = false;
};

TEST_F(AccountRoute, ATicketBecomesAnHttpOnlyStrictCookieOnce) {
  const net::HttpResponse r = answer(post("/account/session", R"({"ticket":"good"})"));
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, R"({"type":"session","name":"Alice"})");
  const std::string* cookie = set_cookie(r);
  ASSERT_NE(cookie, nullptr);
  EXPECT_EQ(*cookie, "eryantis_session=" + std::string(64, 'a') +
                         "; HttpOnly; SameSite=Strict; Path=/; Max-Age=3600");
  const net::HttpResponse again = answer(post("/account/session", R"({"ticket":"good"})"));
  EXPECT_EQ(again.status, 401);
  EXPECT_NE(again.body.find("BAD_TICKET"), std::string::npos);
  EXPECT_EQ(set_cookie(again), nullptr);
}

TEST_F(AccountRoute, SecureWhenConfigured) {
  const net::HttpResponse r =
      answer(post("/account/session", R"({"ticket":"good"})"), true, AccountRouteOptions{true});
  ASSERT_NE(set_cookie(r), nullptr);
  EXPECT_TRUE(set_cookie(r)->ends_with("; Secure")) << *set_cookie(r);
}

TEST_F(AccountRoute, LogoutClearsTheCookie) {
  const net::HttpResponse r = answer(post("/account/logout", "{}"));
  EXPECT_EQ(r.status, 200);
  ASSERT_NE(set_cookie(r), nullptr);
  EXPECT_EQ(*set_cookie(r), "eryantis_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
}

TEST_F(AccountRoute, EveryRefusalHasItsCodeAndTakesNoTicket) {
  struct Case {
    net::HttpRequest request;
    bool origin_ok;
    int status;
    std::string code;
  };
  net::HttpRequest get = post("/account/session", R"({"ticket":"good"})");
  get.method = "GET";
  const Case cases[] = {
      {post("/account/session", R"({"ticket":"good"})"), false, 403, "BAD_ORIGIN"},
      {post("/account/logout", "{}"), false, 403, "BAD_ORIGIN"},
      {get, true, 405, "METHOD"},
      {post("/account/session", R"({"ticket":"good"})", "text/plain"), true, 415,
       "BAD_CONTENT_TYPE"},
      {post("/account/session", R"({"ticket":"good"})", ""), true, 415, "BAD_CONTENT_TYPE"},
      {post("/account/session", std::string(2000, ' ')), true, 413, "TOO_LARGE"},
      {post("/account/session", "{\"ticket\":"), true, 400, "BAD_JSON"},
      {post("/account/session", "[]"), true, 400, "BAD_JSON"},
      {post("/account/session", R"({"ticket":7})"), true, 400, "MISSING_FIELD"},
      {post("/account/other", "{}"), true, 404, "NOT_FOUND"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.code);
    const net::HttpResponse r = answer(c.request, c.origin_ok);
    EXPECT_EQ(r.status, c.status);
    EXPECT_NE(r.body.find("\"code\":\"" + c.code + "\""), std::string::npos) << r.body;
    EXPECT_EQ(set_cookie(r), nullptr);
  }
  EXPECT_EQ(asked_, 0);
  EXPECT_EQ(answer(post("/account/session", R"({"ticket":"good"})")).status, 200);
}

TEST(HttpRequestCookie, FindsTheNamedCookieAmongOthers) {
  net::HttpRequest r;
  r.headers.emplace_back("cookie", "theme=dark; eryantis_session=abc ;x=1");
  r.headers.emplace_back("cookie", "late=2");
  EXPECT_EQ(r.cookie("eryantis_session"), "abc");
  EXPECT_EQ(r.cookie("x"), "1");
  EXPECT_EQ(r.cookie("late"), "2");
  EXPECT_EQ(r.cookie("eryantis"), std::nullopt);
  EXPECT_EQ(r.cookie("session"), std::nullopt);
}

}  // namespace
}  // namespace eryantis::app
