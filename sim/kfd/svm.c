/* svm.c — the SVM ioctl and SET_XNACK_MODE. SVM ranges are checked as the kernel checks
 * them (page-aligned nonzero range of mapped user memory, known attribute types, GPU ids
 * of this process); attributes are accepted but not yet kept: a query answers the
 * kernel's defaults for memory without SVM attributes. XNACK: per-process retry is only
 * switchable on GC 9.4.2 and later; older gfx9 parts keep it off. */
#include "kfd/kfd.h"

#include <errno.h>

uint32_t sim_kfd_arg_size(void);

#define SVM_DEFAULT_GRANULARITY 9u

static int check_gpu(struct sim_kfd_process *p, uint32_t v, bool loc)
{
  if (loc && (v == KFD_IOCTL_SVM_LOCATION_SYSMEM || v == KFD_IOCTL_SVM_LOCATION_UNDEFINED))
    return 0;
  return sim_pdd_by_id(p, v) ? 0 : -EINVAL;
}

int sim_kfd_svm(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_svm_args *a = data;
  if ((a->start_addr & (SIM_PAGE - 1)) || (a->size & (SIM_PAGE - 1)) || !a->start_addr ||
      !a->size)
    return -EINVAL;
  size_t room = sim_kfd_arg_size() > sizeof *a ? sim_kfd_arg_size() - sizeof *a : 0;
  if ((uint64_t)a->nattr * sizeof a->attrs[0] > room)
    return -EFAULT;   /* attributes beyond what the caller passed */
  if (a->op != KFD_IOCTL_SVM_OP_SET_ATTR && a->op != KFD_IOCTL_SVM_OP_GET_ATTR)
    return EINVAL;    /* sic: the kernel returns a positive EINVAL for an unknown op */
  if (!sim_user_range_mapped(a->start_addr, a->size))
    return -EFAULT;
  bool set = a->op == KFD_IOCTL_SVM_OP_SET_ATTR;
  for (uint32_t i = 0; i < a->nattr; i++) {
    struct kfd_ioctl_svm_attribute *at = &a->attrs[i];
    int r = 0;
    switch (at->type) {
    case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
    case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
      if (set)
        r = check_gpu(p, at->value, true);
      else
        at->value = KFD_IOCTL_SVM_LOCATION_UNDEFINED;
      break;
    case KFD_IOCTL_SVM_ATTR_ACCESS:
    case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
    case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
      r = check_gpu(p, at->value, false);
      if (!r && !set)   /* without XNACK, memory with no attributes is not GPU-accessible */
        at->type = p->xnack ? KFD_IOCTL_SVM_ATTR_ACCESS : KFD_IOCTL_SVM_ATTR_NO_ACCESS;
      break;
    case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
      if (!set)
        at->value = KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT;
      break;
    case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
      if (!set)
        at->value = ~(uint32_t)(KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT);
      break;
    case KFD_IOCTL_SVM_ATTR_GRANULARITY:
      if (!set)
        at->value = SVM_DEFAULT_GRANULARITY;
      break;
    default:
      r = -EINVAL;
    }
    if (r)
      return r;
  }
  return 0;
}

int sim_kfd_set_xnack_mode(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_set_xnack_mode_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  if (a->xnack_enabled < 0) {
    a->xnack_enabled = p->xnack;
  } else if (p->queues) {
    r = -EBUSY;   /* not while user queues exist */
  } else if ((a->xnack_enabled != 0) != (p->xnack != 0)) {
    if (a->xnack_enabled) {
      for (unsigned i = 0; i < p->n_pdds && !r; i++)
        if (p->pdds[i].gpu->model->gfx_target_version < 90402 ||
            p->pdds[i].gpu->model->gfx_target_version >= 100000)
          r = -EPERM;
    }
    if (!r)
      p->xnack = a->xnack_enabled != 0;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}
