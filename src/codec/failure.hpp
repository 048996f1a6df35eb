#pragma once
// How the codecs fail: a Fail is thrown deep inside a walk and caught once, at
// the API boundary (`decode`), where it and every library exception become a
// DecodeError. No exception ever reaches the codec's callers.
#include <cereal/details/helpers.hpp>

#include <exception>
#include <expected>
#include <string>
#include <string_view>
#include <utility>

#include "eryantis/codec/codec.hpp"

namespace eryantis::codec::detail {

struct Fail {
  std::string message;
};

[[noreturn]] inline void fail(std::string message) {
  throw Fail{std::move(message)};
}

inline std::string quoted(std::string_view s) {
  std::string out = "\"";
  out += s;
  out += '"';
  return out;
}

// Runs `body`, turning every failure into a DecodeError that says what was read.
template <class T, class F>
std::expected<T, DecodeError> decode(const char* what, F&& body) {
  try {
    return body();
  } catch (const Fail& f) {
    return std::unexpected(DecodeError{f.message});
  } catch (const cereal::Exception& e) {
    return std::unexpected(
        DecodeError{std::string(what) + " is truncated or corrupt: " + e.what()});
  } catch (const std::exception& e) {
    return std::unexpected(DecodeError{std::string("cannot decode ") + what + ": " + e.what()});
  }
}

}  // namespace eryantis::codec::detail
