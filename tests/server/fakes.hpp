#pragma once
// The server's two ports faked for tests that drive Server directly: a transport
// that records every line per connection, and a store whose writes wait until
// the test completes them (in order, like the group committer), so a test decides
// exactly when an acknowledgement happens, or that the disk fails.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/json/json.hpp"
#include "eryantis/render/render.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/server/server.hpp"
#include "games/handles.hpp"

namespace eryantis::server {

// The server's defaults with the tests' games (the registry handles.hpp makes
// handles for).
inline ServerConfig test_server_config() {
  ServerConfig c;
  c.games = &test::games();
  return c;
}

// Reading what FakeTransport recorded: one line as JSON (a test failure if it is
// not), and its "type" ("" when it has none).
inline rapidjson::Document parse(const std::string& line) {
  rapidjson::Document d;
  d.Parse(line.c_str());
  EXPECT_FALSE(d.HasParseError()) << line;
  return d;
}
inline std::string type_of(const std::string& line) {
  auto d = parse(line);
  return d.HasMember("type") && d["type"].IsString() ? d["type"].GetString() : "";
}

struct FakeTransport : Transport {
  std::map<ConnectionId, std::vector<std::string>> sent;
  std::set<ConnectionId> closed;
  int close_calls = 0;
  void send(ConnectionId id, std::string line) override { sent[id].push_back(std::move(line)); }
  void close(ConnectionId id) override {
    closed.insert(id);
    ++close_calls;
  }
  // Whether any line sent to `id` contains `needle`.
  bool got(ConnectionId id, std::string_view needle) const {
    auto it = sent.find(id);
    if (it == sent.end()) return false;
    for (const std::string& l : it->second)
      if (l.find(needle) != std::string::npos) return true;
    return false;
  }
};

struct FakePersistence : Persistence {
  std::deque<std::pair<MatchWrite, WriteDone>> pending;
  std::map<store::MatchId, store::Seq> seqs;
  std::vector<MatchWrite> written;
  bool fail_next = false;
  bool fail_all = false;  // a full disk
  store::StoreCode fail_code = store::StoreCode::Io;
  int snapshot_interval = 1;  // Persistence::snapshot_every: 1 = every write carries the state
  int snapshot_every() const override { return snapshot_interval; }
  void submit(MatchWrite w, WriteDone done) override {
    pending.emplace_back(std::move(w), std::move(done));
  }
  // Move logs: answered by complete_all after the writes, folded from the events
  // written (as the store's reader folds the stored ones), unless the test gives
  // the answer (`read_answer`) or a failure (`fail_reads`).
  std::deque<std::pair<MoveLogRead, MoveLogDone>> reads;
  std::optional<store::Result<std::vector<MoveLogLine>>> read_answer;
  std::optional<store::StoreCode> fail_reads;
  void read_move_log(MoveLogRead r, MoveLogDone done) override {
    reads.emplace_back(std::move(r), std::move(done));
  }
  std::vector<MoveLogLine> move_log(const MoveLogRead& r) const {
    std::vector<MoveLogLine> lines;
    render::MoveLog log(r.names);
    rules::State state;
    store::Seq seq = 0;
    for (const MatchWrite& w : written) {
      if (w.match != r.match) continue;
      for (const store::NewEvent& e : w.events) {
        if (++seq > r.to) return lines;
        auto next = rules::apply_checked(state, e.event.get<rules::Event>());
        EXPECT_TRUE(next) << "event " << seq;
        if (!next) return lines;
        state = std::move(*next);
        std::string text = log.next(e.event.get<rules::Event>(), state);
        if (seq >= r.from) lines.push_back({seq, std::move(text)});
      }
    }
    return lines;
  }
  // Chat: stored in memory by complete_writes (ids from 1), read by complete_all.
  std::deque<std::pair<store::NewChatMessage, ChatWriteDone>> chat_pending;
  std::deque<std::pair<store::ChatQuery, ChatReadDone>> chat_reads;
  std::vector<store::ChatMessage> chat;
  void submit_chat(store::NewChatMessage m, ChatWriteDone done) override {
    chat_pending.emplace_back(std::move(m), std::move(done));
  }
  void read_chat(store::ChatQuery q, ChatReadDone done) override {
    chat_reads.emplace_back(q, std::move(done));
  }
  void delete_chat(store::ChatMessageId id, std::string by, std::int64_t at_ms,
                   ChatDeleteDone done) override {
    for (store::ChatMessage& m : chat)
      if (m.id == id) {
        if (!m.deleted_ms) {
          m.deleted_ms = at_ms;
          m.deleted_by = by;
        }
        done(m);
        return;
      }
    done(std::unexpected(store::StoreError{store::StoreCode::NotFound, "no chat message", -1}));
  }
  std::vector<store::ChatMessage> chat_of(const store::ChatQuery& q) const {
    std::vector<store::ChatMessage> out;
    for (const store::ChatMessage& m : chat)
      if (m.match == q.match && (!q.channel || m.channel == *q.channel) &&
          (q.with_deleted || !m.deleted_ms))
        out.push_back(m);
    if (out.size() > q.limit) out.erase(out.begin(), out.end() - static_cast<long>(q.limit));
    return out;
  }
  // Completes every pending write (and those they cause), like the store's writer,
  // then the move logs asked meanwhile.
  void complete_all() {
    complete_writes();
    while (!chat_reads.empty()) {
      auto [q, done] = std::move(chat_reads.front());
      chat_reads.pop_front();
      done(chat_of(q));
      complete_writes();
    }
    while (!reads.empty()) {
      auto [r, done] = std::move(reads.front());
      reads.pop_front();
      if (fail_reads)
        done(std::unexpected(store::StoreError{*fail_reads, "the reader is on fire", -1}));
      else if (read_answer)
        done(*read_answer);
      else
        done(move_log(r));
      complete_writes();
    }
  }
  void complete_writes() {
    while (!chat_pending.empty()) {
      auto [m, done] = std::move(chat_pending.front());
      chat_pending.pop_front();
      if (fail_all) {
        done(std::unexpected(store::StoreError{fail_code, "disk on fire", -1}));
        continue;
      }
      const auto id = static_cast<store::ChatMessageId>(chat.size() + 1);
      chat.push_back({id, m.match, m.channel, m.sender_name, m.sent_ms, m.text, std::nullopt, ""});
      done(id);
    }
    while (!pending.empty()) {
      auto [w, done] = std::move(pending.front());
      pending.pop_front();
      if (fail_next || fail_all) {
        fail_next = false;
        done(std::unexpected(store::StoreError{fail_code, "disk on fire", -1}));
        continue;
      }
      store::Seq& seq = seqs[w.match];
      // Only tells that an ending was delivered: no seq to check (as the store does).
      if (!w.delivered_endings.empty() && w.events.empty() && !w.create && w.seats.empty() &&
          w.remove_seats.empty() && !w.status && !w.result_json && !w.deadline &&
          w.keep_endings.empty()) {
        written.push_back(w);
        done(store::AppendOutcome{});
        continue;
      }
      EXPECT_EQ(w.expected_seq, seq) << "writes of a match must follow each other";
      store::AppendOutcome out{seq + 1, seq + static_cast<store::Seq>(w.events.size()), false};
      if (w.events.empty()) out = {seq, seq, false};
      seq += static_cast<store::Seq>(w.events.size());
      written.push_back(w);
      done(out);
    }
  }
};

}  // namespace eryantis::server
