#pragma once
// A command's identity as a string: its type and every field, through the field walk
// (fields.hpp), so the tests can put commands in sets and print them.
#include <string>
#include <variant>

#include "eryantis/renaissance/rules/fields.hpp"

namespace eryantis::renaissance::testing {

class KeyWriter {
 public:
  bool include_seed() const { return true; }
  template <class T>
  void integer(fields::Key k, const T& x, std::int64_t, std::int64_t) {
    put(k);
    out_ += std::to_string(static_cast<std::int64_t>(x));
  }
  void seed(fields::Key k, const MatchSeed& s) {
    put(k);
    out_ += std::to_string(s.lo) + "/" + std::to_string(s.hi);
  }
  void boolean(fields::Key k, const bool& b) {
    put(k);
    out_ += b ? "true" : "false";
  }
  template <class E>
  void enumeration(fields::Key k, const E& e) {
    put(k);
    out_ += std::to_string(static_cast<int>(e));
  }
  template <class T, class F>
  void optional(fields::Key k, const std::optional<T>& x, F&& inner) {
    if (x) inner(*this, k, *x);
  }
  template <class F>
  void object(fields::Key k, F&& body) {
    put(k);
    out_ += "{";
    body(*this);
    out_ += "}";
  }
  template <class C, class F>
  void array(fields::Key k, const C& items, F&& element) {
    put(k);
    out_ += "[";
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, fields::Key(i), items[i]);
    out_ += "]";
  }
  template <class T, class F>
  void list(fields::Key k, const std::vector<T>& items, F&& element, std::size_t) {
    array(k, items, element);
  }
  const std::string& text() const { return out_; }

 private:
  void put(fields::Key k) {
    if (!out_.empty() && out_.back() != '{' && out_.back() != '[') out_ += ",";
    if (!k.in_array()) {
      out_ += k.name;
      out_ += ":";
    }
  }
  std::string out_;
};

inline std::string command_key(const Command& c) {
  KeyWriter w;
  std::visit([&](const auto& x) { fields::walk(w, x); }, c);
  return std::string(command_type(c)) + "{" + w.text() + "}";
}

}  // namespace eryantis::renaissance::testing
