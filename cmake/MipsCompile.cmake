# SPDX-License-Identifier: Apache-2.0
# Compiling MLIR models with mips-compile from CMake, in this tree and, installed with
# the mips package, in any project that calls find_package(mips).
#
# mips_compile_model(<target> SOURCE <model.mlir> [TARGET riscv64|x86_64] [MARCH <isa>]
#                    [STATIC_EMBEDDING | EMBED_LIBMIPS] [HEADER <name.h>]
#                    [OPTIONS <flag>...])
#   Compiles the model into <target>, an INTERFACE library carrying the object and the
#   directory of the generated C header (<name.h>, default <model>.h): link it into an
#   executable or library. TARGET defaults to the target this project builds for; MARCH
#   is a RISC-V ISA string (e.g. rv64gc for a core without V). With STATIC_EMBEDDING
#   the object calls libmips directly and <target> links mips::mips (a target of that
#   name must exist); with EMBED_LIBMIPS libmips's bitcode is compiled into the object,
#   which then needs only pthreads; otherwise it loads libmips.so.1 at run time and
#   links only the dl library. OPTIONS are further mips-compile flags (e.g. --mips-inline-threshold=0).
#   Also sets <target>_OBJECT and <target>_INCLUDE_DIR.
#
# The compiler is MIPS_COMPILE_EXECUTABLE if set (a cross build points it at a host
# mips-compile), else this tree's mips-compile, else the installed mips::mips-compile.
set(MIPS_COMPILE_EXECUTABLE "" CACHE FILEPATH
    "mips-compile for mips_compile_model() (cross builds: a host mips-compile)")

# mips_compile_available(<var>): whether mips_compile_model() has a compiler to run.
function(mips_compile_available out_var)
  if(MIPS_COMPILE_EXECUTABLE OR TARGET mips-compile OR TARGET mips::mips-compile)
    set(${out_var} ON PARENT_SCOPE)
  else()
    set(${out_var} OFF PARENT_SCOPE)
  endif()
endfunction()

function(mips_compile_model name)
  cmake_parse_arguments(ARG "STATIC_EMBEDDING;EMBED_LIBMIPS" "SOURCE;TARGET;MARCH;HEADER" "OPTIONS"
                        ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mips_compile_model(${name}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "mips_compile_model(${name}): SOURCE <model.mlir> is required")
  endif()
  get_filename_component(source ${ARG_SOURCE} ABSOLUTE)
  if(MIPS_COMPILE_EXECUTABLE)
    set(compiler ${MIPS_COMPILE_EXECUTABLE})
    set(compiler_dep ${MIPS_COMPILE_EXECUTABLE})
  elseif(TARGET mips-compile)
    set(compiler $<TARGET_FILE:mips-compile>)
    set(compiler_dep mips-compile)
  elseif(TARGET mips::mips-compile)
    set(compiler $<TARGET_FILE:mips::mips-compile>)
    set(compiler_dep mips::mips-compile)
  else()
    message(FATAL_ERROR "mips_compile_model(${name}): no mips-compile; install the mips "
                        "compiler or set MIPS_COMPILE_EXECUTABLE")
  endif()
  set(target ${ARG_TARGET})
  if(NOT target)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^riscv64")
      set(target riscv64)
    else()
      set(target x86_64)
    endif()
  endif()
  set(flags --target=${target})
  if(ARG_STATIC_EMBEDDING AND ARG_EMBED_LIBMIPS)
    message(FATAL_ERROR "mips_compile_model(${name}): STATIC_EMBEDDING and EMBED_LIBMIPS are "
                        "two different linkages; choose one")
  endif()
  if(ARG_STATIC_EMBEDDING)
    list(APPEND flags --static-embedding)
  endif()
  set(compiler_deps ${compiler_dep})
  if(ARG_EMBED_LIBMIPS)
    list(APPEND flags --embed-libmips)
    if(TARGET libmips-bitcode)
      list(APPEND compiler_deps libmips-bitcode)
    endif()
  endif()
  if(ARG_MARCH)
    list(APPEND flags --march=${ARG_MARCH})
  endif()
  list(APPEND flags ${ARG_OPTIONS})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/mips-models/${name})
  set(object ${dir}/${name}.o)
  if(ARG_HEADER)
    set(header ${dir}/${ARG_HEADER})
  else()
    get_filename_component(header_name ${source} NAME_WE)
    set(header ${dir}/${header_name}.h)
  endif()
  add_custom_command(OUTPUT ${object} ${header}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${compiler} ${source} ${flags} -o ${object} --emit-header=${header}
    DEPENDS ${source} ${compiler_deps}
    COMMENT "mips-compile ${name} (${flags})"
    VERBATIM)
  set_source_files_properties(${object} PROPERTIES EXTERNAL_OBJECT ON GENERATED ON)
  add_custom_target(${name}_mips_compile DEPENDS ${object} ${header})
  add_library(${name} INTERFACE)
  add_dependencies(${name} ${name}_mips_compile)
  target_sources(${name} INTERFACE ${object})
  target_include_directories(${name} INTERFACE ${dir})
  if(ARG_STATIC_EMBEDDING)
    target_link_libraries(${name} INTERFACE mips::mips)
  elseif(ARG_EMBED_LIBMIPS)
    # libmips is inside the object; its thread pool needs pthreads. Its workers sleep in
    # the object's code, so a shared library holding it must never be unloaded
    # (-z nodelete, as libmips.so.1 itself is linked).
    find_package(Threads REQUIRED)
    target_link_libraries(${name} INTERFACE Threads::Threads)
    target_link_options(${name} INTERFACE "LINKER:-z,nodelete")
  else()
    target_link_libraries(${name} INTERFACE ${CMAKE_DL_LIBS})
  endif()
  # math ops without an LLVM intrinsic (erf, atan2, ...) become libm calls.
  if(UNIX)
    target_link_libraries(${name} INTERFACE m)
  endif()
  set(${name}_OBJECT ${object} PARENT_SCOPE)
  set(${name}_INCLUDE_DIR ${dir} PARENT_SCOPE)
endfunction()
