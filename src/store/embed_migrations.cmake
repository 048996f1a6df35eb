# Generates a C++ source holding every migrations/NNNN_name.sql as a raw string
# literal, so binaries carry their schema and work from any directory.
#   cmake -DMIGRATIONS_DIR=... -DOUTPUT=... [-DFUNCTION=name] -P embed_migrations.cmake
# FUNCTION names the generated function (embedded_migrations: SQLite's,
# migrations/*.sql; embedded_pg_migrations: PostgreSQL's, migrations/postgresql/*.sql).
if(NOT DEFINED FUNCTION)
  set(FUNCTION embedded_migrations)
endif()
file(GLOB sql_files "${MIGRATIONS_DIR}/*.sql")
list(SORT sql_files)

set(entries "")
set(expected 1)
foreach(sql_file IN LISTS sql_files)
  get_filename_component(file_name "${sql_file}" NAME_WE)
  if(NOT file_name MATCHES "^([0-9][0-9][0-9][0-9])_([a-z0-9_]+)$")
    message(FATAL_ERROR "${sql_file}: migration files are named NNNN_name.sql (lower case)")
  endif()
  math(EXPR version "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  if(NOT version EQUAL expected)
    message(FATAL_ERROR "${sql_file}: expected migration ${expected}; versions must be 1, 2, ... without gaps")
  endif()
  file(READ "${sql_file}" sql)
  string(FIND "${sql}" ")eryantis_sql\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${sql_file} contains the raw-string delimiter )eryantis_sql\"")
  endif()
  string(APPEND entries "    {${version}, \"${name}\", R\"eryantis_sql(${sql})eryantis_sql\"},\n")
  math(EXPR expected "${expected} + 1")
endforeach()
if(expected EQUAL 1)
  message(FATAL_ERROR "no migrations found in ${MIGRATIONS_DIR}")
endif()

set(content "// Generated from ${MIGRATIONS_DIR}/*.sql by src/store/embed_migrations.cmake. Do not edit.
#include \"eryantis/store/migrations.hpp\"

namespace eryantis::store {

std::span<const Migration> ${FUNCTION}() {
  static constexpr Migration kMigrations[] = {
${entries}  };
  return kMigrations;
}

}  // namespace eryantis::store
")
# Only touch the output when it changes, so unrelated rebuilds stay incremental.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
