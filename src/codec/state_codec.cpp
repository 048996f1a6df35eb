// States and views, in JSON and in binary: the field walk of the state run
// through the archives, framed by the schema version.
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>

#include "binary_archive.hpp"
#include "eryantis/codec/codec.hpp"
#include "json_archive.hpp"

namespace eryantis::codec {

namespace {

using detail::fail;
using detail::JsonIn;
using detail::JsonOut;
using rules::fields::seat_field;
using rules::fields::walk;

// A state's or a view's JSON: at most 3,766 bytes over 90 random games of every size.
constexpr std::size_t kStateJsonBytes = 4096;

// The binary header: the state schema, where version 1 holds a 64-bit seed and
// version 2 the same fields with a 128-bit seed (lo, then hi). A seed with
// hi == 0 is written as version 1, byte for byte what was written before.
constexpr std::uint32_t kBinaryNarrowSeed = kStateSchemaVersion;
constexpr std::uint32_t kBinaryWideSeed = 2;

// Checks between fields, after a decode.
void check_decoded_state(const rules::State& s) {
  if (s.mother_nature >= s.group_count)
    fail("mother_nature (" + std::to_string(s.mother_nature) + ") must be below group_count (" +
         std::to_string(s.group_count) + ")");
}

void write_state(JsonOut& out, const rules::State& s) {
  out.integer("schema", kStateSchemaVersion, 0, 0);
  walk(out, s);
}

rules::State read_state(JsonIn& in) {
  const std::int64_t schema = in.read_integer("schema", std::numeric_limits<std::int64_t>::min(),
                                              std::numeric_limits<std::int64_t>::max());
  if (schema != kStateSchemaVersion)
    fail("state schema version " + std::to_string(schema) +
         " is not supported (this build reads version " + std::to_string(kStateSchemaVersion) +
         ")");
  rules::State s;
  walk(in, s);
  check_decoded_state(s);
  return s;
}

}  // namespace

std::string state_to_json(const rules::State& s) {
  return detail::write_json(
      {}, [&](JsonOut& out) { write_state(out, s); }, kStateJsonBytes);
}

std::expected<rules::State, DecodeError> state_from_json(std::string_view json) {
  return detail::read_json_object<rules::State>(json, "state JSON", "state", read_state);
}

std::string state_to_binary(const rules::State& s) {
  const bool wide = s.seed.hi != 0;
  std::ostringstream os;
  {
    cereal::PortableBinaryOutputArchive ar(os);
    ar(wide ? kBinaryWideSeed : kBinaryNarrowSeed);
    detail::BinOut out(ar, wide);
    walk(out, s);
  }
  return std::move(os).str();
}

std::expected<rules::State, DecodeError> state_from_binary(std::string_view bytes) {
  return detail::decode<rules::State>("binary state", [&] {
    // cereal's first byte says whether the writer was little-endian (1) or not (0).
    if (bytes.empty() || static_cast<unsigned char>(bytes.front()) > 1)
      fail("not a binary state (bad header byte)");
    detail::MemoryBuf buf(bytes);
    std::istream is(&buf);
    cereal::PortableBinaryInputArchive ar(is);
    std::uint32_t schema = 0;
    ar(schema);
    if (schema != kBinaryNarrowSeed && schema != kBinaryWideSeed)
      fail("binary state schema version " + std::to_string(schema) +
           " is not supported (this build reads versions " + std::to_string(kBinaryNarrowSeed) +
           " and " + std::to_string(kBinaryWideSeed) + ")");
    rules::State s;
    detail::BinIn in(ar, schema == kBinaryWideSeed);
    walk(in, s);
    if (buf.remaining() != 0)
      fail("binary state has " + std::to_string(buf.remaining()) + " unexpected trailing bytes");
    check_decoded_state(s);
    return s;
  });
}

std::string view_to_json(const rules::View& v) {
  return detail::write_json(
      {.include_seed = false},
      [&](JsonOut& out) {
        seat_field(out, "viewer", v.viewer);
        out.object("state", [&](JsonOut& o) { write_state(o, v.state); });
      },
      kStateJsonBytes);
}

std::expected<rules::View, DecodeError> view_from_json(std::string_view json) {
  return detail::read_json_object<rules::View>(json, "view JSON", "view", [](JsonIn& in) {
    rules::View v;
    v.viewer =
        static_cast<rules::Seat>(in.read_integer("viewer", rules::kNoSeat, rules::kMaxPlayers - 1));
    const rapidjson::Value* state = in.find("state");
    if (state == nullptr || !state->IsObject()) fail("field \"state\" must be an object");
    JsonIn st(*state, "state", /*with_seed=*/false);
    v.state = read_state(st);
    return v;
  });
}

}  // namespace eryantis::codec
