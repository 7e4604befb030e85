# The Debian package (CPack's DEB generator), built by scripts/package in build-package/:
# dynscope_<version>-1_<arch>.deb with what cmake/install.cmake installs under /usr. The library
# dependencies come from dpkg-shlibdeps; only what the programs use without linking it is named here.
# Included from cmake/install.cmake.

set(DYNSCOPE_DEB_RELEASE 1)
set(DYNSCOPE_DEB_VERSION ${PROJECT_VERSION}-${DYNSCOPE_DEB_RELEASE})
# A placeholder address: the project has no mailing address yet.
set(DYNSCOPE_DEB_MAINTAINER "Dynscope developers <dev@dynscope.invalid>")

# /usr/share/doc/dynscope/changelog.Debian.gz: Debian's changelog of the package, compressed as
# policy asks (gzip -9n). The copyright file is installed by cmake/install.cmake.
configure_file(${PROJECT_SOURCE_DIR}/assets/debian/changelog.in ${PROJECT_BINARY_DIR}/debian/changelog.Debian @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz
  COMMAND sh -c "'${DYNSCOPE_GZIP}' -9n -c '${PROJECT_BINARY_DIR}/debian/changelog.Debian' > '${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz'"
  DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.Debian
  COMMENT "Compressing the Debian changelog"
  VERBATIM)
add_custom_target(dynscope_debian_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz)
install(FILES ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz DESTINATION ${DYNSCOPE_DOC_DIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dynscope)
set(CPACK_PACKAGE_VENDOR "the Dynscope developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${DYNSCOPE_DEB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workbench for robot dynamics (URDF, MuJoCo MJCF, DH tables)")
# Extended description: one paragraph per blank line (CPack writes the " ." lines).
set(CPACK_PACKAGE_DESCRIPTION [=[
Dynscope loads a robot from a URDF file, a MuJoCo MJCF file or a
Denavit-Hartenberg table, shows it in 3D, lets the user move it, plan and
scrub trajectories, read the joint torques, simulate its forward dynamics
and look inside the algorithms.

The engine implements Featherstone's spatial-vector algorithms (RNEA, CRBA,
ABA, kinematics, Jacobians) and the classical formulations (Saha's DeNOC,
Newton-Euler, the Lagrangian family) as they appear in the papers. Lecture
mode steps through every algorithm one body at a time with its equations
typeset by KaTeX.

This package contains the workbench window (dynscope), the command-line tool
(dynscope-cli, JSON and CSV output), the Python module (import dynscope),
sample robots and the user documentation.]=])

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # dynscope_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE ${DYNSCOPE_DEB_RELEASE})
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${DYNSCOPE_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from the programs' shared libraries
if(TARGET dynscope)
  # Read at run time, not linked: KaTeX for the lecture mode's equations (ui/lecture/katex_assets.hpp)
  # and the DejaVu font for the 3D legends (ui/scene/trace_arrow_overlay.cpp, force_arrow_layer.cpp).
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libjs-katex, fonts-dejavu-core")
endif()
if(TARGET _dynscope)  # the Python module: built for this Python's minor version, numpy at run time
  set(python_depends "python3 (>= ${DYNSCOPE_PYTHON_VERSION}), python3 (<< ${DYNSCOPE_PYTHON_NEXT_VERSION}~), python3-numpy")
  if(CPACK_DEBIAN_PACKAGE_DEPENDS)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", ${python_depends}")
  else()
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "${python_depends}")
  endif()
endif()

include(CPack)
