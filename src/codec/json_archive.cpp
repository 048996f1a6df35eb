#include "json_archive.hpp"

namespace eryantis::codec::detail {

void parse_object(PooledDocument& doc, std::string_view json, const char* what) {
  doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(json.data(),
                                                                                    json.size());
  if (doc.HasParseError())
    fail(std::string("invalid JSON for ") + what + " at offset " +
         std::to_string(doc.GetErrorOffset()) + ": " +
         rapidjson::GetParseError_En(doc.GetParseError()));
  if (!doc.IsObject()) fail(std::string("a ") + what + " must be a JSON object");
}

}  // namespace eryantis::codec::detail
