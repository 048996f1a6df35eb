#pragma once
// Stored event payloads carry the schema version they were written with; reads
// bring older versions up to rules::kEventSchemaVersion before decoding.
#include <string>

#include "eryantis/store/error.hpp"

namespace eryantis::store {

// The payload of `schema_version`, rewritten as the current version. Today only
// version 1 exists (identity); a version newer than this build is an error.
Result<std::string> upcast(int schema_version, std::string payload);

}  // namespace eryantis::store
