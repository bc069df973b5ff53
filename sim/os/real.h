/* SPDX-License-Identifier: MIT */
/* real.h — the libc functions the interposers stand in front of. sim/os calls through
 * these to reach the real system; SIM_REAL(open) is the next definition of open after us. */
#ifndef SIM_OS_REAL_H
#define SIM_OS_REAL_H

/* dlsym(RTLD_NEXT, name); aborts with a message if libc has no such symbol. */
void *sim_real_sym(const char *name);

#define SIM_REAL(fn)                                                            \
  __extension__({                                                               \
    static __typeof__(&fn) real_##fn##_;                                        \
    __typeof__(&fn) r_ = __atomic_load_n(&real_##fn##_, __ATOMIC_ACQUIRE);      \
    if (!r_) {                                                                  \
      r_ = (__typeof__(&fn))sim_real_sym(#fn);                                  \
      __atomic_store_n(&real_##fn##_, r_, __ATOMIC_RELEASE);                    \
    }                                                                           \
    r_;                                                                         \
  })

#endif
