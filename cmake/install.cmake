# `cmake --install BUILD --prefix P` (docs/install.md). Included by the top-level CMakeLists
# before the libraries are declared; they register themselves with collsynth_install_library,
# and collsynth_install_package (called at the end) writes the CMake package.
#
# Layout under P:
#   bin/collsynth                                  the CLI
#   include/collsynth/<folder>/*.h                 each library folder's headers, included as
#                                                  "core/rational.h" (P/include/collsynth is the
#                                                  include root, as the source tree is here)
#   lib/libcollsynth_*.a                           the static libraries
#   lib/cmake/collsynth/                           find_package(collsynth CONFIG): collsynth::collsynth
#   share/collsynth/experiments/*.json             the built-in experiment definitions
#   share/bash-completion/completions/collsynth    bash completion (`collsynth completion bash`)
#   ${COLLSYNTH_PYTHON_INSTALL_DIR}/collsynth/     the Python package (COLLSYNTH_PYTHON)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(COLLSYNTH_INSTALL_INCLUDE_ROOT ${CMAKE_INSTALL_INCLUDEDIR}/collsynth)
set(COLLSYNTH_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/collsynth)

# Installs library target `name` into the export set, exported as collsynth::<name without the
# collsynth_ prefix> (collsynth_core -> collsynth::core), with the headers of source folder
# `dir` (and of its subfolders one level down) under include/collsynth/<dir>/. `dir` empty: no
# headers (an interface target, or generated code).
function(collsynth_install_library name dir)
  string(REGEX REPLACE "^collsynth_" "" _export_name ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${_export_name})
  install(TARGETS ${name} EXPORT collsynthTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  if(NOT dir STREQUAL "")
    file(GLOB _headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
         ${PROJECT_SOURCE_DIR}/${dir}/*.h ${PROJECT_SOURCE_DIR}/${dir}/*/*.h)
    foreach(_h ${_headers})
      get_filename_component(_sub ${_h} DIRECTORY)
      install(FILES ${PROJECT_SOURCE_DIR}/${_h}
        DESTINATION ${COLLSYNTH_INSTALL_INCLUDE_ROOT}/${_sub})
    endforeach()
  endif()
endfunction()

# The CLI, the experiment definitions it runs by name, and its bash completion, generated at
# install time by the installed binary's own `completion bash` (cli/completion_command.cc), so
# it lists exactly the commands and options of the binary it completes.
function(collsynth_install_binary)
  install(TARGETS collsynth RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  file(GLOB _definitions CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/experiments/*.json)
  install(FILES ${_definitions} DESTINATION ${CMAKE_INSTALL_DATADIR}/collsynth/experiments)
  set(_completion_dir ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(CODE "
    set(_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_completion_dir}\")
    file(MAKE_DIRECTORY \"\${_dir}\")
    message(STATUS \"Installing: \${_dir}/collsynth\")
    execute_process(COMMAND \"$<TARGET_FILE:collsynth>\" completion bash
      OUTPUT_FILE \"\${_dir}/collsynth\" COMMAND_ERROR_IS_FATAL ANY)")
endfunction()

# The Python package: python/collsynth/*.py and the compiled module, into the prefix's
# site-packages. Default: Debian's layout (lib/python3/dist-packages, where /usr/bin/python3
# looks under /usr; under /usr/local it looks in lib/python3.X/dist-packages) when the
# interpreter is Debian's, else lib/pythonX.Y/site-packages; -DCOLLSYNTH_PYTHON_INSTALL_DIR=...
# overrides (relative to P).
function(collsynth_install_python module py_files)
  if(Python_SITEARCH MATCHES "/dist-packages$")
    set(_default lib/python3/dist-packages)
  else()
    set(_default lib/python${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}/site-packages)
  endif()
  set(COLLSYNTH_PYTHON_INSTALL_DIR ${_default} CACHE STRING
      "Where the Python package is installed, relative to the prefix (docs/install.md)")
  install(TARGETS ${module} LIBRARY DESTINATION ${COLLSYNTH_PYTHON_INSTALL_DIR}/collsynth)
  install(FILES ${py_files} DESTINATION ${COLLSYNTH_PYTHON_INSTALL_DIR}/collsynth)
endfunction()

# The CMake package: collsynth::collsynth links every library (their dependencies are found
# again by collsynthConfig.cmake, as this CMakeLists finds them).
function(collsynth_install_package)
  add_library(collsynth_all INTERFACE)
  target_link_libraries(collsynth_all INTERFACE collsynth_cli_support)
  set_target_properties(collsynth_all PROPERTIES EXPORT_NAME collsynth)
  install(TARGETS collsynth_all EXPORT collsynthTargets)
  install(EXPORT collsynthTargets NAMESPACE collsynth:: DESTINATION ${COLLSYNTH_INSTALL_CMAKEDIR})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/collsynthConfig.cmake.in
    ${PROJECT_BINARY_DIR}/cmake/collsynthConfig.cmake
    INSTALL_DESTINATION ${COLLSYNTH_INSTALL_CMAKEDIR})
  install(FILES ${PROJECT_BINARY_DIR}/cmake/collsynthConfig.cmake
    DESTINATION ${COLLSYNTH_INSTALL_CMAKEDIR})
endfunction()
