# cmake/KminiKokkosPatches.cmake in script mode: the stamp of a Kokkos found in each install
# layout, its digest or "none", and the digest of the patches equal to scripts/setup.sh's own
# patch_digest(), run from setup.sh itself.
#
#   cmake -DSOURCE_DIR=<checkout> -DWORK_DIR=<scratch folder> -P test_kokkos_patches.cmake
cmake_minimum_required(VERSION 3.21)
include(${SOURCE_DIR}/cmake/KminiKokkosPatches.cmake)

function(expect_equal what actual expected)
  if(NOT actual STREQUAL expected)
    message(SEND_ERROR "${what}: got '${actual}', expected '${expected}'")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# A stamp as setup.sh writes it, in each layout of Kokkos_DIR.
set(digest "0123456789abcdef")
set(stamp_text "kokkos 3.4.01 patches ${digest} flags -DCMAKE_BUILD_TYPE=Release ")
string(APPEND stamp_text "-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \n")
foreach(libdir lib lib64 lib32 lib/x86_64-linux-gnu)
  string(MAKE_C_IDENTIFIER "${libdir}" name)
  set(prefix "${WORK_DIR}/stamped-${name}")
  file(MAKE_DIRECTORY "${prefix}/${libdir}/cmake/Kokkos")
  file(WRITE "${prefix}/.kmini-stamp" "${stamp_text}")
  kmini_kokkos_stamp("${prefix}/${libdir}/cmake/Kokkos" stamp)
  expect_equal("the stamp under ${libdir}" "${stamp}" "${prefix}/.kmini-stamp")
  kmini_stamp_patches("${stamp}" patches)
  expect_equal("the digest under ${libdir}" "${patches}" "${digest}")
  # Kokkos_DIR as a user may spell it, with a trailing slash or dot-dot.
  kmini_kokkos_stamp("${prefix}/${libdir}/cmake/Kokkos/" stamp)
  expect_equal("the stamp under ${libdir}/" "${stamp}" "${prefix}/.kmini-stamp")
  kmini_kokkos_stamp("${prefix}/${libdir}/cmake/../cmake/Kokkos" stamp)
  expect_equal("the stamp under ${libdir}/cmake/../" "${stamp}" "${prefix}/.kmini-stamp")
endforeach()

# A site's own Kokkos: no stamp, "none".
set(site "${WORK_DIR}/site")
file(MAKE_DIRECTORY "${site}/lib/cmake/Kokkos")
kmini_kokkos_stamp("${site}/lib/cmake/Kokkos" stamp)
expect_equal("a site's Kokkos' stamp" "${stamp}" "")
kmini_stamp_patches("${stamp}" patches)
expect_equal("a site's Kokkos' digest" "${patches}" "none")
kmini_stamp_patches("${site}/no-such-stamp" patches)
expect_equal("a stamp that is not there" "${patches}" "none")

# A Kokkos_DIR of another shape names no prefix: no stamp, even with one beside it.
file(MAKE_DIRECTORY "${WORK_DIR}/odd/share/Kokkos")
file(WRITE "${WORK_DIR}/odd/.kmini-stamp" "${stamp_text}")
kmini_kokkos_stamp("${WORK_DIR}/odd/share/Kokkos" stamp)
expect_equal("an odd Kokkos_DIR's stamp" "${stamp}" "")

# Stamps without a digest, or with one that is not 16 lowercase hex digits.
foreach(text "kokkos 3.4.01 flags -DCMAKE_BUILD_TYPE=Release" ""
        "kokkos 3.4.01 patches 0123456789ABCDEF flags" "kokkos 3.4.01 patches 0123456789abcde flags"
        "kokkos 3.4.01 patches 0123456789abcdef0 flags" "kokkos 3.4.01 patches flags"
        "kokkos 3.4.01 xpatches ${digest} flags")
  file(WRITE "${WORK_DIR}/odd-stamp" "${text}")
  kmini_stamp_patches("${WORK_DIR}/odd-stamp" patches)
  expect_equal("the stamp '${text}'" "${patches}" "none")
endforeach()
# The digest at the end of a stamp, with or without a newline.
foreach(text "patches ${digest}" "kokkos 3.4.01 patches ${digest}\n")
  file(WRITE "${WORK_DIR}/end-stamp" "${text}")
  kmini_stamp_patches("${WORK_DIR}/end-stamp" patches)
  expect_equal("the stamp '${text}'" "${patches}" "${digest}")
endforeach()

# The digest of the checkout's patches is the one setup.sh computes (its patch_digest(), taken
# from setup.sh and run as it is), and so is that of patches holding CRLF, ';', '\', "${...}".
find_program(BASH bash REQUIRED)
function(expect_setup_sh_digest what root)
  kmini_patch_digest("${root}/cmake/patches" "${WORK_DIR}/patches.cat" ours)
  execute_process(
    COMMAND ${BASH} -c [[
      root=$1
      definition=$(sed -n '/^patch_digest() {$/,/^}$/p' "$2")
      [ -n "$definition" ] || { echo "no patch_digest() in $2" >&2; exit 1; }
      eval "$definition"
      patch_digest
    ]] _ "${root}" "${SOURCE_DIR}/scripts/setup.sh"
    OUTPUT_VARIABLE theirs OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  expect_equal("${what}: setup.sh's patch_digest() exit status" "${rc}" "0")
  expect_equal("${what}: the digest" "${ours}" "${theirs}")
  string(LENGTH "${ours}" length)
  expect_equal("${what}: the digest's length" "${length}" "16")
endfunction()
expect_setup_sh_digest("the checkout's patches" "${SOURCE_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/checkout/cmake/patches")
file(WRITE "${WORK_DIR}/checkout/cmake/patches/0002-b.patch" "x;y\\z \${VAR} [[a]] \"q\"\r\n")
file(WRITE "${WORK_DIR}/checkout/cmake/patches/0001-a.patch" "-old;\n+new;\n")
file(WRITE "${WORK_DIR}/checkout/cmake/patches/notes.txt" "not a patch")
expect_setup_sh_digest("patches of awkward text" "${WORK_DIR}/checkout")
