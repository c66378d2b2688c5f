# The git revision, regenerated on every build (only rewritten when it changes, so nothing
# recompiles needlessly). Sets KMINI_REVISION_SOURCE.
set(KMINI_REVISION_SOURCE ${CMAKE_CURRENT_BINARY_DIR}/generated/kmini_revision.cpp)
add_custom_target(kmini_revision
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR} -DOUTPUT=${KMINI_REVISION_SOURCE}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/write_revision.cmake
  BYPRODUCTS ${KMINI_REVISION_SOURCE}
  COMMENT "kmini git revision")
# A first version at configure time, so the file exists before the first build.
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR} -DOUTPUT=${KMINI_REVISION_SOURCE}
                -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/write_revision.cmake)
