#pragma once
// Error propagation for std::expected: `if (!r) return forward_error(r);` passes a
// failed result's error up unchanged, whatever the value types on either side.
// One helper instead of ~100 hand-written `std::unexpected(std::move(r.error()))`.
#include <expected>
#include <utility>

namespace eryantis::util {

// Precondition: `result` holds an error (callers test it first). The error is moved
// out: `result` must not be read afterwards.
template <class T, class E>
[[nodiscard]] std::unexpected<E> forward_error(std::expected<T, E>& result) {
  return std::unexpected<E>(std::move(result.error()));
}

template <class T, class E>
[[nodiscard]] std::unexpected<E> forward_error(std::expected<T, E>&& result) {
  return std::unexpected<E>(std::move(result.error()));
}

// A const result's error is copied.
template <class T, class E>
[[nodiscard]] std::unexpected<E> forward_error(const std::expected<T, E>& result) {
  return std::unexpected<E>(result.error());
}

}  // namespace eryantis::util
