#pragma once
#include "eryantis/rules/students.hpp"

namespace eryantis::rules {

struct Cloud {
  Students students;
  bool taken = false;  // taken this round
  friend bool operator==(const Cloud&, const Cloud&) = default;
};

}  // namespace eryantis::rules
