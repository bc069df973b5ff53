/* extension.h — which HSA extensions this runtime offers. */
#ifndef CORE_EXTENSION_H
#define CORE_EXTENSION_H

#include <stdbool.h>

/* Images are offered once the image extension (hsa_ext_image_*) is implemented; until then
 * the runtime does not claim it, so callers do not reach unimplemented functions. */
bool core_extension_images_available(void);
/* libhsa-amd-aqlprofile64.so can be loaded (ROCR's condition for the AQL profile extension). */
bool core_extension_aqlprofile_available(void);

#endif
