# Generates the glad 2 loaders (python3-glad) into the build tree. --reproducible
# makes glad use the Khronos XML bundled with the package instead of downloading.
set(GLAD_OUT ${CMAKE_BINARY_DIR}/glad)
set(GLAD_EXTENSIONS
  GL_EXT_memory_object GL_EXT_memory_object_fd GL_EXT_semaphore GL_EXT_semaphore_fd GL_ARB_buffer_storage
  GL_ARB_compute_shader GL_ARB_shader_storage_buffer_object GL_ARB_shader_image_load_store GL_ARB_clear_buffer_object
  EGL_EXT_device_base EGL_EXT_device_enumeration EGL_EXT_device_query EGL_EXT_platform_base
  EGL_EXT_platform_device EGL_MESA_platform_surfaceless EGL_KHR_surfaceless_context
  EGL_KHR_create_context EGL_EXT_device_drm)
string(REPLACE ";" "," GLAD_EXTENSIONS_ARG "${GLAD_EXTENSIONS}")
add_custom_command(
  OUTPUT ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/src/egl.c ${GLAD_OUT}/include/glad/gl.h ${GLAD_OUT}/include/glad/egl.h
  COMMAND ${GLAD_EXECUTABLE} --quiet --reproducible --api "gl:core=3.3,egl=1.5"
          --extensions "${GLAD_EXTENSIONS_ARG}" --out-path ${GLAD_OUT} c --loader
  COMMENT "Generating glad 2 loaders (GL 3.3 core, EGL 1.5)"
  VERBATIM)
add_library(glad_loaders STATIC ${GLAD_OUT}/src/gl.c ${GLAD_OUT}/src/egl.c)
target_include_directories(glad_loaders PUBLIC ${GLAD_OUT}/include)
target_link_libraries(glad_loaders PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(glad_loaders PROPERTIES POSITION_INDEPENDENT_CODE ON)
