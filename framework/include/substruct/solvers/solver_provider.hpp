#pragma once
/// Creates the solvers a scene's config selects ([solvers] linear / eigen), so that coupling
/// plugins use solvers only through their interfaces. A method may create several (e.g. one
/// factorization per domain).
#include <memory>

#include "substruct/solvers/eigen_solver.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct {

class Config;
class PluginHost;

class SolverProvider {
 public:
  SolverProvider(const PluginHost& host, const Config& config);
  std::unique_ptr<LinearSolver> linear() const;
  std::unique_ptr<EigenSolver> eigen() const;

 private:
  const PluginHost& host_;
  const Config& config_;
};

}  // namespace substruct
