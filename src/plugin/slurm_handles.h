// Owners of Slurm's C objects, so that an exception (std::bad_alloc while copying
// records) leaves no list iterator registered on job_list, leaks no list or bitmap and
// keeps no assoc_mgr lock.
#ifndef EASYPP_PLUGIN_SLURM_HANDLES_H
#define EASYPP_PLUGIN_SLURM_HANDLES_H

#include "plugin/slurm_api.h"

namespace easypp::plugin {

class OwnedList {
 public:
  explicit OwnedList(List list) : list_(list) {}
  ~OwnedList() { FREE_NULL_LIST(list_); }
  OwnedList(const OwnedList&) = delete;
  OwnedList& operator=(const OwnedList&) = delete;
  List get() const { return list_; }

 private:
  List list_;
};

class OwnedIterator {
 public:
  explicit OwnedIterator(List list) : it_(list_iterator_create(list)) {}
  ~OwnedIterator() { list_iterator_destroy(it_); }
  OwnedIterator(const OwnedIterator&) = delete;
  OwnedIterator& operator=(const OwnedIterator&) = delete;
  template <typename T>
  T* next() { return static_cast<T*>(list_next(it_)); }

 private:
  ListIterator it_;
};

class OwnedBitmap {
 public:
  explicit OwnedBitmap(bitstr_t* bitmap) : bitmap_(bitmap) {}
  ~OwnedBitmap() { FREE_NULL_BITMAP(bitmap_); }
  OwnedBitmap(const OwnedBitmap&) = delete;
  OwnedBitmap& operator=(const OwnedBitmap&) = delete;
  bitstr_t* get() const { return bitmap_; }

 private:
  bitstr_t* bitmap_;
};

// assoc_mgr's read locks for a scope, taken after slurmctld's (as stock backfill takes
// them): on QOS records, and with kAssociationsAndQos also on associations, which
// acct_policy's lookups read (acct_policy_get_prio_thresh with assoc_mgr_locked).
class AssocMgrReadLock {
 public:
  enum Scope { kQos, kAssociationsAndQos };
  explicit AssocMgrReadLock(Scope scope = kQos) {
    locks_.qos = READ_LOCK;
    if (scope == kAssociationsAndQos) locks_.assoc = READ_LOCK;
    assoc_mgr_lock(&locks_);
  }
  ~AssocMgrReadLock() { assoc_mgr_unlock(&locks_); }
  AssocMgrReadLock(const AssocMgrReadLock&) = delete;
  AssocMgrReadLock& operator=(const AssocMgrReadLock&) = delete;

 private:
  assoc_mgr_lock_t locks_ = {};
};

}  // namespace easypp::plugin

#endif
