// eryantis-bot: the load bots over the games of this build (the catalogue).
#include "command_line.hpp"
#include "eryantis/catalogue/catalogue.hpp"

int main(int argc, char** argv) {
  return eryantis::bot::run_command_line(argc, argv, eryantis::catalogue::games());
}
