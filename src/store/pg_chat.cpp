// The PostgreSQL store's chat (event_store.hpp, chat.hpp): rows of chat_messages.
#include <spdlog/fmt/fmt.h>

#include "eryantis/store/chat.hpp"
#include "eryantis/util/expected.hpp"
#include "pg_impl.hpp"

namespace eryantis::store {

namespace {

constexpr std::string_view kChatColumns =
    "id, match_id, channel, sender_name, sent_ms, text, deleted_ms, deleted_by";

ChatMessage chat_from_row(const pg::Rows& rows, int r) {
  ChatMessage m;
  m.id = rows.integer(r, 0);
  m.match = rows.integer(r, 1);
  m.channel = parse_channel(rows.text(r, 2)).value_or(ChatChannel::Players);
  m.sender_name = std::string(rows.text(r, 3));
  m.sent_ms = rows.integer(r, 4);
  m.text = std::string(rows.text(r, 5));
  if (!rows.is_null(r, 6)) m.deleted_ms = rows.integer(r, 6);
  m.deleted_by = rows.optional_text(r, 7).value_or("");
  return m;
}

}  // namespace

Result<std::vector<Result<ChatMessageId>>> PgStore::append_chat(
    std::span<const NewChatMessage> messages) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  std::vector<Result<ChatMessageId>> ids;
  if (messages.empty()) return ids;
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto tx = pg::Transaction::begin(impl_->conn);
  if (!tx) return util::forward_error(tx);
  for (const NewChatMessage& m : messages) {
    // A message whose match has no row inserts nothing (NotFound for it alone).
    auto rows = impl_->conn.query(
        "INSERT INTO chat_messages (match_id, channel, sender_name, sent_ms, text) "
        "SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM matches WHERE id = $1) "
        "RETURNING id",
        pg::Params()
            .add(m.match)
            .add(channel_name(m.channel))
            .add(m.sender_name)
            .add(m.sent_ms)
            .add(m.text));
    if (!rows) return util::forward_error(rows);
    if (rows->empty())
      ids.push_back(fail(StoreCode::NotFound, fmt::format("no match {}", m.match)));
    else
      ids.push_back(rows->integer(0, 0));
  }
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return ids;
}

Result<std::vector<ChatMessage>> PgStore::chat_messages(const ChatQuery& query) {
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto rows = impl_->conn.query(
      fmt::format("SELECT * FROM (SELECT {} FROM chat_messages WHERE match_id = $1 "
                  "AND ($2::text IS NULL OR channel = $2::text) AND ($3::bigint = 1 OR deleted_ms IS NULL) "
                  "ORDER BY id DESC LIMIT $4) newest ORDER BY id",
                  kChatColumns),
      pg::Params()
          .add(query.match)
          .add_optional(query.channel
                            ? std::optional<std::string>(std::string(channel_name(*query.channel)))
                            : std::nullopt)
          .add(std::int64_t{query.with_deleted ? 1 : 0})
          .add(static_cast<std::int64_t>(query.limit)));
  if (!rows) return util::forward_error(rows);
  std::vector<ChatMessage> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) out.push_back(chat_from_row(*rows, r));
  return out;
}

Result<ChatMessage> PgStore::delete_chat(ChatMessageId id, std::string_view by,
                                         std::int64_t at_ms) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  if (auto done = impl_->conn.reconnect_if_broken(); !done) return util::forward_error(done);
  auto tx = pg::Transaction::begin(impl_->conn);
  if (!tx) return util::forward_error(tx);
  auto updated = impl_->conn.query(
      "UPDATE chat_messages SET deleted_ms = $2, deleted_by = $3 "
      "WHERE id = $1 AND deleted_ms IS NULL",
      pg::Params().add(id).add(at_ms).add(by));
  if (!updated) return util::forward_error(updated);
  auto rows = impl_->conn.query(
      fmt::format("SELECT {} FROM chat_messages WHERE id = $1", kChatColumns),
      pg::Params().add(id));
  if (!rows) return util::forward_error(rows);
  if (rows->empty()) return fail(StoreCode::NotFound, fmt::format("no chat message {}", id));
  ChatMessage now = chat_from_row(*rows, 0);
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return now;
}

}  // namespace eryantis::store
