#pragma once
// GET and HEAD of the files under one folder: Content-Type from the extension,
// a validator (ETag from size and modification time) with `Cache-Control:
// no-cache`, so a browser revalidates and gets 304 when nothing changed.
// A request never reaches outside the folder: `..` and `.` segments, encoded
// slashes, backslashes and NUL are refused before the file system is asked, and
// the resolved path (symlinks followed) must still lie inside the folder.
// Hidden files are never served: a segment starting with '.' (`/.git/config`,
// `/.env`, also percent-encoded: `/%2egit/`), in the request or in the resolved
// path under the folder, is a 404.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/net/http_message.hpp"

namespace eryantis::net {

// The percent-decoded path, or nullopt when it must not be served: not starting
// with '/', a bad escape, an encoded '/' or '\' (%2F, %5C), a NUL, a backslash,
// or a "." or ".." segment (also when encoded).
std::optional<std::string> decode_request_path(std::string_view encoded);

// The Content-Type for a file name, by extension (application/octet-stream
// when unknown).
std::string_view content_type_for(std::string_view file_name);

class StaticFiles {
 public:
  // `root` empty: nothing is served (every answer is 404).
  StaticFiles(std::string root, std::size_t max_file_bytes);

  // The answer to a GET or HEAD (the caller handles other methods): 200 with
  // the file, 304 when If-None-Match names its ETag, 404 otherwise (also for a
  // hidden file). A path that
  // names a folder serves its index.html.
  HttpResponse serve(const HttpRequest& request) const;

 private:
  std::string root_;  // canonical, or empty
  std::size_t max_file_bytes_;
};

}  // namespace eryantis::net
