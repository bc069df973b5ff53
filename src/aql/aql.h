/* aql.h — user-mode AQL queues (src/aql): what the rest of the runtime needs of them. */
#ifndef AQL_AQL_H
#define AQL_AQL_H

/* Destroys every queue still alive (hsa_shut_down), before signals and memory go. */
void aql_shutdown(void);

#endif
