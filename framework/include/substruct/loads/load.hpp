// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The interface of load plugins (gravity, wind, point pulls…).
#include "substruct/core/types.hpp"
#include "substruct/loads/external_forces.hpp"
#include "substruct/plugin/component.hpp"

namespace substruct {

struct Scene;

/// The state a load may depend on (time; current world positions and velocities).
struct LoadContext {
  double time;
  const Scene& scene;
  const Points& positions;
  const Points& velocities;
};

class Load : public Component {
 public:
  /// Adds this load's forces at `context.time` to `forces`.
  virtual void accumulate(const LoadContext& context, ExternalForces& forces) = 0;
};

}  // namespace substruct
