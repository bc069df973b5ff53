/* executable.c — HSA executables. Placeholder until the loader work lands. */
#include "loader/loader.h"

void ldr_shutdown(void) {}
