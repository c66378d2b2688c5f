// The MPI communicator the runs share, with the few collectives the core needs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <mpi.h>

namespace kmini {

class Comm {
 public:
  // MPI_COMM_WORLD when MPI is initialised; a one-rank stand-in otherwise (kmini list/check).
  static Comm world();

  explicit Comm(MPI_Comm handle);

  MPI_Comm handle() const { return handle_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  void barrier() const;
  double max(double value) const;
  double min(double value) const;
  double sum(double value) const;
  // Every rank's `values` summed element by element, in place on every rank.
  void sum_in_place(double* values, std::size_t count) const;
  bool all(bool value) const;
  // Every rank's string, in rank order, on every rank.
  std::vector<std::string> all_gather(const std::string& value) const;
  // The root's string on every rank.
  std::string broadcast(const std::string& value) const;

 private:
  double allreduce(double value, MPI_Op op) const;

  MPI_Comm handle_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace kmini
