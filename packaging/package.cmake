# `make package` (cpack -G DEB): the Debian package of the server and its tools:
#   /usr/bin/eryantis-{server,admin,replay,cli,bot}, /etc/eryantis/eryantis.toml (a
#   conffile), /lib/systemd/system/eryantis.service, /usr/share/doc/eryantis/*.
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

install(TARGETS eryantis-server eryantis-admin eryantis-replay eryantis-cli eryantis-bot
        RUNTIME DESTINATION bin)
install(FILES ${PROJECT_SOURCE_DIR}/config/eryantis.toml DESTINATION /etc/eryantis)
install(FILES ${PROJECT_BINARY_DIR}/packaging/eryantis.service DESTINATION /lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/operations.md
              ${PROJECT_SOURCE_DIR}/docs/protocol.md ${PROJECT_SOURCE_DIR}/docs/architecture.md
        DESTINATION share/doc/eryantis)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME eryantis)
set(CPACK_PACKAGE_VENDOR "Eryantis")
set(CPACK_PACKAGE_CONTACT "Eryantis operators <root@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Authoritative, event-sourced Eriantys game server")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
