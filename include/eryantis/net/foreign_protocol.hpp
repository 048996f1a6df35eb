#pragma once
// Recognises HTTP arriving on the game's TCP port, so that the listener can close
// the connection before any of it is read as protocol lines. Any web page can make
// a browser send `POST / HTTP/1.1` with a text/plain body to 127.0.0.1:7777; the
// body's lines would otherwise be played as requests (a cross-protocol attack, the
// reason Redis refuses `POST` and `Host:`). No protocol line can match: a request is
// a JSON object, which starts with '{' (or with whitespace), never with a token
// character. Pure: no I/O.
#include <string_view>

namespace eryantis::net {

// Whether `line` (one line without its "\r\n") is an HTTP request line or header
// line:
//   - a method token, one space and a request target that is a path (`/`...), `*`,
//     or an absolute URI (`scheme://`...): "POST / HTTP/1.1", "x /a", "GET http://h/";
//   - a header line: a field-name token followed at once by ':' ("Host: 127.0.0.1:7777").
// A token is one or more of RFC 9110's tchar (letters, digits and !#$%&'*+-.^_`|~).
bool looks_like_http(std::string_view line);

}  // namespace eryantis::net
