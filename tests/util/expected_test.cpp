#include "eryantis/util/expected.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace eryantis::util {
namespace {

struct Error {
  int code = 0;
  std::unique_ptr<std::string> detail;  // move-only: forward_error must move, not copy
};

std::expected<int, Error> fails() {
  return std::unexpected(Error{7, std::make_unique<std::string>("disk")});
}

std::expected<std::string, Error> caller() {
  auto r = fails();
  if (!r) return forward_error(r);
  return "unreached";
}

TEST(ForwardError, PassesTheErrorUpAcrossValueTypes) {
  auto r = caller();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, 7);
  ASSERT_NE(r.error().detail, nullptr);
  EXPECT_EQ(*r.error().detail, "disk");
}

TEST(ForwardError, CopiesFromAConstResult) {
  const std::expected<void, std::string> failed = std::unexpected(std::string("busy"));
  std::expected<int, std::string> up = forward_error(failed);
  ASSERT_FALSE(up);
  EXPECT_EQ(up.error(), "busy");
  EXPECT_EQ(failed.error(), "busy");  // untouched
}

}  // namespace
}  // namespace eryantis::util
