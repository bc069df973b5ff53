/* SPDX-License-Identifier: MIT */
/* unimplemented.h — what a not-yet-implemented API entry point does. */
#ifndef CORE_UNIMPLEMENTED_H
#define CORE_UNIMPLEMENTED_H

/* Tells the user once per function (on stderr) that `name` is not implemented yet. */
void core_unimplemented(const char *name);

#endif
