// SPDX-License-Identifier: GPL-3.0-or-later
#include "mumps_linear_solver.hpp"

#include <algorithm>
#include <mutex>

#include <fmt/format.h>
#include <petscksp.h>

#include "petsc_gather_to_all.hpp"
#include "petsc_matrix.hpp"
#include "petsc_owned.hpp"
#include "slepc_session.hpp"
#include "substruct/core/error.hpp"
#include "substruct/solvers/linear_solver.hpp"

namespace substruct::slepc_plugin {
namespace {

class MumpsLinearSolver final : public LinearSolver {
 public:
  void analyze(const SparseMatrix& A, const MatrixProperties& properties) override {
    if (A.rows() != A.cols())
      throw Error(fmt::format("mumps: the matrix is {}×{}; it must be square", A.rows(), A.cols()));
    if (!properties.symmetric)
      throw Error("mumps: this solver factors symmetric matrices (LDLᵀ); the matrix is not");
    rows_ = A.rows();
  }

  void factorize(const SparseMatrix& A) override {
    if (A.rows() != rows_ || A.cols() != rows_)
      throw Error(fmt::format("mumps: factorize() of a {}×{} matrix after analyze() of {} rows",
                              A.rows(), A.cols(), rows_));
    const std::lock_guard<std::mutex> lock(petsc_mutex());
    release();
    const MPI_Comm comm = shared_ ? PETSC_COMM_WORLD : PETSC_COMM_SELF;
    SparseMatrix scratch;
    matrix_ = std::make_unique<PetscMatrix>(comm, full_symmetric(A, scratch, "the matrix"));
    check(KSPCreate(comm, ksp_.out()), "KSPCreate");
    check(KSPSetOperators(ksp_.get(), matrix_->get(), matrix_->get()), "KSPSetOperators");
    check(KSPSetType(ksp_.get(), KSPPREONLY), "KSPSetType(preonly)");
    // A failed factorization or solve is an error, not a silent "not converged".
    check(KSPSetErrorIfNotConverged(ksp_.get(), PETSC_TRUE), "KSPSetErrorIfNotConverged");
    PC pc = nullptr;
    check(KSPGetPC(ksp_.get(), &pc), "KSPGetPC");
    check(PCSetType(pc, PCCHOLESKY), "PCSetType(cholesky)");
    check(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS), "PCFactorSetMatSolverType(mumps)");
    try {
      check(KSPSetUp(ksp_.get()), "KSPSetUp");
    } catch (const Error& e) {
      release();
      throw Error(fmt::format("mumps: the {}×{} matrix could not be factored (is it singular?): {}",
                              rows_, rows_, e.what()));
    }
    Mat factor = nullptr;
    check(PCFactorGetMatrix(pc, &factor), "PCFactorGetMatrix");
    MatInfo stats{};
    check(MatGetInfo(factor, MAT_GLOBAL_SUM, &stats), "MatGetInfo");
    info_.factor_nonzeros = static_cast<long>(stats.nz_used);
    const int ranks = size_of(comm);
    info_.method = fmt::format("MUMPS LDLᵀ over {} rank{}", ranks, ranks == 1 ? "" : "s");
  }

  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const override {
    Eigen::MatrixXd X;
    solve_columns(b, X);  // one column
    x = X.col(0);
  }

  void solve_columns(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const override {
    if (ksp_.get() == nullptr) throw Error("mumps: solve_columns() before factorize()");
    if (B.rows() != rows_)
      throw Error(
          fmt::format("mumps: the right-hand sides have {} rows, the matrix {}", B.rows(), rows_));
    X.resize(rows_, B.cols());
    if (B.cols() == 0) return;
    const std::lock_guard<std::mutex> lock(petsc_mutex());
    // B and X as dense matrices distributed by rows like A; MUMPS solves all columns together.
    MPI_Comm comm = MPI_COMM_NULL;
    check(PetscObjectGetComm(reinterpret_cast<PetscObject>(matrix_->get()), &comm),
          "PetscObjectGetComm");
    PetscInt begin = 0, end = 0;
    check(MatGetOwnershipRange(matrix_->get(), &begin, &end), "MatGetOwnershipRange");
    const auto columns = static_cast<PetscInt>(B.cols());
    OwnedMat rhs, solution;
    check(MatCreateDense(comm, end - begin, PETSC_DECIDE, rows_, columns, nullptr, rhs.out()),
          "MatCreateDense");
    check(MatCreateDense(comm, end - begin, PETSC_DECIDE, rows_, columns, nullptr, solution.out()),
          "MatCreateDense");
    PetscScalar* local = nullptr;
    check(MatDenseGetArrayWrite(rhs.get(), &local), "MatDenseGetArrayWrite");
    for (PetscInt c = 0; c < columns; ++c)  // column-major, leading dimension end − begin
      std::copy(B.col(c).data() + begin, B.col(c).data() + end, local + c * (end - begin));
    check(MatDenseRestoreArrayWrite(rhs.get(), &local), "MatDenseRestoreArrayWrite");
    check(KSPMatSolve(ksp_.get(), rhs.get(), solution.get()), "KSPMatSolve");
    // Every column whole on every rank.
    OwnedVec like;
    check(MatCreateVecs(matrix_->get(), like.out(), nullptr), "MatCreateVecs");
    GatherToAll gather(like.get());
    for (PetscInt c = 0; c < columns; ++c) {
      Vec column = nullptr;
      check(MatDenseGetColumnVecRead(solution.get(), c, &column), "MatDenseGetColumnVecRead");
      gather(column, X.col(c));
      check(MatDenseRestoreColumnVecRead(solution.get(), c, &column),
            "MatDenseRestoreColumnVecRead");
    }
  }

  FactorizationInfo info() const override { return info_; }
  bool shared() const override { return shared_; }
  void set_shared(bool shared) override { shared_ = shared; }

  ~MumpsLinearSolver() override {
    const std::lock_guard<std::mutex> lock(petsc_mutex());
    release();
  }

 private:
  void release() {
    ksp_.reset();
    matrix_.reset();
  }

  bool shared_ = false;
  Eigen::Index rows_ = 0;
  std::unique_ptr<PetscMatrix> matrix_;
  OwnedKsp ksp_;
  FactorizationInfo info_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_mumps_linear_solver() {
  ensure_slepc_initialized();
  return std::make_unique<MumpsLinearSolver>();
}

}  // namespace substruct::slepc_plugin
