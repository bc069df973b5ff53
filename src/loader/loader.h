/* loader.h — code objects and executables (src/loader): what the rest of the runtime needs. */
#ifndef LOADER_LOADER_H
#define LOADER_LOADER_H

/* Destroys every executable and reader still alive (hsa_shut_down), before memory goes. */
void ldr_shutdown(void);

#endif
