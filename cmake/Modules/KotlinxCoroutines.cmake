# KotlinxCoroutines: the kotlinx::coroutines headers and kxs suspend functions.
#
#   include(KotlinxCoroutines)   # or find_package(llcoro), or add_subdirectory(<llcoro repository>)
#   kxs_add_executable(app SOURCES main.cpp)
#   # or, for an existing target:
#   kxs_enable_suspend(app)
#
# kotlinx::coroutines is an interface library: the include directory holding
# kotlinx/coroutines/dsl/Suspend.hpp and -Wno-gnu-label-as-value (the DSL stores resume points with
# clang's labels as values). kxs_enable_suspend() links it and compiles the target through llcoro
# (llcoro_enable), which lowers every function that calls __kxs_suspend_point.

include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/Llcoro.cmake")

# The headers: next to an installed package (set by llcoroConfig.cmake), else the repository's.
if(NOT DEFINED KXS_INCLUDE_DIR)
  get_filename_component(KXS_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../../cpp/include" ABSOLUTE)
endif()

if(NOT TARGET kotlinx::coroutines)
  add_library(llcoro_kotlinx_coroutines INTERFACE)
  target_include_directories(llcoro_kotlinx_coroutines INTERFACE "${KXS_INCLUDE_DIR}")
  target_compile_options(llcoro_kotlinx_coroutines INTERFACE
    "$<$<COMPILE_LANG_AND_ID:CXX,Clang,AppleClang>:-Wno-gnu-label-as-value>"
    "$<$<COMPILE_LANG_AND_ID:C,Clang,AppleClang>:-Wno-gnu-label-as-value>")
  add_library(kotlinx::coroutines ALIAS llcoro_kotlinx_coroutines)
endif()

# Links kotlinx::coroutines into <target> and compiles its C++ sources through llcoro.
function(kxs_enable_suspend target)
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "kxs_enable_suspend: '${target}' is not a target")
  endif()
  target_link_libraries("${target}" PRIVATE kotlinx::coroutines)
  llcoro_enable("${target}")
endfunction()

# add_executable(<name> <sources>...) with kxs_enable_suspend(<name>). Sources may follow SOURCES or
# come directly after the name; LIBRARIES are linked privately.
function(kxs_add_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 KXS "" "" "SOURCES;LIBRARIES")
  set(sources ${KXS_UNPARSED_ARGUMENTS} ${KXS_SOURCES})
  if(NOT sources)
    message(FATAL_ERROR "kxs_add_executable(${name}): no SOURCES")
  endif()
  add_executable("${name}" ${sources})
  if(KXS_LIBRARIES)
    target_link_libraries("${name}" PRIVATE ${KXS_LIBRARIES})
  endif()
  kxs_enable_suspend("${name}")
endfunction()
