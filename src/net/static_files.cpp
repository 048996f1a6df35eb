#include "eryantis/net/static_files.hpp"

#include <sys/stat.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace eryantis::net {

namespace fs = std::filesystem;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool dot_segment(std::string_view segment) {
  return segment == "." || segment == "..";
}

// An ETag changes when the file does: its size and modification time in ns.
std::string etag_of(const struct stat& info) {
  const auto ns = static_cast<unsigned long long>(info.st_mtim.tv_sec) * 1'000'000'000ULL +
                  static_cast<unsigned long long>(info.st_mtim.tv_nsec);
  char text[64];
  std::snprintf(text, sizeof text, "\"%llx-%llx\"", static_cast<unsigned long long>(info.st_size),
                ns);
  return text;
}

// If-None-Match is a list of ETags (or "*"); weak ones (W/"...") compare too (RFC 9110 §13.1.2).
bool matches_etag(const std::string& header, const std::string& etag) {
  std::size_t pos = 0;
  while (pos < header.size()) {
    std::size_t end = header.find(',', pos);
    if (end == std::string::npos) end = header.size();
    std::string_view item(header.data() + pos, end - pos);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.starts_with("W/")) item.remove_prefix(2);
    if (item == "*" || item == etag) return true;
    pos = end + 1;
  }
  return false;
}

// A segment naming a hidden file or folder (".git", ".env", ".htpasswd"): such
// files are not part of a built client, but they end up beside it (a checkout,
// an editor's swap file, a deploy's secrets), so none is ever served.
bool has_hidden_segment(std::string_view path) {
  std::size_t start = 0;
  while (start < path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start && path[start] == '.') return true;
    start = end + 1;
  }
  return false;
}

bool inside(const std::string& root, const std::string& path) {
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          path[root.size()] == '/');
}

}  // namespace

std::optional<std::string> decode_request_path(std::string_view encoded) {
  if (encoded.empty() || encoded.front() != '/') return std::nullopt;
  std::string decoded;
  decoded.reserve(encoded.size());
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    char c = encoded[i];
    if (c == '%') {
      if (i + 2 >= encoded.size()) return std::nullopt;
      const int high = hex_value(encoded[i + 1]);
      const int low = hex_value(encoded[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      c = static_cast<char>(high * 16 + low);
      // An encoded separator would make one segment look like two to the file system.
      if (c == '/' || c == '\\') return std::nullopt;
      i += 2;
    }
    if (c == '\0' || c == '\\') return std::nullopt;
    decoded.push_back(c);
  }
  std::size_t start = 1;
  while (start <= decoded.size()) {
    std::size_t end = decoded.find('/', start);
    if (end == std::string::npos) end = decoded.size();
    if (dot_segment(std::string_view(decoded).substr(start, end - start))) return std::nullopt;
    start = end + 1;
  }
  return decoded;
}

std::string_view content_type_for(std::string_view file_name) {
  struct Type {
    std::string_view extension;
    std::string_view type;
  };
  static constexpr std::array<Type, 16> kTypes = {{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".ico", "image/x-icon"},
      {".webp", "image/webp"},
      {".woff2", "font/woff2"},
      {".woff", "font/woff"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".webmanifest", "application/manifest+json"},
  }};
  for (const Type& t : kTypes)
    if (file_name.ends_with(t.extension)) return t.type;
  return "application/octet-stream";
}

StaticFiles::StaticFiles(std::string root, std::size_t max_file_bytes)
    : max_file_bytes_(max_file_bytes) {
  if (root.empty()) return;
  std::error_code ec;
  // A folder that does not exist yet (the client not built) serves 404s until it does.
  const fs::path canonical = fs::weakly_canonical(fs::absolute(root, ec), ec);
  root_ = ec ? root : canonical.string();
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

HttpResponse StaticFiles::serve(const HttpRequest& request) const {
  const HttpResponse not_found = HttpResponse::text(404, "not found\n");
  if (root_.empty()) return not_found;
  const std::optional<std::string> decoded = decode_request_path(request.path);
  if (!decoded || has_hidden_segment(*decoded)) return not_found;
  std::string wanted = root_ + *decoded;
  if (wanted.back() == '/') wanted += "index.html";

  std::error_code ec;
  // Symlinks are followed, then the result must still lie inside the folder.
  fs::path real = fs::canonical(wanted, ec);
  if (ec) return not_found;
  if (fs::is_directory(real, ec)) real = fs::canonical(real / "index.html", ec);
  if (ec || !inside(root_, real.string())) return not_found;
  // A symlink inside the folder may point at a hidden file inside it too.
  if (has_hidden_segment(std::string_view(real.native()).substr(root_.size()))) return not_found;

  struct stat info {};
  if (::stat(real.c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
      static_cast<std::size_t>(info.st_size) > max_file_bytes_) {
    return not_found;
  }
  HttpResponse response;
  const std::string etag = etag_of(info);
  response.headers.emplace_back("ETag", etag);
  // Revalidate every time: the built client's file names carry no hash, and a 304
  // costs one round trip with no body.
  response.headers.emplace_back("Cache-Control", "no-cache");
  response.content_type = std::string(content_type_for(real.filename().string()));
  if (const std::string* none_match = request.header("if-none-match");
      none_match != nullptr && matches_etag(*none_match, etag)) {
    response.status = 304;
    return response;
  }
  std::ifstream in(real, std::ios::binary);
  if (!in) return not_found;
  response.body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return response;
}

}  // namespace eryantis::net
