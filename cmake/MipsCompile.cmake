# SPDX-License-Identifier: Apache-2.0
# mips_compile_model(<name> SOURCE <model.mlir> [STATIC_EMBEDDING] [MARCH <isa>])
# Compiles <model.mlir> with mips-compile for this build's target into
# <name>.o and writes <name>.h next to it; sets <name>_OBJECT and <name>_INCLUDE_DIR.
# Uses the mips-compile of this build, or MIPS_COMPILE_EXECUTABLE (a cross build
# can point it at a host build's). mips_compile_available(<var>) says if either exists.
set(MIPS_COMPILE_EXECUTABLE "" CACHE FILEPATH
    "mips-compile to use for end-to-end tests when this build has none (cross builds)")

function(mips_compile_available out_var)
  if(TARGET mips-compile OR MIPS_COMPILE_EXECUTABLE)
    set(${out_var} ON PARENT_SCOPE)
  else()
    set(${out_var} OFF PARENT_SCOPE)
  endif()
endfunction()

function(mips_compile_model name)
  cmake_parse_arguments(ARG "STATIC_EMBEDDING" "SOURCE;MARCH" "" ${ARGN})
  if(TARGET mips-compile)
    set(compiler $<TARGET_FILE:mips-compile>)
    set(compiler_dep mips-compile)
  else()
    set(compiler ${MIPS_COMPILE_EXECUTABLE})
    set(compiler_dep ${MIPS_COMPILE_EXECUTABLE})
  endif()
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^riscv64")
    set(target riscv64)
  else()
    set(target x86_64)
  endif()
  set(mode_flag)
  if(ARG_STATIC_EMBEDDING)
    set(mode_flag --static-embedding)
  endif()
  if(ARG_MARCH)
    list(APPEND mode_flag --march=${ARG_MARCH})
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/models/${name})
  set(object ${dir}/${name}.o)
  get_filename_component(header_name ${ARG_SOURCE} NAME_WE)
  set(header ${dir}/${header_name}.h)
  add_custom_command(OUTPUT ${object} ${header}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${compiler} ${ARG_SOURCE} --target=${target} ${mode_flag}
            -o ${object} --emit-header=${header}
    DEPENDS ${ARG_SOURCE} ${compiler_dep}
    COMMENT "mips-compile ${name} (${target}${mode_flag})"
    VERBATIM)
  set(${name}_OBJECT ${object} PARENT_SCOPE)
  set(${name}_INCLUDE_DIR ${dir} PARENT_SCOPE)
endfunction()
