// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Loads written in Python (python_load.cpp), and the read-only NumPy views of point arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "substruct/core/types.hpp"
#include "substruct/loads/load.hpp"

namespace substruct::python {

namespace py = pybind11;

/// An N×3 NumPy array over `points` without a copy; `owner` is kept alive by it.
py::array writable_view(Points& points, py::handle owner);
/// The same, read-only.
py::array read_only_view(const Points& points, py::handle owner);

/// Calls target.accumulate(t, positions, forces) with the GIL held; counts its wall time.
class PythonLoad final : public Load {
 public:
  explicit PythonLoad(py::object target);
  ~PythonLoad() override;
  void accumulate(const LoadContext& context, ExternalForces& forces) override;
  double seconds() const { return seconds_; }  // in the callback and the conversion, all calls
  long calls() const { return calls_; }

 private:
  py::object target_;
  Points buffer_;
  double seconds_ = 0;
  long calls_ = 0;
};

}  // namespace substruct::python
