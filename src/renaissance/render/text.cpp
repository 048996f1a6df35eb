#include "text.hpp"

namespace eryantis::renaissance::render::detail {

std::string who(const Names& names, Seat seat) {
  if (seat >= 0 && seat < kMaxPlayers && !names[seat].empty()) return names[seat];
  return "seat " + std::to_string(seat);
}

std::string ordinal(int n) {
  const char* suffix = n == 1 ? "st" : n == 2 ? "nd" : n == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string resource_count(int n, Resource r) {
  std::string out = std::to_string(n) + " " + std::string(resource_name(r));
  if (n != 1) out += "s";
  return out;
}

std::string amounts_text(const Amounts& a) {
  std::string out;
  for (Resource r : kAllResources) {
    if (a[index(r)] == 0) continue;
    if (!out.empty()) out += ", ";
    out += resource_count(a[index(r)], r);
  }
  return out.empty() ? "nothing" : out;
}

std::string_view resource_short(Resource r) {
  switch (r) {
    case Resource::Coin:
      return "co";
    case Resource::Servant:
      return "se";
    case Resource::Shield:
      return "sh";
    case Resource::Stone:
      return "st";
  }
  return "?";
}

std::string amounts_short(const Amounts& a) {
  std::string out;
  for (Resource r : kAllResources)
    if (a[index(r)] > 0) out.append(std::to_string(a[index(r)])).append(resource_short(r));
  return out.empty() ? "-" : out;
}

std::string kind_words(LeaderKind k) {
  switch (k) {
    case LeaderKind::Discount:
      return "discount";
    case LeaderKind::ExtraDepot:
      return "extra depot";
    case LeaderKind::WhiteMarble:
      return "white marble";
    case LeaderKind::Production:
      return "production";
  }
  return "?";
}

std::string leader_text(int id) {
  if (!is_leader_id(id)) return "a hidden leader";
  const LeaderCard& l = leader_card(id);
  std::string out(leader_name(id));
  out.append(" (").append(kind_words(l.kind)).append(": ").append(resource_name(l.resource));
  out.append(", ").append(std::to_string(l.vp)).append(" VP)");
  return out;
}

std::string card_text(int id) {
  if (!is_card_id(id)) return "a card";
  const DevelopmentCard& c = development_card(id);
  char name[16];  // room for any int: -Wformat-truncation cannot always see id <= 48
  std::snprintf(name, sizeof name, "D%02d", id);
  std::string out(name);
  out.append(" (level ").append(std::to_string(c.level)).append(" ").append(colour_name(c.colour));
  out.append(", ").append(std::to_string(c.vp)).append(" VP)");
  return out;
}

}  // namespace eryantis::renaissance::render::detail
