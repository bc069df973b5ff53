/* SPDX-License-Identifier: MIT */
/* test_kfd_ioctl.c — the /dev/kfd ioctl dispatcher: numbers, sizes, copy semantics,
 * process ownership, the removed debugger ioctls, fault injection and trace lines. */
#include "kfd_fixture.h"

#include <kfd_abi/kfd_ioctl_supp.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

START_TEST(version)
{
  fx_open();
  struct kfd_ioctl_get_version_args v = { 7, 7 };
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_VERSION, &v), 0);
  ck_assert_uint_eq(v.major_version, 1);
  ck_assert_uint_eq(v.minor_version, 18);   /* the default: today's kernels */
  fx_cfg.kfd_minor = 11;
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_VERSION, &v), 0);
  ck_assert_uint_eq(v.minor_version, 11);
  fx_cfg.kfd_minor = 0;
}
END_TEST

START_TEST(unknown_numbers_are_einval)
{
  fx_open();
  char buf[64] = {0};
  ck_assert_int_eq(kio(_IOWR('K', 0x00, char[8]), buf), -EINVAL);
  ck_assert_int_eq(kio(_IOWR('K', KFD_SUPP_COMMAND_END, char[8]), buf), -EINVAL);
  ck_assert_int_eq(kio(_IOWR('K', 0x82, char[40]), buf), -EINVAL);   /* ROCm-only DBG_TRAP */
}
END_TEST

START_TEST(bad_argument_pointer_is_efault)
{
  fx_open();
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_VERSION, (void *)8), -EFAULT);
  /* an IOW command reads the argument: an unmapped page faults */
  void *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_EVENT, page), -EFAULT);
  munmap(page, 4096);
}
END_TEST

START_TEST(user_size_decides_the_copy)
{
  fx_open();
  /* a caller passing a 4-byte struct gets only 4 bytes written back */
  uint32_t small[2] = { 0xaaaaaaaa, 0xbbbbbbbb };
  unsigned long req = _IOC(_IOC_READ, 'K', _IOC_NR(AMDKFD_IOC_GET_VERSION), 4);
  ck_assert_int_eq(kio(req, small), 0);
  ck_assert_uint_eq(small[0], 1);
  ck_assert_uint_eq(small[1], 0xbbbbbbbb);
  /* the kernel's own direction decides: a request claiming no data still gets written */
  struct kfd_ioctl_get_version_args v = {0};
  ck_assert_int_eq(kio(_IOC(_IOC_NONE, 'K', 0x01, sizeof v), &v), 0);
  ck_assert_uint_eq(v.major_version, 1);
}
END_TEST

START_TEST(deprecated_debugger_is_eperm)
{
  fx_open();
  struct kfd_ioctl_dbg_register_args a = { .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_REGISTER_DEPRECATED, &a), -EPERM);
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_WAVE_CONTROL_DEPRECATED, &a), -EPERM);
}
END_TEST

START_TEST(no_process_is_ebadf)
{
  struct kfd_ioctl_get_version_args v;
  fx_build();
  ck_assert_int_eq(kio(AMDKFD_IOC_GET_VERSION, &v), -EBADF);
}
END_TEST

START_TEST(forked_child_cannot_use_parent_fd)
{
  fx_open();
  pid_t pid = fork();
  if (pid == 0) {
    struct kfd_ioctl_get_version_args v;
    int r = kio(AMDKFD_IOC_GET_VERSION, &v);
    /* its own open makes a fresh process with nothing acquired yet */
    int o = sim_kfd_open();
    int k = kio(AMDKFD_IOC_GET_VERSION, &v);
    struct kfd_ioctl_create_queue_args q = { .gpu_id = GPU0, .queue_type = 2, .ring_size = 4096 };
    int c = kio(AMDKFD_IOC_CREATE_QUEUE, &q);
    _exit(r == -EBADF && o == 0 && k == 0 && c == -ESRCH ? 0 : 1);
  }
  int st;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
END_TEST

START_TEST(process_survives_close)
{
  fx_open();
  sim_kfd_close();
  ck_assert_int_eq(sim_kfd_open(), 0);
  /* the VM acquired before is still there: same file again is fine, another is EBUSY */
  struct kfd_ioctl_acquire_vm_args a = { .drm_fd = (uint32_t)fx_render(0), .gpu_id = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_ACQUIRE_VM, &a), 0);
}
END_TEST

START_TEST(fault_injection_nth_call)
{
  fx_cfg.faults[0] = (struct sim_fault){ _IOC_NR(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU), 2, ENOMEM };
  fx_cfg.fault_count = 1;
  fx_open();
  int e1, e2, e3;
  uint64_t h1 = fx_alloc(GPU0, 0x100000, 4096, GTT_RW, &e1);
  fx_alloc(GPU0, 0x200000, 4096, GTT_RW, &e2);
  uint64_t h3 = fx_alloc(GPU0, 0x300000, 4096, GTT_RW, &e3);
  ck_assert_int_eq(e1, 0);
  ck_assert_int_eq(e2, -ENOMEM);
  ck_assert_int_eq(e3, 0);
  ck_assert_uint_eq(h1, (uint64_t)GPU0 << 32 | 0);
  ck_assert_uint_eq(h3, (uint64_t)GPU0 << 32 | 1);   /* the injected failure allocated nothing */
  fx_cfg.fault_count = 0;
}
END_TEST

START_TEST(trace_lines)
{
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  fx_cfg.trace_fd = fds[1];
  fx_open();
  int e;
  fx_alloc(GPU0, 0x100000, 4096, VRAM_RW, &e);
  struct kfd_ioctl_alloc_memory_of_gpu_args bad = { .size = 0, .gpu_id = GPU0 };
  kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &bad);
  fx_cfg.trace_fd = -1;
  close(fds[1]);
  char buf[8192] = {0};
  size_t n = 0;
  ssize_t r;
  while ((r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
    n += (size_t)r;
  ck_assert_ptr_nonnull(strstr(buf, "kfd ACQUIRE_VM(drm_fd="));
  ck_assert_ptr_nonnull(strstr(buf, "kfd ALLOC_MEMORY_OF_GPU(va_addr=0x100000, size=0x1000, "
                                    "handle=0x0, mmap_offset=0x0, gpu_id=0x1000, "
                                    "flags=VRAM|WRITABLE) = 0 {handle=0x100000000000, "
                                    "mmap_offset=0x100000000}"));
  ck_assert_ptr_nonnull(strstr(buf, "size=0x0, handle=0x0, mmap_offset=0x0, gpu_id=0x1000, flags=0) = -1 EINVAL"));
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_ioctl");
  TCase *t = tcase_create("dispatch");
  tcase_add_test(t, version);
  tcase_add_test(t, unknown_numbers_are_einval);
  tcase_add_test(t, bad_argument_pointer_is_efault);
  tcase_add_test(t, user_size_decides_the_copy);
  tcase_add_test(t, deprecated_debugger_is_eperm);
  tcase_add_test(t, no_process_is_ebadf);
  tcase_add_test(t, forked_child_cannot_use_parent_fd);
  tcase_add_test(t, process_survives_close);
  tcase_add_test(t, fault_injection_nth_call);
  tcase_add_test(t, trace_lines);
  suite_add_tcase(s, t);
  return s;
}
