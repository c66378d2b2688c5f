# Which Kokkos patches the found Kokkos was built with, for the report's meta.kokkos.patches:
# scripts/setup.sh writes the stamp <prefix>/.kmini-stamp into each Kokkos it builds, one line
# "kokkos 3.4.01 patches <digest> flags ...", where <digest> is its patch_digest(), the first 16
# hex digits of the sha256 of cmake/patches/*.patch concatenated in order. A site's own Kokkos
# has no stamp: its digest is "none". Plain functions, so that a test runs them in script mode
# (tests/regression/test_kokkos_patches.cmake, under cmake -P).

string(REPEAT "[0-9a-f]" 16 _kmini_digest_regex)

# The stamp of the Kokkos whose package configuration is in `kokkos_dir` (Kokkos_DIR, which is
# <prefix>/<libdir>/cmake/Kokkos with <libdir> lib, lib64, lib32 or lib/<multiarch>), or "" when
# there is none.
function(kmini_kokkos_stamp kokkos_dir out_var)
  set(stamp "")
  get_filename_component(dir "${kokkos_dir}" ABSOLUTE)
  if(dir MATCHES "^(.*)/lib(64|32)?(/[^/]+)?/cmake/Kokkos/?$")
    set(prefix "${CMAKE_MATCH_1}")
    if(EXISTS "${prefix}/.kmini-stamp" AND NOT IS_DIRECTORY "${prefix}/.kmini-stamp")
      set(stamp "${prefix}/.kmini-stamp")
    endif()
  endif()
  set(${out_var} "${stamp}" PARENT_SCOPE)
endfunction()

# The digest after "patches " in the stamp `stamp_file`; "none" when `stamp_file` is "" or names
# no file, or the stamp has no "patches" field with 16 lowercase hex digits.
function(kmini_stamp_patches stamp_file out_var)
  set(digest "none")
  if(NOT stamp_file STREQUAL "" AND EXISTS "${stamp_file}")
    file(READ "${stamp_file}" text)
    string(REGEX REPLACE "[ \t\r\n]+" " " text " ${text} ")
    if(text MATCHES " patches (${_kmini_digest_regex}) ")
      set(digest "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out_var} "${digest}" PARENT_SCOPE)
endfunction()

# setup.sh's patch_digest() of the patches in `patch_dir`: the first 16 hex digits of the sha256
# of `cat patch_dir/*.patch`, concatenated byte for byte into `scratch_file` (file(READ) would
# turn CRLF into LF) by `cmake -E cat`. The files go in byte order of their names: the shell's
# order in any locale where the names first differ in a number of one width, as cmake/patches/'s
# 0001-..., 0002-... do.
function(kmini_patch_digest patch_dir scratch_file out_var)
  file(GLOB patches "${patch_dir}/*.patch")
  list(SORT patches)
  file(WRITE "${scratch_file}" "")
  if(patches)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E cat ${patches} OUTPUT_FILE "${scratch_file}"
                    RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "could not concatenate the patches in ${patch_dir}: ${status}")
    endif()
  endif()
  file(SHA256 "${scratch_file}" digest)
  file(REMOVE "${scratch_file}")
  string(SUBSTRING "${digest}" 0 16 digest)
  set(${out_var} "${digest}" PARENT_SCOPE)
endfunction()
