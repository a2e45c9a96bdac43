# A pristine grading build (`warpdrill grade --reference`): the reference
# course's checks and common libraries, already built in the reference's
# build directory WARPDRILL_GRADING_KIT (its target grading-kit), linked with
# one learner's kernel files, copied to WARPDRILL_KERNELS_DIR/lessons/NN-name/
# and nothing else. Whatever else the learner changed never reaches the build.
# The source directory configured is the reference's own.
load_cache(${WARPDRILL_GRADING_KIT} READ_WITH_PREFIX kit_ WARPDRILL_ACTIVE_BACKEND)
if(NOT kit_WARPDRILL_ACTIVE_BACKEND STREQUAL WARPDRILL_ACTIVE_BACKEND)
  message(FATAL_ERROR "the grading kit in ${WARPDRILL_GRADING_KIT} is for the backend "
    "'${kit_WARPDRILL_ACTIVE_BACKEND}', this build for '${WARPDRILL_ACTIVE_BACKEND}'")
endif()
find_package(Catch2 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)  # warpdrill_catch links it
include(${WARPDRILL_GRADING_KIT}/warpdrill-grading-kit.cmake)
set(WARPDRILL_CUDACC ${WARPDRILL_GRADING_KIT}/cpu-cuda/cudacc)
foreach(library IN ITEMS messages backend host catch course)
  add_library(warpdrill::${library} ALIAS warpdrill_${library})
endforeach()

file(GLOB kernel_dirs LIST_DIRECTORIES true ${WARPDRILL_KERNELS_DIR}/lessons/[0-9][0-9]-*)
foreach(kernel_dir IN LISTS kernel_dirs)
  get_filename_component(name ${kernel_dir} NAME)
  string(SUBSTRING ${name} 0 2 number)
  warpdrill_lesson_target(lesson-${number} ${PROJECT_SOURCE_DIR}/lessons/${name} ${kernel_dir})
endforeach()
