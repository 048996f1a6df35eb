#pragma once
// The project's one configuration of rapidjson. Every file that reads or writes
// JSON includes this header, never <rapidjson/...> or <cereal/archives/json.hpp>
// directly (the ctest `json_includes_use_the_wrapper` fails the build otherwise):
// rapidjson's inline functions are configured by macros, and two configurations
// in one binary are the same functions compiled two ways.
//
// The configuration, complete before the first rapidjson header (so the order of
// the includes below, which clang-format may sort, does not matter):
// - RAPIDJSON_ASSERT throws JsonAssertion (a std::runtime_error) instead of
//   calling assert(), which Release builds compile out: misuse on hostile input
//   becomes an exception the decoders turn into an error value.
// - Parse and write flags default to none (strict JSON: no NaN or Infinity, the
//   exact text the protocol has always accepted); callers pass their own flags.
#if defined(RAPIDJSON_RAPIDJSON_H_) || defined(CEREAL_ARCHIVES_JSON_HPP_)
#error "rapidjson was included before eryantis/codec/json.hpp: include only the wrapper"
#endif

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace eryantis::codec {
struct JsonAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A rapidjson output stream appending to a std::string through a cursor.
// rapidjson's Writer reserves room before each number, string or literal
// (PutReserve) and then writes it unchecked (PutUnsafe): the string is kept at
// its capacity while writing, so a character is one store, not a push_back
// (which was ~2 % of the server's CPU under bench/load.sh a). Until finish() the
// string holds unwritten bytes past the text: write to it only through append().
class StringSink {
 public:
  using Ch = char;
  // Starts after what `out` holds, using all the capacity the caller reserved.
  explicit StringSink(std::string& out) : out_(out), used_(out.size()) {
    out_.resize(out_.capacity());
  }
  StringSink(const StringSink&) = delete;
  StringSink& operator=(const StringSink&) = delete;

  void Put(char c) {
    reserve(1);
    out_[used_++] = c;
  }
  void Flush() {}
  void reserve(std::size_t n) {
    if (out_.size() - used_ < n) grow(n);
  }
  void put_unchecked(char c) { out_[used_++] = c; }
  void append(std::string_view text) {
    reserve(text.size());
    std::memcpy(out_.data() + used_, text.data(), text.size());
    used_ += text.size();
  }
  // Cuts the string to the text written; the sink may go on writing after it.
  void finish() { out_.resize(used_); }

 private:
  void grow(std::size_t n) {
    out_.resize(std::max(used_ + n, 2 * out_.size()));
    out_.resize(out_.capacity());
  }
  std::string& out_;
  std::size_t used_;
};
}  // namespace eryantis::codec

// cereal's JSON archive keeps these (it defines each only when it is not defined yet).
#define RAPIDJSON_ASSERT_THROWS
#define RAPIDJSON_ASSERT(x)                                                              \
  if (!(x)) {                                                                            \
    throw ::eryantis::codec::JsonAssertion("rapidjson internal assertion failure: " #x); \
  }
#define RAPIDJSON_PARSE_DEFAULT_FLAGS kParseNoFlags
#define RAPIDJSON_WRITE_DEFAULT_FLAGS kWriteNoFlags

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <cereal/archives/json.hpp>

namespace eryantis::codec {

// Found by argument-dependent lookup from rapidjson's Writer: they beat its
// generic templates, which would call Put() per character.
inline void PutReserve(StringSink& sink, std::size_t count) {
  sink.reserve(count);
}
inline void PutUnsafe(StringSink& sink, char c) {
  sink.put_unchecked(c);
}

// The DOM type of LineDocument (its values are plain rapidjson::Value).
using PooledDocument =
    rapidjson::GenericDocument<rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<>,
                               rapidjson::MemoryPoolAllocator<>>;

// A DOM for one message, whose values and parser stack start in buffers inside the
// object: a line of a few KiB is parsed without touching the heap. rapidjson's
// default Document mallocs a 64 KiB chunk per parse, and glibc consolidates its
// fast bins whenever a chunk that large is freed: on the server's loop that was a
// malloc_consolidate per request. Larger input continues in 16 KiB heap chunks.
// Not copyable or movable (the allocators point into the object); keep it local.
class LineDocument {
 public:
  LineDocument() = default;
  LineDocument(const LineDocument&) = delete;
  LineDocument& operator=(const LineDocument&) = delete;
  PooledDocument& doc() { return doc_; }

 private:
  static constexpr std::size_t kChunk = 16 * 1024;
  alignas(16) char values_[4096];
  alignas(16) char stack_[1024];
  rapidjson::MemoryPoolAllocator<> value_pool_{values_, sizeof values_, kChunk};
  rapidjson::MemoryPoolAllocator<> stack_pool_{stack_, sizeof stack_, kChunk};
  PooledDocument doc_{&value_pool_, 512, &stack_pool_};
};

}  // namespace eryantis::codec
