# Llcoro: compile a target's C++ sources through llcoro.
#
#   include(Llcoro)            # or find_package(llcoro), or add_subdirectory(<llcoro repository>)
#   llcoro_enable(<target>)
#
# llcoro_enable() makes `llcoro cc --` the target's C++ compiler launcher: each C++ source is compiled
# by clang to presplit LLVM IR, lowered by llcoro (C++20 coroutines, kxs suspend functions), and
# compiled from the lowered IR into the object file the build asked for (docs/launcher.md). A
# launcher the target already has stays in front, except a compiler cache (ccache, sccache, as from
# CMAKE_CXX_COMPILER_LAUNCHER=ccache), which llcoro runs instead (`llcoro cc --wrapper=ccache --`):
# it then caches the whole pipeline, and sees a new llcoro or a new compiler as a cache miss.
#
# LLCORO_EXECUTABLE (cache): the llcoro binary. By default the one installed with this package, the
# one cargo built in the repository these modules come from, or `llcoro` on PATH.

include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.19)
  message(FATAL_ERROR "Llcoro.cmake needs CMake 3.19 or newer (this is ${CMAKE_VERSION})")
endif()

# Where to look before PATH: the package's own bin directory (set by llcoroConfig.cmake), the
# layout of an installed package, then cargo's output in the source tree.
set(_llcoro_hints)
if(DEFINED LLCORO_PACKAGE_PREFIX)
  list(APPEND _llcoro_hints "${LLCORO_PACKAGE_PREFIX}/bin")
endif()
if(DEFINED ENV{CARGO_TARGET_DIR})
  list(APPEND _llcoro_hints "$ENV{CARGO_TARGET_DIR}/release")
endif()
list(APPEND _llcoro_hints "${CMAKE_CURRENT_LIST_DIR}/../../target/release")
find_program(LLCORO_EXECUTABLE NAMES llcoro HINTS ${_llcoro_hints}
  DOC "The llcoro binary: the C++ compiler launcher of targets given to llcoro_enable()")
unset(_llcoro_hints)

# The llcoro binary as an absolute path in <out>; a configure error when there is none.
function(_llcoro_executable out)
  set(exe "${LLCORO_EXECUTABLE}")
  if(exe AND NOT IS_ABSOLUTE "${exe}")
    find_program(_llcoro_exe_abs NAMES "${exe}" NO_CACHE)
    set(exe "${_llcoro_exe_abs}")
  endif()
  if(NOT exe OR NOT EXISTS "${exe}")
    message(FATAL_ERROR
      "llcoro: the llcoro binary was not found (LLCORO_EXECUTABLE is '${LLCORO_EXECUTABLE}'). "
      "Build it with `cargo build --release -p llcoro`, install it on PATH, or configure with "
      "-DLLCORO_EXECUTABLE=/path/to/llcoro.")
  endif()
  set(${out} "${exe}" PARENT_SCOPE)
endfunction()

# A configure error unless the C++ compiler is clang: llcoro needs clang's LLVM IR.
function(_llcoro_require_clang caller)
  if(NOT CMAKE_CXX_COMPILER_ID)
    message(FATAL_ERROR "${caller}: C++ is not enabled in this project; add CXX to project(... LANGUAGES ...)")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "^(Clang|AppleClang)$")
    message(FATAL_ERROR
      "${caller}: llcoro needs clang as the C++ compiler (it lowers the LLVM IR that clang writes), "
      "but CMAKE_CXX_COMPILER is ${CMAKE_CXX_COMPILER} (${CMAKE_CXX_COMPILER_ID} "
      "${CMAKE_CXX_COMPILER_VERSION}). Configure a new build directory with "
      "-DCMAKE_CXX_COMPILER=clang++ (or clang++-19, clang++-22, ...).")
  endif()
  if(CMAKE_CXX_SIMULATE_ID STREQUAL "MSVC")
    message(FATAL_ERROR "${caller}: clang-cl (MSVC-style command lines) is not supported by llcoro cc; use clang++")
  endif()
endfunction()

# Makes `llcoro cc --` the C++ compiler launcher of <target>, behind the launcher it already has.
function(llcoro_enable target)
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "llcoro_enable: '${target}' is not a target")
  endif()
  get_target_property(type "${target}" TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    message(FATAL_ERROR "llcoro_enable(${target}): an interface library compiles nothing; enable the targets that use it")
  endif()
  _llcoro_require_clang("llcoro_enable(${target})")
  _llcoro_executable(exe)
  get_target_property(done "${target}" LLCORO_ENABLED)
  if(done)
    return()
  endif()
  set_property(TARGET "${target}" PROPERTY LLCORO_ENABLED ON)
  get_target_property(launcher "${target}" CXX_COMPILER_LAUNCHER)
  if(NOT launcher)
    set(launcher "")
  endif()
  # An llcoro already in the launcher (CMAKE_CXX_COMPILER_LAUNCHER="llcoro;cc;--") stays the only one.
  set(has_llcoro OFF)
  foreach(word IN LISTS launcher)
    get_filename_component(word_name "${word}" NAME)
    if(word_name MATCHES "^llcoro(\\.exe)?$")
      set(has_llcoro ON)
    endif()
  endforeach()
  # A compiler cache as the last launcher runs inside llcoro instead (`llcoro cc --wrapper=ccache`):
  # in front of llcoro it would take the compiler's path for a second source and cache nothing.
  set(wrapper "")
  if(launcher AND NOT has_llcoro)
    list(GET launcher -1 last)
    get_filename_component(last_name "${last}" NAME)
    if(last_name MATCHES "^s?ccache(\\.exe)?$")
      list(REMOVE_AT launcher -1)
      set(wrapper "--wrapper=${last}")
    endif()
  endif()
  if(NOT has_llcoro)
    set_property(TARGET "${target}" PROPERTY CXX_COMPILER_LAUNCHER ${launcher} "${exe}" cc ${wrapper} --)
  endif()
  # The launcher is not a dependency the generators know of: make every object depend on the
  # binary, so a new llcoro rebuilds them. Sources are collected at the end of this directory,
  # when target_sources() calls after this one have run too. (A deferred call's arguments are
  # expanded when it runs, so the values go in now, as bracket arguments.)
  cmake_language(EVAL CODE "cmake_language(DEFER CALL _llcoro_object_depends [==[${target}]==] [==[${exe}]==])")
endfunction()

function(_llcoro_object_depends target exe)
  get_target_property(sources "${target}" SOURCES)
  get_target_property(source_dir "${target}" SOURCE_DIR)
  get_target_property(binary_dir "${target}" BINARY_DIR)
  foreach(src IN LISTS sources)
    if(src MATCHES "^\\$<" OR src MATCHES "\\.(h|hh|hpp|hxx|inl|inc)$")
      continue()
    endif()
    if(NOT IS_ABSOLUTE "${src}")
      if(EXISTS "${source_dir}/${src}")
        set(src "${source_dir}/${src}")
      else()
        set(src "${binary_dir}/${src}")
      endif()
    endif()
    set_property(SOURCE "${src}" TARGET_DIRECTORY "${target}" APPEND PROPERTY OBJECT_DEPENDS "${exe}")
  endforeach()
endfunction()
