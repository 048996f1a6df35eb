#include "support/websocket_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstring>

namespace eryantis::test {

namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

const std::string* HttpReply::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return &value;
  return nullptr;
}

int WsFrame::close_code() const {
  if (opcode != WsClient::kClose || payload.size() < 2) return 0;
  return (static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]);
}

std::optional<WsClient> WsClient::connect(int port, int receive_buffer) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return std::nullopt;
  if (receive_buffer > 0)
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  return WsClient(fd);
}

WsClient::WsClient(WsClient&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), buffer_(std::move(other.buffer_)) {}

WsClient& WsClient::operator=(WsClient&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

WsClient::~WsClient() {
  close();
}

void WsClient::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool WsClient::send_all(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool WsClient::fill(std::size_t count, std::chrono::steady_clock::time_point deadline) {
  char chunk[16 * 1024];
  while (buffer_.size() < count) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
  return true;
}

std::optional<HttpReply> WsClient::read_reply(bool head, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t end = std::string::npos;
  while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
    if (!fill(buffer_.size() + 1, deadline)) return std::nullopt;
  HttpReply reply;
  const std::string head_text = buffer_.substr(0, end);
  buffer_.erase(0, end + 4);
  std::size_t line_end = head_text.find("\r\n");
  const std::string status_line = head_text.substr(0, line_end);
  if (status_line.size() < 12) return std::nullopt;
  reply.status = std::atoi(status_line.substr(9, 3).c_str());
  while (line_end != std::string::npos) {
    const std::size_t start = line_end + 2;
    line_end = head_text.find("\r\n", start);
    const std::string line = head_text.substr(
        start, line_end == std::string::npos ? std::string::npos : line_end - start);
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    reply.headers.emplace_back(lower(line.substr(0, colon)), value);
  }
  if (head || reply.status == 101 || reply.status == 304) return reply;
  const std::string* length = reply.header("content-length");
  const std::size_t size = length != nullptr ? std::stoul(*length) : 0;
  if (!fill(size, deadline)) return std::nullopt;
  reply.body = buffer_.substr(0, size);
  buffer_.erase(0, size);
  return reply;
}

std::optional<HttpReply> WsClient::get(std::string_view target, std::string_view extra_headers,
                                       std::string_view method) {
  std::string request(method);
  request.append(" ").append(target).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  request.append(extra_headers).append("\r\n");
  if (!send_all(request)) return std::nullopt;
  return read_reply(method == "HEAD");
}

std::optional<HttpReply> WsClient::upgrade(std::string_view path, std::string_view extra_headers) {
  std::string headers =
      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
  headers.append(extra_headers);
  return get(path, headers);
}

bool WsClient::send_frame(int opcode, std::string_view payload, bool fin, bool masked) {
  std::string frame;
  frame.push_back(static_cast<char>((fin ? 0x80 : 0) | (opcode & 0x0f)));
  const char mask_bit = masked ? static_cast<char>(0x80) : 0;
  if (payload.size() < 126) {
    frame.push_back(static_cast<char>(mask_bit | static_cast<char>(payload.size())));
  } else if (payload.size() <= 0xffff) {
    frame.push_back(static_cast<char>(mask_bit | 126));
    frame.push_back(static_cast<char>(payload.size() >> 8));
    frame.push_back(static_cast<char>(payload.size() & 0xff));
  } else {
    frame.push_back(static_cast<char>(mask_bit | 127));
    for (int shift = 56; shift >= 0; shift -= 8)
      frame.push_back(
          static_cast<char>((static_cast<std::uint64_t>(payload.size()) >> shift) & 0xff));
  }
  if (!masked) return send_all(frame + std::string(payload));
  mask_seed_ = mask_seed_ * 1664525u + 1013904223u;  // any key will do: it is not a secret here
  char key[4];
  std::memcpy(key, &mask_seed_, 4);
  frame.append(key, 4);
  for (std::size_t i = 0; i < payload.size(); ++i) frame.push_back(payload[i] ^ key[i % 4]);
  return send_all(frame);
}

std::optional<WsFrame> WsClient::read_frame(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  if (!fill(2, deadline)) return std::nullopt;
  const auto byte = [this](std::size_t i) { return static_cast<unsigned char>(buffer_[i]); };
  WsFrame frame;
  frame.fin = (byte(0) & 0x80) != 0;
  frame.opcode = byte(0) & 0x0f;
  std::uint64_t length = byte(1) & 0x7f;
  std::size_t header = 2;
  if (length == 126) {
    if (!fill(4, deadline)) return std::nullopt;
    length = (std::uint64_t{byte(2)} << 8) | byte(3);
    header = 4;
  } else if (length == 127) {
    if (!fill(10, deadline)) return std::nullopt;
    length = 0;
    for (std::size_t i = 2; i < 10; ++i) length = (length << 8) | byte(i);
    header = 10;
  }
  if (!fill(header + length, deadline)) return std::nullopt;
  frame.payload = buffer_.substr(header, length);
  buffer_.erase(0, header + length);
  return frame;
}

std::optional<std::string> WsClient::read_text(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    auto frame = read_frame(left);
    if (!frame) return std::nullopt;
    if (frame->opcode == kText) return frame->payload;
    if (frame->opcode == kClose) return std::nullopt;
  }
}

std::optional<int> WsClient::read_close(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    auto frame = read_frame(left);
    if (!frame) return std::nullopt;
    if (frame->opcode == kClose) return frame->close_code();
  }
}

bool WsClient::wait_closed(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  buffer_.clear();
  while (true) {
    if (!fill(1, deadline)) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      return true;  // EOF or reset
    }
    buffer_.clear();
  }
}

}  // namespace eryantis::test
