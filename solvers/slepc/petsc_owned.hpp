// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PETSc objects owned by a C++ scope: destroyed when it ends, also when an Error is thrown.
#include <petscksp.h>

namespace substruct::slepc_plugin {

/// Owns a PETSc object and destroys it when it goes.
template <class T, PetscErrorCode (*destroy)(T*)>
class Owned {
 public:
  Owned() = default;
  ~Owned() {
    if (object_ != nullptr) destroy(&object_);
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  T get() const { return object_; }
  T* out() { return &object_; }
  void reset() {
    if (object_ != nullptr) destroy(&object_);
    object_ = nullptr;
  }

 private:
  T object_ = nullptr;
};

using OwnedVec = Owned<Vec, VecDestroy>;
using OwnedScatter = Owned<VecScatter, VecScatterDestroy>;
using OwnedKsp = Owned<KSP, KSPDestroy>;
using OwnedMat = Owned<Mat, MatDestroy>;

}  // namespace substruct::slepc_plugin
