cmake_policy(SET CMP0057 NEW)
# Fails when a file under src/ include/ tools/ tests/ bench/ includes rapidjson or
# cereal's JSON archive directly instead of eryantis/json/json.hpp (or fwd.hpp),
# the headers that configure them (eryantis/json/config.hpp). Run by ctest (json_includes_use_the_wrapper):
#   cmake -DROOT=<source dir> -P check_json_includes.cmake
if(NOT ROOT)
  message(FATAL_ERROR "ROOT (the source directory) is not set")
endif()
set(wrappers "${ROOT}/include/eryantis/json/json.hpp" "${ROOT}/include/eryantis/json/fwd.hpp")
set(offenders "")
foreach(dir src include tools tests bench)
  file(GLOB_RECURSE files "${ROOT}/${dir}/*.cpp" "${ROOT}/${dir}/*.hpp" "${ROOT}/${dir}/*.h"
       "${ROOT}/${dir}/*.cc" "${ROOT}/${dir}/*.hh" "${ROOT}/${dir}/*.ipp")
  foreach(file IN LISTS files)
    if(file IN_LIST wrappers)
      continue()
    endif()
    file(STRINGS "${file}" lines
         REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](rapidjson/|cereal/archives/json\\.hpp)")
    foreach(line IN LISTS lines)
      file(RELATIVE_PATH rel "${ROOT}" "${file}")
      string(STRIP "${line}" line)
      list(APPEND offenders "${rel}: ${line}")
    endforeach()
  endforeach()
endforeach()
if(offenders)
  list(JOIN offenders "\n  " listing)
  message(FATAL_ERROR "include \"eryantis/json/json.hpp\" instead of rapidjson or cereal's JSON "
                      "archive (one configuration of rapidjson):\n  ${listing}")
endif()
message(STATUS "every JSON include goes through eryantis/json/json.hpp")
