#pragma once
// The 12 character cards (expert mode), numbered in rulebook order.
#include <cstdint>
#include <optional>
#include <string_view>

#include "eryantis/rules/students.hpp"

namespace eryantis::rules {

enum class CharacterId : std::uint8_t {
  Monk = 0,
  Farmer = 1,
  Herald = 2,
  Postman = 3,
  GrandmaHerbs = 4,
  Centaur = 5,
  Jester = 6,
  Knight = 7,
  MushroomHunter = 8,
  Minstrel = 9,
  Princess = 10,
  Thief = 11,
};
inline constexpr int kCharacterCount = 12;
inline constexpr int kCharactersInPlay = 3;

int base_cost(CharacterId id);
// Students drawn onto the card at setup (Monk 4, Jester 6, Princess 4, else 0).
int setup_students(CharacterId id);
// snake_case name used on the wire ("monk", "grandma_herbs", ...).
std::string_view character_name(CharacterId id);
std::optional<CharacterId> parse_character(std::string_view name);

// One of the three characters drawn for a match.
struct CharacterCard {
  CharacterId id = CharacterId::Monk;
  bool used = false;          // used at least once: a coin lies on it, cost is base + 1
  Students students;          // Monk, Jester, Princess
  std::uint8_t no_entry = 0;  // Grandma Herbs' tiles still on the card

  int cost() const { return base_cost(id) + (used ? 1 : 0); }
  friend bool operator==(const CharacterCard&, const CharacterCard&) = default;
};

}  // namespace eryantis::rules
