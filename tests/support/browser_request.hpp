#pragma once
// The bytes a browser sends when a page of another site posts text to a local
// port: what Chromium 120 on Linux writes for
//   fetch("http://127.0.0.1:7777/", {method: "POST", mode: "no-cors", body})
// from https://evil.example/ (a "simple" request: no preflight, text/plain).
// The tests of the cross-protocol attack send exactly this.
#include <string>
#include <string_view>

namespace eryantis::test {

inline std::string browser_text_post(std::string_view host_port, std::string_view body) {
  std::string request;
  request.append("POST / HTTP/1.1\r\n")
      .append("Host: ")
      .append(host_port)
      .append("\r\n")
      .append("Connection: keep-alive\r\n")
      .append("Content-Length: ")
      .append(std::to_string(body.size()))
      .append("\r\n")
      .append("sec-ch-ua: \"Not_A Brand\";v=\"8\", \"Chromium\";v=\"120\"\r\n")
      .append("sec-ch-ua-platform: \"Linux\"\r\n")
      .append("sec-ch-ua-mobile: ?0\r\n")
      .append(
          "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/120.0.0.0 Safari/537.36\r\n")
      .append("Content-Type: text/plain;charset=UTF-8\r\n")
      .append("Accept: */*\r\n")
      .append("Origin: https://evil.example\r\n")
      .append("Sec-Fetch-Site: cross-site\r\n")
      .append("Sec-Fetch-Mode: no-cors\r\n")
      .append("Sec-Fetch-Dest: empty\r\n")
      .append("Referer: https://evil.example/\r\n")
      .append("Accept-Encoding: gzip, deflate, br\r\n")
      .append("Accept-Language: en-US,en;q=0.9\r\n")
      .append("\r\n")
      .append(body);
  return request;
}

// The body an attacker's page would post: protocol lines that take a seat.
inline constexpr std::string_view kAttackBody =
    "{\"type\":\"hello\",\"protocol\":1}\n"
    "{\"type\":\"login\",\"nickname\":\"victim\"}\n"
    "{\"type\":\"create_match\",\"players\":2}\n"
    "{\"type\":\"join_match\",\"match\":1}\n"
    "{\"type\":\"play\",\"command\":{\"type\":\"resign\"}}\n";

}  // namespace eryantis::test
