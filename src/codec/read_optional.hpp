#pragma once
// An optional field as both readers (JSON and binary) decode it: absent, or
// read into a fresh value by the walk's `inner`.
#include <optional>
#include <utility>

#include "eryantis/rules/fields.hpp"

namespace eryantis::codec::detail {

template <class Reader, class T, class F>
void read_optional(Reader& reader, bool present, rules::fields::Key k, std::optional<T>& x,
                   F&& inner) {
  if (!present) {
    x.reset();
    return;
  }
  T value{};
  std::forward<F>(inner)(reader, k, value);
  x = value;
}

}  // namespace eryantis::codec::detail
