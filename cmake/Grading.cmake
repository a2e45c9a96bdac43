# A pristine grading build (`warpdrill grade --reference`): the reference
# course's checks and common libraries, already built in the reference's
# build directory WARPDRILL_GRADING_KIT (its target grading-kit), linked with
# one learner's kernel files, copied to WARPDRILL_KERNELS_DIR/lessons/NN-name/
# and nothing else. Whatever else the learner changed never reaches the build.
# The source directory configured is the reference's own.
warpdrill_import_libraries(${WARPDRILL_GRADING_KIT})
include(${WARPDRILL_GRADING_KIT}/warpdrill-grading-kit.cmake)  # each lesson's compiled checks

file(GLOB kernel_dirs LIST_DIRECTORIES true ${WARPDRILL_KERNELS_DIR}/lessons/[0-9][0-9]-*)
foreach(kernel_dir IN LISTS kernel_dirs)
  get_filename_component(name ${kernel_dir} NAME)
  string(SUBSTRING ${name} 0 2 number)
  warpdrill_lesson_target(lesson-${number} ${PROJECT_SOURCE_DIR}/lessons/${name} ${kernel_dir})
endforeach()
