# `cmake --install`: the programs, the sample robots, the user documentation, the desktop
# integration (entry, icon, MIME types), the man pages and the bash completion; then the Debian
# package's settings (cmake/package.cmake, used by scripts/package). Included at the end of the
# top-level CMakeLists.txt. docs/building.md, "Install and package", lists what goes where.
#
# Nothing installed depends on the source tree: the window finds the robots at run time in
# <prefix>/share/dynscope/robots (app/gui/main.cpp), KaTeX in /usr/share/javascript/katex (libjs-katex).
include(GNUInstallDirs)

set(DYNSCOPE_ASSETS ${PROJECT_SOURCE_DIR}/assets)
set(DYNSCOPE_DATA_DIR ${CMAKE_INSTALL_DATADIR}/dynscope)           # share/dynscope
set(DYNSCOPE_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/dynscope)        # share/doc/dynscope
set(DYNSCOPE_MAN1_DIR ${CMAKE_INSTALL_MANDIR}/man1)                # share/man/man1

install(TARGETS dynscope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The sample robots, with any mesh folders below them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/robots/ DESTINATION ${DYNSCOPE_DATA_DIR}/robots)

# User documentation: docs/*.md and their pictures, read where they land (links are relative).
file(GLOB DYNSCOPE_USER_DOCS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${DYNSCOPE_USER_DOCS} DESTINATION ${DYNSCOPE_DOC_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/images DESTINATION ${DYNSCOPE_DOC_DIR})
# Debian wants the copyright statement in every package's doc folder; it is true of any install.
install(FILES ${DYNSCOPE_ASSETS}/debian/copyright DESTINATION ${DYNSCOPE_DOC_DIR})

# Man pages, compressed as Debian's policy asks (gzip -9n: no name or time stamp, reproducible);
# `man -l` reads them compressed. Built with the programs (target dynscope_man_pages).
find_program(DYNSCOPE_GZIP gzip REQUIRED)
set(DYNSCOPE_MAN_PAGES dynscope-cli.1)
if(TARGET dynscope)
  list(APPEND DYNSCOPE_MAN_PAGES dynscope.1)
endif()
set(DYNSCOPE_COMPRESSED_MAN_PAGES)
foreach(page ${DYNSCOPE_MAN_PAGES})
  set(out ${PROJECT_BINARY_DIR}/man/${page}.gz)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND sh -c "'${DYNSCOPE_GZIP}' -9n -c '${DYNSCOPE_ASSETS}/man/${page}' > '${out}'"
    DEPENDS ${DYNSCOPE_ASSETS}/man/${page}
    COMMENT "Compressing man page ${page}"
    VERBATIM)
  list(APPEND DYNSCOPE_COMPRESSED_MAN_PAGES ${out})
endforeach()
add_custom_target(dynscope_man_pages ALL DEPENDS ${DYNSCOPE_COMPRESSED_MAN_PAGES})
add_dependencies(dynscope-cli dynscope_man_pages)  # `cmake --install` right after scripts/run
install(FILES ${DYNSCOPE_COMPRESSED_MAN_PAGES} DESTINATION ${DYNSCOPE_MAN1_DIR})

# Bash completion of dynscope-cli (bash-completion loads it by the command's name, on demand).
install(FILES ${DYNSCOPE_ASSETS}/completion/dynscope-cli.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME dynscope-cli)

# The window and its desktop integration.
if(TARGET dynscope)
  install(TARGETS dynscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${DYNSCOPE_ASSETS}/dynscope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${DYNSCOPE_ASSETS}/icons/dynscope.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  # .urdf, .dh and MuJoCo MJCF (.xml whose root element is <mujoco>), named in the entry's MimeType=.
  install(FILES ${DYNSCOPE_ASSETS}/dynscope-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
          RENAME dynscope.xml)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/package.cmake)
