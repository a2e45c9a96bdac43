function(warpdrill_add_all_lessons)
endfunction()
