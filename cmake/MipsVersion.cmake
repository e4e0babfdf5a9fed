# SPDX-License-Identifier: Apache-2.0
# mips_read_version(<header> <out-var>): sets <out-var> to "MAJOR.MINOR.PATCH" read from
# the MIPS_VERSION_* macros of <header>, so that the header is the only place to bump.
function(mips_read_version header out_var)
  file(STRINGS "${header}" lines REGEX "^#define MIPS_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+")
  foreach(part MAJOR MINOR PATCH)
    set(value "")
    foreach(line IN LISTS lines)
      if(line MATCHES "^#define MIPS_VERSION_${part} +([0-9]+)")
        set(value "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    if(value STREQUAL "")
      message(FATAL_ERROR "MIPS_VERSION_${part} not found in ${header}")
    endif()
    set(${part} "${value}")
  endforeach()
  set(${out_var} "${MAJOR}.${MINOR}.${PATCH}" PARENT_SCOPE)
endfunction()
