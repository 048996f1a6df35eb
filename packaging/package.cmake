# `make package` (cpack -G DEB): the Debian package of the server and its tools:
#   /usr/bin/eryantis-{server,admin,replay,cli,bot,selfplay,arena} (stripped) and their
#   man pages, /etc/eryantis/eryantis.toml and /etc/logrotate.d/eryantis (conffiles),
#   /lib/systemd/system/eryantis.service, the web client under /usr/share/eryantis/web,
#   /usr/share/doc/eryantis/{copyright,changelog.gz,*.md}. packaging/check-package.sh
#   checks it (lintian, the unit, the web client served, logrotate, the syscall filter).
# Included from the top CMakeLists.txt.

# Readiness: sd_notify(READY=1) once the server listens, when libsystemd is there.
pkg_check_modules(SYSTEMD IMPORTED_TARGET libsystemd)
if(SYSTEMD_FOUND)
  target_compile_definitions(eryantis-server PRIVATE ERYANTIS_SYSTEMD=1)
  target_link_libraries(eryantis-server PRIVATE PkgConfig::SYSTEMD)
  set(ERYANTIS_SERVICE_TYPE notify)
  set(ERYANTIS_READINESS "Type=notify, READY=1 once the server listens.")
else()
  set(ERYANTIS_SERVICE_TYPE simple)
  set(ERYANTIS_READINESS "Type=simple (built without libsystemd): ready when the log says \"eryantis-server listening on\".")
endif()
configure_file(${PROJECT_SOURCE_DIR}/packaging/eryantis.service.in
               ${PROJECT_BINARY_DIR}/packaging/eryantis.service @ONLY)

set(ERYANTIS_PACKAGE_MAINTAINER "Eryantis maintainers <maintainers@eryantis.example>"
    CACHE STRING "The Maintainer of the Debian package (name <address>)")
set(ERYANTIS_WEB_INSTALL_DIR /usr/share/eryantis/web)

# The packaged configuration is the reference one (config/eryantis.toml) with the web
# client where the package puts it: relative to the unit's working directory
# (/var/lib/eryantis) "web/dist" would be nothing, and / would answer 404.
set(ERYANTIS_PACKAGED_CONFIG ${PROJECT_BINARY_DIR}/packaging/eryantis.toml)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/config/eryantis.toml)
file(READ ${PROJECT_SOURCE_DIR}/config/eryantis.toml ERYANTIS_REFERENCE_CONFIG)
string(REPLACE "\nstatic_dir = \"web/dist\"\n" "\nstatic_dir = \"${ERYANTIS_WEB_INSTALL_DIR}\"\n"
               ERYANTIS_PACKAGED_CONFIG_TEXT "${ERYANTIS_REFERENCE_CONFIG}")
if(ERYANTIS_PACKAGED_CONFIG_TEXT STREQUAL ERYANTIS_REFERENCE_CONFIG)
  message(FATAL_ERROR "packaging: config/eryantis.toml has no line static_dir = \"web/dist\" "
                      "to point at ${ERYANTIS_WEB_INSTALL_DIR}: update packaging/package.cmake")
endif()
file(WRITE ${ERYANTIS_PACKAGED_CONFIG} "${ERYANTIS_PACKAGED_CONFIG_TEXT}")

# The changelog's newest entry is this version: a new version needs its entry first.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog)
file(STRINGS ${PROJECT_SOURCE_DIR}/packaging/changelog ERYANTIS_CHANGELOG_TOP LIMIT_COUNT 1)
if(NOT ERYANTIS_CHANGELOG_TOP MATCHES "^eryantis \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/changelog starts with \"${ERYANTIS_CHANGELOG_TOP}\": add an entry "
                      "for version ${PROJECT_VERSION} at its top")
endif()

set(ERYANTIS_PACKAGED_TOOLS eryantis-admin eryantis-replay eryantis-cli eryantis-bot
                            eryantis-selfplay eryantis-arena)
install(TARGETS eryantis-server ${ERYANTIS_PACKAGED_TOOLS} RUNTIME DESTINATION bin)
install(FILES ${ERYANTIS_PACKAGED_CONFIG} DESTINATION /etc/eryantis)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/logrotate DESTINATION /etc/logrotate.d RENAME eryantis)
install(FILES ${PROJECT_BINARY_DIR}/packaging/eryantis.service DESTINATION /lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/operations.md
              ${PROJECT_SOURCE_DIR}/docs/protocol.md ${PROJECT_SOURCE_DIR}/docs/architecture.md
              ${PROJECT_SOURCE_DIR}/packaging/copyright
        DESTINATION share/doc/eryantis)

# Generated files: the gzipped changelog and the man pages. gzip -n: the same input
# gives the same bytes (no name or time stamp inside).
set(ERYANTIS_PACKAGE_FILES ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/packaging/changelog.gz
  COMMAND gzip -9n -c ${PROJECT_SOURCE_DIR}/packaging/changelog > ${PROJECT_BINARY_DIR}/packaging/changelog.gz
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog
  COMMENT "packaging: changelog.gz")
install(FILES ${PROJECT_BINARY_DIR}/packaging/changelog.gz DESTINATION share/doc/eryantis)

# Man pages from each tool's --help (help2man, Debian's help2man; packaging/man-page.sh).
# Without help2man the build goes on without them and says so, except in CI.
find_program(ERYANTIS_HELP2MAN help2man)
if(NOT ERYANTIS_HELP2MAN)
  if(DEFINED ENV{CI})
    message(FATAL_ERROR "packaging: help2man is required in CI (tools/install-deps.sh installs it)")
  endif()
  message(WARNING "packaging: help2man not found: the package will have no man pages. "
                  "Run tools/install-deps.sh (or `make deps`).")
else()
  set(ERYANTIS_MAN_NAMES
      "eryantis-server=authoritative, event-sourced Eriantys game server"
      "eryantis-admin=operator commands for a running eryantis-server"
      "eryantis-replay=inspect an Eryantis match database and replay its matches"
      "eryantis-cli=play Eriantys in a terminal against an Eryantis server"
      "eryantis-bot=headless Eriantys players and load for an Eryantis server"
      "eryantis-selfplay=random legal Eriantys games, checked against the rules' invariants"
      "eryantis-arena=round robin between the Eryantis computer players")
  foreach(entry IN LISTS ERYANTIS_MAN_NAMES)
    string(FIND "${entry}" "=" eq)
    string(SUBSTRING "${entry}" 0 ${eq} tool)
    math(EXPR after "${eq} + 1")
    string(SUBSTRING "${entry}" ${after} -1 description)
    set(page ${PROJECT_BINARY_DIR}/packaging/man/${tool}.1.gz)
    add_custom_command(
      OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging/man
      COMMAND bash ${PROJECT_SOURCE_DIR}/packaging/man-page.sh ${ERYANTIS_HELP2MAN}
              $<TARGET_FILE:${tool}> ${PROJECT_VERSION} "${description}" ${page}
      DEPENDS ${tool} ${PROJECT_SOURCE_DIR}/packaging/man-page.sh
      COMMENT "packaging: man page of ${tool}"
      VERBATIM)
    list(APPEND ERYANTIS_PACKAGE_FILES ${page})
    install(FILES ${page} DESTINATION share/man/man1)
  endforeach()
endif()
add_custom_target(eryantis-package-files ALL DEPENDS ${ERYANTIS_PACKAGE_FILES})

# The web client the server serves at / (web/CMakeLists.txt builds it into web/dist).
if(TARGET eryantis-web)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/web/dist/ DESTINATION ${ERYANTIS_WEB_INSTALL_DIR}
          FILES_MATCHING PATTERN "*.html" PATTERN "*.js" PATTERN "*.css")
else()
  message(WARNING "packaging: the web client is not built (no node/npm): the package will "
                  "serve no web client and the server will warn at start")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME eryantis)
set(CPACK_PACKAGE_VENDOR "Eryantis")
set(CPACK_PACKAGE_CONTACT "${ERYANTIS_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "authoritative, event-sourced Eriantys game server")
# The extended description, below the summary: CPack indents each line and writes an empty
# one as " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Eryantis runs matches of the board game Eriantys (2, 3 or 4 players, simple
and expert mode, all twelve characters) for clients over TCP and WebSocket,
and serves a web client in the browser. Every validated command becomes one
event in SQLite (or PostgreSQL); a match's state is the fold of its events.

This package holds the server and its systemd unit, the terminal client
(eryantis-cli), the operator's tools (eryantis-admin, eryantis-replay), the
load and test tools (eryantis-bot, eryantis-selfplay, eryantis-arena) and the
web client.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Not "games": lintian wants a game's binaries in /usr/games; this is a network server.
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Debian's binaries carry no symbols (lintian: unstripped-binary-or-object).
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
