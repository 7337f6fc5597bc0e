# Every fuzz target is fuzz/<name>_fuzzer.cc defining LLVMFuzzerTestOneInput.
#   GPUF_FUZZ=ON (clang): <name>_fuzzer, a libFuzzer binary; `fuzz/run` drives them.
#   GPUF_BUILD_TESTS=ON (any compiler): <name>_replay runs files through the same
#   entry point, and ctest replays fuzz/regressions/<name>/ with it.
set(GPUF_FUZZ_TARGETS
  bundle_reader bundle_tar manifest rule_parser
  cgroup_facts cri_log crictl_json journal_json kernel_ring klog kube_node kube_text kubelet_log listing
  nvidia_smi_error nvidia_smi_list nvidia_smi_xml nvidia_smi_query_text bpf_device_program plugin_log proc_nvidia
  runtime_config version_strings
  text_redactor imported_text saved_input journal_export node_bytes)
# Targets whose code lives outside the analyzer library.
set(GPUF_FUZZ_EXTRA_LIBS_text_redactor gpuf_collector)
set(GPUF_FUZZ_EXTRA_LIBS_journal_export gpuf_collector)
set(GPUF_FUZZ_EXTRA_LIBS_imported_text gpuf_importer)
set(GPUF_FUZZ_EXTRA_LIBS_saved_input gpuf_importer)

pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)

if(GPUF_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GPUF_FUZZ needs clang (CMAKE_CXX_COMPILER=clang++)")
  endif()
  add_custom_target(fuzz_targets)
  foreach(name IN LISTS GPUF_FUZZ_TARGETS)
    add_executable(${name}_fuzzer fuzz/${name}_fuzzer.cc)
    target_link_libraries(${name}_fuzzer PRIVATE gpuf_analyzer PkgConfig::ZSTD)
    target_link_libraries(${name}_fuzzer PRIVATE ${GPUF_FUZZ_EXTRA_LIBS_${name}})
    target_link_options(${name}_fuzzer PRIVATE -fsanitize=fuzzer)
    add_dependencies(fuzz_targets ${name}_fuzzer)
  endforeach()
endif()

if(GPUF_BUILD_TESTS)
  # A new regressions folder adds its test at the next build.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/fuzz/regressions)
  add_library(gpuf_fuzz_replay_main OBJECT fuzz/replay_main.cc)
  target_link_libraries(gpuf_fuzz_replay_main PRIVATE gpuf_common)
  foreach(name IN LISTS GPUF_FUZZ_TARGETS)
    add_executable(${name}_replay fuzz/${name}_fuzzer.cc $<TARGET_OBJECTS:gpuf_fuzz_replay_main>)
    target_link_libraries(${name}_replay PRIVATE gpuf_analyzer PkgConfig::ZSTD)
    target_link_libraries(${name}_replay PRIVATE ${GPUF_FUZZ_EXTRA_LIBS_${name}})
    if(EXISTS ${CMAKE_SOURCE_DIR}/fuzz/regressions/${name})
      add_test(NAME fuzz_regressions_${name}
               COMMAND ${name}_replay ${CMAKE_SOURCE_DIR}/fuzz/regressions/${name})
    endif()
  endforeach()
endif()
