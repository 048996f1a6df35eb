// One sentence per event, from the states before and after it.
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <variant>
#include <vector>

#include "eryantis/render/render.hpp"
#include "eryantis/rules/decider.hpp"
#include "words.hpp"

namespace eryantis::render {

using namespace eryantis::rules;
using words::join;
using words::result_words;
using words::students_words;

namespace {

std::optional<TowerColor> tile_tower(const State& s, int tile) {
  return s.groups[static_cast<std::size_t>(group_of_tile(s, tile))].tower;
}

// A tile's island in words: "island 7" or "island 7 (group 6-8)".
std::string island_words(const State& s, int tile) {
  const int g = group_of_tile(s, tile);
  if (s.groups[static_cast<std::size_t>(g)].tiles <= 1) return fmt::format("island {}", tile);
  return fmt::format("island {} (group {})", tile, group_label(s, g));
}

class EventWriter {
 public:
  EventWriter(const State& before, const Event& e, const State& after, const Names& names)
      : b_(before), e_(e), a_(after), names_(names), actor_(seat_name(names, e.seat)) {}

  std::string run() {
    std::string main = std::visit([this](const auto& c) { return say(c); }, e_.command);
    std::vector<std::string> more = consequences();
    if (!more.empty()) main += ", " + join(more, ", ");
    return main;
  }

 private:
  std::string name(Seat s) const { return seat_name(names_, s); }

  std::string character_used(CharacterId id) const {
    int cost = base_cost(id);
    for (const CharacterCard& k : b_.characters)
      if (k.id == id) cost = k.cost();
    return fmt::format("{} used the {} ({} coin{})", actor_, character_title(id), cost,
                       cost == 1 ? "" : "s");
  }

  std::string refill_words() const {
    if (e_.drawn.empty()) return {};
    std::vector<std::string> drawn;
    for (Color c : e_.drawn) drawn.emplace_back(color_name(c));
    return ", refilled the card with " + join(drawn, ", ");
  }

  std::string say(const CreateMatch& c) {
    std::string text =
        fmt::format("match created: {} players, {}", c.options.players, mode_name(c.options.mode));
    if (a_.expert()) {
      std::vector<std::string> ks;
      for (const CharacterCard& k : a_.characters) ks.push_back(character_title(k.id));
      text += ", characters " + join(ks, ", ");
    }
    return text;
  }
  std::string say(const SkipTurn&) {
    if (b_.phase == Phase::Planning) {
      return fmt::format("server skipped {}'s assistant (absent: acts last, no turn)",
                         name(e_.seat));
    }
    return fmt::format("server skipped {}'s turn", name(e_.seat));
  }
  std::string say(const AwardForfeit&) {
    return fmt::format("server awarded the match to {} by forfeit", actor_);
  }
  std::string say(const Resign&) {
    return a_.players() == 4 ? fmt::format("{} resigned for the team", actor_)
                             : fmt::format("{} resigned", actor_);
  }
  std::string say(const EndMatch&) { return "server ended the match (operator)"; }
  std::string say(const AbandonMatch&) {
    return "server gave up the match: nobody was connected to play it";
  }
  std::string say(const ChooseWizard& c) {
    return fmt::format("{} chose wizard {}", actor_, c.wizard);
  }
  std::string say(const ChooseTowerColor& c) {
    std::string text = fmt::format("{} chose the {} towers", actor_, tower_color_name(c.color));
    if (a_.players() == 4) {
      const SchoolBoard& board = a_.boards[static_cast<std::size_t>(e_.seat)];
      text += board.holds_towers ? fmt::format(" (holds the team's {} towers)", board.towers)
                                 : std::string(" (the teammate holds the towers)");
    }
    return text;
  }
  std::string say(const PlayAssistant& c) {
    return fmt::format("{} played assistant {} (Mother Nature up to {})", actor_, c.value,
                       mother_nature_steps(c.value));
  }
  std::string say(const MoveToDining& c) {
    return fmt::format("{} moved a {} student to the dining room", actor_, color_name(c.color));
  }
  std::string say(const MoveToIsland& c) {
    return fmt::format("{} moved a {} student to {}", actor_, color_name(c.color),
                       island_words(b_, c.island));
  }
  std::string say(const MoveMotherNature& c) {
    // Named as the group was when she landed (a conquest may merge it right after).
    const int before_group = (b_.mother_nature + c.steps) % b_.group_count;
    const IslandGroup& group = b_.groups[static_cast<std::size_t>(before_group)];
    landed_ = a_.mother_nature;
    std::string where = group.tiles > 1 ? fmt::format("islands {}", group_label(b_, before_group))
                                        : fmt::format("island {}", group.first_tile);
    std::string text = fmt::format("{} moved Mother Nature {} step{} \u2192 {}", actor_, c.steps,
                                   c.steps == 1 ? "" : "s", where);
    // A No-Entry tile on the landing group stops the influence and goes back.
    if (b_.groups[static_cast<std::size_t>(before_group)].no_entry > 0) {
      text += ", a No-Entry tile blocked the influence and went back to Grandma Herbs";
    }
    return text;
  }
  std::string say(const ChooseCloud& c) {
    return fmt::format("{} took cloud {} ({})", actor_, c.cloud,
                       students_words(b_.clouds[c.cloud].students));
  }
  std::string say(const UseMonk& c) {
    return character_used(CharacterId::Monk) +
           fmt::format(": put a {} student from the card on {}", color_name(c.color),
                       island_words(b_, c.island)) +
           refill_words();
  }
  std::string say(const UseFarmer&) {
    return character_used(CharacterId::Farmer) + ": takes professors on ties this turn";
  }
  std::string say(const UseHerald& c) {
    landed_ = group_of_tile(a_, c.island);
    return character_used(CharacterId::Herald) +
           fmt::format(": resolved {} as if Mother Nature stopped there",
                       island_words(b_, c.island));
  }
  std::string say(const UsePostman&) {
    return character_used(CharacterId::Postman) + ": Mother Nature may go 2 steps further";
  }
  std::string say(const UseGrandmaHerbs& c) {
    return character_used(CharacterId::GrandmaHerbs) +
           fmt::format(": put a No-Entry tile on {}", island_words(b_, c.island));
  }
  std::string say(const UseCentaur&) {
    return character_used(CharacterId::Centaur) + ": towers give no influence this turn";
  }
  std::string say(const UseJester& c) {
    return character_used(CharacterId::Jester) + fmt::format(": swapped {} from the card for {}",
                                                             students_words(c.from_card),
                                                             students_words(c.from_entrance));
  }
  std::string say(const UseKnight&) {
    return character_used(CharacterId::Knight) + ": +2 influence this turn";
  }
  std::string say(const UseMushroomHunter& c) {
    return character_used(CharacterId::MushroomHunter) +
           fmt::format(": {} gives no influence this turn", color_name(c.color));
  }
  std::string say(const UseMinstrel& c) {
    return character_used(CharacterId::Minstrel) +
           fmt::format(": swapped {} from the entrance with {} from the dining room",
                       students_words(c.from_entrance), students_words(c.from_dining));
  }
  std::string say(const UsePrincess& c) {
    return character_used(CharacterId::Princess) +
           fmt::format(": put a {} student from the card in the dining room", color_name(c.color)) +
           refill_words();
  }
  std::string say(const UseThief& c) {
    std::vector<std::string> lost;
    for (Seat p = 0; p < b_.players(); ++p) {
      const int n = b_.boards[static_cast<std::size_t>(p)].dining[c.color] -
                    a_.boards[static_cast<std::size_t>(p)].dining[c.color];
      if (n > 0) lost.push_back(fmt::format("{} {}", name(p), n));
    }
    return character_used(CharacterId::Thief) +
           fmt::format(": {} students went back to the bag ({})", color_name(c.color),
                       lost.empty() ? std::string("none") : join(lost, ", "));
  }

  // What changed besides the command itself, derived from the two states.
  std::vector<std::string> consequences() {
    std::vector<std::string> out;
    if (b_.events_applied == 0) return out;
    towers(out);
    if (a_.group_count < b_.group_count) {
      std::vector<std::string> merged;
      for (int g = 0; g < a_.group_count; ++g) {
        const IslandGroup& group = a_.groups[static_cast<std::size_t>(g)];
        const int before_group = group_of_tile(b_, group.first_tile);
        if (b_.groups[static_cast<std::size_t>(before_group)].tiles < group.tiles) {
          merged.push_back(group_label(a_, g));
        }
      }
      out.push_back(
          fmt::format("merged islands {} ({} groups left)", join(merged, ", "), a_.group_count));
    }
    professors(out);
    coins(out);
    phases(out);
    return out;
  }

  void towers(std::vector<std::string>& out) {
    // Tiles whose tower changed, grouped by their group after the event.
    std::map<int, std::optional<TowerColor>> previous;  // after-group -> a previous owner
    std::map<int, bool> had_owner;
    for (int t = 0; t < kIslandTiles; ++t) {
      const auto was = tile_tower(b_, t);
      const auto now = tile_tower(a_, t);
      if (was == now) continue;
      const int g = group_of_tile(a_, t);
      if (was) {
        previous[g] = was;
        had_owner[g] = true;
      } else if (!previous.contains(g)) {
        previous[g] = std::nullopt;
      }
    }
    for (const auto& [g, was] : previous) {
      const auto now = a_.groups[static_cast<std::size_t>(g)].tower;
      if (!now) continue;
      const std::string tower = fmt::format("{} tower", tower_color_name(*now));
      const bool here = g == landed_;
      const std::string it =
          here ? std::string("it") : fmt::format("islands {}", group_label(a_, g));
      // The actor's own team needs no subject; anyone else's influence is named.
      std::string who;
      if (e_.seat == kNoSeat || team_color(a_, e_.seat) != now) {
        const Seat holder = tower_holder(a_, *now);
        who = a_.players() == 4 || holder == kNoSeat
                  ? fmt::format("team {} ", tower_color_name(*now))
                  : name(holder) + " ";
      }
      if (was && was != now) {
        out.push_back(
            fmt::format("{}took {} from {} ({})", who, it, tower_color_name(*was), tower));
      } else {
        out.push_back(fmt::format("{}conquered {} ({})", who, it, tower));
      }
    }
  }

  void professors(std::vector<std::string>& out) {
    for (Color c : kAllColors) {
      const Seat was = b_.professors[index(c)];
      const Seat now = a_.professors[index(c)];
      if (was == now) continue;
      const std::string holder = now == e_.seat ? std::string() : name(now) + " ";
      if (now == kNoSeat) {
        out.push_back(fmt::format("the {} professor went back to the table", color_name(c)));
      } else if (was == kNoSeat) {
        out.push_back(fmt::format("{}took the {} professor", holder, color_name(c)));
      } else {
        out.push_back(
            fmt::format("{}took the {} professor from {}", holder, color_name(c), name(was)));
      }
    }
  }

  void coins(std::vector<std::string>& out) {
    if (!a_.expert()) return;
    for (Seat p = 0; p < a_.players(); ++p) {
      const int gained = a_.boards[static_cast<std::size_t>(p)].coins -
                         b_.boards[static_cast<std::size_t>(p)].coins;
      if (gained <= 0) continue;
      const std::string who = p == e_.seat ? std::string("earned") : name(p) + " earned";
      out.push_back(fmt::format("{} {} coin{}", who, gained, gained == 1 ? "" : "s"));
    }
  }

  void phases(std::vector<std::string>& out) {
    if (a_.phase == Phase::GameOver && b_.phase != Phase::GameOver) {
      out.push_back(fmt::format("GAME OVER ({}): {}", end_reason_text(a_.result.reason),
                                result_words(a_, names_)));
      return;
    }
    if (a_.last_round && !b_.last_round) {
      out.push_back(
          fmt::format("this is the last round ({})", end_reason_text(a_.last_round_reason)));
    }
    if (a_.round != b_.round) {
      std::string text =
          fmt::format("round {} begins, {} plays first", a_.round, name(a_.first_player));
      if (a_.skip_clouds) text += " (bag too short: no clouds this round)";
      out.push_back(text);
      return;
    }
    if (a_.phase == Phase::Action && b_.phase == Phase::Planning) {
      std::vector<std::string> order;
      for (int i = 0; i < a_.order_size; ++i) order.push_back(name(a_.order[i]));
      out.push_back("action order: " + join(order, ", "));
      return;
    }
    if (a_.phase == Phase::Action && b_.phase == Phase::Action &&
        a_.current_seat() != b_.current_seat() && a_.current_seat() != kNoSeat) {
      out.push_back(fmt::format("{}'s turn next", name(a_.current_seat())));
    }
  }

  const State& b_;
  const Event& e_;
  const State& a_;
  const Names& names_;
  std::string actor_;
  int landed_ = -1;  // the group whose influence the command resolved (Mother Nature, Herald)
};

}  // namespace

std::string describe_event(const State& before, const Event& event, const State& after,
                           const Names& names) {
  return EventWriter(before, event, after, names).run();
}

std::string MoveLog::next(const Event& event, const State& after) {
  std::string text = describe_event(before_, event, after, names_);
  before_ = after;
  return text;
}

}  // namespace eryantis::render
