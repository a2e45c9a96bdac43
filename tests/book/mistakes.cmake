# The book's "Mistakes" sections quote what the checks print for each mistake
# in book/mistakes/mistakes.toml. Each mistake is planted in a copy of its
# solution and the lesson's checks are built against it; the test
# book.message.<id> fails when the book's copy (book/mistakes/<id>.txt) is
# not what the checks print now, and the target book-messages rewrites the
# copies. The book itself only reads the committed text: it builds without C++.
if(NOT Python3_FOUND OR Python3_VERSION VERSION_LESS 3.11 OR NOT WARPDRILL_ACTIVE_BACKEND STREQUAL "cpu"
   OR NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/solutions)
  message(STATUS "the book's mistake messages are not checked (they need Python 3.11, the CPU backend and solutions/)")
  return()
endif()

set(book_mistakes_tool ${CMAKE_CURRENT_SOURCE_DIR}/book/mistakes.py)
set(book_planted ${CMAKE_BINARY_DIR}/book-mistakes)
set(book_catalogue ${PROJECT_SOURCE_DIR}/book/mistakes/mistakes.toml)
execute_process(COMMAND ${Python3_EXECUTABLE} ${book_mistakes_tool} plant ${book_planted}
                COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${Python3_EXECUTABLE} ${book_mistakes_tool} list
                OUTPUT_VARIABLE book_mistake_lines COMMAND_ERROR_IS_FATAL ANY)
# Planting again when the catalogue or a solution changes.
file(GLOB book_solution_files ${PROJECT_SOURCE_DIR}/solutions/*/*.cuh)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${book_catalogue} ${book_mistakes_tool} ${book_solution_files})

string(REPLACE "\n" ";" book_mistake_lines "${book_mistake_lines}")
set(book_message_commands "")
set(book_mistake_targets "")
foreach(line IN LISTS book_mistake_lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(REPLACE "|" ";" fields "${line}")
  list(GET fields 0 id)
  list(GET fields 1 lesson)
  # The lesson's checks, compiled once (lesson-NN-checks), against the planted kernels.
  set(target book_mistake_${id})
  warpdrill_lesson_target(${target} ${PROJECT_SOURCE_DIR}/lessons/${lesson} ${book_planted}/${id})

  set(message_args ${book_mistakes_tool} message ${id} $<TARGET_FILE:${target}> --planted ${book_planted})
  add_test(NAME book.message.${id} COMMAND ${Python3_EXECUTABLE} ${message_args} --check)
  set_tests_properties(book.message.${id} PROPERTIES LABELS "book" TIMEOUT 300)
  list(APPEND book_message_commands COMMAND ${Python3_EXECUTABLE} ${message_args} --write)
  list(APPEND book_mistake_targets ${target})
endforeach()

add_custom_target(book-messages ${book_message_commands}
                  COMMENT "the book's copies of the mistakes' messages (book/mistakes/*.txt)" VERBATIM)
add_dependencies(book-messages ${book_mistake_targets})
