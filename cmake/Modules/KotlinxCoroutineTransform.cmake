# KotlinxCoroutineTransform: lowering LLVM IR with llcoro in a build.
#
#   kxs_transform_ir(INPUT a.ll OUTPUT b.ll)
#     A custom command that runs `llcoro a.ll -o b.ll` whenever a.ll or llcoro changes. A relative
#     INPUT is looked up in the current source directory, then the current binary directory (for IR
#     another custom command generates); a relative OUTPUT goes to the current binary directory. As
#     with any custom command, something must use OUTPUT (a target's source, or
#     add_custom_target(name ALL DEPENDS b.ll)) for it to run.
#
#   kxs_enable_coroutine_transform(<target>)
#     Lowers the IR of every C++ source of <target> on its way to the object file: clang writes the
#     IR with the target's own flags, includes and definitions, llcoro lowers it, and clang compiles
#     the result into the target's object (llcoro_enable: `llcoro cc` as compiler launcher). One
#     object per source; nothing else is compiled or linked.
#
# kxs_transform_ir.cmake, beside this file, does what kxs_transform_ir() does from a script:
#   cmake -DINPUT=a.ll -DOUTPUT=b.ll [-DLLCORO_EXECUTABLE=...] -P kxs_transform_ir.cmake

include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/Llcoro.cmake")

function(kxs_transform_ir)
  cmake_parse_arguments(PARSE_ARGV 0 KXS "" "INPUT;OUTPUT" "")
  if(NOT KXS_INPUT OR NOT KXS_OUTPUT OR KXS_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: kxs_transform_ir(INPUT <file.ll> OUTPUT <file.ll>)")
  endif()
  set(input "${KXS_INPUT}")
  if(NOT IS_ABSOLUTE "${input}")
    if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${input}")
      set(input "${CMAKE_CURRENT_SOURCE_DIR}/${input}")
    else()
      set(input "${CMAKE_CURRENT_BINARY_DIR}/${input}")
    endif()
  endif()
  set(output "${KXS_OUTPUT}")
  if(NOT IS_ABSOLUTE "${output}")
    set(output "${CMAKE_CURRENT_BINARY_DIR}/${output}")
  endif()
  _llcoro_executable(exe)
  add_custom_command(OUTPUT "${output}"
    COMMAND "${exe}" "${input}" -o "${output}"
    DEPENDS "${input}" "${exe}"
    COMMENT "llcoro: lowering ${KXS_INPUT}"
    VERBATIM)
endfunction()

function(kxs_enable_coroutine_transform target)
  llcoro_enable("${target}")
endfunction()
