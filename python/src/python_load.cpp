// SPDX-License-Identifier: GPL-3.0-or-later
// A load written in Python: an object with accumulate(self, t, positions, forces), called before
// every step with the time, the world positions (N×3, read-only) and an N×3 array of zeros that
// it adds its forces to [N]. Each vertex with a nonzero force becomes a concentrated force on that
// vertex, in vertex order, as the pull plugin's are.
#include "python_load.hpp"

#include <chrono>

#include <pybind11/numpy.h>

namespace substruct::python {

py::array writable_view(Points& points, py::handle owner) {
  return py::array(py::dtype::of<double>(), {points.rows(), Eigen::Index{3}},
                   {Eigen::Index{3 * sizeof(double)}, Eigen::Index{sizeof(double)}}, points.data(),
                   owner);
}

py::array read_only_view(const Points& points, py::handle owner) {
  py::array view = writable_view(const_cast<Points&>(points), owner);
  view.attr("flags").attr("writeable") = false;
  return view;
}

PythonLoad::PythonLoad(py::object target) : target_(std::move(target)) {}

PythonLoad::~PythonLoad() {
  py::gil_scoped_acquire gil;
  target_ = py::object();
}

void PythonLoad::accumulate(const LoadContext& context, ExternalForces& forces) {
  const auto start = std::chrono::steady_clock::now();
  const Index n = context.positions.rows();
  buffer_.setZero(n, 3);
  {
    py::gil_scoped_acquire gil;
    // Views, not copies (an owner makes NumPy keep the pointer); valid only during the call.
    const py::none none;
    target_.attr("accumulate")(context.time, read_only_view(context.positions, none),
                               writable_view(buffer_, none));
  }
  for (Index v = 0; v < n; ++v) {
    const Vec3 fv = buffer_.row(v).transpose();
    if (fv != Vec3::Zero()) forces.point_forces.push_back({v, fv});
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++calls_;
}

}  // namespace substruct::python
