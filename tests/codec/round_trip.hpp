#pragma once
// The round-trip check the codec tests share: JSON and binary both give back
// the same state, with the same hash, and re-encode to the same text and bytes.
#include <gtest/gtest.h>

#include <string>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/decider.hpp"

namespace eryantis::codec::testing {

inline void expect_state_round_trips(const rules::State& s) {
  const std::string json = state_to_json(s);
  auto from_json = state_from_json(json);
  ASSERT_TRUE(from_json.has_value()) << from_json.error().message << "\n" << json;
  EXPECT_EQ(*from_json, s);
  EXPECT_EQ(rules::hash(*from_json), rules::hash(s));
  EXPECT_EQ(state_to_json(*from_json), json);

  const std::string bytes = state_to_binary(s);
  auto from_binary = state_from_binary(bytes);
  ASSERT_TRUE(from_binary.has_value()) << from_binary.error().message;
  EXPECT_EQ(*from_binary, s);
  EXPECT_EQ(state_to_binary(*from_binary), bytes);
}

}  // namespace eryantis::codec::testing
