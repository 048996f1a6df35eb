// Rules tests: setup (see docs/rules.md).
#include <span>

#include "scenario.hpp"  // the rules tests' preamble: gtest, Match, the scenario helpers

namespace eryantis::rules {
namespace {

using namespace scenario;

State created_state(int players, Mode mode, std::uint64_t seed) {
  auto created = create_match(MatchOptions{u8(players), mode}, seed);
  EXPECT_TRUE(created.has_value());
  return created ? apply(State{}, *created) : State{};
}

TEST(Setup, CreateMatchPlacesMotherNatureAndTenIslandStudents) {
  for (std::uint64_t seed : {1u, 2u, 3u, 42u, 1000u}) {
    const State s = created_state(2, Mode::Simple, seed);
    EXPECT_EQ(s.phase, Phase::Setup);
    EXPECT_EQ(s.round, 0);
    EXPECT_EQ(s.group_count, kIslandTiles);
    const int mn = s.mother_nature;
    ASSERT_LT(mn, kIslandTiles);
    Students on_islands;
    for (int t = 0; t < kIslandTiles; ++t) {
      EXPECT_EQ(s.groups[t].first_tile, t);
      EXPECT_EQ(s.groups[t].tiles, 1);
      EXPECT_FALSE(s.groups[t].tower.has_value());
      const int expected = (t == mn || t == (mn + 6) % kIslandTiles) ? 0 : 1;
      EXPECT_EQ(s.groups[t].students.total(), expected) << "tile " << t << " seed " << seed;
      on_islands.add(s.groups[t].students);
    }
    for (Color c : kAllColors) EXPECT_EQ(on_islands[c], 2);
    for (Color c : kAllColors) EXPECT_EQ(s.professors[index(c)], kNoSeat);
    EXPECT_EQ(testing::count_students(s), kTotalStudents);
    EXPECT_EQ(seats_to_act(s), (std::vector<Seat>{0, 1}));
  }
}

TEST(Setup, CountsForEveryPlayerCountAndMode) {
  struct Row {
    int players, bag, entrance, towers, cloud, supply;
  };
  for (const Row row :
       {Row{2, 106, 7, 8, 3, 18}, Row{3, 93, 9, 6, 4, 17}, Row{4, 92, 7, 8, 3, 16}}) {
    for (Mode mode : {Mode::Simple, Mode::Expert}) {
      for (std::uint64_t seed : {1u, 7u, 23u, 77u}) {
        SCOPED_TRACE(::testing::Message()
                     << row.players << "p mode " << static_cast<int>(mode) << " seed " << seed);
        const State s = created_state(row.players, mode, seed);
        int on_cards = 0;
        if (mode == Mode::Expert) {
          for (const auto& card : s.characters) {
            EXPECT_EQ(card.students.total(), setup_students(card.id));
            EXPECT_EQ(card.no_entry, card.id == CharacterId::GrandmaHerbs ? 4 : 0);
            EXPECT_FALSE(card.used);
            on_cards += card.students.total();
          }
          EXPECT_EQ(s.supply, row.supply);
        } else {
          EXPECT_EQ(s.supply, 0);
        }
        EXPECT_EQ(s.bag.total(), row.bag - on_cards);
        for (Seat p = 0; p < row.players; ++p) {
          EXPECT_EQ(s.boards[p].entrance.total(), row.entrance);
          EXPECT_EQ(s.boards[p].coins, mode == Mode::Expert ? 1 : 0);
          EXPECT_EQ(s.boards[p].hand, kFullHand);
        }

        Match m = started_match(row.players, mode, seed);
        EXPECT_EQ(m.state.phase, Phase::Planning);
        EXPECT_EQ(m.state.round, 1);
        for (Seat p = 0; p < row.players; ++p) {
          const bool holder = row.players != 4 || p < 2;
          EXPECT_EQ(m.state.boards[p].holds_towers, holder);
          EXPECT_EQ(m.state.boards[p].towers, holder ? row.towers : 0);
        }
        for (int i = 0; i < row.players; ++i) {
          EXPECT_EQ(m.state.clouds[i].students.total(), row.cloud);
          EXPECT_FALSE(m.state.clouds[i].taken);
        }
        EXPECT_EQ(m.state.bag.total(), row.bag - on_cards - row.players * row.cloud);
        EXPECT_EQ(invariant_violation(m.state), "");
      }
    }
  }
}

TEST(Setup, ExpertDrawsThreeDistinctCharacters) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const State s = created_state(3, Mode::Expert, seed);
    EXPECT_NE(s.characters[0].id, s.characters[1].id);
    EXPECT_NE(s.characters[0].id, s.characters[2].id);
    EXPECT_NE(s.characters[1].id, s.characters[2].id);
    for (const auto& card : s.characters) EXPECT_EQ(card.cost(), base_cost(card.id));
  }
}

TEST(Setup, BaseCostsAndCardStudents) {
  const std::vector<std::pair<CharacterId, int>> costs = {
      {CharacterId::Monk, 1},     {CharacterId::Farmer, 2},       {CharacterId::Herald, 3},
      {CharacterId::Postman, 1},  {CharacterId::GrandmaHerbs, 2}, {CharacterId::Centaur, 3},
      {CharacterId::Jester, 1},   {CharacterId::Knight, 2},       {CharacterId::MushroomHunter, 3},
      {CharacterId::Minstrel, 1}, {CharacterId::Princess, 2},     {CharacterId::Thief, 3}};
  for (const auto& [id, cost] : costs) {
    EXPECT_EQ(base_cost(id), cost);
    const int students = id == CharacterId::Monk || id == CharacterId::Princess ? 4
                         : id == CharacterId::Jester                            ? 6
                                                                                : 0;
    EXPECT_EQ(setup_students(id), students);
    CharacterCard used{id, true, {}, 0};
    EXPECT_EQ(used.cost(), cost + 1);
  }
}

TEST(Setup, InvalidOptionsAndDoubleCreation) {
  EXPECT_EQ(create_match(MatchOptions{1, Mode::Simple}, 1).error().code, RuleCode::InvalidOptions);
  EXPECT_EQ(create_match(MatchOptions{5, Mode::Simple}, 1).error().code, RuleCode::InvalidOptions);
  Match m;
  m.state = created_state(2, Mode::Simple, 1);
  EXPECT_EQ(code(m, kNoSeat, CreateMatch{MatchOptions{2, Mode::Simple}, 3}, Authority::Server),
            "MATCH_ALREADY_CREATED");
  EXPECT_EQ(code(m, 0, CreateMatch{MatchOptions{2, Mode::Simple}, 3}), "SERVER_ONLY");
}

TEST(Setup, CommandsBeforeCreationAreRefused) {
  Match m;
  EXPECT_EQ(code(m, 0, ChooseWizard{0}), "WRONG_PHASE");
  EXPECT_EQ(code(m, 0, PlayAssistant{1}), "WRONG_PHASE");
  EXPECT_TRUE(seats_to_act(m.state).empty());
}

TEST(Setup, WizardChoices) {
  Match m;
  m.state = created_state(3, Mode::Simple, 1);
  EXPECT_EQ(code(m, 0, ChooseWizard{4}), "INVALID_COMMAND");
  EXPECT_EQ(code(m, 3, ChooseWizard{0}), "INVALID_SEAT");
  m.play(0, ChooseWizard{2});
  EXPECT_EQ(m.state.boards[0].wizard, 2);
  EXPECT_EQ(code(m, 0, ChooseWizard{1}), "WIZARD_ALREADY_CHOSEN");
  EXPECT_EQ(code(m, 1, ChooseWizard{2}), "WIZARD_TAKEN");
  EXPECT_EQ(code(m, 1, ChooseWizard{3}), "ACCEPTED");
  EXPECT_EQ(code(m, 0, PlayAssistant{1}), "WRONG_PHASE");
  EXPECT_EQ(code(m, 0, MoveToDining{Color::Red}), "WRONG_PHASE");
}

TEST(Setup, TowerColoursTwoAndThreePlayers) {
  Match two;
  two.state = created_state(2, Mode::Simple, 1);
  EXPECT_EQ(code(two, 0, ChooseTowerColor{TowerColor::Grey}), "TOWER_COLOR_NOT_AVAILABLE");
  two.play(0, ChooseTowerColor{TowerColor::White});
  EXPECT_EQ(code(two, 0, ChooseTowerColor{TowerColor::Black}), "TOWER_COLOR_ALREADY_CHOSEN");
  EXPECT_EQ(code(two, 1, ChooseTowerColor{TowerColor::White}), "TOWER_COLOR_TAKEN");
  EXPECT_TRUE(two.state.boards[0].holds_towers);
  EXPECT_EQ(two.state.boards[0].towers, 8);

  Match three;
  three.state = created_state(3, Mode::Simple, 1);
  three.play(1, ChooseTowerColor{TowerColor::Grey});
  EXPECT_EQ(three.state.boards[1].towers, 6);
  EXPECT_EQ(code(three, 2, ChooseTowerColor{TowerColor::Grey}), "TOWER_COLOR_TAKEN");
}

TEST(Setup, FourPlayerTeamsShareAColourAndFirstChooserHoldsTowers) {
  Match m;
  m.state = created_state(4, Mode::Simple, 1);
  m.play(2, ChooseTowerColor{TowerColor::Black});  // seat 2 chooses before its teammate seat 0
  EXPECT_EQ(code(m, 0, ChooseTowerColor{TowerColor::White}), "TOWER_COLOR_NOT_AVAILABLE");
  EXPECT_EQ(code(m, 1, ChooseTowerColor{TowerColor::Black}), "TOWER_COLOR_TAKEN");
  EXPECT_EQ(code(m, 3, ChooseTowerColor{TowerColor::Grey}), "TOWER_COLOR_NOT_AVAILABLE");
  m.play(0, ChooseTowerColor{TowerColor::Black});
  m.play(1, ChooseTowerColor{TowerColor::White});
  m.play(3, ChooseTowerColor{TowerColor::White});
  EXPECT_TRUE(m.state.boards[2].holds_towers);
  EXPECT_EQ(m.state.boards[2].towers, 8);
  EXPECT_FALSE(m.state.boards[0].holds_towers);
  EXPECT_EQ(m.state.boards[0].towers, 0);
  EXPECT_TRUE(m.state.boards[1].holds_towers);
  EXPECT_EQ(m.state.boards[3].towers, 0);
  EXPECT_EQ(tower_holder(m.state, TowerColor::Black), 2);
  EXPECT_EQ(tower_holder(m.state, TowerColor::White), 1);
  EXPECT_EQ(team_of(m.state, 0), team_of(m.state, 2));
  EXPECT_NE(team_of(m.state, 0), team_of(m.state, 1));
  EXPECT_EQ(m.state.phase, Phase::Setup);  // wizards still missing
  EXPECT_EQ(seats_to_act(m.state), (std::vector<Seat>{0, 1, 2, 3}));
  for (Seat p = 0; p < 4; ++p) m.play(p, ChooseWizard{u8(3 - p)});
  EXPECT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Setup, SeatsToActListsOnlyUndecidedSeatsAndPlanningStartsWhenAllChose) {
  Match m;
  m.state = created_state(3, Mode::Simple, 9);
  const int bag_before = m.state.bag.total();
  m.play(1, ChooseWizard{0});
  EXPECT_EQ(seats_to_act(m.state), (std::vector<Seat>{0, 1, 2}));  // seat 1 still needs a colour
  m.play(1, ChooseTowerColor{TowerColor::White});
  EXPECT_EQ(seats_to_act(m.state), (std::vector<Seat>{0, 2}));
  m.play(0, ChooseWizard{1});
  m.play(0, ChooseTowerColor{TowerColor::Black});
  m.play(2, ChooseTowerColor{TowerColor::Grey});
  EXPECT_EQ(m.state.phase, Phase::Setup);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(m.state.clouds[i].students.empty());
  m.play(2, ChooseWizard{3});
  EXPECT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.round, 1);
  EXPECT_EQ(m.state.bag.total(), bag_before - 12);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(m.state.clouds[i].students.total(), 4);
  EXPECT_EQ(m.state.order_size, 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(m.state.order[i], (m.state.first_player + i) % 3);
  EXPECT_EQ(seats_to_act(m.state), (std::vector<Seat>{m.state.first_player}));
  EXPECT_EQ(code(m, 0, ChooseWizard{2}), "WRONG_PHASE");
  EXPECT_EQ(code(m, 0, ChooseTowerColor{TowerColor::Black}), "WRONG_PHASE");
}

TEST(Setup, FirstPlayerIsDrawnAtRandom) {
  std::array<bool, 4> seen{};
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Match m = started_match(4, Mode::Simple, seed);
    ASSERT_GE(m.state.first_player, 0);
    ASSERT_LT(m.state.first_player, 4);
    seen[m.state.first_player] = true;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 4);
}

TEST(Setup, SameSeedSameMatchAndFoldReplaysIt) {
  const Match a = started_match(3, Mode::Expert, 1234);
  const Match b = started_match(3, Mode::Expert, 1234);
  EXPECT_TRUE(a.state == b.state);
  EXPECT_TRUE(fold(a.events) == a.state);
  const Match c = started_match(3, Mode::Expert, 1235);
  EXPECT_FALSE(a.state == c.state);
}

TEST(Setup, OutOfRangeTowerColourIsInvalid) {
  Match m;
  m.state = created_state(2, Mode::Simple, 1);
  EXPECT_EQ(code(m, 0, ChooseTowerColor{static_cast<TowerColor>(5)}), "INVALID_COMMAND");
}

TEST(Setup, TamperedDrawsAreInconsistent) {
  const Match m = started_match(2, Mode::Simple, 3);
  // The last setup event started round 1 and drew the cloud students.
  Event last = m.events.back();
  ASSERT_EQ(last.drawn.size(), 6u);
  State before = fold(std::span<const Event>(m.events.data(), m.events.size() - 1));
  EXPECT_TRUE(apply_checked(before, last).has_value());
  last.drawn.pop_back();
  const auto tampered = apply_checked(before, last);
  ASSERT_FALSE(tampered.has_value());
  EXPECT_EQ(tampered.error().code, RuleCode::InconsistentEvent);
  EXPECT_EQ(rule_code_name(tampered.error().code), "INCONSISTENT_EVENT");
}

TEST(Setup, RuleCodeNamesAreStable) {
  EXPECT_EQ(rule_code_name(RuleCode::NotYourTurn), "NOT_YOUR_TURN");
  EXPECT_EQ(rule_code_name(RuleCode::WrongPhase), "WRONG_PHASE");
  EXPECT_EQ(rule_code_name(RuleCode::AssistantAlreadyPlayed), "ASSISTANT_ALREADY_PLAYED");
  EXPECT_EQ(rule_code_name(RuleCode::DiningTableFull), "DINING_TABLE_FULL");
  EXPECT_EQ(rule_code_name(RuleCode::MotherNatureTooFar), "MOTHER_NATURE_TOO_FAR");
  EXPECT_EQ(rule_code_name(RuleCode::NotEnoughCoins), "NOT_ENOUGH_COINS");
  EXPECT_EQ(rule_code_name(RuleCode::CharacterAlreadyUsedThisTurn),
            "CHARACTER_ALREADY_USED_THIS_TURN");
  EXPECT_EQ(rule_code_name(RuleCode::StudentsNotMoved), "STUDENTS_NOT_MOVED");
  EXPECT_EQ(rule_code_name(RuleCode::CloudUnavailable), "CLOUD_UNAVAILABLE");
}

}  // namespace
}  // namespace eryantis::rules
