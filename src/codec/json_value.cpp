#include "eryantis/codec/json_value.hpp"

namespace eryantis::codec {

}  // namespace eryantis::codec
