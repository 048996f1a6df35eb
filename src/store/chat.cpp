// The SQLite store's chat (event_store.hpp, chat.hpp): rows of chat_messages.
#include <spdlog/fmt/fmt.h>

#include "eryantis/store/chat.hpp"
#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"
#include "sqlite_impl.hpp"

namespace eryantis::store {

namespace {

// id, match_id, channel, sender_name, sent_ms, text, deleted_ms, deleted_by
constexpr std::string_view kChatColumns =
    "id, match_id, channel, sender_name, sent_ms, text, deleted_ms, deleted_by";

ChatMessage chat_from_row(const sqlite::Statement& row) {
  ChatMessage m;
  m.id = row.column_int(0);
  m.match = row.column_int(1);
  m.channel = parse_channel(row.column_text(2)).value_or(ChatChannel::Players);
  m.sender_name = std::string(row.column_text(3));
  m.sent_ms = row.column_int(4);
  m.text = std::string(row.column_text(5));
  if (!row.column_is_null(6)) m.deleted_ms = row.column_int(6);
  m.deleted_by = row.column_optional_text(7).value_or("");
  return m;
}

}  // namespace

Result<std::vector<Result<ChatMessageId>>> SqliteStore::append_chat(
    std::span<const NewChatMessage> messages) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  std::vector<Result<ChatMessageId>> ids;
  if (messages.empty()) return ids;
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  // A message whose match has no row inserts nothing (NotFound for it alone)
  // rather than failing the foreign key and, with it, the others.
  for (const NewChatMessage& m : messages) {
    auto insert = impl_->db.cached(
        "INSERT INTO chat_messages (match_id, channel, sender_name, sent_ms, text) "
        "SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM matches WHERE id = ?1)");
    if (!insert) return util::forward_error(insert);
    (*insert)
        ->bind(1, m.match)
        .bind(2, channel_name(m.channel))
        .bind(3, m.sender_name)
        .bind(4, m.sent_ms)
        .bind(5, m.text);
    if (auto done = (*insert)->run(); !done) return util::forward_error(done);
    if (sqlite3_changes(impl_->db.handle()) == 0)
      ids.push_back(fail(StoreCode::NotFound, fmt::format("no match {}", m.match)));
    else
      ids.push_back(impl_->db.last_insert_rowid());
  }
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return ids;
}

Result<std::vector<ChatMessage>> SqliteStore::chat_messages(const ChatQuery& query) {
  auto select = impl_->db.cached(fmt::format(
      "SELECT * FROM (SELECT {} FROM chat_messages WHERE match_id = ?1 "
      "AND (?2 IS NULL OR channel = ?2) AND (?3 OR deleted_ms IS NULL) "
      "ORDER BY id DESC LIMIT ?4) ORDER BY id",
      kChatColumns));
  if (!select) return util::forward_error(select);
  (*select)->bind(1, query.match);
  if (query.channel)
    (*select)->bind(2, channel_name(*query.channel));
  else
    (*select)->bind_null(2);
  (*select)->bind(3, std::int64_t{query.with_deleted ? 1 : 0});
  (*select)->bind(4, static_cast<std::int64_t>(query.limit));
  std::vector<ChatMessage> out;
  while (true) {
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    out.push_back(chat_from_row(**select));
  }
  return out;
}

Result<ChatMessage> SqliteStore::delete_chat(ChatMessageId id, std::string_view by,
                                             std::int64_t at_ms) {
  if (impl_->options.read_only) return fail(StoreCode::ReadOnly, "the store is read-only");
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Immediate);
  if (!tx) return util::forward_error(tx);
  {
    auto update = impl_->db.cached(
        "UPDATE chat_messages SET deleted_ms = ?2, deleted_by = ?3 "
        "WHERE id = ?1 AND deleted_ms IS NULL");
    if (!update) return util::forward_error(update);
    (*update)->bind(1, id).bind(2, at_ms).bind(3, by);
    if (auto done = (*update)->run(); !done) return util::forward_error(done);
  }
  std::optional<ChatMessage> now;
  {
    auto select = impl_->db.cached(
        fmt::format("SELECT {} FROM chat_messages WHERE id = ?1", kChatColumns));
    if (!select) return util::forward_error(select);
    (*select)->bind(1, id);
    auto row = (*select)->step();
    if (!row) return util::forward_error(row);
    if (!*row) return fail(StoreCode::NotFound, fmt::format("no chat message {}", id));
    now = chat_from_row(**select);
  }
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return *now;
}

}  // namespace eryantis::store
