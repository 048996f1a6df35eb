#pragma once
// The project's one configuration of rapidjson, complete before the first rapidjson
// header: every file that reads or writes JSON reaches rapidjson through
// eryantis/json/json.hpp (or fwd.hpp, for a declaration), never <rapidjson/...> or
// <cereal/archives/json.hpp> directly (the ctest `json_includes_use_the_wrapper`
// fails otherwise): rapidjson's inline functions are configured by macros, and two
// configurations in one binary are the same functions compiled two ways. Kept in
// this one header so no include order can matter (clang-format sorts includes).
//
// - RAPIDJSON_ASSERT throws JsonAssertion (a std::runtime_error) instead of
//   calling assert(), which Release builds compile out: misuse on hostile input
//   becomes an exception the decoders turn into an error value.
// - Parse and write flags default to none (strict JSON: no NaN or Infinity, the
//   exact text the protocol has always accepted); callers pass their own flags.
#if defined(RAPIDJSON_RAPIDJSON_H_) && !defined(ERYANTIS_JSON_CONFIGURED)
#error "rapidjson was included before eryantis/json/config.hpp: include only the wrapper"
#endif
#define ERYANTIS_JSON_CONFIGURED 1

#include <stdexcept>

namespace eryantis::json {
struct JsonAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace eryantis::json

// cereal's JSON archive keeps these (it defines each only when it is not defined yet).
#define RAPIDJSON_ASSERT_THROWS
#define RAPIDJSON_ASSERT(x)                                                             \
  if (!(x)) {                                                                           \
    throw ::eryantis::json::JsonAssertion("rapidjson internal assertion failure: " #x); \
  }
#define RAPIDJSON_PARSE_DEFAULT_FLAGS kParseNoFlags
#define RAPIDJSON_WRITE_DEFAULT_FLAGS kWriteNoFlags
