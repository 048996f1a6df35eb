#pragma once
// rapidjson in the project's one configuration (eryantis/json/config.hpp), and the
// two pieces every JSON writer and reader of ours shares: a string sink that
// writes through a cursor, and a document that parses a message without the heap.
#include "eryantis/json/config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace eryantis::json {

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
}  // namespace eryantis::json

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <cereal/archives/json.hpp>

namespace eryantis::json {

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

}  // namespace eryantis::json
