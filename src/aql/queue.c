/* queue.c — user-mode AQL queues. Placeholder until the queue work lands. */
#include "aql/aql.h"

void aql_shutdown(void) {}
