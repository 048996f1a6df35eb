#include "json_archive.hpp"

namespace eryantis::codec::detail {

std::string compact_json(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  bool in_string = false;
  bool escaped = false;
  for (char ch : in) {
    if (in_string) {
      out += ch;
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
    } else if (ch == '"') {
      in_string = true;
      out += ch;
    } else if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t') {
      out += ch;
    }
  }
  return out;
}

void parse_object(rapidjson::Document& doc, std::string_view json, const char* what) {
  doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(json.data(),
                                                                                    json.size());
  if (doc.HasParseError())
    fail(std::string("invalid JSON for ") + what + " at offset " +
         std::to_string(doc.GetErrorOffset()) + ": " +
         rapidjson::GetParseError_En(doc.GetParseError()));
  if (!doc.IsObject()) fail(std::string("a ") + what + " must be a JSON object");
}

}  // namespace eryantis::codec::detail
