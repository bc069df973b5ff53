/* SPDX-License-Identifier: MIT */
/* dispatch_roundtrip.cl — the empty kernel of bench/dispatch_roundtrip.c. */
kernel void empty(void) {}
