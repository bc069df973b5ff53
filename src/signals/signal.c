/* signal.c — HSA signals. Placeholder until the signal work lands. */
#include "signals/signal.h"

void sig_shutdown(void) {}
