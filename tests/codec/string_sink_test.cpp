// json::StringSink writes rapidjson's output through a cursor into a string kept
// at its capacity: the text must be exactly what rapidjson's own StringBuffer
// writes, whatever the starting capacity and however often it grows.
#include <gtest/gtest.h>

#include <string>

#include "eryantis/json/json.hpp"

namespace eryantis::json {
namespace {

template <class Writer>
void write_sample(Writer& w, int repeat) {
  w.StartObject();
  for (int i = 0; i < repeat; ++i) {
    std::string key = "k";  // not "k" + to_string: g++ 12's -Wrestrict misfires on it
    key += std::to_string(i);
    w.Key(key.c_str());
    w.StartArray();
    w.Int64(-9'007'199'254'740'993LL * (i % 3));
    w.Bool(i % 2 == 0);
    w.Null();
    w.String("quote \" backslash \\ newline \n tab \t nul-free \x01 é");
    w.String(std::string(static_cast<std::size_t>(i) * 37, 'x').c_str());
    w.EndArray();
  }
  w.EndObject();
}

std::string with_string_buffer(int repeat) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  write_sample(w, repeat);
  return std::string(buffer.GetString(), buffer.GetSize());
}

TEST(StringSinkTest, WritesWhatRapidjsonsStringBufferWrites) {
  for (int repeat : {0, 1, 5, 80}) {
    for (std::size_t reserved : {0, 1, 16, 1024, 1 << 16}) {
      std::string text;
      text.reserve(reserved);
      StringSink sink{text};
      rapidjson::Writer<StringSink> w(sink);
      write_sample(w, repeat);
      sink.finish();
      EXPECT_EQ(text, with_string_buffer(repeat)) << repeat << " " << reserved;
    }
  }
}

TEST(StringSinkTest, AppendsAfterWhatTheStringHeldAndBetweenWrites) {
  std::string text = "prefix:";
  StringSink sink{text};
  rapidjson::Writer<StringSink> w(sink);
  w.StartArray();
  w.Int(1);
  w.RawValue("", 0, rapidjson::kObjectType);  // the writer's comma, then raw text
  sink.append(std::string(3000, 'r'));
  w.String("end");
  w.EndArray();
  sink.finish();
  EXPECT_EQ(text, "prefix:[1," + std::string(3000, 'r') + ",\"end\"]");
  sink.finish();  // twice is harmless
  EXPECT_EQ(text.size(), 7 + 3 + 3000 + 7u);
}

}  // namespace
}  // namespace eryantis::json
