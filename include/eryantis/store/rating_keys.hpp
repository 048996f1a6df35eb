#pragma once
// Who a seat's rating belongs to (docs/accounts.md, "Who is rated: the player key"): a
// value type the server may know (it records the key of a player a computer replaces,
// src/server/takeover.cpp) and the ratings fold reads (rating_results.hpp).
#include <string>
#include <string_view>

#include "eryantis/store/records.hpp"

namespace eryantis::store {

// The rating identity of a seat: "computer:<level>" for the server's computer players
// (one identity per level: they anchor the scale), "name:<nickname>" for everyone else.
// "account:<id>" for a seat an account took (schema 14): the prefix says which kind of
// key follows, so an account's id never collides with a nickname.
std::string rating_id(const SeatRecord& seat);
// What a page shows for a rating id: the nickname, or the id itself ("computer:strong").
std::string display_name(std::string_view rating_id);
// The inverse for a name typed in a URL: "computer:strong" as is, else "name:<name>".
std::string rating_id_of_name(std::string_view name);

}  // namespace eryantis::store
