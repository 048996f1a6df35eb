// Clients that send long lines and never end them: what the server holds for
// unfinished lines stays under limits.max_incoming_bytes_total (its resident
// memory under what it used before they came plus that budget), because the
// connections holding the longest are cut first; clients in the middle of a
// short request are not disturbed.
#include <gtest/gtest.h>

#include <iostream>
#include <thread>

#include "fixture.hpp"
#include "support/file_edit.hpp"
#include "support/process_memory.hpp"

namespace eryantis::integration {
namespace {

using namespace std::chrono_literals;

class IncomingBudgetTest : public ServerFixture {};

TEST_F(IncomingBudgetTest, UnfinishedLinesStayWithinTheBudgetAndTheLongestAreCut) {
  constexpr std::size_t kBudget = 4 << 20;
  constexpr int kHogs = 160;  // 60 KiB each, never ended: ~9.4 MiB asked for in all
  constexpr std::size_t kHogBytes = 60 * 1024;
  constexpr int kBystanders = 20;
  const std::string path = write_config(dir_, "eryantis.toml", db_, TestConfig{});
  ASSERT_TRUE(test::insert_after(path, "max_outgoing_bytes = 8388608\n",
                                 "max_incoming_bytes_total = " + std::to_string(kBudget) + "\n"))
      << path;
  start_with(path);

  // Each bystander is in the middle of a ping when the hogs come.
  std::vector<std::unique_ptr<Client>> bystanders;
  for (int i = 0; i < kBystanders; ++i) {
    auto c = Client::connect(port(), "bystander");
    ASSERT_TRUE(c);
    ASSERT_TRUE(c->hello(true));
    std::string unfinished_ping = R"({"type":"ping","id":"b)";
    unfinished_ping.append(std::to_string(i)).push_back('"');
    ASSERT_TRUE(c->send_raw(unfinished_ping));
    bystanders.push_back(std::move(c));
  }
  std::this_thread::sleep_for(200ms);
  const std::size_t base = test::resident_bytes(server_->pid());
  ASSERT_GT(base, 0u);

  test::PeakResident peak(server_->pid(), base);
  std::vector<std::unique_ptr<Client>> hogs;
  const std::string unfinished(kHogBytes, 'x');
  for (int i = 0; i < kHogs; ++i) {
    auto c = Client::connect(port(), "hog");
    ASSERT_TRUE(c);
    c->send_raw(unfinished);  // (false once the server cut it: fine)
    hogs.push_back(std::move(c));
  }
  std::this_thread::sleep_for(500ms);  // every hog's bytes read
  const std::size_t peak_bytes = peak.stop();

  std::cout << "[ memory   ] resident before " << (base >> 10) << " KiB, peak "
            << (peak_bytes >> 10) << " KiB, budget " << (kBudget >> 10) << " KiB\n";
  // A sanitizer keeps freed memory in quarantine (and shadows all of it): only
  // a plain build's resident size means something.
  // The budget counts the buffers' capacities; the allocator rounds each up to its
  // size class (jemalloc: at most 25 % above, 4 classes per doubling; a 60 KiB line
  // takes 64 KiB), which no count of capacities sees. Without the cut, the hogs'
  // 9.4 MiB would be more than twice the budget.
  if (!sanitizer_run()) {
    EXPECT_LE(peak_bytes, base + kBudget + kBudget / 4);
  }
  const std::string log = server_->log();
  EXPECT_NE(log.find("bytes of an unfinished line, the most of all connections"), std::string::npos)
      << server_->log_tail();
  // What the budget lets stay: at most 4 MiB / 60 KiB unfinished lines.
  int hogs_cut = 0;
  for (auto& hog : hogs) hogs_cut += hog->wait_closed(10ms);
  std::cout << "[ incoming ] " << hogs_cut << " of " << kHogs << " hogs cut\n";
  EXPECT_GE(hogs_cut, kHogs - static_cast<int>(kBudget / kHogBytes));
  EXPECT_LT(hogs_cut, kHogs);
  // The bystanders end their pings and are answered; none was cut.
  for (int i = 0; i < kBystanders; ++i) {
    ASSERT_TRUE(bystanders[i]->send_raw("}\n")) << i;
    // (appended: g++ 12 warns falsely on "b" + std::string)
    std::string id = "b";
    id.append(std::to_string(i));
    auto pong = bystanders[i]->reply(id);
    ASSERT_TRUE(pong) << "bystander " << i << " got no reply";
    EXPECT_EQ(pong->str("type"), "pong") << pong->line;
  }
}

}  // namespace
}  // namespace eryantis::integration
