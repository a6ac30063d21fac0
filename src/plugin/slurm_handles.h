// Owners of Slurm's C objects, so that an exception (std::bad_alloc while copying
// records) leaves no list iterator registered on job_list and leaks no list or bitmap.
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

}  // namespace easypp::plugin

#endif
