#include "eryantis/net/http_request_parser.hpp"

#include <cctype>

namespace eryantis::net {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

// llhttp's C callbacks reach the parser through llhttp_t::data.
struct HttpParserCallbacks {
  static HttpRequestParser& of(llhttp_t* p) { return *static_cast<HttpRequestParser*>(p->data); }

  static const llhttp_settings_t& settings() {
    static const llhttp_settings_t kSettings = [] {
      llhttp_settings_t s;
      llhttp_settings_init(&s);
      s.on_message_begin = [](llhttp_t* p) {
        HttpRequestParser& r = of(p);
        r.request_ = HttpRequest{};
        r.header_field_.clear();
        r.header_value_.clear();
        r.in_value_ = false;
        r.header_bytes_ = 0;
        r.body_bytes_ = 0;
        r.request_done_ = false;
        return 0;
      };
      s.on_url = [](llhttp_t* p, const char* at, std::size_t length) {
        HttpRequestParser& r = of(p);
        if (r.over_header_limit(length)) return -1;
        r.request_.target.append(at, length);
        return 0;
      };
      s.on_header_field = [](llhttp_t* p, const char* at, std::size_t length) {
        HttpRequestParser& r = of(p);
        if (r.over_header_limit(length)) return -1;
        r.end_header();
        r.header_field_.append(at, length);
        return 0;
      };
      s.on_header_value = [](llhttp_t* p, const char* at, std::size_t length) {
        HttpRequestParser& r = of(p);
        if (r.over_header_limit(length)) return -1;
        r.in_value_ = true;
        r.header_value_.append(at, length);
        return 0;
      };
      s.on_headers_complete = [](llhttp_t* p) {
        HttpRequestParser& r = of(p);
        r.end_header();
        r.request_.method = llhttp_method_name(static_cast<llhttp_method_t>(llhttp_get_method(p)));
        const std::size_t query = r.request_.target.find('?');
        r.request_.path = r.request_.target.substr(0, query);
        if (query != std::string::npos) r.request_.query = r.request_.target.substr(query + 1);
        return 0;
      };
      s.on_body = [](llhttp_t* p, const char* at, std::size_t length) {
        HttpRequestParser& r = of(p);
        r.body_bytes_ += length;
        if (r.body_bytes_ <= r.limits_.max_body_bytes) {
          r.request_.body.append(at, length);
          return 0;
        }
        r.reject_status_ = 413;
        return -1;
      };
      s.on_message_complete = [](llhttp_t* p) {
        HttpRequestParser& r = of(p);
        r.request_done_ = true;
        // Upgrades are answered once llhttp has paused (the rest is frames).
        if (llhttp_get_upgrade(p) != 0) return 0;
        return r.sink_->on_request(r.request_) ? 0 : -1;
      };
      return s;
    }();
    return kSettings;
  }
};

HttpRequestParser::HttpRequestParser(HttpRequestLimits limits) : limits_(limits) {
  llhttp_init(&parser_, HTTP_REQUEST, &HttpParserCallbacks::settings());
  parser_.data = this;
}

HttpRequestParser::Fed HttpRequestParser::feed(std::string_view bytes, Sink& sink) {
  sink_ = &sink;
  const llhttp_errno_t error = llhttp_execute(&parser_, bytes.data(), bytes.size());
  sink_ = nullptr;
  if (error == HPE_OK) return {};
  if (error == HPE_PAUSED_UPGRADE) {
    const char* rest = llhttp_get_error_pos(&parser_);
    const std::size_t used =
        rest != nullptr ? static_cast<std::size_t>(rest - bytes.data()) : bytes.size();
    return {request_done_ ? Outcome::upgrade : Outcome::more, used, 0};
  }
  if (error == HPE_CB_MESSAGE_COMPLETE) return {Outcome::stopped, 0, 0};
  return {Outcome::refused, 0, reject_status_ != 0 ? reject_status_ : 400};
}

bool HttpRequestParser::keep_alive() const {
  return llhttp_should_keep_alive(&parser_) != 0 && !upgrade();
}

bool HttpRequestParser::upgrade() const {
  // llhttp's getter takes a non-const parser; it only reads the field.
  return parser_.upgrade != 0;
}

bool HttpRequestParser::over_header_limit(std::size_t length) {
  header_bytes_ += length;
  if (header_bytes_ <= limits_.max_header_bytes) return false;
  reject_status_ = 431;
  return true;
}

void HttpRequestParser::end_header() {
  if (in_value_) {
    request_.headers.emplace_back(lower(header_field_), std::move(header_value_));
    header_field_.clear();
    header_value_.clear();
    in_value_ = false;
  }
}

}  // namespace eryantis::net
