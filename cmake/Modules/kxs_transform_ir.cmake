# Lowers one LLVM IR file with llcoro, as a CMake script:
#
#   cmake -DINPUT=in.ll -DOUTPUT=out.ll [-DLLCORO_EXECUTABLE=/path/to/llcoro] -P kxs_transform_ir.cmake
#
# Runs `llcoro INPUT -o OUTPUT`; llcoro's diagnostics go to stderr, and a refusal fails the script
# (OUTPUT is then left untouched: llcoro writes it through a temporary file).

if(NOT DEFINED INPUT OR NOT DEFINED OUTPUT)
  message(FATAL_ERROR "usage: cmake -DINPUT=in.ll -DOUTPUT=out.ll [-DLLCORO_EXECUTABLE=llcoro] -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
if(NOT LLCORO_EXECUTABLE)
  find_program(LLCORO_EXECUTABLE NAMES llcoro
    HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../bin" "${CMAKE_CURRENT_LIST_DIR}/../../target/release")
endif()
if(NOT LLCORO_EXECUTABLE)
  message(FATAL_ERROR "kxs_transform_ir: llcoro not found; pass -DLLCORO_EXECUTABLE=/path/to/llcoro")
endif()
execute_process(COMMAND "${LLCORO_EXECUTABLE}" "${INPUT}" -o "${OUTPUT}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "kxs_transform_ir: llcoro could not lower ${INPUT} (${status})")
endif()
