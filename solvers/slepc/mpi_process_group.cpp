// SPDX-License-Identifier: GPL-3.0-or-later
#include "mpi_process_group.hpp"

#include <cstring>
#include <string>
#include <vector>

#include <mpi.h>
#include <slepcsys.h>

#include "slepc_session.hpp"
#include "substruct/core/error.hpp"

namespace substruct::slepc_plugin {
namespace {

constexpr int kStopTag = 7301;  // a one-byte message: "stop", sent to every other rank

void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(std::string("mpi: ") + what + " failed: " + std::string(text, std::size_t(length)));
}

class MpiProcessGroup final : public ProcessGroup {
 public:
  MpiProcessGroup() {
    check_mpi(MPI_Comm_dup(PETSC_COMM_WORLD, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    stop_from_.assign(std::size_t(size_), 0);
  }
  ~MpiProcessGroup() override {
    MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::string> all_gather(const std::string& bytes) override {
    // Each rank's bytes after one byte saying whether it raised the stop, so that every stop
    // message sent is also received here (none is left pending at MPI_Finalize).
    std::string mine(1, raised_ ? '1' : '0');
    mine += bytes;
    const int length = static_cast<int>(mine.size());
    std::vector<int> lengths(std::size_t(size_), 0), offsets(std::size_t(size_), 0);
    check_mpi(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_),
              "MPI_Allgather");
    long total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[std::size_t(r)] = static_cast<int>(total);
      total += lengths[std::size_t(r)];
    }
    if (total > 2147483647L) throw Error("mpi: the gathered results exceed 2 GB");
    std::vector<char> all(std::size_t(total) + 1);
    check_mpi(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(),
                             offsets.data(), MPI_CHAR, comm_),
              "MPI_Allgatherv");
    std::vector<std::string> result;
    for (int r = 0; r < size_; ++r) {
      const char* p = all.data() + offsets[std::size_t(r)];
      const auto n = std::size_t(lengths[std::size_t(r)]);
      if (r != rank_ && p[0] == '1' && !stop_from_[std::size_t(r)]) receive_stop(r);
      result.emplace_back(p + 1, n - 1);
    }
    MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
    sends_.clear();
    return result;
  }

  void raise_stop() override {
    if (raised_) return;
    raised_ = true;
    for (int r = 0; r < size_; ++r) {
      if (r == rank_) continue;
      MPI_Request request = MPI_REQUEST_NULL;
      check_mpi(MPI_Isend(&kStop, 1, MPI_CHAR, r, kStopTag, comm_, &request), "MPI_Isend");
      sends_.push_back(request);
    }
  }

  bool stop_raised() override {
    for (;;) {
      int arrived = 0;
      MPI_Status status;
      check_mpi(MPI_Iprobe(MPI_ANY_SOURCE, kStopTag, comm_, &arrived, &status), "MPI_Iprobe");
      if (!arrived) break;
      receive_stop(status.MPI_SOURCE);
    }
    for (char from : stop_from_)
      if (from) return true;
    return false;
  }

 private:
  void receive_stop(int source) {
    char byte = 0;
    check_mpi(MPI_Recv(&byte, 1, MPI_CHAR, source, kStopTag, comm_, MPI_STATUS_IGNORE), "MPI_Recv");
    stop_from_[std::size_t(source)] = 1;
  }

  static constexpr char kStop = 1;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  bool raised_ = false;
  std::vector<char> stop_from_;  // a stop message from rank r was received
  std::vector<MPI_Request> sends_;
};

}  // namespace

std::unique_ptr<ProcessGroup> make_mpi_process_group() {
  ensure_slepc_initialized();
  return std::make_unique<MpiProcessGroup>();
}

}  // namespace substruct::slepc_plugin
