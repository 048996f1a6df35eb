#pragma once
// The platform's handles on a game's values (a state, a command, an event, a
// match's options): an immutable value of a type only its game knows, shared by
// copying a pointer. The platform stores, compares and passes them; only the game
// that made one looks inside (Value::get, in its adapter).
//
// Immutable and shared because the platform copies them often (a room's state into
// a decision request, an event into a write and a broadcast) and never changes
// one: a copy is a reference count, never a State copy. The one exception is a
// fold, which owns its state alone: mutate() changes it in place when nobody else
// holds it (copy on write), so folding N events allocates once, not N times.
#include <cassert>
#include <memory>
#include <utility>

namespace eryantis::game {

template <class Tag>
class Value {
 public:
  Value() = default;

  // Wraps a game's own value (its adapter does this).
  template <class T>
  static Value of(T value) {
    Value v;
    v.ptr_ = std::make_shared<T>(std::move(value));
    v.ops_ = &ops_of<T>();
    return v;
  }

  bool empty() const { return ptr_ == nullptr; }
  explicit operator bool() const { return ptr_ != nullptr; }

  // True when this holds a T (a value of the game whose adapter asks).
  template <class T>
  bool holds() const {
    return ops_ == &ops_of<T>();
  }
  // PRECONDITION: holds<T>() (checked in debug builds): a value reaches only the
  // game that made it, because the platform keeps each match with its game.
  template <class T>
  const T& get() const {
    assert(holds<T>());
    return *static_cast<const T*>(ptr_.get());
  }
  // The value to change in place: copied first if anybody else shares it.
  template <class T>
  T& mutate() {
    assert(holds<T>());
    if (ptr_.use_count() != 1) ptr_ = std::make_shared<T>(get<T>());
    // Made by make_shared<T> above or in of(): the object itself is not const.
    return *const_cast<T*>(static_cast<const T*>(ptr_.get()));
  }

  // Equal values of the same type (commands in a search tree, states in tests).
  friend bool operator==(const Value& a, const Value& b) {
    if (a.ptr_ == b.ptr_) return true;
    if (!a.ptr_ || !b.ptr_ || a.ops_ != b.ops_) return false;
    return a.ops_->equal(a.ptr_.get(), b.ptr_.get());
  }

 private:
  struct Ops {
    bool (*equal)(const void*, const void*);
  };
  // One Ops per type in the whole program (an inline function's static): its
  // address is the type's identity.
  template <class T>
  static const Ops& ops_of() {
    static const Ops ops{[](const void* a, const void* b) {
      return *static_cast<const T*>(a) == *static_cast<const T*>(b);
    }};
    return ops;
  }

  std::shared_ptr<const void> ptr_;
  const Ops* ops_ = nullptr;
};

struct StateTag;
struct CommandTag;
struct EventTag;
struct OptionsTag;

// Everything about one match at one moment, hidden information and the secret
// seed included; a view (Game::view) is a State with what its viewer may not
// see removed.
using State = Value<StateTag>;
// What a seat (or the server) asks for: `play`'s command.
using Command = Value<CommandTag>;
// A validated command plus every random outcome it caused: what the store keeps.
using Event = Value<EventTag>;
// A match's settings chosen at creation (seat count, mode, ...).
using Options = Value<OptionsTag>;

}  // namespace eryantis::game
