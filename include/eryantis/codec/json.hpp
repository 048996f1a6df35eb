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

#include <cstddef>
#include <stdexcept>

namespace eryantis::codec {
struct JsonAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
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
