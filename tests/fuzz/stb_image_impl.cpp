// stb_image and stb_image_write compiled here, from Debian's headers, so that
// the fuzzer's sanitizers and coverage see inside the decoders (libstb.a, which
// the app links, is built without them). Only the fuzzer links this.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
