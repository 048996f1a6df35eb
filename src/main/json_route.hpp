#pragma once
// What main's JSON routes (help_route.cpp, standings.cpp) share: a string written as
// it is, and a coded error as {"code":...,"message":...} with its HTTP status.
#include <string>
#include <string_view>

#include "eryantis/json/json.hpp"
#include "eryantis/net/http_message.hpp"

namespace eryantis::app::json_route {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

inline void put(Writer& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

inline net::HttpResponse error(int status, std::string_view code, std::string_view message) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  put(w, "code");
  put(w, code);
  put(w, "message");
  put(w, message);
  w.EndObject();
  return net::HttpResponse::json(std::string(buffer.GetString(), buffer.GetSize()), status);
}

}  // namespace eryantis::app::json_route
